//! The engine's side of a judge panel (`debate::panel`): asking each judge
//! besides the chair for its vote on a round, at the same time as the chair
//! judges it, through the same retried call as every turn; reading each
//! answer as the chair's is read, and recording the vote, or that the judge
//! gave none, which outvotes it and never stops the debate by itself.

use std::sync::Arc;

use anyhow::Context;

use tokio::task::JoinHandle;

use super::side_call::{Answer, CallEnd};
use super::{Engine, RoleSetup};
use crate::debate::call::{self, Call, TurnMsg};
use crate::debate::event::{DebateEvent, TurnPurpose};
use crate::debate::guard::turn::SentPrompt;
use crate::debate::seat::Role;
use crate::debate::{panel, prompt};

/// One panel judge's call under way.
pub(super) struct VoteFlight {
    pub(super) task: u64,
    round: u32,
    pub(super) handle: JoinHandle<()>,
    sent: SentPrompt,
    answer: Answer,
}

impl Engine {
    /// Asks judge `judge` of the panel for its vote on `round`.
    pub(super) fn start_panel_vote(&mut self, round: u32, judge: u32) {
        self.emit(DebateEvent::PanelVoteStarted { round, judge });
        let own = match self.own_judge_setup(judge) {
            Ok(own) => own,
            Err(error) => {
                let error = format!("it could not be set up: {error:#}");
                self.emit(DebateEvent::PanelVoteFailed { round, judge, error, usage: None });
                return;
            }
        };
        let purpose = self.vote_purpose(round);
        let mut request = self.request_for(round, Role::Judge, purpose);
        let seats = self.state.judges();
        // The chosen form is the embedded chair's; a judge on a provider of its own writes its verdict.
        let mut chosen = self.chosen_schema(round, purpose).is_some();
        if let Some(own) = &own {
            chosen &= own.model.is_embedded();
            request.model.clone_from(&own.model_name);
            request.max_tokens = own.max_tokens;
            request.thinking_budget = None;
            if !chosen {
                let mut asked = if self.state.scored() {
                    crate::debate::scores::with_scores(crate::debate::verdict::schema())
                } else {
                    crate::debate::verdict::schema()
                };
                if self.state.tracks_issues() {
                    asked = crate::debate::issues::with_issues(asked);
                }
                request.response_schema = Some(self.verdict_schema(own, asked));
            }
        }
        if let Some(model) = panel::model_of(&self.state, judge) {
            request.model = model.to_string();
        }
        let answering = own.as_ref().unwrap_or_else(|| self.setup.role(Role::Judge));
        let room = chosen
            .then(|| super::embedded::chosen_room(answering, &request.system, request.grounding.as_deref()))
            .flatten();
        request.messages = prompt::judge_messages_within(&self.state, round, purpose, chosen, judge, room);
        // Said last, not in the brief: the chair's brief stays the prompt's
        // start, so the embedded model serves every judge on the chair's lane.
        let seat_line = format!(
            "\n\nYou are judge {judge} of a panel of {seats}. Judge this round on your own reading; \
             the panel decides by majority."
        );
        if let Some(last) = request.messages.last_mut() {
            last.content.push_str(&seat_line);
        }
        // Each judge its own draw where a seed is sent, or the judges of an
        // embedded model would answer alike; a server is sent none unasked.
        let model = own.as_ref().map_or(&self.setup.role(Role::Judge).model, |o| &o.model);
        let embedded = model.is_embedded();
        if request.seed.is_some() || embedded {
            request.seed = Some(request.seed.unwrap_or_default().wrapping_add(u64::from(judge)));
        }
        let sent = SentPrompt::of(&request);
        self.next_task += 1;
        let task = self.next_task;
        let model = Arc::clone(model);
        let call = Call { task, role: Role::Judge, model, policy: self.setup.retry, paused: self.paused.subscribe() };
        let handle = call::spawn(call, request, self.turn_tx.clone());
        let flight = VoteFlight { task, round, handle, sent, answer: Answer::default() };
        self.votes.insert(judge, flight);
    }

    /// The set-up of judge `judge` when its format puts it on a provider of
    /// its own (made once, then kept); `None`: the judges' provider.
    fn own_judge_setup(&mut self, judge: u32) -> anyhow::Result<Option<RoleSetup>> {
        let Some(provider) = panel::provider_of(&self.state, judge).map(str::to_string) else { return Ok(None) };
        if let Some(own) = self.judge_setups.get(&judge) {
            return Ok(Some(own.clone()));
        }
        let factory = self.setup.judges.clone().context("this run of heat sets up no judge's own provider")?;
        let own = factory(&provider, panel::model_of(&self.state, judge))?;
        self.judge_setups.insert(judge, own.clone());
        Ok(Some(own))
    }

    /// What a judge is asked on `round`: the last word when the chair gives
    /// it (who won), else the round's verdict.
    fn vote_purpose(&self, round: u32) -> TurnPurpose {
        let chair = self.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(Role::Judge));
        if chair.is_some_and(|t| t.purpose.is_final()) { TurnPurpose::Synthesis } else { TurnPurpose::Judge }
    }

    /// The panel judge whose call sent `task`, if any.
    pub(super) fn voter(&self, task: u64) -> Option<u32> {
        self.votes.iter().find(|(_, f)| f.task == task).map(|(&judge, _)| judge)
    }

    /// The judges whose call is under way, as the planner takes them.
    pub(super) fn votes_in_flight(&self) -> u32 {
        self.votes.keys().filter(|&&judge| judge < u32::BITS).fold(0, |bits, judge| bits | (1 << judge))
    }

    /// One message from judge `judge`'s call.
    pub(super) fn on_vote_msg(&mut self, judge: u32, msg: TurnMsg) {
        let Some(mut flight) = self.votes.remove(&judge) else { return };
        match self.side_call_msg(flight.round, &mut flight.answer, msg.kind) {
            CallEnd::Going => {
                self.votes.insert(judge, flight);
            }
            CallEnd::Done => self.read_vote(judge, flight),
            CallEnd::Failed(error) => {
                let (round, usage) = (flight.round, flight.answer.usage);
                self.emit(DebateEvent::PanelVoteFailed { round, judge, error, usage });
            }
        }
    }

    /// Reads a judge's answer as the chair's is read; one that cannot be
    /// used is no vote (the judge is not asked twice).
    fn read_vote(&mut self, judge: u32, flight: VoteFlight) {
        let VoteFlight { round, answer: Answer { text, usage }, sent, .. } = flight;
        match self.judge_answer(round, self.vote_purpose(round), &sent, &text) {
            Ok((verdict, _)) => self.emit(DebateEvent::PanelVoted { round, judge, verdict, usage }),
            Err(error) => {
                let error = format!("its answer could not be read: {error}");
                self.emit(DebateEvent::PanelVoteFailed { round, judge, error, usage });
            }
        }
    }

    /// The person cancelled what is under way: each vote in flight is
    /// dropped and recorded as none.
    pub(super) fn cancel_panel_votes(&mut self) {
        let mut judges: Vec<u32> = self.votes.keys().copied().collect();
        judges.sort_unstable();
        for judge in judges {
            let Some(flight) = self.votes.remove(&judge) else { continue };
            flight.handle.abort();
            self.held.retain(|(_, m)| m.task != flight.task);
            let error = panel::CANCELLED.to_string();
            let usage = flight.answer.usage;
            self.emit(DebateEvent::PanelVoteFailed { round: flight.round, judge, error, usage });
        }
    }
}
