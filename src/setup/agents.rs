//! The agent CLIs as the config sets them up: a preset's command (or the
//! one its block gives), how its output is read, the variables it is
//! given, the flag that names a model, and the time limits it runs under.

use std::time::Duration;

use anyhow::Context;

use crate::config::Config;
use crate::provider::ProviderKind;
use crate::provider::agent::{AgentSpec, Dialect, preset};

/// How `kind`'s agent CLI runs, as the config says; `None` for a provider
/// that is not one.
pub fn spec(config: &Config, kind: ProviderKind) -> anyhow::Result<Option<AgentSpec>> {
    if !kind.is_agent() {
        return Ok(None);
    }
    let name = kind.name();
    let preset = preset(name);
    let key = |leaf: &str| format!("providers.{name}.{leaf}");
    let command: Vec<String> = match config.words(&key("command")) {
        Some(words) => words.to_vec(),
        None => preset.map(|p| p.command.iter().map(|w| (*w).to_string()).collect()).unwrap_or_default(),
    };
    let dialect = match config.text(&key("output")) {
        Some(output) => Dialect::from_setting(output)
            .with_context(|| format!("`{}` must be one of {}", key("output"), Dialect::NAMES.join(", ")))?,
        None => preset.map_or(Dialect::Text, |p| p.dialect),
    };
    let env_table = key("env");
    let names: Vec<String> = config.names_under(&env_table).map(str::to_string).collect();
    let own = preset.into_iter().flat_map(|p| p.env.iter()).map(|(k, v)| ((*k).to_string(), (*v).to_string()));
    let given = names
        .into_iter()
        .filter_map(|var| Some((var.clone(), config.text(&format!("{env_table}.{var}"))?.to_string())));
    // The block's variables come last: they win over the preset's.
    let env = own.chain(given).collect();
    let model_arg = config.text(&key("model_arg")).map(str::to_string).or(preset.map(|p| p.model_arg.to_string()));
    let files = preset.into_iter().flat_map(|p| p.files.iter()).map(|(k, v)| ((*k).to_string(), (*v).to_string()));
    Ok(Some(AgentSpec {
        name,
        files: files.collect(),
        title: preset.map_or_else(|| name.to_string(), |p| p.title.to_string()),
        command,
        dialect,
        env,
        model_arg,
        // A command of the user's own is held to no schema: it rides in the prompt.
        schema_arg: preset.and_then(|p| p.schema_arg).filter(|_| config.words(&key("command")).is_none()),
        install: preset.map(|p| p.install.to_string()),
        login: preset.map(|p| p.login.to_string()),
        first_byte: Duration::from_secs(config.defaulted("network.first_byte_timeout_secs")),
        idle: Duration::from_secs(config.defaulted("network.idle_timeout_secs")),
    }))
}
