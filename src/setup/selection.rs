//! What a debate will run on: the provider family of each role, the model
//! it plays, and why it was chosen.

use crate::debate::Role;
pub use crate::provider::ProviderKind;

/// What a role will use, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleChoice {
    pub role: Role,
    pub kind: ProviderKind,
    pub model: String,
    pub why: String,
    /// What its tokens cost: the configured price, else the one its
    /// endpoint's model list carries; `None`: unknown, never guessed.
    pub price: Option<crate::debate::cost::Price>,
}

/// The choice for every role, plus anything the user should be told.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub roles: Vec<RoleChoice>,
    pub notices: Vec<String>,
    /// What the OpenAI-compatible server said of its slots and context.
    pub openai_limits: super::discover::ServerLimits,
}

impl Selection {
    /// Every seat's price that is known, with the panel judges' own (`judges`).
    pub fn prices(
        &self,
        judges: Vec<(crate::debate::PanelJudge, crate::debate::cost::Price)>,
    ) -> crate::debate::cost::Prices {
        let seats = self.roles.iter().filter_map(|r| Some((r.role, r.price?))).collect();
        crate::debate::cost::Prices { seats, judges }
    }

    pub fn uses(&self, kind: ProviderKind) -> bool {
        self.roles.iter().any(|r| r.kind == kind)
    }

    /// Whether a local role runs the configured model file (not one of its
    /// own), which must then be installed first.
    pub fn needs_configured_model(&self) -> bool {
        self.roles.iter().any(|r| r.kind.is_embedded() && r.own_gguf().is_none())
    }
}

/// Whether a model name is a GGUF file for the embedded model.
pub fn is_gguf(model: &str) -> bool {
    std::path::Path::new(model).extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf"))
}

impl RoleChoice {
    /// The GGUF file a local role names for itself (`roles.<role>.model`);
    /// `None` for the configured one, or a role that is not local.
    pub fn own_gguf(&self) -> Option<&str> {
        (self.kind.is_embedded() && is_gguf(&self.model)).then_some(self.model.as_str())
    }
}
