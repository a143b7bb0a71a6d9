//! Running a provider turn against the mock server: a fast retry policy,
//! a config pointing at the server, a default request, and readers for the
//! items a retried turn yields.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use super::mock_llm::MockLlm;
use futures::StreamExt;
use heat::provider::anthropic::AnthropicModel;
use heat::provider::http::HttpConfig;
use heat::provider::openai::OpenAiModel;
use heat::provider::retry::{RetryPolicy, TurnItem, with_retry};
use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk, FinishReason, ProviderError};

pub const FAST: RetryPolicy = RetryPolicy {
    max_retries: 3,
    base_delay: Duration::from_millis(5),
    max_delay: Duration::from_millis(20),
    max_retry_after: Duration::from_secs(5),
};

pub fn config(server: &MockLlm, key: Option<&str>) -> HttpConfig {
    HttpConfig {
        base_url: server.base_url.clone(),
        api_key: key.map(String::from),
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_millis(300),
        first_byte_timeout: Duration::from_millis(300),
        max_concurrent: None,
        headers: Vec::new(),
    }
}

pub fn anthropic(server: &MockLlm) -> Arc<dyn ChatModel> {
    Arc::new(AnthropicModel::new(config(server, Some("test-anthropic-key"))))
}

pub fn openai(server: &MockLlm, key: Option<&str>) -> Arc<dyn ChatModel> {
    Arc::new(OpenAiModel::new(config(server, key)))
}

pub fn request() -> ChatRequest {
    ChatRequest {
        model: "test-model".into(),
        system: "You are the ADVOCATE.".into(),
        messages: vec![ChatMessage::user("Argue for tabs.")],
        temperature: Some(0.7),
        max_tokens: 300,

        ..ChatRequest::default()
    }
}

/// Runs a turn; returns every item and the final error, if any.
pub async fn run(model: Arc<dyn ChatModel>, request: ChatRequest) -> (Vec<TurnItem>, Option<ProviderError>) {
    run_with(model, request, FAST).await
}

/// Every item of a turn retried by `policy`, and the final error if any.
pub async fn run_with(
    model: Arc<dyn ChatModel>,
    request: ChatRequest,
    policy: RetryPolicy,
) -> (Vec<TurnItem>, Option<ProviderError>) {
    let mut stream = with_retry(model, request, policy);
    let mut items = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(item) => items.push(item),
            Err(e) => return (items, Some(e)),
        }
    }
    (items, None)
}

/// The text of the last attempt (what the engine keeps).
pub fn final_text(items: &[TurnItem]) -> String {
    let start = items.iter().rposition(|i| matches!(i, TurnItem::Retrying { .. })).map_or(0, |p| p + 1);
    items[start..]
        .iter()
        .filter_map(|i| if let TurnItem::Chunk(Chunk::Text(t)) = i { Some(t.as_str()) } else { None })
        .collect()
}

pub fn retries(items: &[TurnItem]) -> Vec<&ProviderError> {
    items.iter().filter_map(|i| if let TurnItem::Retrying { error, .. } = i { Some(error) } else { None }).collect()
}

pub fn finished(items: &[TurnItem]) -> bool {
    matches!(items.last(), Some(TurnItem::Chunk(Chunk::Finish(FinishReason::Stop))))
}

/// Which role a request is for, from its system prompt (the built-in prompts).
pub fn role_of(request: &super::mock_llm::Recorded) -> heat::debate::Role {
    use heat::debate::Role;
    let system = request.system();
    if system.contains("You are the JUDGE") {
        Role::Judge
    } else if system.contains("You are the ADVOCATE") {
        Role::Advocate
    } else {
        Role::Skeptic
    }
}
