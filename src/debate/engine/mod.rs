//! The round loop as a tokio task: commands in, events out. The engine folds
//! every event it emits into its own `DebateState`, asks the planner what to
//! do next, and runs each model turn on a task of its own. Dropping a turn's
//! task drops its stream, which aborts the HTTP request.
//!
//! While paused, a model that pauses in place (the embedded one) is not
//! polled, so it stops between two tokens; what any other model sends is
//! held, and shown on resume stamped with the moment it arrived.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

mod checks;
mod embedded;
mod handle;
mod panel_vote;
mod side_call;
mod swap_check;
mod verdict_read;

pub use handle::{DebateHandle, Stamped};

use super::call::{self, Call, TurnMsg, TurnMsgKind};
use super::event::{Command, DebateEvent, Outcome, TurnPurpose};
use super::guard::turn::{self as guard, ArgumentOutcome, SentPrompt};
use super::notices::{self, served_name};
use super::plan::{self, Step, next_steps_with};
use super::prompt;
use super::seat::Role;
pub use super::setup::{
    DebateSpec, EngineSetup, Grounding, JudgeFactory, RoleSetup, StructuredSetting, duel_roles, seat_roles,
};
use super::state::DebateState;
use super::temperature::{self, Purpose};
use super::{grounding, issues, scores, verdict};
use crate::provider::retry::TurnItem;
use crate::provider::{
    Adaptation, ChatMessage, ChatRequest, Chunk, FinishReason, ResponseSchema, StructuredOutput, Usage,
};

/// Starts a new debate. With no topic, a source document gives its own
/// (its first heading, else its name).
pub fn start(setup: EngineSetup, spec: DebateSpec) -> DebateHandle {
    let topic = match &spec.grounding.source {
        Some(source) if spec.topic.trim().is_empty() => source.topic(),
        _ => spec.topic,
    };
    let started = DebateEvent::Started {
        topic,
        max_rounds: spec.max_rounds.max(1),
        initial_heat: spec.initial_heat,
        participants: setup.participants(&super::format::FormatRecord::seats_of(spec.format.as_ref())),
    };
    let Grounding { date, source } = spec.grounding;
    let grounded = (date.is_some() || source.is_some()).then_some(DebateEvent::Grounded { date, source });
    let formatted = spec.format.map(|format| DebateEvent::Formatted { format: Box::new(format) });
    spawn(setup, DebateState::default(), [Some(started), grounded, formatted])
}

/// Continues a debate from its folded state, at the first incomplete turn.
pub fn resume(setup: EngineSetup, state: DebateState) -> DebateHandle {
    spawn(setup, state, [Some(DebateEvent::Reopened), None, None])
}

/// Continues a branch: its folded state is another debate's up to a
/// finished round, with the branch's changes; nothing is reopened.
pub fn branch(setup: EngineSetup, state: DebateState) -> DebateHandle {
    spawn(setup, state, [None, None, None])
}

fn spawn(setup: EngineSetup, state: DebateState, first: [Option<DebateEvent>; 3]) -> DebateHandle {
    let (command_tx, command_rx) = mpsc::unbounded_channel();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    let (turn_tx, turn_rx) = mpsc::unbounded_channel();
    let (paused, _) = watch::channel(state.paused);
    let mut engine = Engine {
        setup,
        state,
        paused,
        arrived: None,
        events: event_tx,
        commands: command_rx,
        turn_tx,
        turn_rx,
        in_flight: HashMap::new(),
        held: VecDeque::new(),
        next_task: 0,
        no_temperature: HashSet::new(),
        in_flight_ends: HashMap::new(),
        source_index: None,
        preamble: None,
        swap: None,
        votes: HashMap::new(),
        judge_setups: HashMap::new(),
        sat_out: HashSet::new(),
    };
    // What endpoints taught an earlier run of this debate still holds.
    for (endpoint, adaptation) in &engine.state.adaptations {
        for role in Role::ALL {
            let model = &engine.setup.role(role).model;
            if model.endpoint().as_deref() == Some(endpoint.as_str()) {
                model.adapt(adaptation);
            }
        }
    }
    let task = tokio::spawn(async move {
        for event in first.into_iter().flatten() {
            engine.emit(event);
        }
        // The same block starts every request: built once (a source is numbered in full).
        engine.preamble = grounding::preamble(engine.state.date.as_deref(), engine.state.source.as_ref());
        engine.check_source_intact();
        engine.read_unread_verdict();
        engine.check_unchecked_quotes();
        engine.run().await;
        engine.state
    });
    DebateHandle { commands: command_tx, events: event_rx, task }
}

struct InFlight {
    task: u64,
    round: u32,
    purpose: TurnPurpose,
    handle: JoinHandle<()>,
    /// What the model was sent, for the guards.
    sent: SentPrompt,
    /// This is the one more try a guard asked for.
    guard_retry: bool,
}

struct Engine {
    setup: EngineSetup,
    state: DebateState,
    /// `state.paused`, for the calls of models that pause in place.
    paused: watch::Sender<bool>,
    /// When the held turn message being shown arrived: the stamp of what it causes.
    arrived: Option<Instant>,
    events: mpsc::UnboundedSender<Stamped>,
    commands: mpsc::UnboundedReceiver<Command>,
    turn_tx: mpsc::UnboundedSender<TurnMsg>,
    turn_rx: mpsc::UnboundedReceiver<TurnMsg>,
    in_flight: HashMap<Role, InFlight>,
    /// Turn messages received while paused, with when each arrived; shown on resume.
    held: VecDeque<(Instant, TurnMsg)>,
    next_task: u64,
    /// Roles whose model refused a temperature.
    no_temperature: HashSet<Role>,
    /// What each in-flight turn's current attempt reported about itself.
    in_flight_ends: HashMap<Role, AttemptEnd>,
    /// The source, indexed for quote checks on the first argument that needs it.
    source_index: Option<grounding::SourceIndex>,
    /// The date and the source every request starts with (`grounding::preamble`).
    preamble: Option<String>,
    /// The swap check under way, if any.
    swap: Option<swap_check::SwapFlight>,
    /// A panel's judges' calls under way, by judge number.
    votes: HashMap<u32, panel_vote::VoteFlight>,
    /// The set-ups of panel judges on providers of their own, by judge number.
    judge_setups: HashMap<u32, RoleSetup>,
    /// The debaters already said to sit a round out, by round.
    sat_out: HashSet<(u32, Role)>,
}

/// The runtime's clock (a test that pauses time sees its own).
fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

/// The latest usage and the finish an attempt reported.
#[derive(Default)]
struct AttemptEnd {
    usage: Option<Usage>,
    finish: Option<FinishReason>,
}

impl Engine {
    async fn run(&mut self) {
        loop {
            self.advance();
            if self.state.finish.is_some() {
                break;
            }
            // Commands first: steering must never wait behind a fast stream.
            tokio::select! {
                biased;
                command = self.commands.recv() => match command {
                    Some(command) => self.on_command(command),
                    None => self.on_command(Command::Stop),
                },
                Some(msg) = self.turn_rx.recv() => {
                    if self.state.paused {
                        self.held.push_back((now(), msg));
                    } else {
                        self.on_turn_msg(msg);
                    }
                }
            }
        }
        self.abort_all();
    }

    fn emit(&mut self, event: DebateEvent) {
        super::trace::event(&event);
        self.state.apply(&event);
        let paused = self.state.paused;
        self.paused.send_if_modified(|p| std::mem::replace(p, paused) != paused);
        let at = self.arrived.unwrap_or_else(now);
        // A consumer that went away does not stop the debate from ending cleanly.
        let _ = self.events.send(Stamped { event, at });
    }

    /// Performs every step the planner asks for until it asks for none.
    fn advance(&mut self) {
        loop {
            self.announce_sitting_out();
            let in_flight: Vec<Role> = self.in_flight.keys().copied().collect();
            let options = plan::Options {
                swap_check: self.setup.swap_check,
                swap_in_flight: self.swap.is_some(),
                panel_in_flight: self.votes_in_flight(),
                votes_in_turn: self.setup.role(Role::Judge).model.is_embedded(),
            };
            let steps = next_steps_with(&self.state, &in_flight, options);
            if steps.is_empty() {
                return;
            }
            for step in steps {
                match step {
                    Step::StartRound { round, topic, heat, injected } => {
                        let warnings = [
                            notices::judge_context_warning(&self.setup, &self.state),
                            notices::long_topic_warning(&self.setup, &self.state, round),
                            notices::swap_check_unasked(&self.setup, &self.state),
                            notices::scores_unasked(&self.setup, &self.state),
                            notices::panel_on_embedded(&self.setup, &self.state),
                        ];
                        for warning in warnings.into_iter().flatten() {
                            self.emit(DebateEvent::Notice { message: warning });
                        }
                        self.emit(DebateEvent::RoundStarted { round, topic, heat, injected });
                    }
                    Step::StartTurn { round, role, purpose } => self.start_turn(round, role, purpose),
                    Step::SwapCheck { round } => self.start_swap_check(round),
                    Step::PanelVote { round, judge } => self.start_panel_vote(round, judge),
                    Step::Finish { outcome, synthesis } => {
                        self.abort_all();
                        self.emit(DebateEvent::Finished { outcome, synthesis });
                        return;
                    }
                }
            }
        }
    }

    /// Says once which debaters of the current round sit it out: their
    /// turn failed for good, and the others go on without them.
    fn announce_sitting_out(&mut self) {
        let Some(round) = self.state.current_round() else { return };
        let number = round.number;
        let out: Vec<Role> = plan::sitting_out(&self.state, round)
            .into_iter()
            .filter(|&role| !self.sat_out.contains(&(number, role)))
            .collect();
        for role in out {
            self.sat_out.insert((number, role));
            let name = self.state.seat_name(role);
            let message = format!("the {name} sits round {} out; the other debaters go on", number + 1);
            self.emit(DebateEvent::Notice { message });
        }
    }

    fn on_command(&mut self, command: Command) {
        if self.state.finish.is_some() {
            return;
        }
        match command {
            Command::Pause if !self.state.paused => self.emit(DebateEvent::Paused),
            Command::Resume if self.state.paused => {
                // What arrived while paused happened then: it is told first, stamped when it arrived.
                while let Some((at, msg)) = self.held.pop_front() {
                    self.arrived = Some(at);
                    self.on_turn_msg(msg);
                }
                self.arrived = None;
                self.emit(DebateEvent::Resumed);
            }
            Command::Pause | Command::Resume => {}
            Command::InjectTopic(text) => {
                let text = text.trim().to_string();
                if !text.is_empty() {
                    self.emit(DebateEvent::TopicInjected { text });
                }
            }
            Command::PinTemperature(heat) => {
                self.emit(DebateEvent::TemperaturePinned { heat });
            }
            Command::ReleaseTemperature => {
                if self.state.pinned_heat.is_some() {
                    self.emit(DebateEvent::TemperatureReleased);
                }
            }
            Command::ForceResolution => {
                if !self.state.force_requested {
                    self.emit(DebateEvent::ResolutionForced);
                }
            }
            Command::HumanVerdict { ahead, confidence, note, ends } => {
                let round = self.state.current_round().map_or(0, |r| r.number);
                let note = note.trim().to_string();
                self.emit(DebateEvent::HumanVerdict { round, ahead, confidence: confidence.min(100), note, ends });
                // The person's resolution: the round finishes and the judge writes its synthesis.
                if ends && !self.state.force_requested {
                    self.emit(DebateEvent::ResolutionForced);
                }
            }
            Command::CancelTurn => self.cancel_turns(),
            Command::Stop => {
                self.abort_all();
                self.emit(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
            }
        }
    }

    fn cancel_turns(&mut self) {
        self.cancel_swap_check();
        self.cancel_panel_votes();
        let mut roles: Vec<Role> = self.in_flight.keys().copied().collect();
        roles.sort();
        for role in roles {
            let Some(flight) = self.in_flight.remove(&role) else {
                continue;
            };
            flight.handle.abort();
            // What the person saw stands; anything held back is dropped with the turn.
            self.held.retain(|(_, m)| m.task != flight.task);
            self.emit(DebateEvent::TurnCancelled { round: flight.round, role });
        }
    }

    fn abort_all(&mut self) {
        for (_, flight) in self.in_flight.drain() {
            flight.handle.abort();
        }
        if let Some(swap) = self.swap.take() {
            swap.handle.abort();
        }
        for (_, vote) in self.votes.drain() {
            vote.handle.abort();
        }
        self.held.clear();
    }

    fn start_turn(&mut self, round: u32, role: Role, purpose: TurnPurpose) {
        let request = self.request_for(round, role, purpose);
        self.emit(DebateEvent::TurnStarted { round, role, purpose, temperature: request.temperature });
        self.run_turn(round, role, purpose, request, false);
    }

    /// Runs a turn's model call on a task of its own.
    fn run_turn(&mut self, round: u32, role: Role, purpose: TurnPurpose, request: ChatRequest, guard_retry: bool) {
        let prompt = SentPrompt::of(&request);
        self.next_task += 1;
        let task = self.next_task;
        let model = Arc::clone(&self.setup.role(role).model);
        let call = Call { task, role, model, policy: self.setup.retry, paused: self.paused.subscribe() };
        let handle = call::spawn(call, request, self.turn_tx.clone());
        self.in_flight.insert(role, InFlight { task, round, purpose, handle, sent: prompt, guard_retry });
    }

    fn request_for(&self, round: u32, role: Role, purpose: TurnPurpose) -> ChatRequest {
        let setup = self.setup.role(role);
        let heat = self.state.rounds.iter().find(|r| r.number == round).map_or(self.state.heat, |r| r.heat);
        let system = self.setup.prompts.system_with(role, self.state.format.as_ref().and_then(|f| f.brief(role)));
        // An embedded critic is held to open with its issue line; its lead follows it.
        let raising = self.raising(role);
        let (messages, response_schema) = if role.is_judge() {
            let chosen = self.chosen_schema(round, purpose);
            let room = chosen.as_ref().and_then(|_| embedded::chosen_room(setup, &system, self.preamble.as_deref()));
            let chair = super::panel::CHAIR;
            let messages = prompt::judge_messages_within(&self.state, round, purpose, chosen.is_some(), chair, room);
            let mut asked =
                if self.state.scored() { scores::with_scores(verdict::schema()) } else { verdict::schema() };
            if self.state.tracks_issues() {
                asked = issues::with_issues(asked);
            }
            let schema = chosen.unwrap_or_else(|| self.verdict_schema(setup, asked));
            (messages, Some(schema))
        } else {
            let brief = setup.model.is_embedded();
            let mut messages = prompt::debater_messages(&self.state, role, round, brief);
            if setup.model.continues_answer() && raising.is_none() {
                messages.extend(prompt::opening(&self.state, role, round).map(ChatMessage::assistant));
            }
            (messages, None)
        };
        let grammar =
            raising.map(|id| issues::raising::grammar(&id, prompt::opening(&self.state, role, round).as_deref()));
        let wanted = Purpose::of(role, heat, self.setup.judge_temperature);
        let temperature =
            temperature::sent(wanted, setup.thinking_budget.is_some(), self.no_temperature.contains(&role));
        ChatRequest {
            model: setup.model_name.clone(),
            system,
            grounding: self.preamble.clone(),
            messages,
            temperature,
            max_tokens: setup.max_tokens,
            thinking_budget: setup.thinking_budget,
            response_schema,
            grammar,
            seed: self.setup.seed,
        }
    }

    /// The verdict's schema in the form the judge's endpoint takes: the
    /// configured form, or the weaker one the server was found to accept.
    fn verdict_schema(&self, setup: &RoleSetup, schema: serde_json::Value) -> ResponseSchema {
        let (start, may_step_down) = match setup.structured {
            StructuredSetting::Auto => (StructuredOutput::Schema, true),
            StructuredSetting::Fixed(form) => (form, false),
        };
        let learnt = setup.model.endpoint().and_then(|e| self.state.structured_output_for(&e));
        let form = if may_step_down { learnt.map_or(start, |l| l.max(start)) } else { start };
        ResponseSchema { form, may_step_down, ..ResponseSchema::new("verdict", schema) }
    }

    fn on_turn_msg(&mut self, msg: TurnMsg) {
        if self.swap.as_ref().is_some_and(|s| s.task == msg.task) {
            self.on_swap_msg(msg);
            return;
        }
        if let Some(judge) = self.voter(msg.task) {
            self.on_vote_msg(judge, msg);
            return;
        }
        let Some(flight) = self.in_flight.get(&msg.role).filter(|f| f.task == msg.task) else {
            return; // a message from a turn that was cancelled or replaced
        };
        let (round, role) = (flight.round, msg.role);
        match msg.kind {
            TurnMsgKind::Item(TurnItem::Chunk(chunk)) => self.on_chunk(round, role, chunk),
            TurnMsgKind::Item(TurnItem::Retrying { attempt, max_retries, delay, error }) => {
                self.in_flight_ends.remove(&role);
                self.emit(DebateEvent::TurnRetrying {
                    round,
                    role,
                    attempt,
                    max_retries,
                    delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                    reason: error.to_string(),
                });
            }
            TurnMsgKind::Item(TurnItem::ParameterDropped { param, message }) => {
                self.on_parameter_dropped(role, &param, &message);
            }
            TurnMsgKind::Item(TurnItem::StructuredSteppedDown { from, to, message }) => {
                self.on_structured_stepped_down(role, from, to, &message);
            }
            TurnMsgKind::Done => {
                if let Some(flight) = self.in_flight.remove(&role) {
                    self.complete_turn(role, &flight);
                }
            }
            TurnMsgKind::Failed(error) => {
                self.in_flight.remove(&role);
                self.in_flight_ends.remove(&role);
                let error = error.sentence(self.setup.role(role).model.provider_name());
                self.emit(DebateEvent::TurnFailed { round, role, error });
            }
        }
    }

    fn on_chunk(&mut self, round: u32, role: Role, chunk: Chunk) {
        match chunk {
            Chunk::Text(text) if !text.is_empty() => self.emit(DebateEvent::Delta { round, role, text }),
            Chunk::Reasoning(text) if !text.is_empty() => self.emit(DebateEvent::Reasoning { round, role, text }),
            Chunk::Usage(usage) => {
                self.in_flight_ends.entry(role).or_default().usage = Some(usage);
            }
            Chunk::Finish(reason) => {
                self.in_flight_ends.entry(role).or_default().finish = Some(reason);
            }
            Chunk::Model(model) => {
                let model = served_name(&model);
                let known = self
                    .state
                    .participant(role)
                    .is_some_and(|p| served_name(&p.model) == model || p.served.as_ref() == Some(&model));
                if !known {
                    self.emit(DebateEvent::ModelReported { role, model });
                }
            }
            Chunk::Adapted(adaptation) => {
                let Some(endpoint) = self.setup.role(role).model.endpoint() else { return };
                let message = notices::adapted(&endpoint, &adaptation);
                self.emit(DebateEvent::EndpointAdapted { endpoint, adaptation, message });
            }
            Chunk::Text(_) | Chunk::Reasoning(_) => {}
        }
    }

    fn on_structured_stepped_down(&mut self, role: Role, from: StructuredOutput, to: StructuredOutput, message: &str) {
        let setup = self.setup.role(role);
        let Some(endpoint) = setup.model.endpoint() else { return };
        if self.state.structured_output_for(&endpoint).is_some_and(|known| known >= to) {
            return; // another turn learnt it first
        }
        let provider = setup.model.provider_name();
        tracing::warn!(%endpoint, %message, "structured output refused");
        let message = notices::stepped_down(provider, &endpoint, from, to);
        let adaptation = Adaptation::StructuredOutput { form: to };
        self.emit(DebateEvent::EndpointAdapted { endpoint, adaptation, message });
    }

    fn on_parameter_dropped(&mut self, role: Role, param: &str, message: &str) {
        if param == "temperature" {
            self.no_temperature.insert(role);
        }
        let note = notices::parameter_dropped(&self.setup.role(role).model_name, param, message);
        self.emit(DebateEvent::Notice { message: note });
    }

    fn complete_turn(&mut self, role: Role, flight: &InFlight) {
        let (round, purpose) = (flight.round, flight.purpose);
        let turn = self.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
        let mut text = turn.map(|t| t.text.clone()).unwrap_or_default();
        if role.is_debater() {
            match guard::argument(&self.state, &flight.sent, &text, flight.guard_retry) {
                ArgumentOutcome::Stands(cleaned) => text = cleaned,
                ArgumentOutcome::Retry(fault) => {
                    self.in_flight_ends.remove(&role);
                    let reason = fault.to_string();
                    self.emit(DebateEvent::TurnRetrying {
                        round,
                        role,
                        attempt: 1,
                        max_retries: 1,
                        delay_ms: 0,
                        reason,
                    });
                    let mut request = self.request_for(round, role, purpose);
                    if self.setup.role(role).model.is_embedded() {
                        // Same prompt, same seed: the embedded model would answer the same again.
                        request.seed = Some(request.seed.unwrap_or_default().wrapping_add(1));
                    }
                    self.run_turn(round, role, purpose, request, true);
                    return;
                }
                ArgumentOutcome::Fails(error) => {
                    self.in_flight_ends.remove(&role);
                    self.emit(DebateEvent::TurnFailed { round, role, error });
                    return;
                }
            }
        }
        let end = self.in_flight_ends.remove(&role).unwrap_or_default();
        let usage = end.usage;
        let truncated_at = (end.finish == Some(FinishReason::Length)).then(|| {
            let limit = self.setup.role(role).max_tokens;
            usage.map_or(limit, |u| u32::try_from(u.output_tokens).unwrap_or(limit).max(1))
        });
        self.emit(DebateEvent::TurnCompleted { round, role, text: text.clone(), usage, truncated_at });
        if role.is_debater() {
            self.check_quotes(round, role, &text, true);
            return;
        }
        self.read_verdict(round, purpose, &flight.sent, &text);
    }
}
