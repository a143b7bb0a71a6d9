//! What auto-selection may use on this machine: the Ollama server (probed
//! only when a role is on `auto` and no key decides it first, or a role
//! names it), a custom OpenAI-compatible server's model list, and whether
//! the offline model can run.

use std::time::Duration;

use super::endpoints::{base_url, ollama_base};
use super::models::probe_ollama;
use crate::config::{Config, Source};
use crate::debate::Role;
use crate::provider::ProviderKind;

/// What auto-selection found on this machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Environment {
    /// Models an Ollama server listed, or why it could not be used.
    pub ollama: Result<Vec<String>, String>,
    /// Whether the embedded model can run (feature built in and a model file present or installable).
    pub local: Result<String, String>,
    /// Models an OpenAI-compatible server at a custom base URL listed (asked
    /// only when no model is configured for it), or why not.
    pub openai_models: Result<Vec<String>, String>,
    /// What an OpenAI-compatible server at a custom base URL says of the
    /// room it gives requests, where it says (llama.cpp's `/props`).
    pub openai_limits: ServerLimits,
    /// The models each other OpenAI-compatible endpoint a seat names lists,
    /// where neither the seat nor the endpoint names a model (a local
    /// server, an endpoint heat.toml defines), or why it listed none.
    pub listed: Vec<(ProviderKind, Result<Vec<String>, String>)>,
    /// The prices the model list of each endpoint a seat sits on without
    /// a price of its own carries, where the list carries any (OpenRouter's).
    pub priced: Vec<(ProviderKind, Result<ModelPrices, String>)>,
}

/// Each model's price, by its id, as an endpoint lists them.
pub type ModelPrices = Vec<(String, crate::debate::cost::Price)>;

/// What a server says of the room it gives requests: how many it serves at
/// once, and the context each of them gets (a server's total context is
/// shared among its parallel slots).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerLimits {
    pub slots: Option<u32>,
    pub context: Option<u32>,
    /// Its grammar holds an answer to a schema's string lengths as well as
    /// its shape: llama.cpp's server, the one that answers `/props`. A
    /// small model's verdict runs to its token limit inside a string there
    /// unless the strings are capped.
    pub holds_lengths: bool,
}

/// Finds what auto-selection may use: probes Ollama only when a role is on
/// `auto` and no key decides it first.
pub async fn discover(config: &Config) -> Environment {
    let auto = Role::ALL.iter().any(|&r| config.role_defaulted::<&str>(r, "provider") == "auto");
    let keys =
        config.text("providers.anthropic.api_key").is_some() || config.text("providers.openai.api_key").is_some();
    let named_ollama = Role::ALL.iter().any(|&r| config.role_text(r, "provider") == Some("ollama"));
    let ollama = if (auto && !keys) || named_ollama {
        probe_ollama(&ollama_base(config)).await
    } else {
        Err("not probed".into())
    };
    let openai_models = match custom_openai_base(config) {
        // The base URL is OpenAI's own key's: `base_url` reads the same setting.
        Some(_) => probe_openai_models(config, ProviderKind::OPENAI).await,
        None => Err("not probed".into()),
    };
    let openai_limits = match config.text("providers.openai.base_url").filter(|b| !b.contains("api.openai.com")) {
        Some(base) => probe_server_limits(base).await,
        None => ServerLimits::default(),
    };
    let mut listed = Vec::new();
    for kind in unnamed_models(config) {
        listed.push((kind, probe_openai_models(config, kind).await));
    }
    let mut priced = Vec::new();
    for kind in unpriced_on_a_priced_list(config) {
        priced.push((kind, super::models::listed_prices(config, kind).await));
    }
    Environment { ollama, local: super::local::status(config), openai_models, openai_limits, listed, priced }
}

/// The endpoints whose model list carries prices (OpenRouter's) that a
/// seat sits on with no price of its own.
fn unpriced_on_a_priced_list(config: &Config) -> Vec<ProviderKind> {
    let mut kinds: Vec<ProviderKind> = Vec::new();
    for role in Role::ALL.into_iter().filter(|&r| config.price(r).is_none()) {
        let Some(kind) = config.role_text(role, "provider").and_then(ProviderKind::from_name) else { continue };
        // OpenRouter's preset (wherever its base URL points), or any endpoint on its service.
        let priced_list =
            kind.name() == "openrouter" || base_url(config, kind).is_some_and(|b| b.contains("openrouter.ai"));
        if priced_list && !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// The OpenAI-compatible endpoints (other than heat's own `openai` and
/// `ollama`, which are asked above) a seat names without a model, where the
/// endpoint names none either: their own list then names it.
fn unnamed_models(config: &Config) -> Vec<ProviderKind> {
    let mut kinds: Vec<ProviderKind> = Vec::new();
    for role in Role::ALL {
        let Some(kind) = config.role_text(role, "provider").and_then(ProviderKind::from_name) else { continue };
        let asked_above = kind == ProviderKind::OPENAI || kind == ProviderKind::OLLAMA;
        let named = config.role_text(role, "model").is_some()
            || config.text(&format!("providers.{kind}.model")).is_some()
            || kind.row().model.is_some();
        if kind.wire() == crate::provider::Wire::OpenAi && !asked_above && !named && !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// Asks an OpenAI-compatible server what it gives each request: llama.cpp's
/// server answers `GET /props` (at its root) with `total_slots` and each
/// slot's `n_ctx`; a server that does not is assumed to say nothing (short
/// timeout: it is a probe).
pub async fn probe_server_limits(base: &str) -> ServerLimits {
    let key = ("props", base);
    // A server that answered (with limits, or a 404) is not asked again for a minute.
    super::probed::remembered(&key, super::probed::KEPT_FOR, ask_server_limits(base), Option::is_some)
        .await
        .unwrap_or_default()
}

/// The limits the server states; `None` when it did not answer at all.
async fn ask_server_limits(base: &str) -> Option<ServerLimits> {
    let root = base.trim_end_matches('/').trim_end_matches("/v1");
    let probe =
        crate::provider::http::Made { connect: None, whole: Some(Duration::from_millis(1500)), headers: vec![] };
    let client = crate::provider::http::shared_client(&probe).ok()?;
    let response = client.get(format!("{root}/props")).send().await.ok()?;
    if !response.status().is_success() {
        return Some(ServerLimits::default());
    }
    let Ok(body) = response.json::<serde_json::Value>().await else { return Some(ServerLimits::default()) };
    Some(limits_of(&body))
}

/// The limits a `/props` body states; none where it states none.
pub fn limits_of(body: &serde_json::Value) -> ServerLimits {
    let number = |v: &serde_json::Value| v.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0);
    let llama_cpp = body.get("total_slots").is_some() || body.get("default_generation_settings").is_some();
    ServerLimits {
        slots: number(&body["total_slots"]),
        context: number(&body["default_generation_settings"]["n_ctx"]).or_else(|| number(&body["n_ctx"])),
        holds_lengths: llama_cpp,
    }
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
pub(super) fn openai_model_chosen(config: &Config) -> bool {
    config.get("providers.openai.model").is_some_and(|e| !matches!(e.source, Source::Default))
}

/// Asks the OpenAI-compatible server of `kind` which models it serves
/// (`GET /models`, with its key and headers; short timeout: it is a probe).
pub async fn probe_openai_models(config: &Config, kind: ProviderKind) -> Result<Vec<String>, String> {
    // Everything the request is made of: where, and the headers with the key.
    let key = ("models", super::models::list_request(config, kind), super::endpoints::headers(config, kind));
    // A list, or a refusal (a 404, a wrong key), is kept; no answer at all is not.
    let answered = |listed: &Result<Vec<String>, String>| {
        listed.as_ref().map_or_else(|why| !why.starts_with("no answer"), |_| true)
    };
    super::probed::remembered(&key, super::probed::KEPT_FOR, ask_openai_models(config, kind), answered).await
}

async fn ask_openai_models(config: &Config, kind: ProviderKind) -> Result<Vec<String>, String> {
    // A server started beside heat may come up a moment later: one that does not answer at all is
    // asked again, for about two seconds, before heat goes on without its list.
    let mut tries = 0;
    loop {
        let listed = super::models::listed_at(config, kind, Duration::from_millis(1500)).await;
        match listed {
            Err(why) if why.starts_with("no answer") && tries < 4 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::testing::config;

    #[test]
    fn a_props_body_gives_the_slots_and_each_slots_context() {
        // llama.cpp's server (0c1e570) started with -c 8192 -np 2, trimmed.
        let props = serde_json::json!({
            "default_generation_settings": {"n_ctx": 4096, "params": {"n_predict": -1}},
            "total_slots": 2,
            "model_alias": "smollm",
            "build_info": "b1-0c1e570"
        });
        assert_eq!(limits_of(&props), ServerLimits { slots: Some(2), context: Some(4096), holds_lengths: true });
        assert_eq!(limits_of(&serde_json::json!({"object": "list"})), ServerLimits::default(), "says nothing");
        let no_slots = limits_of(&serde_json::json!({"total_slots": 0}));
        assert_eq!((no_slots.slots, no_slots.context), (None, None), "0 is no limit");
        assert!(no_slots.holds_lengths, "but only llama.cpp's server says total_slots");
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
}
