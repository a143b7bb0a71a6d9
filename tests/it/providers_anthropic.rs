//! The Anthropic provider against a local server replaying byte-exact SSE
//! bodies: the happy path, the request it sends, and every fault — 429 +
//! retry-after, 529, 5xx, in-stream errors, cut streams, stalls, 401,
//! refused parameters, x-should-retry.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::time::Duration;

use heat::provider::retry::TurnItem;
use heat::provider::{Chunk, ProviderError, ResponseSchema, Usage};
use support::mock_llm::{MockLlm, Reply, anthropic_sse, anthropic_sse_text};
use support::turns::{anthropic, final_text, finished, request, retries, run};

#[tokio::test]
async fn anthropic_streams_thinking_text_usage_and_finish() {
    let server =
        MockLlm::scripted(vec![Reply::sse(&anthropic_sse(&["Tabs ", "are ", "flexible."], Some("Let me think.")), 7)])
            .await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert_eq!(final_text(&items), "Tabs are flexible.");
    assert!(items.contains(&TurnItem::Chunk(Chunk::Reasoning("Let me think.".into()))));
    assert!(items.contains(&TurnItem::Chunk(Chunk::Usage(Usage {
        input_tokens: 25,
        output_tokens: 3,
        cached_input_tokens: 0,
        ..Usage::default()
    }))));
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
    req.response_schema = Some(ResponseSchema::new("verdict", serde_json::json!({"type": "object"})));
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
async fn a_server_that_never_answers_has_not_started() {
    let server = MockLlm::scripted(vec![Reply::hang(), Reply::sse(&anthropic_sse_text("At last.", 3), 16)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(
        matches!(retries(&items)[..], [ProviderError::NotStarted(why)] if why.contains("nothing came")),
        "{items:?}"
    );
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

#[tokio::test]
async fn a_long_grounding_block_is_sent_first_and_marked_for_the_cache() {
    // Usage as Anthropic reports a cache read: input_tokens counts only the uncached part.
    let sse = b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":40,\"cache_read_input_tokens\":2000,\"cache_creation_input_tokens\":0,\"output_tokens\":1}}}\n\n\
event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n\
event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"input_tokens\":40,\"cache_read_input_tokens\":2000,\"output_tokens\":2}}\n\n\
event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let server = MockLlm::scripted(vec![Reply::sse(sse, 16), Reply::sse(&anthropic_sse(&["short"], None), 16)]).await;
    let block =
        format!("Today is 2026-11-23.\n\n<source>\n{}</source>\n", "L1: a line of the design document\n".repeat(150));
    let grounded = heat::provider::ChatRequest { grounding: Some(block.clone()), ..request() };
    let (items, error) = run(anthropic(&server), grounded).await;
    assert_eq!(error, None);
    let usage = Usage { input_tokens: 2040, output_tokens: 2, cached_input_tokens: 2000, ..Usage::default() };
    assert!(items.contains(&TurnItem::Chunk(Chunk::Usage(usage))), "{items:?}");
    let sent = &server.requests()[0];
    assert_eq!(
        sent.body["system"],
        serde_json::json!([
            { "type": "text", "text": block, "cache_control": { "type": "ephemeral" } },
            { "type": "text", "text": "You are the ADVOCATE." },
        ])
    );
    // The date alone is too short to cache: one text, the date first.
    let dated = heat::provider::ChatRequest { grounding: Some("Today is 2026-11-23.".into()), ..request() };
    let (_, error) = run(anthropic(&server), dated).await;
    assert_eq!(error, None);
    assert_eq!(server.requests()[1].body["system"], "Today is 2026-11-23.\n\nYou are the ADVOCATE.");
}

/// claude-code-router (1.0.73) in front of llama.cpp's server, byte for
/// byte: a race with its upstream answers a 500 whose message runs into a
/// Node stack, which is retried and read without the stack; its stream
/// then reports 0 tokens in and out everywhere, passed on as it came (the
/// engine records it as no usage), and ends at `max_tokens`, a cut.
#[tokio::test]
async fn claude_code_routers_500_is_retried_and_its_zero_usage_is_no_usage() {
    let failed = r#"{"error":{"message":"fetch failedTypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n    at async p0 (/tmp/rs-ccr/node_modules/@musistudio/claude-code-router/dist/cli.js:79997:11)\n    at async f0 (/tmp/rs-ccr/node_modules/@musistudio/claude-code-router/dist/cli.js:79965:96)","type":"api_error","code":"internal_error"}}"#;
    let stream = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1795865027645\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"smollm\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"I'm\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" glad\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},\"usage\":{\"input_tokens\":0,\"output_tokens\":0,\"cache_read_input_tokens\":0}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
    );
    let server = MockLlm::scripted(vec![Reply::error(500, failed), Reply::sse(stream.as_bytes(), 40)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    let kinds = retries(&items);
    assert!(matches!(kinds[0], ProviderError::Server { status: 500, .. }), "{kinds:?}");
    let said = kinds[0].to_string();
    assert!(said.contains("fetch failed") && !said.contains("cli.js"), "the stack is not the message: {said}");
    assert_eq!(final_text(&items), "I'm glad");
    assert!(items.iter().any(|i| matches!(i, TurnItem::Chunk(Chunk::Finish(heat::provider::FinishReason::Length)))));
    let usage: Vec<&Usage> =
        items.iter().filter_map(|i| if let TurnItem::Chunk(Chunk::Usage(u)) = i { Some(u) } else { None }).collect();
    assert!(usage.iter().all(|u| u.input_tokens == 0 && u.output_tokens == 0), "{usage:?}");
}
