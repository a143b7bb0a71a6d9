//! A model call under way in the engine: what it was asked (the call, its
//! purpose, the prompt the guards compare with, the form and token limit it
//! was sent) and what it has answered so far.

use tokio::task::JoinHandle;

use crate::debate::call::Call;
use crate::debate::event::TurnPurpose;
use crate::debate::guard::turn::SentPrompt;
use crate::provider::{FinishReason, SchemaAsk, ToolCall, Usage};

/// A call under way: what it asks, and what it has answered so far.
pub(super) struct Flight {
    pub(super) call: Call,
    /// What it is for: a turn's purpose (a vote's and a swap check's is the judge's).
    pub(super) purpose: TurnPurpose,
    pub(super) handle: JoinHandle<()>,
    /// What the model was sent, for the guards.
    pub(super) sent: SentPrompt,
    /// This is the one more try a guard asked for.
    pub(super) guard_retry: bool,
    /// A vote's or a swap check's answer so far; a turn's streams into the state.
    pub(super) text: String,
    /// The latest usage and the finish the current attempt reported.
    pub(super) usage: Option<Usage>,
    pub(super) finish: Option<FinishReason>,
    /// The endpoint its model sends to, if a server, and the provider's name.
    pub(super) endpoint: Option<String>,
    pub(super) provider: &'static str,
    /// How its schema was asked for, where it sent one.
    pub(super) form: Option<SchemaAsk>,
    /// The answer's token limit it was sent (fitting a server's context may lower it).
    pub(super) max_tokens: u32,
    /// When a debater's turn runs out of time (`debate.turn_seconds`).
    pub(super) deadline: Option<std::time::Instant>,
    /// The tool calls its answer made so far, whole.
    pub(super) tool_calls: Vec<ToolCall>,
    /// It was offered tools it may still call: its calls are answered and
    /// the turn asked on (calls made past that are ignored).
    pub(super) tools_open: bool,
}
