//! The embedded offline model: llama.cpp in-process (`llama-cpp-2`). One
//! loaded model serves a few contexts ("lanes"), each on a worker thread of
//! its own that streams token text back over a channel; a request goes to
//! the lane that last served its system prompt (its prefix is still in that
//! KV cache) or to a free one, so the two debaters generate side by side.
//! Prompt processing takes one lane at a time. A request whose stream is
//! dropped stops within one token. A response schema becomes a grammar, so
//! even a tiny model answers valid JSON.

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, mpsc as std_mpsc};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use tokio::sync::mpsc;

use super::lanes::{self, Router};
use super::llama_gate::LLAMA;
use super::{ChatModel, ChatRequest, ChatRole, Chunk, ChunkStream, FinishReason, ProviderError, Usage};

/// How the embedded model runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalOptions {
    /// Context window in tokens (per lane).
    pub n_ctx: u32,
    /// Threads for generation, per lane. One holds its speed best on a busy
    /// 2-core machine.
    pub gen_threads: i32,
    /// Threads for prompt processing.
    pub batch_threads: i32,
    /// Contexts, each with its own KV cache and thread: one per role by
    /// default, so every role reuses its own prompt prefix and the two
    /// debaters generate at once.
    pub lanes: usize,
    /// Seed when the request carries none.
    pub seed: u32,
    pub repeat_penalty: f32,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self { n_ctx: 2048, gen_threads: 1, batch_threads: 2, lanes: 3, seed: 1234, repeat_penalty: 1.1 }
    }
}

/// Longest string the grammar lets the judge write: a tiny model otherwise
/// rambles until the token cap and never closes its JSON.
const GRAMMAR_MAX_STRING: u64 = 300;
/// Prompt tokens decoded per batch.
const BATCH: usize = 512;

type Reply = mpsc::Sender<Result<Chunk, ProviderError>>;

struct Job {
    request: ChatRequest,
    reply: Reply,
}

/// One context's queue, its worker and how many requests it holds.
struct Lane {
    jobs: std_mpsc::Sender<Job>,
    pending: Arc<AtomicUsize>,
    worker: Option<std::thread::JoinHandle<()>>,
}

/// The embedded model. Cheap to share: every role uses the same instance.
pub struct LocalModel {
    lanes: Vec<Lane>,
    router: Mutex<Router>,
    name: String,
    n_ctx: u32,
}

impl Drop for LocalModel {
    /// Closes the job queues and waits for the workers: a process that exits
    /// while llama.cpp is mid-decode crashes in its teardown. A cancelled
    /// turn stops within one token, so this is short.
    fn drop(&mut self) {
        for lane in &mut self.lanes {
            let (closed, _) = std_mpsc::channel();
            drop(std::mem::replace(&mut lane.jobs, closed));
        }
        for lane in &mut self.lanes {
            if let Some(worker) = lane.worker.take() {
                let _ = worker.join();
            }
        }
    }
}

/// llama.cpp's backend may be initialised once per process.
fn backend() -> Result<&'static LlamaBackend, ProviderError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            let mut backend = LlamaBackend::init().map_err(|e| e.to_string())?;
            // Otherwise llama.cpp writes thousands of lines to stderr, over the studio.
            backend.void_logs();
            Ok(backend)
        })
        .as_ref()
        .map_err(|e| ProviderError::Local(format!("could not start llama.cpp: {e}")))
}

/// What every lane shares.
struct Shared {
    model: Arc<LlamaModel>,
    options: LocalOptions,
    /// Held while a lane processes a prompt: two prompts at once on two
    /// cores would only delay the first token of both.
    prefill: Arc<Mutex<()>>,
}

impl LocalModel {
    /// Loads a GGUF file and starts its lanes, each creating its context on
    /// its own thread, one after another; returns once the first is ready
    /// (a request for a lane still starting waits in its queue).
    pub fn load(path: &Path, options: LocalOptions) -> Result<Self, ProviderError> {
        if !path.is_file() {
            return Err(ProviderError::Local(format!(
                "the model file {} does not exist; run `heat model install`",
                path.display()
            )));
        }
        let backend = backend()?;
        let inside = LLAMA.pass();
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default()).map_err(|e| {
            ProviderError::Local(format!("could not load {}: {e}; is it a GGUF model file?", path.display()))
        })?;
        drop(inside);
        let count = options.lanes.max(1);
        let n_ctx = options.n_ctx;
        let shared = Shared { model: Arc::new(model), options, prefill: Arc::default() };
        let mut lanes = Vec::new();
        let mut previous = None;
        for index in 0..count {
            let (lane, ready) = start_lane(index, &shared, backend, previous.take())?;
            lanes.push(lane);
            if index == 0 {
                ready.recv().map_err(|_| ProviderError::Local("the model thread stopped while loading".into()))??;
            } else {
                previous = Some(ready);
            }
        }
        let name = path.file_stem().map_or_else(|| "local".into(), |s| s.to_string_lossy().into_owned());
        Ok(Self { router: Mutex::new(Router::new(lanes.len())), lanes, name, n_ctx })
    }

    /// The model's name, from its file name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

type Ready = std_mpsc::Receiver<Result<(), ProviderError>>;

/// Starts one lane's worker, which creates its context once `after` (the
/// previous lane) is ready; returns the lane and its own readiness.
fn start_lane(
    index: usize,
    shared: &Shared,
    backend: &'static LlamaBackend,
    after: Option<Ready>,
) -> Result<(Lane, Ready), ProviderError> {
    let (jobs_tx, jobs_rx) = std_mpsc::channel::<Job>();
    let (ready_tx, ready_rx) = std_mpsc::channel();
    let pending = Arc::new(AtomicUsize::new(0));
    let (model, options, prefill, count) =
        (shared.model.clone(), shared.options.clone(), shared.prefill.clone(), pending.clone());
    let worker = std::thread::Builder::new()
        .name(format!("heat-local-model-{index}"))
        .spawn(move || {
            if let Some(previous) = after {
                let _ = previous.recv();
            }
            let lane = Worker { model: &model, options: &options, prefill: &prefill, pending: &count };
            lane.run(backend, &ready_tx, &jobs_rx);
        })
        .map_err(|e| ProviderError::Local(format!("could not start the model thread: {e}")))?;
    Ok((Lane { jobs: jobs_tx, pending, worker: Some(worker) }, ready_rx))
}

impl ChatModel for LocalModel {
    fn provider_name(&self) -> &'static str {
        "local"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let (tx, mut rx) = mpsc::channel(256);
        let busy: Vec<usize> = self.lanes.iter().map(|l| l.pending.load(Ordering::SeqCst)).collect();
        let index = self.router.lock().unwrap_or_else(PoisonError::into_inner).pick(lanes::key(&request.system), &busy);
        let lane = &self.lanes[index];
        lane.pending.fetch_add(1, Ordering::SeqCst);
        if lane.jobs.send(Job { request, reply: tx.clone() }).is_err() {
            lane.pending.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.try_send(Err(ProviderError::Local("the model thread has stopped".into())));
        }
        drop(tx);
        Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
    }

    fn context_tokens(&self) -> Option<u32> {
        Some(self.n_ctx)
    }
}

/// A lane's worker thread: its context, and the jobs it serves in order.
struct Worker<'a> {
    model: &'a LlamaModel,
    options: &'a LocalOptions,
    prefill: &'a Mutex<()>,
    pending: &'a AtomicUsize,
}

impl Worker<'_> {
    fn run(
        &self,
        backend: &LlamaBackend,
        ready: &std_mpsc::Sender<Result<(), ProviderError>>,
        jobs: &std_mpsc::Receiver<Job>,
    ) {
        let options = self.options;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(options.n_ctx))
            .with_n_batch(u32::try_from(BATCH).unwrap_or(512))
            .with_n_threads(options.gen_threads)
            .with_n_threads_batch(options.batch_threads);
        let inside = LLAMA.pass();
        let started =
            self.model.new_context(backend, params).map_err(|e| format!("could not create a context: {e}")).and_then(
                |ctx| {
                    // A GGUF without its own template: fall back to ChatML, named so the user knows.
                    let template = self.model.chat_template(None).or_else(|_| LlamaChatTemplate::new("chatml"));
                    Ok((ctx, template.map_err(|e| format!("no usable chat template: {e}"))?))
                },
            );
        drop(inside);
        let (mut ctx, template) = match started {
            Ok(pair) => pair,
            Err(why) => {
                let _ = ready.send(Err(ProviderError::Local(why.clone())));
                // Whatever was sent here meanwhile gets the reason.
                while let Ok(job) = jobs.recv() {
                    let _ = job.reply.blocking_send(Err(ProviderError::Local(why.clone())));
                    self.pending.fetch_sub(1, Ordering::SeqCst);
                }
                return;
            }
        };
        let _ = ready.send(Ok(()));
        // The tokens the context's KV cache holds, to reuse a shared prompt prefix.
        let mut cached = Vec::new();
        while let Ok(job) = jobs.recv() {
            // A job whose stream was dropped while it waited its turn is skipped.
            if !job.reply.is_closed() {
                let mut turn = Turn {
                    model: self.model,
                    ctx: &mut ctx,
                    template: &template,
                    options,
                    prefill: self.prefill,
                    reply: &job.reply,
                    cached: &mut cached,
                };
                if let Err(e) = turn.run(&job.request) {
                    let _ = job.reply.blocking_send(Err(e));
                }
            }
            self.pending.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// One request being answered.
struct Turn<'a, 'm> {
    model: &'m LlamaModel,
    ctx: &'a mut LlamaContext<'m>,
    template: &'a LlamaChatTemplate,
    options: &'a LocalOptions,
    prefill: &'a Mutex<()>,
    reply: &'a Reply,
    /// What the KV cache holds; empty when unknown (then it is cleared).
    cached: &'a mut Vec<llama_cpp_2::token::LlamaToken>,
}

/// Why generation stopped early.
enum Stop {
    /// The consumer dropped the stream.
    Cancelled,
}

impl Turn<'_, '_> {
    /// Answers one request. Every llama.cpp call happens while holding a
    /// pass through the gate (`llama_gate`); waits (for the prompt step, for
    /// the consumer to take a piece) happen without one.
    fn run(&mut self, request: &ChatRequest) -> Result<(), ProviderError> {
        let max_tokens = request.max_tokens.max(1) as usize;
        let mut inside = LLAMA.pass();
        let prompt = self.prompt_tokens(request, max_tokens)?;
        let start = self.reuse_prefix(&prompt);
        let mut sampler = self.sampler(request)?;
        let mut batch = LlamaBatch::new(BATCH, 1);
        let last = prompt.len() - 1;
        drop(inside);
        let prefilling = self.prefill.lock().unwrap_or_else(PoisonError::into_inner);
        if self.reply.is_closed() {
            return Ok(()); // cancelled while another lane held the prompt step
        }
        inside = LLAMA.pass();
        for (chunk_index, chunk) in prompt[start..].chunks(BATCH).enumerate() {
            inside.checkpoint();
            batch.clear();
            for (i, token) in chunk.iter().enumerate() {
                let pos = start + chunk_index * BATCH + i;
                add(&mut batch, *token, pos, pos == last)?;
            }
            self.decode(&mut batch)?;
        }
        drop(prefilling);
        let mut decoded = prompt.clone();
        let vocab = self.model.vocab();
        let mut pending = Vec::new();
        let mut generated = 0usize;
        let mut position = prompt.len();
        let finish = loop {
            if generated >= max_tokens {
                break FinishReason::Length;
            }
            inside.checkpoint();
            let token = sampler.sample(self.ctx, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                break FinishReason::Stop;
            }
            generated += 1;
            pending.extend(vocab.token_to_piece(token, false, None));
            let text = take_valid_utf8(&mut pending);
            if !text.is_empty() {
                drop(inside);
                if self.send(Chunk::Text(text)).is_err() {
                    return Ok(());
                }
                inside = LLAMA.pass();
            }
            batch.clear();
            add(&mut batch, token, position, true)?;
            position += 1;
            self.decode(&mut batch)?;
            decoded.push(token);
        };
        *self.cached = decoded;
        drop(inside);
        let tail = String::from_utf8_lossy(&pending).into_owned();
        if !tail.is_empty() && self.send(Chunk::Text(tail)).is_err() {
            return Ok(());
        }
        let usage = Usage { input_tokens: prompt.len() as u64, output_tokens: generated as u64 };
        let _ = self.send(Chunk::Usage(usage));
        let _ = self.send(Chunk::Finish(finish));
        Ok(())
    }

    /// Keeps the KV cache for the longest prefix this prompt shares with what
    /// the context already holds (the shared system prompt, at least) and
    /// returns where decoding must start. The last prompt token is always
    /// decoded again, for fresh logits. Until this job completes, the cache
    /// counts as unknown.
    fn reuse_prefix(&mut self, prompt: &[llama_cpp_2::token::LlamaToken]) -> usize {
        let common = self.cached.iter().zip(prompt).take_while(|(a, b)| a == b).count();
        let keep = common.min(prompt.len() - 1);
        self.cached.clear();
        let kept = keep > 0
            && u32::try_from(keep)
                .is_ok_and(|p0| self.ctx.clear_kv_cache_seq(Some(0), Some(p0), None).unwrap_or(false));
        if kept {
            keep
        } else {
            self.ctx.clear_kv_cache();
            0
        }
    }

    fn send(&self, chunk: Chunk) -> Result<(), Stop> {
        self.reply.blocking_send(Ok(chunk)).map_err(|_| Stop::Cancelled)
    }

    fn decode(&mut self, batch: &mut LlamaBatch) -> Result<(), ProviderError> {
        self.ctx.decode(batch).map_err(|e| ProviderError::Local(format!("llama.cpp could not decode: {e}")))
    }

    /// Templates and tokenizes the request, dropping the oldest history
    /// until the prompt and the answer fit the context window.
    fn prompt_tokens(
        &self,
        request: &ChatRequest,
        max_tokens: usize,
    ) -> Result<Vec<llama_cpp_2::token::LlamaToken>, ProviderError> {
        let budget = (self.options.n_ctx as usize).saturating_sub(max_tokens);
        let mut skip = 0;
        loop {
            let history = &request.messages[skip..];
            let text = self.apply_template(&request.system, history)?;
            let tokens = self.model.vocab().tokenize(text.as_bytes(), true, true);
            if tokens.is_empty() {
                return Err(ProviderError::Local("the prompt is empty".into()));
            }
            if tokens.len() <= budget {
                return Ok(tokens);
            }
            if history.len() <= 1 {
                return Err(ProviderError::Local(format!(
                    "the prompt needs {} tokens but the context holds {} with {max_tokens} for the answer; raise providers.local.context",
                    tokens.len(),
                    self.options.n_ctx
                )));
            }
            // Drop the oldest exchange (a user message and its answer).
            skip += 2.min(history.len() - 1);
        }
    }

    fn apply_template(&self, system: &str, history: &[super::ChatMessage]) -> Result<String, ProviderError> {
        let bad = |e: &dyn std::fmt::Display| ProviderError::Local(format!("could not build the prompt: {e}"));
        let mut chat = Vec::with_capacity(history.len() + 1);
        if !system.is_empty() {
            chat.push(LlamaChatMessage::new("system".into(), system.into()).map_err(|e| bad(&e))?);
        }
        for m in history {
            let role = match m.role {
                ChatRole::User => "user",
                ChatRole::Assistant => "assistant",
            };
            chat.push(LlamaChatMessage::new(role.into(), m.content.clone()).map_err(|e| bad(&e))?);
        }
        self.model.apply_chat_template(self.template, &chat, true).map_err(|e| bad(&e))
    }

    fn sampler(&self, request: &ChatRequest) -> Result<LlamaSampler, ProviderError> {
        let seed = request.seed.map_or(self.options.seed, |s| s as u32);
        let temperature = request.temperature.unwrap_or(0.7).max(0.0);
        let mut chain = Vec::new();
        if let Some(schema) = &request.response_schema {
            let grammar = llama_cpp_2::json_schema_to_grammar(&cap_strings(&schema.schema).to_string())
                .map_err(|e| ProviderError::Local(format!("could not turn the schema into a grammar: {e}")))?;
            let sampler = LlamaSampler::grammar(self.model, &grammar, "root")
                .map_err(|e| ProviderError::Local(format!("llama.cpp rejected the grammar: {e}")))?;
            chain.push(sampler);
        }
        // Against the loops a tiny model falls into, inside JSON strings too.
        chain.push(LlamaSampler::penalties(self.model.n_vocab(), 64, self.options.repeat_penalty, 0.0, 0.0));
        chain.push(LlamaSampler::top_k(40));
        chain.push(LlamaSampler::top_p(0.95, 1));
        chain.push(LlamaSampler::temp(temperature));
        chain.push(LlamaSampler::dist(seed));
        Ok(LlamaSampler::chain_simple(chain))
    }
}

fn add(
    batch: &mut LlamaBatch,
    token: llama_cpp_2::token::LlamaToken,
    pos: usize,
    logits: bool,
) -> Result<(), ProviderError> {
    let pos = i32::try_from(pos).map_err(|_| ProviderError::Local("position out of range".into()))?;
    batch.add(token, pos, &[0], logits).map_err(|e| ProviderError::Local(format!("llama.cpp batch error: {e}")))
}

/// Takes the longest valid UTF-8 prefix out of `bytes` (a character may be
/// split across two tokens; its first bytes wait for the rest).
fn take_valid_utf8(bytes: &mut Vec<u8>) -> String {
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        // Bytes that can never become valid: replace them rather than stall.
        Err(_) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            bytes.clear();
            return text;
        }
    };
    let rest = bytes.split_off(valid);
    String::from_utf8(std::mem::replace(bytes, rest)).unwrap_or_default()
}

/// Gives every string in the schema a `maxLength` (grammar-based decoding
/// honours it; a tiny model otherwise never closes its strings).
fn cap_strings(schema: &serde_json::Value) -> serde_json::Value {
    let mut schema = schema.clone();
    cap_in_place(&mut schema);
    schema
}

fn cap_in_place(value: &mut serde_json::Value) {
    let Some(object) = value.as_object_mut() else { return };
    if object.get("type").and_then(|t| t.as_str()) == Some("string") && !object.contains_key("maxLength") {
        object.insert("maxLength".into(), GRAMMAR_MAX_STRING.into());
    }
    for child in object.values_mut() {
        match child {
            serde_json::Value::Object(_) => cap_in_place(child),
            serde_json::Value::Array(items) => items.iter_mut().for_each(cap_in_place),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_split_across_tokens_waits_for_the_rest() {
        let mut bytes = "a€".as_bytes()[..2].to_vec();
        assert_eq!(take_valid_utf8(&mut bytes), "a");
        bytes.extend(&"€".as_bytes()[1..]);
        assert_eq!(take_valid_utf8(&mut bytes), "€");
        assert!(bytes.is_empty());
    }

    #[test]
    fn every_string_gets_a_length_cap() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "verdict": { "type": "string" },
                "topic": { "type": "string", "maxLength": 80 },
                "heat": { "type": "number", "enum": [0.3, 1.0] }
            }
        });
        let capped = cap_strings(&schema);
        assert_eq!(capped["properties"]["verdict"]["maxLength"], GRAMMAR_MAX_STRING);
        assert_eq!(capped["properties"]["topic"]["maxLength"], 80, "an existing cap is kept");
        assert!(capped["properties"]["heat"].get("maxLength").is_none());
    }
}
