//! Anthropic's Messages API, streamed: `message_start`, `content_block_*`
//! (text, thinking, signature deltas), `message_delta`, `message_stop`,
//! `ping` and in-stream `error` events.

use std::borrow::Cow;

use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};

use super::http::{self, HttpConfig};
use super::sse::SseEvent;
use super::{ChatModel, ChatRequest, Chunk, ChunkStream, FinishReason, ProviderError, Usage};

/// The API version heat speaks.
pub const API_VERSION: &str = "2023-06-01";

pub struct AnthropicModel {
    config: HttpConfig,
    client: reqwest::Client,
}

impl AnthropicModel {
    pub fn new(config: HttpConfig) -> Self {
        let client = config.client();
        Self { config, client }
    }
}

/// The request body for a streamed call.
pub fn body(request: &ChatRequest) -> Value {
    let messages: Vec<Value> =
        request.messages.iter().map(|m| json!({ "role": m.role, "content": m.content })).collect();
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages,
        "stream": true,
    });
    if !request.system.is_empty() {
        body["system"] = json!(request.system);
    }
    match request.thinking_budget {
        // With thinking on, the API refuses a temperature, and the budget must stay below max_tokens.
        Some(budget) => {
            body["thinking"] = json!({ "type": "enabled", "budget_tokens": budget });
            body["max_tokens"] = json!(request.max_tokens.max(budget + 1024));
        }
        None => {
            if let Some(t) = request.temperature {
                body["temperature"] = json!(super::wire_temperature(t));
            }
        }
    }
    if let Some(schema) = &request.response_schema {
        body["output_config"] = json!({ "format": { "type": "json_schema", "schema": schema.schema } });
    }
    body
}

impl ChatModel for AnthropicModel {
    fn provider_name(&self) -> &'static str {
        "anthropic"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let mut builder = self
            .client
            .post(self.config.url("v1/messages"))
            .header("anthropic-version", API_VERSION)
            .header("accept", "text/event-stream")
            .json(&body(&request));
        if let Some(key) = &self.config.api_key {
            builder = builder.header("x-api-key", key);
        }
        parse(http::event_stream(builder, self.config.idle_timeout)).boxed()
    }
}

/// Turns SSE events into chunks; ends after `message_stop` or the first error.
pub fn parse(
    events: impl futures::Stream<Item = Result<SseEvent, ProviderError>> + Send + 'static,
) -> impl futures::Stream<Item = Result<Chunk, ProviderError>> + Send {
    let state = Parser::default();
    futures::stream::unfold((Box::pin(events), state), |(mut events, mut state)| async move {
        if state.done {
            return None;
        }
        loop {
            let Some(item) = events.next().await else {
                state.done = true;
                return Some((Err(ProviderError::StreamCut), (events, state)));
            };
            let result = item.and_then(|event| state.event(&event));
            match result {
                Ok(None) => {}
                Ok(Some(chunk)) => return Some((Ok(chunk), (events, state))),
                Err(e) => {
                    state.done = true;
                    return Some((Err(e), (events, state)));
                }
            }
        }
    })
}

/// The fields of a stream event heat reads; the rest is skipped unparsed.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    message: Option<Message>,
    #[serde(borrow, default)]
    content_block: Option<Block<'a>>,
    #[serde(default)]
    usage: Option<UsageJson>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    thinking: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    stop_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    usage: Option<UsageJson>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct UsageJson {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
}

#[derive(Default)]
struct Parser {
    usage: Usage,
    stop_reason: Option<String>,
    done: bool,
}

impl Parser {
    fn event(&mut self, event: &SseEvent) -> Result<Option<Chunk>, ProviderError> {
        let data: Event<'_> = serde_json::from_str(&event.data)
            .map_err(|e| ProviderError::Malformed(format!("an event that is not JSON ({e})")))?;
        let kind = event.event.as_deref().or(data.kind.as_deref()).unwrap_or_default();
        Ok(match kind {
            "message_start" => {
                if let Some(usage) = data.message.and_then(|m| m.usage) {
                    self.usage.input_tokens = usage.input_tokens.unwrap_or(0);
                    self.usage.output_tokens = usage.output_tokens.unwrap_or(0);
                }
                None
            }
            "content_block_start" => {
                let text = data.content_block.and_then(|b| b.text).filter(|t| !t.is_empty());
                text.map(|t| Chunk::Text(t.into_owned()))
            }
            "content_block_delta" => {
                let Some(delta) = data.delta else { return Ok(None) };
                match delta.kind.as_deref() {
                    Some("text_delta") => delta.text.map(|t| Chunk::Text(t.into_owned())),
                    Some("thinking_delta") => delta.thinking.map(|t| Chunk::Reasoning(t.into_owned())),
                    _ => None, // signature_delta, input_json_delta
                }
            }
            "message_delta" => {
                if let Some(reason) = data.delta.and_then(|d| d.stop_reason) {
                    self.stop_reason = Some(reason.into_owned());
                }
                let output = data.usage.and_then(|u| u.output_tokens);
                output.map(|o| {
                    self.usage.output_tokens = o;
                    Chunk::Usage(self.usage)
                })
            }
            "message_stop" => {
                self.done = true;
                let reason = match self.stop_reason.as_deref() {
                    None | Some("end_turn" | "stop_sequence") => FinishReason::Stop,
                    Some("max_tokens") => FinishReason::Length,
                    Some(other) => FinishReason::Other(other.to_string()),
                };
                Some(Chunk::Finish(reason))
            }
            "error" => return Err(stream_error(&data.error.unwrap_or_default())),
            _ => None, // ping, content_block_stop, events added later
        })
    }
}

fn stream_error(error: &Value) -> ProviderError {
    let message = error["message"].as_str().unwrap_or("the stream reported an error").to_string();
    match error["type"].as_str() {
        Some("overloaded_error") => ProviderError::Overloaded { retry_after: None, message },
        Some("rate_limit_error") => ProviderError::RateLimited { retry_after: None, message },
        Some("authentication_error" | "permission_error") => ProviderError::Auth { status: 401, message },
        Some("invalid_request_error") => ProviderError::BadRequest { status: 400, message },
        _ => ProviderError::Server { status: 500, retry_after: None, message },
    }
}
