//! A checked format, ready to run, and how one is read from its file: the
//! file's shape (TOML) and its checks. Every error is one sentence naming
//! the file, the line, what is wrong and what is accepted.

use serde::Deserialize;
use toml::Spanned;

use super::briefs::{self, Origin};
use super::map_keys::{CriterionFile, MapKeys, check_map, check_sections, map_spec};
use super::place::Place;
use crate::config::keys;
use crate::debate::Role;
use crate::debate::format::{Convergence, FormatRecord, MapSpec, Phase};
use crate::debate::seat::Side;
use crate::provider::kind;

/// A seat's own model settings, which win over heat.toml's `roles.*` (a
/// command-line flag still wins over them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatModel {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub max_tokens: Option<u32>,
}

/// A checked format, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    pub name: String,
    /// One line for `heat formats`.
    pub summary: String,
    pub origin: Origin,
    /// The format's own number of rounds; `debate.max_rounds` otherwise.
    pub max_rounds: Option<u32>,
    /// Each seat's id in the file (`proposition`), by position in
    /// [`crate::debate::seat::SEATS`]; `--seat ID=MODEL` names these.
    pub seat_ids: Vec<String>,
    /// Each seat's brief: the file name and its text (empty for a seat
    /// the format does not fill).
    pub briefs: Vec<(String, String)>,
    pub models: Vec<SeatModel>,
    /// What the log keeps.
    pub record: FormatRecord,
}

impl Format {
    /// Reads and checks a format file's text; `label` names the file in
    /// errors (`~/.config/heat/formats/x.toml`) and `brief_dir` is where
    /// its brief files are looked for before the built-in prompts.
    pub fn parse(name: &str, text: &str, origin: &Origin) -> anyhow::Result<Format> {
        parse(name, text, origin)
    }

    /// The built-in duel, as heat runs it when no format is named (a user's
    /// own `duel.toml` is a format like any other, and is recorded).
    pub fn is_duel(&self) -> bool {
        self.name == crate::debate::format::DUEL && self.origin == Origin::BuiltIn
    }

    /// The record the log keeps; `None` for the duel, whose log is what it
    /// always was.
    pub fn log_record(&self) -> Option<FormatRecord> {
        (!self.is_duel()).then(|| self.record.clone())
    }

    /// The seats that sit: the debaters, then the judge if one sits.
    pub fn seats(&self) -> Vec<Role> {
        self.record.seats()
    }

    /// The seat a `--seat` name means: the format's seat id or label, or
    /// the role's own name (advocate, skeptic, judge), in any case.
    pub fn seat_named(&self, name: &str) -> Option<Role> {
        let name = name.trim();
        self.seats().into_iter().find(|&role| {
            self.seat_ids[role.position()].eq_ignore_ascii_case(name)
                || self.record.label(role).eq_ignore_ascii_case(name)
                || role.key().eq_ignore_ascii_case(name)
        })
    }

    /// One line for `heat formats`.
    pub fn line(&self) -> String {
        let rounds = self.max_rounds.map(|n| format!(", {n} rounds")).unwrap_or_default();
        format!("{}, {}{rounds}: {}", self.record.lineup(), self.record.judging(), self.summary)
    }
}

/// The most debaters and judges a format may seat.
pub const MAX_DEBATERS: usize = 6;
pub const MAX_JUDGES: u32 = crate::debate::PanelJudge::MOST;

/// A format file as written: each flag is a key of its own in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)]
struct FormatFile {
    summary: String,
    max_rounds: Option<Spanned<u32>>,
    #[serde(default)]
    opening_arguments: Option<Spanned<u32>>,
    #[serde(default = "yes")]
    resolve_early: bool,
    #[serde(default)]
    scores: bool,
    #[serde(default)]
    issues: bool,
    /// The judge keeps an argument map: claims, and a scorecard per side.
    #[serde(default)]
    map: bool,
    /// The scorecard's criteria (`map = true`); the four standard ones when none.
    #[serde(default)]
    criteria: Vec<Spanned<CriterionFile>>,
    /// The sections each debater's turn is written in.
    #[serde(default)]
    sections: Vec<Spanned<String>>,
    /// The judge resolves only on claims both sides accept (`map = true`).
    #[serde(default)]
    consensus: bool,
    #[serde(default)]
    seats: Vec<Spanned<SeatFile>>,
    judges: Spanned<JudgesFile>,
    #[serde(default)]
    phases: Vec<Spanned<PhaseFile>>,
    convergence: Option<Spanned<ConvergenceFile>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConvergenceFile {
    /// Word likeness from 0 to 1 at which two final answers count as one.
    #[serde(default = "exact")]
    threshold: Spanned<f64>,
    /// A round where every debater agrees ends the debate.
    #[serde(default = "yes")]
    stop: bool,
}

fn exact() -> Spanned<f64> {
    Spanned::new(0..0, 1.0)
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatFile {
    id: Spanned<String>,
    label: Option<String>,
    side: Spanned<String>,
    brief: Spanned<String>,
    provider: Option<Spanned<String>>,
    model: Option<String>,
    max_tokens: Option<Spanned<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgesFile {
    #[serde(default = "one")]
    count: Spanned<u32>,
    #[serde(default)]
    label: Option<String>,
    /// Required when a judge sits.
    brief: Option<Spanned<String>>,
    provider: Option<Spanned<String>>,
    model: Option<String>,
    max_tokens: Option<Spanned<u32>>,
    /// The models of a panel's other judges, in order, on the judges' provider.
    models: Option<Spanned<Vec<String>>>,
    /// The providers of a panel's other judges, in order.
    providers: Option<Spanned<Vec<String>>>,
}

fn one() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseFile {
    name: Spanned<String>,
    rounds: Option<Spanned<u32>>,
    instruction: Spanned<String>,
}

/// Reads one file; see [`Format::parse`].
pub fn parse(name: &str, text: &str, origin: &Origin) -> anyhow::Result<Format> {
    let place = Place { name, text, origin };
    let file: FormatFile = toml::from_str(text).map_err(|e| {
        let message = e.message().trim_end_matches('\n').replace('\n', "; ");
        place.error(e.span(), &message)
    })?;
    check(&place, &file)?;
    let seats = seat_order(&file);
    let judges = file.judges.get_ref();
    let brief = |b: &Spanned<String>| -> anyhow::Result<(String, String)> {
        let text = briefs::brief_text(b.get_ref(), origin)
            .ok_or_else(|| place.error(Some(b.span()), &missing_brief(b.get_ref(), origin)))?;
        Ok((b.get_ref().clone(), text))
    };
    let seat_model = |s: &SeatFile| SeatModel {
        provider: s.provider.as_ref().map(|p| p.get_ref().clone()),
        model: s.model.clone(),
        max_tokens: s.max_tokens.as_ref().map(|m| *m.get_ref()),
    };
    // Every seat's row, by `Role::ALL` position; the judge's row is filled even with no judge.
    let mut labels: Vec<String> = Role::ALL.iter().map(|r| r.label().to_string()).collect();
    let mut sides: Vec<Side> = Role::ALL.iter().map(|r| r.side()).collect();
    let mut seat_ids: Vec<String> = Role::ALL.iter().map(|r| r.key().to_string()).collect();
    let mut briefs: Vec<(String, String)> = vec![(String::new(), String::new()); Role::COUNT];
    let mut models: Vec<SeatModel> = vec![SeatModel::default(); Role::COUNT];
    for (&role, seat) in Role::DEBATER_SEATS.iter().zip(&seats) {
        let at = role.position();
        labels[at] = seat.label.clone().unwrap_or_else(|| capitalised(seat.id.get_ref()));
        sides[at] = Side::from_name(seat.side.get_ref()).unwrap_or(Side::Free);
        seat_ids[at].clone_from(seat.id.get_ref());
        briefs[at] = brief(&seat.brief)?;
        models[at] = seat_model(seat);
    }
    let judge = Role::Judge.position();
    labels[judge] = judges.label.clone().unwrap_or_else(|| "Judge".into());
    if let Some(b) = &judges.brief {
        briefs[judge] = brief(b)?;
    }
    models[judge] = SeatModel {
        provider: judges.provider.as_ref().map(|p| p.get_ref().clone()),
        model: judges.model.clone(),
        max_tokens: judges.max_tokens.as_ref().map(|m| *m.get_ref()),
    };
    let debaters = u32::try_from(seats.len()).unwrap_or(2);
    // A record as short as a two-seat format's always was: its log reads as before.
    let rows = if debaters == 2 { 3 } else { Role::COUNT.min(Role::Judge.position() + seats.len() - 1) };
    let two_sided = sides[..3] == [Side::For, Side::Against, Side::Judge] && debaters == 2;
    let record = FormatRecord {
        name: name.to_string(),
        labels: labels[..rows].to_vec(),
        debaters,
        sides: if two_sided { Vec::new() } else { sides[..rows].to_vec() },
        convergence: file.convergence.as_ref().map(|c| Convergence {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked to lie in 0..=1
            threshold: (c.get_ref().threshold.get_ref() * 100.0).round() as u32,
            stop: c.get_ref().stop,
        }),
        opening_arguments: file.opening_arguments.as_ref().map_or(1, |n| *n.get_ref()),
        resolve_early: file.resolve_early,
        scores: file.scores,
        issues: file.issues,
        map: file.map.then(|| MapSpec { consensus: file.consensus, ..map_spec(&file.criteria) }),
        sections: file.sections.iter().map(|s| s.get_ref().trim().to_string()).collect(),
        phases: file
            .phases
            .iter()
            .map(|p| {
                let p = p.get_ref();
                Phase {
                    name: p.name.get_ref().trim().to_string(),
                    rounds: p.rounds.as_ref().map(|r| *r.get_ref()),
                    instruction: p.instruction.get_ref().trim().to_string(),
                }
            })
            .collect(),
        briefs: Some(briefs[..rows].iter().map(|(_, text)| text.clone()).collect()),
        judges: *judges.count.get_ref(),
        panel_models: judges
            .models
            .as_ref()
            .map(|m| m.get_ref().iter().map(|name| name.trim().to_string()).collect())
            .unwrap_or_default(),
        panel_providers: judges
            .providers
            .as_ref()
            .map(|p| p.get_ref().iter().map(|name| name.trim().to_string()).collect())
            .unwrap_or_default(),
    };
    Ok(Format {
        name: name.to_string(),
        summary: file.summary.trim().to_string(),
        origin: origin.clone(),
        max_rounds: file.max_rounds.as_ref().map(|n| *n.get_ref()),
        seat_ids,
        briefs,
        models,
        record,
    })
}

/// The file's seats in the order they fill [`Role::DEBATER_SEATS`]: a
/// two-sided format's pro seat first and con seat second, whatever their
/// order in the file; free seats in file order.
fn seat_order(file: &FormatFile) -> Vec<&SeatFile> {
    let seats: Vec<&SeatFile> = file.seats.iter().map(Spanned::get_ref).collect();
    let rank = |s: &&SeatFile| match s.side.get_ref().as_str() {
        "pro" => 0,
        "con" => 1,
        _ => 2,
    };
    let mut ordered = seats;
    ordered.sort_by_key(rank);
    ordered
}

/// Everything a file may say that its shape does not already refuse.
fn check(place: &Place<'_>, file: &FormatFile) -> anyhow::Result<()> {
    if file.seats.is_empty() {
        return Err(place.error(
            None,
            "a format needs debaters: add a [[seats]] table with side = \"pro\" and one with side = \"con\"",
        ));
    }
    for seat in &file.seats {
        let seat = seat.get_ref();
        if !["pro", "con", "free"].contains(&seat.side.get_ref().as_str()) {
            let said = format!(
                "side = {:?} is not a side; a seat's side is \"pro\", \"con\" or \"free\"",
                seat.side.get_ref()
            );
            return Err(place.error(Some(seat.side.span()), &said));
        }
        if seat.id.get_ref().trim().is_empty()
            || !seat.id.get_ref().chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            let said = format!("id = {:?} is not a seat id; use letters, digits, - and _", seat.id.get_ref());
            return Err(place.error(Some(seat.id.span()), &said));
        }
        if seat.label.as_deref().is_some_and(|l| l.trim().is_empty()) {
            return Err(place
                .error(Some(seat.id.span()), "this seat's label is empty; name it, or leave label out to use its id"));
        }
        check_brief(place, &seat.brief)?;
        check_model(place, seat.provider.as_ref(), seat.max_tokens.as_ref())?;
    }
    let last = file.seats.last().map(Spanned::span);
    if file.seats.len() > MAX_DEBATERS {
        let said = format!("{} debaters is too many; a format seats 2 to {MAX_DEBATERS}", file.seats.len());
        return Err(place.error(last, &said));
    }
    let count = |side: &str| file.seats.iter().filter(|s| s.get_ref().side.get_ref() == side).count();
    let sided = count("pro") == 1 && count("con") >= 1 && count("free") == 0;
    let free = count("free") == file.seats.len() && file.seats.len() >= 2;
    if !sided && !free {
        let said = format!(
            "this format seats {} debater(s) ({} pro, {} con, {} free); heat runs one \"pro\" seat against 1 to 5 \"con\" seats, or 2 to {MAX_DEBATERS} seats that are all \"free\"",
            file.seats.len(),
            count("pro"),
            count("con"),
            count("free")
        );
        return Err(place.error(last, &said));
    }
    check_ids(place, file)?;
    check_judges(place, file, free)?;
    if file.summary.trim().is_empty() {
        return Err(place.error(None, "summary is empty; say in one line what the format does"));
    }
    check_rounds(place, file)
}

/// The judges: how many a format's seats allow, their brief, their models
/// and providers.
fn check_judges(place: &Place<'_>, file: &FormatFile, free: bool) -> anyhow::Result<()> {
    let two_sided = !free;
    let count = |side: &str| file.seats.iter().filter(|s| s.get_ref().side.get_ref() == side).count();
    let judges = file.judges.get_ref();
    let n = *judges.count.get_ref();
    if n > MAX_JUDGES {
        let said = format!("judges.count = {n} is too many; a format has 0 to {MAX_JUDGES} judges");
        return Err(place.error(Some(judges.count.span()), &said));
    }
    if file.scores && (free || file.seats.len() != 2) {
        return Err(place.error(
            None,
            "scores = true: the tug-of-war is between one \"pro\" and one \"con\" seat; leave scores out",
        ));
    }
    let keys = MapKeys {
        map: file.map,
        consensus: file.consensus,
        criteria: &file.criteria,
        two_sided: !free && file.seats.len() == 2,
    };
    check_map(place, &keys)?;
    check_sections(place, &file.sections)?;
    if file.issues && (free || count("con") == 0) {
        return Err(place
            .error(None, "issues = true needs \"con\" seats to raise the issues and a \"pro\" seat to answer them"));
    }
    if two_sided && n == 0 {
        let said = "judges.count = 0: a \"pro\" and \"con\" debate needs a judge (1 to 5); a debate with no judge seats free debaters whose final answers decide by vote";
        return Err(place.error(Some(judges.count.span()), said));
    }
    match &judges.brief {
        Some(brief) => check_brief(place, brief)?,
        None if n > 0 => {
            return Err(
                place.error(Some(file.judges.span()), "[judges] needs a brief (a prompt file) when a judge sits")
            );
        }
        None => {}
    }
    check_convergence(place, file)?;
    check_model(place, judges.provider.as_ref(), judges.max_tokens.as_ref())?;
    if let Some(models) = &judges.models {
        let others = n.saturating_sub(1);
        let named = models.get_ref().len();
        if named > usize::try_from(others).unwrap_or(usize::MAX) || models.get_ref().iter().any(|m| m.trim().is_empty())
        {
            let said = format!(
                "judges.models names {named} model(s) for the panel's {others} other judge(s): give at most one name each, none empty (the chair takes `model`)"
            );
            return Err(place.error(Some(models.span()), &said));
        }
    }
    if let Some(providers) = &judges.providers {
        let others = usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX);
        let named = providers.get_ref();
        // A person takes the chair only: a panel's other judges are models.
        let judging = || kind::names().filter(|name| !kind::ProviderKind::names_person(name));
        let wrong = named.iter().find(|p| !judging().any(|name| name == p.trim()));
        if named.len() > others || wrong.is_some() {
            let said = format!(
                "judges.providers names {} provider(s) for the panel's {others} other judge(s){}: give at most one each, from {}",
                named.len(),
                wrong.map(|w| format!(", and {w:?} is not one")).unwrap_or_default(),
                judging().collect::<Vec<_>>().join(", ")
            );
            return Err(place.error(Some(providers.span()), &said));
        }
    }
    Ok(())
}

fn check_convergence(place: &Place<'_>, file: &FormatFile) -> anyhow::Result<()> {
    let Some(convergence) = &file.convergence else { return Ok(()) };
    let threshold = &convergence.get_ref().threshold;
    if !(0.1..=1.0).contains(threshold.get_ref()) {
        let said = format!(
            "convergence.threshold = {} is out of range; 0.1 to 1 (the share of words two final answers must share; 1 means the same once normalised)",
            threshold.get_ref()
        );
        return Err(place.error(Some(threshold.span()), &said));
    }
    Ok(())
}

/// Seat ids are different from each other and from the other seats' role
/// names (`--seat NAME=MODEL` must mean one seat).
fn check_ids(place: &Place<'_>, file: &FormatFile) -> anyhow::Result<()> {
    let ids: Vec<&Spanned<String>> = file.seats.iter().map(|s| &s.get_ref().id).collect();
    for (i, id) in ids.iter().enumerate() {
        let name = id.get_ref().to_lowercase();
        if ids[..i].iter().any(|other| other.get_ref().to_lowercase() == name) {
            return Err(place.error(
                Some(id.span()),
                &format!("id = {:?} is given to two seats; each seat's id is its own", id.get_ref()),
            ));
        }
        let side = file.seats[i].get_ref().side.get_ref().as_str();
        let own = match side {
            "pro" => "advocate",
            "con" => "skeptic",
            _ => "",
        };
        if Role::ALL.iter().any(|r| r.key() == name) && name != own {
            let said = format!(
                "id = {:?} is another seat's name (advocate is the pro seat, skeptic the con seat, judge the judge); choose another",
                id.get_ref()
            );
            return Err(place.error(Some(id.span()), &said));
        }
    }
    Ok(())
}

/// A brief is a file name: beside the format file, or built in.
fn check_brief(place: &Place<'_>, brief: &Spanned<String>) -> anyhow::Result<()> {
    let name = brief.get_ref();
    if name.contains(['/', '\\']) || name.starts_with('.') || name.trim().is_empty() {
        let said = format!(
            "brief = {name:?} is not a file name; a brief is a file beside the format file (or a built-in one), named without a folder"
        );
        return Err(place.error(Some(brief.span()), &said));
    }
    Ok(())
}

fn check_model(
    place: &Place<'_>,
    provider: Option<&Spanned<String>>,
    max_tokens: Option<&Spanned<u32>>,
) -> anyhow::Result<()> {
    if let Some(p) = provider.filter(|p| !keys::providers().contains(&p.get_ref().as_str())) {
        let said = format!("provider = {:?} is not a provider; one of {}", p.get_ref(), keys::providers().join(", "));
        return Err(place.error(Some(p.span()), &said));
    }
    if let Some(m) = max_tokens.filter(|m| !(16..=200_000).contains(m.get_ref())) {
        let said = format!("max_tokens = {} is out of range; 16 to 200000", m.get_ref());
        return Err(place.error(Some(m.span()), &said));
    }
    Ok(())
}

fn check_rounds(place: &Place<'_>, file: &FormatFile) -> anyhow::Result<()> {
    if let Some(n) = file.max_rounds.as_ref().filter(|n| !(1..=100).contains(n.get_ref())) {
        let said = format!("max_rounds = {} is out of range; 1 to 100", n.get_ref());
        return Err(place.error(Some(n.span()), &said));
    }
    if let Some(n) = file.opening_arguments.as_ref().filter(|n| !(1..=5).contains(n.get_ref())) {
        let said = format!("opening_arguments = {} is out of range; 1 to 5", n.get_ref());
        return Err(place.error(Some(n.span()), &said));
    }
    for phase in file.phases.iter().map(Spanned::get_ref) {
        if let Some(n) = phase.rounds.as_ref().filter(|n| !(1..=100).contains(n.get_ref())) {
            let said = format!("a phase's rounds = {} is out of range; 1 to 100", n.get_ref());
            return Err(place.error(Some(n.span()), &said));
        }
        for (text, key) in [(&phase.name, "name"), (&phase.instruction, "instruction")] {
            if text.get_ref().trim().is_empty() {
                return Err(place.error(Some(text.span()), &format!("a phase's {key} is empty; write one")));
            }
        }
    }
    let open = file.phases.iter().filter(|p| p.get_ref().rounds.is_none()).count();
    if open > 1 {
        let second = file.phases.iter().filter(|p| p.get_ref().rounds.is_none()).nth(1).map(Spanned::span);
        return Err(place.error(second, "only one phase may leave out `rounds` (it takes the rounds the others leave)"));
    }
    Ok(())
}

fn missing_brief(brief: &str, origin: &Origin) -> String {
    let beside = match origin {
        Origin::File(path) => {
            format!(" next to the format file ({})", path.parent().map(|p| p.display().to_string()).unwrap_or_default())
        }
        Origin::BuiltIn => String::new(),
    };
    format!(
        "the brief {brief:?} is not found{beside} nor among the built-in prompts ({})",
        briefs::BUILT_IN_BRIEFS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    )
}

fn capitalised(id: &str) -> String {
    let mut chars = id.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
