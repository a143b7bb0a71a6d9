//! What servers and gateways heat had not met taught it, played byte-exact
//! by the mock server:
//! - a request held in a server's queue sends nothing until a slot frees:
//!   waiting is not stalling, and the idle timeout starts at the first byte;
//! - a server killed mid-debate cuts every running stream at once and
//!   refuses connections for a while: a restart, not a server that serves
//!   one request at a time;
#![allow(clippy::unwrap_used)]

use crate::engine_support;
use crate::support;

use std::sync::Arc;
use std::time::Duration;

use heat::debate::engine::{self, RoleSetup};
use heat::debate::{DebateEvent, Outcome, Role};
use heat::provider::http::HttpConfig;
use heat::provider::openai::OpenAiModel;
use heat::provider::retry::RetryPolicy;
use heat::provider::{ChatModel, ProviderError};
use support::mock_llm::{MockLlm, Recorded, Reply, openai_stream};
use support::turns::{final_text, request, retries, role_of, run};

/// Silence for longer than this, once an answer has begun, is a stall.
const IDLE: Duration = Duration::from_millis(300);
/// An answer may take this long to begin.
const FIRST_BYTE: Duration = Duration::from_secs(3);
/// A wait in the server's queue: four idle timeouts, well within the first-byte limit.
const QUEUED: Duration = Duration::from_millis(1200);

fn openai(server: &MockLlm) -> Arc<dyn ChatModel> {
    Arc::new(OpenAiModel::new(HttpConfig {
        base_url: format!("{}/v1", server.base_url),
        api_key: None,
        connect_timeout: Duration::from_secs(2),
        idle_timeout: IDLE,
        first_byte_timeout: FIRST_BYTE,
        max_concurrent: None,
    }))
}

fn answer() -> Reply {
    Reply::sse(&openai_stream("qwen", &["Slots ", "free ", "up."], Some("stop")), 40)
}

#[tokio::test]
async fn a_request_queued_before_its_status_line_is_waited_for_not_retried() {
    let server = MockLlm::scripted(vec![answer().queued(QUEUED)]).await;
    let (items, error) = run(openai(&server), request()).await;
    assert_eq!(error, None);
    assert!(retries(&items).is_empty(), "a queue is not a stall: {items:?}");
    assert_eq!(final_text(&items), "Slots free up.");
    assert_eq!(server.requests().len(), 1, "asked once");
}

#[tokio::test]
async fn a_body_whose_first_byte_comes_late_is_waited_for_not_retried() {
    // The head at once, then nothing until a slot frees (as a gateway in
    // front of a one-at-a-time upstream does, with no keep-alive).
    let body = openai_stream("qwen", &["Slots ", "free ", "up."], Some("stop"));
    let server = MockLlm::scripted(vec![Reply::sse(&body, body.len()).with_delay(QUEUED)]).await;
    let (items, error) = run(openai(&server), request()).await;
    assert_eq!(error, None);
    assert!(retries(&items).is_empty(), "{items:?}");
    assert_eq!(final_text(&items), "Slots free up.");
}

#[tokio::test]
async fn an_answer_that_never_begins_fails_at_the_first_byte_limit_and_says_which_setting() {
    let server = MockLlm::scripted(vec![Reply::hang(), answer()]).await;
    let started = std::time::Instant::now();
    let (items, error) = run(openai(&server), request()).await;
    assert_eq!(error, None);
    let retried = retries(&items);
    assert!(matches!(retried[..], [ProviderError::NotStarted(_)]), "{items:?}");
    assert!(started.elapsed() >= FIRST_BYTE, "waited the first-byte limit, not the idle one");
    let sentence = retried[0].sentence("openai");
    assert!(sentence.contains("network.first_byte_timeout_secs"), "{sentence}");
    assert_eq!(final_text(&items), "Slots free up.");
}

#[tokio::test]
async fn silence_after_the_answer_began_is_still_a_stall_at_the_idle_limit() {
    let body = openai_stream("qwen", &["never ", "finished"], Some("stop"));
    let server = MockLlm::scripted(vec![Reply::sse(&body[..60], 60).stalled(), answer()]).await;
    let started = std::time::Instant::now();
    let (items, error) = run(openai(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::Timeout(why)] if why.contains("silent")), "{items:?}");
    assert!(started.elapsed() < FIRST_BYTE, "the idle limit, not the first-byte one");
    assert_eq!(final_text(&items), "Slots free up.");
}

/// Debaters answer slowly (a piece every 20 ms), the judge at once.
fn slow_server(request: &Recorded) -> Reply {
    let role = role_of(request);
    if role == Role::Judge {
        let verdict = if request.last_message().contains("Round 1 of") { VERDICT_OPEN } else { VERDICT_DONE };
        return Reply::sse(&openai_stream("qwen", &[verdict], Some("stop")), 4096);
    }
    let argument = if role == Role::Advocate { ADVOCATE } else { SKEPTIC };
    let words: Vec<&str> = argument.split_inclusive(' ').collect();
    Reply::sse(&openai_stream("qwen", &words, Some("stop")), 60).with_delay(Duration::from_millis(20))
}

const ADVOCATE: &str = "Tabs let every reader choose a width, and the file stays the same for everyone who opens it.";
const SKEPTIC: &str = "Spaces render alike in every diff, review tool and terminal, with nothing to configure first.";
const VERDICT_OPEN: &str =
    r#"{"resolved": false, "verdict": "Both sides argued well.", "topic": "What about onboarding?", "heat": 0.6}"#;
const VERDICT_DONE: &str =
    r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#;

fn served_role(server: &MockLlm) -> RoleSetup {
    RoleSetup::new(openai(server), "qwen", 512)
}

#[tokio::test]
async fn a_restart_that_cuts_every_stream_at_once_is_not_taken_for_a_one_at_a_time_server() {
    let server = Arc::new(MockLlm::with_handler(slow_server).await);
    // Retries that outlast two restarts of 1 s each.
    let policy = RetryPolicy {
        max_retries: 12,
        base_delay: Duration::from_millis(200),
        max_delay: Duration::from_millis(500),
        max_retry_after: Duration::from_secs(5),
    };
    let setup =
        engine_support::duel(served_role(&server), served_role(&server), served_role(&server)).retry(policy).build();
    let restarted = {
        let server = Arc::clone(&server);
        // Killed twice while both debaters stream: each time every
        // running stream is cut at once and the port refuses for a second.
        tokio::spawn(async move {
            for _ in 0..2 {
                server.until_in_flight(2).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
                server.restart(Duration::from_secs(1)).await;
            }
        })
    };
    let spec = engine_support::spec("Tabs beat spaces", support::log::built_in("duel"), 2);
    let run = engine_support::drain(engine::start(setup, spec));
    let (events, state) = tokio::time::timeout(Duration::from_secs(30), run).await.expect("the debate ended");
    restarted.await.unwrap();
    assert!(
        matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved | Outcome::MaxRounds)),
        "{:?}",
        state.finish
    );
    let cut = events
        .iter()
        .filter(|e| matches!(e, DebateEvent::TurnRetrying { reason, .. } if reason.contains("ended before")))
        .count();
    assert_eq!(cut, 4, "both debaters' streams were cut at once, twice: {events:#?}");
    let adapted: Vec<_> = events.iter().filter(|e| matches!(e, DebateEvent::EndpointAdapted { .. })).collect();
    assert!(adapted.is_empty(), "a restart is not a habit: {adapted:?}");
    // After the restart the debaters still stream side by side.
    assert_eq!(server.max_in_flight(), 2);
}
