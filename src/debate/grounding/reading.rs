//! What a debater reads from the library each round: the passages that
//! bear most on the round's question, the notes it carries and the other
//! side's last argument, within a budget that fits the seat's context,
//! preferring passages the seat has not read before. Chosen by a pure step
//! of the state and the library, and recorded (`DebateEvent::Retrieved`),
//! so a resumed debate's prompts are built from what was chosen then.

use serde::{Deserialize, Serialize};

use crate::debate::event::DebateEvent;
use crate::debate::grounding::{Cited, Mark, QuoteCheck};
use crate::debate::seat::Role;
use crate::debate::state::{DebateState, Round};
use crate::library::Library;

/// The passages a seat reads, at most, in a round.
pub const MOST_PASSAGES: usize = 6;
/// How many ranked passages are weighed to fill the budget.
const WEIGHED: usize = 40;

/// A passage given to a seat, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// The file's name in the library (`docs/studio.md`).
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Reading {
    /// `docs/studio.md:L12–L18`, as a citation names it.
    pub fn label(&self) -> String {
        if self.start == self.end {
            format!("{}:L{}", self.file, self.start)
        } else {
            format!("{}:L{}–L{}", self.file, self.start, self.end)
        }
    }

    /// Its lines, each marked with its number, headed by its label.
    pub fn numbered(&self) -> String {
        let mut out = format!("[{}]\n", self.label());
        for (i, line) in self.text.lines().enumerate() {
            out.push_str(&format!("L{}: {line}\n", self.start + i));
        }
        out
    }

    /// Its lines with their numbers in the file.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.text.lines().enumerate().map(|(i, line)| (self.start + i, line))
    }

    fn tokens(&self) -> usize {
        self.text.chars().count() / 4 + 8
    }
}

/// The passages `role` reads in `round`, within `budget` tokens: `None`
/// when they were chosen already (a turn asked again reads the same) or
/// when nothing in the library bears on the round.
pub fn retrieve(state: &DebateState, library: &Library, round: u32, role: Role, budget: usize) -> Option<DebateEvent> {
    let current = state.rounds.iter().find(|r| r.number == round)?;
    if !role.is_debater() || current.readings.contains_key(&role) {
        return None;
    }
    let query = query(state, round, role);
    let read_before: Vec<(&str, usize)> = state
        .rounds
        .iter()
        .filter(|r| r.number < round)
        .filter_map(|r| r.readings.get(&role))
        .flatten()
        .map(|r| (r.file.as_str(), r.start))
        .collect();
    let ranked = library.search(&query, WEIGHED);
    let (fresh, seen): (Vec<_>, Vec<_>) = ranked.iter().partition(|hit| {
        let p = &library.passages[hit.passage];
        !read_before.contains(&(library.docs[p.doc].name.as_str(), p.start))
    });
    let mut passages = Vec::new();
    let mut spent = 0;
    for hit in fresh.into_iter().chain(seen) {
        let p = &library.passages[hit.passage];
        let reading =
            Reading { file: library.docs[p.doc].name.clone(), start: p.start, end: p.end, text: library.text(p) };
        if spent + reading.tokens() > budget {
            continue;
        }
        spent += reading.tokens();
        passages.push(reading);
        if passages.len() == MOST_PASSAGES {
            break;
        }
    }
    (!passages.is_empty()).then_some(DebateEvent::Retrieved { round, role, passages })
}

/// What a seat's search asks: the round's question (twice: it weighs
/// most), the notes its prompt carries, and what the other seats argued
/// last round.
fn query(state: &DebateState, round: u32, role: Role) -> String {
    let Some(current) = state.rounds.iter().find(|r| r.number == round) else { return String::new() };
    let mut query = format!("{0}\n{0}\n", current.topic);
    for note in &current.injected {
        query.push_str(note);
        query.push('\n');
    }
    let previous = round.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n));
    for turn in previous.iter().flat_map(|r| &r.turns) {
        if turn.role != role && turn.role.is_debater() && turn.is_settled() {
            query.push_str(&turn.text);
            query.push('\n');
        }
    }
    query
}

/// The most passages the judge is shown of those the debaters cited, and
/// the most lines of each.
const CITED_SHOWN: usize = 6;
const CITED_LINES: usize = 12;

/// For the judge: the library's lines the debaters cited in `round` and
/// were found, as the library has them (from the passages the debate read),
/// so it weighs what was cited, not only that it exists. Empty when none.
pub fn cited(state: &DebateState, round: &Round) -> String {
    let read: Vec<&Reading> = state.rounds.iter().flat_map(|r| r.readings.values().flatten()).collect();
    let mut shown: Vec<(String, usize, usize)> = Vec::new();
    for check in round.turns.iter().filter(|t| t.role.is_debater()).flat_map(|t| &t.checks) {
        let file = match &check.cited {
            Cited::Passage { file, .. } => file,
            _ => match &check.file {
                Some(file) => file,
                None => continue,
            },
        };
        let Some((first, last)) = check.lines.filter(|_| check.mark == Mark::Verified) else { continue };
        let entry = (file.clone(), first, last);
        if shown.len() < CITED_SHOWN && !shown.contains(&entry) {
            shown.push(entry);
        }
    }
    let mut out = String::new();
    for (file, first, last) in shown {
        let Some(passage) = read.iter().find(|r| r.file == file && r.start <= first && last <= r.end) else { continue };
        if out.is_empty() {
            out.push_str("The library's lines they cited, as it has them:\n");
        }
        out.push_str(&format!("[{file}:L{first}–L{last}]\n"));
        for (n, line) in passage.lines().filter(|(n, _)| (first..=last).contains(n)).take(CITED_LINES) {
            out.push_str(&format!("L{n}: {line}\n"));
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The lines a check points at, numbered, as the debate recorded them: from
/// its one source, or from the library's passages the debaters read (the
/// library itself is not needed). `None` when the check points at no lines
/// or they were not recorded.
pub fn lines_cited<'a>(state: &'a DebateState, check: &QuoteCheck) -> Option<Vec<(usize, &'a str)>> {
    let (first, last) = check.lines?;
    let within = |(n, _): &(usize, &str)| (first..=last).contains(n);
    if let Some(source) = &state.source {
        return Some(source.lines().filter(within).collect());
    }
    let file = match &check.cited {
        Cited::Passage { file, .. } => file,
        _ => check.file.as_ref()?,
    };
    let mut read = state.rounds.iter().flat_map(|r| r.readings.values().flatten());
    let passage = read.find(|r| r.file == *file && r.start <= first && last <= r.end)?;
    Some(passage.lines().filter(within).collect())
}

/// The block a debater's prompt opens with in a round it read passages.
pub fn block(readings: &[Reading]) -> String {
    let mut out = String::from(
        "Passages from the library that bear on this round (cite them as [file:L12] or [file:L12–L18], or quote their exact words):\n\n",
    );
    for reading in readings {
        out.push_str(&reading.numbered());
        out.push('\n');
    }
    out
}
