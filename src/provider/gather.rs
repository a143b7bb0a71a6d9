//! A network answer read in gulps. After handing on a chunk, the reader
//! leaves the stream alone for [`REST`], then takes everything that arrived
//! meanwhile, joining consecutive pieces of answer text (and of reasoning)
//! into one chunk. A server streaming a thousand tokens a second then wakes
//! heat about a hundred times a second instead of a thousand, and the
//! engine, the session log and the studio each handle one delta where the
//! server sent ten. The first chunk after a rest is never held back; what
//! waits meanwhile waits in the socket's buffer, so nothing is lost, and the
//! stream's own timeouts still run on the wall clock.
//!
//! Only for a stream that runs whether or not it is read: the embedded
//! model stops when not read (`ChatModel::pauses_in_place`), so resting
//! would slow it.

use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use futures::{Stream, StreamExt};
use tokio::time::Sleep;

use super::chat::{Chunk, ChunkStream};
use super::error::ProviderError;

/// How long the reader leaves a stream alone after handing on a chunk:
/// under a frame of the studio (16 ms), so a gulp is drawn as promptly as
/// the tokens in it would have been.
pub const REST: Duration = Duration::from_millis(10);

type Item = Result<Chunk, ProviderError>;

/// How a stream ended behind a gulp that goes first.
enum Ended {
    Finished,
    Failed(ProviderError),
}

/// A chunk stream read in gulps (see the module's doc).
pub struct Gathered {
    inner: ChunkStream,
    /// What the current gulp has so far.
    held: Option<Chunk>,
    /// The stream's end (or its error), met while a gulp was held.
    ended: Option<Ended>,
    rest: Option<Pin<Box<Sleep>>>,
    /// Whether the stream said "not yet" once since its last chunk.
    yielded: bool,
}

impl Gathered {
    pub fn new(inner: ChunkStream) -> Self {
        Gathered { inner, held: None, ended: None, rest: None, yielded: false }
    }

    /// Adds `chunk` to the gulp; returns the gulp so far when `chunk` cannot
    /// join it (another kind), `chunk` then starting the next one.
    fn hold(&mut self, chunk: Chunk) -> Option<Chunk> {
        match (&mut self.held, chunk) {
            (Some(Chunk::Text(held)), Chunk::Text(more)) | (Some(Chunk::Reasoning(held)), Chunk::Reasoning(more)) => {
                held.push_str(&more);
                None
            }
            (held, chunk) => held.replace(chunk),
        }
    }
}

impl Stream for Gathered {
    type Item = Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        let this = &mut *self;
        match this.ended.take() {
            Some(Ended::Finished) => return Poll::Ready(None),
            Some(Ended::Failed(error)) => return Poll::Ready(Some(Err(error))),
            None => {}
        }
        if let Some(rest) = this.rest.as_mut() {
            ready!(rest.as_mut().poll(cx));
            this.rest = None;
        }
        loop {
            match this.inner.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    this.yielded = false;
                    if let Some(gulp) = this.hold(chunk) {
                        return Poll::Ready(Some(Ok(gulp)));
                    }
                }
                Poll::Ready(end) => {
                    let Some(gulp) = this.held.take() else { return Poll::Ready(end) };
                    this.ended = Some(match end {
                        Some(Err(error)) => Ended::Failed(error),
                        _ => Ended::Finished,
                    });
                    return Poll::Ready(Some(Ok(gulp)));
                }
                Poll::Pending if this.held.is_none() => return Poll::Pending,
                // An HTTP body comes a piece at a time from the connection's
                // own task: let it run once before taking "not yet" as the
                // gulp's end.
                Poll::Pending if !this.yielded => {
                    this.yielded = true;
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                Poll::Pending => {
                    let Some(gulp) = this.held.take() else { return Poll::Pending };
                    this.yielded = false;
                    this.rest = Some(Box::pin(tokio::time::sleep(REST)));
                    return Poll::Ready(Some(Ok(gulp)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::chat::FinishReason;
    use tokio::sync::mpsc;

    type Feed = mpsc::UnboundedSender<Item>;

    /// A stream fed by hand, so the test decides what has arrived.
    fn fed() -> (Feed, Gathered) {
        let (tx, mut rx) = mpsc::unbounded_channel();
        (tx, Gathered::new(Box::pin(futures::stream::poll_fn(move |cx| rx.poll_recv(cx)))))
    }

    fn send(feed: &Feed, chunk: Chunk) {
        feed.send(Ok(chunk)).expect("the stream is open");
    }

    fn text(s: &str) -> Chunk {
        Chunk::Text(s.into())
    }

    async fn next(stream: &mut Gathered) -> Chunk {
        stream.next().await.expect("a chunk").expect("not an error")
    }

    #[tokio::test(start_paused = true)]
    async fn what_arrives_during_a_rest_comes_as_one_chunk_per_kind() {
        let (feed, mut stream) = fed();
        send(&feed, text("Hel"));
        assert_eq!(next(&mut stream).await, text("Hel"), "the first is not held");
        let started = tokio::time::Instant::now();
        for piece in ["lo", ", ", "world"] {
            send(&feed, text(piece));
        }
        send(&feed, Chunk::Reasoning("hm".into()));
        send(&feed, Chunk::Reasoning("m".into()));
        send(&feed, text("!"));
        send(&feed, Chunk::Finish(FinishReason::Stop));
        drop(feed);
        assert_eq!(next(&mut stream).await, text("lo, world"));
        assert_eq!(started.elapsed(), REST, "read again only after a rest");
        assert_eq!(next(&mut stream).await, Chunk::Reasoning("hmm".into()));
        assert_eq!(next(&mut stream).await, text("!"));
        assert_eq!(next(&mut stream).await, Chunk::Finish(FinishReason::Stop));
        assert!(stream.next().await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn an_error_after_text_comes_after_the_text() {
        let (feed, mut stream) = fed();
        send(&feed, text("cut "));
        send(&feed, text("here"));
        feed.send(Err(ProviderError::StreamCut)).expect("the stream is open");
        assert_eq!(next(&mut stream).await, text("cut here"));
        assert!(matches!(stream.next().await, Some(Err(ProviderError::StreamCut))));
    }

    #[tokio::test(start_paused = true)]
    async fn a_chunk_that_arrives_while_idle_is_handed_on_at_once() {
        let (feed, mut stream) = fed();
        send(&feed, text("a"));
        next(&mut stream).await;
        tokio::time::sleep(REST * 5).await;
        let idle = tokio::time::Instant::now();
        send(&feed, text("b"));
        assert_eq!(next(&mut stream).await, text("b"));
        assert_eq!(idle.elapsed(), Duration::ZERO, "the rest was over long ago");
    }
}
