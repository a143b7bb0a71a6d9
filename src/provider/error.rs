//! Why a model call failed: the provider error taxonomy that decides
//! whether a call is retried, and the advice a person reads once it is not.

use std::time::Duration;

use super::kind::{ProviderKind, Wire};

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
    /// Nothing came before the first-byte deadline: the server was busy
    /// or queued the request for too long (not a stall once begun).
    #[error("the server did not begin its answer: {0}")]
    NotStarted(String),
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
    /// The prompt and the answer asked for do not fit the context the
    /// server gives a request; `window` where the server said it.
    #[error("the prompt is longer than the server's context allows: {message}")]
    ContextExceeded { window: Option<u32>, message: String },
    #[error("request rejected ({status}): {message}")]
    BadRequest { status: u16, message: String },
    #[error("local model: {0}")]
    Local(String),
    /// An agent CLI in the seat could not answer (`provider::agent`): the
    /// message is the whole sentence.
    #[error("{message}")]
    Agent { failure: AgentFailure, message: String },
}

/// Why an agent CLI could not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentFailure {
    /// Its program is not there: how to install it, where heat knows.
    NotInstalled { install: Option<String> },
    /// It has no credentials: how to log in, where heat knows.
    NotLoggedIn { login: Option<String> },
    /// It exited with an error, or was ended.
    Exited,
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
                | Self::NotStarted(_)
                | Self::Connect(_)
                | Self::StreamCut
                | Self::EmptyAnswer
                | Self::EmptyStream
                | Self::Malformed(_)
                | Self::Agent { failure: AgentFailure::Exited, .. }
        )
    }

    /// What a person can do about this error once retrying has given up,
    /// for the provider named `provider` (`anthropic`, `openai`, `local`).
    pub fn advice(&self, provider: &str) -> Option<String> {
        let row = ProviderKind::from_name(provider).map(ProviderKind::row);
        let key_var = row.and_then(|r| r.key_env).unwrap_or("the API key");
        let url_var = row.and_then(|r| r.url_env).unwrap_or("the base URL");
        Some(match self {
            Self::Auth { .. } => format!("check {key_var}"),
            Self::QuotaExhausted { .. } => "add credit or raise the spend limit in the provider's console".into(),
            Self::Connect(_) => format!("is the server running, and is {url_var} right?"),
            Self::Timeout(_) => "the server stopped answering; try again, or raise network.idle_timeout_secs".into(),
            Self::NotStarted(_) => format!(
                "the server may be busy with other requests: raise network.first_byte_timeout_secs, \
                 or lower providers.{provider}.max_concurrent"
            ),
            Self::RateLimited { .. } | Self::Overloaded { .. } => {
                "the provider is busy; try again later, or raise network.max_retries".into()
            }
            // A gateway's upstream or the server itself is away: waiting may help.
            Self::Server { status: 502..=504, .. } => {
                "the server (or a gateway in front of it) is unavailable; try again later, or raise network.max_retries"
                    .into()
            }
            // The same failure, asked again and again, is not a busy server.
            Self::Server { status, .. } => format!(
                "the server failed (HTTP {status}) each time it was asked: its log says why; a gateway in front of \
                 a model server may not reach it"
            ),
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
            Self::BadRequest { message, .. } if super::error_response::says_unsupported(&message.to_lowercase()) => {
                "the server, or a gateway in front of it, does not support this request as it is routed: check the \
                 gateway's setting for this provider (its route, or the provider it sends this model to)"
                    .into()
            }
            Self::BadRequest { message, .. } if message.to_lowercase().contains("model") => {
                "check the model name (roles.model, or --model)".into()
            }
            Self::Local(_) => "check the model file with `heat doctor`".into(),
            Self::Agent { failure: AgentFailure::NotInstalled { install: Some(install) }, .. } => {
                format!("install it: {install}")
            }
            Self::Agent { failure: AgentFailure::NotLoggedIn { login: Some(login) }, .. } => login.clone(),
            Self::Agent { failure: AgentFailure::Exited, .. } => {
                "its whole output is in heat's log; `heat doctor` runs it once".into()
            }
            Self::ContextExceeded { .. } => format!(
                "set providers.{provider}.max_context to the context the server gives one request \
                 (its total over its parallel slots), or lower roles.max_tokens"
            ),
            Self::ParameterRejected { .. } | Self::BadRequest { .. } | Self::Agent { .. } => return None,
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
    // A gateway that routes `provider,model` names the part it lacks: the provider, not the URL.
    if lower.contains("provider") && !lower.contains("not found: /") {
        return format!(
            "the gateway has no provider by the model name's provider part: check roles.model (or --model), \
             written as the gateway names its providers, e.g. provider,model; the base URL reached it ({url})"
        );
    }
    if lower.contains("model") && !lower.contains("not found: /") {
        return "check the model name (roles.model, or --model)".into();
    }
    // A server heat does not know is read as an OpenAI-compatible one.
    let row = ProviderKind::from_name(provider).filter(|k| !k.is_embedded()).unwrap_or(ProviderKind::OPENAI).row();
    let (var, example) = (row.url_env.unwrap_or("the base URL"), row.url_example);
    let shape = if url.contains("/v1/v1/") {
        "the base URL ends in /v1 and heat added another"
    } else if row.wire != Wire::Anthropic && !url.contains("/v1/") {
        "the base URL has no /v1"
    } else {
        "the server has no such path"
    };
    format!("{shape}; {var} or providers.{provider}.base_url should look like {example}")
}
