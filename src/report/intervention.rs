//! What a person did to a debate (pause, inject, pin, force…), as the
//! report, the export and the heat chart name it.

use crate::debate::DebateEvent;
use crate::sanitize::clean;

/// What a person did to the debate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterventionKind {
    Pause,
    Resume,
    Inject,
    Pin,
    Release,
    Force,
    Cancel,
    Reopen,
    Question,
    More,
    Again,
    TakeBack,
    Model,
}

impl InterventionKind {
    /// One word for the chart's marks.
    pub fn short(self) -> &'static str {
        match self {
            InterventionKind::Pause => "pause",
            InterventionKind::Resume => "resume",
            InterventionKind::Inject => "inject",
            InterventionKind::Pin => "pin",
            InterventionKind::Release => "release",
            InterventionKind::Force => "force",
            InterventionKind::Cancel => "cancel",
            InterventionKind::Reopen => "reopen",
            InterventionKind::Question => "question",
            InterventionKind::More => "more",
            InterventionKind::Again => "again",
            InterventionKind::TakeBack => "take back",
            InterventionKind::Model => "model",
        }
    }
}

/// A steering action, when and in which round it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Intervention {
    pub kind: InterventionKind,
    /// `+01:05` from the session's start.
    pub clock: String,
    /// 1-based round it happened in (0: before the first round).
    pub round: u32,
    pub text: String,
}

/// What a person did, if the event is steering: its kind and the words
/// the report, the export and the chart use for it.
pub fn intervention_of(event: &DebateEvent) -> Option<(InterventionKind, String)> {
    Some(match event {
        DebateEvent::Paused => (InterventionKind::Pause, "paused".into()),
        DebateEvent::Resumed => (InterventionKind::Resume, "resumed".into()),
        DebateEvent::TopicInjected { text } => (InterventionKind::Inject, format!("injected a topic: {}", clean(text))),
        DebateEvent::TemperaturePinned { heat } => (InterventionKind::Pin, format!("pinned the heat at {heat:.2}")),
        DebateEvent::TemperatureReleased => (InterventionKind::Release, "released the heat to the judge".into()),
        DebateEvent::ResolutionForced => (InterventionKind::Force, "forced a resolution".into()),
        DebateEvent::TurnCancelled { round, role } => {
            (InterventionKind::Cancel, format!("cancelled the {}'s turn in round {}", role.key(), round + 1))
        }
        DebateEvent::TurnDiscarded { round, role } => (
            InterventionKind::Again,
            format!("asked the {} again in round {} (its answer kept as discarded)", role.key(), round + 1),
        ),
        DebateEvent::Reopened => (InterventionKind::Reopen, "reopened the session".into()),
        DebateEvent::NoteToSeats { text, seats } => {
            let to: Vec<&str> = seats.iter().map(|r| r.key()).collect();
            (InterventionKind::Inject, format!("sent the {} alone a note: {}", to.join(" and the "), clean(text)))
        }
        DebateEvent::SeatHeatPinned { role, heat } => {
            (InterventionKind::Pin, format!("pinned the {}'s heat at {heat:.2}", role.key()))
        }
        DebateEvent::SeatHeatReleased { role } => {
            (InterventionKind::Release, format!("released the {}'s heat", role.key()))
        }
        DebateEvent::QuestionSet { question } => {
            (InterventionKind::Question, format!("set the next question: {}", clean(question)))
        }
        DebateEvent::SteeringTakenBack { what } => {
            (InterventionKind::TakeBack, format!("took back {}", clean(&what.describe(|r| r.key().to_string()))))
        }
        DebateEvent::SeatModelChanged { role, participant } => (
            InterventionKind::Model,
            format!("put the {} on {}/{}", role.key(), clean(&participant.provider), clean(&participant.model)),
        ),
        DebateEvent::RoundsAdded { rounds } => {
            (InterventionKind::More, format!("asked for {}", crate::words::count(*rounds as usize, "more round")))
        }
        _ => return None,
    })
}
