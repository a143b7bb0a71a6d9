//! Anthropic's Messages API, streamed: `message_start`, `content_block_*`
//! (text, thinking, signature deltas), `message_delta`, `message_stop`,
//! `ping` and in-stream `error` events. A forced tool call (the step below
//! `output_config` for structured output) streams its JSON as answer text.

use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};

use std::sync::Arc;

use super::endpoint::Endpoint;
use super::http::{self, HttpConfig, JsonStr};
use super::sse::{self, SseEvent};
use super::tool::Assembly;
use super::{ChatModel, ChatRequest, Chunk, ChunkStream, FinishReason, ProviderError, StructuredOutput, Usage};

/// The API version heat speaks.
pub const API_VERSION: &str = "2023-06-01";

/// The smallest thinking budget the API accepts.
pub const MIN_THINKING_BUDGET: u32 = 1024;

pub struct AnthropicModel {
    config: HttpConfig,
    client: reqwest::Client,
    endpoint: Arc<Endpoint>,
    name: &'static str,
}

impl AnthropicModel {
    pub fn new(config: HttpConfig) -> Self {
        let client = config.client();
        let key = format!("anthropic {}", config.base_url.trim_end_matches('/'));
        let endpoint = Endpoint::shared(&key, config.max_concurrent);
        Self { config, client, endpoint, name: "anthropic" }
    }

    /// The same model, labelled as an endpoint heat.toml defines on
    /// Anthropic's wire.
    #[must_use]
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }
}

/// The shortest grounding block worth a cache mark: about 1,024 tokens,
/// the least Anthropic caches, at four characters a token.
const CACHEABLE_CHARS: usize = 4096;

/// The request body for a streamed call.
pub fn body(request: &ChatRequest) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(wire_message).collect();
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": messages,
        "stream": true,
    });
    let system = request.system_prompt();
    match &request.grounding {
        // The grounding block is the same all debate: cached, so each turn
        // after the first reads it at a tenth of the price. Anthropic caches
        // blocks of 1,024 tokens or more; a shorter one (the date alone) is
        // sent as part of the prompt.
        Some(block) if block.len() >= CACHEABLE_CHARS => {
            let mut blocks = vec![json!({ "type": "text", "text": block, "cache_control": { "type": "ephemeral" } })];
            if !system.is_empty() {
                blocks.push(json!({ "type": "text", "text": system }));
            }
            body["system"] = json!(blocks);
        }
        Some(_) => body["system"] = json!(request.full_system_prompt()),
        None if !system.is_empty() => body["system"] = json!(system),
        None => {}
    }
    match request.thinking_budget {
        // With thinking on, the API refuses a temperature, and the budget must stay below max_tokens.
        Some(budget) => {
            let budget = budget.max(MIN_THINKING_BUDGET);
            body["thinking"] = json!({ "type": "enabled", "budget_tokens": budget });
            body["max_tokens"] = json!(request.max_tokens.max(budget.saturating_add(1024)));
        }
        None => {
            if let Some(t) = request.temperature {
                body["temperature"] = json!(super::wire_temperature(t));
            }
        }
    }
    match &request.response_schema {
        Some(schema) if schema.form == StructuredOutput::Schema => {
            let sent = schema.sent(request.max_tokens);
            body["output_config"] = json!({ "format": { "type": "json_schema", "schema": sent } });
        }
        // With thinking on, the API refuses a forced tool: the prompt carries the schema.
        Some(schema) if schema.form == StructuredOutput::Json && request.thinking_budget.is_none() => {
            body["tools"] = json!([{
                "name": schema.name,
                "description": "Give your answer as this tool's input.",
                "input_schema": schema.sent(request.max_tokens),
            }]);
            body["tool_choice"] = json!({ "type": "tool", "name": schema.name });
        }
        _ => {}
    }
    if let Some(tools) = &request.tools {
        let mut specs: Vec<Value> = tools
            .specs
            .iter()
            .map(|t| json!({ "name": t.name, "description": t.description, "input_schema": t.parameters }))
            .collect();
        if let Some(Value::Array(forced)) = body.get_mut("tools").map(Value::take) {
            specs.extend(forced);
        }
        body["tools"] = json!(specs);
        if !tools.may_call && body.get("tool_choice").is_none() {
            body["tool_choice"] = json!({ "type": "none" });
        }
    }
    body
}

/// One message of the history as the wire has it: an assistant's text and
/// tool calls as content blocks; what heat answered them as `tool_result`
/// blocks of a user's message.
fn wire_message(message: &super::ChatMessage) -> Value {
    if !message.tool_results.is_empty() {
        let results: Vec<Value> = message
            .tool_results
            .iter()
            .map(|r| json!({ "type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error }))
            .collect();
        return json!({ "role": message.role, "content": results });
    }
    if message.tool_calls.is_empty() {
        return json!({ "role": message.role, "content": message.content });
    }
    let mut blocks = Vec::new();
    if !message.content.trim().is_empty() {
        blocks.push(json!({ "type": "text", "text": message.content }));
    }
    for call in &message.tool_calls {
        blocks.push(json!({ "type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments_object() }));
    }
    json!({ "role": message.role, "content": blocks })
}

impl ChatModel for AnthropicModel {
    fn provider_name(&self) -> &'static str {
        self.name
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let key = match self.config.key_header("") {
            Ok(key) => key,
            Err(e) => return http::failed(e),
        };
        let mut builder = self
            .client
            .post(self.config.url("v1/messages"))
            .header("anthropic-version", API_VERSION)
            .header("accept", "text/event-stream")
            .json(&body(&request));
        if let Some(key) = key {
            builder = builder.header("x-api-key", key);
        }
        let waits = self.config.waits();
        let tools = offered(&request);
        self.endpoint.guard(move || parse_calling(sse::event_stream(builder, waits), tools.clone()).boxed())
    }

    fn http_endpoint(&self) -> Option<&Endpoint> {
        Some(&self.endpoint)
    }
}

/// The names of the tools `request` offers the model to call (not the
/// forced tool that carries a structured answer).
fn offered(request: &ChatRequest) -> Vec<String> {
    request.tools.as_ref().map(|t| t.specs.iter().map(|s| s.name.clone()).collect()).unwrap_or_default()
}

/// Turns SSE events into chunks; ends after `message_stop` or the first
/// error. Every `tool_use` block is read as a structured answer's text.
pub fn parse(
    events: impl futures::Stream<Item = Result<SseEvent, ProviderError>> + Send + 'static,
) -> impl futures::Stream<Item = Result<Chunk, ProviderError>> + Send {
    parse_calling(events, Vec::new())
}

/// [`parse`], for a request that offered the tools named `tools`: a
/// `tool_use` block calling one of them is a tool call.
pub fn parse_calling(
    events: impl futures::Stream<Item = Result<SseEvent, ProviderError>> + Send + 'static,
    tools: Vec<String>,
) -> impl futures::Stream<Item = Result<Chunk, ProviderError>> + Send {
    let state = Parser { tools, ..Parser::default() };
    futures::stream::unfold((Box::pin(events), state), |(mut events, mut state)| async move {
        if state.done {
            return None;
        }
        loop {
            let Some(item) = events.next().await else {
                state.done = true;
                let cut = if state.events == 0 { ProviderError::EmptyStream } else { ProviderError::StreamCut };
                return Some((Err(cut), (events, state)));
            };
            state.events += 1;
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
    kind: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    message: Option<Message>,
    #[serde(borrow, default)]
    content_block: Option<Block<'a>>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    usage: Option<UsageJson>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    text: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    thinking: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    stop_reason: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    partial_json: Option<JsonStr<'a>>,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    usage: Option<UsageJson>,
    #[serde(default)]
    model: Option<String>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    text: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    id: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    name: Option<JsonStr<'a>>,
}

// Anthropic's own field names.
#[allow(clippy::struct_field_names)]
#[derive(Deserialize)]
struct UsageJson {
    #[serde(default)]
    input_tokens: Option<u64>,
    /// Input read from the prompt cache (not counted in `input_tokens`).
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
    /// Input written to the prompt cache (not counted in `input_tokens`).
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
}

#[derive(Default)]
struct Parser {
    usage: Usage,
    /// Input written to the prompt cache (part of the input, not a read).
    cache_written: u64,
    stop_reason: Option<String>,
    done: bool,
    /// Events received; none at all is an empty stream.
    events: usize,
    /// The tools the request offered to call.
    tools: Vec<String>,
    /// The tool calls under way, by their block's index.
    calls: Assembly,
    /// Blocks that are a tool call, by index (the rest stream as text).
    calling: Vec<u64>,
}

impl Parser {
    /// A `tool_use` block began: a call, where the request offered its tool.
    fn tool_block(&mut self, index: Option<u64>, block: &Block<'_>) -> bool {
        let name = block.name.as_deref().unwrap_or_default();
        if block.kind.as_deref() != Some("tool_use") || !self.tools.iter().any(|t| t == name) {
            return false;
        }
        let index = index.unwrap_or(self.calling.len() as u64);
        self.calling.push(index);
        self.calls.piece(Some(index), block.id.as_deref(), Some(name), "");
        true
    }

    fn event(&mut self, event: &SseEvent) -> Result<Option<Chunk>, ProviderError> {
        let data: Event<'_> = serde_json::from_str(&event.data)
            .map_err(|e| ProviderError::Malformed(format!("an event that is not JSON ({e})")))?;
        let kind = event.event.as_deref().or(data.kind.as_deref()).unwrap_or_default();
        Ok(match kind {
            "message_start" => {
                let Some(message) = data.message else { return Ok(None) };
                if let Some(usage) = message.usage {
                    let cached = usage.cache_read_input_tokens.unwrap_or(0);
                    let written = usage.cache_creation_input_tokens.unwrap_or(0);
                    self.usage.input_tokens = usage.input_tokens.unwrap_or(0) + cached + written;
                    self.usage.cached_input_tokens = cached;
                    self.cache_written = written;
                    self.usage.output_tokens = usage.output_tokens.unwrap_or(0);
                }
                message.model.filter(|m| !m.trim().is_empty()).map(Chunk::Model)
            }
            "content_block_start" => {
                let Some(block) = data.content_block else { return Ok(None) };
                if self.tool_block(data.index, &block) {
                    return Ok(None);
                }
                block.text.filter(|t| !t.is_empty()).map(|t| Chunk::Text(t.into_owned()))
            }
            "content_block_delta" => {
                let Some(delta) = data.delta else { return Ok(None) };
                if let Some(index) = data.index.filter(|i| self.calling.contains(i)) {
                    let json = delta.partial_json.as_deref().unwrap_or_default();
                    self.calls.piece(Some(index), None, None, json);
                    return Ok(None);
                }
                match delta.kind.as_deref() {
                    Some("text_delta") => delta.text.map(|t| Chunk::Text(t.into_owned())),
                    Some("thinking_delta") => delta.thinking.map(|t| Chunk::Reasoning(t.into_owned())),
                    // A forced tool call: its input is the answer.
                    Some("input_json_delta") => {
                        delta.partial_json.filter(|t| !t.is_empty()).map(|t| Chunk::Text(t.into_owned()))
                    }
                    _ => None, // signature_delta
                }
            }
            "message_delta" => {
                if let Some(reason) = data.delta.and_then(|d| d.stop_reason) {
                    self.stop_reason = Some(reason.into_owned());
                }
                let Some(usage) = data.usage else { return Ok(None) };
                if let Some(input) = usage.input_tokens {
                    // As in message_start: the uncached part, the cache's own counts beside it.
                    let cached = usage.cache_read_input_tokens.unwrap_or(self.usage.cached_input_tokens);
                    let written = usage.cache_creation_input_tokens.unwrap_or(self.cache_written);
                    self.usage.input_tokens = input + cached + written;
                    self.usage.cached_input_tokens = cached;
                }
                usage.output_tokens.map(|o| {
                    self.usage.output_tokens = o;
                    Chunk::Usage(self.usage)
                })
            }
            "content_block_stop" => {
                // A call is whole when its block ends.
                let Some(index) = data.index.filter(|i| self.calling.contains(i)) else { return Ok(None) };
                self.calling.retain(|i| *i != index);
                let Some(mut call) = self.calls.take_one(index) else { return Ok(None) };
                if call.arguments.trim().is_empty() {
                    call.arguments = "{}".into();
                }
                Some(Chunk::ToolCall(call))
            }
            "message_stop" => {
                self.done = true;
                let reason = match self.stop_reason.as_deref() {
                    Some("tool_use") if !self.tools.is_empty() => FinishReason::ToolCalls,
                    None | Some("end_turn" | "stop_sequence" | "tool_use") => FinishReason::Stop,
                    Some("max_tokens") => FinishReason::Length,
                    Some(other) => FinishReason::Other(other.to_string()),
                };
                Some(Chunk::Finish(reason))
            }
            "error" => return Err(stream_error(&data.error.unwrap_or_default())),
            _ => None, // ping, events added later
        })
    }
}

/// An `event: error` inside the stream, by its `error.type`.
fn stream_error(error: &Value) -> ProviderError {
    let message = error["message"].as_str().unwrap_or("the stream reported an error").to_string();
    match error["type"].as_str() {
        Some("overloaded_error") => ProviderError::Overloaded { retry_after: None, message },
        Some("rate_limit_error") => ProviderError::RateLimited { retry_after: None, message },
        Some("authentication_error") => ProviderError::Auth { status: 401, message },
        Some("permission_error") => ProviderError::Auth { status: 403, message },
        Some("billing_error") => ProviderError::QuotaExhausted { message },
        Some("invalid_request_error") => ProviderError::BadRequest { status: 400, message },
        Some("not_found_error") => ProviderError::BadRequest { status: 404, message },
        Some("request_too_large") => ProviderError::BadRequest { status: 413, message },
        Some("api_error" | "timeout_error") => ProviderError::Server { status: 500, retry_after: None, message },
        Some(other) => ProviderError::Malformed(format!("an error event of unknown type `{other}`: {message}")),
        None => ProviderError::Malformed(format!("an error event without a type: {message}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::ChatMessage;

    fn request() -> ChatRequest {
        ChatRequest {
            model: "claude".into(),
            system: String::new(),
            messages: vec![ChatMessage::user("hi")],
            temperature: Some(0.3),
            max_tokens: 300,
            seed: Some(1),
            ..ChatRequest::default()
        }
    }

    #[test]
    fn structured_output_steps_from_output_config_to_a_forced_tool_to_nothing() {
        let schema = |form| crate::provider::ResponseSchema {
            name: "verdict".into(),
            schema: json!({"type": "object"}),
            form,
            may_step_down: true,
            capped: false,
        };
        let strong = body(&ChatRequest { response_schema: Some(schema(StructuredOutput::Schema)), ..request() });
        assert_eq!(strong["output_config"]["format"]["type"], "json_schema");
        assert!(strong.get("tools").is_none());
        let tool = body(&ChatRequest { response_schema: Some(schema(StructuredOutput::Json)), ..request() });
        assert!(tool.get("output_config").is_none());
        assert_eq!(tool["tools"][0]["name"], "verdict");
        assert_eq!(tool["tools"][0]["input_schema"]["type"], "object");
        assert_eq!(tool["tool_choice"], json!({"type": "tool", "name": "verdict"}));
        let thinking = ChatRequest {
            response_schema: Some(schema(StructuredOutput::Json)),
            grammar: None,
            thinking_budget: Some(2000),
            ..request()
        };
        assert!(body(&thinking).get("tool_choice").is_none(), "thinking may not force a tool");
        let off = body(&ChatRequest { response_schema: Some(schema(StructuredOutput::Off)), ..request() });
        assert!(off.get("tools").is_none() && off.get("output_config").is_none());
    }

    #[test]
    fn thinking_drops_temperature_and_keeps_max_tokens_above_the_budget() {
        let plain = body(&request());
        assert_eq!(plain["temperature"], 0.3);
        assert!(plain.get("system").is_none() && plain.get("seed").is_none() && plain.get("thinking").is_none());
        let small = body(&ChatRequest { thinking_budget: Some(100), ..request() });
        assert!(small.get("temperature").is_none());
        assert_eq!(small["thinking"]["budget_tokens"], MIN_THINKING_BUDGET);
        assert!(small["max_tokens"].as_u64() > Some(u64::from(MIN_THINKING_BUDGET)));
        let huge = body(&ChatRequest { thinking_budget: Some(u32::MAX), ..request() });
        assert_eq!(huge["max_tokens"], u32::MAX, "no overflow");
        let roomy = body(&ChatRequest { thinking_budget: Some(2000), max_tokens: 16_000, ..request() });
        assert_eq!(roomy["max_tokens"], 16_000, "a max_tokens already above the budget is kept");
    }

    #[test]
    fn error_events_are_classified_by_type() {
        let kind = |t: &str| stream_error(&json!({ "type": t, "message": "m" }));
        assert!(matches!(kind("overloaded_error"), ProviderError::Overloaded { .. }));
        assert!(matches!(kind("rate_limit_error"), ProviderError::RateLimited { .. }));
        assert!(matches!(kind("api_error"), ProviderError::Server { status: 500, .. }));
        assert!(matches!(kind("authentication_error"), ProviderError::Auth { status: 401, .. }));
        assert!(matches!(kind("billing_error"), ProviderError::QuotaExhausted { .. }));
        assert!(matches!(kind("invalid_request_error"), ProviderError::BadRequest { status: 400, .. }));
        assert!(matches!(kind("brand_new_error"), ProviderError::Malformed(m) if m.contains("brand_new_error")));
    }
}
