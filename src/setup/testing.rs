//! Configs and machines for the set-up's tests.
#![allow(clippy::unwrap_used)]

use super::{Environment, ProviderKind, Selection};
use crate::config::{Config, FlagValue};

pub fn config(env: &[(&str, &str)], flags: &[(&str, &str)]) -> Config {
    let env: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect();
    let lookup = move |var: &str| env.iter().find(|(k, _)| k == var).map(|(_, v)| v.clone());
    let flags: Vec<FlagValue> =
        flags.iter().map(|(k, v)| FlagValue { key: (*k).into(), raw: (*v).into(), flag: format!("--{k}") }).collect();
    Config::load(None, &lookup, &flags).unwrap()
}

pub fn machine(ollama: Result<Vec<&str>, &str>, local: Result<&str, &str>) -> Environment {
    Environment {
        ollama: ollama.map(|m| m.into_iter().map(String::from).collect()).map_err(String::from),
        local: local.map(String::from).map_err(String::from),
        openai_models: Err("not probed".into()),
        openai_limits: super::discover::ServerLimits::default(),
        listed: Vec::new(),
        priced: Vec::new(),
    }
}

pub fn kinds(selection: &Selection) -> Vec<ProviderKind> {
    selection.roles.iter().map(|r| r.kind).collect()
}

pub const NO_OLLAMA: Result<Vec<&str>, &str> = Err("no Ollama server at http://localhost:11434");
