//! The engine's side of the swap check (`debate.swap_check`): asking the
//! judge's model again about a round, the debaters swapped and unnamed
//! (`debate::swap` writes the request), through the same retried call as
//! every turn; reading what it streams, and recording the answer, or that
//! the check failed, which never stops the debate.

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::Engine;
use super::side_call::{Answer, CallEnd};
use crate::debate::call::{self, Call, TurnMsg};
use crate::debate::event::DebateEvent;
use crate::debate::seat::Role;
use crate::debate::swap;
use crate::debate::temperature::{self, Purpose};
use crate::provider::ChatRequest;

/// A swap check's call under way.
pub(super) struct SwapFlight {
    pub(super) task: u64,
    round: u32,
    pub(super) handle: JoinHandle<()>,
    answer: Answer,
}

impl Engine {
    /// Asks the judge's model about `round` with the debaters swapped.
    pub(super) fn start_swap_check(&mut self, round: u32) {
        self.emit(DebateEvent::SwapCheckStarted { round });
        let Some(request) = self.swap_request(round) else {
            // Settled either way: the planner must not ask for it again.
            let error = format!("round {} is not in the debate", round + 1);
            self.emit(DebateEvent::SwapCheckFailed { round, error, usage: None });
            return;
        };
        self.next_task += 1;
        let task = self.next_task;
        let model = Arc::clone(&self.setup.role(Role::Judge).model);
        let call = Call { task, role: Role::Judge, model, policy: self.setup.retry, paused: self.paused.subscribe() };
        let handle = call::spawn(call, request, self.turn_tx.clone());
        self.swap = Some(SwapFlight { task, round, handle, answer: Answer::default() });
    }

    /// The judge's request for the check: its model, limits and the form
    /// of structured output its endpoint takes, with the check's own
    /// brief, message and schema.
    fn swap_request(&self, round: u32) -> Option<ChatRequest> {
        let current = self.state.rounds.iter().find(|r| r.number == round)?;
        let setup = self.setup.role(Role::Judge);
        let temperature = temperature::sent(
            Purpose::Judge(self.setup.judge_temperature),
            setup.thinking_budget.is_some(),
            self.no_temperature.contains(&Role::Judge),
        );
        Some(ChatRequest {
            model: setup.model_name.clone(),
            system: swap::system(),
            grounding: self.preamble.clone(),
            messages: swap::messages(&self.state, current),
            temperature,
            max_tokens: setup.max_tokens,
            thinking_budget: setup.thinking_budget,
            response_schema: Some(self.verdict_schema(setup, swap::schema())),
            grammar: None,
            seed: self.setup.seed,
        })
    }

    /// One message from the check's call.
    pub(super) fn on_swap_msg(&mut self, msg: TurnMsg) {
        let Some(mut flight) = self.swap.take() else { return };
        match self.side_call_msg(flight.round, &mut flight.answer, msg.kind) {
            CallEnd::Going => self.swap = Some(flight),
            CallEnd::Done => self.read_swap_answer(flight),
            CallEnd::Failed(error) => {
                let (round, usage) = (flight.round, flight.answer.usage);
                self.emit(DebateEvent::SwapCheckFailed { round, error, usage });
            }
        }
    }

    /// Reads the check's answer and compares it with the round's verdict.
    fn read_swap_answer(&mut self, flight: SwapFlight) {
        let SwapFlight { round, answer: Answer { text, usage }, .. } = flight;
        let current = self.state.rounds.iter().find(|r| r.number == round);
        let Some(original) = current.and_then(|r| r.verdict()).cloned() else {
            let error = "the round has no verdict to compare with".to_string();
            self.emit(DebateEvent::SwapCheckFailed { round, error, usage });
            return;
        };
        match swap::parse(&text, &original.topic, original.heat) {
            Ok(verdict) => {
                let flips = swap::flips(&original, &verdict);
                self.emit(DebateEvent::SwapChecked { round, verdict, flips, usage });
            }
            Err(error) => {
                let error = format!("its answer could not be read: {error}");
                self.emit(DebateEvent::SwapCheckFailed { round, error, usage });
            }
        }
    }

    /// The person cancelled what is under way: a check in flight is
    /// dropped and recorded as failed, and the debate goes on.
    pub(super) fn cancel_swap_check(&mut self) {
        let Some(flight) = self.swap.take() else { return };
        flight.handle.abort();
        self.held.retain(|(_, m)| m.task != flight.task);
        let error = "it was cancelled".to_string();
        self.emit(DebateEvent::SwapCheckFailed { round: flight.round, error, usage: flight.answer.usage });
    }
}
