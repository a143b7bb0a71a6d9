//! `DebateState` and its one reducer, `apply`: the studio, the session store
//! and the exporters all fold the same `DebateEvent`s through it.

use super::seat::PanelJudge;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::event::{DebateEvent, Participant, Refusal};
use super::format::FormatRecord;
use super::grounding::{Reading, Source, Tally};
use super::heat::Heat;
use super::outcome::Outcome;
use super::panel::vote::Vote;
use super::seat::Role;
use super::stance::{Stance, StanceLine};
use super::swap::check::SwapCheck;
use super::verdict::Verdict;
use crate::library::LibraryRecord;
use crate::provider::{Adaptation, StructuredOutput};

/// One round: the debaters' arguments and the judge's turns on them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub number: u32,
    pub topic: String,
    pub heat: Heat,
    /// The heat was the one a person pinned, not the judge's.
    #[serde(default)]
    pub pinned: bool,
    pub injected: Vec<String>,
    /// The debaters a person pinned a heat of their own for, and the heat
    /// each is asked at this round instead of `heat`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seat_heats: BTreeMap<Role, Heat>,
    /// The question was a person's (set in the studio, on `heat resume`
    /// or for a branch), not the judge's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asked_by_person: bool,
    /// Every turn in start order; a role may have several (judge repairs).
    pub turns: Vec<Turn>,
    /// Turns a person set aside to ask their seat again, in the order set aside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded: Vec<Turn>,
    /// The swap check of the round's verdict, when one was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<SwapCheck>,
    /// The votes of a panel's judges besides the chair, by judge number.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub panel: BTreeMap<PanelJudge, Vote>,
    /// The library's passages each debater read this round.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub readings: BTreeMap<Role, Vec<Reading>>,
    /// Each debater's argument in brief, as its model wrote it (or why not).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub briefs: BTreeMap<Role, Brief>,
}

impl Round {
    /// The heat `role` is asked at this round: a pin of its own, else the round's.
    pub fn heat_for(&self, role: Role) -> Heat {
        self.seat_heats.get(&role).copied().unwrap_or(self.heat)
    }

    /// The notes a person sent `role` alone that its turns this round carried.
    pub fn notes_for(&self, role: Role) -> Vec<&str> {
        let mut notes: Vec<&str> = Vec::new();
        for note in self.turns.iter().filter(|t| t.role == role).flat_map(|t| &t.notes) {
            if !notes.contains(&note.as_str()) {
                notes.push(note);
            }
        }
        notes
    }

    /// The latest turn of a role in this round.
    pub fn turn(&self, role: Role) -> Option<&Turn> {
        self.turns.iter().rev().find(|t| t.role == role)
    }

    fn turn_mut(&mut self, role: Role) -> Option<&mut Turn> {
        self.turns.iter_mut().rev().find(|t| t.role == role)
    }

    /// The latest verdict the judge gave that parsed.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.turns.iter().rev().find_map(|t| match &t.verdict {
            Some(VerdictStatus::Parsed { verdict }) => Some(verdict),
            _ => None,
        })
    }

    /// The settled text of a debater, or `None` while it is still open.
    pub fn argument(&self, role: Role) -> Option<&str> {
        self.turn(role).filter(|t| t.is_settled()).map(|t| t.text.as_str())
    }
}

/// How a finished debate ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finish {
    pub outcome: Outcome,
    pub synthesis: Option<String>,
}

/// Everything known about a debate, folded from its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DebateState {
    pub topic: String,
    pub max_rounds: u32,
    pub initial_heat: Heat,
    pub participants: Vec<Participant>,
    pub rounds: Vec<Round>,
    /// The judge's latest heat (or the initial heat before any verdict).
    pub heat: Heat,
    /// A heat the person at the keyboard pinned; it wins over the judge's.
    pub pinned_heat: Option<Heat>,
    pub paused: bool,
    /// Injected topics waiting for the next round.
    pub pending_injections: Vec<String>,
    pub force_requested: bool,
    pub notices: Vec<String>,
    /// What endpoints taught heat, in order: (endpoint, adaptation).
    #[serde(default)]
    pub adaptations: Vec<(String, Adaptation)>,
    /// The parameters each seat's model refused (`ParameterRefused`): left
    /// out of the seat's requests, or sent in the form the model takes,
    /// until the seat is put on another model.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub refused: BTreeSet<(Role, Refusal)>,
    pub finish: Option<Finish>,
    /// The date every prompt starts with, as recorded when the debate began.
    #[serde(default)]
    pub date: Option<String>,
    /// The document under debate, as recorded when the debate began.
    #[serde(default)]
    pub source: Option<Source>,
    /// The library the debaters read from, as recorded when it began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<LibraryRecord>,
    /// The format it runs; `None` is the duel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<FormatRecord>,
    /// The stored debate this one runs again, and how it was changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<(String, String)>,
    /// What it takes to run it again the same way, as recorded when it began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Option<super::recipe::Recipe>,
    /// The stored debate this one branches, and after which round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<BranchPoint>,
    /// The question the next round asks instead of the last verdict's (a
    /// branch's edited topic); used once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_question: Option<String>,
    /// The debate reached its budget once: it paused, and goes on past it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub budget_reached: bool,
    /// Notes a person sent to some seats only, each waiting for the next
    /// request of the seats it names (a seat is struck off once asked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_notes: Vec<SeatNote>,
    /// Heats a person pinned for one debater each: they win over the
    /// round's heat from the next round on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seat_pins: BTreeMap<Role, Heat>,
    /// The round whose ending a person set aside by adding rounds to an
    /// ended debate, or while its final synthesis was written
    /// (`RoundsAdded`): the debate goes on after it once its judge is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reopened_after: Option<u32>,
    /// The person's verdicts, in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub human: Vec<HumanVerdict>,
    /// The room's vote on the audience page, by round (from 0).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audience: BTreeMap<u32, super::ballot::AudienceRound>,
    /// The arbiter's summary, when one was asked for after the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
}

/// A person's note to some seats only, and the seats still to be asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatNote {
    pub text: String,
    pub seats: Vec<Role>,
}

/// Where a branch leaves the debate it continues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchPoint {
    /// The parent session's id.
    pub from: String,
    /// The last round shared with the parent (from 1).
    pub round: u32,
    /// What the branch changed, in words.
    pub how: String,
}

/// A person's verdict, as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanVerdict {
    /// 1-based, as people count rounds.
    pub round: u32,
    /// The side ahead; `None`: even.
    pub ahead: Option<Role>,
    pub confidence: u8,
    pub note: String,
    /// The person ended the debate with it.
    pub ends: bool,
}

impl HumanVerdict {
    /// "advocate ahead, 70% sure" or "even, 50% sure", the sides named as
    /// `state`'s format names them.
    pub fn describe(&self, state: &DebateState) -> String {
        let who = self
            .ahead
            .filter(|r| r.is_debater())
            .map_or("even".to_string(), |role| format!("{} ahead", state.seat_name(role)));
        format!("{who}, {}% sure", self.confidence)
    }
}

/// The arbiter's summary of an ended debate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The model that wrote it.
    pub model: String,
    pub text: String,
}

impl DebateState {
    /// Folds a sequence of events from scratch.
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a DebateEvent>) -> Self {
        let mut state = Self::default();
        for event in events {
            state.apply(event);
        }
        state
    }

    /// The heat the next round will use.
    pub fn effective_heat(&self) -> Heat {
        self.pinned_heat.unwrap_or(self.heat)
    }

    /// The latest request `role`'s turns sent, as the state holds it
    /// (whole): what the seat's next request is logged against.
    pub fn last_sent(&self, role: Role) -> Option<&super::sent::SentRequest> {
        self.rounds
            .iter()
            .rev()
            .flat_map(|r| r.turns.iter().rev())
            .filter(|t| t.role == role)
            .find_map(|t| t.sent.as_deref())
    }

    /// What the person's steering queued that no request has carried yet,
    /// oldest first: injected topics, notes (for the seats still to be
    /// asked), then the question set for the next round. Each can be taken
    /// back (`Command::TakeBack`) while it waits.
    pub fn waiting(&self) -> Vec<super::event::Waiting> {
        use super::event::Waiting;
        let topics = self.pending_injections.iter().map(|text| Waiting::Topic { text: text.clone() });
        let notes = self.seat_notes.iter().map(|n| Waiting::Note { text: n.text.clone(), seats: n.seats.clone() });
        let question = self.next_question.iter().map(|q| Waiting::Question { question: q.clone() });
        topics.chain(notes).chain(question).collect()
    }

    /// The question the next round asks as things stand: the one a person
    /// set, else the current round's verdict's next question once the judge
    /// gave one, else the current round's (the proposition before any).
    pub fn question_ahead(&self) -> String {
        if let Some(question) = &self.next_question {
            return question.clone();
        }
        let Some(round) = self.current_round() else { return self.topic.clone() };
        let judged = round.turn(Role::Judge).is_some_and(|t| !t.purpose.is_final());
        let next = round.verdict().filter(|_| judged).map(|v| v.topic.trim()).filter(|t| !t.is_empty());
        next.map_or_else(|| round.topic.clone(), str::to_string)
    }

    /// What a branch taken after `round` (from 1) keeps of this debate
    /// besides its rounds: the heat pinned when the next round began (or
    /// now, after the last round played) and the notes injected for it.
    pub fn kept_after(&self, round: u32) -> Kept {
        match self.rounds.iter().find(|r| r.number == round) {
            Some(next) => Kept {
                pinned: next.pinned.then_some(next.heat),
                notes: next.injected.clone(),
                seat_pins: next.seat_heats.clone(),
            },
            None => Kept {
                pinned: self.pinned_heat,
                notes: self.pending_injections.clone(),
                seat_pins: self.seat_pins.clone(),
            },
        }
    }

    pub fn current_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    pub fn participant(&self, role: Role) -> Option<&Participant> {
        self.participants.iter().find(|p| p.role == role)
    }

    /// The debaters whose provider and model the judge shares (the header
    /// marks them, the start's notice names them): none for the embedded
    /// model, a person or a scripted model (the demo, a test), which have
    /// no taste of their own to prefer.
    pub fn judge_shares_a_model(&self) -> Vec<Role> {
        let judge = self.participant(Role::Judge).filter(|p| !p.is_embedded() && !p.is_person());
        let Some(judge) = judge.filter(|p| p.provider != crate::provider::scripted::PROVIDER) else {
            return Vec::new();
        };
        let debaters = self.debaters().iter().filter_map(|&role| self.participant(role));
        debaters.filter(|p| p.provider == judge.provider && p.model == judge.model).map(|p| p.role).collect()
    }

    /// Whether a person at the keyboard takes `role`'s seat.
    pub fn seated_person(&self, role: Role) -> bool {
        self.participant(role).is_some_and(Participant::is_person)
    }

    /// Whether every role was played from a script (the bundled demo):
    /// written in advance, not answered by a model.
    pub fn is_scripted(&self) -> bool {
        !self.participants.is_empty()
            && self.participants.iter().all(|p| p.provider == crate::provider::scripted::PROVIDER)
    }

    /// The weakest form of structured output `endpoint` accepted so far.
    pub fn structured_output_for(&self, endpoint: &str) -> Option<StructuredOutput> {
        self.adaptations
            .iter()
            .filter(|(e, _)| e == endpoint)
            .filter_map(|(_, a)| match a {
                Adaptation::StructuredOutput { form } => Some(*form),
                Adaptation::OneAtATime
                | Adaptation::ContextWindow { .. }
                | Adaptation::CappedStrings
                | Adaptation::ChosenVerdicts => None,
            })
            .max()
    }

    /// Whether `adaptation` tells nothing new about `endpoint`: the state
    /// already knows it, or something stronger (a form as weak or weaker,
    /// a window as small or smaller).
    pub fn knows(&self, endpoint: &str, adaptation: &Adaptation) -> bool {
        match adaptation {
            Adaptation::StructuredOutput { form } => self.structured_output_for(endpoint).is_some_and(|k| k >= *form),
            Adaptation::ContextWindow { tokens } => self.context_window_for(endpoint).is_some_and(|k| k <= *tokens),
            Adaptation::OneAtATime | Adaptation::CappedStrings | Adaptation::ChosenVerdicts => {
                self.adaptations.iter().any(|(e, a)| e == endpoint && a == adaptation)
            }
        }
    }

    /// Whether the log holds the debate's `Started` (a session cut off
    /// between its creation and its start holds none, and no model was asked).
    pub fn began(&self) -> bool {
        self.max_rounds > 0
    }

    /// Whether `role`'s model refused `what` (see [`DebateState::refused`]).
    pub fn refuses(&self, role: Role, what: Refusal) -> bool {
        self.refused.contains(&(role, what))
    }

    /// Whether `endpoint` was found to need length caps on a schema's strings.
    pub fn caps_strings_for(&self, endpoint: &str) -> bool {
        self.knows(endpoint, &Adaptation::CappedStrings)
    }

    /// The smallest context `endpoint` was found to give one request.
    pub fn context_window_for(&self, endpoint: &str) -> Option<u32> {
        self.adaptations
            .iter()
            .filter(|(e, _)| e == endpoint)
            .filter_map(|(_, a)| match a {
                Adaptation::ContextWindow { tokens } => Some(*tokens),
                _ => None,
            })
            .min()
    }

    /// A seat's latest stance, and whether it changed from the one before
    /// without a reason on its line.
    pub fn stance(&self, role: Role) -> Option<(&StanceLine, bool)> {
        let (round, line) = self.rounds.iter().rev().find_map(|r| Some((r.number, r.turn(role)?.stance.as_ref()?)))?;
        Some((line, self.stance_unexplained(round, role)))
    }

    /// Whether every debater stated `ACCEPTING_CONSENSUS` in `round`.
    pub fn consensus_in(&self, round: u32) -> bool {
        let Some(r) = self.rounds.iter().find(|r| r.number == round) else { return false };
        self.debaters().iter().all(|&role| {
            r.turn(role).and_then(|t| t.stance.as_ref()).is_some_and(|l| l.stance == Stance::AcceptingConsensus)
        })
    }

    /// Whether a debater's latest stance is `DISSENTING`.
    pub fn dissenting(&self) -> bool {
        self.debaters().iter().any(|&role| self.stance(role).is_some_and(|(l, _)| l.stance == Stance::Dissenting))
    }

    /// Whether a seat's stance in `round` differs from its stance before
    /// and its stance line gives no reason.
    pub fn stance_unexplained(&self, round: u32, role: Role) -> bool {
        let stances: Vec<(u32, &StanceLine)> =
            self.rounds.iter().filter_map(|r| Some((r.number, r.turn(role)?.stance.as_ref()?))).collect();
        let Some(at) = stances.iter().position(|(n, _)| *n == round) else { return false };
        let (_, now) = stances[at];
        at > 0 && stances[at - 1].1.stance != now.stance && now.reason.is_none()
    }

    /// What the debaters' citations are checked against, as a sentence
    /// names it: "the source" (one document) or "the library"; `None` when
    /// the debate reads neither.
    pub fn grounds(&self) -> Option<&'static str> {
        match (&self.source, &self.library) {
            (Some(_), _) => Some("the source"),
            (None, Some(_)) => Some("the library"),
            (None, None) => None,
        }
    }

    /// How a seat's citations and quotes have held up, over every round.
    pub fn tally(&self, role: Role) -> Tally {
        let mut tally = Tally::default();
        for turn in self.rounds.iter().flat_map(|r| &r.turns).filter(|t| t.role == role) {
            tally.add(&turn.checks);
        }
        tally
    }

    /// The name a seat goes by in this debate's format ("Advocate" in the
    /// duel, "Proposition" in an Oxford debate).
    pub fn label(&self, role: Role) -> &str {
        self.format.as_ref().map_or(role.label(), |f| f.label(role))
    }

    /// [`Self::label`] in lower case, as prompts name a seat ("the skeptic").
    pub fn seat_name(&self, role: Role) -> String {
        self.label(role).to_lowercase()
    }

    /// The debaters' seats, in order: the duel's two, or a format's.
    pub fn debaters(&self) -> &'static [Role] {
        self.format.as_ref().map_or(&Role::DEBATERS, FormatRecord::debater_seats)
    }

    /// Every seat that sits, in screen order: the debaters, then the judge
    /// (whose one seat and pane a panel shares).
    pub fn seats(&self) -> Vec<Role> {
        FormatRecord::seats_of(self.format.as_ref())
    }

    /// The side a seat takes in this debate's format.
    pub fn side(&self, role: Role) -> super::seat::Side {
        self.format.as_ref().map_or(role.side(), |f| f.side(role))
    }

    /// The debaters argue positions of their own (a `vote` or `panel`
    /// debate), not a side each.
    pub fn free(&self) -> bool {
        self.side(Role::Advocate) == super::seat::Side::Free
    }

    /// Two debaters argue a side each (the duel, Oxford): what a swap check
    /// and the embedded judge's chosen form weigh.
    pub fn two_sides(&self) -> bool {
        self.debaters().len() == 2 && !self.free()
    }

    /// The format's critics raise issues the judge rules on (`review`).
    pub fn tracks_issues(&self) -> bool {
        self.format.as_ref().is_some_and(|f| f.issues)
    }

    /// The debaters end each turn with a final answer, compared each round
    /// (`debate::vote`).
    pub fn final_answers(&self) -> bool {
        self.format.as_ref().is_some_and(FormatRecord::final_answers)
    }

    /// The two sides' names in prompts, the side for first ("advocate",
    /// "skeptic" in the duel; "proposition", "opposition" in Oxford).
    pub fn side_names(&self) -> [String; 2] {
        Role::DEBATERS.map(|r| self.seat_name(r))
    }

    /// The format's phase of round `round` (from 0), if it has phases.
    pub fn phase(&self, round: u32) -> Option<&super::format::Phase> {
        self.format.as_ref()?.phase(round, self.max_rounds)
    }

    /// The format asks the judge to score each argument.
    /// The argument map the format keeps, if it keeps one.
    pub fn map(&self) -> Option<&super::format::MapSpec> {
        self.format.as_ref().and_then(|f| f.map.as_ref())
    }

    pub fn scored(&self) -> bool {
        self.format.as_ref().is_some_and(|f| f.scores)
    }

    /// The judge may end the debate before its last round (the duel's
    /// rule; a format that argues every round says no).
    pub fn may_resolve_early(&self) -> bool {
        self.format.as_ref().is_none_or(|f| f.resolve_early)
    }

    /// How many judges sit: none (a vote), the chair alone (1) or a panel.
    pub fn judges(&self) -> u32 {
        self.format.as_ref().map_or(1, |f| f.judges)
    }

    /// The heat of each round so far, oldest first.
    pub fn heat_history(&self) -> Vec<Heat> {
        self.rounds.iter().map(|r| r.heat).collect()
    }
}

mod briefed;
mod kept;
mod looked_up;
mod reduce;
mod turn;

pub use briefed::Brief;
pub use kept::Kept;
pub use looked_up::{ToolAnswer, ToolStep, ToolUse, calls_made, spent};
pub use turn::{Turn, TurnStatus, VerdictStatus};
