//! Chooses the model behind each role and builds it. A role names its
//! provider, or `auto` takes the first that works: an Anthropic key, an
//! OpenAI key, a running Ollama server, then the embedded offline model.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};

use crate::config::{Config, Source};
use crate::debate::Role;
use crate::debate::engine::{EngineSetup, RoleSetup, StructuredSetting};
use crate::debate::prompt::Prompts;
use crate::provider::ChatModel;
use crate::provider::anthropic::AnthropicModel;
use crate::provider::http::HttpConfig;
use crate::provider::openai::OpenAiModel;
use crate::provider::retry::RetryPolicy;

/// A provider family heat can talk to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Anthropic,
    OpenAi,
    Ollama,
    Local,
}

impl ProviderKind {
    fn from_name(name: &str) -> Option<Self> {
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

/// What auto-selection found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// Models an Ollama server listed, or why it could not be used.
    pub ollama: Result<Vec<String>, String>,
    /// Whether the embedded model can run (feature built in and a model file present or installable).
    pub local: Result<String, String>,
    /// Models an OpenAI-compatible server at a custom base URL listed (asked
    /// only when no model is configured for it), or why not.
    pub openai_models: Result<Vec<String>, String>,
}

/// OpenAI's model when none is named. Not in the default file: `heat config
/// init` copies that file, and a model written there would count as chosen,
/// so a custom server would no longer name its own (`custom_openai_base`).
const OPENAI_MODEL: &str = "gpt-4.1-mini";

/// The Ollama server's base URL, from `OLLAMA_HOST`'s loose forms
/// (`host`, `host:port`, `0.0.0.0`, with or without a scheme).
pub fn ollama_base(config: &Config) -> String {
    let raw: &str = config.defaulted("providers.ollama.base_url");
    let (scheme, rest) = match raw.split_once("://") {
        Some((s, r)) => (s.to_string(), r.trim_end_matches('/').to_string()),
        None => ("http".to_string(), raw.trim_end_matches('/').to_string()),
    };
    let rest = rest.replacen("0.0.0.0", "127.0.0.1", 1);
    let has_port = rest.rsplit_once(':').is_some_and(|(_, p)| p.chars().all(|c| c.is_ascii_digit()));
    if has_port { format!("{scheme}://{rest}") } else { format!("{scheme}://{rest}:11434") }
}

/// Asks an Ollama server which models it has (short timeout: it is a probe).
pub async fn probe_ollama(base: &str) -> Result<Vec<String>, String> {
    let client = crate::provider::http::client_builder()
        .timeout(Duration::from_millis(1500))
        .build()
        .map_err(|e| e.to_string())?;
    let response =
        client.get(format!("{base}/api/tags")).send().await.map_err(|_| format!("no Ollama server at {base}"))?;
    let bytes = response.bytes().await.map_err(|_| format!("{base} did not answer like Ollama"))?;
    let body: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|_| format!("{base} did not answer like Ollama"))?;
    let models = body["models"]
        .as_array()
        .map(|list| list.iter().filter_map(|m| m["name"].as_str().map(String::from)).collect::<Vec<_>>())
        .unwrap_or_default();
    if models.is_empty() {
        return Err(format!("the Ollama server at {base} has no models (try `ollama pull llama3.2`)"));
    }
    Ok(models)
}

/// The OpenAI-compatible base URL when it is not OpenAI's own and no model
/// is configured for it: its own model list then names the default model
/// (a local server serves one model, whatever name a request carries).
pub fn custom_openai_base(config: &Config) -> Option<&str> {
    let base = config.text("providers.openai.base_url")?;
    let custom = !base.contains("api.openai.com") && !openai_model_chosen(config);
    custom.then_some(base)
}

/// Whether a person chose the OpenAI model (not the built-in default).
fn openai_model_chosen(config: &Config) -> bool {
    config.get("providers.openai.model").is_some_and(|e| !matches!(e.source, Source::Default))
}

/// Asks an OpenAI-compatible server which models it serves (`GET /models`;
/// short timeout: it is a probe).
pub async fn probe_openai_models(base: &str, key: Option<&str>) -> Result<Vec<String>, String> {
    let client = crate::provider::http::client_builder()
        .timeout(Duration::from_millis(1500))
        .build()
        .map_err(|e| e.to_string())?;
    let mut request = client.get(format!("{}/models", base.trim_end_matches('/')));
    if let Some(key) = key {
        request = request.bearer_auth(key.trim());
    }
    let response = request.send().await.map_err(|_| format!("no answer from {base}"))?;
    let body: serde_json::Value = response.json().await.map_err(|_| format!("{base} listed no models"))?;
    let models: Vec<String> = body["data"]
        .as_array()
        .map(|list| list.iter().filter_map(|m| m["id"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    if models.is_empty() { Err(format!("{base} listed no models")) } else { Ok(models) }
}

/// Decides each role's provider and model.
pub fn select(config: &Config, env: &Environment) -> anyhow::Result<Selection> {
    let mut roles = Vec::new();
    let mut notices = Vec::new();
    for role in Role::ALL {
        let entry = config.role_entry(role, "provider");
        let named: &str = config.role_defaulted(role, "provider");
        let (kind, why) = match ProviderKind::from_name(named) {
            Some(kind) => {
                let source = entry.map_or(Source::Default, |e| e.source.clone());
                check_available(config, env, kind)?;
                (kind, format!("set by {source}"))
            }
            None => auto(config, env)?,
        };
        let model = match config.role_text(role, "model") {
            Some(model) if kind == ProviderKind::Local && !is_gguf(model) => bail!(
                "the {} runs on the embedded offline model, which takes a .gguf file, but its model is {model:?}: \
                 set roles.{}.model to a .gguf path, or leave it unset to use providers.local.model_path",
                role.label().to_lowercase(),
                role.label().to_lowercase()
            ),
            Some(model) => model.to_string(),
            None => default_model(config, env, kind)?,
        };
        roles.push(RoleChoice { role, kind, model, why });
    }
    if let Some(local) = roles.iter().find(|r| r.kind == ProviderKind::Local) {
        let warning = if local.model == "SmolLM2-135M" { " — small model, expect weak arguments" } else { "" };
        notices.push(format!("offline: {}{warning}", local.model));
    }
    Ok(Selection { roles, notices })
}

fn auto(config: &Config, env: &Environment) -> anyhow::Result<(ProviderKind, String)> {
    if config.text("providers.anthropic.api_key").is_some() {
        return Ok((ProviderKind::Anthropic, "auto: an Anthropic API key is set".into()));
    }
    if config.text("providers.openai.api_key").is_some() {
        return Ok((ProviderKind::OpenAi, "auto: an OpenAI API key is set".into()));
    }
    if env.ollama.is_ok() {
        return Ok((ProviderKind::Ollama, format!("auto: an Ollama server answered at {}", ollama_base(config))));
    }
    if env.local.is_ok() {
        return Ok((ProviderKind::Local, "auto: no key or server found; using the embedded offline model".into()));
    }
    let ollama = env.ollama.as_ref().err().cloned().unwrap_or_default();
    let local = env.local.as_ref().err().cloned().unwrap_or_default();
    bail!(
        "no model provider is available. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, start Ollama \
         (or point OLLAMA_HOST at one; {ollama}), or use the offline model ({local})"
    )
}

fn check_available(config: &Config, env: &Environment, kind: ProviderKind) -> anyhow::Result<()> {
    match kind {
        ProviderKind::Anthropic if config.text("providers.anthropic.api_key").is_none() => {
            bail!(
                "the provider is set to anthropic but no key is set: export ANTHROPIC_API_KEY (or set providers.anthropic.api_key)"
            )
        }
        ProviderKind::OpenAi
            if config.text("providers.openai.api_key").is_none()
                && config.text("providers.openai.base_url").is_some_and(|u| u.contains("api.openai.com")) =>
        {
            bail!(
                "the provider is set to openai but no key is set: export OPENAI_API_KEY, or point OPENAI_BASE_URL at a server that needs none"
            )
        }
        ProviderKind::Local => match &env.local {
            Ok(_) => Ok(()),
            Err(why) => bail!("the provider is set to local but {why}"),
        },
        _ => Ok(()),
    }
}

fn default_model(config: &Config, env: &Environment, kind: ProviderKind) -> anyhow::Result<String> {
    Ok(match kind {
        ProviderKind::Anthropic => config.defaulted::<&str>("providers.anthropic.model").to_string(),
        ProviderKind::OpenAi => match &env.openai_models {
            Ok(models) if !openai_model_chosen(config) && !models.is_empty() => models[0].clone(),
            _ => config.text("providers.openai.model").unwrap_or(OPENAI_MODEL).to_string(),
        },
        ProviderKind::Ollama => match (config.text("providers.ollama.model"), &env.ollama) {
            (Some(model), _) => model.to_string(),
            (None, Ok(models)) => models.first().cloned().unwrap_or_default(),
            (None, Err(why)) if why.starts_with("no Ollama server") => bail!(
                "{why}: start it (`ollama serve`), or point OLLAMA_HOST (providers.ollama.base_url) at the one you run"
            ),
            (None, Err(why)) => bail!("no Ollama model to use: {why}; or name one with providers.ollama.model"),
        },
        ProviderKind::Local => env.local.clone().map_err(anyhow::Error::msg)?,
    })
}

/// The config section an HTTP provider kind reads (`ollama` speaks OpenAI's
/// dialect but has its own section).
fn section(kind: ProviderKind) -> &'static str {
    kind.name()
}

/// `providers.<name>.structured_output`, checked.
pub fn structured_setting(config: &Config, kind: ProviderKind) -> anyhow::Result<StructuredSetting> {
    let key = format!("providers.{}.structured_output", section(kind));
    let value: &str = config.defaulted(&key);
    StructuredSetting::parse(value)
        .with_context(|| format!("`{key}` must be \"auto\", \"schema\", \"json\" or \"off\", got {value:?}"))
}

fn http(config: &Config, kind: ProviderKind, base_url: String, api_key: Option<&str>) -> HttpConfig {
    let max_concurrent = config
        .int(&format!("providers.{}.max_concurrent", section(kind)))
        .and_then(|v| u32::try_from(v).ok())
        .filter(|v| *v > 0);
    HttpConfig {
        base_url,
        api_key: api_key.map(String::from),
        connect_timeout: Duration::from_secs(config.defaulted("network.connect_timeout_secs")),
        idle_timeout: Duration::from_secs(config.defaulted("network.idle_timeout_secs")),
        max_concurrent,
    }
}

/// The model for an HTTP provider kind, as configured; `None` for the
/// embedded one.
pub fn http_model(config: &Config, kind: ProviderKind) -> Option<Arc<dyn ChatModel>> {
    Some(match kind {
        ProviderKind::Anthropic => {
            let base: &str = config.defaulted("providers.anthropic.base_url");
            let key = config.text("providers.anthropic.api_key");
            Arc::new(AnthropicModel::new(http(config, kind, base.into(), key)))
        }
        ProviderKind::OpenAi => {
            let base: &str = config.defaulted("providers.openai.base_url");
            let key = config.text("providers.openai.api_key");
            Arc::new(OpenAiModel::new(http(config, kind, base.into(), key)))
        }
        ProviderKind::Ollama => {
            let base = format!("{}/v1", ollama_base(config));
            Arc::new(OpenAiModel::new(http(config, kind, base, None)).named("ollama"))
        }
        ProviderKind::Local => return None,
    })
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

/// Loads the embedded model from a file (`None`: the configured one) for a
/// number of roles that will share it.
pub type LocalLoader<'a> = &'a dyn Fn(Option<&std::path::Path>, usize) -> anyhow::Result<Arc<dyn ChatModel>>;

/// Builds one model per provider kind in use (so the roles share a local
/// model load; a role with a GGUF of its own gets its own load), and the
/// engine setup around them.
pub fn build(config: &Config, selection: &Selection, local: Option<LocalLoader<'_>>) -> anyhow::Result<EngineSetup> {
    let mut models: Vec<(ProviderKind, Option<String>, Arc<dyn ChatModel>)> = Vec::new();
    let mut role_setup = |choice: &RoleChoice| -> anyhow::Result<RoleSetup> {
        let file = choice.own_gguf();
        let model = if let Some((_, _, m)) = models.iter().find(|(k, f, _)| *k == choice.kind && f.as_deref() == file) {
            Arc::clone(m)
        } else {
            let m: Arc<dyn ChatModel> = if let Some(model) = http_model(config, choice.kind) {
                model
            } else {
                let load = local.context("this build of heat has no embedded model (feature `local`)")?;
                let sharing = selection.roles.iter().filter(|r| r.kind == choice.kind && r.own_gguf() == file).count();
                load(file.map(std::path::Path::new), sharing)?
            };
            models.push((choice.kind, file.map(String::from), Arc::clone(&m)));
            m
        };
        let mut max_tokens: u32 = config.role_defaulted(choice.role, "max_tokens");
        if choice.kind == ProviderKind::Local {
            max_tokens = max_tokens.min(config.defaulted("providers.local.max_tokens"));
        }
        let thinking_budget = match choice.kind {
            ProviderKind::Anthropic => config.role_int(choice.role, "thinking_budget"),
            _ => None,
        };
        let structured = match choice.kind {
            ProviderKind::Local => StructuredSetting::Auto,
            kind => structured_setting(config, kind)?,
        };
        Ok(RoleSetup {
            model,
            model_name: choice.model.clone(),
            max_tokens,
            thinking_budget: thinking_budget.and_then(|b| u32::try_from(b).ok()),
            structured,
            max_context: match choice.kind {
                ProviderKind::Local => None,
                kind => {
                    config.int(&format!("providers.{}.max_context", section(kind))).and_then(|n| u32::try_from(n).ok())
                }
            },
        })
    };
    let mut setups = Vec::new();
    for choice in &selection.roles {
        setups.push(role_setup(choice)?);
    }
    let roles: [RoleSetup; Role::COUNT] =
        setups.try_into().map_err(|_| anyhow::anyhow!("expected one setup per seat"))?;
    let prompts_dir = config.text("debate.prompts_dir").map(std::path::PathBuf::from);
    let all_local = selection.roles.iter().all(|r| r.kind == ProviderKind::Local);
    let base = match config.defaulted("providers.local.prompts") {
        "compact" if all_local => Prompts::compact(),
        "compact" | "full" => Prompts::default(),
        other => bail!("`providers.local.prompts` must be \"compact\" or \"full\", got {other:?}"),
    };
    Ok(EngineSetup {
        roles,
        prompts: Prompts::load(base, prompts_dir.as_deref())?,
        retry: RetryPolicy { max_retries: config.defaulted("network.max_retries"), ..RetryPolicy::default() },
        judge_temperature: config.defaulted::<f64>("debate.judge_temperature") as f32,
        seed: config.int("debate.seed").and_then(|s| u64::try_from(s).ok()),
        swap_check: config.defaulted("debate.swap_check"),
    })
}

/// What the loaded models say about themselves (a GGUF without a chat
/// template of its own), once per model.
pub fn model_notices(setup: &EngineSetup) -> Vec<String> {
    let mut notices: Vec<String> = Vec::new();
    for role in &setup.roles {
        if let Some(notice) = role.model.notice()
            && !notices.contains(&notice)
        {
            notices.push(notice);
        }
    }
    notices
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::config::FlagValue;

    fn config(env: &[(&str, &str)], flags: &[(&str, &str)]) -> Config {
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect();
        let lookup = move |var: &str| env.iter().find(|(k, _)| k == var).map(|(_, v)| v.clone());
        let flags: Vec<FlagValue> = flags
            .iter()
            .map(|(k, v)| FlagValue { key: (*k).into(), raw: (*v).into(), flag: format!("--{k}") })
            .collect();
        Config::load(None, &lookup, &flags).unwrap()
    }

    fn machine(ollama: Result<Vec<&str>, &str>, local: Result<&str, &str>) -> Environment {
        Environment {
            ollama: ollama.map(|m| m.into_iter().map(String::from).collect()).map_err(String::from),
            local: local.map(String::from).map_err(String::from),
            openai_models: Err("not probed".into()),
        }
    }

    fn kinds(selection: &Selection) -> Vec<ProviderKind> {
        selection.roles.iter().map(|r| r.kind).collect()
    }

    const NO_OLLAMA: Result<Vec<&str>, &str> = Err("no Ollama server at http://localhost:11434");

    #[test]
    fn the_auto_chain_prefers_anthropic_then_openai_then_ollama_then_local() {
        let everything = machine(Ok(vec!["llama3.2"]), Ok("SmolLM2-135M"));
        let both = config(&[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")], &[]);
        let s = select(&both, &everything).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::Anthropic; 3]);
        assert_eq!(s.roles[0].model, "claude-haiku-4-5");
        let s = select(&config(&[("OPENAI_API_KEY", "o")], &[]), &everything).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::OpenAi; 3]);
        let s = select(&config(&[], &[]), &everything).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::Ollama; 3]);
        assert_eq!(s.roles[2].model, "llama3.2", "the server's first model");
        let s = select(&config(&[], &[]), &machine(NO_OLLAMA, Ok("SmolLM2-135M"))).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::Local; 3]);
        assert_eq!(s.notices, vec!["offline: SmolLM2-135M — small model, expect weak arguments".to_string()]);
    }

    #[test]
    fn nothing_available_names_every_option() {
        let err = select(&config(&[], &[]), &machine(NO_OLLAMA, Err("no model installed"))).unwrap_err().to_string();
        for part in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OLLAMA_HOST", "no Ollama server", "no model installed"] {
            assert!(err.contains(part), "{part} missing from: {err}");
        }
    }

    #[test]
    fn a_named_provider_without_its_key_says_how_to_fix_it() {
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let err = select(&config(&[], &[("roles.provider", "anthropic")]), &env).unwrap_err().to_string();
        assert!(err.contains("export ANTHROPIC_API_KEY"), "{err}");
        // An OpenAI-compatible local server needs no key.
        let local_server = config(&[("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")], &[("roles.provider", "openai")]);
        assert_eq!(kinds(&select(&local_server, &env).unwrap()), vec![ProviderKind::OpenAi; 3]);
    }

    #[test]
    fn roles_can_mix_providers_and_models() {
        let c = config(
            &[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")],
            &[("roles.skeptic.provider", "openai"), ("roles.judge.model", "claude-sonnet-4-5")],
        );
        let s = select(&c, &machine(NO_OLLAMA, Err("none"))).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Anthropic]);
        assert_eq!(s.roles[1].model, "gpt-4.1-mini");
        assert_eq!(s.roles[2].model, "claude-sonnet-4-5");
        assert!(s.roles[1].why.contains("--roles.skeptic.provider"), "{}", s.roles[1].why);
    }

    #[test]
    fn a_custom_openai_server_names_the_default_model_itself() {
        let mut env = machine(NO_OLLAMA, Err("none"));
        env.openai_models = Ok(vec!["/models/SmolLM2-135M-Instruct.Q4_1.gguf".into()]);
        let local_server = config(&[("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1")], &[("roles.provider", "openai")]);
        assert_eq!(custom_openai_base(&local_server), Some("http://127.0.0.1:8765/v1"));
        let s = select(&local_server, &env).unwrap();
        assert_eq!(s.roles[0].model, "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
        let named = config(
            &[("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1")],
            &[("roles.provider", "openai"), ("providers.openai.model", "smol")],
        );
        assert_eq!(custom_openai_base(&named), None, "a configured model is not second-guessed");
        assert_eq!(select(&named, &env).unwrap().roles[0].model, "smol");
        let openai = config(&[("OPENAI_API_KEY", "o")], &[]);
        assert_eq!(custom_openai_base(&openai), None, "OpenAI itself keeps its default");
    }

    #[test]
    fn ollama_host_accepts_its_loose_forms() {
        for (host, base) in [
            ("localhost", "http://localhost:11434"),
            ("0.0.0.0:11434", "http://127.0.0.1:11434"),
            ("https://ollama.example:8443/", "https://ollama.example:8443"),
            ("127.0.0.1:9999", "http://127.0.0.1:9999"),
        ] {
            assert_eq!(ollama_base(&config(&[("OLLAMA_HOST", host)], &[])), base, "{host}");
        }
    }

    #[test]
    fn an_all_local_debate_gets_the_compact_prompts_unless_told_otherwise() {
        use crate::provider::scripted::{Reply, ScriptedModel};
        let load = |_: Option<&std::path::Path>, _: usize| -> anyhow::Result<Arc<dyn ChatModel>> {
            Ok(Arc::new(ScriptedModel::new([], Reply::text("x"))) as Arc<dyn ChatModel>)
        };
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let setup = |c: &Config| build(c, &select(c, &env).unwrap(), Some(&load));
        let local = config(&[], &[]);
        assert_eq!(setup(&local).unwrap().prompts, Prompts::compact());
        let full = config(&[], &[("providers.local.prompts", "full")]);
        assert_eq!(setup(&full).unwrap().prompts, Prompts::default());
        let mixed = config(&[("OPENAI_API_KEY", "o")], &[("roles.judge.provider", "local")]);
        assert_eq!(setup(&mixed).unwrap().prompts, Prompts::default(), "a mixed debate keeps the full prompts");
        let bad = config(&[], &[("providers.local.prompts", "tiny")]);
        let err = setup(&bad).err().expect("an unknown prompt set").to_string();
        assert!(err.contains("\"compact\" or \"full\"") && err.contains("tiny"), "{err}");
        assert!(Prompts::compact().system.len() * 2 < Prompts::default().system.len());
    }

    #[test]
    fn a_local_role_may_run_a_gguf_of_its_own_and_shares_nothing_else() {
        use crate::provider::scripted::{Reply, ScriptedModel};
        let loads = std::sync::Mutex::new(Vec::new());
        let load = |file: Option<&std::path::Path>, roles: usize| -> anyhow::Result<Arc<dyn ChatModel>> {
            loads.lock().unwrap().push((file.map(|f| f.display().to_string()), roles));
            Ok(Arc::new(ScriptedModel::new([], Reply::text("x"))) as Arc<dyn ChatModel>)
        };
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let c = config(&[], &[("roles.judge.model", "/models/judge.gguf")]);
        let selection = select(&c, &env).unwrap();
        assert_eq!(selection.roles[2].model, "/models/judge.gguf");
        let setup = build(&c, &selection, Some(&load)).unwrap();
        assert_eq!(
            *loads.lock().unwrap(),
            vec![(None, 2), (Some("/models/judge.gguf".to_string()), 1)],
            "the debaters share the configured model (two contexts); the judge loads its own file"
        );
        assert!(Arc::ptr_eq(&setup.role(Role::Advocate).model, &setup.role(Role::Skeptic).model));
        assert!(!Arc::ptr_eq(&setup.role(Role::Advocate).model, &setup.role(Role::Judge).model));

        // A model name the embedded model cannot run is refused, not ignored.
        let named = config(&[("HEAT_MODEL", "gpt-4.1")], &[]);
        let Err(err) = select(&named, &env) else { panic!("a non-GGUF model for a local role was accepted") };
        let err = err.to_string();
        assert!(err.contains("takes a .gguf file") && err.contains("\"gpt-4.1\""), "{err}");
    }
}
