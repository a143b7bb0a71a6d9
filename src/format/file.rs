//! A format file's shape (TOML) and its checks. Every error is one sentence
//! naming the file, the line, what is wrong and what is accepted.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Format, Origin, SeatModel};
use crate::config::keys::PROVIDERS;
use crate::debate::format::{FormatRecord, Phase};

/// The most debaters and judges a format may seat.
pub const MAX_DEBATERS: usize = 6;
pub const MAX_JUDGES: u32 = 5;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
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
    seats: Vec<Spanned<SeatFile>>,
    judges: Spanned<JudgesFile>,
    #[serde(default)]
    phases: Vec<Spanned<PhaseFile>>,
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
    brief: Spanned<String>,
    provider: Option<Spanned<String>>,
    model: Option<String>,
    max_tokens: Option<Spanned<u32>>,
    /// The models of a panel's other judges, in order, on the judges' provider.
    models: Option<Spanned<Vec<String>>>,
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
    let debaters: Vec<&SeatFile> = file.seats.iter().map(Spanned::get_ref).collect();
    let find = |side: &str| debaters.iter().copied().find(|s| s.side.get_ref() == side);
    let (Some(pro), Some(con)) = (find("pro"), find("con")) else {
        return Err(place.error(None, "a format needs one seat with side = \"pro\" and one with side = \"con\""));
    };
    let judges = file.judges.get_ref();
    let brief = |b: &Spanned<String>| -> anyhow::Result<(String, String)> {
        let text = super::catalog::brief_text(b.get_ref(), origin)
            .ok_or_else(|| place.error(Some(b.span()), &missing_brief(b.get_ref(), origin)))?;
        Ok((b.get_ref().clone(), text))
    };
    let label = |given: &Option<String>, id: &str| given.clone().unwrap_or_else(|| capitalised(id));
    let seat_model = |s: &SeatFile| SeatModel {
        provider: s.provider.as_ref().map(|p| p.get_ref().clone()),
        model: s.model.clone(),
        max_tokens: s.max_tokens.as_ref().map(|m| *m.get_ref()),
    };
    let record = FormatRecord {
        name: name.to_string(),
        labels: [
            label(&pro.label, pro.id.get_ref()),
            label(&con.label, con.id.get_ref()),
            judges.label.clone().unwrap_or_else(|| "Judge".into()),
        ],
        opening_arguments: file.opening_arguments.as_ref().map_or(1, |n| *n.get_ref()),
        resolve_early: file.resolve_early,
        scores: file.scores,
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
        briefs: None,
        judges: *judges.count.get_ref(),
        panel_models: judges
            .models
            .as_ref()
            .map(|m| m.get_ref().iter().map(|name| name.trim().to_string()).collect())
            .unwrap_or_default(),
    };
    let briefs = [brief(&pro.brief)?, brief(&con.brief)?, brief(&judges.brief)?];
    let record = FormatRecord { briefs: Some(briefs.clone().map(|(_, text)| text)), ..record };
    Ok(Format {
        name: name.to_string(),
        summary: file.summary.trim().to_string(),
        origin: origin.clone(),
        max_rounds: file.max_rounds.as_ref().map(|n| *n.get_ref()),
        seat_ids: [pro.id.get_ref().clone(), con.id.get_ref().clone(), "judge".into()],
        briefs,
        models: [
            seat_model(pro),
            seat_model(con),
            SeatModel {
                provider: judges.provider.as_ref().map(|p| p.get_ref().clone()),
                model: judges.model.clone(),
                max_tokens: judges.max_tokens.as_ref().map(|m| *m.get_ref()),
            },
        ],
        record,
    })
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
        let said = format!("{} debaters is too many; a format seats 1 to {MAX_DEBATERS}", file.seats.len());
        return Err(place.error(last, &said));
    }
    let count = |side: &str| file.seats.iter().filter(|s| s.get_ref().side.get_ref() == side).count();
    if file.seats.len() != 2 || count("pro") != 1 || count("con") != 1 {
        let said = format!(
            "this format seats {} debaters ({} pro, {} con, {} free); heat runs formats of one \"pro\" and one \"con\" seat for now, and more seats or free ones are not supported yet",
            file.seats.len(),
            count("pro"),
            count("con"),
            count("free")
        );
        return Err(place.error(last, &said));
    }
    check_ids(place, file)?;
    let judges = file.judges.get_ref();
    let n = *judges.count.get_ref();
    if n > MAX_JUDGES {
        let said = format!("judges.count = {n} is too many; a format has 0 to {MAX_JUDGES} judges");
        return Err(place.error(Some(judges.count.span()), &said));
    }
    if n == 0 {
        let said = "judges.count = 0: heat runs a debate with at least one judge for now; a debate with no judge is not supported yet".to_string();
        return Err(place.error(Some(judges.count.span()), &said));
    }
    check_brief(place, &judges.brief)?;
    check_model(place, judges.provider.as_ref(), judges.max_tokens.as_ref())?;
    if let Some(models) = &judges.models {
        let others = n - 1;
        let named = models.get_ref().len();
        if named > usize::try_from(others).unwrap_or(usize::MAX) || models.get_ref().iter().any(|m| m.trim().is_empty())
        {
            let said = format!(
                "judges.models names {named} model(s) for the panel's {others} other judge(s): give at most one name each, none empty (the chair takes `model`)"
            );
            return Err(place.error(Some(models.span()), &said));
        }
    }
    if file.summary.trim().is_empty() {
        return Err(place.error(None, "summary is empty; say in one line what the format does"));
    }
    check_rounds(place, file)
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
        if ["advocate", "skeptic", "judge"].contains(&name.as_str()) && name != own {
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
    if let Some(p) = provider.filter(|p| !PROVIDERS.contains(&p.get_ref().as_str())) {
        let said = format!("provider = {:?} is not a provider; one of {}", p.get_ref(), PROVIDERS.join(", "));
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
        super::catalog::BUILT_IN_BRIEFS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    )
}

fn capitalised(id: &str) -> String {
    let mut chars = id.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Which file an error is in, to name it and find its lines.
struct Place<'a> {
    name: &'a str,
    text: &'a str,
    origin: &'a Origin,
}

impl Place<'_> {
    fn error(&self, span: Option<Range<usize>>, what: &str) -> anyhow::Error {
        let file = match self.origin {
            Origin::File(path) => path.display().to_string(),
            Origin::BuiltIn => format!("the built-in format {}", self.name),
        };
        let line = span
            .filter(|s| s.end > 0)
            .map(|s| format!(" line {}", self.text[..s.start.min(self.text.len())].matches('\n').count() + 1))
            .unwrap_or_default();
        anyhow::anyhow!("{file}{line}: {what}")
    }
}
