//! What every lane of the embedded model shares: the options it runs with,
//! the loaded model, tokenizer, template and grammars, and the channel an
//! answer's pieces go back on.

use std::sync::Mutex;

use tokio::sync::mpsc;

use super::grammar::Grammars;
use super::llama::Llama;
use super::template::ChatTemplate;
use super::vocab::Vocab;
use crate::provider::{Chunk, ProviderError};

/// How the embedded model runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalOptions {
    /// Context window in tokens (per lane).
    pub n_ctx: u32,
    /// Lanes, each with its own KV cache and thread: one per role by
    /// default, so every role reuses its own prompt prefix and the two
    /// debaters generate at once.
    pub lanes: usize,
    /// Seed when the request carries none.
    pub seed: u32,
    pub repeat_penalty: f32,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self { n_ctx: 2048, lanes: 3, seed: 1234, repeat_penalty: 1.1 }
    }
}

/// A piece of an answer, or why there is none.
pub type Reply = mpsc::Sender<Result<Chunk, ProviderError>>;

/// What every lane shares.
pub struct Shared {
    pub model: Llama,
    pub vocab: Vocab,
    pub template: ChatTemplate,
    pub grammars: Grammars,
    pub options: LocalOptions,
    /// Held while a lane reads a prompt: two prompts at once on two cores
    /// would only delay the first token of both.
    pub prefill: Mutex<()>,
}
