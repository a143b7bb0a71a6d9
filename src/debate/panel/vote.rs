//! Where one panel judge's vote on a round stands: the record a round
//! keeps of each judge beside the chair.

use serde::{Deserialize, Serialize};

use crate::debate::verdict::Verdict;
use crate::provider::Usage;

/// Where one panel judge's vote on a round stands (the chair's is its turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Vote {
    /// Asked; no answer yet.
    Asking,
    Voted {
        verdict: Verdict,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// No answer, or none that could be read: this judge is outvoted.
    Failed {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
}

impl Vote {
    pub fn is_settled(&self) -> bool {
        !matches!(self, Vote::Asking)
    }

    pub fn usage(&self) -> Option<Usage> {
        match self {
            Vote::Asking => None,
            Vote::Voted { usage, .. } | Vote::Failed { usage, .. } => *usage,
        }
    }
}
