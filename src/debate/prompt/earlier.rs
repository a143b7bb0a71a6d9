//! Rounds past the history window, kept in brief rather than dropped: for
//! each, the question, each debater's main point (its first whole sentence,
//! no extra call; or its own model's brief of it, `debate.summaries =
//! "model"`, see `debate::briefing`) with the quotes of it that were found
//! word for word, and the verdict's first sentence. It opens the first message of a seat's
//! prompt once a debate has more earlier rounds than its prompt shows.

use crate::debate::extractive;
use crate::debate::grounding::{Cited, Mark};
use crate::debate::state::{DebateState, Round};

/// The most words of a point or a verdict kept in brief.
const POINT_WORDS: usize = 30;
/// The most words of a debater's point: its model's brief may take two
/// sentences.
const BRIEF_WORDS: usize = 60;
/// The most earlier rounds given in brief: the first two and the latest
/// the rest; those between are counted.
const MOST_ROUNDS: usize = 8;
/// The most verified quotes kept of a turn, word for word.
const QUOTES_KEPT: usize = 2;

/// How the brief's heading ends.
const HEADING_END: &str = ", in brief (earlier rounds are not shown in full):\n";

/// `text` without the brief it opens with, if it opens with one: what an
/// answer is checked against for copying is the round's prompt, not the
/// seats' own earlier points given back to them.
pub fn without_brief(text: &str) -> &str {
    let heading = text.split_inclusive('\n').next().unwrap_or_default();
    let opens = heading.starts_with("Round") && heading.ends_with(HEADING_END);
    match text.find("\n\n") {
        Some(end) if opens => &text[end + 2..],
        _ => text,
    }
}

/// The brief of `rounds` (those before the shown ones, oldest first), or
/// `None` when there are none.
pub fn brief(state: &DebateState, rounds: &[&Round]) -> Option<String> {
    brief_within(state, rounds, None)
}

/// [`brief`], at most `most` characters where given (a tiny model's
/// context): the first round's line stays, and the rounds after it are
/// left out, oldest first, until the rest fits.
pub fn brief_within(state: &DebateState, rounds: &[&Round], most: Option<usize>) -> Option<String> {
    let (first, last) = (rounds.first()?, rounds.last()?);
    let heading = if first.number == last.number {
        format!("Round {}{HEADING_END}", first.number + 1)
    } else {
        format!("Rounds {}–{}{HEADING_END}", first.number + 1, last.number + 1)
    };
    let mut shown: Vec<&&Round> = if rounds.len() > MOST_ROUNDS {
        rounds.iter().take(2).chain(rounds.iter().skip(rounds.len() - (MOST_ROUNDS - 2))).collect()
    } else {
        rounds.iter().collect()
    };
    loop {
        let mut out = heading.clone();
        for (i, round) in shown.iter().enumerate() {
            let between = shown.get(i + 1).map_or(0, |next| (next.number - round.number) as usize - 1);
            out.push_str(&line(state, round));
            if between > 0 {
                out.push_str(&format!("- ({} between are left out)\n", crate::words::count(between, "round")));
            }
        }
        out.push('\n');
        if shown.len() <= 1 || most.is_none_or(|most| out.chars().count() <= most) {
            return Some(out);
        }
        shown.remove(1);
    }
}

/// `- Round 2 (question: …): the advocate: “…”; the skeptic: “…”; the judge: …`
fn line(state: &DebateState, round: &Round) -> String {
    let mut parts = Vec::new();
    for &role in state.debaters() {
        let Some(turn) = round.turn(role).filter(|t| t.is_settled()) else { continue };
        // The debater's own model's brief where it wrote one, else the argument's first whole sentence.
        let written = round.briefs.get(&role).and_then(|b| b.text()).map(|b| (b.to_string(), BRIEF_WORDS));
        let Some((point, most)) = written.or_else(|| extractive::main_point(&turn.text).map(|p| (p, POINT_WORDS)))
        else {
            continue;
        };
        let mut part = format!("the {}: \u{201c}{}\u{201d}", state.seat_name(role), clip_to(&point, most));
        let quoted: Vec<String> = turn
            .checks
            .iter()
            .filter(|c| c.mark == Mark::Verified)
            .filter_map(|c| match &c.cited {
                Cited::Quote { text } => Some(format!("\u{201c}{text}\u{201d}")),
                _ => None,
            })
            .take(QUOTES_KEPT)
            .collect();
        if !quoted.is_empty() {
            part.push_str(&format!(" (quoting {})", quoted.join(", ")));
        }
        parts.push(part);
    }
    if let Some(verdict) = round.verdict() {
        let first = verdict.verdict.split_inclusive(['.', '!', '?']).next().unwrap_or_default();
        parts.push(format!("the judge: {}", clip(first.trim())));
    }
    format!("- Round {} (question: {}): {}\n", round.number + 1, clip(&round.topic), parts.join("; "))
}

/// At most [`POINT_WORDS`] words, marked `…` when cut.
fn clip(text: &str) -> String {
    clip_to(text, POINT_WORDS)
}

/// At most `most` words, marked `…` when cut.
fn clip_to(text: &str, most: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= most {
        return words.join(" ");
    }
    format!("{}…", words[..most].join(" "))
}
