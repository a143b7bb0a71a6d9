//! The debate protocol, free of any UI or concrete provider: events and
//! commands, the reducer, the planner, prompts, verdict parsing and the
//! engine that drives them.

pub mod answer;
pub mod argument_map;
pub mod audience;
pub mod ballot;
pub mod branch_changes;
pub mod briefing;
pub mod budget;
pub mod call;
pub mod command;
pub mod convergence;
pub mod cost;
pub mod engine;
pub mod event;
pub mod extractive;
pub mod facts;
pub mod format;
pub mod grounding;
pub mod guard;
pub mod heard;
pub mod heat;
pub mod issues;
pub mod looking_up;
mod notices;
pub mod outcome;
pub mod panel;
pub mod participant;
pub mod plan;
pub mod prompt;
pub mod recipe;
pub mod refusal;
pub mod scores;
pub mod seat;
pub mod sections;
pub mod sent;
mod setup;
pub mod stance;
pub mod standing;
pub mod state;
pub mod summary;
pub mod swap;
pub mod temperature;
pub mod trace;
pub mod verdict;
pub mod vote;

pub use command::Command;
pub use event::{BranchChanges, DebateEvent, Participant, TurnPurpose};
pub use heat::Heat;
pub use notices::endpoint_label;
pub use outcome::Outcome;
pub use seat::{PanelJudge, Role, SEATS, Seat, Side};
pub use state::DebateState;
pub use verdict::Verdict;

/// The mark shown where a turn the server said ended stops mid-sentence,
/// well short of its limit.
pub const POSSIBLY_CUT: &str = "⚠ possibly cut: the server ended it mid-sentence";

/// The mark shown where a turn stopped at its token limit: `✂ cut at 1,024 tokens`.
pub fn cut_note(tokens: u32) -> String {
    format!("✂ cut at {} tokens", crate::words::thousands(u64::from(tokens)))
}

/// How a debater's turn cut by its time limit (`debate.turn_seconds`) is marked.
pub fn time_note(seconds: u32) -> String {
    format!("✂ time: cut at its {seconds} s limit")
}

#[cfg(test)]
mod tests {
    #[test]
    fn cut_notes_group_thousands() {
        assert_eq!(super::cut_note(7), "✂ cut at 7 tokens");
        assert_eq!(super::cut_note(1024), "✂ cut at 1,024 tokens");
        assert_eq!(super::cut_note(1_000_000), "✂ cut at 1,000,000 tokens");
    }
}
