//! The OpenAI-compatible provider against a local server replaying
//! byte-exact SSE bodies: the happy path, the request it sends, in-band
//! errors, cuts, refused parameters and keys, quota, refused connections,
//! and cancellation.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use heat::provider::http::HttpConfig;
use heat::provider::openai::OpenAiModel;
use heat::provider::retry::{TurnItem, with_retry};
use heat::provider::{ChatModel, Chunk, FinishReason, ProviderError, ResponseSchema, Usage};
use support::mock_llm::{MockLlm, Reply, openai_sse, openai_sse_text, split_text};
use support::turns::{FAST, config, final_text, finished, openai, request, retries, run};

#[tokio::test]
async fn openai_streams_reasoning_text_usage_and_done() {
    let server = MockLlm::scripted(vec![Reply::sse(&openai_sse(&["Spaces ", "win."], Some("Hmm.")), 13)]).await;
    let mut req = request();
    req.seed = Some(7);
    req.response_schema = Some(ResponseSchema::new("verdict", serde_json::json!({"type": "object"})));
    let (items, error) = run(openai(&server, Some("sk-test-openai")), req).await;
    assert_eq!(error, None);
    assert_eq!(final_text(&items), "Spaces win.");
    assert!(items.contains(&TurnItem::Chunk(Chunk::Reasoning("Hmm.".into()))));
    assert!(items.contains(&TurnItem::Chunk(Chunk::Usage(Usage {
        input_tokens: 30,
        output_tokens: 2,
        cached_input_tokens: 0,
        ..Usage::default()
    }))));
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
async fn a_stall_or_cut_after_the_finish_reason_loses_nothing() {
    let finished_body =
        "data: {\"choices\":[{\"delta\":{\"content\":\"All said.\"},\"finish_reason\":\"length\"}]}\n\n";
    for reply in [
        Reply::sse(finished_body.as_bytes(), 64).stalled(),
        Reply::sse(format!("{finished_body}data: {{\"choi").as_bytes(), 64).cut_after_bytes(finished_body.len() + 5),
    ] {
        let server = MockLlm::scripted(vec![reply]).await;
        let (items, error) = run(openai(&server, None), request()).await;
        assert_eq!(error, None, "{items:?}");
        assert!(retries(&items).is_empty(), "{items:?}");
        assert_eq!(final_text(&items), "All said.");
        assert_eq!(items.last(), Some(&TurnItem::Chunk(Chunk::Finish(FinishReason::Length))));
    }
}

#[tokio::test]
async fn dropping_the_stream_during_a_stall_closes_the_connection() {
    let server = MockLlm::scripted(vec![Reply::sse(&openai_sse_text("Half an answer", 4)[..400], 400).stalled()]).await;
    let mut stream = with_retry(openai(&server, None), request(), FAST);
    while let Some(item) = stream.next().await {
        if matches!(item.unwrap(), TurnItem::Chunk(Chunk::Text(_))) {
            break;
        }
    }
    drop(stream);
    tokio::time::timeout(Duration::from_secs(2), server.client_went_away())
        .await
        .expect("the server saw the client close the connection");
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
        max_concurrent: None,
        idle_timeout: Duration::from_secs(1),
        first_byte_timeout: Duration::from_secs(1),
        headers: Vec::new(),
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

/// Portkey's gateway (1.15.2) turning an OpenAI request into Anthropic's
/// and back reports the prompt as `prompt_tokens: 1` beside 522 cached:
/// the cached part is not inside `prompt_tokens` as OpenAI counts it, so
/// the input is both together, not 1.
#[tokio::test]
async fn a_gateways_usage_with_the_cached_part_outside_prompt_tokens_counts_both() {
    let body = concat!(
        "data: {\"id\":\"anthropic-1795864716722\",\"object\":\"chat.completion.chunk\",\"created\":1795864758,\"model\":\"smollm\",\"provider\":\"anthropic\",\"choices\":[{\"delta\":{\"content\":\"You\"},\"index\":0,\"logprobs\":null,\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"anthropic-1795864716722\",\"object\":\"chat.completion.chunk\",\"created\":1795864758,\"model\":\"smollm\",\"provider\":\"anthropic\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"cache_read_input_tokens\":522,\"completion_tokens\":1024,\"total_tokens\":1547,\"prompt_tokens_details\":{\"cached_tokens\":522}}}\n\n",
        "data: [DONE]\n\n"
    );
    let server = MockLlm::scripted(vec![Reply::sse(body.as_bytes(), 64)]).await;
    let (items, error) = run(openai(&server, None), request()).await;
    assert_eq!(error, None);
    let usage = items.iter().find_map(|i| if let TurnItem::Chunk(Chunk::Usage(u)) = i { Some(*u) } else { None });
    assert_eq!(
        usage,
        Some(Usage { input_tokens: 523, output_tokens: 1024, cached_input_tokens: 522, ..Usage::default() })
    );
    // OpenAI's own way, the cached part inside the prompt's count, is read as it is.
    let own = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":900,\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":768}}}\n\ndata: [DONE]\n\n";
    let server = MockLlm::scripted(vec![Reply::sse(own.as_bytes(), 64)]).await;
    let (items, _) = run(openai(&server, None), request()).await;
    let usage = items.iter().find_map(|i| if let TurnItem::Chunk(Chunk::Usage(u)) = i { Some(*u) } else { None });
    assert_eq!(
        usage,
        Some(Usage { input_tokens: 900, output_tokens: 2, cached_input_tokens: 768, ..Usage::default() })
    );
}
