//! Provider set-up: which model plays each role and how it is built.
//! `discover` finds what this machine offers (keys, an Ollama server, a
//! custom OpenAI-compatible server, the offline model), `choose` decides
//! each role's provider and model, `endpoints` builds the HTTP models,
//! `local` the embedded one, and `build` the engine set-up around them.
//! Defaults are read from the config's default file (`Config::defaulted`).

pub mod build;
pub mod choose;
pub mod discover;
pub mod endpoints;
pub mod local;
pub mod panel;
#[cfg(test)]
mod testing;

use std::fmt;

use crate::config::Config;
use crate::debate::Role;
use crate::debate::engine::EngineSetup;

pub use build::{LocalLoader, build, model_notices};
pub use choose::select;
pub use discover::{Environment, discover, ollama_base};
pub use endpoints::{base_url, http_model, structured_setting};

/// A provider family heat can talk to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Anthropic,
    OpenAi,
    Ollama,
    Local,
}

impl ProviderKind {
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "anthropic" => Some(Self::Anthropic),
            "openai" => Some(Self::OpenAi),
            "ollama" => Some(Self::Ollama),
            "local" => Some(Self::Local),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAi => "openai",
            Self::Ollama => "ollama",
            Self::Local => "local",
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a role will use, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleChoice {
    pub role: Role,
    pub kind: ProviderKind,
    pub model: String,
    pub why: String,
}

/// The choice for every role, plus anything the user should be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub roles: Vec<RoleChoice>,
    pub notices: Vec<String>,
}

impl Selection {
    pub fn uses(&self, kind: ProviderKind) -> bool {
        self.roles.iter().any(|r| r.kind == kind)
    }
}

impl Selection {
    /// Whether a local role runs the configured model file (not one of its
    /// own), which must then be installed first.
    pub fn needs_configured_model(&self) -> bool {
        self.roles.iter().any(|r| r.kind == ProviderKind::Local && r.own_gguf().is_none())
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
        (self.kind == ProviderKind::Local && is_gguf(&self.model)).then_some(self.model.as_str())
    }
}

/// Which provider and model each role uses, from what this machine offers.
pub async fn selection(config: &Config) -> anyhow::Result<Selection> {
    let env = discover(config).await;
    select(config, &env)
}

/// Builds the engine set-up for a selection (loading the offline model if a
/// role uses it; its file must be in place), with the notices to show (the
/// selection's, then the loaded models').
pub fn engine(config: &Config, selection: &Selection) -> anyhow::Result<(EngineSetup, Vec<String>)> {
    let loader = if selection.uses(ProviderKind::Local) { local::loader(config) } else { None };
    let setup = build(config, selection, loader.as_deref())?;
    let mut notices = selection.notices.clone();
    notices.extend(model_notices(&setup));
    Ok((setup, notices))
}
