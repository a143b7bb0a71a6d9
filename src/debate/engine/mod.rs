//! The round loop as a tokio task: commands in, events out. The engine
//! drives; it decides nothing itself. It folds every event it emits into its
//! own `DebateState`, asks the planner (`plan`) what to do next, runs each
//! model call on a task of its own (`task`), keeps one table of the calls
//! under way, and hands what a finished call answered to the answer step
//! (`answer`), performing what each returns. Dropping a call's task drops
//! its stream, which aborts the HTTP request.
//!
//! While paused, a model that pauses in place (the embedded one) is not
//! polled, so it stops between two tokens; what any other model sends is
//! held until its call ends, then recorded at once, each piece stamped with
//! the moment it arrived: a turn a server finished during a pause is kept
//! if the person quits (or the process dies) before resuming. Nothing new
//! starts until the resume.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, watch};

mod calls;
mod checks;
mod clock;
mod flight;
mod handle;
mod held;
mod judge_setups;
mod lookups;
mod memory;
mod reopening;
mod request;
mod task;
mod tool_tasks;

pub use super::setup::{
    Budget, Clock, DebateSpec, EngineSetup, Grounding, JudgeFactory, RoleSetup, StructuredSetting, ToolServer,
    duel_roles, seat_roles,
};
pub use handle::{DebateHandle, Stamped};
pub use reopening::{GoOn, Reopening};

use super::answer::{self, Act, Answered, AskedForm};
use super::call::Call;
use super::command::Command;
use super::event::{DebateEvent, TurnPurpose};
use super::grounding::{self, reading};
use super::guard::turn::SentPrompt;
use super::heard::{self, Answering, Heard, Refusal};
use super::notices;
use super::plan::{self, Step, next_steps_with};
use super::seat::{PanelJudge, Role};
use super::state::DebateState;
use crate::library::Shared;
use crate::provider::endpoint::Endpoint;
use crate::provider::retry::TurnItem;
use crate::provider::{ChatModel, ChatRequest, ProviderError, ResponseSchema, SchemaAsk};
use calls::Calls;
use clock::Deadlines;
use flight::Flight;
use judge_setups::JudgeSetups;
use lookups::{Continuing, Lookups};
use memory::Memory;
use request::Requests;
use task::{CallMsg, CallMsgKind, Task};

/// How many tokens of the library's passages a seat reads a round: a
/// fifth of its context where that is known, at most 1,600.
fn reading_budget(seat: &super::setup::RoleSetup) -> usize {
    seat.context_tokens().map_or(1_600, |window| (window as usize / 5).min(1_600))
}

/// Starts a new debate. With no topic, a source document gives its own
/// (its first heading, else its name). The proposition is kept as one line.
pub fn start(setup: EngineSetup, spec: DebateSpec) -> DebateHandle {
    let topic = match &spec.grounding.source {
        Some(source) if spec.topic.trim().is_empty() => source.topic(),
        _ => spec.topic,
    };
    let topic = crate::sanitize::one_line(&topic);
    let started = DebateEvent::Started {
        topic,
        max_rounds: spec.max_rounds.max(1),
        initial_heat: spec.initial_heat,
        participants: setup.participants(&super::format::FormatRecord::seats_of(spec.format.as_ref())),
    };
    let Grounding { date, source, library } = spec.grounding;
    let mut setup = setup;
    if let Some(Shared(library)) = library {
        setup.library = Some(library);
    }
    let library = setup.library.as_deref().map(|l| Box::new(crate::library::LibraryRecord::of(l)));
    let grounded = (date.is_some() || source.is_some() || library.is_some()).then_some(DebateEvent::Grounded {
        date,
        source,
        library,
    });
    let formatted = spec.format.map(|format| DebateEvent::Formatted { format: Box::new(format) });
    // The format follows the start at once, so whoever prints the seats can name them as the format does.
    spawn(setup, DebateState::default(), [Some(started), formatted, grounded].into_iter().flatten().collect())
}

/// Goes on with a stored debate folded into `state`. Every way heat
/// continues a stored debate comes here: `heat resume` on a terminal and
/// headless, a session opened in the studio, `heat branch` and the studio's
/// branch.
pub fn go_on(setup: EngineSetup, state: DebateState, how: GoOn) -> DebateHandle {
    match how {
        GoOn::Resume(reopening) => {
            let was_paused = state.paused;
            let handle = spawn(setup, state, reopening.events());
            if was_paused {
                handle.send(Command::Resume);
            }
            handle
        }
        GoOn::Branch => branch(setup, state),
    }
}

/// Continues a debate from its folded state, at the first incomplete turn
/// (paused, if it was stopped paused).
pub fn resume(setup: EngineSetup, state: DebateState) -> DebateHandle {
    spawn(setup, state, Reopening::default().events())
}

/// Continues a branch: its folded state is another debate's up to a
/// finished round, with the branch's changes; nothing is reopened.
pub fn branch(setup: EngineSetup, state: DebateState) -> DebateHandle {
    spawn(setup, state, Vec::new())
}

fn spawn(setup: EngineSetup, state: DebateState, first: Vec<DebateEvent>) -> DebateHandle {
    let (command_tx, command_rx) = mpsc::unbounded_channel();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    let (msg_tx, msg_rx) = mpsc::unbounded_channel();
    let (paused, _) = watch::channel(state.paused);
    let setup_clock = setup.clock;
    let memory = Memory::of(&state);
    let mut engine = Engine {
        setup,
        state,
        paused,
        arrived: None,
        events: event_tx,
        commands: command_rx,
        msg_tx,
        msg_rx,
        calls: Calls::default(),
        deadlines: Deadlines::new(setup_clock),
        memory,
        grounds: None,
        preamble: None,
        judge_setups: JudgeSetups::default(),
        lookups: Lookups::default(),
        secrets: crate::secrets::known_keys(),
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
        for event in first {
            engine.emit(event);
        }
        // The same block starts every request: built once (a source is numbered in full).
        let state = &engine.state;
        engine.preamble = grounding::preamble(state.date.as_deref(), state.source.as_ref(), state.library.as_ref());
        engine.go_on_from_where_it_stopped();
        engine.run().await;
        engine.state
    });
    DebateHandle { commands: command_tx, events: event_rx, task }
}

struct Engine {
    setup: EngineSetup,
    /// The API keys set in heat's environment, redacted from what is recorded.
    secrets: Vec<String>,
    state: DebateState,
    /// `state.paused`, for the calls of models that pause in place.
    paused: watch::Sender<bool>,
    /// When the held call message being shown arrived: the stamp of what it causes.
    arrived: Option<Instant>,
    events: mpsc::UnboundedSender<Stamped>,
    commands: mpsc::UnboundedReceiver<Command>,
    msg_tx: mpsc::UnboundedSender<CallMsg>,
    msg_rx: mpsc::UnboundedReceiver<CallMsg>,
    /// Every call under way (turns, panel votes, the swap check), with what they sent while paused.
    calls: Calls,
    /// When the round and each debater's turn run out of time.
    deadlines: Deadlines,
    /// What was said or learnt once this debate (`memory.rs`).
    memory: Memory,
    /// The source, indexed for quote checks on the first argument that needs it.
    grounds: Option<checks::Grounds>,
    /// The date and the source every request starts with (`grounding::preamble`).
    preamble: Option<String>,
    /// The set-ups of panel judges on providers of their own, by judge number.
    judge_setups: JudgeSetups,
    /// Turns that stopped to look things up, and their calls to MCP servers.
    lookups: Lookups,
}

/// The runtime's clock (a test that pauses time sees its own).
fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

impl Engine {
    async fn run(&mut self) {
        loop {
            self.advance();
            if self.state.finish.is_some() {
                break;
            }
            self.mind_the_budget();
            let wake = self.deadlines.next(self.calls.deadlines());
            let alarm = tokio::time::Instant::from_std(wake.unwrap_or_else(now));
            // Commands first: steering must never wait behind a fast stream.
            tokio::select! {
                biased;
                command = self.commands.recv() => match command {
                    Some(command) => self.on_command(&command),
                    None => self.on_command(&Command::Stop),
                },
                Some(msg) = self.msg_rx.recv() => {
                    if self.state.paused {
                        // A call that ends while paused is recorded now: a finished turn is never only in memory.
                        if let Some(ended) = self.calls.hold(now(), msg) {
                            self.tell_held(ended);
                        }
                    } else {
                        self.on_call_msg(msg);
                    }
                }
                Some(done) = self.lookups.tasks.rx.recv() => {
                    if let Some(answered) = self.lookups.answered(done) {
                        self.emit(answered);
                        self.ask_on_ready();
                    }
                }
                () = tokio::time::sleep_until(alarm), if wake.is_some() => self.on_clock(),
            }
        }
        self.abort_all();
    }

    /// Tells the person once when the debate has spent 80 % of its budget,
    /// and pauses it once it reaches it (what runs finishes and is kept, as
    /// any pause does).
    fn mind_the_budget(&mut self) {
        match super::budget::standing(&self.state, &self.setup.budget) {
            super::budget::Standing::Under => {}
            super::budget::Standing::Near(message) => {
                if let Some(warning) = self.memory.budget_near(message) {
                    self.emit(warning);
                }
            }
            super::budget::Standing::Reached(spent) => {
                self.emit(DebateEvent::BudgetReached { spent });
                if !self.state.paused {
                    self.deadlines.pause(now());
                    self.emit(DebateEvent::Paused);
                }
            }
        }
    }

    /// Something ran out of time: a round past `debate.round_seconds` ends
    /// the debate (`timeout`, its synthesis the nearest readable verdict);
    /// a debater's turn past `debate.turn_seconds` is completed with what it
    /// said, marked as cut by time, and judged as it stands.
    fn on_clock(&mut self) {
        let at = now();
        if self.deadlines.round_over(at) {
            let synthesis = self.state.current_round().and_then(|r| plan::fallback_synthesis(&self.state, r));
            self.abort_all();
            let outcome = super::outcome::Outcome::Timeout(self.deadlines.round_seconds());
            self.emit(DebateEvent::Finished { outcome, synthesis });
            return;
        }
        let seconds = self.deadlines.turn_seconds();
        for flight in self.calls.abort_due(at) {
            let Call::Turn { round, role } = flight.call else { continue };
            let said = self.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
            let text = said.map(|t| t.text.clone()).unwrap_or_default();
            self.emit(DebateEvent::TurnTimedOut { round, role, seconds });
            let usage = flight.usage;
            self.emit(DebateEvent::TurnCompleted { round, role, text, usage, truncated_at: None, possibly_cut: false });
        }
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

    /// On start: what a stopped process left half done or can no longer be
    /// trusted (`checks`), settled before the debate goes on.
    fn go_on_from_where_it_stopped(&mut self) {
        if let Some(invalidated) = checks::source_broken(&self.state) {
            self.emit(invalidated);
        }
        if let Some((round, purpose, text)) = checks::unread_verdict(&self.state) {
            let sent = SentPrompt::of(&self.requests().turn(round, Role::Judge, purpose));
            for event in answer::read_verdict(&self.state, round, purpose, &sent, &text) {
                self.emit(event);
            }
        }
        for (round, role, text) in checks::unchecked(&self.state) {
            self.check_quotes(round, role, &text, false);
        }
    }

    /// What requests are built from, now.
    fn requests(&self) -> Requests<'_> {
        let refused = self.memory.refused();
        Requests { setup: &self.setup, state: &self.state, preamble: self.preamble.as_deref(), refused }
    }

    /// Performs every step the planner asks for until it asks for none.
    fn advance(&mut self) {
        loop {
            self.announce_sitting_out();
            // A turn that waits for its calls' answers is under way too.
            let mut calls = self.calls.under_way();
            calls.extend(self.lookups.under_way());
            let options = plan::Options {
                swap_check: self.setup.swap_check,
                votes_in_turn: self.setup.role(Role::Judge).model.is_embedded(),
                model_briefs: self.setup.model_briefs,
            };
            let steps = next_steps_with(&self.state, &calls, options);
            if steps.is_empty() {
                return;
            }
            for step in steps {
                match step {
                    Step::StartRound { round, topic, heat, injected } => {
                        let refused = |role| self.memory.refused().contains(&(role, Refusal::Tools));
                        for message in notices::at_round_start(&self.setup, &self.state, round, refused) {
                            self.emit(DebateEvent::Notice { message });
                        }
                        self.emit(DebateEvent::RoundStarted { round, topic, heat, injected });
                        self.deadlines.round_started(now());
                    }
                    Step::StartTurn { round, role, purpose } => self.start_turn(round, role, purpose),
                    Step::SwapCheck { round } => self.start_swap_check(round),
                    Step::Brief { round, role } => self.start_brief(round, role),
                    Step::PanelVote { round, judge } => self.start_vote(round, judge),
                    Step::Finish { outcome, synthesis } => {
                        self.abort_all();
                        for message in notices::at_finish(&self.state) {
                            self.emit(DebateEvent::Notice { message });
                        }
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
        for notice in self.memory.sitting_out(&self.state) {
            self.emit(notice);
        }
    }

    /// A person's command: what it records (`command::events`), and what it
    /// changes in what runs. A resume first tells what arrived while paused,
    /// stamped when it arrived; a cancel records each call it drops; a stop
    /// drops them all.
    fn on_command(&mut self, command: &Command) {
        if self.state.finish.is_some() {
            return;
        }
        match command {
            Command::Resume if self.state.paused => {
                // The time spent paused is no one's: every deadline moves on by it.
                let shift = self.deadlines.resume(now());
                self.calls.shift_deadlines(shift);
                self.lookups.shift_deadlines(shift);
                let held = self.calls.take_held();
                self.tell_held(held);
            }
            Command::Pause if !self.state.paused => self.deadlines.pause(now()),
            Command::CancelTurn => self.cancel_calls(None),
            Command::CancelSeat(role) => self.cancel_calls(Some(*role)),
            // The seat's call under way is dropped unrecorded: the turn is discarded whole.
            Command::Reroll(role) if !super::command::events(&self.state, command).is_empty() => {
                self.calls.abort_turn(*role);
            }
            Command::Stop => self.abort_all(),
            Command::ChangeModel { role, provider, model } => self.change_model(*role, provider, model),
            _ => {}
        }
        for event in super::command::events(&self.state, command) {
            self.emit(event);
        }
        // A turn waiting on its look-ups: a cancel ends it there; a resume asks it on.
        for call in self.lookups.cancelled(command) {
            self.emit(answer::on_cancelled(call, None));
        }
        self.ask_on_ready();
    }

    /// Sets `role`'s seat on `provider`'s `model` from its next request, as
    /// a panel's judges are set up (sharing a seat's connection to the same
    /// provider), keeping the seat's answer limit; what cannot be set up is
    /// said in one sentence and the seat stays as it was.
    fn change_model(&mut self, role: Role, provider: &str, model: &str) {
        let built = match &self.setup.judges {
            Some(factory) => factory(provider, Some(model)),
            None => Err(anyhow::anyhow!("this debate was set up without a way to build models")),
        };
        match built {
            Ok(mut seat) => {
                seat.max_tokens = self.setup.role(role).max_tokens;
                let events = super::command::model_changed(&self.state, role, seat.participant(role));
                if !events.is_empty() {
                    *self.setup.role_mut(role) = seat;
                }
                for event in events {
                    self.emit(event);
                }
            }
            Err(e) => {
                let message = notices::model_unchanged(&self.state, role, &format!("{e:#}"));
                self.emit(DebateEvent::Notice { message });
            }
        }
    }

    /// Tells what was held while paused, each piece stamped when it
    /// arrived. The planner starts nothing while paused.
    fn tell_held(&mut self, held: impl IntoIterator<Item = (Instant, CallMsg)>) {
        for (at, msg) in held {
            self.arrived = Some(at);
            self.on_call_msg(msg);
        }
        self.arrived = None;
    }

    /// The person cancelled what is under way (`seat`: only that seat's
    /// turn): the swap check and the panel's votes are recorded as given
    /// up, each turn as cancelled (what the person saw of it stands;
    /// anything held back is dropped with it).
    fn cancel_calls(&mut self, seat: Option<Role>) {
        for flight in self.calls.abort_cancelled(seat) {
            self.emit(answer::on_cancelled(flight.call, flight.usage));
        }
    }

    fn abort_all(&mut self) {
        self.calls.abort_all();
        self.lookups.abort_all();
    }

    fn start_turn(&mut self, round: u32, role: Role, purpose: TurnPurpose) {
        if let Some(message) = notices::in_brief(&self.state, round, self.setup.model_briefs) {
            self.emit(DebateEvent::Notice { message });
        }
        if let Some(library) = &self.setup.library {
            let budget = reading_budget(self.setup.role(role));
            if let Some(read) = reading::retrieve(&self.state, library, round, role, budget) {
                self.emit(read);
            }
        }
        // A turn left mid-look-up by a stopped process: its calls are answered first.
        self.look_up(round, role);
        let (request, left_out) = self.requests().turn_fitted(round, role, purpose);
        self.emit(DebateEvent::TurnStarted { round, role, purpose, temperature: request.temperature });
        if purpose == TurnPurpose::Synthesis && !self.state.pending_injections.is_empty() {
            let message = notices::injected_to_synthesis(&self.state.pending_injections);
            self.emit(DebateEvent::Notice { message });
        }
        self.say_left_out(role, left_out);
        // A turn a stopped process left after a look-up goes on from its answers.
        let looked_up = self.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
        if looked_up.is_some_and(|t| !t.tools.is_empty()) {
            let deadline = self.deadlines.turn_from(now()).filter(|_| !self.state.seated_person(role));
            self.lookups.wait(Continuing { round, role, purpose, deadline, guard_retry: false });
            self.ask_on_ready();
            return;
        }
        let model = Arc::clone(&self.setup.role(role).model);
        self.launch(Call::Turn { round, role }, purpose, model, request, false);
    }

    /// Says once, as it grows, how many earlier rounds `role`'s prompt
    /// leaves out to fit its server's context.
    fn say_left_out(&mut self, role: Role, left_out: usize) {
        if !self.memory.leaves_out(role, left_out) {
            return;
        }
        let window = self.requests().window(self.setup.role(role)).unwrap_or_default();
        let message = notices::rounds_left_out(&self.state.seat_name(role), left_out, window);
        self.emit(DebateEvent::Notice { message });
    }

    /// A call whose prompt did not fit its server's context, asked again
    /// fitted to the window the server named (recorded by `learnt`).
    fn ask_fitted(&mut self, flight: &Flight, learnt: DebateEvent) {
        self.emit(learnt);
        let call = flight.call;
        match call {
            Call::Turn { round, role } => {
                let (request, left_out) = self.requests().turn_fitted(round, role, flight.purpose);
                let reason = "the prompt was longer than the server's context; asked again, fitted to it".to_string();
                let retrying =
                    DebateEvent::TurnRetrying { round, role, attempt: 1, max_retries: 1, delay_ms: 0, reason };
                self.emit(retrying);
                self.say_left_out(role, left_out);
                let model = Arc::clone(&self.setup.role(role).model);
                self.launch(call, flight.purpose, model, request, flight.guard_retry);
            }
            Call::Vote { round, judge } => {
                let own = self.own_judge_setup(judge).ok().flatten();
                let request = self.requests().vote(round, judge, flight.purpose, own.as_ref());
                let model = Arc::clone(own.as_ref().map_or(&self.setup.role(Role::Judge).model, |o| &o.model));
                self.launch(call, flight.purpose, model, request, false);
            }
            Call::SwapCheck { round } => {
                if let Some(request) = self.requests().swap_check(round) {
                    let model = Arc::clone(&self.setup.role(Role::Judge).model);
                    self.launch(call, flight.purpose, model, request, false);
                }
            }
            // A brief's prompt is one argument: it is not fitted again.
            Call::Brief { round, role } => {
                let error = "its prompt was longer than the model's context".to_string();
                self.emit(DebateEvent::BriefFailed { round, role, error, usage: None });
            }
        }
    }

    /// Asks `role`'s model to put its argument in `round` in brief.
    fn start_brief(&mut self, round: u32, role: Role) {
        let Some(request) = self.requests().brief(round, role) else {
            // Settled either way: the planner must not ask for it again.
            let error = "it made no argument to put in brief".to_string();
            self.emit(DebateEvent::BriefFailed { round, role, error, usage: None });
            return;
        };
        let model = Arc::clone(&self.setup.role(role).model);
        self.launch(Call::Brief { round, role }, TurnPurpose::Argue, model, request, false);
    }

    /// Asks the judge's model about `round` with the debaters swapped.
    fn start_swap_check(&mut self, round: u32) {
        self.emit(DebateEvent::SwapCheckStarted { round });
        let Some(request) = self.requests().swap_check(round) else {
            // Settled either way: the planner must not ask for it again.
            let error = format!("round {} is not in the debate", round + 1);
            self.emit(DebateEvent::SwapCheckFailed { round, error, usage: None });
            return;
        };
        let model = Arc::clone(&self.setup.role(Role::Judge).model);
        self.launch(Call::SwapCheck { round }, TurnPurpose::Judge, model, request, false);
    }

    /// Asks judge `judge` of the panel for its vote on `round`, as the
    /// chair is asked, on its own provider when it sits on one.
    fn start_vote(&mut self, round: u32, judge: PanelJudge) {
        self.emit(DebateEvent::PanelVoteStarted { round, judge });
        let own = match self.own_judge_setup(judge) {
            Ok(own) => own,
            Err(error) => {
                let error = format!("it could not be set up: {error:#}");
                self.emit(DebateEvent::PanelVoteFailed { round, judge, error, usage: None });
                return;
            }
        };
        let purpose = answer::vote_purpose(&self.state, round);
        let request = self.requests().vote(round, judge, purpose, own.as_ref());
        let model = Arc::clone(own.as_ref().map_or(&self.setup.role(Role::Judge).model, |o| &o.model));
        self.launch(Call::Vote { round, judge }, purpose, model, request, false);
    }

    /// The set-up of judge `judge` when its format puts it on a provider of
    /// its own; `None`: the judges' provider.
    fn own_judge_setup(&mut self, judge: PanelJudge) -> anyhow::Result<Option<RoleSetup>> {
        self.judge_setups.of(&self.state, self.setup.judges.as_ref(), judge)
    }

    /// Runs a call on a task of its own and enters it in the table.
    fn launch(
        &mut self,
        call: Call,
        purpose: TurnPurpose,
        model: Arc<dyn ChatModel>,
        request: ChatRequest,
        guard_retry: bool,
    ) -> u64 {
        let sent = SentPrompt::of(&request);
        // What a seat's turn is sent is kept for the person to see, secrets redacted.
        if let Call::Turn { round, role } = call {
            let whole = super::sent::SentRequest::of(&request, &self.secrets);
            let request = Box::new(whole.compact(self.state.last_sent(role)));
            self.emit(DebateEvent::RequestSent { round, role, request });
        }
        let endpoint = model.http_endpoint().map(|e| e.key().to_string());
        let provider = model.provider_name();
        let form = request.response_schema.as_ref().map(ResponseSchema::ask);
        let max_tokens = request.max_tokens;
        let tools_open = request.tools.as_ref().is_some_and(|t| t.may_call);
        let number = self.calls.next_number();
        let task = Task { number, model, policy: self.setup.retry, paused: self.paused.subscribe() };
        let handle = task::spawn(task, request, self.msg_tx.clone());
        // A person's turn takes as long as it takes.
        let timed = matches!(call, Call::Turn { role, .. } if role.is_debater() && !self.state.seated_person(role));
        let deadline = timed.then(|| self.deadlines.turn_from(now())).flatten();
        let flight = Flight {
            call,
            purpose,
            handle,
            sent,
            guard_retry,
            text: String::new(),
            usage: None,
            finish: None,
            endpoint,
            provider,
            form,
            max_tokens,
            deadline,
            tool_calls: Vec::new(),
            tools_open,
        };
        self.calls.enter(number, flight);
        number
    }

    fn on_call_msg(&mut self, msg: CallMsg) {
        // A message from a call that was cancelled or replaced is dropped.
        let Some(call) = self.calls.get(msg.task).map(|f| f.call) else { return };
        match msg.kind {
            CallMsgKind::Item(item) => self.on_item(msg.task, call, item),
            CallMsgKind::Done => {
                if let Some(flight) = self.calls.ended(msg.task) {
                    self.on_done(&flight);
                }
            }
            // Too long for the server's context: fitted to the size it names, or to a guess once.
            CallMsgKind::Failed(ProviderError::ContextExceeded { window, .. })
                if let Some(learnt) = self.calls.get(msg.task).and_then(|f| {
                    let endpoint = f.endpoint.as_deref()?;
                    match window {
                        Some(window) => answer::context_learnt(&self.state, endpoint, window),
                        None => answer::context_guessed(&self.state, endpoint, &f.sent, f.max_tokens),
                    }
                }) =>
            {
                if let Some(flight) = self.calls.ended(msg.task) {
                    self.ask_fitted(&flight, learnt);
                }
            }
            CallMsgKind::Failed(error) => {
                let usage = self.calls.ended(msg.task).and_then(|f| f.usage);
                let error = error.sentence(self.setup.role(call.role()).model.provider_name());
                self.emit(answer::on_failed(call, error, usage));
            }
        }
    }

    /// A call answered in full: a turn that stopped to call tools has
    /// them answered and is asked on; anything else, the answer step says
    /// what it means.
    fn on_done(&mut self, flight: &Flight) {
        if let Call::Turn { round, role } = flight.call
            && flight.tools_open
            && !flight.tool_calls.is_empty()
        {
            let calls = flight.tool_calls.clone();
            self.emit(DebateEvent::ToolsCalled { round, role, calls, usage: flight.usage });
            self.look_up(round, role);
            let (purpose, deadline, guard_retry) = (flight.purpose, flight.deadline, flight.guard_retry);
            self.lookups.wait(Continuing { round, role, purpose, deadline, guard_retry });
            self.ask_on_ready();
            return;
        }
        let provider = flight.provider;
        let form =
            flight.endpoint.as_deref().zip(flight.form).map(|(endpoint, SchemaAsk { form, may_step_down, capped })| {
                // A refusal during the call stepped the form down as it went.
                let learnt = self.state.structured_output_for(endpoint);
                AskedForm { endpoint, provider, form: learnt.map_or(form, |l| l.max(form)), may_step_down, capped }
            });
        let answered = Answered {
            call: flight.call,
            purpose: flight.purpose,
            sent: &flight.sent,
            guard_retry: flight.guard_retry,
            text: &flight.text,
            usage: flight.usage,
            finish: flight.finish.clone(),
            max_tokens: flight.max_tokens,
            form,
        };
        for act in answer::on_done(&self.state, &answered) {
            match act {
                Act::Emit(event) => self.emit(event),
                Act::AskAgain { round, role, purpose } => {
                    let mut request = self.requests().turn(round, role, purpose);
                    if self.setup.role(role).model.is_embedded() {
                        // Same prompt, same seed: the embedded model would answer the same again.
                        request.seed = Some(request.seed.unwrap_or_default().wrapping_add(1));
                    }
                    let model = Arc::clone(&self.setup.role(role).model);
                    self.launch(Call::Turn { round, role }, purpose, model, request, true);
                }
                Act::CheckQuotes { round, role, text } => self.check_quotes(round, role, &text, true),
            }
        }
    }

    /// Answers the calls `role`'s open turn in `round` has not had
    /// answered: from the library at once, or by starting its MCP server's call.
    fn look_up(&mut self, round: u32, role: Role) {
        for answered in self.lookups.answer(&self.setup, &self.state, round, role) {
            self.emit(answered);
        }
    }

    /// Asks on each turn that looked things up and has every answer, unless paused.
    fn ask_on_ready(&mut self) {
        for next in self.lookups.ready(&self.state) {
            self.go_on_with(next);
        }
    }

    /// Asks a turn that looked things up on, with what it found, within
    /// the time its turn had.
    fn go_on_with(&mut self, next: Continuing) {
        let Continuing { round, role, purpose, deadline, guard_retry } = next;
        let open = self
            .state
            .rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.turn(role))
            .is_some_and(super::state::Turn::is_open);
        if !open || self.calls.under_way().contains(&Call::Turn { round, role }) {
            return;
        }
        let (request, left_out) = self.requests().turn_fitted(round, role, purpose);
        self.say_left_out(role, left_out);
        let model = Arc::clone(&self.setup.role(role).model);
        let number = self.launch(Call::Turn { round, role }, purpose, model, request, guard_retry);
        if let Some(flight) = self.calls.get_mut(number) {
            flight.deadline = deadline;
        }
    }

    /// Checks what an argument cited from the source or the library, when there is one.
    fn check_quotes(&mut self, round: u32, role: Role, text: &str, record_empty: bool) {
        if self.grounds.is_none() {
            self.grounds = checks::Grounds::of(&self.state, self.setup.library.as_ref());
        }
        let Some(grounds) = self.grounds.as_mut() else { return };
        if let Some(checked) = checks::quotes(&self.state, grounds, (round, role), text, record_empty) {
            self.emit(checked);
        }
    }

    /// One item of a call's stream: `heard` says what it means (a turn's
    /// text shown as it comes, a side call's collected, what the endpoint
    /// taught recorded), and this applies it.
    fn on_item(&mut self, task: u64, call: Call, item: TurnItem) {
        let setup = self.setup.role(call.role());
        let answering = Answering {
            endpoint: setup.model.http_endpoint().map(Endpoint::key),
            provider: setup.model.provider_name(),
            model: &setup.model_name,
        };
        for heard in heard::heard(&self.state, call, answering, item) {
            let flight = self.calls.get_mut(task);
            match (heard, flight) {
                (Heard::Emit(event), _) => self.emit(event),
                (Heard::Refused(what), _) => self.memory.refuse(call.role(), what),
                (Heard::Text(text), Some(flight)) => flight.text.push_str(&text),
                (Heard::Usage(usage), Some(flight)) => flight.usage = Some(usage),
                (Heard::Finish(reason), Some(flight)) => flight.finish = Some(reason),
                (Heard::ToolCall(call), Some(flight)) => flight.tool_calls.push(call),
                (Heard::Restart, Some(flight)) => {
                    flight.tool_calls.clear();
                    flight.text.clear();
                    flight.usage = None;
                    flight.finish = None;
                }
                (_, None) => {}
            }
        }
    }
}
