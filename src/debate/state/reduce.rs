//! The reducer: how each event changes a debate's state. Everything heat
//! shows or decides is folded from the log by this one function, live or
//! replayed, so a resumed debate is the one that was interrupted.

use crate::debate::seat::PanelJudge;
use std::collections::BTreeMap;

use super::{
    BranchPoint, Brief, DebateState, Finish, HumanVerdict, Round, SeatNote, Summary, ToolAnswer, ToolStep, ToolUse,
    Turn, TurnStatus, VerdictStatus,
};
use crate::debate::event::{DebateEvent, Participant, Waiting};
use crate::debate::format::FormatRecord;
use crate::debate::panel::vote::Vote;
use crate::debate::seat::Role;
use crate::debate::stance;
use crate::debate::swap::check::SwapCheck;

impl DebateState {
    /// The one reducer. Events that do not fit the state (a delta for a turn
    /// that is not streaming, say) are ignored rather than trusted.
    #[allow(clippy::too_many_lines)] // one arm per event kind reads best as one match
    pub fn apply(&mut self, event: &DebateEvent) {
        match event {
            DebateEvent::Started { topic, max_rounds, initial_heat, participants } => {
                self.topic.clone_from(topic);
                self.max_rounds = *max_rounds;
                self.initial_heat = *initial_heat;
                self.heat = self.initial_heat;
                self.participants.clone_from(participants);
            }
            DebateEvent::RoundStarted { round, topic, heat, injected } => {
                self.pending_injections.retain(|p| !injected.contains(p));
                let asked_by_person = self.next_question.take().is_some_and(|q| q == *topic);
                // With no judge to set it, the heat in force is the one each round is argued at (`vote::next_heat`).
                if self.judges() == 0 && self.pinned_heat.is_none() {
                    self.heat = *heat;
                }
                self.rounds.push(Round {
                    number: *round,
                    topic: topic.clone(),
                    heat: *heat,
                    pinned: self.pinned_heat.is_some(),
                    injected: injected.clone(),
                    seat_heats: self.seat_pins.clone(),
                    discarded: Vec::new(),
                    asked_by_person,
                    turns: Vec::new(),
                    swap: None,
                    panel: BTreeMap::new(),
                    readings: BTreeMap::new(),
                    briefs: BTreeMap::new(),
                });
            }
            DebateEvent::TurnStarted { round, role, purpose, temperature } => {
                let Some(r) = self.round_mut(*round) else {
                    return;
                };
                let mut turn = Turn::started(*role, *purpose, *temperature);
                // An open turn started again (resume after a crash) is replaced, keeping the notes it carried.
                match r.turn_mut(*role) {
                    Some(open) if open.is_open() => {
                        turn.notes = std::mem::take(&mut open.notes);
                        // What it looked up was paid for: its next request goes on from there.
                        turn.tools = std::mem::take(&mut open.tools);
                        *open = turn;
                    }
                    _ => r.turns.push(turn),
                }
                let delivered = take_notes(&mut self.seat_notes, *role);
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.notes.extend(delivered);
                }
            }
            DebateEvent::TurnQueued { round, role } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.queued = true;
                }
            }
            DebateEvent::TurnSent { round, role } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.queued = false;
                }
            }
            DebateEvent::RequestSent { round, role, request } => {
                let whole = Box::new(request.expand(self.last_sent(*role)));
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.sent = Some(whole);
                }
            }
            DebateEvent::Delta { round, role, text } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.status = TurnStatus::Streaming;
                    t.text.push_str(text);
                }
            }
            DebateEvent::Reasoning { round, role, text } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.status = TurnStatus::Streaming;
                    t.reasoning.push_str(text);
                }
            }
            DebateEvent::TurnRetrying { round, role, attempt, max_retries, delay_ms, reason } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.text.clear();
                    t.reasoning.clear();
                    t.queued = false;
                    t.status = TurnStatus::Retrying {
                        attempt: *attempt,
                        max_retries: *max_retries,
                        delay_ms: *delay_ms,
                        reason: reason.clone(),
                    };
                }
            }
            DebateEvent::TurnCompleted { round, role, text, usage, truncated_at, possibly_cut } => {
                // Stances are asked for, and read, in a document debate only.
                let grounded = self.source.is_some();
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.text.clone_from(text);
                    t.usage = super::spent(&t.tools, *usage);
                    t.truncated_at = *truncated_at;
                    t.possibly_cut = *possibly_cut;
                    t.status = TurnStatus::Done;
                    if t.role.is_debater() && grounded {
                        t.stance = stance::parse(text);
                    }
                }
            }
            DebateEvent::Grounded { date, source, library } => {
                self.date.clone_from(date);
                self.source.clone_from(source);
                self.library = library.as_deref().cloned();
            }
            DebateEvent::Retrieved { round, role, passages } => {
                if let Some(r) = self.round_mut(*round) {
                    r.readings.insert(*role, passages.clone());
                }
            }
            DebateEvent::ToolsCalled { round, role, calls, usage } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    let said = std::mem::take(&mut t.text);
                    let calls = calls.iter().map(|call| ToolUse { call: call.clone(), answer: None }).collect();
                    t.tools.push(ToolStep { said, usage: *usage, calls });
                }
            }
            DebateEvent::Briefed { round, role, text, usage } => {
                if let Some(r) = self.round_mut(*round) {
                    r.briefs.insert(*role, Brief::Written { text: text.clone(), usage: *usage });
                }
            }
            DebateEvent::BriefFailed { round, role, error, usage } => {
                if let Some(r) = self.round_mut(*round) {
                    r.briefs.insert(*role, Brief::Failed { error: error.clone(), usage: *usage });
                }
            }
            DebateEvent::ToolAnswered { round, role, id, text, failed, millis } => {
                let turn = self.open_turn_mut(*round, *role);
                let call = turn.and_then(|t| t.tools.iter_mut().flat_map(|s| &mut s.calls).rfind(|u| u.call.id == *id));
                if let Some(call) = call {
                    call.answer = Some(ToolAnswer { text: text.clone(), failed: *failed, millis: *millis });
                }
            }
            DebateEvent::Formatted { format } => {
                let mut format = FormatRecord::clone(format);
                // Names from a user's file are drawn on screen: no control characters, no essays.
                for label in &mut format.labels {
                    *label = crate::debate::format::clean_label(label);
                }
                self.format = Some(format);
            }
            DebateEvent::QuotesChecked { round, role, checks } => {
                if let Some(t) = self.round_mut(*round).and_then(|r| r.turn_mut(*role)) {
                    t.checks.clone_from(checks);
                }
            }
            DebateEvent::TurnCancelled { round, role } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.status = TurnStatus::Cancelled;
                }
            }
            DebateEvent::TurnFailed { round, role, error } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.status = TurnStatus::Failed { error: error.clone() };
                }
            }
            DebateEvent::VerdictReached { round, verdict } => {
                let panel = self.judges() > 1;
                if let Some(t) = self.round_mut(*round).and_then(|r| r.turn_mut(Role::Judge)) {
                    t.verdict = Some(VerdictStatus::Parsed { verdict: verdict.clone() });
                    // A verdict that closes the debate sets no heat: there is no next round.
                    // On a panel the decision sets it (`panel_heat`).
                    if !t.closes_debate() && !panel {
                        self.heat = verdict.heat;
                    }
                }
                self.panel_heat(*round);
            }
            DebateEvent::VerdictInvalid { round, error, will_retry } => {
                if let Some(t) = self.round_mut(*round).and_then(|r| r.turn_mut(Role::Judge)) {
                    t.verdict = Some(VerdictStatus::Invalid { error: error.clone(), will_retry: *will_retry });
                }
            }
            DebateEvent::SwapCheckStarted { round } => {
                if let Some(r) = self.round_mut(*round) {
                    r.swap = Some(SwapCheck::Asking);
                }
            }
            DebateEvent::SwapChecked { round, verdict, flips, usage } => {
                if let Some(r) = self.round_mut(*round) {
                    r.swap = Some(SwapCheck::Answered { verdict: verdict.clone(), flips: *flips, usage: *usage });
                }
            }
            DebateEvent::SwapCheckFailed { round, error, usage } => {
                if let Some(r) = self.round_mut(*round) {
                    r.swap = Some(SwapCheck::Failed { error: error.clone(), usage: *usage });
                }
                self.notices.push(format!("the swap check of round {} failed: {error}", round.saturating_add(1)));
            }
            DebateEvent::PanelVoteStarted { round, judge } => self.set_vote(*round, *judge, Vote::Asking),
            DebateEvent::PanelVoted { round, judge, verdict, usage } => {
                self.set_vote(*round, *judge, Vote::Voted { verdict: verdict.clone(), usage: *usage });
            }
            DebateEvent::PanelVoteFailed { round, judge, error, usage } => {
                self.set_vote(*round, *judge, Vote::Failed { error: error.clone(), usage: *usage });
                self.notices.push(format!(
                    "judge {judge} of the panel gave no vote in round {}: {error}",
                    round.saturating_add(1)
                ));
            }
            DebateEvent::Paused => self.paused = true,
            DebateEvent::Resumed => self.paused = false,
            DebateEvent::TopicInjected { text } => self.pending_injections.push(text.clone()),
            DebateEvent::TemperaturePinned { heat } => self.pinned_heat = Some(*heat),
            DebateEvent::TemperatureReleased => self.pinned_heat = None,
            DebateEvent::ResolutionForced => self.force_requested = true,
            DebateEvent::TurnDiscarded { round, role } => self.discard(*round, *role),
            DebateEvent::BudgetReached { spent } => {
                self.budget_reached = true;
                self.notices.push(format!("budget reached: {spent}; the debate paused"));
            }
            DebateEvent::TurnTimedOut { round, role, seconds } => {
                if let Some(t) = self.open_turn_mut(*round, *role) {
                    t.out_of_time = Some(*seconds);
                }
            }
            DebateEvent::NoteToSeats { text, seats } => {
                self.seat_notes.push(SeatNote { text: text.clone(), seats: seats.clone() });
            }
            DebateEvent::SeatHeatPinned { role, heat } => {
                self.seat_pins.insert(*role, *heat);
            }
            DebateEvent::SeatHeatReleased { role } => {
                self.seat_pins.remove(role);
            }
            DebateEvent::QuestionSet { question } => self.next_question = Some(question.clone()),
            DebateEvent::SteeringTakenBack { what } => self.take_back(what),
            DebateEvent::SeatModelChanged { role, participant } => {
                let before = self.participants.clone();
                if let Some(p) = self.participants.iter_mut().find(|p| p.role == *role) {
                    *p = participant.clone();
                }
                self.reseated(&before);
            }
            DebateEvent::RoundsAdded { rounds } => self.add_rounds(*rounds),
            DebateEvent::Notice { message } => self.notices.push(message.clone()),
            DebateEvent::EndpointAdapted { endpoint, adaptation, message } => {
                self.adaptations.push((endpoint.clone(), adaptation.clone()));
                self.notices.push(message.clone());
            }
            DebateEvent::ParameterRefused { role, what } => {
                self.refused.insert((*role, *what));
            }
            DebateEvent::ModelReported { role, model } => {
                if let Some(p) = self.participants.iter_mut().find(|p| p.role == *role) {
                    p.served = Some(model.clone());
                }
            }
            DebateEvent::Reopened => {
                if self.finish.as_ref().is_some_and(|f| f.outcome.lifted_on_resume()) {
                    self.finish = None;
                }
                let panel = self.judges() > 1;
                if let Some(round) = self.rounds.last_mut() {
                    // A debater who sat out a round its judge has taken up stays out of it.
                    let judged = round.turns.iter().any(|t| t.role.is_judge());
                    round
                        .turns
                        .retain(|t| !matches!(t.status, TurnStatus::Failed { .. }) || (judged && !t.role.is_judge()));
                    // A panel that could not decide asks its failed judges again.
                    round.panel.retain(|_, v| !matches!(v, Vote::Failed { .. }));
                    if panel {
                        round
                            .turns
                            .retain(|t| !matches!(t.verdict, Some(VerdictStatus::Invalid { will_retry: false, .. })));
                    }
                }
            }
            DebateEvent::Finished { outcome, synthesis } => {
                self.finish = Some(Finish { outcome: outcome.clone(), synthesis: synthesis.clone() });
            }
            DebateEvent::Derived { from, how } => self.origin = Some((from.clone(), how.clone())),
            DebateEvent::Recipe(recipe) => self.recipe = Some((**recipe).clone()),
            DebateEvent::Branched { from, round, how, participants, changes, .. } => {
                self.branch = Some(BranchPoint { from: from.clone(), round: *round, how: how.clone() });
                // A pause in force when the round ended was the parent's.
                self.paused = false;
                let before = std::mem::replace(&mut self.participants, participants.clone());
                self.reseated(&before);
                self.next_question.clone_from(&changes.question);
                if let Some(heat) = changes.heat {
                    // A heat given for the branch is the one it starts with: a pin it shared is released.
                    self.heat = heat;
                    self.pinned_heat = None;
                }
                if let Some(heat) = changes.pinned {
                    self.pinned_heat = Some(heat);
                }
                self.pending_injections.extend(changes.injected.iter().cloned());
                if let Some(max) = changes.max_rounds {
                    self.max_rounds = max.max(1);
                }
                if let (Some(panel), Some(format)) = (&changes.panel, self.format.as_mut()) {
                    panel.seat(format);
                }
            }
            DebateEvent::HumanVerdict { round, ahead, confidence, note, ends } => self.human.push(HumanVerdict {
                round: round.saturating_add(1),
                ahead: *ahead,
                confidence: (*confidence).min(100),
                note: note.clone(),
                ends: *ends,
            }),
            DebateEvent::AudienceVoted { round, ballots } => self.audience.entry(*round).or_default().count(ballots),
            // A newer summary replaces an older one.
            DebateEvent::Summarized { model, text, .. } => {
                self.summary = Some(Summary { model: model.clone(), text: text.clone() });
            }
        }
    }

    /// `rounds` more rounds: after the last one played when the debate
    /// had ended (its ending set aside, a forced resolution with it), else
    /// beyond the limit, a final synthesis asked for the old limit set
    /// aside too (not a forced one). A failed or cancelled ending is
    /// `Reopened`'s to lift.
    fn add_rounds(&mut self, rounds: u32) {
        let played = self.rounds.last().map_or(0, |r| r.number + 1);
        let ended = self.finish.as_ref().is_some_and(|f| f.outcome.concluded());
        if ended {
            self.finish = None;
            self.force_requested = false;
            self.reopened_after = played.checked_sub(1);
            self.max_rounds = played.saturating_add(rounds);
        } else {
            self.max_rounds = self.max_rounds.max(played).saturating_add(rounds);
            let synthesis = self.rounds.last().and_then(|r| r.turn(Role::Judge)).is_some_and(|t| t.purpose.is_final());
            if synthesis && !self.force_requested {
                self.reopened_after = played.checked_sub(1);
            }
        }
    }

    /// Drops what a person took back from what waits: the first injected
    /// topic or note of its words (a note, for the seats named), the
    /// question if it is still the one set.
    fn take_back(&mut self, what: &Waiting) {
        match what {
            Waiting::Topic { text } => {
                if let Some(at) = self.pending_injections.iter().position(|t| t == text) {
                    self.pending_injections.remove(at);
                }
            }
            Waiting::Note { text, seats } => {
                if let Some(note) = self.seat_notes.iter_mut().find(|n| n.text == *text) {
                    note.seats.retain(|r| !seats.contains(r));
                }
                self.seat_notes.retain(|n| !n.seats.is_empty());
            }
            Waiting::Question { question } => {
                if self.next_question.as_ref() == Some(question) {
                    self.next_question = None;
                }
            }
        }
    }

    /// Sets `role`'s turns of `round` aside as discarded, to ask it again:
    /// the notes they carried wait for its next request once more, and a
    /// judge's swap check goes with its verdict.
    fn discard(&mut self, round: u32, role: Role) {
        let Some(r) = self.round_mut(round) else { return };
        let (gone, kept): (Vec<Turn>, Vec<Turn>) =
            std::mem::take(&mut r.turns).into_iter().partition(|t| t.role == role);
        r.turns = kept;
        if role.is_judge() && !gone.is_empty() {
            r.swap = None;
        }
        let notes: Vec<String> = gone.iter().flat_map(|t| t.notes.iter().cloned()).collect();
        r.discarded.extend(gone);
        let notes = notes.into_iter().map(|text| SeatNote { text, seats: vec![role] });
        self.seat_notes.extend(notes);
    }

    /// What a seat's model refused is that model's: a seat now on another
    /// provider or model than in `before` forgets it, and its new model is
    /// asked as any model is.
    fn reseated(&mut self, before: &[Participant]) {
        let on = |seats: &[Participant], role: Role| {
            seats.iter().find(|p| p.role == role).map(|p| (p.provider.clone(), p.model.clone()))
        };
        let now = &self.participants;
        self.refused.retain(|&(role, _)| on(before, role).is_some_and(|was| Some(was) == on(now, role)));
    }

    fn set_vote(&mut self, round: u32, judge: PanelJudge, vote: Vote) {
        if let Some(r) = self.round_mut(round) {
            r.panel.insert(judge, vote);
        }
        self.panel_heat(round);
    }

    /// A panel sets the next round's heat by the median of its answers so
    /// far (the last answer in decides it), unless the round closed the debate.
    fn panel_heat(&mut self, round: u32) {
        let Some(decision) = crate::debate::panel::decision(self, round) else { return };
        let closes = self
            .rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.turn(Role::Judge))
            .is_some_and(|t| t.purpose.is_final());
        if !closes {
            self.heat = decision.heat;
        }
    }

    fn round_mut(&mut self, number: u32) -> Option<&mut Round> {
        self.rounds.iter_mut().rev().find(|r| r.number == number)
    }

    fn open_turn_mut(&mut self, round: u32, role: Role) -> Option<&mut Turn> {
        self.round_mut(round).and_then(|r| r.turn_mut(role)).filter(|t| t.is_open())
    }
}

/// The notes waiting for `role`'s next request, struck off for it (a note
/// no seat waits for any more goes).
fn take_notes(notes: &mut Vec<SeatNote>, role: Role) -> Vec<String> {
    let mut taken = Vec::new();
    for note in notes.iter_mut() {
        if let Some(at) = note.seats.iter().position(|&r| r == role) {
            note.seats.remove(at);
            taken.push(note.text.clone());
        }
    }
    notes.retain(|n| !n.seats.is_empty());
    taken
}
