//! A debate's event log, written a sentence at a time: `Log::new` opens it
//! with the `Started` event (a topic, a round limit, an initial heat, the
//! seats that sit), then each sentence appends what the engine would write
//! (a format record, a round, a turn argued, a verdict, a pin, …). The one
//! way tests build a log by hand.

use heat::debate::format::FormatRecord;
use heat::debate::grounding::Source;
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Heat, Participant, Role, TurnPurpose};

/// A debate's event log, written a sentence at a time.
#[derive(Debug, Clone)]
pub struct Log {
    events: Vec<DebateEvent>,
    /// The debate's topic: what [`Log::round`] argues.
    topic: String,
    /// The debate's initial heat: [`Log::round`]'s heat and the temperature
    /// [`Log::starts`] sends.
    heat: f32,
}

/// Who sits in `roles`, each on `provider`'s `model`.
pub fn participants(roles: &[Role], provider: &str, model: &str) -> Vec<Participant> {
    roles.iter().map(|&role| participant(role, provider, model)).collect()
}

/// One seat on `provider`'s `model`.
/// `role`'s turn in `round` completed with `text`, no usage, not cut.
pub fn completed(round: u32, role: Role, text: &str) -> DebateEvent {
    DebateEvent::TurnCompleted { round, role, text: text.into(), usage: None, truncated_at: None, possibly_cut: false }
}

pub fn participant(role: Role, provider: &str, model: &str) -> Participant {
    Participant::new(role, provider, model)
}

/// The built-in format `name`'s record, as a `Formatted` event carries it.
pub fn built_in(name: &str) -> FormatRecord {
    heat::format::Catalog::load(None).find(name).unwrap_or_else(|e| panic!("{name} is built in: {e:#}")).record.clone()
}

impl Log {
    /// A debate of `max_rounds` rounds on `topic` from `initial_heat`, with
    /// no seats named (see [`Log::seated`]).
    pub fn new(topic: &str, max_rounds: u32, initial_heat: f32) -> Self {
        let started = DebateEvent::Started {
            topic: topic.into(),
            max_rounds,
            initial_heat: Heat::new(initial_heat),
            participants: Vec::new(),
        };
        Log { events: vec![started], topic: topic.into(), heat: initial_heat }
    }

    /// The `Started` event names `participants` as who sits.
    pub fn seated(mut self, seated: Vec<Participant>) -> Self {
        match self.events.first_mut() {
            Some(DebateEvent::Started { participants, .. }) => *participants = seated,
            other => panic!("a log opens with its Started event, not {other:?}"),
        }
        self
    }

    /// [`Log::seated`] with each of `roles` on `provider`'s `model`.
    pub fn seats(self, roles: &[Role], provider: &str, model: &str) -> Self {
        self.seated(participants(roles, provider, model))
    }

    /// Appends any event.
    pub fn then(mut self, event: DebateEvent) -> Self {
        self.events.push(event);
        self
    }

    /// Appends every event of `events`.
    pub fn then_all(mut self, events: impl IntoIterator<Item = DebateEvent>) -> Self {
        self.events.extend(events);
        self
    }

    /// The debate runs the format `format`.
    pub fn formatted(self, format: FormatRecord) -> Self {
        self.then(DebateEvent::Formatted { format: Box::new(format) })
    }

    /// The debate runs the built-in format `name`.
    pub fn format(self, name: &str) -> Self {
        self.formatted(built_in(name))
    }

    /// The debate is grounded in `date` and `source`.
    pub fn grounded(self, date: Option<&str>, source: Option<Source>) -> Self {
        self.then(DebateEvent::Grounded { date: date.map(String::from), source, library: None })
    }

    /// Round `round` starts on the debate's topic at its initial heat.
    pub fn round(self, round: u32) -> Self {
        let (topic, heat) = (self.topic.clone(), self.heat);
        self.round_on(round, &topic, heat)
    }

    /// Round `round` starts on `topic` at `heat`.
    pub fn round_on(self, round: u32, topic: &str, heat: f32) -> Self {
        self.then(DebateEvent::RoundStarted { round, topic: topic.into(), heat: Heat::new(heat), injected: Vec::new() })
    }

    /// `role`'s turn starts, sent the debate's initial heat as its temperature.
    pub fn starts(self, round: u32, role: Role, purpose: TurnPurpose) -> Self {
        let heat = self.heat;
        self.starts_at(round, role, purpose, Some(heat))
    }

    /// `role`'s turn starts, sent `temperature`.
    pub fn starts_at(self, round: u32, role: Role, purpose: TurnPurpose, temperature: Option<f32>) -> Self {
        self.then(DebateEvent::TurnStarted { round, role, purpose, temperature })
    }

    /// `role` streams `text`.
    pub fn streams(self, round: u32, role: Role, text: &str) -> Self {
        self.then(DebateEvent::Delta { round, role, text: text.into() })
    }

    /// `role`'s turn completes with `text`.
    pub fn completes(self, round: u32, role: Role, text: &str) -> Self {
        self.then(completed(round, role, text))
    }

    /// `role` argues round `round`: its turn starts and completes.
    pub fn argues(self, round: u32, role: Role) -> Self {
        let text = format!("The {} argues round {}.", role.key(), round + 1);
        self.starts(round, role, TurnPurpose::Argue).completes(round, role, &text)
    }

    /// The duel's two debaters argue round `round`, the advocate first.
    pub fn both_argue(self, round: u32) -> Self {
        self.argues(round, Role::Advocate).argues(round, Role::Skeptic)
    }

    pub fn cancels(self, round: u32, role: Role) -> Self {
        self.then(DebateEvent::TurnCancelled { round, role })
    }

    pub fn fails(self, round: u32, role: Role, error: &str) -> Self {
        self.then(DebateEvent::TurnFailed { round, role, error: error.into() })
    }

    /// `role`'s first attempt fails with HTTP 503; it is tried again.
    pub fn retries(self, round: u32, role: Role) -> Self {
        self.then(DebateEvent::TurnRetrying {
            round,
            role,
            attempt: 1,
            max_retries: 3,
            delay_ms: 500,
            reason: "HTTP 503".into(),
        })
    }

    /// The judge answers with `purpose` and its answer parses as `verdict`.
    pub fn judge_rules(self, round: u32, purpose: TurnPurpose, verdict: Verdict) -> Self {
        let text = serde_json::to_string(&verdict).expect("a verdict serialises");
        self.starts(round, Role::Judge, purpose)
            .completes(round, Role::Judge, &text)
            .then(DebateEvent::VerdictReached { round, verdict })
    }

    /// The judge answers with `purpose` and its answer does not parse.
    pub fn judge_garbles(self, round: u32, purpose: TurnPurpose, will_retry: bool) -> Self {
        self.starts(round, Role::Judge, purpose)
            .completes(round, Role::Judge, "I think both sides made points.")
            .then(DebateEvent::VerdictInvalid { round, error: "the answer contains no JSON object".into(), will_retry })
    }

    pub fn injects(self, text: &str) -> Self {
        self.then(DebateEvent::TopicInjected { text: text.into() })
    }

    pub fn pins(self, heat: f32) -> Self {
        self.then(DebateEvent::TemperaturePinned { heat: Heat::new(heat) })
    }

    pub fn forces(self) -> Self {
        self.then(DebateEvent::ResolutionForced)
    }

    /// The events written so far.
    pub fn events(&self) -> &[DebateEvent] {
        &self.events
    }

    /// The events, to go on by hand.
    pub fn into_events(self) -> Vec<DebateEvent> {
        self.events
    }

    /// The fold of the events so far.
    pub fn state(&self) -> DebateState {
        DebateState::from_events(&self.events)
    }
}
