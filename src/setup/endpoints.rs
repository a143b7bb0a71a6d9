//! The HTTP models (Anthropic, OpenAI-compatible, Ollama) as the config
//! sets them up: base URL, key, timeouts, concurrency and the judge's
//! structured output setting.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::discover::host_base;
use super::selection::ProviderKind;
use crate::config::Config;
use crate::debate::engine::StructuredSetting;
use crate::provider::anthropic::AnthropicModel;
use crate::provider::http::HttpConfig;
use crate::provider::openai::OpenAiModel;
use crate::provider::{ChatModel, Wire};

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
    }
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
        Wire::Anthropic => Arc::new(AnthropicModel::new(http)),
        Wire::OpenAi => Arc::new(OpenAiModel::new(http).named(kind.name())),
        Wire::Embedded | Wire::Person => return None,
    })
}
