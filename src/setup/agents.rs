//! The agent CLIs as the config sets them up: a preset's command (or the
//! one its block gives), how its output is read, the variables it is
//! given, the flag that names a model, and the time limits it runs under.

use std::time::Duration;

use anyhow::Context;

use crate::config::Config;
use crate::provider::ProviderKind;
use crate::provider::agent::{AgentSpec, Dialect, preset, reading};

/// How `kind`'s agent CLI runs, as the config says; `None` for a provider
/// that is not one.
pub fn spec(config: &Config, kind: ProviderKind) -> anyhow::Result<Option<AgentSpec>> {
    if !kind.is_agent() {
        return Ok(None);
    }
    let name = kind.name();
    let preset = preset(name);
    let key = |leaf: &str| format!("providers.{name}.{leaf}");
    // The block's own command replaces the preset's (its flags, its schema option, its login check).
    let replaced = config.words(&key("command")).is_some();
    let mut command: Vec<String> = match config.words(&key("command")) {
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
    let mut files: Vec<(String, String)> =
        preset.into_iter().flat_map(|p| p.files.iter()).map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect();
    // Arguments added to the command (a preset's kept, with what heat adds to it).
    let added = config.words(&key("args")).unwrap_or_default();
    command.extend(added.iter().cloned());
    let reads = read_dir(config, name)?;
    if let Some(dir) = &reads {
        if preset.is_none() || replaced {
            anyhow::bail!(
                "`{}` = \"read\" is for the presets (claude, codex, gemini) as heat runs them; a command of your own \
                 may read what its own arguments allow",
                key("tools")
            );
        }
        reading(name, &mut command, &mut files, dir);
    }
    // A preset's login check, while the block leaves how it reaches its model alone (`args` or
    // `command` give a provider of the user's own, which that check knows nothing of); run as its program.
    let login_check = preset.and_then(|p| p.login_check).filter(|_| !replaced && added.is_empty()).map(|check| {
        let program = command.first().cloned().unwrap_or_default();
        std::iter::once(program).chain(check.iter().skip(1).map(|w| (*w).to_string())).collect()
    });
    Ok(Some(AgentSpec {
        name,
        files,
        title: preset.map_or_else(|| name.to_string(), |p| p.title.to_string()),
        command,
        dialect,
        env,
        model_arg,
        // A command of the user's own is held to no schema: it rides in the prompt.
        schema_arg: preset.and_then(|p| p.schema_arg).filter(|_| !replaced),
        install: preset.map(|p| p.install.to_string()),
        login: preset.map(|p| p.login.to_string()),
        login_check,
        reads,
        first_byte: Duration::from_secs(config.defaulted("network.first_byte_timeout_secs")),
        idle: Duration::from_secs(config.defaulted("network.idle_timeout_secs")),
    }))
}

/// The folder an agent CLI may read (`tools = "read"`, `read_dir`), as an
/// absolute path; `None` when its tools are off.
fn read_dir(config: &Config, name: &str) -> anyhow::Result<Option<String>> {
    let tools = format!("providers.{name}.tools");
    let dir_key = format!("providers.{name}.read_dir");
    match (config.text(&tools).unwrap_or("off"), config.text(&dir_key)) {
        ("read", Some(dir)) => {
            let expanded = crate::config::home_path(dir);
            let path = std::fs::canonicalize(&expanded).with_context(|| {
                format!("{}: `{dir_key}` = {dir:?} is not a folder heat can open", config.place(&dir_key))
            })?;
            if !path.is_dir() {
                anyhow::bail!("{}: `{dir_key}` = {dir:?} is a file; name the folder to read", config.place(&dir_key));
            }
            Ok(Some(path.to_string_lossy().into_owned()))
        }
        ("read", None) => anyhow::bail!(
            "{}: `{tools}` = \"read\" names no folder: set {dir_key} to the folder the CLI may read",
            config.place(&tools)
        ),
        (_, Some(_)) => anyhow::bail!(
            "{}: `{dir_key}` is set but {tools} is not \"read\": the CLI's tools are off, so it reads nothing",
            config.place(&dir_key)
        ),
        _ => Ok(None),
    }
}
