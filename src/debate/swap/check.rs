//! Where a round's swap check stands: the record a round keeps of the
//! judge asked again with the sides swapped, and the mark it shows.

use serde::{Deserialize, Serialize};

use crate::debate::verdict::Verdict;
use crate::provider::Usage;

/// The badge a round whose verdict flips on swap carries.
pub const FLIPS: &str = "verdict flips on swap";
/// What a round shows when its swap check could not be used.
pub const FAILED: &str = "swap check failed";

/// Where a round's swap check stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum SwapCheck {
    /// Asked; no answer yet.
    Asking,
    /// Answered: the second verdict with its sides named again, and
    /// whether it disagrees with the round's verdict.
    Answered {
        verdict: Verdict,
        flips: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
    /// The call failed or its answer could not be read.
    Failed {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
    },
}

impl SwapCheck {
    /// What the check's call used, when it said.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            SwapCheck::Asking => None,
            SwapCheck::Answered { usage, .. } | SwapCheck::Failed { usage, .. } => *usage,
        }
    }

    /// The mark a round shows for its check: the badge when the verdict
    /// flips, that the check failed, or nothing.
    pub fn mark(&self) -> Option<&'static str> {
        match self {
            SwapCheck::Answered { flips: true, .. } => Some(FLIPS),
            SwapCheck::Failed { .. } => Some(FAILED),
            SwapCheck::Asking | SwapCheck::Answered { flips: false, .. } => None,
        }
    }
}
