//! Provider set-up: which model plays each role and how it is built.
//! `discover` finds what this machine offers (keys, an Ollama server, a
//! custom OpenAI-compatible server, the offline model), `choose` decides
//! each role's provider and model, `endpoints` builds the HTTP models,
//! `local` the embedded one, and `build` the engine set-up around them;
//! `models` asks an endpoint which models it serves.
//! Defaults are read from the config's default file (`Config::defaulted`).

pub mod agents;
pub mod build;
pub mod choose;
pub mod discover;
pub mod endpoints;
pub mod local;
pub mod mcp;
pub mod models;
pub mod panel;
pub mod probed;
mod selection;
#[cfg(test)]
mod testing;

use crate::config::Config;
use crate::debate::engine::EngineSetup;

pub use build::{LocalLoader, build, model_notices};
pub use choose::select;
pub use discover::{Environment, ServerLimits, discover};
pub use endpoints::{base_url, headers, http_model, ollama_base, structured_setting};
pub use selection::{ProviderKind, RoleChoice, Selection, is_gguf};

/// Which provider and model each role uses, from what this machine offers.
pub async fn selection(config: &Config) -> anyhow::Result<Selection> {
    let env = discover(config).await;
    select(config, &env)
}

/// Builds the engine set-up for a selection (loading the offline model if a
/// role uses it; its file must be in place), with the notices to show (the
/// selection's, then the loaded models').
pub fn engine(config: &Config, selection: &Selection) -> anyhow::Result<(EngineSetup, Vec<String>)> {
    let loader = if selection.uses(ProviderKind::LOCAL) { local::loader(config) } else { None };
    let setup = build(config, selection, loader.as_deref())?;
    let mut notices = selection.notices.clone();
    notices.extend(model_notices(&setup));
    Ok((setup, notices))
}
