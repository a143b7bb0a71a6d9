//! What a turn that has not said its first word waits for, as its pane's
//! title and body say it: a server's seat waits on the server (its queue
//! included), or first in heat's own queue for one of its slots; the
//! embedded model thinks; an agent CLI is at work; a person's seat waits on the person, told "your
//! turn" only where that person is at the keyboard (not in a watch or a
//! replay); a turn that stopped for tool calls waits for their answers,
//! or, paused once they are in, for the resume.

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
    /// Its answer stopped for tool calls that have not all been answered.
    LookingUp,
    /// What it looked up is in, and the debate is paused: it is asked on
    /// at the resume (nothing runs meanwhile).
    Looked,
}

impl Wait {
    /// What `turn`'s seat waits for, whatever it has said so far;
    /// `person_here`: this screen is the one a seated person answers on.
    pub fn of(state: &DebateState, turn: &Turn, person_here: bool) -> Self {
        if let Some(step) = turn.tools.last().filter(|_| turn.text.is_empty()) {
            if step.calls.iter().any(|u| u.answer.is_none()) {
                return Self::LookingUp;
            }
            if state.paused {
                return Self::Looked;
            }
        }
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

    /// Whether `role`'s turn is held after its look-up: nothing of it runs
    /// until the resume (a paused debate's turn that does not finish).
    pub fn held(state: &DebateState, role: crate::debate::Role) -> bool {
        let turn = state.current_round().and_then(|r| r.turn(role));
        turn.is_some_and(|turn| turn.is_open() && Self::of(state, turn, false) == Self::Looked)
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
            Self::LookingUp => "looking things up",
            Self::Looked => "held",
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
            Self::LookingUp => "looking things up…",
            Self::Looked => "what it looked up is in; it goes on when you resume",
        }
    }

    /// The line a turn that has said nothing yet, text or reasoning, shows.
    pub fn silent_line(state: &DebateState, turn: &Turn, person_here: bool) -> Option<&'static str> {
        let silent = turn.status == TurnStatus::Streaming && turn.text.is_empty() && turn.reasoning.is_empty();
        silent.then(|| Self::of(state, turn, person_here).line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::event::{DebateEvent, TurnPurpose};
    use crate::debate::{Heat, Role};
    use crate::provider::ToolCall;

    fn looking_up() -> DebateState {
        let mut state = DebateState::default();
        let participants = vec![Participant::new(Role::Advocate, "openai", "gpt-4o")];
        state.apply(&DebateEvent::Started {
            topic: "t".into(),
            max_rounds: 1,
            initial_heat: Heat::new(0.9),
            participants,
        });
        state.apply(&DebateEvent::RoundStarted {
            round: 0,
            topic: "t".into(),
            heat: Heat::new(0.9),
            injected: Vec::new(),
        });
        let (round, role) = (0, Role::Advocate);
        state.apply(&DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(0.9) });
        let call = ToolCall { id: "c1".into(), name: "search".into(), arguments: "{}".into() };
        state.apply(&DebateEvent::ToolsCalled { round, role, calls: vec![call], usage: None });
        state
    }

    fn wait(state: &DebateState) -> Wait {
        Wait::of(state, state.rounds[0].turn(Role::Advocate).expect("a turn"), false)
    }

    #[test]
    fn a_turn_waits_for_its_calls_then_for_the_resume_then_for_the_server() {
        let mut state = looking_up();
        assert_eq!(wait(&state), Wait::LookingUp);
        state.apply(&DebateEvent::Paused);
        assert_eq!(wait(&state), Wait::LookingUp, "a call still running finishes while paused");
        assert!(!Wait::held(&state, Role::Advocate));
        let (round, role) = (0, Role::Advocate);
        state.apply(&DebateEvent::ToolAnswered {
            round,
            role,
            id: "c1".into(),
            text: "x".into(),
            failed: false,
            millis: 1,
        });
        assert_eq!(wait(&state), Wait::Looked);
        assert!(Wait::held(&state, Role::Advocate), "nothing of it runs until the resume");
        state.apply(&DebateEvent::Resumed);
        assert_eq!(wait(&state), Wait::Server);
    }
}
