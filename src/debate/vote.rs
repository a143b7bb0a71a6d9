//! Final answers and the vote among them. In a format that asks for them,
//! each debater ends its turn with a `Final answer:` line; heat reads the
//! line, normalises it, and groups the round's answers by likeness
//! (computed here, with no model). The groups give the vote (the biggest
//! wins; a tie goes to the answer given first, in seat order), whether the
//! debaters have converged, and the next heat of a debate with no judge.

use super::guard::text::{stem, words};
use super::heat::Heat;
use super::seat::Role;
use super::state::{DebateState, Round, TurnStatus};

/// The longest final answer kept, in characters: a line, not a speech.
const ANSWER_CHARS: usize = 200;

/// The final answer a turn ends with: its last `Final answer:` line (any
/// case, Markdown emphasis and list marks allowed), or `None`.
pub fn final_answer(text: &str) -> Option<String> {
    text.lines().rev().find_map(|line| {
        let line = line.trim().trim_start_matches(['*', '_', '#', '-', '>', ' ']);
        let head = line.get(..12)?;
        if !head.eq_ignore_ascii_case("final answer") {
            return None;
        }
        let rest = line[12..].trim_start_matches(['*', '_', ' ']).strip_prefix([':', '-', '–', '='])?;
        // The answer is the line's first sentence: a model that goes on with its reasons on the same line
        // ("Final answer: four days. Because…") has still answered "four days."
        let first = rest.split_inclusive(". ").next().unwrap_or(rest);
        let answer = first.trim().trim_matches(['*', '_', '"', ' ']).trim();
        (!answer.is_empty()).then(|| clipped(answer))
    })
}

/// An answer as a line shows it: Markdown emphasis and code marks dropped,
/// and at most [`ANSWER_CHARS`] characters, cut at a word's end and marked
/// `…` (never mid-word).
fn clipped(answer: &str) -> String {
    let plain = answer.replace("**", "").replace("__", "").replace('`', "");
    let plain = plain.trim();
    if plain.chars().count() <= ANSWER_CHARS {
        return plain.to_string();
    }
    let head: String = plain.chars().take(ANSWER_CHARS).collect();
    let cut = head.rfind(char::is_whitespace).filter(|at| *at >= ANSWER_CHARS / 2).unwrap_or(head.len());
    format!("{}…", head[..cut].trim_end_matches([',', ';', ':', ' ']))
}

/// An answer as it is compared: its words, lower case, plurals stemmed,
/// punctuation gone ("Yes, four-day weeks." → "yes four day week").
pub fn normalise(answer: &str) -> String {
    words(answer).iter().map(|w| stem(w)).collect::<Vec<_>>().join(" ")
}

/// How alike two answers are, from 0 to 1: 1 when they normalise to the
/// same words, else the share of words they have in common (Jaccard).
pub fn likeness(a: &str, b: &str) -> f64 {
    let (a, b) = (normalise(a), normalise(b));
    if a == b {
        return 1.0;
    }
    let set =
        |s: &str| s.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect::<std::collections::BTreeSet<_>>();
    let (a, b) = (set(&a), set(&b));
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(&b).count() as f64 / union as f64
}

/// Two answers count as one at or above `threshold` percent likeness.
pub fn agree(a: &str, b: &str, threshold: u32) -> bool {
    let likeness = likeness(a, b);
    likeness >= 1.0 || likeness * 100.0 >= f64::from(threshold.min(100))
}

/// One answer and the debaters who gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The answer in the words of the first debater who gave it.
    pub answer: String,
    pub seats: Vec<Role>,
}

/// A round's final answers, grouped.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    /// In order of first appearance (seat order).
    pub groups: Vec<Group>,
    /// Debaters whose turn gave no final answer.
    pub silent: Vec<Role>,
    /// How many debaters sit.
    pub debaters: usize,
}

impl Tally {
    /// The answers of `debaters` in `round`; `None` until every one of
    /// them has settled its turn or failed (a failed turn is silent).
    pub fn of_round(round: &Round, debaters: &[Role], threshold: u32) -> Option<Tally> {
        let mut tally = Tally { groups: Vec::new(), silent: Vec::new(), debaters: debaters.len() };
        for &seat in debaters {
            let turn = round.turn(seat).filter(|t| t.is_settled() || matches!(t.status, TurnStatus::Failed { .. }))?;
            let answer = turn.is_settled().then(|| final_answer(&turn.text)).flatten();
            let Some(answer) = answer else {
                tally.silent.push(seat);
                continue;
            };
            match tally.groups.iter_mut().find(|g| agree(&g.answer, &answer, threshold)) {
                Some(group) => group.seats.push(seat),
                None => tally.groups.push(Group { answer, seats: vec![seat] }),
            }
        }
        // No one wrote a final-answer line, but every debater answered the
        // same, word for word once spacing is set aside: that is one answer.
        let whole = |seat: Role| round.turn(seat).map(|t| t.text.split_whitespace().collect::<Vec<_>>().join(" "));
        let first = debaters.first().and_then(|&seat| whole(seat)).filter(|text| !text.is_empty());
        if let Some(text) = first
            && tally.groups.is_empty()
            && debaters.len() > 1
            && tally.silent.len() == debaters.len()
            && debaters.iter().all(|&seat| whole(seat).as_ref() == Some(&text))
        {
            let answer = clipped(&text);
            tally.groups.push(Group { answer, seats: std::mem::take(&mut tally.silent) });
        }
        Some(tally)
    }

    /// The answer most debaters gave; a tie goes to the one given first.
    pub fn majority(&self) -> Option<&Group> {
        // `max_by_key` keeps the last of equals: walk from the back so the first wins.
        self.groups.iter().rev().max_by_key(|g| g.seats.len())
    }

    /// Every debater gave the same answer.
    pub fn converged(&self) -> bool {
        self.debaters > 1 && self.groups.len() == 1 && self.silent.is_empty()
    }

    /// How far the debaters agree, from 0 (every answer its own, or none)
    /// to 1 (all one answer): the majority's size past one, over the
    /// debaters past one.
    pub fn agreement(&self) -> f64 {
        let most = self.majority().map_or(0, |g| g.seats.len());
        if self.debaters < 2 || most < 2 {
            return 0.0;
        }
        (most - 1) as f64 / (self.debaters - 1) as f64
    }

    /// The count the way a vote is told: "2–1", "3–0", "1–1–1".
    pub fn count(&self) -> String {
        let mut sizes: Vec<usize> = self.groups.iter().map(|g| g.seats.len()).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        if sizes.len() == 1 {
            sizes.push(self.debaters - sizes[0]);
        }
        sizes.iter().map(ToString::to_string).collect::<Vec<_>>().join("–")
    }
}

/// The heat of the round after one with this agreement, in a debate with
/// no judge: the start heat lowered in step with agreement, to the floor
/// when all agree. Debaters who all differ keep the start heat; two of
/// three agreeing halve the way to the floor.
pub fn next_heat(start: Heat, agreement: f64) -> Heat {
    let start = f64::from(start.get());
    let floor = f64::from(Heat::MIN.get());
    let agreement = agreement.clamp(0.0, 1.0);
    #[allow(clippy::cast_possible_truncation)] // a heat between 0.3 and 1
    Heat::new((start - (start - floor).max(0.0) * agreement) as f32)
}

/// The likeness threshold a debate's answers are grouped by (100 when its
/// format says nothing: answers must match once normalised).
pub fn threshold(state: &DebateState) -> u32 {
    state.format.as_ref().and_then(|f| f.convergence).map_or(100, |c| c.threshold)
}

/// Every debater gave the same final answer in `round` and the format
/// stops on it.
pub fn converged_in(state: &DebateState, round: u32) -> bool {
    let stops = state.format.as_ref().and_then(|f| f.convergence).is_some_and(|c| c.stop);
    stops && of_round(state, round).is_some_and(|t| t.converged())
}

/// The tally of a round (from 0) of `state`, once every debater has settled.
pub fn of_round(state: &DebateState, round: u32) -> Option<Tally> {
    let r = state.rounds.iter().find(|r| r.number == round)?;
    Tally::of_round(r, state.debaters(), threshold(state))
}

/// The tally of the latest round every debater has settled, in a debate
/// whose debaters give final answers.
pub fn latest(state: &DebateState) -> Option<Tally> {
    if !state.final_answers() {
        return None;
    }
    state.rounds.iter().rev().find_map(|r| of_round(state, r.number))
}

/// The vote in words: `"four days" 2–1 (Ada, Brook; against: Cato "five days")`.
pub fn describe(state: &DebateState, tally: &Tally) -> String {
    let names = |seats: &[Role]| seats.iter().map(|&r| state.label(r).to_string()).collect::<Vec<_>>().join(", ");
    let Some(top) = tally.majority() else {
        return "no final answers given".into();
    };
    let mut line = format!("{:?} {} ({})", crate::sanitize::clean(&top.answer), tally.count(), names(&top.seats));
    let minority: Vec<String> = tally
        .groups
        .iter()
        .filter(|g| !std::ptr::eq(*g, top))
        .map(|g| format!("{} {:?}", names(&g.seats), crate::sanitize::clean(&g.answer)))
        .collect();
    if !minority.is_empty() {
        line.push_str(&format!("; minority: {}", minority.join("; ")));
    }
    if !tally.silent.is_empty() {
        line.push_str(&format!("; no final answer: {}", names(&tally.silent)));
    }
    line
}

#[cfg(test)]
mod tests;
