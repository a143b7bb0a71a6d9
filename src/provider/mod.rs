//! Talking to models: the `ChatModel` trait, the request and chunk types every
//! provider shares, and the provider error taxonomy that drives retries.
//! Nothing here knows about debates.

pub mod agent;
pub mod anthropic;
pub mod caps;
pub mod chat;
pub mod desk;
pub mod endpoint;
pub mod error;
pub mod error_response;
mod gather;
pub mod http;
pub mod kind;
#[cfg(feature = "local")]
mod lanes;
#[cfg(feature = "local")]
pub mod local;
pub mod model;
pub mod openai;
pub mod person;
pub mod retry;
pub mod scripted;
pub mod sse;
pub mod think;
pub mod tool;

pub use chat::{
    Adaptation, ChatMessage, ChatRequest, ChatRole, Chunk, ChunkStream, FinishReason, ReasoningAsk, ResponseSchema,
    SchemaAsk, StructuredOutput, Usage, wire_temperature,
};
pub use error::{AgentFailure, ProviderError, is_structured_param};
pub use kind::{PROVIDERS, ProviderKind, Wire};
pub use model::ChatModel;
pub use tool::{ToolCall, ToolResult, ToolSpec, Tools};
