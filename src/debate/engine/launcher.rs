//! Starting model calls and keeping them: each call on a task of its own
//! (`task`), entered in the one table of calls under way (`calls`), with
//! the channel their tasks send to; a turn's request recorded as it goes,
//! secrets redacted. It starts the panel's votes (on a judge's own provider
//! where the format puts it on one), the swap check and the briefs, and
//! applies what a call sends: an item to the call's entry (`heard` says
//! what it means), a failure recorded, a prompt too long for its server
//! asked again fitted to it. A call answered in full goes back to the loop
//! for the answer step; a debater's turn starts in the loop, which looks
//! things up first.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;

use super::calls::Calls;
use super::clock::{Deadlines, now};
use super::flight::Flight;
use super::judge_setups::JudgeSetups;
use super::record::Record;
use super::task::{self, CallMsg, CallMsgKind, Task};
use crate::debate::answer;
use crate::debate::call::Call;
use crate::debate::event::{DebateEvent, TurnPurpose};
use crate::debate::guard::turn::SentPrompt;
use crate::debate::heard::{self, Answering, Heard};
use crate::debate::seat::{PanelJudge, Role};
use crate::debate::setup::EngineSetup;
use crate::provider::endpoint::Endpoint;
use crate::provider::retry::{RetryPolicy, TurnItem};
use crate::provider::{ChatModel, ChatRequest, ProviderError, ResponseSchema};

/// The model calls under way, and the channel their tasks send to.
pub(super) struct Launcher {
    /// Every call under way, with what they sent while paused.
    pub(super) calls: Calls,
    tx: mpsc::UnboundedSender<CallMsg>,
    /// What the calls' tasks send, each message tagged with its call's number.
    pub(super) rx: mpsc::UnboundedReceiver<CallMsg>,
    policy: RetryPolicy,
    /// The API keys set in heat's environment, redacted from what is recorded.
    secrets: Vec<String>,
    /// The set-ups of panel judges on providers of their own, by judge number.
    judge_setups: JudgeSetups,
}

/// A call to start: what it asks, of which model, with what request.
pub(super) struct Ask {
    pub(super) call: Call,
    pub(super) purpose: TurnPurpose,
    pub(super) model: Arc<dyn ChatModel>,
    pub(super) request: ChatRequest,
    /// This is the one more try a guard asked for.
    pub(super) guard_retry: bool,
    /// When it runs out of time (a debater's turn: `Deadlines::of_call`).
    pub(super) deadline: Option<Instant>,
}

impl Launcher {
    /// No call under way yet; each will be retried as `policy` says.
    pub(super) fn new(policy: RetryPolicy) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        let secrets = crate::secrets::known_keys();
        Self { calls: Calls::default(), tx, rx, policy, secrets, judge_setups: JudgeSetups::default() }
    }

    /// Runs a call on a task of its own and enters it in the table.
    pub(super) fn launch(&mut self, record: &mut Record, ask: Ask) {
        let Ask { call, purpose, model, request, guard_retry, deadline } = ask;
        let sent = SentPrompt::of(&request);
        // What a seat's turn is sent is kept for the person to see, secrets redacted.
        if let Call::Turn { round, role } = call {
            let whole = crate::debate::sent::SentRequest::of(&request, &self.secrets);
            let request = Box::new(whole.compact(record.state.last_sent(role)));
            record.emit(DebateEvent::RequestSent { round, role, request });
        }
        let endpoint = model.http_endpoint().map(|e| e.key().to_string());
        let provider = model.provider_name();
        let form = request.response_schema.as_ref().map(ResponseSchema::ask);
        let max_tokens = request.max_tokens;
        let tools_open = request.tools.as_ref().is_some_and(|t| t.may_call);
        let number = self.calls.next_number();
        let task = Task { number, model, policy: self.policy, paused: record.paused() };
        let handle = task::spawn(task, request, self.tx.clone());
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
    }

    /// Asks `role`'s model to put its argument in `round` in brief.
    pub(super) fn start_brief(&mut self, record: &mut Record, setup: &EngineSetup, round: u32, role: Role) {
        let Some(request) = record.requests(setup).brief(round, role) else {
            // Settled either way: the planner must not ask for it again.
            let error = "it made no argument to put in brief".to_string();
            record.emit(DebateEvent::BriefFailed { round, role, error, usage: None });
            return;
        };
        let model = Arc::clone(&setup.role(role).model);
        let call = Call::Brief { round, role };
        let ask = Ask { call, purpose: TurnPurpose::Argue, model, request, guard_retry: false, deadline: None };
        self.launch(record, ask);
    }

    /// Asks the judge's model about `round` with the debaters swapped.
    pub(super) fn start_swap_check(&mut self, record: &mut Record, setup: &EngineSetup, round: u32) {
        record.emit(DebateEvent::SwapCheckStarted { round });
        let Some(request) = record.requests(setup).swap_check(round) else {
            // Settled either way: the planner must not ask for it again.
            let error = format!("round {} is not in the debate", round + 1);
            record.emit(DebateEvent::SwapCheckFailed { round, error, usage: None });
            return;
        };
        let model = Arc::clone(&setup.role(Role::Judge).model);
        let call = Call::SwapCheck { round };
        let ask = Ask { call, purpose: TurnPurpose::Judge, model, request, guard_retry: false, deadline: None };
        self.launch(record, ask);
    }

    /// Asks judge `judge` of the panel for its vote on `round`, as the
    /// chair is asked, on its own provider when it sits on one.
    pub(super) fn start_vote(&mut self, record: &mut Record, setup: &EngineSetup, round: u32, judge: PanelJudge) {
        record.emit(DebateEvent::PanelVoteStarted { round, judge });
        let own = match self.judge_setups.of(&record.state, setup.judges.as_ref(), judge) {
            Ok(own) => own,
            Err(error) => {
                let error = format!("it could not be set up: {error:#}");
                record.emit(DebateEvent::PanelVoteFailed { round, judge, error, usage: None });
                return;
            }
        };
        let purpose = answer::vote_purpose(&record.state, round);
        let request = record.requests(setup).vote(round, judge, purpose, own.as_ref());
        let model = Arc::clone(own.as_ref().map_or(&setup.role(Role::Judge).model, |o| &o.model));
        let ask =
            Ask { call: Call::Vote { round, judge }, purpose, model, request, guard_retry: false, deadline: None };
        self.launch(record, ask);
    }

    /// Applies what a call sent: an item to its entry, a failure recorded
    /// (or, for a prompt too long for its server, the call asked again
    /// fitted to it). A message from a call that was cancelled or replaced
    /// is dropped. Returns the call that answered in full, taken out of the
    /// table, for the answer step.
    pub(super) fn on_msg(
        &mut self,
        record: &mut Record,
        setup: &EngineSetup,
        deadlines: &Deadlines,
        msg: CallMsg,
    ) -> Option<Flight> {
        let call = self.calls.get(msg.task)?.call;
        match msg.kind {
            CallMsgKind::Item(item) => self.on_item(record, setup, msg.task, call, item),
            CallMsgKind::Done => return self.calls.ended(msg.task),
            // Too long for the server's context: fitted to the size it names, or to a guess once.
            CallMsgKind::Failed(ProviderError::ContextExceeded { window, .. })
                if let Some(learnt) = self.calls.get(msg.task).and_then(|f| {
                    let endpoint = f.endpoint.as_deref()?;
                    match window {
                        Some(window) => answer::context_learnt(&record.state, endpoint, window),
                        None => answer::context_guessed(&record.state, endpoint, &f.sent, f.max_tokens),
                    }
                }) =>
            {
                if let Some(flight) = self.calls.ended(msg.task) {
                    self.ask_fitted(record, setup, deadlines, &flight, learnt);
                }
            }
            CallMsgKind::Failed(error) => {
                let usage = self.calls.ended(msg.task).and_then(|f| f.usage);
                let error = error.sentence(setup.role(call.role()).model.provider_name());
                record.emit(answer::on_failed(call, error, usage));
            }
        }
        None
    }

    /// One item of a call's stream: `heard` says what it means (a turn's
    /// text shown as it comes, a side call's collected, what the endpoint
    /// taught recorded), and this applies it.
    fn on_item(&mut self, record: &mut Record, setup: &EngineSetup, task: u64, call: Call, item: TurnItem) {
        let seat = setup.role(call.role());
        let answering = Answering {
            endpoint: seat.model.http_endpoint().map(Endpoint::key),
            provider: seat.model.provider_name(),
            model: &seat.model_name,
        };
        for heard in heard::heard(&record.state, call, answering, item) {
            let flight = self.calls.get_mut(task);
            match (heard, flight) {
                (Heard::Emit(event), _) => record.emit(event),
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

    /// A call whose prompt did not fit its server's context, asked again
    /// fitted to the window the server named (recorded by `learnt`).
    fn ask_fitted(
        &mut self,
        record: &mut Record,
        setup: &EngineSetup,
        deadlines: &Deadlines,
        flight: &Flight,
        learnt: DebateEvent,
    ) {
        record.emit(learnt);
        let (call, purpose) = (flight.call, flight.purpose);
        match call {
            Call::Turn { round, role } => {
                let (request, left_out) = record.requests(setup).turn_fitted(round, role, purpose);
                let reason = "the prompt was longer than the server's context; asked again, fitted to it".to_string();
                let retrying =
                    DebateEvent::TurnRetrying { round, role, attempt: 1, max_retries: 1, delay_ms: 0, reason };
                record.emit(retrying);
                record.say_left_out(setup, role, left_out);
                let model = Arc::clone(&setup.role(role).model);
                let deadline = deadlines.of_call(&record.state, call, now());
                self.launch(record, Ask { call, purpose, model, request, guard_retry: flight.guard_retry, deadline });
            }
            Call::Vote { round, judge } => {
                let own = self.judge_setups.of(&record.state, setup.judges.as_ref(), judge).ok().flatten();
                let request = record.requests(setup).vote(round, judge, purpose, own.as_ref());
                let model = Arc::clone(own.as_ref().map_or(&setup.role(Role::Judge).model, |o| &o.model));
                self.launch(record, Ask { call, purpose, model, request, guard_retry: false, deadline: None });
            }
            Call::SwapCheck { round } => {
                if let Some(request) = record.requests(setup).swap_check(round) {
                    let model = Arc::clone(&setup.role(Role::Judge).model);
                    self.launch(record, Ask { call, purpose, model, request, guard_retry: false, deadline: None });
                }
            }
            // A brief's prompt is one argument: it is not fitted again.
            Call::Brief { round, role } => {
                let error = "its prompt was longer than the model's context".to_string();
                record.emit(DebateEvent::BriefFailed { round, role, error, usage: None });
            }
        }
    }
}
