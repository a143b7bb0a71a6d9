//! The embedded offline model, in pure Rust: a GGUF file run on candle's
//! quantized kernels ([`llama`]), its tokenizer and chat template read from
//! the file, and `llguidance` holding JSON answers to their schema. One
//! loaded model serves a few lanes, each a thread with its own KV cache
//! (the weights are shared) that streams token text back over a channel; a
//! request goes to the lane that last served its system prompt (that
//! prefix is still cached) or to a free one, so the debaters generate side
//! by side. Prompt processing
//! takes one lane at a time. A request whose stream is dropped stops within
//! one token; one that is not read stops between two tokens until it is.

mod grammar;
mod kv;
mod llama;
mod look_up;
mod q8_0;
mod sampler;
mod shared;
mod team;
mod template;
mod turn;
mod vocab;
mod weights;

pub use shared::LocalOptions;
pub use weights::cache_path;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc as std_mpsc};

use tokio::sync::mpsc;

use super::lanes::{self, Router};
use super::{ChatModel, ChatRequest, ChunkStream, ProviderError};
use grammar::Grammars;
use shared::{Reply, Shared};
use template::ChatTemplate;
use turn::LaneState;
use vocab::Vocab;

struct Job {
    request: ChatRequest,
    reply: Reply,
}

/// One lane's queue, its worker and how many requests it holds.
struct Lane {
    jobs: Option<std_mpsc::Sender<Job>>,
    pending: Arc<AtomicUsize>,
    worker: Option<std::thread::JoinHandle<()>>,
}

/// The embedded model. Cheap to share: every role uses the same instance.
pub struct LocalModel {
    lanes: Vec<Lane>,
    router: Mutex<Router>,
    name: String,
    n_ctx: u32,
    /// Set when the file has no chat template: the template used instead.
    template_fallback: Option<&'static str>,
}

impl Drop for LocalModel {
    /// Closes the job queues and waits for the workers; a turn under way
    /// stops within one token once its consumer is gone.
    fn drop(&mut self) {
        for lane in &mut self.lanes {
            lane.jobs = None;
        }
        for lane in &mut self.lanes {
            if let Some(worker) = lane.worker.take() {
                let _ = worker.join();
            }
        }
    }
}

/// The environment the embedded engine's threads are set by, for
/// `threads` per computation: rayon's pool (heat's kernel and candle's
/// float products) gets them all. candle's own pool serves its quantized
/// kernels, and otherwise only small element-wise steps, where a second
/// thread cost more than it gave (generation at 2 threads: 70–76 tok/s
/// with it, 82–86 without); so it gets one thread where heat's kernel runs.
pub fn thread_variables(threads: usize) -> [(&'static str, String); 2] {
    let candle = if q8_0::runs_here() { 1 } else { threads };
    [("RAYON_NUM_THREADS", threads.to_string()), ("CANDLE_NUM_THREADS", candle.to_string())]
}

/// The file's vocabulary, chat template and the grammars built on them.
fn read_text_side(path: &Path) -> anyhow::Result<(Vocab, ChatTemplate, Grammars)> {
    let content = weights::metadata(path)?;
    let vocab = Vocab::from_gguf(&content)?;
    let template = ChatTemplate::from_gguf(&content, vocab.bos.as_deref(), vocab.eos.as_deref())?;
    let grammars = Grammars::new(vocab.tok_env())?;
    Ok((vocab, template, grammars))
}

impl LocalModel {
    /// Loads a GGUF file and starts its lanes.
    pub fn load(path: &Path, options: LocalOptions) -> Result<Self, ProviderError> {
        if !path.is_file() {
            return Err(ProviderError::Local(format!(
                "the model file {} does not exist; run `heat model install`",
                path.display()
            )));
        }
        let unusable = |e: anyhow::Error| ProviderError::Local(format!("could not load {}: {e}", path.display()));
        // The weights on this thread, the text side (vocabulary, template,
        // grammars: 0.2 s of the default model's 0.5 s) on another core.
        let (model, text) = std::thread::scope(|scope| {
            let text = scope.spawn(|| read_text_side(path));
            let model = weights::load(path, options.n_ctx as usize);
            (model, text.join())
        });
        let model = model.map_err(unusable)?;
        let (vocab, template, grammars) =
            text.unwrap_or_else(|_| Err(anyhow::anyhow!("reading its vocabulary failed"))).map_err(unusable)?;
        let template_fallback = template.fallback;
        let n_ctx = options.n_ctx;
        let count = options.lanes.max(1);
        let wide = if options.wide_prompts { shared::wide_pool() } else { None };
        let shared = Arc::new(Shared {
            model,
            vocab,
            template,
            grammars,
            options,
            prefill: Mutex::default(),
            generating: AtomicUsize::new(0),
            wide,
            team: shared::team(),
        });
        let mut lanes = Vec::with_capacity(count);
        for index in 0..count {
            lanes.push(start_lane(index, &shared, LaneState::default())?);
        }
        let name = path.file_stem().map_or_else(|| "local".into(), |s| s.to_string_lossy().into_owned());
        Ok(Self { router: Mutex::new(Router::new(lanes.len())), lanes, name, n_ctx, template_fallback })
    }

    /// The model's name, from its file name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

fn start_lane(index: usize, shared: &Arc<Shared>, mut state: LaneState) -> Result<Lane, ProviderError> {
    let (jobs_tx, jobs_rx) = std_mpsc::channel::<Job>();
    let pending = Arc::new(AtomicUsize::new(0));
    let (shared, count) = (Arc::clone(shared), Arc::clone(&pending));
    let worker = std::thread::Builder::new()
        .name(format!("heat-local-model-{index}"))
        .spawn(move || {
            while let Ok(job) = jobs_rx.recv() {
                // A job whose stream was dropped while it waited its turn is skipped.
                if !job.reply.is_closed()
                    && let Err(e) = turn::answer(&shared, &mut state, &job.request, &job.reply)
                {
                    let _ = job.reply.blocking_send(Err(e));
                }
                count.fetch_sub(1, Ordering::SeqCst);
            }
        })
        .map_err(|e| ProviderError::Local(format!("could not start the model thread: {e}")))?;
    Ok(Lane { jobs: Some(jobs_tx), pending, worker: Some(worker) })
}

impl ChatModel for LocalModel {
    fn provider_name(&self) -> &'static str {
        "local"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        // One piece in flight: a consumer that stops reading stops the model.
        let (tx, mut rx) = mpsc::channel(1);
        let busy: Vec<usize> = self.lanes.iter().map(|l| l.pending.load(Ordering::SeqCst)).collect();
        let index = self.router.lock().unwrap_or_else(PoisonError::into_inner).pick(lanes::key(&request.system), &busy);
        let lane = &self.lanes[index];
        lane.pending.fetch_add(1, Ordering::SeqCst);
        let sent = lane.jobs.as_ref().is_some_and(|jobs| jobs.send(Job { request, reply: tx.clone() }).is_ok());
        if !sent {
            lane.pending.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.try_send(Err(ProviderError::Local("the model thread has stopped".into())));
        }
        drop(tx);
        Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
    }

    fn context_tokens(&self) -> Option<u32> {
        Some(self.n_ctx)
    }

    fn continues_answer(&self) -> bool {
        true
    }

    /// The library's `search`, once a turn, held by its grammar (`look_up`).
    fn takes_tools(&self) -> bool {
        true
    }

    fn is_embedded(&self) -> bool {
        true
    }

    fn notice(&self) -> Option<String> {
        self.template_fallback
            .map(|used| format!("{} has no chat template of its own: heat formats its prompts as {used}", self.name))
    }

    fn pauses_in_place(&self) -> bool {
        true
    }
}
