//! OpenAI-compatible Chat Completions, streamed (`data: {chunk}` … `[DONE]`):
//! OpenAI itself and the servers that speak its dialect — Ollama's `/v1`,
//! llama.cpp's server, vLLM, LM Studio, OpenRouter. Reasoning arrives as
//! `delta.reasoning_content` or `delta.reasoning`, or inline as a
//! `<think>` block opening the content (`think`), and is kept apart.

use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};

use std::sync::Arc;

use super::endpoint::Endpoint;
use super::http::{self, HttpConfig, JsonStr};
use super::sse::{self, SseEvent};
use super::think::{Piece, ThinkSplit};
use super::tool::Assembly;
use super::{ChatModel, ChatRequest, Chunk, ChunkStream, FinishReason, ProviderError, StructuredOutput, Usage};

pub struct OpenAiModel {
    config: HttpConfig,
    client: reqwest::Client,
    endpoint: Arc<Endpoint>,
    /// The provider's name in labels and advice: `openai`, or `ollama`
    /// for Ollama's OpenAI-compatible endpoint.
    name: &'static str,
}

impl OpenAiModel {
    pub fn new(config: HttpConfig) -> Self {
        let client = config.client();
        let key = format!("openai {}", config.base_url.trim_end_matches('/'));
        let endpoint = Endpoint::shared(&key, config.max_concurrent);
        Self { config, client, endpoint, name: "openai" }
    }

    /// The same model, labelled as another OpenAI-compatible provider.
    #[must_use]
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }
}

/// The request body for a streamed call.
pub fn body(request: &ChatRequest) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    let system = request.full_system_prompt();
    if !system.is_empty() {
        messages.push(json!({ "role": "system", "content": system }));
    }
    for message in &request.messages {
        messages.extend(wire_messages(message));
    }
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
        "stream_options": { "include_usage": true },
    });
    // OpenAI's reasoning models take the answer's room only as `max_completion_tokens`.
    let room = if request.reasoning.completion_tokens { "max_completion_tokens" } else { "max_tokens" };
    body[room] = json!(request.max_tokens);
    if let Some(effort) = &request.reasoning.effort {
        body["reasoning_effort"] = json!(effort);
    }
    if let Some(t) = request.temperature {
        body["temperature"] = json!(super::wire_temperature(t));
    }
    if let Some(seed) = request.seed {
        body["seed"] = json!(seed);
    }
    match &request.response_schema {
        Some(schema) if schema.form == StructuredOutput::Schema => {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": { "name": schema.name, "schema": schema.sent(request.max_tokens), "strict": true }
            });
        }
        // `schema` beside `json_object` is what llama.cpp's servers read; others ignore it.
        Some(schema) if schema.form == StructuredOutput::Json => {
            body["response_format"] = json!({ "type": "json_object", "schema": schema.sent(request.max_tokens) });
        }
        _ => {}
    }
    if let Some(tools) = &request.tools {
        let specs: Vec<Value> = tools
            .specs
            .iter()
            .map(|t| json!({ "type": "function", "function": { "name": t.name, "description": t.description, "parameters": t.parameters } }))
            .collect();
        body["tools"] = json!(specs);
        if !tools.may_call {
            body["tool_choice"] = json!("none");
        }
    }
    body
}

/// One message of the history as the wire has it: an assistant's tool
/// calls beside its text, and each call's result as a `tool` message.
fn wire_messages(message: &super::ChatMessage) -> Vec<Value> {
    if !message.tool_results.is_empty() {
        return message
            .tool_results
            .iter()
            .map(|r| json!({ "role": "tool", "tool_call_id": r.call_id, "content": r.content }))
            .collect();
    }
    if message.tool_calls.is_empty() {
        return vec![json!({ "role": message.role, "content": message.content })];
    }
    let calls: Vec<Value> = message
        .tool_calls
        .iter()
        .map(|c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }))
        .collect();
    let content = if message.content.is_empty() { Value::Null } else { json!(message.content) };
    vec![json!({ "role": message.role, "content": content, "tool_calls": calls })]
}

impl ChatModel for OpenAiModel {
    fn provider_name(&self) -> &'static str {
        self.name
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let key = match self.config.key_header("Bearer ") {
            Ok(key) => key,
            Err(e) => return http::failed(e),
        };
        let mut builder = self
            .client
            .post(self.config.url("chat/completions"))
            .header("accept", "text/event-stream")
            .json(&body(&request));
        if let Some(key) = key {
            builder = builder.header(reqwest::header::AUTHORIZATION, key);
        }
        let waits = self.config.waits();
        self.endpoint.guard(move || parse(sse::event_stream(builder, waits)).boxed())
    }

    fn http_endpoint(&self) -> Option<&Endpoint> {
        Some(&self.endpoint)
    }
}

/// Turns SSE events into chunks. The finish is emitted at `[DONE]` (after
/// the usage chunk), or when a body that had a `finish_reason` ends, is cut
/// or stalls; a body that ends without a `finish_reason`, even with
/// `[DONE]`, is a cut stream (servers that serve one request at a time end
/// the running stream that way when another arrives).
pub fn parse(
    events: impl futures::Stream<Item = Result<SseEvent, ProviderError>> + Send + 'static,
) -> impl futures::Stream<Item = Result<Chunk, ProviderError>> + Send {
    futures::stream::unfold((Box::pin(events), Parser::default()), |(mut events, mut state)| async move {
        loop {
            if let Some(chunk) = state.pending.pop() {
                return Some((Ok(chunk), (events, state)));
            }
            if state.done {
                return None;
            }
            match events.next().await {
                None => {
                    state.done = true;
                    let cut = if state.events == 0 { ProviderError::EmptyStream } else { ProviderError::StreamCut };
                    match state.finish.take() {
                        Some(reason) => state.finish_with(reason),
                        None => return Some((Err(cut), (events, state))),
                    }
                }
                Some(Err(e)) => {
                    state.done = true;
                    // The answer was complete: a server that then stalls or
                    // drops the connection instead of sending `[DONE]` loses nothing.
                    let after_finish = matches!(e, ProviderError::Timeout(_) | ProviderError::StreamCut);
                    match state.finish.take() {
                        Some(reason) if after_finish => state.finish_with(reason),
                        _ => return Some((Err(e), (events, state))),
                    }
                }
                Some(Ok(event)) => {
                    state.events += 1;
                    if let Err(e) = state.event(&event) {
                        state.done = true;
                        return Some((Err(e), (events, state)));
                    }
                }
            }
        }
    })
}

/// The fields of a chunk heat reads; the rest is skipped unparsed.
#[derive(Deserialize)]
struct ChunkJson<'a> {
    #[serde(borrow, default)]
    choices: Vec<Choice<'a>>,
    #[serde(default)]
    usage: Option<UsageJson>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(borrow, default)]
    model: Option<JsonStr<'a>>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<JsonStr<'a>>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow, default)]
    content: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    reasoning_content: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    reasoning: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    tool_calls: Option<Vec<ToolCallDelta<'a>>>,
}

/// A piece of a tool call: the first names it, the rest add to its arguments.
#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    id: Option<JsonStr<'a>>,
    #[serde(borrow, default)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(borrow, default)]
    name: Option<JsonStr<'a>>,
    /// Usually text; a server that sends the arguments as an object is read too.
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Deserialize)]
struct UsageJson {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptTokensJson>,
}

/// Of the prompt, what OpenAI read from its automatic prompt cache.
#[derive(Deserialize)]
struct PromptTokensJson {
    #[serde(default)]
    cached_tokens: u64,
}

#[derive(Default)]
struct Parser {
    /// Chunks ready to hand out, in reverse order.
    pending: Vec<Chunk>,
    finish: Option<FinishReason>,
    done: bool,
    /// Whether the served model's name was passed on.
    model_told: bool,
    /// Events received; none at all is an empty stream.
    events: usize,
    /// The content's inline reasoning, split from its text.
    think: ThinkSplit,
    /// Tool calls as their pieces arrive; handed on whole before the finish.
    calls: Assembly,
}

impl Parser {
    /// The answer's end: what the split still holds, then the finish.
    fn finish_with(&mut self, reason: FinishReason) {
        // A server that calls tools may still say `stop`.
        let calls = self.calls.take();
        let reason = if calls.is_empty() || reason == FinishReason::Length { reason } else { FinishReason::ToolCalls };
        self.pending.push(Chunk::Finish(reason));
        self.pending.extend(calls.into_iter().rev().map(Chunk::ToolCall));
        let held: Vec<Chunk> = self.think.finish().into_iter().map(chunk).collect();
        self.pending.extend(held.into_iter().rev());
    }

    fn event(&mut self, event: &SseEvent) -> Result<(), ProviderError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.done = true;
            let reason = self.finish.take().ok_or(ProviderError::StreamCut)?;
            self.finish_with(reason);
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        if event.event.as_deref() == Some("error") {
            let error = serde_json::from_str::<Value>(data).unwrap_or_else(|_| json!({ "message": data }));
            let inner = if error["error"].is_null() { &error } else { &error["error"] };
            return Err(stream_error(inner));
        }
        let json: ChunkJson<'_> = serde_json::from_str(data)
            .map_err(|e| ProviderError::Malformed(format!("a chunk that is not JSON ({e})")))?;
        if let Some(error) = json.error.filter(|e| !e.is_null()) {
            return Err(stream_error(&error));
        }
        let mut ready = Vec::new();
        if let Some(model) = json.model.filter(|m| !self.model_told && !m.trim().is_empty()) {
            self.model_told = true;
            ready.push(Chunk::Model(model.into_owned()));
        }
        if let Some(choice) = json.choices.into_iter().next() {
            if let Some(delta) = choice.delta {
                if let Some(text) = delta.reasoning_content.or(delta.reasoning).filter(|t| !t.is_empty()) {
                    ready.push(Chunk::Reasoning(text.into_owned()));
                }
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    ready.extend(self.think.feed(&text).into_iter().map(chunk));
                }
                for piece in delta.tool_calls.unwrap_or_default() {
                    let function = piece.function;
                    let name = function.as_ref().and_then(|f| f.name.as_deref());
                    let arguments = match function.as_ref().and_then(|f| f.arguments.as_ref()) {
                        Some(Value::String(text)) => text.clone(),
                        Some(Value::Null) | None => String::new(),
                        Some(object) => object.to_string(),
                    };
                    self.calls.piece(piece.index, piece.id.as_deref(), name, &arguments);
                }
            }
            match choice.finish_reason.as_deref() {
                None => {}
                Some("error") => return Err(stream_error(&choice.error.unwrap_or_default())),
                Some("stop") => self.finish = Some(FinishReason::Stop),
                Some("length") => self.finish = Some(FinishReason::Length),
                Some("tool_calls" | "function_call") => self.finish = Some(FinishReason::ToolCalls),
                Some(other) => self.finish = Some(FinishReason::Other(other.to_string())),
            }
        }
        if let Some(usage) = json.usage {
            let cached = usage.prompt_tokens_details.map_or(0, |d| d.cached_tokens);
            // OpenAI counts the cached part inside `prompt_tokens`; a gateway that converts
            // Anthropic's usage may give only the uncached part, which the cached part then exceeds.
            let input = if cached > usage.prompt_tokens { usage.prompt_tokens + cached } else { usage.prompt_tokens };
            ready.push(Chunk::Usage(Usage {
                input_tokens: input,
                output_tokens: usage.completion_tokens,
                cached_input_tokens: cached,
                ..Usage::default()
            }));
        }
        ready.reverse();
        ready.append(&mut self.pending);
        self.pending = ready;
        Ok(())
    }
}

/// A piece of the content as the chunk it is.
fn chunk(piece: Piece) -> Chunk {
    match piece {
        Piece::Reasoning(text) => Chunk::Reasoning(text),
        Piece::Text(text) => Chunk::Text(text),
    }
}

/// An error reported inside the stream: `{"error": {...}}` or a choice with
/// `finish_reason: "error"`. A numeric `code` (OpenRouter, llama.cpp) is read
/// as an HTTP status; otherwise the type decides, and a failure of unknown
/// kind is a server error worth another try.
fn stream_error(error: &Value) -> ProviderError {
    let message =
        error["message"].as_str().or_else(|| error.as_str()).unwrap_or("the stream reported an error").to_string();
    let kind = error["type"].as_str().or_else(|| error["code"].as_str()).unwrap_or_default();
    if let Some(status) = error["code"].as_u64().and_then(|c| u16::try_from(c).ok()).filter(|c| (400..600).contains(c))
    {
        let body = json!({ "error": { "message": message, "type": kind } }).to_string();
        return super::error_response::classify(status, &reqwest::header::HeaderMap::new(), &body);
    }
    if kind.contains("quota") {
        ProviderError::QuotaExhausted { message }
    } else if kind.contains("rate_limit") {
        ProviderError::RateLimited { retry_after: None, message }
    } else if kind.contains("overloaded") || message.to_lowercase().contains("overloaded") {
        ProviderError::Overloaded { retry_after: None, message }
    } else {
        ProviderError::Server { status: 500, retry_after: None, message }
    }
}
