//! What every provider shares on the way in and out: a chat request and its
//! messages, the structured-output forms, and the pieces a streamed answer
//! arrives in.

use std::pin::Pin;

use futures::Stream;
use serde::{Deserialize, Serialize};

use super::error::ProviderError;
use super::kind::{ProviderKind, Wire};
use super::tool::{ToolCall, ToolResult, Tools};

/// Who wrote a message in a chat history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    User,
    Assistant,
}

/// One message of a chat history. An assistant's may carry the tool calls
/// it made after its text; a user's may instead carry what those calls
/// returned (each wire writes them its own way).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_results: Vec<ToolResult>,
}

impl ChatMessage {
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: ChatRole::User, content: content.into(), tool_calls: Vec::new(), tool_results: Vec::new() }
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Self { role: ChatRole::Assistant, content: content.into(), tool_calls: Vec::new(), tool_results: Vec::new() }
    }

    /// An assistant's message that said `content`, then made `calls`.
    pub fn calling(content: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        Self { tool_calls: calls, ..Self::assistant(content) }
    }

    /// What heat answered the calls of the message before.
    pub fn results(results: Vec<ToolResult>) -> Self {
        Self { tool_results: results, ..Self::user("") }
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
    /// Whether its free strings and lists are sent with length caps that
    /// fit the answer's `max_tokens` ([`caps`](super::caps)): a server whose
    /// grammar holds the shape while a small model writes on inside it.
    #[serde(default)]
    pub capped: bool,
}

/// How a schema was asked for: what a finished call's answer is read
/// against (`debate::answer::AskedForm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaAsk {
    pub form: StructuredOutput,
    /// A refusal may step the form down.
    pub may_step_down: bool,
    /// It went with length caps.
    pub capped: bool,
}

impl ResponseSchema {
    /// A schema asked for in the strongest form, stepping down when refused.
    pub fn new(name: impl Into<String>, schema: serde_json::Value) -> Self {
        Self { name: name.into(), schema, form: StructuredOutput::Schema, may_step_down: true, capped: false }
    }

    /// How it is asked for.
    pub fn ask(&self) -> SchemaAsk {
        SchemaAsk { form: self.form, may_step_down: self.may_step_down, capped: self.capped }
    }

    /// The schema as sent for an answer of at most `max_tokens` tokens:
    /// with length caps that fit it, where asked.
    pub fn sent(&self, max_tokens: u32) -> serde_json::Value {
        let mut schema = self.schema.clone();
        if self.capped {
            super::caps::cap(&mut schema, super::caps::Caps::for_answer(max_tokens));
        }
        schema
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

    /// What the form is on the wire of `provider` (`openai`, `anthropic`),
    /// as its row of the provider table says.
    pub fn describe(self, provider: &str) -> &'static str {
        let anthropic = ProviderKind::from_name(provider).is_some_and(|kind| kind.wire() == Wire::Anthropic);
        match (self, anthropic) {
            (Self::Schema, true) => "output_config json_schema",
            (Self::Schema, false) => "response_format json_schema",
            (Self::Json, true) => "a forced tool call",
            (Self::Json, false) => "response_format json_object",
            (Self::Off, _) => "plain text with the schema in the prompt",
        }
    }
}

/// Everything one model call needs. The provider decides how each field maps
/// onto its wire format.
#[derive(Debug, Clone, Default, PartialEq)]
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
    /// How a reasoning model is asked.
    pub reasoning: ReasoningAsk,
    /// The tools the model may call, where it is offered any.
    pub tools: Option<Tools>,
    /// The judge's final word: it ends the debate whatever it says, so a
    /// person in the seat is not asked whether it settles it.
    pub closing: bool,
}

/// How a request asks a reasoning model: the field its answer's room goes
/// in, and how hard it thinks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReasoningAsk {
    /// The answer's room goes as `max_completion_tokens`: OpenAI's
    /// reasoning models refuse `max_tokens` (learnt from the refusal).
    pub completion_tokens: bool,
    /// `reasoning_effort` (`low`, `medium`, `high`) where the wire takes
    /// one: OpenAI's reasoning models and servers that follow them.
    pub effort: Option<String>,
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
    /// What the call cost as the one who ran it reported it (an agent CLI's
    /// `total_cost_usd`), in millionths of a US dollar; it wins over a
    /// price heat would apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_micro_usd: Option<u64>,
}

impl Usage {
    /// The cost the one who ran the call reported, in US dollars.
    pub fn reported_usd(&self) -> Option<f64> {
        self.reported_micro_usd.map(|micro| micro as f64 / 1e6)
    }

    /// This usage if it is a measurement of a call that answered `text`;
    /// `None` (unknown) where it cannot be: no input tokens (every request
    /// has a prompt), or no output tokens for an answer that has text. A
    /// gateway that reports 0 in / 0 out for every call reports nothing.
    pub fn measured(self, text: &str) -> Option<Usage> {
        let plausible = self.input_tokens > 0 && (self.output_tokens > 0 || text.trim().is_empty());
        plausible.then_some(self)
    }
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
    /// The model stopped to have its tool calls answered.
    ToolCalls,
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
    /// A tool call, whole: its arguments arrived in full.
    ToolCall(ToolCall),
    /// Usage so far (providers may send several; the last one wins).
    Usage(Usage),
    /// The closing event. A stream that ends without it is a `StreamCut`.
    Finish(FinishReason),
    /// The model the server says answered (it may differ from the one asked for).
    Model(String),
    /// The provider changed how it talks to this endpoint for the rest of the
    /// debate (e.g. it now sends one request at a time).
    Adapted(Adaptation),
    /// The request waits inside heat for one of the endpoint's slots: it
    /// has not been sent. `Sent` follows when it is.
    Queued,
    /// A queued request was sent.
    Sent,
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
    /// The server gives one request this many tokens of context, prompt
    /// and answer together: requests to it are fitted to it.
    ContextWindow { tokens: u32 },
    /// The server holds an answer to a schema, but its model wrote on
    /// inside a string until its token limit cut the object: the schema's
    /// strings are sent with length caps (`caps::Caps`).
    CappedStrings,
    /// The judge's model there cannot write a verdict the guards accept,
    /// but the server holds an answer to a schema: the judge chooses its
    /// verdict (each side's strongest sentence, a question) instead, as
    /// the embedded judge does.
    ChosenVerdicts,
}

/// A streamed answer. Dropping it aborts the underlying request.
pub type ChunkStream = Pin<Box<dyn Stream<Item = Result<Chunk, ProviderError>> + Send>>;
