//! The status line's sentence: what it says, in which tone, and how long it
//! stands. Each sentence goes once what it describes is over (a cancel once
//! no turn streams, an acknowledgement once the next round starts, a
//! retry's announcement once the answer flows again), or when a newer one
//! replaces it.

use crate::debate::state::Turn;
use crate::debate::{DebateEvent, DebateState, Role};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Good,
    Warn,
    Error,
}

/// A sentence in the status line.
#[derive(Debug, Clone, PartialEq)]
pub struct Flash {
    pub text: String,
    pub tone: Tone,
    pub until: Until,
}

/// How long a sentence stands in the status line: each goes once what it
/// describes is over, or when a newer one replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Until something newer is said: errors, the debate's ending, news
    /// from the engine.
    Replaced,
    /// Until the next round starts or the debate ends: what a key did, or
    /// why it did nothing.
    NextRound,
    /// Until no turn streams any more (or the next round starts): a cancel
    /// under way.
    Settled,
    /// Until the debate resumes or ends: the pause note.
    Resumed,
    /// Until that role's answer flows again: a retry's announcement.
    Answer(Role),
}

impl Until {
    /// Whether a sentence lasting this long has had its say once `event`
    /// is folded into `state`.
    pub fn over(self, event: &DebateEvent, state: &DebateState) -> bool {
        let ended = matches!(event, DebateEvent::Finished { .. });
        let next_round = ended || matches!(event, DebateEvent::RoundStarted { .. });
        match self {
            Until::Replaced => false,
            Until::NextRound => next_round,
            Until::Settled => next_round || !state.current_round().is_some_and(|r| r.turns.iter().any(Turn::is_open)),
            Until::Resumed => ended || matches!(event, DebateEvent::Resumed),
            Until::Answer(role) => match event {
                DebateEvent::Delta { role: r, .. } | DebateEvent::TurnCompleted { role: r, .. } => *r == role,
                _ => ended,
            },
        }
    }
}
