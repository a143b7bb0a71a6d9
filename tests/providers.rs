//! Both HTTP providers against a local server replaying byte-exact SSE
//! bodies: the happy paths, request bodies and headers, and every fault —
//! 429 + retry-after, 529, 5xx, in-stream errors, cut streams, stalls,
//! refused connections, 401, refused parameters, quota, garbage, cancellation.
#![allow(clippy::unwrap_used)]

mod support;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use heat::provider::anthropic::AnthropicModel;
use heat::provider::http::HttpConfig;
use heat::provider::openai::OpenAiModel;
use heat::provider::retry::{RetryPolicy, TurnItem, with_retry};
use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk, FinishReason, ProviderError, ResponseSchema, Usage};
use support::mock_llm::{MockLlm, Reply, anthropic_sse, anthropic_sse_text, openai_sse, openai_sse_text, split_text};

const FAST: RetryPolicy = RetryPolicy {
    max_retries: 3,
    base_delay: Duration::from_millis(5),
    max_delay: Duration::from_millis(20),
    max_retry_after: Duration::from_secs(5),
};

fn config(server: &MockLlm, key: Option<&str>) -> HttpConfig {
    HttpConfig {
        base_url: server.base_url.clone(),
        api_key: key.map(String::from),
        connect_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_millis(300),
    }
}

fn anthropic(server: &MockLlm) -> Arc<dyn ChatModel> {
    Arc::new(AnthropicModel::new(config(server, Some("test-anthropic-key"))))
}

fn openai(server: &MockLlm, key: Option<&str>) -> Arc<dyn ChatModel> {
    Arc::new(OpenAiModel::new(config(server, key)))
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "test-model".into(),
        system: "You are the ADVOCATE.".into(),
        messages: vec![ChatMessage::user("Argue for tabs.")],
        temperature: Some(0.7),
        max_tokens: 300,
        thinking_budget: None,
        response_schema: None,
        seed: None,
    }
}

/// Runs a turn; returns every item and the final error, if any.
async fn run(model: Arc<dyn ChatModel>, request: ChatRequest) -> (Vec<TurnItem>, Option<ProviderError>) {
    let mut stream = with_retry(model, request, FAST);
    let mut items = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(item) => items.push(item),
            Err(e) => return (items, Some(e)),
        }
    }
    (items, None)
}

/// The text of the last attempt (what the engine keeps).
fn final_text(items: &[TurnItem]) -> String {
    let start = items.iter().rposition(|i| matches!(i, TurnItem::Retrying { .. })).map_or(0, |p| p + 1);
    items[start..]
        .iter()
        .filter_map(|i| if let TurnItem::Chunk(Chunk::Text(t)) = i { Some(t.as_str()) } else { None })
        .collect()
}

fn retries(items: &[TurnItem]) -> Vec<&ProviderError> {
    items.iter().filter_map(|i| if let TurnItem::Retrying { error, .. } = i { Some(error) } else { None }).collect()
}

fn finished(items: &[TurnItem]) -> bool {
    matches!(items.last(), Some(TurnItem::Chunk(Chunk::Finish(FinishReason::Stop))))
}

// ── Anthropic ──────────────────────────────────────────────────────────────

#[tokio::test]
async fn anthropic_streams_thinking_text_usage_and_finish() {
    let server =
        MockLlm::scripted(vec![Reply::sse(&anthropic_sse(&["Tabs ", "are ", "flexible."], Some("Let me think.")), 7)])
            .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert_eq!(final_text(&items), "Tabs are flexible.");
    assert!(items.contains(&TurnItem::Chunk(Chunk::Reasoning("Let me think.".into()))));
    assert!(items.contains(&TurnItem::Chunk(Chunk::Usage(Usage { input_tokens: 25, output_tokens: 3 }))));
    assert!(finished(&items));
    let sent = &server.requests()[0];
    assert_eq!((sent.method.as_str(), sent.path.as_str()), ("POST", "/v1/messages"));
    assert_eq!(sent.header("x-api-key"), Some("test-anthropic-key"));
    assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(sent.body["model"], "test-model");
    assert_eq!(sent.body["stream"], true);
    assert_eq!(sent.body["max_tokens"], 300);
    assert_eq!(sent.body["temperature"], 0.7);
    assert_eq!(sent.body["system"], "You are the ADVOCATE.");
    assert_eq!(sent.body["messages"][0], serde_json::json!({"role": "user", "content": "Argue for tabs."}));
    assert!(sent.body.get("thinking").is_none() && sent.body.get("output_config").is_none());
}

#[tokio::test]
async fn anthropic_with_thinking_sends_no_temperature_and_room_for_the_budget() {
    let server = MockLlm::scripted(vec![Reply::sse(&anthropic_sse(&["ok"], None), 64)]).await;
    let mut req = request();
    req.thinking_budget = Some(2048);
    req.response_schema =
        Some(ResponseSchema { name: "verdict".into(), schema: serde_json::json!({"type": "object"}) });
    let (_, error) = run(anthropic(&server), req).await;
    assert_eq!(error, None);
    let body = &server.requests()[0].body;
    assert!(body.get("temperature").is_none(), "{body}");
    assert_eq!(body["thinking"], serde_json::json!({"type": "enabled", "budget_tokens": 2048}));
    assert!(body["max_tokens"].as_u64().unwrap() > 2048);
    assert_eq!(body["output_config"]["format"]["type"], "json_schema");
}

#[tokio::test]
async fn rate_limit_with_retry_after_then_success() {
    let server = MockLlm::scripted(vec![
        Reply::error(429, r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#)
            .with_header("retry-after", "0.2"),
        Reply::sse(&anthropic_sse(&["fine"], None), 16),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    let delays: Vec<Duration> = items
        .iter()
        .filter_map(|i| if let TurnItem::Retrying { delay, .. } = i { Some(*delay) } else { None })
        .collect();
    assert_eq!(delays, vec![Duration::from_millis(200)], "the server's retry-after is honoured");
    assert!(matches!(retries(&items)[0], ProviderError::RateLimited { message, .. } if message == "slow down"));
    assert_eq!(final_text(&items), "fine");
}

#[tokio::test]
async fn overloaded_529_and_500_are_retried() {
    let server = MockLlm::scripted(vec![
        Reply::error(529, r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
        Reply::error(500, r#"{"type":"error","error":{"type":"api_error","message":"Internal"}}"#),
        Reply::sse(&anthropic_sse(&["third time"], None), 16),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    let kinds = retries(&items);
    assert!(
        matches!(kinds[0], ProviderError::Overloaded { .. })
            && matches!(kinds[1], ProviderError::Server { status: 500, .. })
    );
    assert_eq!(final_text(&items), "third time");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn an_error_event_inside_the_stream_is_retried() {
    let broken = b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let server =
        MockLlm::scripted(vec![Reply::sse(broken, 40), Reply::sse(&anthropic_sse(&["recovered"], None), 16)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::Overloaded { .. }]));
    assert_eq!(final_text(&items), "recovered");
}

#[tokio::test]
async fn a_stream_cut_mid_answer_is_rerun_whole_never_spliced() {
    let body = anthropic_sse(&["First ", "half ", "and ", "the ", "rest."], None);
    let server = MockLlm::scripted(vec![
        Reply::sse(&body, 120).cut_after(7),
        Reply::sse(&anthropic_sse(&["A ", "complete ", "answer."], None), 50),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::StreamCut]));
    let before: String = items
        .iter()
        .take_while(|i| !matches!(i, TurnItem::Retrying { .. }))
        .filter_map(|i| if let TurnItem::Chunk(Chunk::Text(t)) = i { Some(t.as_str()) } else { None })
        .collect();
    assert!(!before.is_empty(), "some text streamed before the cut");
    assert_eq!(final_text(&items), "A complete answer.");
}

#[tokio::test]
async fn a_body_that_ends_without_message_stop_is_a_cut() {
    let body = String::from_utf8(anthropic_sse(&["truncated"], None)).unwrap();
    let without_stop = body.replace("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", "");
    let server = MockLlm::scripted(vec![
        Reply::sse(without_stop.as_bytes(), 64),
        Reply::sse(&anthropic_sse(&["whole"], None), 64),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::StreamCut]));
    assert_eq!(final_text(&items), "whole");
}

#[tokio::test]
async fn a_stall_past_the_idle_timeout_is_retried() {
    let body = anthropic_sse(&["never ", "finished"], None);
    let server = MockLlm::scripted(vec![
        Reply::sse(&body[..200], 200).stalled(),
        Reply::sse(&anthropic_sse(&["prompt"], None), 64),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::Timeout(why)] if why.contains("silent")), "{items:?}");
    assert_eq!(final_text(&items), "prompt");
}

#[tokio::test]
async fn a_server_that_never_answers_is_a_timeout() {
    let server = MockLlm::scripted(vec![Reply::hang(), Reply::sse(&anthropic_sse_text("At last.", 3), 16)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::Timeout(why)] if why.contains("no response")), "{items:?}");
    assert_eq!(final_text(&items), "At last.");
}

#[tokio::test]
async fn a_cut_inside_a_utf8_character_is_a_cut_and_the_rerun_is_whole() {
    let body = anthropic_sse_text("Ça coûte 🔥 cher, très cher.", 6);
    let fire = body.windows(4).position(|w| w == "🔥".as_bytes()).unwrap();
    let server = MockLlm::scripted(vec![
        Reply::sse(&body, 37).cut_after_bytes(fire + 2),
        Reply::sse(&body, 5).with_delay(Duration::from_millis(1)),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::StreamCut]), "{items:?}");
    assert_eq!(final_text(&items), "Ça coûte 🔥 cher, très cher.");
}

#[tokio::test]
async fn in_stream_error_kinds_decide_the_retry() {
    let event = |kind: &str| {
        format!("event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"{kind}\",\"message\":\"m\"}}}}\n\n")
    };
    let server = MockLlm::scripted(vec![
        Reply::sse(event("rate_limit_error").as_bytes(), 64),
        Reply::sse(event("api_error").as_bytes(), 64),
        Reply::sse(event("invalid_request_error").as_bytes(), 64),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    let kinds = retries(&items);
    assert!(matches!(kinds[0], ProviderError::RateLimited { .. }), "{kinds:?}");
    assert!(matches!(kinds[1], ProviderError::Server { status: 500, .. }), "{kinds:?}");
    assert_eq!(error, Some(ProviderError::BadRequest { status: 400, message: "m".into() }));
}

#[tokio::test]
async fn unauthorized_stops_at_once_with_the_servers_message() {
    let server = MockLlm::scripted(vec![Reply::error(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    )])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert!(items.is_empty());
    assert_eq!(error, Some(ProviderError::Auth { status: 401, message: "invalid x-api-key".into() }));
    assert_eq!(server.requests().len(), 1);
    let shown = error.unwrap().to_string();
    assert!(!shown.contains("test-anthropic-key"), "{shown}");
}

#[tokio::test]
async fn a_refused_temperature_is_dropped_and_the_request_sent_again() {
    let server = MockLlm::scripted(vec![
        Reply::error(400, r#"{"type":"error","error":{"type":"invalid_request_error","message":"temperature is not supported for this model"}}"#),
        Reply::sse(&anthropic_sse(&["without it"], None), 64),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(matches!(&items[0], TurnItem::ParameterDropped { param, .. } if param == "temperature"));
    let sent = server.requests();
    assert_eq!(sent[0].body["temperature"], 0.7);
    assert!(sent[1].body.get("temperature").is_none());
    assert_eq!(final_text(&items), "without it");
}

#[tokio::test]
async fn a_parameter_refused_twice_is_final() {
    let refusal =
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"temperature is not supported"}}"#;
    let server = MockLlm::scripted(vec![Reply::error(400, refusal), Reply::error(400, refusal)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert!(matches!(items[..], [TurnItem::ParameterDropped { .. }]), "{items:?}");
    assert!(matches!(error, Some(ProviderError::ParameterRejected { param, .. }) if param == "temperature"));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn x_should_retry_false_makes_a_503_final() {
    let server = MockLlm::scripted(vec![
        Reply::error(503, r#"{"error":{"message":"down for good"}}"#).with_header("x-should-retry", "false"),
    ])
    .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert!(items.is_empty());
    assert!(matches!(error, Some(ref e) if !e.is_retryable()), "{error:?}");
    assert_eq!(server.requests().len(), 1);
}

// ── OpenAI-compatible ──────────────────────────────────────────────────────

#[tokio::test]
async fn openai_streams_reasoning_text_usage_and_done() {
    let server = MockLlm::scripted(vec![Reply::sse(&openai_sse(&["Spaces ", "win."], Some("Hmm.")), 13)]).await;
    let mut req = request();
    req.seed = Some(7);
    req.response_schema =
        Some(ResponseSchema { name: "verdict".into(), schema: serde_json::json!({"type": "object"}) });
    let (items, error) = run(openai(&server, Some("sk-test-openai")), req).await;
    assert_eq!(error, None);
    assert_eq!(final_text(&items), "Spaces win.");
    assert!(items.contains(&TurnItem::Chunk(Chunk::Reasoning("Hmm.".into()))));
    assert!(items.contains(&TurnItem::Chunk(Chunk::Usage(Usage { input_tokens: 30, output_tokens: 2 }))));
    assert!(finished(&items));
    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/chat/completions");
    assert_eq!(sent.header("authorization"), Some("Bearer sk-test-openai"));
    assert_eq!(sent.header("x-api-key"), None);
    let body = &sent.body;
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["messages"][0], serde_json::json!({"role": "system", "content": "You are the ADVOCATE."}));
    assert_eq!(body["messages"][1]["role"], "user");
    assert_eq!(
        (body["temperature"].as_f64(), body["seed"].as_u64(), body["max_tokens"].as_u64()),
        (Some(0.7), Some(7), Some(300))
    );
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["name"], "verdict");
    assert_eq!(body["response_format"]["json_schema"]["strict"], true);
}

#[tokio::test]
async fn openai_without_a_key_sends_no_authorization_and_reads_ollama_reasoning() {
    let body = "data: {\"choices\":[{\"delta\":{\"reasoning\":\"thinking…\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n";
    let server = MockLlm::scripted(vec![Reply::sse(body.as_bytes(), 30)]).await;
    let mut req = request();
    req.temperature = None;
    let (items, error) = run(openai(&server, None), req).await;
    assert_eq!(error, None, "a finish_reason then the end of the body is a complete answer");
    assert!(items.contains(&TurnItem::Chunk(Chunk::Reasoning("thinking…".into()))));
    assert_eq!(final_text(&items), "Hi");
    assert!(finished(&items));
    let sent = &server.requests()[0];
    assert_eq!(sent.header("authorization"), None);
    assert!(sent.body.get("temperature").is_none());
}

#[tokio::test]
async fn openai_body_ending_without_finish_or_done_is_a_cut() {
    let cut = "data: {\"choices\":[{\"delta\":{\"content\":\"Half\"},\"finish_reason\":null}]}\n\n";
    let server =
        MockLlm::scripted(vec![Reply::sse(cut.as_bytes(), 64), Reply::sse(&openai_sse(&["Whole."], None), 64)]).await;
    let (items, error) = run(openai(&server, None), request()).await;
    assert_eq!(error, None);
    assert!(matches!(retries(&items)[..], [ProviderError::StreamCut]));
    assert_eq!(final_text(&items), "Whole.");
}

#[tokio::test]
async fn openai_in_band_errors_and_garbage_are_retried() {
    let in_band = "data: {\"error\":{\"message\":\"model crashed\",\"type\":\"server_error\"}}\n\n";
    let garbage = "data: {\"choices\": [oops\n\n";
    let server = MockLlm::scripted(vec![
        Reply::sse(in_band.as_bytes(), 64),
        Reply::sse(garbage.as_bytes(), 64),
        Reply::sse(&openai_sse(&["Recovered."], None), 64),
    ])
    .await;
    let (items, error) = run(openai(&server, None), request()).await;
    assert_eq!(error, None);
    let kinds = retries(&items);
    assert!(matches!(kinds[0], ProviderError::Server { message, .. } if message == "model crashed"));
    assert!(matches!(kinds[1], ProviderError::Malformed(_)));
    assert_eq!(final_text(&items), "Recovered.");
}

#[tokio::test]
async fn openai_refused_temperature_by_param_field_is_dropped() {
    let refusal = r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}"#;
    let server =
        MockLlm::scripted(vec![Reply::error(400, refusal), Reply::sse(&openai_sse_text("Reasoned.", 2), 32)]).await;
    let (items, error) = run(openai(&server, Some("k")), request()).await;
    assert_eq!(error, None);
    assert!(matches!(&items[0], TurnItem::ParameterDropped { param, .. } if param == "temperature"));
    let sent = server.requests();
    assert_eq!(sent[0].body["temperature"], 0.7);
    assert!(sent[1].body.get("temperature").is_none());
    assert_eq!(final_text(&items), "Reasoned.");
}

#[tokio::test]
async fn openai_429_with_retry_after_ms_then_success() {
    let server = MockLlm::scripted(vec![
        Reply::error(429, r#"{"error":{"message":"Rate limit reached","type":"requests"}}"#)
            .with_header("retry-after-ms", "30")
            .with_header("retry-after", "20"),
        Reply::sse(&openai_sse_text("ok", 1), 32),
    ])
    .await;
    let (items, error) = run(openai(&server, Some("k")), request()).await;
    assert_eq!(error, None);
    assert!(
        items
            .iter()
            .any(|i| matches!(i, TurnItem::Retrying { delay, attempt: 1, .. } if *delay == Duration::from_millis(30)))
    );
    assert_eq!(final_text(&items), "ok");
}

#[tokio::test]
async fn openai_finish_reason_error_and_in_band_rate_limit() {
    let finish_error = "data: {\"choices\":[{\"delta\":{\"content\":\"Par\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"error\"}]}\n\n";
    let limited = "data: {\"error\":{\"message\":\"slow down\",\"code\":429}}\n\n";
    let server = MockLlm::scripted(vec![
        Reply::sse(finish_error.as_bytes(), 64),
        Reply::sse(limited.as_bytes(), 64),
        Reply::sse(&openai_sse_text("Done.", 2), 64),
    ])
    .await;
    let (items, error) = run(openai(&server, None), request()).await;
    assert_eq!(error, None);
    let kinds = retries(&items);
    assert!(matches!(kinds[0], ProviderError::Server { .. }), "{kinds:?}");
    assert!(matches!(kinds[1], ProviderError::RateLimited { .. }), "{kinds:?}");
    assert_eq!(final_text(&items), "Done.");
}

#[tokio::test]
async fn openai_error_events_and_old_llama_cpp_error_lines_are_classified() {
    let event = "event: error\ndata: {\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\"}}\n\n";
    let old_llama = "data: {\"choices\":[{\"delta\":{\"content\":\"Hal\"},\"finish_reason\":null}]}\n\nerror: {\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}\n\n";
    let server = MockLlm::scripted(vec![
        Reply::sse(event.as_bytes(), 64),
        Reply::sse(old_llama.as_bytes(), 64),
        Reply::sse(&openai_sse_text("Fine.", 2), 64),
    ])
    .await;
    let (items, error) = run(openai(&server, None), request()).await;
    assert_eq!(error, None);
    let kinds = retries(&items);
    assert!(matches!(kinds[0], ProviderError::Overloaded { .. }), "{kinds:?}");
    assert!(
        matches!(kinds[1], ProviderError::Server { status: 503, message, .. } if message == "Loading model"),
        "{kinds:?}"
    );
    assert_eq!(final_text(&items), "Fine.");
}

#[tokio::test]
async fn an_api_key_no_header_can_carry_fails_once_and_is_never_shown() {
    let server = MockLlm::scripted(vec![]).await;
    let mut config = config(&server, None);
    config.api_key = Some("sk-secret\u{0}x".into());
    let (items, error) = run(Arc::new(OpenAiModel::new(config)), request()).await;
    assert!(items.is_empty());
    let error = error.unwrap();
    assert!(matches!(error, ProviderError::BadRequest { status: 0, .. }) && !error.to_string().contains("sk-secret"));
    assert!(server.requests().is_empty());
}

#[test]
fn split_text_rejoins_to_the_text() {
    for n in [1, 2, 3, 7, 100] {
        let parts = split_text("héllo wörld 🔥", n);
        assert!(parts.len() <= n);
        assert_eq!(parts.concat(), "héllo wörld 🔥");
    }
}

#[tokio::test]
async fn an_exhausted_quota_is_final() {
    let server = MockLlm::scripted(vec![Reply::error(
        429,
        r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}}"#,
    )])
    .await;
    let (_, error) = run(openai(&server, Some("k")), request()).await;
    assert!(matches!(error, Some(ProviderError::QuotaExhausted { .. })), "{error:?}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_refused_connection_is_retried_then_reported() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let model: Arc<dyn ChatModel> = Arc::new(OpenAiModel::new(HttpConfig {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        api_key: None,
        connect_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
    }));
    let (items, error) = run(model, request()).await;
    assert_eq!(retries(&items).len(), 3);
    assert!(matches!(error, Some(ProviderError::Connect(_))), "{error:?}");
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection_promptly() {
    let body = openai_sse(&["one ", "two ", "three ", "four ", "five ", "six ", "seven ", "eight "], None);
    let server = MockLlm::scripted(vec![Reply::sse(&body, 60).with_delay(Duration::from_millis(100))]).await;
    let mut stream = with_retry(openai(&server, None), request(), FAST);
    while let Some(item) = stream.next().await {
        if matches!(item.unwrap(), TurnItem::Chunk(Chunk::Text(_))) {
            break;
        }
    }
    let went_away = server.client_went_away();
    drop(stream);
    tokio::time::timeout(Duration::from_secs(2), went_away)
        .await
        .expect("the server saw the client close the connection");
}
