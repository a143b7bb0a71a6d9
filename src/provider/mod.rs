//! Talking to models: the `ChatModel` trait, the request and chunk types every
//! provider shares, and the provider error taxonomy that drives retries.
//! Nothing here knows about debates.

pub mod anthropic;
pub mod endpoint;
pub mod http;
#[cfg(feature = "local")]
mod lanes;
#[cfg(feature = "local")]
pub mod local;
pub mod openai;
pub mod retry;
pub mod scripted;
pub mod sse;

use std::pin::Pin;
use std::time::Duration;

use futures::Stream;
use serde::{Deserialize, Serialize};

/// Who wrote a message in a chat history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    User,
    Assistant,
}

/// One message of a chat history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: String,
}

impl ChatMessage {
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: ChatRole::User, content: content.into() }
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Self { role: ChatRole::Assistant, content: content.into() }
    }
}

/// A JSON schema the answer must follow (structured output / grammar).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseSchema {
    /// Short identifier, e.g. `verdict` (OpenAI requires a name).
    pub name: String,
    pub schema: serde_json::Value,
    /// How strongly the provider is asked to hold the answer to the schema.
    pub form: StructuredOutput,
    /// Whether a refusal may step the form down (`auto`), or is final.
    pub may_step_down: bool,
}

impl ResponseSchema {
    /// A schema asked for in the strongest form, stepping down when refused.
    pub fn new(name: impl Into<String>, schema: serde_json::Value) -> Self {
        Self { name: name.into(), schema, form: StructuredOutput::Schema, may_step_down: true }
    }
}

/// The forms of structured output, strongest first. Each provider maps them
/// onto its API: OpenAI `json_schema` / `json_object` (with the schema in the
/// field some servers read); Anthropic `output_config` / a forced tool call.
/// With [`StructuredOutput::Off`] nothing is sent: the schema travels in the
/// prompt and the tolerant parser reads the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructuredOutput {
    Schema,
    Json,
    Off,
}

impl StructuredOutput {
    /// The next weaker form, if any.
    pub fn step_down(self) -> Option<Self> {
        match self {
            Self::Schema => Some(Self::Json),
            Self::Json => Some(Self::Off),
            Self::Off => None,
        }
    }

    /// The name the setting `providers.<name>.structured_output` uses.
    pub fn setting(self) -> &'static str {
        match self {
            Self::Schema => "schema",
            Self::Json => "json",
            Self::Off => "off",
        }
    }

    /// What the form is on the wire of `provider` (`openai`, `anthropic`).
    pub fn describe(self, provider: &str) -> &'static str {
        match (self, provider) {
            (Self::Schema, "anthropic") => "output_config json_schema",
            (Self::Schema, _) => "response_format json_schema",
            (Self::Json, "anthropic") => "a forced tool call",
            (Self::Json, _) => "response_format json_object",
            (Self::Off, _) => "plain text with the schema in the prompt",
        }
    }
}

/// Everything one model call needs. The provider decides how each field maps
/// onto its wire format.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    pub system: String,
    /// A block the system prompt starts with that stays the same for the
    /// whole debate (the date, the source document): a provider that can
    /// cache a prompt's start marks it for caching.
    pub grounding: Option<String>,
    pub messages: Vec<ChatMessage>,
    /// `None` means: do not send a temperature at all.
    pub temperature: Option<f32>,
    pub max_tokens: u32,
    /// Anthropic extended thinking budget. When set, a provider that cannot
    /// combine it with a temperature must drop the temperature.
    pub thinking_budget: Option<u32>,
    /// Ask for output matching this schema where the provider supports it.
    pub response_schema: Option<ResponseSchema>,
    /// A Lark grammar the answer must follow, held only by the embedded
    /// model (a critic's issue line); a server is sent nothing of it.
    pub grammar: Option<String>,
    /// Sampling seed where the provider supports one (local model, some servers).
    pub seed: Option<u64>,
}

impl ChatRequest {
    /// The whole system prompt as one text: the grounding block first.
    pub fn full_system_prompt(&self) -> String {
        match &self.grounding {
            Some(block) => format!("{}\n\n{}", block.trim_end(), self.system_prompt()),
            None => self.system_prompt().into_owned(),
        }
    }

    /// The system prompt after the grounding block: where the form of
    /// structured output does not hold the answer to the schema, the schema
    /// rides in the prompt.
    pub fn system_prompt(&self) -> std::borrow::Cow<'_, str> {
        match &self.response_schema {
            Some(schema) if schema.form != StructuredOutput::Schema => {
                let schema = serde_json::to_string(&schema.schema).unwrap_or_default();
                let rule = format!("Answer with one JSON object that must follow this JSON schema:\n{schema}");
                if self.system.trim().is_empty() {
                    rule.into()
                } else {
                    format!("{}\n\n{rule}", self.system.trim_end()).into()
                }
            }
            _ => self.system.as_str().into(),
        }
    }
}

/// A temperature as sent on the wire: two decimals, so `0.7_f32` goes out
/// as `0.7` and not `0.699999988079071`.
pub fn wire_temperature(t: f32) -> f64 {
    (f64::from(t) * 100.0).round() / 100.0
}

/// Token usage a provider reported for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Every input token, cached or not.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Of the input, how much was read from the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cached_input_tokens: u64,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why a model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// Natural end of the answer.
    Stop,
    /// The token cap was reached.
    Length,
    /// Anything else the server named.
    Other(String),
}

/// One piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// Visible answer text.
    Text(String),
    /// Reasoning / thinking text, never part of the answer.
    Reasoning(String),
    /// Usage so far (providers may send several; the last one wins).
    Usage(Usage),
    /// The closing event. A stream that ends without it is a `StreamCut`.
    Finish(FinishReason),
    /// The model the server says answered (it may differ from the one asked for).
    Model(String),
    /// The provider changed how it talks to this endpoint for the rest of the
    /// debate (e.g. it now sends one request at a time).
    Adapted(Adaptation),
}

/// A lasting change in how heat talks to one endpoint, learnt from the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Adaptation {
    /// The server accepts only this form of structured output (or weaker).
    StructuredOutput { form: StructuredOutput },
    /// The server cuts a running stream when another request arrives:
    /// requests to it are sent one at a time.
    OneAtATime,
}

/// Why a model call failed. The variant decides whether it is retried.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    #[error("rate limited by the provider: {message}")]
    RateLimited { retry_after: Option<Duration>, message: String },
    #[error("the provider is overloaded: {message}")]
    Overloaded { retry_after: Option<Duration>, message: String },
    #[error("server error {status}: {message}")]
    Server { status: u16, retry_after: Option<Duration>, message: String },
    #[error("timed out: {0}")]
    Timeout(String),
    #[error("could not connect: {0}")]
    Connect(String),
    #[error("the stream ended before the answer was complete")]
    StreamCut,
    #[error("the server ended the answer without any text")]
    EmptyAnswer,
    #[error("the server closed the stream without sending anything")]
    EmptyStream,
    #[error("nothing at {url}: {message}")]
    NotFound { url: String, message: String },
    #[error("malformed stream from the provider: {0}")]
    Malformed(String),
    #[error("authentication failed ({status}): {message}")]
    Auth { status: u16, message: String },
    #[error("the spend limit or quota is exhausted: {message}")]
    QuotaExhausted { message: String },
    #[error("the model does not accept `{param}`: {message}")]
    ParameterRejected { param: String, message: String },
    #[error("request rejected ({status}): {message}")]
    BadRequest { status: u16, message: String },
    #[error("local model: {0}")]
    Local(String),
}

impl ProviderError {
    /// Whether trying the same request again may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. }
                | Self::Overloaded { .. }
                | Self::Server { .. }
                | Self::Timeout(_)
                | Self::Connect(_)
                | Self::StreamCut
                | Self::EmptyAnswer
                | Self::EmptyStream
                | Self::Malformed(_)
        )
    }

    /// What a person can do about this error once retrying has given up,
    /// for the provider named `provider` (`anthropic`, `openai`, `local`).
    pub fn advice(&self, provider: &str) -> Option<String> {
        let (key_var, url_var) = match provider {
            "anthropic" => ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
            "openai" => ("OPENAI_API_KEY", "OPENAI_BASE_URL"),
            "ollama" => ("the API key", "OLLAMA_HOST"),
            _ => ("the API key", "the base URL"),
        };
        Some(match self {
            Self::Auth { .. } => format!("check {key_var}"),
            Self::QuotaExhausted { .. } => "add credit or raise the spend limit in the provider's console".into(),
            Self::Connect(_) => format!("is the server running, and is {url_var} right?"),
            Self::Timeout(_) => "the server stopped answering; try again, or raise network.idle_timeout_secs".into(),
            Self::RateLimited { .. } | Self::Overloaded { .. } | Self::Server { .. } => {
                "the provider is busy; try again later, or raise network.max_retries".into()
            }
            Self::StreamCut | Self::Malformed(_) => "the connection kept failing; try again".into(),
            Self::EmptyAnswer => "the server kept ending its answers empty; if it serves one request at a time, \
                 set providers.openai.max_concurrent = 1"
                .into(),
            Self::EmptyStream => "a local server does this when the prompt is longer than its context: \
                 give it a larger context, or lower roles.max_tokens"
                .into(),
            Self::NotFound { url, message } => return Some(not_found_advice(provider, url, message)),
            Self::ParameterRejected { param, .. } if is_structured_param(param) => format!(
                "the server refuses this form of structured output: set providers.{provider}.structured_output \
                 = \"auto\" (steps down by itself), \"json\" or \"off\""
            ),
            Self::BadRequest { status: 404, .. } => "check the model name (roles.model, or --model)".into(),
            Self::BadRequest { message, .. } if message.to_lowercase().contains("model") => {
                "check the model name (roles.model, or --model)".into()
            }
            Self::Local(_) => "check the model file with `heat doctor`".into(),
            Self::ParameterRejected { .. } | Self::BadRequest { .. } => return None,
        })
    }

    /// The sentence a person reads: the error and, where there is one, what
    /// to do, joined without doubled punctuation.
    pub fn sentence(&self, provider: &str) -> String {
        let error = self.to_string();
        match self.advice(provider) {
            Some(advice) => format!("{} ({advice})", crate::sanitize::clause(&error)),
            None => error,
        }
    }

    /// The delay the server asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after, .. }
            | Self::Overloaded { retry_after, .. }
            | Self::Server { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// Whether a refused parameter is one of the structured-output forms.
pub fn is_structured_param(param: &str) -> bool {
    matches!(param, "response_format" | "output_config" | "json_schema" | "tools" | "tool_choice" | "response_schema")
}

/// What a 404 means for `provider`: a model the server does not have, or a
/// base URL with `/v1` missing or doubled.
fn not_found_advice(provider: &str, url: &str, message: &str) -> String {
    let lower = message.to_lowercase();
    if lower.contains("model") && !lower.contains("not found: /") {
        return "check the model name (roles.model, or --model)".into();
    }
    let (var, example) = match provider {
        "anthropic" => ("ANTHROPIC_BASE_URL", "https://api.anthropic.com, without /v1 (heat adds /v1/messages)"),
        "ollama" => ("OLLAMA_HOST", "localhost:11434 (heat adds /v1/chat/completions)"),
        _ => ("OPENAI_BASE_URL", "http://host:port/v1, with /v1 (heat adds /chat/completions)"),
    };
    let shape = if url.contains("/v1/v1/") {
        "the base URL ends in /v1 and heat added another"
    } else if provider != "anthropic" && !url.contains("/v1/") {
        "the base URL has no /v1"
    } else {
        "the server has no such path"
    };
    format!("{shape}; {var} or providers.{provider}.base_url should look like {example}")
}

/// A streamed answer. Dropping it aborts the underlying request.
pub type ChunkStream = Pin<Box<dyn Stream<Item = Result<Chunk, ProviderError>> + Send>>;

/// A model that streams answers. One instance serves any number of calls;
/// the model name travels in the request.
pub trait ChatModel: Send + Sync {
    /// Short provider label for messages, e.g. `anthropic`, `openai`, `local`.
    fn provider_name(&self) -> &'static str;

    /// Starts one attempt at an answer. Retrying is the caller's business
    /// (see [`retry`]); the stream yields `Err` at most once, then ends.
    fn stream(&self, request: ChatRequest) -> ChunkStream;

    /// The HTTP endpoint this model's requests go to; `None` in-process.
    fn http_endpoint(&self) -> Option<&endpoint::Endpoint> {
        None
    }

    /// The endpoint's key (`openai http://host/v1`), under which what the
    /// server taught heat is remembered.
    fn endpoint(&self) -> Option<String> {
        self.http_endpoint().map(|e| e.key().to_string())
    }

    /// Applies a lasting change learnt earlier (a resumed debate's log).
    fn adapt(&self, adaptation: &Adaptation) {
        if let Some(endpoint) = self.http_endpoint() {
            endpoint.adapt(adaptation);
        }
    }

    /// The context window in tokens, where it is small and known (the
    /// embedded model); `None` for servers, which say so themselves.
    fn context_tokens(&self) -> Option<u32> {
        None
    }

    /// Whether a trailing assistant message is taken as the start of the
    /// answer: the model continues it, and the stream begins with it.
    fn continues_answer(&self) -> bool {
        false
    }

    /// Something the person should know about this model before it
    /// debates (a model file without a chat template of its own).
    fn notice(&self) -> Option<String> {
        None
    }

    /// Whether this is the embedded offline model: a tiny model that heat
    /// steers (given openings, a judge that chooses instead of writing).
    fn is_embedded(&self) -> bool {
        false
    }

    /// Whether the model waits where it is while its stream is not polled
    /// (the embedded model: it stops between two tokens and goes on from
    /// there), so a paused debate stops polling it. Such a model counts no
    /// time it is not polled against a timeout. A server's answer runs on
    /// whether or not it is read: it is not held, it finishes in the
    /// background.
    fn pauses_in_place(&self) -> bool {
        false
    }
}
