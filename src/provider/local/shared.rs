//! What every lane of the embedded model shares: the options it runs with,
//! the loaded model, tokenizer, template and grammars, and the channel an
//! answer's pieces go back on.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

use super::grammar::Grammars;
use super::llama::Llama;
use super::team::Team;
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
    /// A prompt read while no lane writes an answer uses every core.
    pub wide_prompts: bool,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self { n_ctx: 2048, lanes: 3, seed: 1234, repeat_penalty: 1.1, wide_prompts: true }
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
    /// Lanes writing an answer now.
    pub generating: AtomicUsize,
    /// Every core, for a prompt read while no lane is writing: the other
    /// cores would otherwise wait (at a debate's start both debaters' lanes
    /// wait for the first prompt). `None` when it would be no wider than
    /// the threads a computation has anyway.
    pub wide: Option<rayon::ThreadPool>,
    /// Helpers for a generated token's products (`team`): the threads a
    /// computation has beyond the calling one, where heat's kernel runs.
    pub team: Option<Team>,
}

impl Shared {
    /// Runs `read` (a prompt's reading) on every core when no lane is
    /// writing an answer, else on the computation's own threads.
    pub fn reading<T: Send>(&self, read: impl FnOnce() -> T + Send) -> T {
        match &self.wide {
            Some(pool) if self.generating.load(Ordering::Acquire) == 0 => pool.install(read),
            _ => read(),
        }
    }

    /// The team while at most one lane writes an answer: with two, each
    /// lane's thread already has a core, and a helper spinning beside them
    /// would take time from both.
    pub fn team(&self) -> Option<&Team> {
        self.team.as_ref().filter(|_| self.generating.load(Ordering::Acquire) <= 1)
    }

    /// Counts a lane as writing until the returned guard is dropped.
    pub fn writing(&self) -> Writing<'_> {
        self.generating.fetch_add(1, Ordering::AcqRel);
        Writing(&self.generating)
    }
}

/// A lane writing an answer; see [`Shared::writing`].
pub struct Writing<'a>(&'a AtomicUsize);

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The pool [`Shared::wide`] holds, when this machine has more cores than
/// a computation's threads.
pub fn wide_pool() -> Option<rayon::ThreadPool> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    (cores > rayon::current_num_threads())
        .then(|| {
            rayon::ThreadPoolBuilder::new().num_threads(cores).thread_name(|i| format!("heat-prompt-{i}")).build().ok()
        })
        .flatten()
}

/// The team [`Shared::team`] holds: a helper for each of a computation's
/// threads beyond the calling one, where heat's kernel runs (the products
/// it splits are that kernel's).
pub fn team() -> Option<Team> {
    let helpers = rayon::current_num_threads().saturating_sub(1);
    (helpers > 0 && super::q8_0::runs_here()).then(|| Team::start(helpers).ok()).flatten()
}
