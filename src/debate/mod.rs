//! The debate protocol, free of any UI or concrete provider: events and
//! commands, the reducer, the planner, prompts, verdict parsing and the
//! engine that drives them.

pub mod engine;
pub mod event;
pub mod plan;
pub mod prompt;
pub mod state;
pub mod verdict;

pub use event::{Command, DebateEvent, Outcome, Participant, Role, TurnPurpose};
pub use state::DebateState;
pub use verdict::Verdict;
