//! What a person did to a debate (pause, inject, pin, force…), as the
//! report, the export and the heat chart name it.

use crate::debate::DebateEvent;
use crate::sanitize::clean;

/// What a person did to the debate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SteerKind {
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

impl SteerKind {
    /// One word for the chart's marks.
    pub fn short(self) -> &'static str {
        match self {
            SteerKind::Pause => "pause",
            SteerKind::Resume => "resume",
            SteerKind::Inject => "inject",
            SteerKind::Pin => "pin",
            SteerKind::Release => "release",
            SteerKind::Force => "force",
            SteerKind::Cancel => "cancel",
            SteerKind::Reopen => "reopen",
            SteerKind::Question => "question",
            SteerKind::More => "more",
            SteerKind::Again => "again",
            SteerKind::TakeBack => "take back",
            SteerKind::Model => "model",
        }
    }
}

/// A steering action, when and in which round it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Steer {
    pub kind: SteerKind,
    /// `+01:05` from the session's start.
    pub clock: String,
    /// 1-based round it happened in (0: before the first round).
    pub round: u32,
    pub text: String,
}

/// What a person did, if the event is steering: its kind and the words
/// the report, the export and the chart use for it.
pub fn steer_of(event: &DebateEvent) -> Option<(SteerKind, String)> {
    Some(match event {
        DebateEvent::Paused => (SteerKind::Pause, "paused".into()),
        DebateEvent::Resumed => (SteerKind::Resume, "resumed".into()),
        DebateEvent::TopicInjected { text } => (SteerKind::Inject, format!("injected a topic: {}", clean(text))),
        DebateEvent::TemperaturePinned { heat } => (SteerKind::Pin, format!("pinned the heat at {heat:.2}")),
        DebateEvent::TemperatureReleased => (SteerKind::Release, "released the heat to the judge".into()),
        DebateEvent::ResolutionForced => (SteerKind::Force, "forced a resolution".into()),
        DebateEvent::TurnCancelled { round, role } => {
            (SteerKind::Cancel, format!("cancelled the {}'s turn in round {}", role.key(), round + 1))
        }
        DebateEvent::TurnDiscarded { round, role } => (
            SteerKind::Again,
            format!("asked the {} again in round {} (its answer kept as discarded)", role.key(), round + 1),
        ),
        DebateEvent::Reopened => (SteerKind::Reopen, "reopened the session".into()),
        DebateEvent::NoteToSeats { text, seats } => {
            let to: Vec<&str> = seats.iter().map(|r| r.key()).collect();
            (SteerKind::Inject, format!("sent the {} alone a note: {}", to.join(" and the "), clean(text)))
        }
        DebateEvent::SeatHeatPinned { role, heat } => {
            (SteerKind::Pin, format!("pinned the {}'s heat at {heat:.2}", role.key()))
        }
        DebateEvent::SeatHeatReleased { role } => (SteerKind::Release, format!("released the {}'s heat", role.key())),
        DebateEvent::QuestionSet { question } => {
            (SteerKind::Question, format!("set the next question: {}", clean(question)))
        }
        DebateEvent::SteeringTakenBack { what } => {
            (SteerKind::TakeBack, format!("took back {}", clean(&what.describe(|r| r.key().to_string()))))
        }
        DebateEvent::SeatModelChanged { role, participant } => (
            SteerKind::Model,
            format!("put the {} on {}/{}", role.key(), clean(&participant.provider), clean(&participant.model)),
        ),
        DebateEvent::RoundsAdded { rounds } => {
            (SteerKind::More, format!("asked for {}", crate::words::count(*rounds as usize, "more round")))
        }
        _ => return None,
    })
}
