//! Reading the judge's answer into a verdict: the written verdict or the
//! embedded judge's chosen one, checked by the guard, with the format's rule
//! on ending early applied; or why it could not be used.

use super::Engine;
use crate::debate::event::{DebateEvent, TurnPurpose};
use crate::debate::guard::turn::{self as guard, SentPrompt, VerdictOutcome};
use crate::debate::verdict::{self, Verdict};
use crate::debate::{extractive, vote};

impl Engine {
    /// Reads the judge's answer for `round` into a verdict, or says why it
    /// could not be used.
    pub(super) fn read_verdict(&mut self, round: u32, purpose: TurnPurpose, sent: &SentPrompt, text: &str) {
        match self.judge_answer(round, purpose, sent, text) {
            Ok((verdict, notice)) => {
                self.emit(DebateEvent::VerdictReached { round, verdict });
                if let Some(message) = notice {
                    self.emit(DebateEvent::Notice { message });
                }
            }
            Err(error) => self.emit(DebateEvent::VerdictInvalid { round, error, will_retry: !purpose.is_repair() }),
        }
    }

    /// A judge's answer on `round` as a verdict with the guard's notice, if
    /// any, or why it cannot be used. The chair's and a panel's other
    /// judges' answers are read alike.
    pub(super) fn judge_answer(
        &self,
        round: u32,
        purpose: TurnPurpose,
        sent: &SentPrompt,
        text: &str,
    ) -> Result<(Verdict, Option<String>), String> {
        let (topic, heat) = self.state.rounds.iter().find(|r| r.number == round).map_or(
            (self.state.topic.clone(), self.state.heat),
            |r| {
                // A panel moves the state's heat as votes arrive: its judges fall back to the round's.
                (r.topic.clone(), if self.state.judges() > 1 { r.heat } else { self.state.heat })
            },
        );
        let chosen = extractive::is_chosen(text);
        let current = self.state.rounds.iter().find(|r| r.number == round);
        let parsed = match current.filter(|_| chosen) {
            Some(current) => {
                let seats = extractive::seats(&self.state, current);
                let arguments: Vec<&str> = seats.iter().map(|s| s.argument).collect();
                let apart = extractive::spread(&self.state.topic, &arguments);
                let chosen = extractive::parse(text, &topic, extractive::heat_for(apart), purpose.is_final(), &seats);
                // Free seats' synthesis ends with where their final answers stand.
                chosen.map(|mut verdict| {
                    let tally = vote::of_round(&self.state, round).filter(|_| self.state.final_answers());
                    if let Some(tally) = tally.filter(|_| purpose.is_final()) {
                        let stand = vote::describe(&self.state, &tally);
                        verdict.verdict.push_str(&format!(". Their final answers: {stand}"));
                    }
                    verdict
                })
            }
            // Two sides the format names as its prompts do ("the proposition") may be named so back.
            None if self.state.free() => verdict::parse(text, &topic, heat),
            None => verdict::parse_as(text, &topic, heat, &self.state.side_names()),
        };
        let verdict = parsed.map_err(|e| e.to_string())?;
        match guard::verdict(&self.state, round, purpose, sent, verdict, !chosen) {
            VerdictOutcome::Stands { mut verdict, notice } => {
                // A format that argues every round reads an early "resolved" as "not yet".
                verdict.resolved &= purpose.is_final() || self.state.may_resolve_early();
                // Scores a format did not ask for are not kept: a duel's log stays as it was.
                if !self.state.scored() {
                    verdict.scores = None;
                }
                Ok((verdict, notice))
            }
            VerdictOutcome::Invalid(fault) => Err(fault.describe(&self.state)),
        }
    }
}
