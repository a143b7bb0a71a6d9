//! One HTTP endpoint as the providers share it: how many requests may run
//! there at once, and the guard every streamed answer passes through.
//!
//! - An answer that ends with no text (no tool call either: a forced tool
//!   call streams as text) is incomplete, an [`ProviderError::EmptyAnswer`],
//!   never a finished empty argument.
//! - Some servers serve one request at a time and cut the running stream
//!   when another arrives. A cut (or an empty end) counts towards that
//!   habit when it closely follows another request's arrival (within
//!   [`ARRIVAL_WINDOW`]), or comes soon after its own start while another
//!   runs beside it: a flaky upstream that cuts a stream long after the
//!   last request arrived shows no such habit. A
//!   server that restarts cuts every running stream at once, with no
//!   request arriving between the cuts, and refuses connections for a
//!   while: that is a restart, and the count starts again. Two counted cuts,
//!   with part of an answer arriving after the first (the server stayed
//!   up), and the endpoint is sent one request at a time for the rest of
//!   the debate, which the stream says with [`Chunk::Adapted`].
//!   `providers.<name>.max_concurrent` sets a limit by hand.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use futures::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{Adaptation, Chunk, ChunkStream, ProviderError};

/// Requests allowed at once when nothing limits them.
const UNLIMITED: u32 = 1024;

/// Cuts that followed another request's start, the server up between
/// them, before heat concludes the server serves one at a time.
const CUTS_TO_CONCLUDE: u32 = 2;

/// A cut counts towards the habit only this soon after a request arrives
/// (another's, or its own while another runs).
pub const ARRIVAL_WINDOW: Duration = Duration::from_secs(3);

/// Cuts this close together with no request started between them are
/// one event: the server (or a gateway) went down and took every stream.
const RESTART_WINDOW: Duration = Duration::from_secs(1);

/// The cuts seen so far, and whether the server stayed up through them.
#[derive(Debug, Default)]
struct Cuts {
    /// Cuts that followed another request's start.
    counted: u32,
    /// The latest cut: when, and how many requests had started by then.
    last: Option<(Instant, u64)>,
    /// Some answer arrived since the latest cut: the server was up.
    up_since: bool,
    /// The latest request to start: its number, and when.
    arrival: Option<(u64, Instant)>,
}

/// What a cut or part of an answer told about the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Nothing yet.
    Unknown,
    /// The habit, with the server up: one request at a time from now on.
    OneAtATime,
}

impl Cuts {
    /// Request `number` started at `now`.
    fn arrived(&mut self, number: u64, now: Instant) {
        self.arrival = Some((number, now));
    }

    /// Request `number` was cut at `now`; `beside` when it started within
    /// [`ARRIVAL_WINDOW`] and another request runs beside it; `started`,
    /// the requests started so far.
    fn cut(&mut self, number: u64, beside: bool, started: u64, now: Instant) -> Verdict {
        let followed = self.arrival.is_some_and(|(n, at)| n != number && now.duration_since(at) <= ARRIVAL_WINDOW);
        let another = beside || followed;
        let up_since = std::mem::take(&mut self.up_since);
        let last = self.last.replace((now, started));
        let together = last.is_some_and(|(at, then)| then == started && now.duration_since(at) < RESTART_WINDOW);
        if together {
            // Every running stream went at once, no request arriving
            // between: a restart, not a habit. The count starts again.
            self.counted = 0;
            return Verdict::Unknown;
        }
        if !another {
            return Verdict::Unknown;
        }
        self.counted += 1;
        self.concluded(up_since || last.is_none())
    }

    /// Part of an answer arrived: the server is up.
    fn answered(&mut self) -> Verdict {
        self.up_since = true;
        self.concluded(true)
    }

    /// The server refused a connection: it is down or restarting.
    fn refused(&mut self) {
        self.counted = 0;
    }

    /// The habit is concluded once enough cuts are counted and the server
    /// showed it was up after the one before the last.
    fn concluded(&mut self, up: bool) -> Verdict {
        if up && self.counted >= CUTS_TO_CONCLUDE {
            self.counted = 0;
            Verdict::OneAtATime
        } else {
            Verdict::Unknown
        }
    }
}

/// What heat knows about one endpoint during a debate.
#[derive(Debug)]
pub struct Endpoint {
    key: String,
    limit: u32,
    permits: Arc<Semaphore>,
    one_at_a_time: AtomicBool,
    /// Requests started so far; a request's number tells whether another
    /// started after it.
    started: AtomicU64,
    /// Requests streaming now.
    running: AtomicU32,
    /// What cuts have shown so far.
    cuts: Mutex<Cuts>,
}

impl Endpoint {
    /// The endpoint known as `key` (`openai http://host/v1`): every model
    /// talking to it while one is alive shares it, so what one role's
    /// requests teach holds for all. The first caller's limit holds.
    pub fn shared(key: &str, max_concurrent: Option<u32>) -> Arc<Self> {
        static LIVE: OnceLock<Mutex<HashMap<String, Weak<Endpoint>>>> = OnceLock::new();
        let mut live = LIVE.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
        live.retain(|_, e| e.strong_count() > 0);
        if let Some(endpoint) = live.get(key).and_then(Weak::upgrade) {
            return endpoint;
        }
        let endpoint = Self::new(key, max_concurrent);
        live.insert(key.to_string(), Arc::downgrade(&endpoint));
        endpoint
    }

    /// An endpoint of its own known as `key`, with at most `max_concurrent`
    /// requests at once (`None`: no limit).
    pub fn new(key: impl Into<String>, max_concurrent: Option<u32>) -> Arc<Self> {
        let limit = max_concurrent.unwrap_or(UNLIMITED).clamp(1, UNLIMITED);
        Arc::new(Self {
            key: key.into(),
            limit,
            permits: Arc::new(Semaphore::new(limit as usize)),
            one_at_a_time: AtomicBool::new(limit == 1),
            started: AtomicU64::new(0),
            running: AtomicU32::new(0),
            cuts: Mutex::default(),
        })
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    /// Whether requests go one at a time.
    pub fn is_one_at_a_time(&self) -> bool {
        self.one_at_a_time.load(Ordering::SeqCst)
    }

    /// Sends requests one at a time from now on; false if it already did.
    /// Requests already running finish first: the permits beyond one are
    /// taken (fairly, so later requests queue behind) as they come free.
    pub fn one_at_a_time(&self) -> bool {
        if self.one_at_a_time.swap(true, Ordering::SeqCst) {
            return false;
        }
        let extra = self.limit - 1;
        let permits = Arc::clone(&self.permits);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Ok(taken) = permits.acquire_many_owned(extra).await {
                    taken.forget();
                }
            });
        }
        true
    }

    fn lock_cuts(&self) -> std::sync::MutexGuard<'_, Cuts> {
        self.cuts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies what an earlier part of the debate learnt.
    pub fn adapt(&self, adaptation: &Adaptation) {
        if *adaptation == Adaptation::OneAtATime {
            self.one_at_a_time();
        }
    }

    /// Runs the request `start` opens under this endpoint's limit, guarded
    /// as the module note says. A request that finds every slot taken says so first
    /// ([`Chunk::Queued`]), and [`Chunk::Sent`] once it has one.
    pub fn guard(self: &Arc<Self>, start: impl FnOnce() -> ChunkStream + Send + 'static) -> ChunkStream {
        let endpoint = Arc::clone(self);
        let opened = async move {
            let permits = Arc::clone(&endpoint.permits);
            if let Ok(permit) = Arc::clone(&permits).try_acquire_owned() {
                return Guarded::open(endpoint, Some(permit), start).into_stream();
            }
            let sent = async move {
                let permit = permits.acquire_owned().await.ok();
                futures::stream::iter([Ok(Chunk::Sent)]).chain(Guarded::open(endpoint, permit, start).into_stream())
            };
            futures::stream::iter([Ok(Chunk::Queued)]).chain(futures::stream::once(sent).flatten()).boxed()
        };
        futures::stream::once(opened).flatten().boxed()
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.stop_running();
    }
}

struct Guarded {
    endpoint: Arc<Endpoint>,
    inner: ChunkStream,
    /// Held for the life of the stream.
    permit: Option<OwnedSemaphorePermit>,
    number: u64,
    /// When it was sent.
    opened: Instant,
    /// Counted in the endpoint's `running` until it ends.
    running: bool,
    saw_text: bool,
    /// An item to yield after the current one.
    after: Option<Result<Chunk, ProviderError>>,
    done: bool,
}

impl Guarded {
    /// The request `start` opens, sent now under `permit`.
    fn open(
        endpoint: Arc<Endpoint>,
        permit: Option<OwnedSemaphorePermit>,
        start: impl FnOnce() -> ChunkStream,
    ) -> Self {
        let number = endpoint.started.fetch_add(1, Ordering::SeqCst);
        endpoint.running.fetch_add(1, Ordering::SeqCst);
        let opened = Instant::now();
        endpoint.lock_cuts().arrived(number, opened);
        Guarded {
            endpoint,
            inner: start(),
            permit,
            number,
            opened,
            running: true,
            saw_text: false,
            after: None,
            done: false,
        }
    }

    fn into_stream(self) -> ChunkStream {
        futures::stream::unfold(self, |mut g| async move {
            if let Some(item) = g.after.take() {
                return Some((item, g));
            }
            if g.done {
                return None;
            }
            let item = match g.inner.next().await {
                None => return None,
                Some(Ok(Chunk::Text(text))) => {
                    g.saw_text |= !text.trim().is_empty();
                    let verdict = g.endpoint.lock_cuts().answered();
                    return Some(g.then(verdict, Ok(Chunk::Text(text))));
                }
                // A tool call is an answer too: the model stopped to have it answered.
                Some(Ok(Chunk::ToolCall(call))) => {
                    g.saw_text = true;
                    let verdict = g.endpoint.lock_cuts().answered();
                    return Some(g.then(verdict, Ok(Chunk::ToolCall(call))));
                }
                Some(Ok(Chunk::Finish(_))) if !g.saw_text => return Some(g.cut(ProviderError::EmptyAnswer)),
                Some(Err(
                    error @ (ProviderError::StreamCut | ProviderError::EmptyAnswer | ProviderError::EmptyStream),
                )) => {
                    return Some(g.cut(error));
                }
                Some(Err(error)) => {
                    g.done = true;
                    if matches!(error, ProviderError::Connect(_)) {
                        g.endpoint.lock_cuts().refused();
                    }
                    Err(error)
                }
                Some(Ok(chunk)) => {
                    let verdict = g.endpoint.lock_cuts().answered();
                    return Some(g.then(verdict, Ok(chunk)));
                }
            };
            Some((item, g))
        })
        .boxed()
    }

    /// Leaves the endpoint's count of running requests (once).
    fn stop_running(&mut self) {
        if std::mem::take(&mut self.running) {
            self.endpoint.running.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// The answer is incomplete; what that shows about the server is in
    /// the module note.
    fn cut(mut self, error: ProviderError) -> (Result<Chunk, ProviderError>, Self) {
        self.done = true;
        self.permit = None;
        self.stop_running();
        let endpoint = &self.endpoint;
        let started = endpoint.started.load(Ordering::SeqCst);
        let now = Instant::now();
        let beside = endpoint.running.load(Ordering::SeqCst) > 0 && now.duration_since(self.opened) <= ARRIVAL_WINDOW;
        let verdict = endpoint.lock_cuts().cut(self.number, beside, started, now);
        self.then(verdict, Err(error))
    }

    /// Yields `item`, after the adaptation `verdict` calls for, if any.
    fn then(mut self, verdict: Verdict, item: Result<Chunk, ProviderError>) -> (Result<Chunk, ProviderError>, Self) {
        if verdict == Verdict::OneAtATime && self.endpoint.one_at_a_time() {
            tracing::warn!(
                endpoint = %self.endpoint.key,
                "streams were cut when other requests started; one at a time from now on"
            );
            self.after = Some(item);
            return (Ok(Chunk::Adapted(Adaptation::OneAtATime)), self);
        }
        (item, self)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::provider::FinishReason;

    fn stream_of(items: Vec<Result<Chunk, ProviderError>>) -> ChunkStream {
        futures::stream::iter(items).boxed()
    }

    async fn collect(stream: ChunkStream) -> Vec<Result<Chunk, ProviderError>> {
        stream.collect().await
    }

    #[tokio::test]
    async fn an_answer_without_text_is_incomplete() {
        let endpoint = Endpoint::new("test", None);
        let items = collect(
            endpoint.guard(|| stream_of(vec![Ok(Chunk::Text(" \n".into())), Ok(Chunk::Finish(FinishReason::Stop))])),
        )
        .await;
        assert_eq!(items.last(), Some(&Err(ProviderError::EmptyAnswer)));
        let items = collect(
            endpoint.guard(|| stream_of(vec![Ok(Chunk::Text("Yes.".into())), Ok(Chunk::Finish(FinishReason::Stop))])),
        )
        .await;
        assert_eq!(items.last(), Some(&Ok(Chunk::Finish(FinishReason::Stop))));
        assert!(!endpoint.is_one_at_a_time(), "nothing ran alongside these");
    }

    /// One request cut after a second one started (and finished).
    async fn cut_while_another_ran(endpoint: &Arc<Endpoint>) -> Vec<Result<Chunk, ProviderError>> {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let first = endpoint.guard(move || {
            let wait = futures::stream::once(async move {
                let _ = rx.await;
                Err(ProviderError::StreamCut)
            });
            stream_of(vec![Ok(Chunk::Text("I be".into()))]).chain(wait).boxed()
        });
        let first = tokio::spawn(collect(first));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let second = collect(
            endpoint.guard(|| stream_of(vec![Ok(Chunk::Text("Mine.".into())), Ok(Chunk::Finish(FinishReason::Stop))])),
        )
        .await;
        assert_eq!(second.len(), 2, "served whole: {second:?}");
        tx.send(()).unwrap();
        first.await.unwrap()
    }

    #[tokio::test]
    async fn a_server_that_keeps_cutting_the_earlier_stream_gets_one_request_at_a_time() {
        let endpoint = Endpoint::new("test", None);
        let once = cut_while_another_ran(&endpoint).await;
        assert_eq!(once[1..], [Err(ProviderError::StreamCut)], "one cut may be the network");
        assert!(!endpoint.is_one_at_a_time());
        let twice = cut_while_another_ran(&endpoint).await;
        assert_eq!(
            twice[1..],
            [Ok(Chunk::Adapted(Adaptation::OneAtATime)), Err(ProviderError::StreamCut)],
            "the cut is reported once, after the adaptation"
        );
        assert!(endpoint.is_one_at_a_time());
        // Now a second request waits for the first to end.
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let slow = endpoint.guard(move || {
            futures::stream::once(async move {
                let _ = rx.await;
                Ok(Chunk::Text("done".into()))
            })
            .boxed()
        });
        let slow = tokio::spawn(collect(slow));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let mut queued = tokio::spawn(collect(endpoint.guard(|| stream_of(vec![Ok(Chunk::Text("next".into()))]))));
        assert!(tokio::time::timeout(Duration::from_millis(50), &mut queued).await.is_err(), "it waited");
        tx.send(()).unwrap();
        slow.await.unwrap();
        assert_eq!(
            queued.await.unwrap(),
            [Ok(Chunk::Queued), Ok(Chunk::Sent), Ok(Chunk::Text("next".into()))],
            "it said it waited in heat's queue, then that it was sent"
        );
        let first = endpoint.guard(|| stream_of(vec![Ok(Chunk::Text("free".into()))]));
        assert_eq!(collect(first).await, [Ok(Chunk::Text("free".into()))], "a request with a free slot just goes");
    }

    /// A request that streams a word, then ends with whatever is sent down
    /// the returned channel; its items are collected on a task.
    type Item = Result<Chunk, ProviderError>;

    type Held = (tokio::sync::oneshot::Sender<Item>, tokio::task::JoinHandle<Vec<Item>>);

    fn held(endpoint: &Arc<Endpoint>) -> Held {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let stream = endpoint.guard(move || {
            let end = futures::stream::once(async move { rx.await.unwrap_or(Err(ProviderError::StreamCut)) });
            stream_of(vec![Ok(Chunk::Text("Some words".into()))]).chain(end).boxed()
        });
        (tx, tokio::spawn(collect(stream)))
    }

    /// Two requests streaming side by side, the second started after the first.
    async fn two_running(endpoint: &Arc<Endpoint>) -> (Held, Held) {
        let first = held(endpoint);
        settle().await;
        let second = held(endpoint);
        settle().await;
        (first, second)
    }

    async fn settle() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    const STOP: Result<Chunk, ProviderError> = Ok(Chunk::Finish(FinishReason::Stop));

    #[tokio::test]
    async fn cuts_as_requests_arrive_with_the_server_up_between_them_are_the_habit() {
        let endpoint = Endpoint::new("test", None);
        for time in 1..=2 {
            let ((end_first, first), (end_second, second)) = two_running(&endpoint).await;
            end_first.send(Err(ProviderError::StreamCut)).unwrap();
            settle().await;
            end_second.send(STOP).unwrap();
            let first = first.await.unwrap();
            assert_eq!(second.await.unwrap().last(), Some(&STOP));
            if time == 1 {
                assert_eq!(first[1..], [Err(ProviderError::StreamCut)], "one cut may be the network");
                assert!(!endpoint.is_one_at_a_time());
            } else {
                assert_eq!(first[1..], [Ok(Chunk::Adapted(Adaptation::OneAtATime)), Err(ProviderError::StreamCut)]);
                assert!(endpoint.is_one_at_a_time());
            }
        }
    }

    #[tokio::test]
    async fn every_running_stream_cut_at_once_is_a_restart_not_a_habit() {
        let endpoint = Endpoint::new("test", None);
        for _ in 0..3 {
            let ((end_first, first), (end_second, second)) = two_running(&endpoint).await;
            end_first.send(Err(ProviderError::StreamCut)).unwrap();
            end_second.send(Err(ProviderError::StreamCut)).unwrap();
            assert_eq!(first.await.unwrap().last(), Some(&Err(ProviderError::StreamCut)));
            assert_eq!(second.await.unwrap().last(), Some(&Err(ProviderError::StreamCut)));
            // The retries come back once the server is up again, whole.
            let (end_retry, retry) = held(&endpoint);
            end_retry.send(STOP).unwrap();
            assert_eq!(retry.await.unwrap().last(), Some(&STOP));
        }
        assert!(!endpoint.is_one_at_a_time(), "three restarts, and still the server takes requests side by side");
    }

    #[tokio::test]
    async fn a_refused_connection_after_a_cut_is_a_restart() {
        let endpoint = Endpoint::new("test", None);
        for _ in 0..3 {
            let ((end_first, first), (end_second, second)) = two_running(&endpoint).await;
            end_first.send(Err(ProviderError::StreamCut)).unwrap();
            settle().await;
            // The server went down: the next request cannot connect.
            let refused = ProviderError::Connect("127.0.0.1:9: Connection refused".into());
            let again = collect(endpoint.guard(move || stream_of(vec![Err(refused)]))).await;
            assert!(matches!(again[..], [Err(ProviderError::Connect(_))]));
            end_second.send(STOP).unwrap();
            first.await.unwrap();
            assert_eq!(second.await.unwrap().last(), Some(&STOP));
        }
        assert!(!endpoint.is_one_at_a_time());
    }

    #[test]
    fn only_a_cut_that_closely_follows_an_arrival_counts() {
        let t0 = Instant::now();
        let at = |secs: u64| t0 + Duration::from_secs(secs);
        let mut cuts = Cuts::default();
        cuts.arrived(0, at(0));
        cuts.arrived(1, at(1));
        // A flaky upstream: request 0 cut 20 s after request 1 arrived (and long after it finished).
        assert_eq!(cuts.cut(0, false, 2, at(21)), Verdict::Unknown);
        assert_eq!(cuts.counted, 0, "not counted");
        // The habit: each cut just as another request arrives, the server up between.
        cuts.arrived(2, at(30));
        assert_eq!(cuts.cut(1, false, 3, at(31)), Verdict::Unknown);
        assert_eq!(cuts.counted, 1);
        cuts.answered();
        cuts.arrived(3, at(40));
        assert_eq!(cuts.cut(2, false, 4, at(40)), Verdict::OneAtATime);
        // Its own arrival is not another's: a lone request cut soon after it started is only a cut.
        cuts.arrived(4, at(50));
        assert_eq!(cuts.cut(4, false, 5, at(50)), Verdict::Unknown);
        assert_eq!(cuts.counted, 0);
    }

    #[tokio::test]
    async fn a_cut_with_nothing_alongside_is_only_a_cut() {
        let endpoint = Endpoint::new("test", None);
        let items = collect(endpoint.guard(|| stream_of(vec![Err(ProviderError::StreamCut)]))).await;
        assert_eq!(items, vec![Err(ProviderError::StreamCut)]);
        assert!(!endpoint.is_one_at_a_time());
        assert!(Endpoint::new("set", Some(1)).is_one_at_a_time(), "max_concurrent = 1");
    }
}
