//! The models an endpoint serves, as its server lists them: the settings'
//! model picker asks here. OpenAI-compatible servers answer `GET /models`,
//! Ollama `GET /api/tags`, Anthropic `GET /v1/models`; each with the
//! endpoint's key and headers. The embedded model and a person list none.

use std::time::Duration;

use super::endpoints::{base_url, headers, ollama_base};
use crate::config::Config;
use crate::provider::{ProviderKind, Wire};

/// How long the picker waits for a list: a service far away may be slow.
pub const LIST_TIME: Duration = Duration::from_secs(6);

/// The models the provider called `provider` lists, sorted; or why there
/// is no list, in words the form shows.
pub async fn list(config: &Config, provider: &str) -> Result<Vec<String>, String> {
    let kind = ProviderKind::from_name(provider).ok_or_else(|| format!("{provider} is not a provider heat knows"))?;
    let key = config.text(&format!("providers.{kind}.api_key"));
    let listed = match kind.wire() {
        Wire::Embedded => return Err("the embedded model runs the file providers.local.model_path names".into()),
        Wire::Person => return Err("a person answers in this seat".into()),
        _ if kind == ProviderKind::OLLAMA => probe_ollama(&ollama_base(config)).await,
        Wire::Anthropic => {
            let base = base_url(config, kind).unwrap_or_default();
            let url = format!("{}/v1/models?limit=1000", base.trim_end_matches('/'));
            listed_at(&url, &[("x-api-key", key), ("anthropic-version", Some("2023-06-01"))], config, kind, LIST_TIME)
                .await
        }
        Wire::OpenAi => {
            let base = base_url(config, kind).unwrap_or_default();
            let bearer = key.map(|k| format!("Bearer {}", k.trim()));
            let url = format!("{}/models", base.trim_end_matches('/'));
            listed_at(&url, &[("authorization", bearer.as_deref())], config, kind, LIST_TIME).await
        }
    };
    let mut models = listed?;
    models.sort();
    models.dedup();
    Ok(models)
}

/// The ids a model list at `url` names (`data[].id`, as OpenAI's and
/// Anthropic's lists both have them), asked with `auth` (header, value)
/// and the endpoint's own headers.
pub async fn listed_at(
    url: &str,
    auth: &[(&str, Option<&str>)],
    config: &Config,
    kind: ProviderKind,
    time: Duration,
) -> Result<Vec<String>, String> {
    let own = crate::provider::http::header_map(&headers(config, kind));
    let client = crate::provider::http::client_builder()
        .timeout(time)
        .default_headers(own)
        .build()
        .map_err(|e| e.to_string())?;
    let mut request = client.get(url);
    for (name, value) in auth {
        if let Some(value) = value {
            request = request.header(*name, *value);
        }
    }
    let response = request.send().await.map_err(|_| format!("no answer from {url}"))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url} answered {status}"));
    }
    let body: serde_json::Value = response.json().await.map_err(|_| format!("{url} sent no model list"))?;
    let models: Vec<String> = body["data"]
        .as_array()
        .map(|list| list.iter().filter_map(|m| m["id"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    if models.is_empty() { Err(format!("{url} listed no models")) } else { Ok(models) }
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
