//! The round loop as a tokio task: commands in, events out. The engine
//! drives; it decides nothing itself. It records every event it emits in
//! its own `Record` (the folded `DebateState`), asks the planner (`plan`)
//! what to do next, starts each model call through its `Launcher` (each on
//! a task of its own, in one table of the calls under way), and hands what
//! a finished call answered to the answer step (`answer`), performing what
//! each returns. Dropping a call's task drops its stream, which aborts the
//! HTTP request.
//!
//! While paused, a model that pauses in place (the embedded one) is not
//! polled, so it stops between two tokens; what any other model sends is
//! held until its call ends, then recorded at once, each piece stamped with
//! the moment it arrived: a turn a server finished during a pause is kept
//! if the person quits (or the process dies) before resuming. Nothing new
//! starts until the resume.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;

mod calls;
mod checks;
mod clock;
mod flight;
mod handle;
mod held;
mod judge_setups;
mod launcher;
mod lookups;
mod memory;
mod record;
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
use super::event::{DebateEvent, Refusal, TurnPurpose};
use super::grounding::{self, reading};
use super::guard::turn::SentPrompt;
use super::notices;
use super::plan::{self, Step, next_steps_with};
use super::seat::Role;
use super::state::DebateState;
use crate::library::Shared;
use crate::provider::{ChatRequest, SchemaAsk};
use clock::{Deadlines, now};
use flight::Flight;
use launcher::{Ask, Launcher};
use lookups::{Continuing, Lookups};
use record::Record;
use task::CallMsg;

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
    let recipe = DebateEvent::Recipe(Box::new(super::recipe::Recipe::of(setup.prompts.texts(), setup.seed)));
    let DebateEvent::Started { participants, .. } = &started else { unreachable!("built as a start above") };
    let unseeded = super::recipe::unseeded(setup.seed, participants).map(|message| DebateEvent::Notice { message });
    // The format follows the start at once, so whoever prints the seats can name them as the format does.
    let first = [Some(started), formatted, grounded, Some(recipe), unseeded].into_iter().flatten().collect();
    spawn(setup, DebateState::default(), first)
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
    let mut engine = Engine {
        record: Record::new(state, event_tx),
        launcher: Launcher::new(setup.retry),
        deadlines: Deadlines::new(setup.clock),
        setup,
        commands: command_rx,
        grounds: None,
        lookups: Lookups::default(),
    };
    // What endpoints taught an earlier run of this debate still holds.
    for (endpoint, adaptation) in &engine.record.state.adaptations {
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
        let state = &engine.record.state;
        engine.record.preamble =
            grounding::preamble(state.date.as_deref(), state.source.as_ref(), state.library.as_ref());
        engine.go_on_from_where_it_stopped();
        engine.run().await;
        engine.record.state
    });
    DebateHandle { commands: command_tx, events: event_rx, task }
}

struct Engine {
    setup: EngineSetup,
    /// The debate as recorded: the state, what was said once, the events going out.
    record: Record,
    commands: mpsc::UnboundedReceiver<Command>,
    /// Every call under way (turns, panel votes, the swap check, briefs), and what they send.
    launcher: Launcher,
    /// When the round and each debater's turn run out of time.
    deadlines: Deadlines,
    /// The source, indexed for quote checks on the first argument that needs it.
    grounds: Option<checks::Grounds>,
    /// Turns that stopped to look things up, and their calls to MCP servers.
    lookups: Lookups,
}

impl Engine {
    async fn run(&mut self) {
        loop {
            self.advance();
            if self.record.state.finish.is_some() {
                break;
            }
            self.mind_the_budget();
            let wake = self.deadlines.next(self.launcher.calls.deadlines());
            let alarm = tokio::time::Instant::from_std(wake.unwrap_or_else(now));
            // Commands first: steering must never wait behind a fast stream.
            tokio::select! {
                biased;
                command = self.commands.recv() => match command {
                    Some(command) => self.on_command(&command),
                    None => self.on_command(&Command::Stop),
                },
                Some(msg) = self.launcher.rx.recv() => {
                    if self.record.state.paused {
                        // A call that ends while paused is recorded now: a finished turn is never only in memory.
                        if let Some(ended) = self.launcher.calls.hold(now(), msg) {
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
        match super::budget::standing(&self.record.state, &self.setup.budget) {
            super::budget::Standing::Under => {}
            super::budget::Standing::Near(message) => {
                if let Some(warning) = self.record.memory.budget_near(message) {
                    self.emit(warning);
                }
            }
            super::budget::Standing::Reached(spent) => {
                self.emit(DebateEvent::BudgetReached { spent });
                if !self.record.state.paused {
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
            let synthesis =
                self.record.state.current_round().and_then(|r| plan::fallback_synthesis(&self.record.state, r));
            self.abort_all();
            let outcome = super::outcome::Outcome::Timeout(self.deadlines.round_seconds());
            self.emit(DebateEvent::Finished { outcome, synthesis });
            return;
        }
        let seconds = self.deadlines.turn_seconds();
        for flight in self.launcher.calls.abort_due(at) {
            let Call::Turn { round, role } = flight.call else { continue };
            let said = self.record.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
            let text = said.map(|t| t.text.clone()).unwrap_or_default();
            self.emit(DebateEvent::TurnTimedOut { round, role, seconds });
            let usage = flight.usage;
            self.emit(DebateEvent::TurnCompleted { round, role, text, usage, truncated_at: None, possibly_cut: false });
        }
    }

    fn emit(&mut self, event: DebateEvent) {
        self.record.emit(event);
    }

    /// On start: what a stopped process left half done or can no longer be
    /// trusted (`checks`), settled before the debate goes on.
    fn go_on_from_where_it_stopped(&mut self) {
        if let Some(invalidated) = checks::source_broken(&self.record.state) {
            self.emit(invalidated);
        }
        if let Some((round, purpose, text)) = checks::unread_verdict(&self.record.state) {
            let sent = SentPrompt::of(&self.record.requests(&self.setup).turn(round, Role::Judge, purpose));
            for event in answer::read_verdict(&self.record.state, round, purpose, &sent, &text) {
                self.emit(event);
            }
        }
        for (round, role, text) in checks::unchecked(&self.record.state) {
            self.check_quotes(round, role, &text, false);
        }
    }

    /// Performs every step the planner asks for until it asks for none.
    fn advance(&mut self) {
        loop {
            self.announce_sitting_out();
            // A turn that waits for its calls' answers is under way too.
            let mut calls = self.launcher.calls.under_way();
            calls.extend(self.lookups.under_way());
            let options = plan::Options {
                swap_check: self.setup.swap_check,
                votes_in_turn: self.setup.role(Role::Judge).model.is_embedded(),
                model_briefs: self.setup.model_briefs,
            };
            let steps = next_steps_with(&self.record.state, &calls, options);
            if steps.is_empty() {
                return;
            }
            for step in steps {
                match step {
                    Step::StartRound { round, topic, heat, injected } => {
                        let refused = |role| self.record.state.refuses(role, Refusal::Tools);
                        for message in notices::at_round_start(&self.setup, &self.record.state, round, refused) {
                            self.emit(DebateEvent::Notice { message });
                        }
                        self.emit(DebateEvent::RoundStarted { round, topic, heat, injected });
                        self.deadlines.round_started(now());
                    }
                    Step::StartTurn { round, role, purpose } => self.start_turn(round, role, purpose),
                    Step::SwapCheck { round } => self.launcher.start_swap_check(&mut self.record, &self.setup, round),
                    Step::Brief { round, role } => {
                        self.launcher.start_brief(&mut self.record, &self.setup, round, role);
                    }
                    Step::PanelVote { round, judge } => {
                        self.launcher.start_vote(&mut self.record, &self.setup, round, judge);
                    }
                    Step::Finish { outcome, synthesis } => {
                        self.abort_all();
                        for message in notices::at_finish(&self.record.state) {
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
        for notice in self.record.memory.sitting_out(&self.record.state) {
            self.emit(notice);
        }
    }

    /// A person's command: what it records (`command::events`), and what it
    /// changes in what runs. A resume first tells what arrived while paused,
    /// stamped when it arrived; a cancel records each call it drops; a stop
    /// drops them all.
    fn on_command(&mut self, command: &Command) {
        if self.record.state.finish.is_some() {
            return;
        }
        match command {
            Command::Resume if self.record.state.paused => {
                // The time spent paused is no one's: every deadline moves on by it.
                let shift = self.deadlines.resume(now());
                self.launcher.calls.shift_deadlines(shift);
                self.lookups.shift_deadlines(shift);
                let held = self.launcher.calls.take_held();
                self.tell_held(held);
            }
            Command::Pause if !self.record.state.paused => self.deadlines.pause(now()),
            Command::CancelTurn => self.cancel_calls(None),
            Command::CancelSeat(role) => self.cancel_calls(Some(*role)),
            // The seat's call under way is dropped unrecorded: the turn is discarded whole.
            Command::Reroll(role) if !super::command::events(&self.record.state, command).is_empty() => {
                self.launcher.calls.abort_turn(*role);
            }
            Command::Stop => self.abort_all(),
            Command::ChangeModel { role, provider, model } => self.change_model(*role, provider, model),
            _ => {}
        }
        for event in super::command::events(&self.record.state, command) {
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
                let events = super::command::model_changed(&self.record.state, role, seat.participant(role));
                if !events.is_empty() {
                    *self.setup.role_mut(role) = seat;
                }
                for event in events {
                    self.emit(event);
                }
            }
            Err(e) => {
                let message = notices::model_unchanged(&self.record.state, role, &format!("{e:#}"));
                self.emit(DebateEvent::Notice { message });
            }
        }
    }

    /// Tells what was held while paused, each piece stamped when it
    /// arrived. The planner starts nothing while paused.
    fn tell_held(&mut self, held: impl IntoIterator<Item = (Instant, CallMsg)>) {
        for (at, msg) in held {
            self.record.stamp(Some(at));
            self.on_call_msg(msg);
        }
        self.record.stamp(None);
    }

    /// The person cancelled what is under way (`seat`: only that seat's
    /// turn): the swap check and the panel's votes are recorded as given
    /// up, each turn as cancelled (what the person saw of it stands;
    /// anything held back is dropped with it).
    fn cancel_calls(&mut self, seat: Option<Role>) {
        for flight in self.launcher.calls.abort_cancelled(seat) {
            self.emit(answer::on_cancelled(flight.call, flight.usage));
        }
    }

    fn abort_all(&mut self) {
        self.launcher.calls.abort_all();
        self.lookups.abort_all();
    }

    fn start_turn(&mut self, round: u32, role: Role, purpose: TurnPurpose) {
        if let Some(message) = notices::in_brief(&self.record.state, round, self.setup.model_briefs) {
            self.emit(DebateEvent::Notice { message });
        }
        if let Some(library) = &self.setup.library {
            let budget = reading_budget(self.setup.role(role));
            if let Some(read) = reading::retrieve(&self.record.state, library, round, role, budget) {
                self.emit(read);
            }
        }
        // A turn left mid-look-up by a stopped process: its calls are answered first.
        self.look_up(round, role);
        let (request, left_out) = self.record.requests(&self.setup).turn_fitted(round, role, purpose);
        self.emit(DebateEvent::TurnStarted { round, role, purpose, temperature: request.temperature });
        if purpose == TurnPurpose::Synthesis && !self.record.state.pending_injections.is_empty() {
            let message = notices::injected_to_synthesis(&self.record.state.pending_injections);
            self.emit(DebateEvent::Notice { message });
        }
        self.record.say_left_out(&self.setup, role, left_out);
        // A turn a stopped process left after a look-up goes on from its answers.
        let looked_up = self.record.state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
        if looked_up.is_some_and(|t| !t.tools.is_empty()) {
            let deadline = self.deadlines.turn_from(now()).filter(|_| !self.record.state.seated_person(role));
            self.lookups.wait(Continuing { round, role, purpose, deadline, guard_retry: false });
            self.ask_on_ready();
            return;
        }
        self.ask_turn(round, role, purpose, request, false);
    }

    /// Starts `role`'s turn in `round` with `request`, timed as the clock says.
    fn ask_turn(&mut self, round: u32, role: Role, purpose: TurnPurpose, request: ChatRequest, guard_retry: bool) {
        let (call, model) = (Call::Turn { round, role }, Arc::clone(&self.setup.role(role).model));
        let deadline = self.deadlines.of_call(&self.record.state, call, now());
        self.launcher.launch(&mut self.record, Ask { call, purpose, model, request, guard_retry, deadline });
    }

    /// What a call sent: the launcher applies it; a call answered in full
    /// goes to the answer step.
    fn on_call_msg(&mut self, msg: CallMsg) {
        if let Some(flight) = self.launcher.on_msg(&mut self.record, &self.setup, &self.deadlines, msg) {
            self.on_done(&flight);
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
                let learnt = self.record.state.structured_output_for(endpoint);
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
        for act in answer::on_done(&self.record.state, &answered) {
            match act {
                Act::Emit(event) => self.emit(event),
                Act::AskAgain { round, role, purpose } => {
                    let mut request = self.record.requests(&self.setup).turn(round, role, purpose);
                    if self.setup.role(role).model.is_embedded() {
                        // Same prompt, same seed: the embedded model would answer the same again.
                        request.seed = Some(request.seed.unwrap_or_default().wrapping_add(1));
                    }
                    self.ask_turn(round, role, purpose, request, true);
                }
                Act::CheckQuotes { round, role, text } => self.check_quotes(round, role, &text, true),
            }
        }
    }

    /// Answers the calls `role`'s open turn in `round` has not had
    /// answered: from the library at once, or by starting its MCP server's call.
    fn look_up(&mut self, round: u32, role: Role) {
        for answered in self.lookups.answer(&self.setup, &self.record.state, round, role) {
            self.emit(answered);
        }
    }

    /// Asks on each turn that looked things up and has every answer, unless paused.
    fn ask_on_ready(&mut self) {
        for next in self.lookups.ready(&self.record.state) {
            self.go_on_with(next);
        }
    }

    /// Asks a turn that looked things up on, with what it found, within
    /// the time its turn had.
    fn go_on_with(&mut self, next: Continuing) {
        let Continuing { round, role, purpose, deadline, guard_retry } = next;
        let open = self
            .record
            .state
            .rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.turn(role))
            .is_some_and(super::state::Turn::is_open);
        if !open || self.launcher.calls.under_way().contains(&Call::Turn { round, role }) {
            return;
        }
        let (request, left_out) = self.record.requests(&self.setup).turn_fitted(round, role, purpose);
        self.record.say_left_out(&self.setup, role, left_out);
        let (call, model) = (Call::Turn { round, role }, Arc::clone(&self.setup.role(role).model));
        self.launcher.launch(&mut self.record, Ask { call, purpose, model, request, guard_retry, deadline });
    }

    /// Checks what an argument cited from the source or the library, when there is one.
    fn check_quotes(&mut self, round: u32, role: Role, text: &str, record_empty: bool) {
        if self.grounds.is_none() {
            self.grounds = checks::Grounds::of(&self.record.state, self.setup.library.as_ref());
        }
        let Some(grounds) = self.grounds.as_mut() else { return };
        if let Some(checked) = checks::quotes(&self.record.state, grounds, (round, role), text, record_empty) {
            self.emit(checked);
        }
    }
}
