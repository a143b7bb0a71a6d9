//! The endpoints heat.toml defines: a `[providers.NAME]` block with a
//! `kind` (the row whose wire and usual values it takes), checked once the
//! file, the environment and the flags are read. Each gets its key from
//! the variable it names (`api_key_env`) and becomes a row of the provider
//! table, so a seat, `--seat NAME:MODEL`, a format and an error sentence
//! find it by name. Then every role's provider is checked against the
//! table, endpoints included.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::bail;

use super::keys::{self, AGENT_LEAVES, ENDPOINT_TABLE};
use super::value::{Entry, Source, Value};
use crate::provider::kind::{Definition, PROVIDERS, register};
use crate::provider::{ProviderKind, Wire};

/// The config's values as read so far, by key.
type Entries = BTreeMap<String, Entry>;

/// What reading the values asks of them, as `Config` answers it: a key's
/// text, where it was set, the names under a table.
trait Read {
    fn text(&self, key: &str) -> Option<&str>;
    fn place(&self, key: &str) -> String;
    fn names_under<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a str> + 'a;
}

impl Read for Entries {
    fn text(&self, key: &str) -> Option<&str> {
        match &self.get(key)?.value {
            Value::Text(s) if !s.trim().is_empty() => Some(s.trim()),
            _ => None,
        }
    }

    fn place(&self, key: &str) -> String {
        super::parse::place(self.get(key), key)
    }

    fn names_under<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.keys().filter_map(move |key| key.strip_prefix(table)?.strip_prefix('.'))
    }
}

/// Checks and registers every endpoint the values define, then every
/// role's provider.
pub(super) fn define(config: &mut Entries, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    for name in block_names(config) {
        check_headers(config, &name)?;
        let built_in = PROVIDERS.iter().find(|row| row.name.eq_ignore_ascii_case(&name));
        match built_in {
            Some(row) if row.wire == Wire::Agent => {
                refuse_kind(config, row.name)?;
                check_agent_keys(config, row.name)?;
            }
            Some(row) if !row.wire.is_server() => refuse_server_keys(config, row.name)?,
            Some(row) => {
                refuse_agent_keys(config, row.name)?;
                refuse_kind(config, row.name)?;
                read_key(config, row.name, None, env);
            }
            None => define_one(config, &name, env)?,
        }
    }
    check_role_providers(config)
}

/// A block named after one of heat's own providers takes no `kind`: it has one.
fn refuse_kind(config: &Entries, name: &str) -> anyhow::Result<()> {
    if config.get(&format!("providers.{name}.kind")).is_some() {
        bail!(
            "{}: [providers.{}] is heat's own provider and has its kind; define an endpoint of \
                         your own under another name ([providers.my-{}])",
            config.place(&format!("providers.{name}.kind")),
            name,
            name
        );
    }
    Ok(())
}

/// The leaf of `key` under `providers.NAME.` (`headers`, `command`…).
fn leaf<'a>(key: &'a str, name: &str) -> Option<&'a str> {
    let rest = key.strip_prefix("providers.")?.strip_prefix(name)?.strip_prefix('.')?;
    Some(rest.split('.').next().unwrap_or(rest))
}

/// An agent CLI's block takes only what a command needs (and a model):
/// a server's keys are said to be a server's.
fn check_agent_keys(config: &Entries, name: &str) -> anyhow::Result<()> {
    for key in config.keys() {
        let Some(leaf) = leaf(key, name) else { continue };
        if leaf != "model" && leaf != "kind" && !AGENT_LEAVES.contains(&leaf) {
            bail!(
                "{}: `{key}` is a server's key, and {name} is an agent CLI run as a command: its block takes \
                 command, args, output, env, model_arg, tools, read_dir and model",
                config.place(key)
            );
        }
    }
    Ok(())
}

/// A server's block takes none of an agent CLI's keys.
fn refuse_agent_keys(config: &Entries, name: &str) -> anyhow::Result<()> {
    for key in config.keys() {
        if leaf(key, name).is_some_and(|leaf| AGENT_LEAVES.contains(&leaf)) {
            bail!(
                "{}: `{key}` is for an agent CLI, and {name} is a server; a command of your own is a block with \
                 kind = \"command\"",
                config.place(key)
            );
        }
    }
    Ok(())
}

/// The names of the `[providers.NAME]` blocks the config holds.
fn block_names(config: &Entries) -> BTreeSet<String> {
    config
        .keys()
        .filter_map(|key| key.strip_prefix("providers.")?.split_once('.').map(|(name, _)| name.to_string()))
        .collect()
}

/// Each of an endpoint's headers is one an HTTP request can carry: said
/// with its line, and without its value (a header may hold a key).
fn check_headers(config: &Entries, name: &str) -> anyhow::Result<()> {
    let table = format!("providers.{name}.headers");
    for header in config.names_under(&table) {
        let key = format!("{table}.{header}");
        let value = config.text(&key).unwrap_or_default();
        if reqwest::header::HeaderName::from_bytes(header.as_bytes()).is_err() {
            bail!("{}: `{header}` is not an HTTP header's name (letters, digits and - only)", config.place(&key));
        }
        if reqwest::header::HeaderValue::from_str(value).is_err() {
            bail!("{}: the header `{header}` holds characters no HTTP header can carry", config.place(&key));
        }
    }
    Ok(())
}

/// A block named after the embedded model or a person takes only its own
/// keys: no server's.
fn refuse_server_keys(config: &Entries, name: &str) -> anyhow::Result<()> {
    let specs = keys::all();
    let prefix = format!("providers.{name}.");
    for key in config.keys().filter(|k| k.starts_with(&prefix)) {
        let by_table = keys::find(&specs, key).is_none_or(|spec| spec.key.starts_with(ENDPOINT_TABLE));
        if by_table {
            bail!(
                "{}: unknown key `{key}`: {name} runs no server (see `heat config init` for every key)",
                config.place(key)
            );
        }
    }
    Ok(())
}

/// Checks one endpoint heat.toml defines and makes it a row of the table.
fn define_one(config: &mut Entries, name: &str, env: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    let kinds = || {
        let servers = PROVIDERS.iter().filter(|row| row.wire.is_server()).map(|row| format!("\"{}\"", row.name));
        servers.chain(std::iter::once("\"command\"".to_string())).collect::<Vec<_>>().join(", ")
    };
    let kind_key = format!("providers.{name}.kind");
    let Some(kind_name) = config.text(&kind_key) else {
        let first = config.keys().find(|k| k.starts_with(&format!("providers.{name}."))).cloned();
        bail!(
            "{}: [providers.{name}] is not a provider heat knows; to define an endpoint, give it a kind (the wire \
             it speaks and the preset it starts from): kind = one of {}",
            config.place(first.as_deref().unwrap_or(&kind_key)),
            kinds()
        );
    };
    if !keys::is_endpoint_name(name) {
        bail!(
            "{}: [providers.{name}]: an endpoint's name is letters, digits, - and _ (it is written `{name}:MODEL`)",
            config.place(&kind_key)
        );
    }
    if kind_name.eq_ignore_ascii_case("command") {
        return define_agent(config, name);
    }
    let kind = PROVIDERS
        .iter()
        .find(|row| row.wire.is_server() && row.name.eq_ignore_ascii_case(kind_name))
        .and_then(|row| ProviderKind::from_name(row.name));
    let Some(kind) = kind else {
        bail!("{}: `{kind_key}` must be one of {}, got {kind_name:?}", config.place(&kind_key), kinds());
    };
    refuse_agent_keys(config, name)?;
    let key_key = format!("providers.{name}.api_key");
    if let Some(Entry { source: Source::File(_) | Source::Studio(_), .. }) = config.get(&key_key) {
        bail!(
            "{}: an endpoint's key is never written in heat.toml; name the variable that holds it: \
             api_key_env = \"{}_API_KEY\"",
            config.place(&key_key),
            name.to_ascii_uppercase().replace('-', "_")
        );
    }
    let definition = Definition {
        name,
        kind,
        base_url: config.text(&format!("providers.{name}.base_url")),
        key_env: config.text(&format!("providers.{name}.api_key_env")),
        model: config.text(&format!("providers.{name}.model")),
    };
    let row = register(&definition);
    read_key(config, row.name(), row.row().key_env, env);
    Ok(())
}

/// An agent CLI of the user's own (`kind = "command"`): its command, checked,
/// and a row of the table.
fn define_agent(config: &Entries, name: &str) -> anyhow::Result<()> {
    check_agent_keys(config, name)?;
    let command = format!("providers.{name}.command");
    let given = matches!(config.get(&command), Some(Entry { value: Value::Words(words), .. }) if words.first().is_some_and(|p| !p.trim().is_empty()));
    if !given {
        bail!(
            "{}: [providers.{name}] runs a command: give it one, e.g. command = [\"my-agent\", \"--print\"] \
             (the prompt goes on its standard input)",
            config.place(&format!("providers.{name}.kind"))
        );
    }
    let definition = Definition {
        name,
        kind: ProviderKind::COMMAND,
        base_url: None,
        key_env: None,
        model: config.text(&format!("providers.{name}.model")),
    };
    register(&definition);
    Ok(())
}

/// Reads an endpoint's key from the variable it names (`api_key_env`,
/// else `fallback`, its row's), unless a flag or the variable of its own
/// key already set it.
fn read_key(config: &mut Entries, name: &str, fallback: Option<&'static str>, env: &dyn Fn(&str) -> Option<String>) {
    let key = format!("providers.{name}.api_key");
    if config.get(&key).is_some_and(|e| matches!(e.source, Source::Flag(_) | Source::Env(_))) {
        return;
    }
    let named = config.text(&format!("providers.{name}.api_key_env")).map(str::to_string);
    // The variable's name lives as long as the process, as a row's does.
    let var: Option<&'static str> = match named {
        Some(var) => ProviderKind::from_name(name).and_then(|k| k.row().key_env).filter(|v| *v == var).or_else(|| {
            let leaked: &'static str = Box::leak(var.into_boxed_str());
            Some(leaked)
        }),
        None => fallback,
    };
    let Some(var) = var else { return };
    if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
        config.insert(key, Entry { value: Value::Text(value.trim().to_string()), source: Source::Env(var) });
    }
}

/// Every role's provider is `auto` or a provider heat knows, endpoints
/// included: said with where it was set and what is accepted.
fn check_role_providers(config: &Entries) -> anyhow::Result<()> {
    let specs = keys::all();
    for (key, entry) in config {
        let is_provider = keys::find(&specs, key).is_some_and(|spec| spec.kind == keys::Kind::Provider);
        let Value::Text(named) = &entry.value else { continue };
        let named = named.trim();
        if !is_provider || named.is_empty() || keys::providers().iter().any(|p| p.eq_ignore_ascii_case(named)) {
            continue;
        }
        bail!(
            "{}: `{key}` must be {}, got {named:?} (an endpoint of your own is a [providers.{named}] block with a kind)",
            config.place(key),
            keys::expectation(keys::Kind::Provider)
        );
    }
    Ok(())
}
