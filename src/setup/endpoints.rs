//! The HTTP models (Anthropic, OpenAI-compatible, Ollama) as the config
//! sets them up: base URL, key, timeouts, concurrency and the judge's
//! structured output setting.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::discover::ollama_base;
use super::selection::ProviderKind;
use crate::config::Config;
use crate::debate::engine::StructuredSetting;
use crate::provider::ChatModel;
use crate::provider::anthropic::AnthropicModel;
use crate::provider::http::HttpConfig;
use crate::provider::openai::OpenAiModel;

/// The config section an HTTP provider kind reads (`ollama` speaks OpenAI's
/// dialect but has its own section).
pub(super) fn section(kind: ProviderKind) -> &'static str {
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

/// The base URL of an HTTP provider kind, as configured; `None` for the
/// embedded model.
pub fn base_url(config: &Config, kind: ProviderKind) -> Option<String> {
    Some(match kind {
        ProviderKind::Anthropic => config.defaulted::<&str>("providers.anthropic.base_url").to_string(),
        ProviderKind::OpenAi => config.defaulted::<&str>("providers.openai.base_url").to_string(),
        ProviderKind::Ollama => format!("{}/v1", ollama_base(config)),
        ProviderKind::Local => return None,
    })
}

/// The model for an HTTP provider kind, as configured; `None` for the
/// embedded one.
pub fn http_model(config: &Config, kind: ProviderKind) -> Option<Arc<dyn ChatModel>> {
    let base = base_url(config, kind)?;
    Some(match kind {
        ProviderKind::Anthropic => {
            let key = config.text("providers.anthropic.api_key");
            Arc::new(AnthropicModel::new(http(config, kind, base, key)))
        }
        ProviderKind::OpenAi => {
            let key = config.text("providers.openai.api_key");
            Arc::new(OpenAiModel::new(http(config, kind, base, key)))
        }
        ProviderKind::Ollama => Arc::new(OpenAiModel::new(http(config, kind, base, None)).named("ollama")),
        ProviderKind::Local => return None,
    })
}
