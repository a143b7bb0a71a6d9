//! A scripted `ChatModel` for tests, benchmarks and demos: replies come from
//! a queue, every request is recorded, and concurrency and the chunks read
//! from its streams are counted.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use tokio::sync::Semaphore;

use super::{ChatModel, ChatRequest, Chunk, ChunkStream, FinishReason, ProviderError, ToolCall, Usage};

/// The provider name a scripted model gives: a debate whose every role has
/// it was written in advance (the bundled demo), not answered by a model.
pub const PROVIDER: &str = "scripted";

/// One step of a scripted reply.
#[derive(Debug, Clone)]
pub enum Step {
    Chunk(Chunk),
    /// Wait this long before the next step.
    Delay(Duration),
    /// Wait until the gate has a permit (tests release it to go on).
    Gate(Arc<Semaphore>),
    /// Fail the attempt with this error.
    Fail(ProviderError),
}

/// A scripted answer to one request.
#[derive(Debug, Clone)]
pub struct Reply(pub Vec<Step>);

impl Reply {
    /// Streams `text` in word-sized chunks, with usage and a clean finish.
    pub fn text(text: &str) -> Self {
        let mut steps: Vec<Step> = split_words(text).into_iter().map(|w| Step::Chunk(Chunk::Text(w))).collect();
        let words = steps.len() as u64;
        steps.push(Step::Chunk(Chunk::Usage(Usage {
            input_tokens: 10,
            output_tokens: words,
            cached_input_tokens: 0,
            ..Usage::default()
        })));
        steps.push(Step::Chunk(Chunk::Finish(FinishReason::Stop)));
        Self(steps)
    }

    /// Like [`Reply::text`], with a pause before every chunk.
    pub fn slow(text: &str, per_chunk: Duration) -> Self {
        let mut steps = Vec::new();
        for step in Self::text(text).0 {
            steps.push(Step::Delay(per_chunk));
            steps.push(step);
        }
        Self(steps)
    }

    /// The whole text at once after `delay` (a model that thinks, then answers).
    pub fn after(delay: Duration, text: &str) -> Self {
        let mut steps = vec![Step::Delay(delay)];
        steps.extend(Self::text(text).0);
        Self(steps)
    }

    /// Fails at once with `error`.
    pub fn fail(error: ProviderError) -> Self {
        Self(vec![Step::Fail(error)])
    }

    /// Says `text` (may be empty), then calls each `(name, arguments)`,
    /// and stops for the calls to be answered.
    pub fn calling(text: &str, calls: &[(&str, &str)]) -> Self {
        let mut steps: Vec<Step> = split_words(text).into_iter().map(|w| Step::Chunk(Chunk::Text(w))).collect();
        for (n, (name, arguments)) in calls.iter().enumerate() {
            let call = ToolCall { id: format!("call_{}", n + 1), name: (*name).into(), arguments: (*arguments).into() };
            steps.push(Step::Chunk(Chunk::ToolCall(call)));
        }
        steps.push(Step::Chunk(Chunk::Usage(Usage { input_tokens: 10, output_tokens: 5, ..Usage::default() })));
        steps.push(Step::Chunk(Chunk::Finish(FinishReason::ToolCalls)));
        Self(steps)
    }

    /// Streams `before`, then waits at `gate`, then streams `after`.
    pub fn gated(before: &str, gate: &Arc<Semaphore>, after: &str) -> Self {
        let mut steps: Vec<Step> = split_words(before).into_iter().map(|w| Step::Chunk(Chunk::Text(w))).collect();
        steps.push(Step::Gate(Arc::clone(gate)));
        steps.extend(Self::text(after).0);
        Self(steps)
    }
}

fn split_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for ch in text.chars() {
        current.push(ch);
        if ch == ' ' || ch == '\n' {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A model answering from a queue of replies; when the queue runs dry it
/// repeats the fallback reply.
pub struct ScriptedModel {
    name: &'static str,
    replies: Mutex<VecDeque<Reply>>,
    fallback: Reply,
    requests: Mutex<Vec<ChatRequest>>,
    active: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
    /// Chunks its streams have yielded so far.
    pulled: Arc<AtomicUsize>,
    context: Option<u32>,
    pauses_in_place: bool,
    embedded: bool,
    tools: bool,
}

impl ScriptedModel {
    pub fn new(replies: impl IntoIterator<Item = Reply>, fallback: Reply) -> Self {
        Self {
            name: PROVIDER,
            replies: Mutex::new(replies.into_iter().collect()),
            fallback,
            requests: Mutex::new(Vec::new()),
            active: Arc::new(AtomicUsize::new(0)),
            peak: Arc::new(AtomicUsize::new(0)),
            pulled: Arc::new(AtomicUsize::new(0)),
            context: None,
            pauses_in_place: false,
            embedded: false,
            tools: false,
        }
    }

    /// Plays a model that waits where it is while its stream is not polled
    /// (the embedded one; see `ChatModel::pauses_in_place`).
    #[must_use]
    pub fn pausing_in_place(mut self) -> Self {
        self.pauses_in_place = true;
        self
    }

    /// Plays the embedded model: its judge answers in the chosen form
    /// (`debate::extractive`) and it waits where it is while not polled.
    #[must_use]
    pub fn playing_embedded(mut self) -> Self {
        self.embedded = true;
        self.pauses_in_place = true;
        self
    }

    /// Plays a server's model, which may be offered tools.
    #[must_use]
    pub fn taking_tools(mut self) -> Self {
        self.tools = true;
        self
    }

    /// Plays a model with a small context window of `tokens` (the embedded one).
    #[must_use]
    pub fn with_context(mut self, tokens: u32) -> Self {
        self.context = Some(tokens);
        self
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// How many chunks its streams have yielded: what was read from it.
    pub fn pulled(&self) -> usize {
        self.pulled.load(Ordering::SeqCst)
    }

    /// How many of its streams are open now: a request that was dropped
    /// (cancelled, or answered in full and read to its end) is not.
    pub fn open_streams(&self) -> usize {
        self.active.load(Ordering::SeqCst)
    }

    /// The most streams that were open at the same moment.
    pub fn peak_concurrency(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }
}

/// Counts an open stream for as long as it lives.
struct ActiveGuard(Arc<AtomicUsize>);

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ChatModel for ScriptedModel {
    fn provider_name(&self) -> &'static str {
        self.name
    }

    fn context_tokens(&self) -> Option<u32> {
        self.context
    }

    fn pauses_in_place(&self) -> bool {
        self.pauses_in_place
    }

    fn is_embedded(&self) -> bool {
        self.embedded
    }

    fn takes_tools(&self) -> bool {
        self.tools
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner).push(request);
        let reply = self
            .replies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
            .unwrap_or_else(|| self.fallback.clone());
        let now = self.active.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        let guard = ActiveGuard(Arc::clone(&self.active));
        let steps: VecDeque<Step> = reply.0.into();
        let pulled = Arc::clone(&self.pulled);
        let stream = futures::stream::unfold((steps, guard, false), move |(mut steps, guard, failed)| {
            let pulled = Arc::clone(&pulled);
            async move {
                if failed {
                    return None;
                }
                loop {
                    match steps.pop_front()? {
                        Step::Chunk(chunk) => {
                            pulled.fetch_add(1, Ordering::SeqCst);
                            return Some((Ok(chunk), (steps, guard, false)));
                        }
                        Step::Delay(d) => tokio::time::sleep(d).await,
                        Step::Gate(gate) => {
                            if let Ok(permit) = gate.acquire().await {
                                permit.forget();
                            }
                        }
                        Step::Fail(error) => return Some((Err(error), (steps, guard, true))),
                    }
                }
            }
        });
        stream.boxed()
    }
}
