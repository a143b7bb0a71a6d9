//! Provisional retry driver (replaced by the full policy on merge).

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt};

use super::{ChatModel, ChatRequest, Chunk, ProviderError};

#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
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
    pub fn delay_for(&self, attempt: u32, err: &ProviderError) -> Option<Duration> {
        if !err.is_retryable() || attempt > self.max_retries {
            return None;
        }
        Some(err.retry_after().unwrap_or(self.base_delay).min(self.max_delay))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TurnItem {
    Chunk(Chunk),
    Retrying { attempt: u32, max_retries: u32, delay: Duration, error: ProviderError },
    ParameterDropped { param: String, message: String },
}

pub type TurnStream = Pin<Box<dyn Stream<Item = Result<TurnItem, ProviderError>> + Send>>;

pub fn with_retry(model: Arc<dyn ChatModel>, request: ChatRequest, policy: RetryPolicy) -> TurnStream {
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    tokio::spawn(async move {
        let mut attempt = 0;
        loop {
            let mut stream = model.stream(request.clone());
            let mut error = None;
            while let Some(item) = stream.next().await {
                match item {
                    Ok(chunk) => {
                        if tx.send(Ok(TurnItem::Chunk(chunk))).await.is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        error = Some(e);
                        break;
                    }
                }
            }
            let Some(error) = error else { return };
            attempt += 1;
            let Some(delay) = policy.delay_for(attempt, &error) else {
                let _ = tx.send(Err(error)).await;
                return;
            };
            let item = TurnItem::Retrying { attempt, max_retries: policy.max_retries, delay, error };
            if tx.send(Ok(item)).await.is_err() {
                return;
            }
            tokio::time::sleep(delay).await;
        }
    });
    Box::pin(tokio_stream_from(rx))
}

fn tokio_stream_from<T: Send + 'static>(mut rx: tokio::sync::mpsc::Receiver<T>) -> impl Stream<Item = T> {
    futures::stream::poll_fn(move |cx| rx.poll_recv(cx))
}
