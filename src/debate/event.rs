//! The debate's vocabulary: `DebateEvent`s the engine emits (and the store,
//! the studio and exporters fold) and what a turn is for. Who sits in each
//! seat is `participant`'s, what a branch changes `branch_changes`'s, what
//! a seat's model refused `refusal`'s (all named from here too); how a
//! debate ends is `outcome`'s; what a person sends in, `command`'s.

use super::seat::PanelJudge;
use serde::{Deserialize, Serialize};

use super::format::FormatRecord;
use super::grounding::{QuoteCheck, Reading, Source};
use super::heat::Heat;
use super::outcome::Outcome;
use super::seat::Role;
use super::verdict::Verdict;
use crate::library::LibraryRecord;
use crate::provider::{Adaptation, ToolCall, Usage};

pub use super::branch_changes::{BranchChanges, PanelSeats};
pub use super::participant::{AT_THE_KEYBOARD, Participant};
pub use super::refusal::Refusal;

/// What a person's steering queued that no request has carried yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Waiting {
    /// A topic injected for the next round's prompts.
    Topic { text: String },
    /// A note for some seats' next requests: the seats still to carry it.
    Note { text: String, seats: Vec<Role> },
    /// The question the person set for the next round.
    Question { question: String },
}

impl Waiting {
    /// "the topic “…”", "the note to the skeptic “…”", "the question “…”",
    /// with each seat as `seat_name` calls it.
    pub fn describe(&self, seat_name: impl Fn(Role) -> String) -> String {
        let quoted = |text: &str| format!("“{}”", crate::sanitize::one_line(text));
        match self {
            Waiting::Topic { text } => format!("the topic {}", quoted(text)),
            Waiting::Note { text, seats } => {
                let to: Vec<String> = seats.iter().map(|&r| seat_name(r)).collect();
                format!("the note to the {} {}", to.join(" and the "), quoted(text))
            }
            Waiting::Question { question } => format!("the question {}", quoted(question)),
        }
    }
}

/// What a turn is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnPurpose {
    /// A debater's argument.
    Argue,
    /// The judge's verdict on a round.
    Judge,
    /// The judge asked again after an unparsable verdict.
    RepairVerdict,
    /// The judge asked for the final synthesis (last round or forced).
    Synthesis,
    /// The judge asked again after an unparsable final synthesis.
    RepairSynthesis,
}

impl TurnPurpose {
    /// Whether this judge turn ends the debate whatever it says.
    pub fn is_final(self) -> bool {
        matches!(self, TurnPurpose::Synthesis | TurnPurpose::RepairSynthesis)
    }

    pub fn is_repair(self) -> bool {
        matches!(self, TurnPurpose::RepairVerdict | TurnPurpose::RepairSynthesis)
    }
}

/// Everything that happens in a debate. The one reducer,
/// [`DebateState::apply`](super::state::DebateState::apply), folds these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum DebateEvent {
    Started {
        topic: String,
        max_rounds: u32,
        initial_heat: Heat,
        participants: Vec<Participant>,
    },
    /// What grounds the debate, right after `Started`: the date every
    /// prompt starts with and the source document (its whole text, so the
    /// file is never needed again). Not written when there is neither.
    Grounded {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        date: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<Source>,
        /// The library the debaters read from: the paths given and each
        /// file's name, size and hash.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        library: Option<Box<LibraryRecord>>,
    },
    /// The format the debate runs, right after `Started` (before
    /// `Grounded`; a log written before heat 57's change has it after).
    /// Not written for the duel, so a log without one is a duel.
    Formatted {
        format: Box<FormatRecord>,
    },
    RoundStarted {
        round: u32,
        topic: String,
        heat: Heat,
        /// Topics a person injected that this round's prompts carry.
        injected: Vec<String>,
    },
    TurnStarted {
        round: u32,
        role: Role,
        purpose: TurnPurpose,
        /// The temperature sent with the request, if any.
        temperature: Option<f32>,
    },
    /// The seat's request waits inside heat for one of its server's slots
    /// (`providers.<name>.max_concurrent`, the server's own count, or one
    /// at a time): nothing has been sent yet.
    TurnQueued {
        round: u32,
        role: Role,
    },
    /// What a seat's turn was sent, as heat built the request (secrets
    /// redacted); written as each request of the turn goes (one that looks
    /// something up sends more than one: the last stands).
    RequestSent {
        round: u32,
        role: Role,
        request: Box<super::sent::SentRequest>,
    },
    /// The queued request was sent: from here the server is waited for.
    TurnSent {
        round: u32,
        role: Role,
    },
    Delta {
        round: u32,
        role: Role,
        text: String,
    },
    Reasoning {
        round: u32,
        role: Role,
        text: String,
    },
    /// The attempt failed; its partial text is discarded and the turn re-runs.
    TurnRetrying {
        round: u32,
        role: Role,
        attempt: u32,
        max_retries: u32,
        delay_ms: u64,
        reason: String,
    },
    TurnCompleted {
        round: u32,
        role: Role,
        text: String,
        usage: Option<Usage>,
        /// The answer stopped at the token limit, after this many tokens.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        truncated_at: Option<u32>,
        /// The server said the answer ended, but it ends mid-sentence well
        /// short of its limit: it may have been cut (a gateway whose
        /// upstream died mid-answer sends a clean stop). Marked, not spliced.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        possibly_cut: bool,
    },
    /// The debater's turn ran out of time (`debate.turn_seconds`, this many
    /// seconds): it is completed with what it said so far, marked as cut.
    TurnTimedOut {
        round: u32,
        role: Role,
        seconds: u32,
    },
    /// The person cancelled a streaming turn; what streamed so far stands.
    TurnCancelled {
        round: u32,
        role: Role,
    },
    /// A person asked the seat again: its turns this round (what it had
    /// said, or was saying) are kept aside as discarded, and it is asked
    /// anew.
    TurnDiscarded {
        round: u32,
        role: Role,
    },
    /// The library's passages a debater reads this round, chosen before
    /// its first turn of the round (`grounding::reading`).
    Retrieved {
        round: u32,
        role: Role,
        passages: Vec<Reading>,
    },
    /// A debater's answer stopped to call tools (`grounding::lookup`):
    /// the calls, and what the step spent. What it said before them moves
    /// to the step; its argument is what it says after its last call.
    ToolsCalled {
        round: u32,
        role: Role,
        calls: Vec<ToolCall>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// What heat answered one tool call of a debater's turn, and how long it took.
    ToolAnswered {
        round: u32,
        role: Role,
        id: String,
        text: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        failed: bool,
        millis: u64,
    },
    /// What a completed argument cited from the source, checked.
    QuotesChecked {
        round: u32,
        role: Role,
        checks: Vec<QuoteCheck>,
    },
    TurnFailed {
        round: u32,
        role: Role,
        error: String,
    },
    VerdictReached {
        round: u32,
        verdict: Verdict,
    },
    VerdictInvalid {
        round: u32,
        error: String,
        /// Whether the judge will be asked once more.
        will_retry: bool,
    },
    /// The swap check (`debate.swap_check`) asked the judge again about
    /// `round`, the debaters in reverse order as Debater A and B.
    SwapCheckStarted {
        round: u32,
    },
    /// The swap check's answer, its sides named again, and whether it
    /// disagrees with the round's verdict on who is ahead or on `resolved`.
    SwapChecked {
        round: u32,
        verdict: Verdict,
        flips: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// The swap check failed, or its answer could not be read: the round
    /// stands as judged.
    SwapCheckFailed {
        round: u32,
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// A debater's argument in `round`, put in brief by its own model
    /// (`debate.summaries = "model"`) for the prompts that give that round
    /// in brief from now on.
    Briefed {
        round: u32,
        role: Role,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// The model could not put that argument in brief: its first sentence
    /// stands for it, as when no model is asked.
    BriefFailed {
        round: u32,
        role: Role,
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// A panel's judge `judge` (2, 3, …; the chair is 1 and judges in its
    /// turn) was asked for its vote on `round`.
    PanelVoteStarted {
        round: u32,
        judge: PanelJudge,
    },
    PanelVoted {
        round: u32,
        judge: PanelJudge,
        verdict: Verdict,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// The judge gave no vote that could be read; it is outvoted.
    PanelVoteFailed {
        round: u32,
        judge: PanelJudge,
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    Paused,
    Resumed,
    TopicInjected {
        text: String,
    },
    TemperaturePinned {
        heat: Heat,
    },
    TemperatureReleased,
    ResolutionForced,
    /// A person's note to some seats only (never every seat: that is
    /// `TopicInjected`): each seat's next request carries it, and no other
    /// seat's.
    NoteToSeats {
        text: String,
        seats: Vec<Role>,
    },
    /// A person pinned one debater's heat: from the next round that seat
    /// is asked at it, whatever the judge or a pin for every seat says.
    SeatHeatPinned {
        role: Role,
        heat: Heat,
    },
    /// One debater's pin released: it follows the round's heat again.
    SeatHeatReleased {
        role: Role,
    },
    /// The debate reached its budget (`debate.budget_tokens` or
    /// `debate.budget_usd`): `spent` says what it spent against which
    /// limit. A `Paused` follows; once resumed, it goes on past the budget.
    BudgetReached {
        spent: String,
    },
    /// A person set the next round's question: it is asked instead of the
    /// judge's (or the vote's), once. Set while the judges resolve the
    /// round, it keeps the debate open for that round.
    QuestionSet {
        question: String,
    },
    /// A person took back what their steering queued, before any request
    /// carried it: `what` as it still waited (a note, for the seats still
    /// to be asked). No prompt carries it.
    SteeringTakenBack {
        what: Waiting,
    },
    /// A person changed a seat's model mid-debate: from its next request
    /// the seat is asked on `participant`'s; a turn under way ends on the
    /// model it began on.
    SeatModelChanged {
        role: Role,
        participant: Participant,
    },
    /// A person asked for `rounds` more rounds. On a debate that ended (the
    /// judges resolved it, the sides converged, the rounds ran out) the
    /// ending is set aside and the rounds follow the last one played; on a
    /// running debate the round limit grows by as many.
    RoundsAdded {
        rounds: u32,
    },
    /// Something a person should know that is not an error, e.g. a model
    /// refused a sampling parameter.
    Notice {
        message: String,
    },
    /// heat changed how it talks to an endpoint for the rest of the debate
    /// (kept in the log, so a resumed debate starts where this one got to).
    EndpointAdapted {
        endpoint: String,
        adaptation: Adaptation,
        /// The notice a person reads.
        message: String,
    },
    /// `role`'s model refused a request parameter (`what`): no later
    /// request of the seat carries it, or it goes in the form the model
    /// takes; a resumed debate reads it back. Recorded once, the first
    /// time; its `Notice` follows. A seat put on another model forgets it.
    ParameterRefused {
        role: Role,
        what: Refusal,
    },
    /// The server named the model that answered for a role, and it is not
    /// the one heat asked for.
    ModelReported {
        role: Role,
        model: String,
    },
    /// A stored debate was opened again to continue it: a failed or
    /// cancelled ending is lifted and failed turns are run again.
    Reopened,
    Finished {
        outcome: Outcome,
        /// The judge's final synthesis, when there is one.
        synthesis: Option<String>,
    },
    /// A person's verdict beside the judge's: the side ahead (`None`: even),
    /// how sure from 0 to 100, a note; given in `round` (from 0), and
    /// `ends` when the person ended the debate with it.
    HumanVerdict {
        round: u32,
        ahead: Option<Role>,
        confidence: u8,
        note: String,
        #[serde(default)]
        ends: bool,
    },
    /// Ballots the room cast on the audience page for the debater who
    /// argued better in `round` (from 0), each voter's first in the round.
    AudienceVoted {
        round: u32,
        ballots: Vec<super::ballot::Ballot>,
    },
    /// What it takes to run the debate again the same way (the seed, the
    /// prompts' hash, heat's version), recorded as a new debate begins.
    Recipe(Box<super::recipe::Recipe>),
    /// Where this debate came from, right after `Started`: another stored
    /// debate (`from`) run again, and how it was changed (`how`, in words).
    Derived {
        from: String,
        how: String,
    },
    /// This debate branches another (`from`) after its round `round` (from
    /// 1): the first `records` events of that debate's log are this one's
    /// too, read from it and never copied. `participants` seat the rounds
    /// from here on; `how` says what changed, in words.
    Branched {
        from: String,
        round: u32,
        records: u64,
        how: String,
        participants: Vec<Participant>,
        #[serde(default, skip_serializing_if = "BranchChanges::is_empty")]
        changes: BranchChanges,
    },
    /// The arbiter's summary, asked for after the debate ended
    /// (`heat report --summary`): by `model`, in Markdown.
    Summarized {
        model: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
}

/// The round an event belongs to, found through a reference to it (shared
/// or mutable): the one list of which events belong to a round, kept
/// exhaustive so a new kind of event must be placed.
macro_rules! round_of {
    ($event:expr) => {
        match $event {
            DebateEvent::RoundStarted { round, .. }
            | DebateEvent::TurnStarted { round, .. }
            | DebateEvent::TurnQueued { round, .. }
            | DebateEvent::TurnSent { round, .. }
            | DebateEvent::RequestSent { round, .. }
            | DebateEvent::Delta { round, .. }
            | DebateEvent::Reasoning { round, .. }
            | DebateEvent::TurnRetrying { round, .. }
            | DebateEvent::TurnCompleted { round, .. }
            | DebateEvent::TurnCancelled { round, .. }
            | DebateEvent::TurnDiscarded { round, .. }
            | DebateEvent::TurnTimedOut { round, .. }
            | DebateEvent::QuotesChecked { round, .. }
            | DebateEvent::Retrieved { round, .. }
            | DebateEvent::ToolsCalled { round, .. }
            | DebateEvent::ToolAnswered { round, .. }
            | DebateEvent::TurnFailed { round, .. }
            | DebateEvent::VerdictReached { round, .. }
            | DebateEvent::VerdictInvalid { round, .. }
            | DebateEvent::SwapCheckStarted { round }
            | DebateEvent::SwapChecked { round, .. }
            | DebateEvent::SwapCheckFailed { round, .. }
            | DebateEvent::Briefed { round, .. }
            | DebateEvent::BriefFailed { round, .. }
            | DebateEvent::PanelVoteStarted { round, .. }
            | DebateEvent::PanelVoted { round, .. }
            | DebateEvent::PanelVoteFailed { round, .. }
            | DebateEvent::HumanVerdict { round, .. }
            | DebateEvent::AudienceVoted { round, .. } => Some(round),
            DebateEvent::Started { .. }
            | DebateEvent::Grounded { .. }
            | DebateEvent::Formatted { .. }
            | DebateEvent::Paused
            | DebateEvent::Resumed
            | DebateEvent::TopicInjected { .. }
            | DebateEvent::TemperaturePinned { .. }
            | DebateEvent::TemperatureReleased
            | DebateEvent::ResolutionForced
            | DebateEvent::QuestionSet { .. }
            | DebateEvent::SteeringTakenBack { .. }
            | DebateEvent::SeatModelChanged { .. }
            | DebateEvent::RoundsAdded { .. }
            | DebateEvent::BudgetReached { .. }
            | DebateEvent::NoteToSeats { .. }
            | DebateEvent::SeatHeatPinned { .. }
            | DebateEvent::SeatHeatReleased { .. }
            | DebateEvent::Notice { .. }
            | DebateEvent::EndpointAdapted { .. }
            | DebateEvent::ParameterRefused { .. }
            | DebateEvent::ModelReported { .. }
            | DebateEvent::Reopened
            | DebateEvent::Finished { .. }
            | DebateEvent::Summarized { .. }
            | DebateEvent::Derived { .. }
            | DebateEvent::Recipe(_)
            | DebateEvent::Branched { .. } => None,
        }
    };
}

impl DebateEvent {
    /// For unit tests: a three-round duel on "Tabs beat spaces" from heat
    /// 0.9, every seat on `openai:mock-a`.
    #[cfg(test)]
    pub fn duel_started() -> Self {
        DebateEvent::Started {
            topic: "Tabs beat spaces".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: Role::DUEL.iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
        }
    }

    /// For unit tests: `role`'s turn in `round` started for `purpose` (no
    /// temperature sent) and completed with `text` (no usage, not cut).
    #[cfg(test)]
    pub fn turn(round: u32, role: Role, purpose: TurnPurpose, text: &str) -> [Self; 2] {
        [
            DebateEvent::TurnStarted { round, role, purpose, temperature: None },
            DebateEvent::TurnCompleted {
                round,
                role,
                text: text.into(),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
        ]
    }

    /// The round the event belongs to, as the engine and the log count
    /// rounds (from 0); `None` for an event of the whole debate.
    pub fn round(&self) -> Option<u32> {
        round_of!(self).copied()
    }

    /// The round the event belongs to, to renumber it (see [`DebateEvent::round`]).
    pub fn round_mut(&mut self) -> Option<&mut u32> {
        round_of!(self)
    }
}
