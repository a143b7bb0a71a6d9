//! What the engine checks besides the protocol: an argument's citations
//! against the source when it completes, and, when a debate resumes, what
//! a stopped process left half done (a judge's answer never read, an
//! argument never checked) or what can no longer be trusted (a recorded
//! source that does not match its hash).

use super::{Engine, SentPrompt};
use crate::debate::event::{DebateEvent, Outcome};
use crate::debate::grounding;
use crate::debate::seat::Role;
use crate::debate::state::TurnStatus;

impl Engine {
    /// Checks what an argument cited from the source, when there is one.
    pub(super) fn check_quotes(&mut self, round: u32, role: Role, text: &str, record_empty: bool) {
        let Some(source) = &self.state.source else { return };
        let index = self.source_index.get_or_insert_with(|| grounding::SourceIndex::for_source(source));
        // The settled arguments before this one, in order, with who said it
        // (empty for this seat's own): a seat's invented quote is not let off
        // by the other side quoting it back, nor by repeating it.
        let earlier: Vec<(String, &str)> = self
            .state
            .rounds
            .iter()
            .flat_map(|r| r.turns.iter().map(move |t| (r.number, t)))
            .filter(|(n, t)| t.role.is_debater() && t.is_settled() && !(*n == round && t.role == role))
            .map(|(n, t)| {
                let who = if t.role == role { String::new() } else { format!("the {}, round {}", t.role.key(), n + 1) };
                (who, t.text.as_str())
            })
            .collect();
        let checks = index.check(text, &earlier);
        if checks.is_empty() && !record_empty {
            return;
        }
        self.emit(DebateEvent::QuotesChecked { round, role, checks });
    }

    /// A recorded source whose text no longer matches its recorded hash
    /// (the session log was changed since): the debate is invalidated, not
    /// continued on a text nobody can vouch for.
    pub(super) fn check_source_intact(&mut self) {
        let broken = self.state.source.as_ref().is_some_and(|s| !s.intact());
        if broken && self.state.finish.is_none() {
            let why = "the recorded source does not match the sha256 recorded with it (the session log was changed)";
            self.emit(DebateEvent::Finished { outcome: Outcome::Invalidated(why.into()), synthesis: None });
        }
    }

    /// Arguments of the current round completed but never checked (the
    /// process stopped between the two): checked now. One that cites
    /// nothing looks the same as one never checked, so only checks found
    /// are recorded.
    pub(super) fn check_unchecked_quotes(&mut self) {
        let Some(round) = self.state.current_round() else { return };
        let unchecked: Vec<(Role, String)> = round
            .turns
            .iter()
            .filter(|t| t.role.is_debater() && t.status == TurnStatus::Done && t.checks.is_empty())
            .map(|t| (t.role, t.text.clone()))
            .collect();
        let number = round.number;
        for (role, text) in unchecked {
            self.check_quotes(number, role, &text, false);
        }
    }

    /// A judge's answer logged but never read (the process stopped between
    /// writing it and reading it): read now, as it would have been.
    pub(super) fn read_unread_verdict(&mut self) {
        let Some(round) = self.state.current_round() else { return };
        let Some(judge) = round.turn(Role::Judge) else { return };
        if judge.status != TurnStatus::Done || judge.verdict.is_some() || self.state.finish.is_some() {
            return;
        }
        let (number, purpose, text) = (round.number, judge.purpose, judge.text.clone());
        let sent = SentPrompt::of(&self.request_for(number, Role::Judge, purpose));
        self.read_verdict(number, purpose, &sent, &text);
    }
}
