//! Retrying a turn: capped, jittered exponential backoff (or the server's
//! `retry-after`) on errors that may heal, re-requesting the whole turn so two
//! partial answers are never spliced; a refused sampling parameter is dropped
//! and the request sent again at once. A turn is driven on the caller's
//! task into a [`Sink`] ([`drive`]), or on a task of its own as a stream
//! ([`pausable`]); dropping either stops everything. A model that pauses
//! in place is not polled while its turn is paused.

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt};
use tokio::sync::{mpsc, watch};

use super::{ChatModel, ChatRequest, Chunk, ChunkStream, ProviderError, StructuredOutput, is_structured_param};

/// When and how long to wait before trying again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
    /// A server asking for a longer wait than this is not waited for.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1` (1-based), or `None` to give up.
    pub fn delay_for(&self, attempt: u32, error: &ProviderError) -> Option<Duration> {
        if !error.is_retryable() || attempt > self.max_retries {
            return None;
        }
        if let Some(asked) = error.retry_after() {
            return (asked <= self.max_retry_after).then_some(asked);
        }
        let exponential = self.base_delay.saturating_mul(1 << attempt.saturating_sub(1).min(16));
        let capped = exponential.min(self.max_delay);
        // Up to 25 % less, so many clients do not retry in step.
        Some(capped.mul_f64(1.0 - fastrand::f64() * 0.25))
    }
}

/// What a retried turn yields besides its chunks.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnItem {
    Chunk(Chunk),
    /// The attempt failed; text streamed so far in it must be discarded.
    Retrying {
        attempt: u32,
        max_retries: u32,
        delay: Duration,
        error: ProviderError,
    },
    /// The model refused a parameter; the request goes again without it.
    ParameterDropped {
        param: String,
        message: String,
    },
    /// The server refused this form of structured output; the request goes
    /// again at once in the next weaker form.
    StructuredSteppedDown {
        from: StructuredOutput,
        to: StructuredOutput,
        message: String,
    },
}

pub type TurnStream = Pin<Box<dyn Stream<Item = Result<TurnItem, ProviderError>> + Send>>;

/// Runs a turn with retries. The final error, if any, is yielded as `Err`.
pub fn with_retry(model: Arc<dyn ChatModel>, request: ChatRequest, policy: RetryPolicy) -> TurnStream {
    pausable(model, request, policy, None)
}

/// Like [`with_retry`], and while `paused` reads true the model's stream is
/// not polled at all (not even to finish a chunk under way) and no attempt
/// starts; it is polled again where it stopped once `paused` reads false.
/// For a model that pauses in place (`ChatModel::pauses_in_place`): one
/// that is not polled stops generating. A dropped sender pauses nothing.
///
/// The turn is [`drive`]n on a task of its own into a channel of 64 items;
/// dropping the stream stops it at once, dropping the request. A caller
/// already on a task of its own calls [`drive`] there instead, with no
/// second task or channel.
pub fn pausable(
    model: Arc<dyn ChatModel>,
    request: ChatRequest,
    policy: RetryPolicy,
    paused: Option<watch::Receiver<bool>>,
) -> TurnStream {
    let (tx, mut rx) = mpsc::channel(64);
    tokio::spawn(async move {
        let mut sink = tx.clone();
        tokio::select! {
            _ = drive(model.as_ref(), request, policy, paused, &mut sink) => {}
            // The consumer went away: stop at once, dropping the request.
            () = tx.closed() => {}
        }
    });
    Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))
}

/// Where a driven turn's items go, in the order they come.
pub trait Sink: Send {
    /// Takes `item`; false when no one listens any more, which ends the turn.
    fn take(&mut self, item: Result<TurnItem, ProviderError>) -> impl Future<Output = bool> + Send;
}

/// A bounded channel: the turn waits while its reader is behind.
impl Sink for mpsc::Sender<Result<TurnItem, ProviderError>> {
    async fn take(&mut self, item: Result<TurnItem, ProviderError>) -> bool {
        self.send(item).await.is_ok()
    }
}

/// Whether the consumer has paused the turn; never for a model whose
/// stream runs on whether or not it is read.
struct Pause(Option<watch::Receiver<bool>>);

impl Pause {
    /// Returns once the turn is not paused.
    async fn running(&mut self) {
        if let Some(paused) = &mut self.0 {
            // A closed channel pauses nothing any more.
            let _ = paused.wait_for(|p| !*p).await;
        }
    }

    /// Returns once the turn is paused; never if it cannot be.
    async fn paused(&mut self) {
        if let Some(paused) = &mut self.0
            && paused.wait_for(|p| *p).await.is_ok()
        {
            return;
        }
        std::future::pending::<()>().await;
    }

    /// The stream's next item, polling the stream only while the turn runs.
    /// A pause that comes while a chunk is under way stops polling at once;
    /// the stream keeps its place, so nothing is lost or repeated.
    async fn next(&mut self, stream: &mut ChunkStream) -> Option<Result<Chunk, ProviderError>> {
        loop {
            self.running().await;
            tokio::select! {
                biased;
                () = self.paused() => {}
                item = stream.next() => return item,
            }
        }
    }
}

/// Runs a turn with retries on the caller's task (paused as [`pausable`]
/// says), handing each item to `sink` in order, the final error, if any,
/// as `Err`. True when the turn was answered in full: its last attempt
/// ended without an error and `sink` took every item. It stops, dropping
/// the request, when `sink` refuses an item; dropping the future drops
/// the request at once.
pub async fn drive(
    model: &dyn ChatModel,
    mut request: ChatRequest,
    policy: RetryPolicy,
    paused: Option<watch::Receiver<bool>>,
    sink: &mut impl Sink,
) -> bool {
    let mut pause = Pause(paused);
    let mut attempt = 0;
    let mut dropped = HashSet::new();
    loop {
        // No attempt starts while paused: the embedded model would read its prompt.
        pause.running().await;
        let stream = model.stream_held(request.clone(), pause.0.clone());
        // A network answer is read in gulps; the embedded model stops when not read.
        let mut stream = if model.pauses_in_place() { stream } else { Box::pin(super::gather::Gathered::new(stream)) };
        let mut failure = None;
        while let Some(item) = pause.next(&mut stream).await {
            match item {
                Ok(chunk) => {
                    if !sink.take(Ok(TurnItem::Chunk(chunk))).await {
                        return false;
                    }
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        drop(stream);
        let Some(error) = failure else { return true };
        // A request that offers tools and asks for no structured answer: it is the tools that were refused.
        let offered_tools = request.tools.is_some() && request.response_schema.is_none();
        if let ProviderError::ParameterRejected { param, message } = &error
            && is_structured_param(param)
            && !offered_tools
        {
            let Some(step) = step_down(&mut request) else {
                sink.take(Err(error)).await;
                return false;
            };
            let item = TurnItem::StructuredSteppedDown { from: step.0, to: step.1, message: message.clone() };
            if !sink.take(Ok(item)).await {
                return false;
            }
            continue;
        }
        if let ProviderError::ParameterRejected { param, message } = &error
            && dropped.insert(param.clone())
            && drop_parameter(&mut request, param)
        {
            let item = TurnItem::ParameterDropped { param: canonical(param).into(), message: message.clone() };
            if !sink.take(Ok(item)).await {
                return false;
            }
            continue;
        }
        attempt += 1;
        let Some(delay) = policy.delay_for(attempt, &error) else {
            sink.take(Err(error)).await;
            return false;
        };
        let item = TurnItem::Retrying { attempt, max_retries: policy.max_retries, delay, error };
        if !sink.take(Ok(item)).await {
            return false;
        }
        tokio::time::sleep(delay).await;
    }
}

/// Asks for the next weaker form of structured output, where the request
/// allows it; `(from, to)`.
fn step_down(request: &mut ChatRequest) -> Option<(StructuredOutput, StructuredOutput)> {
    let schema = request.response_schema.as_mut().filter(|s| s.may_step_down)?;
    let from = schema.form;
    schema.form = from.step_down()?;
    Some((from, schema.form))
}

/// The request field a refused parameter maps to.
fn canonical(param: &str) -> &'static str {
    match param {
        "temperature" | "top_p" | "top_k" => "temperature",
        "seed" => "seed",
        "thinking" => "thinking",
        "max_tokens" => "max_tokens",
        "reasoning_effort" | "reasoning" => "reasoning_effort",
        "tools" | "tool_choice" | "response_format" | "output_config" | "json_schema" | "response_schema" => "tools",
        _ => "unknown",
    }
}

/// Removes a refused parameter, or sends it in the form the model takes
/// (an answer's room as `max_completion_tokens`, for a model that refuses
/// `max_tokens`); false if the request did not carry it.
fn drop_parameter(request: &mut ChatRequest, param: &str) -> bool {
    match canonical(param) {
        "temperature" => request.temperature.take().is_some(),
        "seed" => request.seed.take().is_some(),
        "thinking" => request.thinking_budget.take().is_some(),
        "max_tokens" => !std::mem::replace(&mut request.reasoning.completion_tokens, true),
        "reasoning_effort" => request.reasoning.effort.take().is_some(),
        // Only a request whose tools could be dropped: its history has no call yet.
        "tools" if request.messages.iter().all(|m| m.tool_calls.is_empty()) => request.tools.take().is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_caps_and_jitters_down() {
        let policy = RetryPolicy::default();
        let server = ProviderError::Server { status: 503, retry_after: None, message: String::new() };
        for attempt in 1..=4 {
            let delay = policy.delay_for(attempt, &server).unwrap_or_default();
            let full = Duration::from_millis(500 * (1 << (attempt - 1))).min(policy.max_delay);
            assert!(delay <= full && delay >= full.mul_f64(0.75), "attempt {attempt}: {delay:?}");
        }
        assert_eq!(policy.delay_for(5, &server), None, "the budget is spent");
    }

    #[test]
    fn retry_after_is_honoured_within_its_cap() {
        let policy = RetryPolicy::default();
        let limited =
            |secs| ProviderError::RateLimited { retry_after: Some(Duration::from_secs(secs)), message: String::new() };
        assert_eq!(policy.delay_for(1, &limited(20)), Some(Duration::from_secs(20)));
        assert_eq!(policy.delay_for(1, &limited(600)), None, "too long to wait");
    }

    #[test]
    fn final_errors_are_not_retried() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay_for(1, &ProviderError::Auth { status: 401, message: String::new() }), None);
        assert_eq!(policy.delay_for(1, &ProviderError::QuotaExhausted { message: String::new() }), None);
    }
}
