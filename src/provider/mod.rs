//! Talking to models: the `ChatModel` trait, the request and chunk types every
//! provider shares, and the provider error taxonomy that drives retries.
//! Nothing here knows about debates.

pub mod anthropic;
pub mod http;
#[cfg(feature = "local")]
mod lanes;
pub mod llama_gate;
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
}

/// Everything one model call needs. The provider decides how each field maps
/// onto its wire format.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    pub system: String,
    pub messages: Vec<ChatMessage>,
    /// `None` means: do not send a temperature at all.
    pub temperature: Option<f32>,
    pub max_tokens: u32,
    /// Anthropic extended thinking budget. When set, a provider that cannot
    /// combine it with a temperature must drop the temperature.
    pub thinking_budget: Option<u32>,
    /// Ask for output matching this schema where the provider supports it.
    pub response_schema: Option<ResponseSchema>,
    /// Sampling seed where the provider supports one (local model, some servers).
    pub seed: Option<u64>,
}

/// A temperature as sent on the wire: two decimals, so `0.7_f32` goes out
/// as `0.7` and not `0.699999988079071`.
pub fn wire_temperature(t: f32) -> f64 {
    (f64::from(t) * 100.0).round() / 100.0
}

/// Token usage a provider reported for one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
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
                | Self::Malformed(_)
        )
    }

    /// What a person can do about this error once retrying has given up,
    /// for the provider named `provider` (`anthropic`, `openai`, `local`).
    pub fn advice(&self, provider: &str) -> Option<String> {
        let (key_var, url_var) = match provider {
            "anthropic" => ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
            "openai" => ("OPENAI_API_KEY", "OPENAI_BASE_URL or OLLAMA_HOST"),
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
            Self::BadRequest { status: 404, .. } => "check the model name (roles.model, or --model)".into(),
            Self::BadRequest { message, .. } if message.to_lowercase().contains("model") => {
                "check the model name (roles.model, or --model)".into()
            }
            Self::Local(_) => "check the model file with `heat doctor`".into(),
            Self::ParameterRejected { .. } | Self::BadRequest { .. } => return None,
        })
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
}
