//! A debater's argument put in brief by its own model, for the prompts
//! that give its round in brief (`debate.summaries = "model"`); or why the
//! model could not, its first sentence standing for it.

use serde::{Deserialize, Serialize};

use crate::provider::Usage;

/// What the model wrote, or why it did not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "k")]
pub enum Brief {
    Written {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    Failed {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
}

impl Brief {
    /// What the model wrote, when it did.
    pub fn text(&self) -> Option<&str> {
        match self {
            Brief::Written { text, .. } => Some(text),
            Brief::Failed { .. } => None,
        }
    }

    /// What asking for it spent.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            Brief::Written { usage, .. } | Brief::Failed { usage, .. } => *usage,
        }
    }
}
