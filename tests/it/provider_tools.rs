//! Tool calling on both wires, byte-exact: the tools a request offers, a
//! history with calls and their answers as each wire writes it, calls read
//! from a stream whose arguments arrive in pieces (split at every few bytes
//! too), two calls in one answer, the tools closed past a bound, and a
//! server that refuses tools.
#![allow(clippy::unwrap_used)]

use crate::support;

use heat::provider::retry::TurnItem;
use heat::provider::{ChatMessage, ChatRequest, Chunk, FinishReason, ToolCall, ToolResult, ToolSpec, Tools};
use serde_json::json;
use support::bodies::{CallParts, anthropic_tools_sse, openai_tools_sse};
use support::mock_llm::{MockLlm, Reply, openai_sse};
use support::turns::{anthropic, openai, request, run};

const SEARCH: CallParts<'static> =
    CallParts { id: "call_s", name: "search", parts: &["{\"qu", "ery\": \"night", " trains\"}"] };
const READ: CallParts<'static> =
    CallParts { id: "call_r", name: "read", parts: &["{\"path\": \"docs/a.md\", ", "\"start\": 3, \"end\": 9}"] };

fn tools(may_call: bool) -> Tools {
    let spec = |name: &str| ToolSpec {
        name: name.into(),
        description: format!("{name} the library"),
        parameters: json!({"type": "object", "properties": {"query": {"type": "string"}}}),
    };
    Tools { specs: vec![spec("search"), spec("read")], may_call }
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall { id: id.into(), name: name.into(), arguments: arguments.into() }
}

/// A request offering the tools, with one step looked up already.
fn asked_on(may_call: bool) -> ChatRequest {
    let mut asked = request();
    asked.tools = Some(tools(may_call));
    asked
        .messages
        .push(ChatMessage::calling("Let me look.", vec![call("call_s", "search", "{\"query\": \"trains\"}")]));
    asked.messages.push(ChatMessage::results(vec![ToolResult {
        call_id: "call_s".into(),
        content: "[a.md:L1–L2]\nL1: x\n".into(),
        is_error: false,
    }]));
    asked
}

fn calls_of(items: &[TurnItem]) -> Vec<ToolCall> {
    items
        .iter()
        .filter_map(|i| match i {
            TurnItem::Chunk(Chunk::ToolCall(call)) => Some(call.clone()),
            _ => None,
        })
        .collect()
}

fn finish_of(items: &[TurnItem]) -> Option<FinishReason> {
    items.iter().find_map(|i| match i {
        TurnItem::Chunk(Chunk::Finish(reason)) => Some(reason.clone()),
        _ => None,
    })
}

fn expected_calls() -> Vec<ToolCall> {
    vec![
        call("call_s", "search", "{\"query\": \"night trains\"}"),
        call("call_r", "read", "{\"path\": \"docs/a.md\", \"start\": 3, \"end\": 9}"),
    ]
}

#[tokio::test]
async fn openai_reads_two_calls_whose_arguments_arrive_in_pieces_at_any_split() {
    let body = openai_tools_sse("Looking.", &[SEARCH, READ]);
    for piece in [5, 17, body.len()] {
        let server = MockLlm::scripted(vec![Reply::sse(&body, piece)]).await;
        let mut asked = request();
        asked.tools = Some(tools(true));
        let (items, error) = run(openai(&server, Some("sk-test")), asked).await;
        assert_eq!(error, None);
        assert_eq!(calls_of(&items), expected_calls(), "split every {piece} bytes");
        assert_eq!(finish_of(&items), Some(FinishReason::ToolCalls));
        let sent = &server.requests()[0].body;
        assert_eq!(
            sent["tools"][0],
            json!({"type": "function", "function": {"name": "search", "description": "search the library", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}})
        );
        assert!(sent.get("tool_choice").is_none(), "the model chooses");
    }
}

#[tokio::test]
async fn openai_writes_calls_and_their_answers_into_the_history_and_closes_the_tools() {
    let server = MockLlm::scripted(vec![Reply::sse(&openai_sse(&["Trains win."], None), 64)]).await;
    let (_, error) = run(openai(&server, Some("sk-test")), asked_on(false)).await;
    assert_eq!(error, None);
    let sent = &server.requests()[0].body;
    let messages = sent["messages"].as_array().unwrap();
    assert_eq!(
        messages[2],
        json!({"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "call_s", "type": "function", "function": {"name": "search", "arguments": "{\"query\": \"trains\"}"}}]})
    );
    assert_eq!(messages[3], json!({"role": "tool", "tool_call_id": "call_s", "content": "[a.md:L1–L2]\nL1: x\n"}));
    assert_eq!(sent["tool_choice"], "none", "past its bound the model must answer");
}

#[tokio::test]
async fn anthropic_reads_tool_use_blocks_whose_input_arrives_in_pieces_at_any_split() {
    let body = anthropic_tools_sse("Looking.", &[SEARCH, READ]);
    for piece in [5, 23, body.len()] {
        let server = MockLlm::scripted(vec![Reply::sse(&body, piece)]).await;
        let mut asked = request();
        asked.tools = Some(tools(true));
        let (items, error) = run(anthropic(&server), asked).await;
        assert_eq!(error, None);
        assert_eq!(calls_of(&items), expected_calls(), "split every {piece} bytes");
        assert_eq!(finish_of(&items), Some(FinishReason::ToolCalls));
        assert!(
            items.iter().all(|i| !matches!(i, TurnItem::Chunk(Chunk::Text(t)) if t.contains('{'))),
            "a call's input is not answer text"
        );
        let sent = &server.requests()[0].body;
        assert_eq!(
            sent["tools"][1],
            json!({"name": "read", "description": "read the library", "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}})
        );
    }
}

#[tokio::test]
async fn anthropic_writes_calls_as_tool_use_and_answers_as_tool_result_blocks() {
    let server =
        MockLlm::scripted(vec![Reply::sse(&support::mock_llm::anthropic_sse(&["Trains win."], None), 64)]).await;
    let (_, error) = run(anthropic(&server), asked_on(false)).await;
    assert_eq!(error, None);
    let sent = &server.requests()[0].body;
    let messages = sent["messages"].as_array().unwrap();
    assert_eq!(
        messages[1],
        json!({"role": "assistant", "content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": "call_s", "name": "search", "input": {"query": "trains"}}]})
    );
    assert_eq!(
        messages[2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_s", "content": "[a.md:L1–L2]\nL1: x\n", "is_error": false}]})
    );
    assert_eq!(sent["tool_choice"], json!({"type": "none"}));
}

#[tokio::test]
async fn a_forced_tool_for_a_structured_answer_is_still_its_text() {
    let body = support::mock_llm::anthropic_tool_sse("verdict", &["{\"resolved\":", " true}"]);
    let server = MockLlm::scripted(vec![Reply::sse(&body, 11)]).await;
    let (items, error) = run(anthropic(&server), request()).await;
    assert_eq!(error, None);
    assert!(calls_of(&items).is_empty());
    assert_eq!(support::turns::final_text(&items), "{\"resolved\": true}");
    assert_eq!(finish_of(&items), Some(FinishReason::Stop));
}

#[tokio::test]
async fn a_server_that_refuses_tools_is_asked_again_without_them() {
    // Ollama's answer for a model without tool support.
    let refused = Reply::error(
        400,
        r#"{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}"#,
    );
    let server = MockLlm::scripted(vec![refused, Reply::sse(&openai_sse(&["Trains win."], None), 64)]).await;
    let mut asked = request();
    asked.tools = Some(tools(true));
    let (items, error) = run(openai(&server, Some("sk-test")), asked).await;
    assert_eq!(error, None);
    assert!(
        items.iter().any(|i| matches!(i, TurnItem::ParameterDropped { param, .. } if param == "tools")),
        "{items:?}"
    );
    let requests = server.requests();
    assert!(requests[0].body.get("tools").is_some());
    assert!(requests[1].body.get("tools").is_none(), "asked again without tools");
}

/// What two gateways in front of an OpenAI-compatible server sent heat for
/// an answer that calls `search` and `read` (captured from `LiteLLM` 1.108.7
/// and `@musistudio/llms` 1.0.53): each read whole at any split.
#[tokio::test]
async fn tool_calls_through_real_gateways_are_read_as_the_server_made_them() {
    let expected = [
        ("search", json!({"query": "what the engine does on pause"})),
        ("read", json!({"path": "docs/architecture.md", "start": 1, "end": 30})),
    ];
    let captures: [(&str, &[u8]); 4] = [
        ("openai", include_bytes!("gateways/litellm-1.108.7-chat-tools.sse")),
        // The server numbered no call: LiteLLM numbers each 0, with its own id.
        ("openai", include_bytes!("gateways/litellm-1.108.7-chat-tools-unnumbered.sse")),
        ("anthropic", include_bytes!("gateways/litellm-1.108.7-messages-tools.sse")),
        ("anthropic", include_bytes!("gateways/musistudio-llms-1.0.53-messages-tools.sse")),
    ];
    for (n, (wire, body)) in captures.into_iter().enumerate() {
        for piece in [13, body.len()] {
            let server = MockLlm::scripted(vec![Reply::sse(body, piece)]).await;
            let mut asked = request();
            asked.tools = Some(tools(true));
            let model = if wire == "openai" { openai(&server, Some("sk-test")) } else { anthropic(&server) };
            let (items, error) = run(model, asked).await;
            assert_eq!(error, None, "capture {n}");
            let calls = calls_of(&items);
            let got: Vec<(&str, serde_json::Value)> =
                calls.iter().map(|c| (c.name.as_str(), c.arguments_object())).collect();
            assert_eq!(got, expected.to_vec(), "capture {n}, split every {piece} bytes");
            assert_eq!(finish_of(&items), Some(FinishReason::ToolCalls), "capture {n}");
        }
    }
}

/// `@musistudio/llms` merges two unnumbered calls into one `tool_use`
/// block: one call whose arguments are two objects run together, which
/// heat says as such.
#[tokio::test]
async fn two_calls_a_gateway_merged_arrive_as_one_with_their_arguments_run_together() {
    let body = include_bytes!("gateways/musistudio-llms-1.0.53-messages-tools-unnumbered.sse");
    let server = MockLlm::scripted(vec![Reply::sse(body, 17)]).await;
    let mut asked = request();
    asked.tools = Some(tools(true));
    let (items, error) = run(anthropic(&server), asked).await;
    assert_eq!(error, None);
    let calls = calls_of(&items);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "search");
    assert_eq!(calls[0].run_together(), Some(2), "{}", calls[0].arguments);
}
