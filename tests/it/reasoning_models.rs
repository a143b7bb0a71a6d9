//! Reasoning models through the engine, against the mock server speaking
//! OpenAI's wire byte-exact: reasoning written inline (`<think>…</think>`)
//! reaches the turn's reasoning and never its argument or the judge's
//! request; a model that refuses `max_tokens` (OpenAI's reasoning models
//! take `max_completion_tokens`), `temperature` or `reasoning_effort` costs
//! one extra request per refusal per debate, and every later request is
//! sent in the form it takes.
#![allow(clippy::unwrap_used)]

use crate::{engine_support, support};

use std::sync::Arc;
use std::time::Duration;

use heat::debate::engine::{self, EngineSetup, RoleSetup};
use heat::debate::state::VerdictStatus;
use heat::debate::{DebateEvent, DebateState, Role};
use heat::provider::ChatModel;
use heat::provider::retry::RetryPolicy;
use support::mock_llm::{MockLlm, Recorded, Reply, openai_stream};
use support::turns::{self, FAST, role_of};

const VERDICT_OPEN: &str =
    r#"{"resolved": false, "verdict": "Both sides argued well.", "topic": "What about onboarding?", "heat": 0.6}"#;
const VERDICT_DONE: &str =
    r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#;

/// OpenAI's own refusals, as its reasoning models send them.
const REFUSED_MAX_TOKENS: &str = r#"{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}"#;
const REFUSED_TEMPERATURE: &str = r#"{"error":{"message":"Unsupported value: 'temperature' does not support 0.9 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}"#;
const REFUSED_EFFORT: &str = r#"{"error":{"message":"Unsupported parameter: 'reasoning_effort' is not supported with this model.","type":"invalid_request_error","param":"reasoning_effort","code":"unsupported_parameter"}}"#;

fn round_one(request: &Recorded) -> bool {
    request.last_message().contains("Round 1 of")
}

fn argument(request: &Recorded) -> &'static str {
    match (role_of(request), round_one(request)) {
        (Role::Advocate, true) => "Tabs let every reader choose a width.",
        (Role::Advocate, false) => "Alignment survives any indent width.",
        (_, true) => "Spaces render the same everywhere.",
        (_, false) => "Mixed files break review tools daily.",
    }
}

/// `text` streamed five bytes a delta (a tag cut across deltas), as a
/// server that passes a model's inline reasoning through sends it.
fn streamed(text: &str) -> Reply {
    let mut deltas = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(5);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        deltas.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    Reply::sse(&openai_stream("qwen3-8b", &deltas, Some("stop")), 61)
}

fn role(server: &MockLlm, model: &str) -> RoleSetup {
    let mut config = turns::config(server, None);
    config.base_url = format!("{}/v1", server.base_url);
    let openai = Arc::new(heat::provider::openai::OpenAiModel::new(config)) as Arc<dyn ChatModel>;
    RoleSetup::new(openai, model, 512)
}

/// The debate to its end, in time or not at all.
async fn debate(setup: EngineSetup, rounds: u32) -> (Vec<DebateEvent>, DebateState) {
    let all = engine_support::drain(engine::start(setup, engine_support::duel_spec(rounds)));
    tokio::time::timeout(Duration::from_secs(30), all).await.expect("the debate ended")
}

fn thinking_server(request: &Recorded) -> Reply {
    if role_of(request) == Role::Judge {
        let verdict = if round_one(request) { VERDICT_OPEN } else { VERDICT_DONE };
        return streamed(&format!("<think>\nWeighing who argued better.\n</think>\n\n{verdict}"));
    }
    let thought = if role_of(request) == Role::Advocate { "SECRET-ADVOCATE-PLAN" } else { "SECRET-SKEPTIC-PLAN" };
    streamed(&format!("<think>\nThe user wants my side. {thought}.\n</think>\n\n{}", argument(request)))
}

#[tokio::test]
async fn inline_reasoning_reaches_the_reasoning_block_and_never_the_argument_or_the_judge() {
    let server = MockLlm::with_handler(thinking_server).await;
    let seat = || role(&server, "qwen3-8b");
    let setup = engine_support::duel(seat(), seat(), seat()).retry(RetryPolicy { max_retries: 1, ..FAST }).build();
    let (_, state) = debate(setup, 2).await;
    assert_eq!(state.rounds.len(), 2);
    let first = &state.rounds[0];
    let advocate = first.turn(Role::Advocate).unwrap();
    assert_eq!(advocate.text, "Tabs let every reader choose a width.");
    assert!(advocate.reasoning.contains("SECRET-ADVOCATE-PLAN"), "{:?}", advocate.reasoning);
    let judge = first.turn(Role::Judge).unwrap();
    assert!(matches!(&judge.verdict, Some(VerdictStatus::Parsed { .. })), "{:?}\n{}", judge.verdict, judge.text);
    assert!(judge.reasoning.contains("Weighing who argued better."));
    for request in server.requests() {
        let body = request.body.to_string();
        assert!(!body.contains("SECRET-"), "reasoning reached a request: {body}");
        assert!(!body.contains("<think>"), "{body}");
    }
}

/// A server whose advocate model is a reasoning model of OpenAI's: it
/// refuses `max_tokens`, then `temperature`, as OpenAI does, one at a time.
fn reasoning_server(request: &Recorded) -> Reply {
    let body = &request.body;
    match role_of(request) {
        Role::Advocate if body.get("max_tokens").is_some() => Reply::error(400, REFUSED_MAX_TOKENS),
        Role::Advocate if body.get("temperature").is_some() => Reply::error(400, REFUSED_TEMPERATURE),
        Role::Skeptic if body.get("reasoning_effort").is_some() => Reply::error(400, REFUSED_EFFORT),
        Role::Judge if round_one(request) => streamed(VERDICT_OPEN),
        Role::Judge => streamed(VERDICT_DONE),
        _ => streamed(argument(request)),
    }
}

#[tokio::test]
async fn each_refusal_costs_one_request_a_debate_and_later_requests_take_the_form_the_model_takes() {
    let server = MockLlm::with_handler(reasoning_server).await;
    let mut skeptic = role(&server, "gpt-4.1-mini");
    skeptic.reasoning_effort = Some("low".into());
    let setup = engine_support::duel(role(&server, "o4-mini"), skeptic, role(&server, "gpt-4.1-mini"))
        .retry(RetryPolicy { max_retries: 0, ..FAST })
        .build();
    let (events, state) = debate(setup, 2).await;
    assert_eq!(state.rounds.len(), 2);
    for round in &state.rounds {
        assert!(round.argument(Role::Advocate).is_some_and(|a| !a.is_empty()), "round {}", round.number);
    }
    let asked = |role: Role| -> Vec<serde_json::Value> {
        server.requests().into_iter().filter(|r| role_of(r) == role).map(|r| r.body).collect()
    };
    let advocate = asked(Role::Advocate);
    assert_eq!(advocate.len(), 4, "two refusals, each once, then one request in round 2");
    assert_eq!(advocate[0]["max_tokens"], 512);
    assert!(advocate[1].get("max_tokens").is_none() && advocate[1]["max_completion_tokens"] == 512);
    assert!(advocate[1].get("temperature").is_some(), "one parameter is learnt at a time");
    for later in &advocate[2..] {
        assert!(later.get("max_tokens").is_none() && later.get("temperature").is_none(), "{later}");
        assert_eq!(later["max_completion_tokens"], 512);
    }
    let skeptic = asked(Role::Skeptic);
    assert_eq!(skeptic.len(), 3, "one refusal, then one request a round");
    assert_eq!(skeptic[0]["reasoning_effort"], "low");
    assert!(skeptic[1..].iter().all(|b| b.get("reasoning_effort").is_none() && b.get("max_tokens").is_some()));
    assert!(asked(Role::Judge).iter().all(|b| b.get("max_tokens").is_some()), "the judge's model took max_tokens");
    let notices: Vec<&str> = events
        .iter()
        .filter_map(|e| if let DebateEvent::Notice { message } = e { Some(message.as_str()) } else { None })
        .collect();
    assert!(notices.iter().any(|n| n.contains("o4-mini: `max_tokens` not accepted")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("o4-mini: temperature not accepted")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("`reasoning_effort` not accepted")), "{notices:?}");
}
