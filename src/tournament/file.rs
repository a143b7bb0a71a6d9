//! A tournament file as written (TOML) and checked: the propositions
//! (inline, or a file of one a line), the models that debate (each pair of
//! `models`, or the `lineups` as given: see `lineup`), the judge or a panel
//! of judges, the format, rounds, repeats, whether sides are swapped, the
//! seed and how many debates run at once. Every error is one sentence naming
//! the file, the line, what is wrong and what is accepted; nothing is
//! started on one.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::lineup::{self, Lineup};
pub use super::placed::Placed;

/// The most debates a tournament may run at once.
pub const MOST_AT_ONCE: usize = 100;
/// The most times each pairing may be argued.
pub const MOST_REPEATS: u32 = 50;
/// The most rounds a debate of a tournament may have.
pub const MOST_ROUNDS: u32 = 50;

/// A checked tournament file.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentFile {
    /// Where it was read from, for errors (`tournament.toml`).
    pub label: String,
    pub propositions: Vec<String>,
    /// The debaters' models, as `--seat` names a model (`openai:gpt-4.1`),
    /// each pair of them argued; empty when the file gives `lineups`.
    pub models: Vec<Placed>,
    /// The line-ups argued as given; empty when the file gives `models`.
    pub lineups: Vec<Lineup>,
    /// The judge, or a panel's judges: the chair (`judge`) first, then
    /// `judge2`, `judge3`, … as `--seat` names them.
    pub judges: Vec<Placed>,
    /// The debate format (`oxford`); the configured one when not given.
    pub format: Option<Placed>,
    /// Rounds per debate; the format's or the configured number when not given.
    pub rounds: Option<u32>,
    /// How many times each pairing is argued on each proposition.
    pub repeats: u32,
    /// Whether each pairing is argued both ways round.
    pub swap_sides: bool,
    /// The seed the plan's order is drawn from; `None`: drawn at the start, and recorded.
    pub seed: Option<u64>,
    /// How many debates run at once.
    pub concurrency: usize,
    /// Tokens (in and out) the tournament may spend before it pauses.
    pub budget_tokens: Option<Placed64>,
    /// Dollars it may spend before it pauses.
    pub budget_usd: Option<PlacedUsd>,
}

/// A token budget with the line it is written on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed64 {
    pub value: u64,
    pub line: usize,
}

/// A dollar budget with the line it is written on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedUsd {
    pub value: f64,
    pub line: usize,
}

/// The file's keys as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    propositions: Option<Spanned<Propositions>>,
    models: Option<Spanned<Vec<Spanned<String>>>>,
    lineups: Option<lineup::Written>,
    judge: Option<Spanned<Judges>>,
    format: Option<Spanned<String>>,
    rounds: Option<Spanned<i64>>,
    repeats: Option<Spanned<i64>>,
    swap_sides: Option<bool>,
    seed: Option<Spanned<i64>>,
    concurrency: Option<Spanned<i64>>,
    budget_tokens: Option<Spanned<i64>>,
    budget_usd: Option<Spanned<f64>>,
}

/// `propositions = ["…", "…"]`, or `propositions = "file.txt"`: a file of
/// one a line, beside the tournament file.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Propositions {
    Inline(Vec<String>),
    File(String),
}

/// `judge = "PROVIDER:MODEL"`, or a panel: `judge = ["…", "…", "…"]`.
#[derive(Debug)]
enum Judges {
    One(String),
    Panel(Vec<Spanned<String>>),
}

impl<'de> Deserialize<'de> for Judges {
    // By hand, not untagged: each judge of a panel keeps its line.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Judges;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a model (\"PROVIDER:MODEL\"), or a list of models for a panel")
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Judges, E> {
                Ok(Judges::One(value.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Judges, A::Error> {
                let mut judges = Vec::new();
                while let Some(judge) = seq.next_element::<Spanned<String>>()? {
                    judges.push(judge);
                }
                Ok(Judges::Panel(judges))
            }
        }
        deserializer.deserialize_any(Visit)
    }
}

/// Where an error is: the file and the line a span starts on.
struct Place<'a> {
    label: &'a str,
    text: &'a str,
}

impl Place<'_> {
    fn line(&self, span: &Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())].matches('\n').count() + 1
    }

    fn error(&self, span: Option<Range<usize>>, what: &str) -> anyhow::Error {
        match span {
            Some(span) => anyhow::anyhow!("{} line {}: {what}", self.label, self.line(&span)),
            None => anyhow::anyhow!("{}: {what}", self.label),
        }
    }
}

impl TournamentFile {
    /// Reads and checks a tournament file's text; `label` names it in
    /// errors and `dir` is where a file of propositions is looked for.
    pub fn parse(label: &str, text: &str, dir: &Path) -> anyhow::Result<TournamentFile> {
        let place = Place { label, text };
        let written: Written = toml::from_str(text).map_err(|e| {
            let message = e.message().trim_end_matches('\n').replace('\n', "; ");
            place.error(e.span(), &message)
        })?;
        let propositions = propositions(&place, written.propositions, dir)?;
        let (models, lineups) = match (written.models, written.lineups) {
            (Some(_), Some(lineups)) => {
                return Err(place.error(
                    Some(lineups.span()),
                    "gives both models and lineups: give models (each pair argues) or lineups (each as given), not both",
                ));
            }
            (None, Some(lineups)) => (
                Vec::new(),
                lineup::read(lineups, &|span| place.line(span), &|span, what| place.error(Some(span), what))?,
            ),
            (models, None) => (models_of(&place, models)?, Vec::new()),
        };
        let judges = judges(&place, written.judge)?;
        let format = written.format.map(|f| placed(&place, &f, "format")).transpose()?;
        let rounds = written.rounds.map(|r| whole(&place, &r, "rounds", 1, MOST_ROUNDS)).transpose()?;
        let repeats = written.repeats.map(|r| whole(&place, &r, "repeats", 1, MOST_REPEATS)).transpose()?.unwrap_or(1);
        #[allow(clippy::cast_possible_truncation)] // at most MOST_AT_ONCE
        let concurrency = written
            .concurrency
            .map(|c| whole(&place, &c, "concurrency", 1, MOST_AT_ONCE as u32))
            .transpose()?
            .map_or(2, |c| c as usize);
        let seed = match written.seed {
            Some(seed) => Some(
                u64::try_from(*seed.get_ref())
                    .map_err(|_| place.error(Some(seed.span()), "the seed is a whole number from 0 up"))?,
            ),
            None => None,
        };
        let budget_tokens = match written.budget_tokens {
            Some(b) => Some(Placed64 {
                value: u64::try_from(*b.get_ref())
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| place.error(Some(b.span()), "budget_tokens is a whole number of tokens above 0"))?,
                line: place.line(&b.span()),
            }),
            None => None,
        };
        let budget_usd = match written.budget_usd {
            Some(b) if b.get_ref().is_finite() && *b.get_ref() > 0.0 => {
                Some(PlacedUsd { value: *b.get_ref(), line: place.line(&b.span()) })
            }
            Some(b) => return Err(place.error(Some(b.span()), "budget_usd is a number of dollars above 0, e.g. 2.50")),
            None => None,
        };
        Ok(TournamentFile {
            label: label.to_string(),
            propositions,
            models,
            lineups,
            judges,
            format,
            rounds,
            repeats,
            swap_sides: written.swap_sides.unwrap_or(true),
            seed,
            concurrency,
            budget_tokens,
            budget_usd,
        })
    }

    /// The chair: the judge, or a panel's first.
    pub fn judge(&self) -> &Placed {
        &self.judges[0]
    }

    /// Every model the file names, debaters' and judges', each with its
    /// line, in the file's order (a model named twice, twice).
    pub fn named(&self) -> Vec<&Placed> {
        let lineups = self.lineups.iter().flat_map(|l| l.seats.iter().map(|s| &s.model));
        self.models.iter().chain(lineups).chain(&self.judges).collect()
    }

    /// The line a model is written on, for an error about it.
    pub fn error_at(&self, line: usize, what: &str) -> anyhow::Error {
        anyhow::anyhow!("{} line {line}: {what}", self.label)
    }
}

fn placed(place: &Place<'_>, value: &Spanned<String>, key: &str) -> anyhow::Result<Placed> {
    placed_at(place, value.span(), value.get_ref(), key)
}

fn placed_at(place: &Place<'_>, span: Range<usize>, text: &str, key: &str) -> anyhow::Result<Placed> {
    let text = text.trim();
    if text.is_empty() {
        return Err(place.error(Some(span), &format!("{key} is empty")));
    }
    Ok(Placed { text: text.to_string(), line: place.line(&span) })
}

fn whole(place: &Place<'_>, value: &Spanned<i64>, key: &str, low: u32, high: u32) -> anyhow::Result<u32> {
    u32::try_from(*value.get_ref())
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| place.error(Some(value.span()), &format!("{key} is a whole number from {low} to {high}")))
}

fn propositions(place: &Place<'_>, written: Option<Spanned<Propositions>>, dir: &Path) -> anyhow::Result<Vec<String>> {
    let Some(written) = written else {
        return Err(place.error(
            None,
            "names no propositions; add propositions = [\"…\", \"…\"], or propositions = \"FILE\" for a file of one a line",
        ));
    };
    let span = written.span();
    let lines: Vec<String> = match written.into_inner() {
        Propositions::Inline(list) => list,
        Propositions::File(name) => {
            let path: PathBuf = dir.join(&name);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                place.error(Some(span.clone()), &format!("cannot read the propositions file {}: {e}", path.display()))
            })?;
            text.lines().map(str::to_string).collect()
        }
    };
    let mut kept: Vec<String> = Vec::new();
    for line in lines {
        let line = crate::sanitize::one_line(&line);
        if !line.is_empty() && !line.starts_with('#') && !kept.contains(&line) {
            kept.push(line);
        }
    }
    if kept.is_empty() {
        return Err(place.error(Some(span), "names no propositions: give at least one"));
    }
    Ok(kept)
}

fn judges(place: &Place<'_>, written: Option<Spanned<Judges>>) -> anyhow::Result<Vec<Placed>> {
    let Some(written) = written else {
        return Err(
            place.error(None, "names no judge; add judge = \"PROVIDER:MODEL\", e.g. judge = \"openai:gpt-4.1\"")
        );
    };
    let span = written.span();
    match written.into_inner() {
        Judges::One(judge) => Ok(vec![placed_at(place, span, &judge, "judge")?]),
        Judges::Panel(list) => {
            let most = crate::debate::PanelJudge::MOST as usize;
            if list.is_empty() || list.len() > most {
                return Err(place.error(
                    Some(span),
                    &format!(
                        "judge names a panel of {}; a panel seats 1 to {most} judges, the chair first",
                        crate::words::count(list.len(), "judge")
                    ),
                ));
            }
            list.iter().map(|judge| placed(place, judge, "a judge")).collect()
        }
    }
}

fn models_of(place: &Place<'_>, written: Option<Spanned<Vec<Spanned<String>>>>) -> anyhow::Result<Vec<Placed>> {
    let Some(written) = written else {
        return Err(place.error(
            None,
            "names no models; add models = [\"PROVIDER:MODEL\", \"PROVIDER:MODEL\"]: each pair debates each proposition \
             (or lineups = [{ advocate = \"…\", skeptic = \"…\" }]: each line-up as given)",
        ));
    };
    let span = written.span();
    let mut models: Vec<Placed> = Vec::new();
    for model in written.get_ref() {
        let model = placed(place, model, "a model")?;
        if let Some(twice) = models.iter().find(|m| m.text == model.text) {
            return Err(place.error(
                Some(span),
                &format!("names {} twice (first on line {}); name each model once", model.text, twice.line),
            ));
        }
        models.push(model);
    }
    if models.len() < 2 {
        return Err(place.error(
            Some(span),
            &format!("models names {}; a tournament pairs at least two", crate::words::count(models.len(), "model")),
        ));
    }
    Ok(models)
}
