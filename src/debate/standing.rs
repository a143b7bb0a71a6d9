//! Where a round leaves the sides, in words: who the judge says is ahead,
//! who conceded a point, and the swap check's mark, the sides named as the
//! debate's format names them. The verdict's side fields themselves are
//! [`super::verdict::sides`].

use super::state::{DebateState, Round};
use super::verdict::Verdict;
pub use super::verdict::sides::{Ahead, Conceded, SideNames};

/// Who is ahead and who conceded, in words, when the judge said, the
/// sides named as `state`'s format names them: "skeptic ahead · ⚑
/// advocate conceded a point" in a duel, "opposition ahead · …" in Oxford.
pub fn describe(verdict: &Verdict, state: &DebateState) -> Option<String> {
    let ahead = verdict.ahead.map(|a| ahead_words(a, state));
    let flags = verdict
        .conceded
        .map(Conceded::sides)
        .unwrap_or_default()
        .into_iter()
        .map(|s| Conceded::flag(&state.seat_name(s)));
    let parts: Vec<String> = ahead.into_iter().chain(flags).collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// "advocate ahead", "skeptic ahead" or "even", the side named as
/// `state`'s format names it ("opposition ahead").
pub fn ahead_words(ahead: Ahead, state: &DebateState) -> String {
    ahead.side().map_or_else(|| "even".to_string(), |side| format!("{} ahead", state.seat_name(side)))
}

/// What a round's judging says beyond its verdict, in words: who is
/// ahead, who conceded, and the swap check's mark.
/// "skeptic ahead · ⚑ advocate conceded a point · ⇄ verdict flips on swap".
pub fn round_marks(state: &DebateState, round: &Round) -> Option<String> {
    let standing = round.verdict().and_then(|v| describe(v, state));
    let swap = round.swap.as_ref().and_then(super::swap::check::SwapCheck::mark).map(|m| format!("⇄ {m}"));
    let parts: Vec<String> = standing.into_iter().chain(swap).collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}
