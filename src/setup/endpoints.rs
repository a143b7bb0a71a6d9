//! The HTTP models (Anthropic, OpenAI-compatible, Ollama, the presets and
//! the endpoints heat.toml defines) as the config sets them up: where each
//! server is (a host-only provider's address from its loose forms), its
//! key and headers, timeouts, concurrency and the judge's structured
//! output setting.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::config::Config;
use crate::debate::engine::StructuredSetting;
use crate::provider::anthropic::AnthropicModel;
use crate::provider::http::HttpConfig;
use crate::provider::openai::OpenAiModel;
use crate::provider::{ChatModel, ProviderKind, Wire};

/// The config section a provider reads: `[providers.NAME]`.
pub(super) fn section(kind: ProviderKind) -> &'static str {
    kind.name()
}

/// `providers.<name>.structured_output`, checked; the embedded model,
/// which has no such key, chooses its answer itself (`auto`).
pub fn structured_setting(config: &Config, kind: ProviderKind) -> anyhow::Result<StructuredSetting> {
    if !kind.is_server() {
        return Ok(StructuredSetting::Auto);
    }
    let key = format!("providers.{}.structured_output", section(kind));
    // `auto` where neither heat.toml nor its default file sets one (a provider added as a row).
    let value = config.text(&key).unwrap_or("auto");
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
        first_byte_timeout: Duration::from_secs(config.defaulted("network.first_byte_timeout_secs")),
        max_concurrent,
        headers: headers(config, kind),
    }
}

/// The headers `[providers.NAME.headers]` gives every request there.
pub fn headers(config: &Config, kind: ProviderKind) -> Vec<(String, String)> {
    let table = format!("providers.{}.headers", section(kind));
    let names: Vec<String> = config.names_under(&table).map(str::to_string).collect();
    names
        .into_iter()
        .filter_map(|name| Some((name.clone(), config.text(&format!("{table}.{name}"))?.to_string())))
        .collect()
}

/// The base URL of a provider with a server, as configured (else its
/// row's); `None` for the embedded model and a person. A provider reached by host alone
/// (Ollama) gets `/v1`.
pub fn base_url(config: &Config, kind: ProviderKind) -> Option<String> {
    if !kind.is_server() {
        return None;
    }
    if kind.row().host_only {
        return Some(format!("{}/v1", host_base(config, kind)));
    }
    let configured = config.text(&format!("providers.{}.base_url", section(kind)));
    Some(configured.unwrap_or(kind.row().base_url).to_string())
}

/// The model for a provider with a server, as configured, speaking its
/// wire; `None` for the embedded one.
pub fn http_model(config: &Config, kind: ProviderKind) -> Option<Arc<dyn ChatModel>> {
    http_model_within(config, kind, None)
}

/// [`http_model`], sending at most `slots` requests at once where the
/// server said it serves that many and the config sets no limit.
pub fn http_model_within(config: &Config, kind: ProviderKind, slots: Option<u32>) -> Option<Arc<dyn ChatModel>> {
    let base = base_url(config, kind)?;
    let key = kind.row().key_env.and_then(|_| config.text(&format!("providers.{}.api_key", section(kind))));
    let mut http = http(config, kind, base, key);
    http.max_concurrent = http.max_concurrent.or(slots);
    Some(match kind.wire() {
        Wire::Anthropic => Arc::new(AnthropicModel::new(http).named(kind.name())),
        Wire::OpenAi => Arc::new(OpenAiModel::new(http).named(kind.name())),
        Wire::Embedded | Wire::Person | Wire::Agent => return None,
    })
}

/// The Ollama server's base URL, from `OLLAMA_HOST`'s loose forms
/// (`host`, `host:port`, `0.0.0.0`, with or without a scheme).
pub fn ollama_base(config: &Config) -> String {
    host_base(config, ProviderKind::OLLAMA)
}

/// The base URL of a provider reached by host alone (its row's
/// `host_only`), from the host's loose forms (`host`, `host:port`,
/// `0.0.0.0`, with or without a scheme).
pub fn host_base(config: &Config, kind: ProviderKind) -> String {
    let key = format!("providers.{}.base_url", kind.name());
    let raw = config.text(&key).unwrap_or(kind.row().base_url);
    let (scheme, rest) = match raw.split_once("://") {
        Some((s, r)) => (s.to_string(), r.trim_end_matches('/').to_string()),
        None => ("http".to_string(), raw.trim_end_matches('/').to_string()),
    };
    let rest = rest.replacen("0.0.0.0", "127.0.0.1", 1);
    let has_port = rest.rsplit_once(':').is_some_and(|(_, p)| p.chars().all(|c| c.is_ascii_digit()));
    // A host without a port is on the provider's usual one (Ollama's 11434).
    let usual = kind.row().base_url.rsplit_once(':').map_or("80", |(_, port)| port);
    if has_port { format!("{scheme}://{rest}") } else { format!("{scheme}://{rest}:{usual}") }
}
