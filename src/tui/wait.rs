//! What a turn that has not said its first word waits for, as its pane's
//! title and body say it: a server's seat waits on the server (its queue
//! included), or first in heat's own queue for one of its slots; the
//! embedded model thinks; an agent CLI is at work; a person's seat waits on the person, told "your
//! turn" only where that person is at the keyboard (not in a watch or a
//! replay).

use crate::debate::DebateState;
use crate::debate::event::Participant;
use crate::debate::state::{Turn, TurnStatus};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    Queued,
    Server,
    Thinking,
    /// An agent CLI runs the turn (it starts, reads its prompt, asks its model).
    Agent,
    /// A person writes the seat's turn; `here`: at this keyboard.
    Person {
        here: bool,
    },
}

impl Wait {
    /// What `turn`'s seat waits for, whatever it has said so far;
    /// `person_here`: this screen is the one a seated person answers on.
    pub fn of(state: &DebateState, turn: &Turn, person_here: bool) -> Self {
        if state.seated_person(turn.role) {
            return Self::Person { here: person_here };
        }
        if state.participant(turn.role).is_some_and(Participant::is_agent) {
            return Self::Agent;
        }
        let served = state.participant(turn.role).is_some_and(Participant::is_served);
        match (turn.queued, served) {
            (true, _) => Self::Queued,
            (false, true) => Self::Server,
            (false, false) => Self::Thinking,
        }
    }

    /// As a pane's title says it, before its clock.
    pub fn label(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Server => "waiting for the server",
            Self::Thinking => "thinking",
            Self::Agent => "waiting for the CLI",
            Self::Person { here: true } => "your turn",
            Self::Person { here: false } => "waiting for the person",
        }
    }

    /// As the pane's body says it.
    pub fn line(self) -> &'static str {
        match self {
            Self::Queued => "queued for one of the server's slots…",
            Self::Server => "waiting for the server…",
            Self::Thinking => "thinking…",
            Self::Agent => "waiting for the agent CLI…",
            Self::Person { here: true } => "your turn: Enter writes it",
            Self::Person { here: false } => "waiting for the person at the keyboard…",
        }
    }

    /// The line a turn that has said nothing yet, text or reasoning, shows.
    pub fn silent_line(state: &DebateState, turn: &Turn, person_here: bool) -> Option<&'static str> {
        let silent = turn.status == TurnStatus::Streaming && turn.text.is_empty() && turn.reasoning.is_empty();
        silent.then(|| Self::of(state, turn, person_here).line())
    }
}
