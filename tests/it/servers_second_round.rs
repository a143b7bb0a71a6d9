//! What servers and gateways heat had not met taught it, played byte-exact
//! by the mock server:
//! - a request held in a server's queue sends nothing until a slot frees:
//!   waiting is not stalling, and the idle timeout starts at the first byte;
//! - a server whose slots each give a request less context than the
//!   prompts need answers `exceed_context_size_error` with its numbers:
//!   learnt once, and every later prompt fitted to it;
//! - a gateway whose upstream died mid-answer ends it cleanly after half a
//!   sentence: marked possibly cut, for the judge and the person;
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
use heat::provider::{Adaptation, ChatModel, ProviderError};
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_stream, openai_stream};
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
        headers: Vec::new(),
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

/// What the server gives one request: a total context of 4,096 over 2
/// parallel slots.
const SLOT_CONTEXT: usize = 2048;

/// A request's size as a server counts it, near enough: four characters a
/// token, and the answer it asks room for.
fn counted_tokens(request: &Recorded) -> usize {
    let text: usize = request.body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().map(|m| m["content"].as_str().map_or(0, str::len)).sum());
    text / 4 + request.body["max_tokens"].as_u64().unwrap_or(0) as usize
}

/// llama.cpp's answer to a request longer than a slot's context.
fn exceeds_context(prompt_tokens: usize) -> Reply {
    Reply::error(
        400,
        &format!(
            r#"{{"error":{{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":{prompt_tokens},"n_ctx":{SLOT_CONTEXT}}}}}"#
        ),
    )
}

/// Long arguments (1,500 characters each): round 3's prompts no longer fit a slot.
fn small_context_server(request: &Recorded) -> Reply {
    let needed = counted_tokens(request);
    if needed > SLOT_CONTEXT {
        return exceeds_context(needed);
    }
    let role = role_of(request);
    if role == Role::Judge {
        let last = request.last_message();
        let verdict = if last.contains("Round 3 of") { VERDICT_DONE } else { VERDICT_OPEN };
        return Reply::sse(&openai_stream("qwen", &[verdict], Some("stop")), 4096);
    }
    let point = if role == Role::Advocate { ADVOCATE } else { SKEPTIC };
    let long = format!("{point} ").repeat(16);
    Reply::sse(&openai_stream("qwen", &[long.as_str()], Some("stop")), 4096)
}

/// A 3-round duel with every seat on `server`, to its end: its events and state.
async fn three_rounds_on(server: &MockLlm) -> (Vec<DebateEvent>, heat::debate::DebateState) {
    let setup = engine_support::duel(served_role(server), served_role(server), served_role(server))
        .retry(support::turns::FAST)
        .build();
    let spec = engine_support::spec("Tabs beat spaces", support::log::built_in("duel"), 3);
    let run = engine_support::drain(engine::start(setup, spec));
    tokio::time::timeout(Duration::from_secs(30), run).await.expect("the debate ended")
}

#[tokio::test]
async fn a_context_the_server_names_is_learnt_once_and_every_later_prompt_fits_it() {
    let server = MockLlm::with_handler(small_context_server).await;
    let (events, state) = three_rounds_on(&server).await;
    assert!(
        matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved | Outcome::MaxRounds)),
        "{:?}",
        state.finish
    );
    assert_eq!(state.rounds.len(), 3, "round 3 was argued and judged");
    let learnt: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::EndpointAdapted { adaptation: Adaptation::ContextWindow { tokens }, message, .. } => {
                Some((*tokens, message.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(learnt.len(), 1, "learnt once: {learnt:?}");
    assert_eq!(learnt[0].0, 2048);
    assert!(learnt[0].1.contains("2,048 tokens of context"), "{}", learnt[0].1);
    let said: Vec<&String> = events
        .iter()
        .filter_map(|e| if let DebateEvent::Notice { message } = e { Some(message) } else { None })
        .filter(|m| m.contains("in brief, not in full"))
        .collect();
    assert!(!said.is_empty(), "what was given in brief is said: {events:#?}");
    // Refused once, by the call that taught it; every request after fits.
    let requests = server.requests();
    let refused: Vec<usize> =
        requests.iter().enumerate().filter(|(_, r)| counted_tokens(r) > SLOT_CONTEXT).map(|(i, _)| i).collect();
    assert!(!refused.is_empty(), "the long history did overflow once");
    let first = refused[0];
    let after = &refused[1..];
    assert!(
        after.iter().all(|&i| i <= first + 2),
        "only calls already under way when the first refusal came may overflow: {refused:?}"
    );
    // The current round is kept whole: round 3's prompt still quotes round 2's arguments.
    let last_debater = requests.iter().rev().find(|r| role_of(r) == Role::Skeptic).unwrap();
    assert!(last_debater.last_message().contains("argued last round"), "{}", last_debater.last_message());
}

// Through the binary.

/// `heat run` on the server; whether it succeeded, its stdout and stderr,
/// and the session logs it wrote, joined.
async fn heat_run(server: &MockLlm, config: &str, rounds: &str) -> (bool, String, String, String) {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = support::binary::heat(data.path(), config);
    cmd.env("OPENAI_BASE_URL", format!("{}/v1", server.base_url)).env("HEAT_PROVIDER", "openai");
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", rounds]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut logs = String::new();
    for entry in std::fs::read_dir(data.path().join("sessions")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            logs.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    (out.status.success(), stdout, stderr, logs)
}

#[tokio::test]
async fn heat_run_waits_out_a_queue_longer_than_its_idle_timeout() {
    // Every request waits 2.5 s in the server's queue; the idle timeout is 1 s.
    let server = MockLlm::with_handler(|request| {
        let mut reply = slow_server(request).queued(Duration::from_millis(2500));
        reply.delay = Duration::ZERO;
        reply
    })
    .await;
    let (ok, stdout, stderr, _) = heat_run(&server, "[network]\nidle_timeout_secs = 1\nmax_retries = 1\n", "1").await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(!stdout.contains("retrying"), "a queue is not a stall:\n{stdout}");
    assert!(stdout.contains("Tabs let every reader choose a width"), "{stdout}");
}

#[tokio::test]
async fn heat_run_fits_its_prompts_to_the_context_a_server_names_and_reports_no_usage_of_nothing() {
    // A gateway in front of a small-context server that reports 0 in / 0 out for every call.
    let server = MockLlm::with_handler(|request| {
        let reply = small_context_server(request);
        if reply.status != 200 {
            return reply;
        }
        let body: Vec<u8> = reply.pieces.concat();
        let text = String::from_utf8(body).unwrap();
        let zero = r#"data: {"choices":[],"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}}"#;
        let text = text.replace("data: [DONE]", &format!("{zero}\n\ndata: [DONE]"));
        Reply::sse(text.as_bytes(), 4096)
    })
    .await;
    let (ok, stdout, stderr, logs) = heat_run(&server, "[network]\nmax_retries = 2\n", "3").await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("2,048 tokens of context"), "the window learnt is said:\n{stdout}");
    assert!(stdout.contains("in brief, not in full, to fit"), "what was given in brief is said:\n{stdout}");
    assert!(!stdout.contains("failed"), "{stdout}");
    assert!(!stdout.contains("cut at"), "{stdout}");
    assert!(logs.contains("turn_completed"), "{logs}");
    assert!(!logs.contains(r#""input_tokens":0"#), "0 in / 0 out is recorded as no usage:\n{logs}");
}

/// A gateway in front of an upstream killed mid-answer: the advocate's
/// answer stops after half a sentence with a clean `end_turn`.
fn gateway_that_hides_a_crash(request: &Recorded) -> Reply {
    let role = role_of(request);
    if role == Role::Judge {
        let verdict = if request.last_message().contains("Round 1 of") { VERDICT_OPEN } else { VERDICT_DONE };
        return Reply::sse(&anthropic_stream(&[verdict], "end_turn", 40), 4096);
    }
    if role == Role::Advocate {
        let half = ["Tabs let every reader choose a width. ", "The evidence you've provided"];
        return Reply::sse(&anthropic_stream(&half, "end_turn", 12), 4096);
    }
    Reply::sse(&anthropic_stream(&[SKEPTIC], "end_turn", 20), 4096)
}

#[tokio::test]
async fn a_clean_stop_after_half_a_sentence_is_marked_possibly_cut_for_the_judge_and_in_heat_run() {
    let server = MockLlm::with_handler(gateway_that_hides_a_crash).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = support::binary::heat(data.path(), "[network]\nmax_retries = 1\n");
    cmd.env("ANTHROPIC_BASE_URL", &server.base_url).env("ANTHROPIC_API_KEY", "k").env("HEAT_PROVIDER", "anthropic");
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "2"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("The evidence you've provided … ⚠ possibly cut"), "{stdout}");
    let judged = server.requests().into_iter().find(|r| role_of(r) == Role::Judge).unwrap();
    assert!(
        judged.last_message().contains("The evidence you've provided [it may have been cut off here"),
        "the judge is told: {}",
        judged.last_message()
    );
    assert!(
        !stdout.contains(
            "Spaces render alike in every diff, review tool and terminal, with nothing to configure first. …"
        ),
        "{stdout}"
    );
}

#[tokio::test]
async fn heat_run_takes_a_servers_slots_and_context_from_its_props_and_never_overflows() {
    // llama.cpp's /props for a server of 2 slots of 2,048 tokens; the same
    // small-context server behind it.
    let server = MockLlm::with_handler(|request| {
        if request.path == "/props" {
            let props = format!(r#"{{"default_generation_settings":{{"n_ctx":{SLOT_CONTEXT}}},"total_slots":2}}"#);
            return Reply::error(200, &props);
        }
        small_context_server(request)
    })
    .await;
    let (ok, stdout, stderr, logs) = heat_run(&server, "[network]\nmax_retries = 2\n", "3").await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stderr.contains("serves 2 requests at once with 2,048 tokens of context each"), "{stderr}");
    let overflowed =
        server.requests().iter().filter(|r| r.path != "/props" && counted_tokens(r) > SLOT_CONTEXT).count();
    assert_eq!(overflowed, 0, "fitted from the first request on");
    assert!(!logs.contains("context_window"), "nothing had to be learnt from an error");
    assert!(server.max_in_flight() <= 2, "no more at once than the server's slots");
}

#[tokio::test]
async fn a_request_waiting_in_heats_own_queue_is_recorded_as_queued_then_sent_before_its_first_word() {
    // One request at a time, set by hand: the second debater waits in heat for the first.
    let server = MockLlm::with_handler(slow_server).await;
    let config = "[network]\nmax_retries = 1\n[providers.openai]\nmax_concurrent = 1\n";
    let (ok, stdout, stderr, logs) = heat_run(&server, config, "1").await;
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(server.max_in_flight(), 1);
    let kinds_of = |role: &str| -> Vec<String> {
        logs.lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|record| record["event"]["role"] == role)
            .map(|record| record["event"]["type"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    // Both debaters are asked at once: one goes, the other waits for it.
    let (advocate, skeptic) = (kinds_of("advocate"), kinds_of("skeptic"));
    let queued = |kinds: &[String]| kinds.iter().any(|k| k == "turn_queued");
    assert!(queued(&advocate) != queued(&skeptic), "exactly one waited:\n{advocate:?}\n{skeptic:?}");
    let kinds = if queued(&advocate) { advocate } else { skeptic };
    let first = |kind: &str| kinds.iter().position(|k| k == kind).unwrap_or_else(|| panic!("no {kind}: {kinds:?}"));
    assert!(first("turn_started") < first("turn_queued"), "{kinds:?}");
    assert!(first("turn_queued") < first("turn_sent"), "{kinds:?}");
    assert!(first("turn_sent") < first("delta"), "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| *k == "turn_queued").count(), 1, "{kinds:?}");
    assert!(!stdout.contains("queued"), "heat run's text says nothing of its own queue:\n{stdout}");
}

/// A server started beside heat that comes up a moment after it: heat asks
/// for its model list again rather than naming a model it never served.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_comes_up_a_moment_late_is_asked_for_its_models_again() {
    let server = Arc::new(
        MockLlm::with_handler(|request| {
            if request.path == "/v1/models" {
                return Reply::error(200, r#"{"object":"list","data":[{"id":"qwen-late","object":"model"}]}"#);
            }
            let role = role_of(request);
            let text = match role {
                Role::Judge => VERDICT_DONE,
                Role::Advocate => ADVOCATE,
                _ => SKEPTIC,
            };
            Reply::sse(&openai_stream("qwen-late", &[text], Some("stop")), 4096)
        })
        .await,
    );
    // The port refuses connections for 0.8 s from now: heat starts while it is down.
    let down = tokio::spawn({
        let server = Arc::clone(&server);
        async move { server.restart(Duration::from_millis(800)).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (ok, stdout, stderr, logs) = heat_run(&server, "", "1").await;
    down.await.unwrap();
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("openai/qwen-late"), "the model the server lists: {stdout}");
    assert!(!stdout.contains("gpt-4.1-mini") && !logs.contains("gpt-4.1-mini"), "{stdout}");
}

/// The same server behind a gateway that drops the size from its overflow
/// error: heat fits its prompts to a guess, says it is one, and goes on.
#[tokio::test]
async fn an_overflow_that_names_no_size_is_fitted_to_a_guess_once_and_the_debate_goes_on() {
    let server = MockLlm::with_handler(|request| {
        if counted_tokens(request) > SLOT_CONTEXT {
            return Reply::error(413, r#"{"error":{"message":"the prompt is too long for the context window"}}"#);
        }
        small_context_server(request)
    })
    .await;
    let (events, state) = three_rounds_on(&server).await;
    assert!(
        matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved | Outcome::MaxRounds)),
        "the overflow did not end the debate: {:?}",
        state.finish
    );
    let guessed: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::EndpointAdapted { adaptation: Adaptation::ContextWindow { .. }, message, .. } => Some(message),
            _ => None,
        })
        .collect();
    assert!(!guessed.is_empty(), "the window was guessed");
    for said in &guessed {
        assert!(said.contains("without saying its size: heat fits its prompts to about"), "said as a guess: {said}");
    }
    let sizes: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::EndpointAdapted { adaptation: Adaptation::ContextWindow { tokens }, .. } => Some(*tokens),
            _ => None,
        })
        .collect();
    assert!(sizes.windows(2).all(|w| w[1] < w[0]), "each guess smaller than the last: {sizes:?}");
}
