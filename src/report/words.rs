//! Counting a debate's words, for the report's effort table and the
//! export's words chart.

use crate::debate::state::Round;
use crate::debate::{DebateState, Role};

/// Each round's (1-based) words of the advocate and of the skeptic.
pub fn debater_words(state: &DebateState) -> Vec<(u32, usize, usize)> {
    let of = |round: &Round, role: Role| round.turn(role).map_or(0, |t| words(&t.text));
    state.rounds.iter().map(|r| (r.number + 1, of(r, Role::Advocate), of(r, Role::Skeptic))).collect()
}

pub fn words(text: &str) -> usize {
    text.split_whitespace().count()
}
