//! The retry driver on virtual time (`start_paused`): the waits it takes are
//! exactly the ones it announces, the server's retry-after is honoured or
//! refused, attempts are capped, and a stream dropped while waiting sends
//! nothing more.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use crate::support::turns;

use futures::StreamExt;
use heat::provider::retry::{RetryPolicy, TurnItem, with_retry};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatMessage, ChatRequest, ProviderError};
use tokio::time::Instant;

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        messages: vec![ChatMessage::user("go")],
        temperature: Some(0.5),
        max_tokens: 100,

        ..ChatRequest::default()
    }
}

fn busy() -> ProviderError {
    ProviderError::Server { status: 503, retry_after: None, message: "busy".into() }
}

fn limited(secs: u64) -> ProviderError {
    ProviderError::RateLimited { retry_after: Some(Duration::from_secs(secs)), message: "slow down".into() }
}

/// Every item of a turn, the final error, and the virtual time it took.
async fn timed(model: Arc<ScriptedModel>) -> (Vec<TurnItem>, Option<ProviderError>, Duration) {
    let start = Instant::now();
    let (items, error) = turns::run_with(model, request(), RetryPolicy::default()).await;
    (items, error, start.elapsed())
}

fn delays(items: &[TurnItem]) -> Vec<Duration> {
    items.iter().filter_map(|i| if let TurnItem::Retrying { delay, .. } = i { Some(*delay) } else { None }).collect()
}

#[tokio::test(start_paused = true)]
async fn the_servers_retry_after_is_waited_exactly() {
    let model = Arc::new(ScriptedModel::new([Reply::fail(limited(30))], Reply::text("done")));
    let (items, error, took) = timed(Arc::clone(&model)).await;
    assert_eq!(error, None);
    assert_eq!(delays(&items), vec![Duration::from_secs(30)]);
    assert!(took >= Duration::from_secs(30) && took < Duration::from_secs(31), "{took:?}");
    assert_eq!(model.requests().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn backoff_doubles_with_jitter_and_gives_up_after_four_retries() {
    let model = Arc::new(ScriptedModel::new([], Reply::fail(busy())));
    let (items, error, took) = timed(Arc::clone(&model)).await;
    assert_eq!(error, Some(busy()));
    let waits = delays(&items);
    assert_eq!(waits.len(), 4);
    for (wait, full) in waits.iter().zip([500, 1000, 2000, 4000]) {
        let full = Duration::from_millis(full);
        assert!(*wait <= full && *wait >= full.mul_f64(0.75), "{wait:?} vs {full:?}");
    }
    let total: Duration = waits.iter().sum();
    assert!(took >= total && took < total + Duration::from_millis(50), "{took:?} vs {total:?}");
    assert_eq!(model.requests().len(), 5);
    let attempts: Vec<(u32, u32)> = items
        .iter()
        .filter_map(|i| {
            if let TurnItem::Retrying { attempt, max_retries, .. } = i { Some((*attempt, *max_retries)) } else { None }
        })
        .collect();
    assert_eq!(attempts, vec![(1, 4), (2, 4), (3, 4), (4, 4)]);
}

#[tokio::test(start_paused = true)]
async fn a_retry_after_beyond_the_cap_is_not_waited_for() {
    let model = Arc::new(ScriptedModel::new([Reply::fail(limited(120))], Reply::text("never")));
    let (items, error, took) = timed(Arc::clone(&model)).await;
    assert!(items.is_empty());
    assert_eq!(error, Some(limited(120)));
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(model.requests().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_stream_dropped_while_waiting_sends_no_more_requests() {
    let model = Arc::new(ScriptedModel::new([Reply::fail(limited(20))], Reply::text("too late")));
    let mut stream = with_retry(Arc::clone(&model) as Arc<_>, request(), RetryPolicy::default());
    assert!(matches!(stream.next().await, Some(Ok(TurnItem::Retrying { .. }))));
    drop(stream);
    tokio::time::sleep(Duration::from_secs(60)).await;
    assert_eq!(model.requests().len(), 1);
}
