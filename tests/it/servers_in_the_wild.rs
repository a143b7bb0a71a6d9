//! What real servers do that the big APIs do not, played byte-exact by the
//! mock server, through the engine and through `heat run`:
//! - an OpenAI-compatible server that refuses `json_schema` (a 500 naming
//!   `response_format`, or a 400/422) but takes `json_object` with a schema;
//! - an Anthropic-format proxy that refuses `output_config`, and one that
//!   refuses tools as well;
//! - a server that serves one request at a time and ends the running stream
//!   with `[DONE]` (no `finish_reason`) when another arrives; through a proxy
//!   the same cut is an `end_turn` with 0 output tokens;
//! - answers cut at `max_tokens`;
//! - error bodies in every common shape, and base URLs with `/v1` missing
//!   or doubled.
#![allow(clippy::unwrap_used)]

use crate::engine_support;
use crate::support;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use heat::debate::engine::{self, DebateSpec, EngineSetup, RoleSetup, StructuredSetting};
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::provider::retry::{RetryPolicy, TurnItem};
use heat::provider::{Adaptation, ChatModel, Chunk, FinishReason, ProviderError, StructuredOutput};
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_stream, anthropic_tool_sse, openai_stream};
use support::turns::{self, FAST, final_text, request, retries, role_of, run};

const VERDICT_OPEN: &str =
    r#"{"resolved": false, "verdict": "Both sides argued well.", "topic": "What about onboarding?", "heat": 0.6}"#;
const VERDICT_DONE: &str =
    r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#;

/// The body the OpenAI-compatible server sends for a `json_schema` it does
/// not take: a 500 whose message names `response_format`.
const REFUSED_SCHEMA_500: &str = r#"{"error":{"message":"1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]","type":"internal_server_error"}}"#;

fn verdict_for(request: &Recorded) -> &'static str {
    if request.last_message().contains("Round 1 of") { VERDICT_OPEN } else { VERDICT_DONE }
}

/// A debater's argument: a new one each round (one said again word for word is asked for again).
fn argument(role: Role, request: &Recorded) -> String {
    let round = crate::support::duel::round_asked(request);
    let line = if role == Role::Advocate {
        "Tabs let every reader choose a width"
    } else {
        "Spaces render the same everywhere"
    };
    if round <= 1 { format!("{line}.") } else { format!("{line}, as round {round} shows.") }
}

fn words(text: &str) -> Vec<&str> {
    text.split_inclusive(' ').collect()
}

/// An OpenAI-compatible server like llama.cpp's Python server: it refuses
/// `json_schema` with a 500 and reads the schema beside `json_object`.
fn schema_refusing_server(request: &Recorded) -> Reply {
    let role = role_of(request);
    if role == Role::Judge {
        match request.body["response_format"]["type"].as_str() {
            Some("json_schema") => return Reply::error(500, REFUSED_SCHEMA_500),
            Some("json_object") | None => {}
            Some(other) => panic!("unexpected response_format {other}"),
        }
        return Reply::sse(&openai_stream("smollm2-135m", &words(verdict_for(request)), Some("stop")), 61);
    }
    Reply::sse(&openai_stream("smollm2-135m", &words(&argument(role, request)), Some("stop")), 61)
}

fn openai_role(server: &MockLlm) -> RoleSetup {
    let mut config = turns::config(server, None);
    config.base_url = format!("{}/v1", server.base_url);
    RoleSetup::new(
        Arc::new(heat::provider::openai::OpenAiModel::new(config)) as Arc<dyn ChatModel>,
        "gpt-4.1-mini",
        512,
    )
}

fn anthropic_role(server: &MockLlm) -> RoleSetup {
    RoleSetup::new(turns::anthropic(server), "claude-haiku-4-5", 512)
}

fn setup(role: impl Fn() -> RoleSetup) -> EngineSetup {
    engine_support::duel(role(), role(), role()).retry(RetryPolicy { max_retries: 3, ..FAST }).build()
}

/// A duel of `max_rounds` rounds on "Tabs beat spaces" from heat 0.9.
fn spec(max_rounds: u32) -> DebateSpec {
    crate::engine_support::duel_spec(max_rounds)
}

async fn debate(setup: EngineSetup, rounds: u32) -> (Vec<DebateEvent>, DebateState) {
    let mut handle = engine::start(setup, spec(rounds));
    let mut events = Vec::new();
    let all = async {
        while let Some(e) = handle.next_event().await {
            events.push(e);
        }
    };
    tokio::time::timeout(Duration::from_secs(30), all).await.expect("the debate ended");
    let state = handle.join().await;
    assert_eq!(DebateState::from_events(&events), state);
    (events, state)
}

fn adaptations(events: &[DebateEvent]) -> Vec<&Adaptation> {
    events
        .iter()
        .filter_map(|e| if let DebateEvent::EndpointAdapted { adaptation, .. } = e { Some(adaptation) } else { None })
        .collect()
}

fn judge_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| role_of(r) == Role::Judge).collect()
}

/// The debate ended with the judge's word: resolved, or its synthesis at the round limit.
fn judged_to_the_end(state: &DebateState) -> bool {
    matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved | Outcome::MaxRounds))
}

/// Every argument in the state is settled and has text.
fn assert_no_empty_argument(state: &DebateState) {
    for round in &state.rounds {
        for role in Role::DEBATERS {
            let text = round.argument(role).unwrap_or_else(|| panic!("round {} {role:?} unsettled", round.number));
            assert!(!text.trim().is_empty(), "round {} {role:?} is empty", round.number);
        }
    }
}

#[tokio::test]
async fn a_500_naming_response_format_steps_down_once_per_debate_and_is_never_retried_as_busy() {
    let server = MockLlm::with_handler(schema_refusing_server).await;
    let (events, state) = debate(setup(|| openai_role(&server)), 3).await;
    assert!(matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved)), "{:?}", state.finish);
    assert_eq!(state.rounds.iter().filter(|r| r.verdict().is_some()).count(), 2, "both rounds judged");
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::TurnRetrying { role: Role::Judge, .. })), "not 'busy'");
    let judged = judge_requests(&server);
    let forms: Vec<&str> =
        judged.iter().map(|r| r.body["response_format"]["type"].as_str().unwrap_or("none")).collect();
    assert_eq!(forms, ["json_schema", "json_object", "json_object"], "one extra request in the whole debate");
    let json_object = &judged[1];
    assert_eq!(json_object.body["response_format"]["schema"]["required"][0], "resolved", "the schema rides along");
    assert!(json_object.system().contains("must follow this JSON schema"), "and is in the prompt");
    assert_eq!(adaptations(&events), [&Adaptation::StructuredOutput { form: StructuredOutput::Json }]);
    let notice = state.notices.iter().find(|n| n.contains("refused")).unwrap();
    assert!(notice.contains("json_schema") && notice.contains("json_object"), "{notice}");
    assert_no_empty_argument(&state);
}

#[tokio::test]
async fn a_400_or_422_refusal_steps_down_to_plain_text_when_json_object_is_refused_too() {
    for status in [400, 422] {
        let server = MockLlm::with_handler(move |request| {
            let role = role_of(request);
            if role == Role::Judge && request.body.get("response_format").is_some() {
                let body = r#"{"detail":[{"type":"literal_error","loc":["body","response_format","type"],"msg":"Input should be 'text'"}]}"#;
                return Reply::error(status, body);
            }
            let text = if role == Role::Judge { verdict_for(request).to_string() } else { argument(role, request) };
            Reply::sse(&openai_stream("m", &words(&text), Some("stop")), 64)
        })
        .await;
        let (events, state) = debate(setup(|| openai_role(&server)), 2).await;
        assert!(judged_to_the_end(&state), "{status}: {:?}", state.finish);
        let forms: Vec<String> = judge_requests(&server)
            .iter()
            .map(|r| r.body["response_format"]["type"].as_str().unwrap_or("none").to_string())
            .collect();
        assert_eq!(forms, ["json_schema", "json_object", "none", "none"], "{status}");
        assert_eq!(
            adaptations(&events),
            [
                &Adaptation::StructuredOutput { form: StructuredOutput::Json },
                &Adaptation::StructuredOutput { form: StructuredOutput::Off }
            ]
        );
    }
}

#[tokio::test]
async fn an_anthropic_proxy_that_refuses_output_config_gets_a_forced_tool_then_plain_text() {
    // The proxy turns output_config into json_schema and passes the 500 back; it takes tools.
    let server = MockLlm::with_handler(|request| {
        let role = role_of(request);
        if role == Role::Judge {
            if request.body.get("output_config").is_some() {
                return Reply::error(500, REFUSED_SCHEMA_500);
            }
            if request.body.get("tools").is_some() {
                let parts = words(verdict_for(request));
                return Reply::sse(&anthropic_tool_sse("verdict", &parts), 50);
            }
        }
        let text = if role == Role::Judge { verdict_for(request).to_string() } else { argument(role, request) };
        Reply::sse(&anthropic_stream(&words(&text), "end_turn", 9), 50)
    })
    .await;
    let (events, state) = debate(setup(|| anthropic_role(&server)), 3).await;
    assert!(matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved)), "{:?}", state.finish);
    let judged = judge_requests(&server);
    assert_eq!(judged.len(), 3, "one extra request, then the tool every time");
    assert!(judged[0].body.get("output_config").is_some());
    assert_eq!(judged[1].body["tool_choice"]["name"], "verdict");
    assert_eq!(judged[2].body["tool_choice"]["name"], "verdict");
    assert_eq!(adaptations(&events), [&Adaptation::StructuredOutput { form: StructuredOutput::Json }]);
    assert_eq!(state.rounds[0].verdict().unwrap().topic, "What about onboarding?", "the tool's input is the verdict");

    let no_tools = MockLlm::with_handler(|request| {
        let role = role_of(request);
        if role == Role::Judge && request.body.get("tools").is_some() {
            let body = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools: this model does not support tool use"}}"#;
            return Reply::error(400, body);
        }
        if role == Role::Judge && request.body.get("output_config").is_some() {
            return Reply::error(500, REFUSED_SCHEMA_500);
        }
        let text = if role == Role::Judge { verdict_for(request).to_string() } else { argument(role, request) };
        Reply::sse(&anthropic_stream(&words(&text), "end_turn", 9), 50)
    })
    .await;
    let (_, state) = debate(setup(|| anthropic_role(&no_tools)), 2).await;
    assert!(judged_to_the_end(&state), "{:?}", state.finish);
    let last = judge_requests(&no_tools).pop().unwrap();
    assert!(last.body.get("tools").is_none() && last.body.get("output_config").is_none());
    assert!(last.system().contains("must follow this JSON schema"));
}

#[tokio::test]
async fn a_named_form_is_used_as_set_and_its_refusal_is_final_with_the_setting_named() {
    let server = MockLlm::with_handler(schema_refusing_server).await;
    let fixed = |form| {
        let server = &server;
        move || {
            let mut role = openai_role(server);
            role.structured = StructuredSetting::Fixed(form);
            role
        }
    };
    let (_, state) = debate(setup(fixed(StructuredOutput::Schema)), 2).await;
    let Some(Outcome::Failed(why)) = state.finish.map(|f| f.outcome) else { panic!("a refused fixed form fails") };
    assert!(why.contains("structured_output") && why.contains("\"off\""), "{why}");
    assert!(!why.contains("busy"), "{why}");

    let server = MockLlm::with_handler(schema_refusing_server).await;
    let (_, state) = debate(setup(fixed(StructuredOutput::Off)), 2).await;
    assert!(judged_to_the_end(&state), "{:?}", state.finish);
    assert!(judge_requests(&server).iter().all(|r| r.body.get("response_format").is_none()), "off sends none");
}

#[tokio::test]
async fn done_without_a_finish_reason_is_a_cut_and_is_asked_again() {
    let cut = openai_stream("m", &[], None);
    let whole = openai_stream("m", &["Tabs ", "win."], Some("stop"));
    let server = MockLlm::scripted(vec![Reply::sse(&cut, 64), Reply::sse(&whole, 64)]).await;
    let (items, error) = run(turns::openai(&server, None), request()).await;
    assert_eq!(error, None);
    assert_eq!(retries(&items), [&ProviderError::StreamCut]);
    assert_eq!(final_text(&items), "Tabs win.");

    // Text, then [DONE] with no finish_reason: also a cut, never a finished answer.
    let partial = openai_stream("m", &["Tabs are"], None);
    let server = MockLlm::scripted(vec![Reply::sse(&partial, 64), Reply::sse(&whole, 64)]).await;
    let (items, error) = run(turns::openai(&server, None), request()).await;
    assert_eq!(error, None);
    assert_eq!(retries(&items), [&ProviderError::StreamCut]);
    assert_eq!(final_text(&items), "Tabs win.");
}

#[tokio::test]
async fn an_empty_stream_says_the_prompt_may_be_longer_than_the_servers_context() {
    // llama.cpp's Python server answers a prompt longer than its context with a
    // 200 and an event stream that ends before its first event.
    let server = MockLlm::scripted(vec![Reply::sse(b"", 1); 4]).await;
    let (items, error) = run(turns::openai(&server, None), request()).await;
    assert_eq!(retries(&items), [&ProviderError::EmptyStream; 3]);
    let shown = error.unwrap().sentence("openai");
    assert!(shown.contains("without sending anything") && shown.contains("larger context"), "{shown}");
}

#[tokio::test]
async fn an_empty_end_turn_through_a_proxy_is_an_empty_answer_asked_again() {
    let empty = anthropic_stream(&[], "end_turn", 0);
    let whole = anthropic_stream(&["Tabs ", "win."], "end_turn", 2);
    let server = MockLlm::scripted(vec![Reply::sse(&empty, 64), Reply::sse(&whole, 64)]).await;
    let (items, error) = run(turns::anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert_eq!(retries(&items), [&ProviderError::EmptyAnswer]);
    assert_eq!(final_text(&items), "Tabs win.");
}

#[tokio::test]
async fn an_argument_empty_after_every_retry_is_a_failed_turn_and_is_never_judged() {
    let server = MockLlm::with_handler(|request| match role_of(request) {
        Role::Skeptic => Reply::sse(&openai_stream("m", &[], Some("stop")), 64),
        Role::Judge => Reply::sse(&openai_stream("m", &words(VERDICT_DONE), Some("stop")), 64),
        role => Reply::sse(&openai_stream("m", &words(&argument(role, request)), Some("stop")), 64),
    })
    .await;
    let (events, state) = debate(setup(|| openai_role(&server)), 2).await;
    let Some(Outcome::Failed(why)) = state.finish.map(|f| f.outcome) else { panic!("the debate should fail") };
    assert!(why.contains("without any text"), "{why}");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnFailed { role: Role::Skeptic, .. })));
    assert!(judge_requests(&server).is_empty(), "an empty argument is never judged");
}

/// Debaters answer slowly, one piece every 20 ms, and a request that
/// arrives mid-answer ends the running one with `ending`.
fn one_at_a_time_server(ending: &'static [u8], anthropic: bool) -> impl Fn(&Recorded) -> Reply {
    move |request| {
        let role = role_of(request);
        let text = if role == Role::Judge { verdict_for(request).to_string() } else { argument(role, request) };
        let body = if anthropic {
            anthropic_stream(&words(&text), "end_turn", 8)
        } else {
            openai_stream("m", &words(&text), Some("stop"))
        };
        // The first piece is the opening (the role chunk, or message_start).
        let opening = body.windows(2).position(|w| w == b"\n\n").map_or(40, |p| p + 2);
        let mut reply = Reply::sse(&body, 90).with_delay(Duration::from_millis(20)).interrupted_with(ending);
        reply.pieces =
            std::iter::once(body[..opening].to_vec()).chain(body[opening..].chunks(90).map(<[u8]>::to_vec)).collect();
        reply
    }
}

#[tokio::test]
async fn a_server_that_cuts_the_earlier_of_two_streams_is_sent_one_request_at_a_time() {
    let server = MockLlm::with_handler(one_at_a_time_server(b"data: [DONE]\n\n", false)).await;
    let (events, state) = debate(setup(|| openai_role(&server)), 3).await;
    assert!(matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved)), "{:?}", state.finish);
    assert_eq!(adaptations(&events), [&Adaptation::OneAtATime], "one notice, once");
    assert_no_empty_argument(&state);
    // Once requests go one at a time, nothing is cut again: the one retry
    // after the notice is the turn whose cut decided it.
    let adapted = events.iter().position(|e| matches!(e, DebateEvent::EndpointAdapted { .. })).unwrap();
    let after = events[adapted..].iter().filter(|e| matches!(e, DebateEvent::TurnRetrying { .. })).count();
    assert_eq!(after, 1, "{events:#?}");

    // Through the proxy the same cut is a normal end with no text.
    let ending: &'static [u8] = b"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":0}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let proxy = MockLlm::with_handler(one_at_a_time_server(ending, true)).await;
    let (events, state) = debate(setup(|| anthropic_role(&proxy)), 2).await;
    assert!(judged_to_the_end(&state), "{:?}", state.finish);
    assert_eq!(adaptations(&events), [&Adaptation::OneAtATime]);
    assert_no_empty_argument(&state);
}

#[tokio::test]
async fn a_resumed_debate_remembers_what_the_server_taught() {
    // Round 2's arguments fail for good until the debate is resumed.
    let failing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let fails = Arc::clone(&failing);
    let server = MockLlm::with_handler(move |request| {
        let round_two = request.last_message().contains("Round 2 of");
        if role_of(request) != Role::Judge && round_two && fails.load(Ordering::SeqCst) {
            return Reply::error(401, r#"{"error":{"message":"key revoked"}}"#);
        }
        schema_refusing_server(request)
    })
    .await;
    let (events, state) = debate(setup(|| openai_role(&server)), 3).await;
    assert!(matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Failed(_))));
    assert_eq!(adaptations(&events).len(), 1);
    failing.store(false, Ordering::SeqCst);
    let before = judge_requests(&server).len();
    // New models, as a new process would build: only the log remembers.
    let mut handle = engine::resume(setup(|| openai_role(&server)), state);
    while handle.next_event().await.is_some() {}
    let after: Vec<Recorded> = judge_requests(&server).into_iter().skip(before).collect();
    assert!(!after.is_empty());
    assert!(
        after.iter().all(|r| r.body["response_format"]["type"] == "json_object"),
        "the refused form is not tried again"
    );
}

#[tokio::test]
async fn an_answer_cut_at_max_tokens_is_marked_and_the_judge_is_told() {
    let server = MockLlm::with_handler(|request| match role_of(request) {
        Role::Advocate => {
            let mut body = openai_stream("m", &["Tabs let every reader ", "choose"], Some("length"));
            let usage = br#"data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":512,"total_tokens":521}}"#;
            let at = body.windows(12).rposition(|w| w == b"data: [DONE]").unwrap();
            body.splice(at..at, usage.iter().copied().chain(*b"\n\n"));
            Reply::sse(&body, 64)
        }
        Role::Judge => Reply::sse(&openai_stream("m", &words(VERDICT_DONE), Some("stop")), 64),
        role => Reply::sse(&openai_stream("m", &words(&argument(role, request)), Some("stop")), 64),
    })
    .await;
    let (events, state) = debate(setup(|| openai_role(&server)), 1).await;
    let advocate = state.rounds[0].turn(Role::Advocate).unwrap();
    assert_eq!(advocate.truncated_at, Some(512));
    assert_eq!(state.rounds[0].turn(Role::Skeptic).unwrap().truncated_at, None);
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnCompleted { truncated_at: Some(512), .. })));
    let judged = judge_requests(&server);
    assert!(judged[0].last_message().contains("choose [cut off here"), "{}", judged[0].last_message());
}

#[tokio::test]
async fn the_model_a_server_reports_is_the_one_shown() {
    let server = MockLlm::with_handler(|request| {
        let role = role_of(request);
        let text = if role == Role::Judge { VERDICT_DONE.to_string() } else { argument(role, request) };
        Reply::sse(&openai_stream("qwen2.5-0.5b-instruct", &words(&text), Some("stop")), 64)
    })
    .await;
    let (events, state) = debate(setup(|| openai_role(&server)), 1).await;
    let reported = events.iter().filter(|e| matches!(e, DebateEvent::ModelReported { .. })).count();
    assert_eq!(reported, 3, "once per role, not once per turn");
    for role in Role::DUEL {
        let participant = state.participant(role).unwrap();
        assert_eq!(participant.model, "gpt-4.1-mini", "what was asked for is kept");
        assert_eq!(participant.shown_model(), "qwen2.5-0.5b-instruct");
    }
}

#[tokio::test]
async fn error_bodies_in_every_shape_become_one_line() {
    let cases = [
        (401, r#"{"detail": "Invalid API key"}"#, "Invalid API key"),
        (400, r#"{"error": "model not loaded"}"#, "model not loaded"),
        (400, r#"{"message": "context length exceeded", "code": 400}"#, "context length exceeded"),
        (503, "upstream unavailable\n", "upstream unavailable"),
        (
            500,
            "Traceback (most recent call last):\n  File \"server.py\", line 9, in handler\n    raise ValueError(x)\nValueError: prompt too long\n",
            "ValueError: prompt too long",
        ),
        (502, "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "502 Bad Gateway"),
    ];
    for (status, body, expected) in cases {
        let server = MockLlm::scripted(vec![Reply::error(status, body); 5]).await;
        let (_, error) = run(turns::openai(&server, Some("sk-x")), request()).await;
        let error = error.unwrap();
        let shown = error.sentence("openai");
        assert!(shown.contains(expected), "{status}: {shown}");
        assert!(!shown.contains('\n') && !shown.contains("Traceback") && !shown.contains("<html"), "{shown}");
        assert!(!shown.contains(".."), "doubled punctuation: {shown}");
    }
}

#[tokio::test]
async fn a_404_says_which_url_and_what_the_base_url_should_look_like() {
    let server = MockLlm::with_handler(|_| Reply::error(404, r#"{"detail":"Not Found"}"#)).await;
    // OpenAI-compatible, /v1 missing.
    let model = turns::openai(&server, None);
    let (_, error) = run(model, request()).await;
    let shown = error.unwrap().sentence("openai");
    assert!(shown.contains(&format!("{}/chat/completions", server.base_url)), "{shown}");
    assert!(shown.contains("has no /v1") && shown.contains("OPENAI_BASE_URL"), "{shown}");
    assert!(!shown.contains("model name"), "{shown}");
    // Anthropic, /v1 doubled.
    let mut config = turns::config(&server, Some("k"));
    config.base_url = format!("{}/v1", server.base_url);
    let model = Arc::new(heat::provider::anthropic::AnthropicModel::new(config));
    let (_, error) = run(model, request()).await;
    let shown = error.unwrap().sentence("anthropic");
    assert!(shown.contains("/v1/v1/messages") && shown.contains("ends in /v1"), "{shown}");
    assert!(shown.contains("ANTHROPIC_BASE_URL"), "{shown}");
    // A 404 about the model still says to check the model name.
    let server = MockLlm::with_handler(|_| {
        Reply::error(404, r#"{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}"#)
    })
    .await;
    let mut config = turns::config(&server, None);
    config.base_url = format!("{}/v1", server.base_url);
    let (_, error) = run(Arc::new(heat::provider::openai::OpenAiModel::new(config)), request()).await;
    assert!(error.unwrap().sentence("openai").contains("check the model name"));
}

// ---------------------------------------------------------------------------
// Through the binary.

fn heat(data: &Path, base_url: &str) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 2\n");
    cmd.env("OPENAI_BASE_URL", base_url).env("HEAT_PROVIDER", "openai");
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> (std::process::Output, String, String) {
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, stderr)
}

#[tokio::test]
async fn heat_run_debates_on_a_server_that_refuses_json_schema_and_cuts_concurrent_streams() {
    let refusals = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&refusals);
    let interrupting = one_at_a_time_server(b"data: [DONE]\n\n", false);
    let server = MockLlm::with_handler(move |request| {
        if role_of(request) == Role::Judge && request.body["response_format"]["type"] == "json_schema" {
            counted.fetch_add(1, Ordering::SeqCst);
            return Reply::error(500, REFUSED_SCHEMA_500);
        }
        interrupting(request)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "3"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("resolved by the judge"), "{stdout}");
    assert_eq!(refusals.load(Ordering::SeqCst), 1, "json_schema was tried once in the whole debate");
    assert!(stdout.contains("refused response_format json_schema"), "{stdout}");
    assert_eq!(stdout.matches("One request at a time").count(), 1, "{stdout}");
    assert!(!stdout.contains("busy"), "{stdout}");
}

#[tokio::test]
async fn heat_run_with_max_concurrent_one_never_overlaps_and_off_sends_no_format() {
    let server = MockLlm::with_handler(|request| {
        assert!(request.body.get("response_format").is_none(), "structured_output = off");
        let role = role_of(request);
        let text = if role == Role::Judge { VERDICT_DONE.to_string() } else { argument(role, request) };
        Reply::sse(&openai_stream("m", &words(&text), Some("stop")), 16).with_delay(Duration::from_millis(5))
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("heat.toml"),
        "[network]\nmax_retries = 1\n\n[providers.openai]\nmax_concurrent = 1\nstructured_output = \"off\"\n",
    )
    .unwrap();
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(server.max_in_flight(), 1, "one request at a time");
    assert_eq!(server.requests().iter().filter(|r| r.method == "POST").count(), 3);
}

#[tokio::test]
async fn heat_run_names_a_bad_structured_output_setting_with_its_file_and_line() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("heat.toml"), "[providers.openai]\nstructured_output = \"strict\"\n").unwrap();
    let mut cmd = heat(data.path(), "http://127.0.0.1:9/v1");
    cmd.args(["run", "Tabs beat spaces"]);
    let (out, _, stderr) = output(cmd).await;
    assert!(!out.status.success());
    for part in ["heat.toml line 2", "structured_output", "\"auto\", \"schema\", \"json\", \"off\"", "strict"] {
        assert!(stderr.contains(part), "{part} missing: {stderr}");
    }
}

#[tokio::test]
async fn heat_run_marks_a_cut_argument_and_the_export_lists_it() {
    let server = MockLlm::with_handler(|request| match role_of(request) {
        Role::Skeptic => Reply::sse(&openai_stream("m", &["Spaces render ", "the same"], Some("length")), 64),
        Role::Judge => Reply::sse(&openai_stream("m", &words(VERDICT_DONE), Some("stop")), 64),
        role => Reply::sse(&openai_stream("m", &words(&argument(role, request)), Some("stop")), 64),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("the same … ✂ cut at 1,024 tokens"), "{stdout}");
    let mut export = heat(data.path(), "http://127.0.0.1:9/v1");
    export.args(["export", "--format", "md"]);
    let (out, markdown, stderr) = output(export).await;
    assert!(out.status.success(), "{stderr}");
    assert!(markdown.contains("✂ cut at 1,024 tokens"), "{markdown}");
}

#[tokio::test]
async fn heat_run_reads_a_fastapi_error_and_a_missing_v1() {
    let server = MockLlm::with_handler(|request| {
        if request.path == "/chat/completions" {
            return Reply::error(404, r#"{"detail":"Not Found"}"#);
        }
        Reply::error(401, r#"{"detail": "Invalid API key."}"#)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(!out.status.success());
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("Invalid API key") && !all.contains("key..") && !all.contains("HTTP 401"), "{all}");

    let mut cmd = heat(data.path(), &server.base_url);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(!out.status.success());
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("/chat/completions") && all.contains("has no /v1"), "{all}");
    assert!(!all.contains("check the model name"), "{all}");

    // A message that ends with a full stop is not given a second one.
    let server =
        MockLlm::with_handler(|_| Reply::error(400, r#"{"error":{"message":"Your request was malformed."}}"#)).await;
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(!out.status.success());
    let all = format!("{stdout}{stderr}");
    // A malformed request is not something a retry changes: resume is offered for after the fix.
    assert!(all.contains("Your request was malformed. Once that is fixed, `heat resume"), "{all}");
    assert!(!all.contains("malformed.."), "{all}");
}

#[tokio::test]
async fn heat_run_on_a_custom_server_debates_with_the_model_it_lists() {
    let server = MockLlm::with_handler(|request| {
        if request.method == "GET" && request.path == "/v1/models" {
            return Reply::error(200, r#"{"object":"list","data":[{"id":"/models/SmolLM2-135M-Instruct.Q4_1.gguf","object":"model","owned_by":"me","permissions":[]}]}"#);
        }
        let role = role_of(request);
        let text = if role == Role::Judge { VERDICT_DONE.to_string() } else { argument(role, request) };
        // Like llama.cpp's Python server: the model field echoes the request's.
        let model = request.body["model"].as_str().unwrap_or_default().to_string();
        Reply::sse(&openai_stream(&model, &words(&text), Some("stop")), 64)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &format!("{}/v1", server.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let (out, stdout, stderr) = output(cmd).await;
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("advocate  openai//models/SmolLM2-135M-Instruct.Q4_1.gguf"), "{stdout}");
    assert!(!stdout.contains("gpt-4.1-mini"), "{stdout}");
    let posts: Vec<Recorded> = server.requests().into_iter().filter(|r| r.method == "POST").collect();
    assert!(posts.iter().all(|r| r.body["model"] == "/models/SmolLM2-135M-Instruct.Q4_1.gguf"));
}

#[test]
fn the_served_model_is_a_chunk_once() {
    // A direct check of the parser: the name comes once, before the text.
    let body = openai_stream("served-model", &["a", "b"], Some("stop"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let server = MockLlm::scripted(vec![Reply::sse(&body, 7)]).await;
        let (items, error) = run(turns::openai(&server, None), request()).await;
        assert_eq!(error, None);
        let models: Vec<&TurnItem> = items.iter().filter(|i| matches!(i, TurnItem::Chunk(Chunk::Model(_)))).collect();
        assert_eq!(models, [&TurnItem::Chunk(Chunk::Model("served-model".into()))]);
        assert_eq!(items.last(), Some(&TurnItem::Chunk(Chunk::Finish(FinishReason::Stop))));
    });
}
