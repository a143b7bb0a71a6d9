//! What the engine checks besides the protocol: an argument's citations
//! against the source when it completes, and, when a debate resumes, what
//! a stopped process left half done (a judge's answer never read, an
//! argument never checked) or what can no longer be trusted (a recorded
//! source that does not match its hash). Each is a function of the state.

use std::sync::Arc;

use crate::debate::event::{DebateEvent, TurnPurpose};
use crate::debate::grounding::library_checks::LibraryChecks;
use crate::debate::grounding::{QuoteCheck, SourceIndex};
use crate::debate::outcome::Outcome;
use crate::debate::seat::Role;
use crate::debate::state::{DebateState, TurnStatus};
use crate::library::Library;

/// What arguments are checked against: the debate's one source, or its library.
pub enum Grounds {
    Source(SourceIndex),
    Library(LibraryChecks),
}

impl Grounds {
    /// The grounds of a debate: its recorded source, else the library it
    /// reads; `None` when it has neither.
    pub fn of(state: &DebateState, library: Option<&Arc<Library>>) -> Option<Grounds> {
        match (&state.source, library) {
            (Some(source), _) => Some(Grounds::Source(SourceIndex::for_source(source))),
            (None, Some(library)) => Some(Grounds::Library(LibraryChecks::new(Arc::clone(library)))),
            (None, None) => None,
        }
    }

    fn check(&mut self, text: &str, earlier: &[(String, &str)]) -> Vec<QuoteCheck> {
        match self {
            Grounds::Source(index) => index.check(text, earlier),
            Grounds::Library(checks) => checks.check(text, earlier),
        }
    }
}

/// What an argument of `role` in `round` cites from the source (`index`),
/// checked against the source and against the settled arguments before it;
/// `None` when it cites nothing and `record_empty` is off.
pub fn quotes(
    state: &DebateState,
    index: &mut Grounds,
    (round, role): (u32, Role),
    text: &str,
    record_empty: bool,
) -> Option<DebateEvent> {
    // The settled arguments its speaker could have read, in order, with who
    // said it (empty for this seat's own): those of earlier rounds, since a
    // round's arguments are written side by side and none is shown the
    // others'. A seat's invented quote is not let off by the other side
    // quoting it back, nor by repeating it; two sides that invent the same
    // words in one round have each invented them.
    let earlier: Vec<(String, &str)> = state
        .rounds
        .iter()
        .flat_map(|r| r.turns.iter().map(move |t| (r.number, t)))
        .filter(|(n, t)| t.role.is_debater() && t.is_settled() && *n < round)
        .map(|(n, t)| {
            let who = if t.role == role { String::new() } else { format!("the {}, round {}", t.role.key(), n + 1) };
            (who, t.text.as_str())
        })
        .collect();
    let checks = index.check(text, &earlier);
    (!checks.is_empty() || record_empty).then_some(DebateEvent::QuotesChecked { round, role, checks })
}

/// A recorded source whose text no longer matches its recorded hash (the
/// session log was changed since) invalidates the debate: it is not
/// continued on a text nobody can vouch for.
pub fn source_broken(state: &DebateState) -> Option<DebateEvent> {
    let broken = state.source.as_ref().is_some_and(|s| !s.intact());
    (broken && state.finish.is_none()).then(|| {
        let why = "the recorded source does not match the sha256 recorded with it (the session log was changed)";
        DebateEvent::Finished { outcome: Outcome::Invalidated(why.into()), synthesis: None }
    })
}

/// Arguments of the current round completed but never checked (the
/// process stopped between the two). One that cites nothing looks the same
/// as one never checked, so only checks found are recorded.
pub fn unchecked(state: &DebateState) -> Vec<(u32, Role, String)> {
    let Some(round) = state.current_round() else { return Vec::new() };
    round
        .turns
        .iter()
        .filter(|t| t.role.is_debater() && t.status == TurnStatus::Done && t.checks.is_empty())
        .map(|t| (round.number, t.role, t.text.clone()))
        .collect()
}

/// A judge's answer logged but never read (the process stopped between
/// writing it and reading it): its round, purpose and text.
pub fn unread_verdict(state: &DebateState) -> Option<(u32, TurnPurpose, String)> {
    let round = state.current_round()?;
    let judge = round.turn(Role::Judge)?;
    if judge.status != TurnStatus::Done || judge.verdict.is_some() || state.finish.is_some() {
        return None;
    }
    Some((round.number, judge.purpose, judge.text.clone()))
}
