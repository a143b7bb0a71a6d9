//! Correct streams in each dialect, built from text: what a well-behaved
//! Anthropic or OpenAI-compatible server would send for an answer.

/// A correct Anthropic Messages stream for `deltas`, optionally with thinking first.
pub fn anthropic_sse(deltas: &[&str], thinking: Option<&str>) -> Vec<u8> {
    let mut out = String::new();
    let mut event = |name: &str, data: serde_json::Value| out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    event(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}),
    );
    let mut index = 0;
    if let Some(t) = thinking {
        event(
            "content_block_start",
            serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":t}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}),
        );
        event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0}));
        index = 1;
    }
    event(
        "content_block_start",
        serde_json::json!({"type":"content_block_start","index":index,"content_block":{"type":"text","text":""}}),
    );
    event("ping", serde_json::json!({"type":"ping"}));
    for d in deltas {
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"text_delta","text":d}}),
        );
    }
    event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":index}));
    event(
        "message_delta",
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":deltas.len()}}),
    );
    event("message_stop", serde_json::json!({"type":"message_stop"}));
    out.into_bytes()
}

/// A correct OpenAI chat.completion.chunk stream for `deltas`, with optional
/// reasoning (`reasoning_content`), a `finish_reason`, usage and `[DONE]`.
pub fn openai_sse(deltas: &[&str], reasoning: Option<&str>) -> Vec<u8> {
    let mut out = String::new();
    let mut chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let data = serde_json::json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":delta,"finish_reason":finish}]});
        out.push_str(&format!("data: {data}\n\n"));
    };
    chunk(serde_json::json!({"role":"assistant","content":""}), None);
    if let Some(r) = reasoning {
        chunk(serde_json::json!({"reasoning_content": r}), None);
    }
    for d in deltas {
        chunk(serde_json::json!({"content": d}), None);
    }
    chunk(serde_json::json!({}), Some("stop"));
    let usage = serde_json::json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":deltas.len(),"total_tokens":30 + deltas.len()}});
    out.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    out.into_bytes()
}

/// `text` split into `n` deltas of about equal length, at character
/// boundaries (fewer if the text has fewer characters); joined, they give `text`.
pub fn split_text(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let per = chars.len().div_ceil(n.max(1)).max(1);
    chars.chunks(per).map(|c| c.iter().collect()).collect()
}

/// [`anthropic_sse`] for `text` split into `n` deltas.
pub fn anthropic_sse_text(text: &str, n: usize) -> Vec<u8> {
    let parts = split_text(text, n);
    anthropic_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None)
}

/// [`openai_sse`] for `text` split into `n` deltas.
pub fn openai_sse_text(text: &str, n: usize) -> Vec<u8> {
    let parts = split_text(text, n);
    openai_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None)
}

/// An OpenAI-compatible stream as a server names itself: `model` in every
/// chunk, the role chunk first, then `deltas`, then `finish` (none: the
/// chunk is left out), usage and `[DONE]`.
pub fn openai_stream(model: &str, deltas: &[&str], finish: Option<&str>) -> Vec<u8> {
    let mut out = String::new();
    let mut chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let data = serde_json::json!({"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":model,"choices":[{"index":0,"delta":delta,"finish_reason":finish}]});
        out.push_str(&format!("data: {data}\n\n"));
    };
    chunk(serde_json::json!({"role":"assistant"}), None);
    for d in deltas {
        chunk(serde_json::json!({"content": d}), None);
    }
    if let Some(reason) = finish {
        chunk(serde_json::json!({}), Some(reason));
    }
    out.push_str("data: [DONE]\n\n");
    out.into_bytes()
}

/// An Anthropic stream ending with `stop_reason` after `deltas`, reporting
/// `output_tokens` (a proxy's cut arrives as `end_turn` with 0 tokens).
pub fn anthropic_stream(deltas: &[&str], stop_reason: &str, output_tokens: usize) -> Vec<u8> {
    let mut out = String::new();
    let mut event = |name: &str, data: serde_json::Value| out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    event(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"msg_9","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":40,"output_tokens":0}}}),
    );
    event(
        "content_block_start",
        serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
    );
    for d in deltas {
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":d}}),
        );
    }
    event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0}));
    event(
        "message_delta",
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":stop_reason,"stop_sequence":null},"usage":{"output_tokens":output_tokens}}),
    );
    event("message_stop", serde_json::json!({"type":"message_stop"}));
    out.into_bytes()
}

/// An Anthropic stream answering a forced tool call: its input as JSON deltas.
pub fn anthropic_tool_sse(name: &str, json_parts: &[&str]) -> Vec<u8> {
    let mut out = String::new();
    let mut event = |kind: &str, data: serde_json::Value| out.push_str(&format!("event: {kind}\ndata: {data}\n\n"));
    event(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"msg_t","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":50,"output_tokens":1}}}),
    );
    event(
        "content_block_start",
        serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":name,"input":{}}}),
    );
    for part in json_parts {
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":part}}),
        );
    }
    event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0}));
    event(
        "message_delta",
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":json_parts.len()}}),
    );
    event("message_stop", serde_json::json!({"type":"message_stop"}));
    out.into_bytes()
}

/// A call in a tool-calling stream: its id, its tool, and its arguments'
/// text in the pieces the server sends it in.
pub struct CallParts<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub parts: &'a [&'a str],
}

/// An OpenAI stream as OpenAI sends tool calls: `text` first (if any), then
/// each call opened with its id and name and its arguments in `parts`, the
/// calls numbered by `index`; `finish_reason: "tool_calls"`, usage, `[DONE]`.
pub fn openai_tools_sse(text: &str, calls: &[CallParts<'_>]) -> Vec<u8> {
    let mut out = String::new();
    let mut chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let data = serde_json::json!({"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":delta,"logprobs":null,"finish_reason":finish}]});
        out.push_str(&format!("data: {data}\n\n"));
    };
    chunk(serde_json::json!({"role":"assistant","content":null,"refusal":null}), None);
    if !text.is_empty() {
        chunk(serde_json::json!({"content": text}), None);
    }
    for (index, call) in calls.iter().enumerate() {
        chunk(
            serde_json::json!({"tool_calls":[{"index":index,"id":call.id,"type":"function","function":{"name":call.name,"arguments":""}}]}),
            None,
        );
        for part in call.parts {
            chunk(serde_json::json!({"tool_calls":[{"index":index,"function":{"arguments":part}}]}), None);
        }
    }
    chunk(serde_json::json!({}), Some("tool_calls"));
    let usage = serde_json::json!({"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":60,"completion_tokens":12,"total_tokens":72}});
    out.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    out.into_bytes()
}

/// An Anthropic stream as the Messages API sends tool use: a text block
/// (if `text`), then a `tool_use` block per call with its input in
/// `input_json_delta` parts; `stop_reason: "tool_use"`.
pub fn anthropic_tools_sse(text: &str, calls: &[CallParts<'_>]) -> Vec<u8> {
    let mut out = String::new();
    let mut event = |kind: &str, data: serde_json::Value| out.push_str(&format!("event: {kind}\ndata: {data}\n\n"));
    event(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"msg_u","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":70,"output_tokens":2}}}),
    );
    let mut index = 0;
    if !text.is_empty() {
        event(
            "content_block_start",
            serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":text}}),
        );
        event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0}));
        index = 1;
    }
    for call in calls {
        event(
            "content_block_start",
            serde_json::json!({"type":"content_block_start","index":index,"content_block":{"type":"tool_use","id":call.id,"name":call.name,"input":{}}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"input_json_delta","partial_json":""}}),
        );
        for part in call.parts {
            event(
                "content_block_delta",
                serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"input_json_delta","partial_json":part}}),
            );
        }
        event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":index}));
        index += 1;
    }
    event(
        "message_delta",
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":40}}),
    );
    event("message_stop", serde_json::json!({"type":"message_stop"}));
    out.into_bytes()
}
