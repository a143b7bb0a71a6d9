//! The models an endpoint serves, as its server lists them: the settings'
//! model picker asks here. OpenAI-compatible servers answer `GET /models`,
//! Ollama `GET /api/tags`, Anthropic `GET /v1/models`; each with the
//! endpoint's key and headers. The embedded model and a person list none.

use std::time::Duration;

use super::endpoints::{base_url, headers, ollama_base};
use crate::config::Config;
use crate::debate::cost::Price;
use crate::provider::{ProviderKind, Wire};

/// How long the picker waits for a list: a service far away may be slow.
pub const LIST_TIME: Duration = Duration::from_secs(6);

/// The models the provider called `provider` lists, sorted; or why there
/// is no list, in words the form shows.
pub async fn list(config: &Config, provider: &str) -> Result<Vec<String>, String> {
    let kind = ProviderKind::from_name(provider).ok_or_else(|| format!("{provider} is not a provider heat knows"))?;
    let listed = match kind.wire() {
        Wire::Embedded => return Err("the embedded model runs the file providers.local.model_path names".into()),
        Wire::Person => return Err("a person answers in this seat".into()),
        Wire::Agent => {
            return Err(format!(
                "{kind} is an agent CLI: it lists no models; name one as {kind}:MODEL, or leave its own"
            ));
        }
        _ if kind == ProviderKind::OLLAMA => probe_ollama(&ollama_base(config)).await,
        Wire::Anthropic | Wire::OpenAi => listed_at(config, kind, LIST_TIME).await,
    };
    let mut models = listed?;
    models.sort();
    models.dedup();
    Ok(models)
}

/// Where `kind`'s model list is and the headers that carry its key, as its
/// wire asks: `GET /models` with a bearer key, or Anthropic's `GET
/// /v1/models` with `x-api-key` (the picker's list and `heat doctor`'s
/// check of the key alike).
pub fn list_request(config: &Config, kind: ProviderKind) -> (String, Vec<(&'static str, String)>) {
    let base = base_url(config, kind).unwrap_or_default();
    let base = base.trim_end_matches('/');
    let key = config.text(&format!("providers.{kind}.api_key")).map(str::trim);
    if kind.wire() == Wire::Anthropic {
        let mut auth = vec![("anthropic-version", "2023-06-01".to_string())];
        auth.extend(key.map(|k| ("x-api-key", k.to_string())));
        (format!("{base}/v1/models?limit=1000"), auth)
    } else {
        (format!("{base}/models"), key.map(|k| ("authorization", format!("Bearer {k}"))).into_iter().collect())
    }
}

/// The prices `kind`'s model list carries, by model id (OpenRouter's:
/// `pricing.prompt`, `completion` and `input_cache_read`, in dollars a
/// token, as text), in dollars per million tokens; models without both
/// prices are left out.
pub async fn listed_prices(config: &Config, kind: ProviderKind) -> Result<Vec<(String, Price)>, String> {
    let (_, body) = list_body(config, kind, LIST_TIME).await?;
    Ok(prices_of(&body))
}

/// The prices a model list's body carries (see [`listed_prices`]).
pub fn prices_of(body: &serde_json::Value) -> Vec<(String, Price)> {
    let per_million = |v: &serde_json::Value| {
        let per_token: f64 = v.as_str().and_then(|s| s.trim().parse().ok()).or_else(|| v.as_f64())?;
        (per_token.is_finite() && per_token >= 0.0).then_some(per_token * 1_000_000.0)
    };
    let list = body["data"].as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .filter_map(|m| {
            let id = m["id"].as_str()?;
            let pricing = &m["pricing"];
            let (input, output) = per_million(&pricing["prompt"]).zip(per_million(&pricing["completion"]))?;
            Some((id.to_string(), Price { input, output, cached_input: per_million(&pricing["input_cache_read"]) }))
        })
        .collect()
}

/// The ids `kind`'s model list names (`data[].id`, as OpenAI's and
/// Anthropic's lists both have them), waiting at most `time`.
pub async fn listed_at(config: &Config, kind: ProviderKind, time: Duration) -> Result<Vec<String>, String> {
    let (url, body) = list_body(config, kind, time).await?;
    let models: Vec<String> = body["data"]
        .as_array()
        .map(|list| list.iter().filter_map(|m| m["id"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    if models.is_empty() { Err(format!("{url} listed no models")) } else { Ok(models) }
}

/// The address and body of `kind`'s model list, asked with its key and
/// its own headers.
async fn list_body(config: &Config, kind: ProviderKind, time: Duration) -> Result<(String, serde_json::Value), String> {
    let (url, auth) = list_request(config, kind);
    let made = crate::provider::http::Made { connect: None, whole: Some(time), headers: headers(config, kind) };
    let client = crate::provider::http::shared_client(&made).map_err(|e| e.to_string())?;
    let mut request = client.get(&url);
    for (name, value) in auth {
        request = request.header(name, value);
    }
    let response = request.send().await.map_err(|_| format!("no answer from {url}"))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url} answered {status}"));
    }
    let body = response.json().await.map_err(|_| format!("{url} sent no model list"))?;
    Ok((url, body))
}

/// Asks an Ollama server which models it has (short timeout: it is a probe).
pub async fn probe_ollama(base: &str) -> Result<Vec<String>, String> {
    let probe =
        crate::provider::http::Made { connect: None, whole: Some(Duration::from_millis(1500)), headers: vec![] };
    let client = crate::provider::http::shared_client(&probe).map_err(|e| e.to_string())?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openrouters_prices_per_token_become_prices_per_million() {
        // The shape of OpenRouter's GET /api/v1/models, trimmed.
        let body = serde_json::json!({"data": [
            {"id": "openai/gpt-4.1-mini", "name": "OpenAI: GPT-4.1 Mini",
             "pricing": {"prompt": "0.0000004", "completion": "0.0000016", "request": "0", "input_cache_read": "0.0000001"}},
            {"id": "google/gemini-2.5-flash", "pricing": {"prompt": "0.0000003", "completion": "0.0000025"}},
            {"id": "meta-llama/free", "pricing": {"prompt": "0", "completion": "0"}},
            {"id": "broken/model", "pricing": {"prompt": "n/a", "completion": "0.000001"}},
            {"id": "no/pricing"}
        ]});
        let prices = prices_of(&body);
        let ids: Vec<&str> = prices.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            ["openai/gpt-4.1-mini", "google/gemini-2.5-flash", "meta-llama/free"],
            "a price not read is left out"
        );
        let mini = prices[0].1;
        assert!((mini.input - 0.4).abs() < 1e-9 && (mini.output - 1.6).abs() < 1e-9, "{mini:?}");
        assert!(mini.cached_input.is_some_and(|c| (c - 0.1).abs() < 1e-9));
        assert_eq!(prices[1].1.cached_input, None);
        assert_eq!((prices[2].1.input, prices[2].1.output), (0.0, 0.0), "free is a price: zero");
    }
}
