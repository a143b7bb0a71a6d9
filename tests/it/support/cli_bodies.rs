//! Streams in the APIs the agent CLIs call, for a mock server that stands
//! in for their model: OpenAI's Responses API (Codex CLI) and Gemini's
//! `streamGenerateContent` (Gemini CLI), in the shapes Codex CLI 0.171.0
//! and Gemini CLI 0.61.0 were recorded accepting. Claude Code calls the
//! Anthropic Messages API: `bodies::anthropic_sse` and `anthropic_tool_sse`.

use serde_json::{Value, json};

use super::bodies::split_text;

/// A Responses API stream (`POST /v1/responses`) answering `text` in `n`
/// `output_text` deltas: created, in progress, the message item and its
/// part, the deltas, their ends, then `response.completed` with usage.
pub fn responses_sse(text: &str, n: usize, model: &str) -> Vec<u8> {
    let mut out = String::new();
    let mut sequence = 0;
    let mut event = |mut data: Value| {
        data["sequence_number"] = json!(sequence);
        sequence += 1;
        let kind = data["type"].as_str().unwrap_or_default().to_string();
        out.push_str(&format!("event: {kind}\ndata: {data}\n\n"));
    };
    let response = |status: &str, output: Value, usage: Value| json!({"id": "resp_1", "object": "response", "created_at": 1_765_000_000, "model": model, "status": status, "output": output, "usage": usage});
    event(json!({"type": "response.created", "response": response("in_progress", json!([]), Value::Null)}));
    event(json!({"type": "response.in_progress", "response": response("in_progress", json!([]), Value::Null)}));
    let item = "msg_1";
    event(
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"id": item, "type": "message", "status": "in_progress", "role": "assistant", "content": []}}),
    );
    event(
        json!({"type": "response.content_part.added", "item_id": item, "output_index": 0, "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
    );
    for delta in split_text(text, n) {
        event(
            json!({"type": "response.output_text.delta", "item_id": item, "output_index": 0, "content_index": 0, "delta": delta}),
        );
    }
    event(
        json!({"type": "response.output_text.done", "item_id": item, "output_index": 0, "content_index": 0, "text": text}),
    );
    let part = json!({"type": "output_text", "text": text, "annotations": []});
    event(
        json!({"type": "response.content_part.done", "item_id": item, "output_index": 0, "content_index": 0, "part": part}),
    );
    let done = json!({"id": item, "type": "message", "status": "completed", "role": "assistant", "content": [part]});
    event(json!({"type": "response.output_item.done", "output_index": 0, "item": done}));
    let usage = json!({"input_tokens": 1234, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 56, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 1290});
    event(json!({"type": "response.completed", "response": response("completed", json!([done]), usage)}));
    out.into_bytes()
}

/// A Gemini `streamGenerateContent?alt=sse` stream answering `text` in `n`
/// chunks, the last with `finishReason` and the whole usage.
pub fn gemini_sse(text: &str, n: usize, model: &str) -> Vec<u8> {
    let pieces = split_text(text, n);
    let mut out = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        let mut candidate = json!({"content": {"role": "model", "parts": [{"text": piece}]}, "index": 0});
        let usage = if i + 1 == pieces.len() {
            candidate["finishReason"] = json!("STOP");
            json!({"promptTokenCount": 1234, "candidatesTokenCount": 56, "totalTokenCount": 1290})
        } else {
            json!({"promptTokenCount": 1234, "totalTokenCount": 1234})
        };
        let chunk =
            json!({"candidates": [candidate], "usageMetadata": usage, "modelVersion": model, "responseId": "r1"});
        out.push_str(&format!("data: {chunk}\r\n\r\n"));
    }
    out.into_bytes()
}
