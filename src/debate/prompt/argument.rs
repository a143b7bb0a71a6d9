//! How one seat's argument reads in another's prompt: its settled text,
//! marked where it stopped at the token limit, or a note that there is
//! none; and the sentences a brief prompt adds after it, which the embedded
//! judge never quotes back as an argument.

use crate::debate::seat::Role;
use crate::debate::state::{Round, TurnStatus};

/// What a tiny model's brief prompt asks it to do with one other seat's
/// point, or with several.
pub const ANSWER_THAT_POINT: &str = "Answer that point first.";
pub const WEIGH_THOSE_POINTS: &str = "Weigh those points first.";

/// A settled argument as another role reads it, marked where it stopped at
/// the token limit (so the judge does not take a cut for a conclusion).
pub fn read_argument(round: &Round, role: Role) -> String {
    let Some(turn) = round.turn(role).filter(|t| t.is_settled()) else {
        let failed = round.turn(role).is_some_and(|t| matches!(t.status, TurnStatus::Failed { .. }));
        return if failed { "(no argument: it sat this round out)" } else { "(no argument)" }.into();
    };
    let text = non_empty_str(&turn.text).trim();
    match turn.truncated_at {
        Some(tokens) => format!("{text} [cut off here: the argument reached its limit of {tokens} tokens]"),
        None if turn.possibly_cut => {
            format!("{text} [it may have been cut off here: the server ended it mid-sentence]")
        }
        None => text.to_string(),
    }
}

pub fn non_empty(text: &str) -> String {
    non_empty_str(text).to_string()
}

pub fn non_empty_str(text: &str) -> &str {
    if text.trim().is_empty() { "(no argument)" } else { text }
}
