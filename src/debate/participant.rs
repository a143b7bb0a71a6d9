//! Who sits in a seat: the provider and model a role is asked on, and
//! what answered there (the model the server named, the agent CLI).

use serde::{Deserialize, Serialize};

use super::seat::Role;
use crate::provider::ProviderKind;

/// Who speaks for a role: which provider and model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    pub role: Role,
    pub provider: String,
    /// The model heat asked for.
    pub model: String,
    /// The model the server said answered, when it named another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served: Option<String>,
    /// The agent CLI that answered here and its version (`Claude Code
    /// 2.1.197`), where one sits in the seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

/// Who answers in a seat a person takes, as the export and the report say it.
pub const AT_THE_KEYBOARD: &str = "a person at the keyboard";

impl Participant {
    /// `provider`'s `model` in `role`'s seat.
    pub fn new(role: Role, provider: impl Into<String>, model: impl Into<String>) -> Self {
        Self { role, provider: provider.into(), model: model.into(), served: None, agent: None }
    }

    /// Whether it is the embedded model, as its provider's row of the
    /// provider table says (not as its name reads).
    pub fn is_embedded(&self) -> bool {
        ProviderKind::names_embedded(&self.provider)
    }

    /// Whether a person at the keyboard takes this seat.
    pub fn is_person(&self) -> bool {
        ProviderKind::names_person(&self.provider)
    }

    /// Whether an agent CLI answers for this seat (as the log recorded it,
    /// or as its provider's row says).
    pub fn is_agent(&self) -> bool {
        self.agent.is_some() || ProviderKind::from_name(&self.provider).is_some_and(ProviderKind::is_agent)
    }

    /// Who names the model that answered here: its agent CLI (`Claude
    /// Code`, or a command's provider name), else its server.
    pub fn reporter(&self) -> String {
        if !self.is_agent() {
            return "the server".into();
        }
        crate::provider::agent::preset(&self.provider).map_or_else(|| self.provider.clone(), |p| p.title.to_string())
    }

    /// Whether a server answers for this seat: time before its first word
    /// is spent waiting on the server (its queue included), not thinking
    /// in-process.
    pub fn is_served(&self) -> bool {
        ProviderKind::names_server(&self.provider)
    }

    /// The model to show: the one that answered, where the server said.
    pub fn shown_model(&self) -> &str {
        self.served.as_deref().unwrap_or(&self.model)
    }
}
