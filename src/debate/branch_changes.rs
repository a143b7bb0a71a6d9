//! What a branch changes for the rounds it goes on with (its question,
//! heat, notes, round limit and a panel's seats), recorded on its
//! `Branched` event, and said in words for its record.

use serde::{Deserialize, Serialize};

use super::format::FormatRecord;
use super::heat::Heat;

/// What a branch changes for the rounds it goes on with, beyond its seats.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BranchChanges {
    /// The next round's question, instead of the last verdict's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The next round's heat, instead of the last verdict's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<Heat>,
    /// A heat pinned from here on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Heat>,
    /// Notes for the next round's prompts, as an injection.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub injected: Vec<String>,
    /// Another round limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    /// A panel's judges 2… on other providers or models (`--seat judge2=…`):
    /// they replace the format record's from here on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<Box<PanelSeats>>,
}

/// Where a panel's judges 2… sit, as the format record keeps it: judge
/// `n`'s provider and model at index `n - 2`, empty for the chair's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanelSeats {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
}

impl PanelSeats {
    /// The panel a format record seats.
    pub fn of(record: &FormatRecord) -> Self {
        Self { providers: record.panel_providers.clone(), models: record.panel_models.clone() }
    }

    /// Seats this panel in `record`.
    pub fn seat(&self, record: &mut FormatRecord) {
        record.panel_providers.clone_from(&self.providers);
        record.panel_models.clone_from(&self.models);
    }
}

impl BranchChanges {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// What a branch changed, in words, for its record: the seats' changes
    /// (`sides swapped`, `seat judge=MODEL`), then these.
    pub fn describe(&self, mut changes: Vec<String>) -> String {
        if let Some(question) = &self.question {
            changes.push(format!("question \"{}\"", question.trim()));
        }
        if let Some(heat) = self.heat {
            changes.push(format!("heat {heat:.2}"));
        }
        if let Some(heat) = self.pinned {
            changes.push(format!("heat pinned at {heat:.2}"));
        }
        changes.extend(self.injected.iter().map(|note| format!("note \"{}\"", note.trim())));
        if let Some(max) = self.max_rounds {
            changes.push(format!("up to {max} rounds"));
        }
        if changes.is_empty() { "goes on as it was".into() } else { changes.join(", ") }
    }

    /// [`BranchChanges::describe`], then what the branch keeps of its
    /// parent (`kept`, in words), so its record says the heat and notes it
    /// actually runs with.
    pub fn describe_keeping(&self, changes: Vec<String>, kept: &[String]) -> String {
        let how = self.describe(changes);
        if kept.is_empty() { how } else { format!("{how}; keeps {}", kept.join(", ")) }
    }
}
