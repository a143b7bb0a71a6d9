//! Fake agent CLIs: shell scripts named like the real ones (`claude`,
//! `codex`, `gemini`, or any command) that answer `--version`, keep the
//! prompt they read on standard input, their arguments and working
//! directory, and play a reply in the CLI's own stream dialect, a line at a
//! time, in the shape the real CLIs were recorded writing it (Claude Code
//! 2.1.197, Codex CLI 0.171.0, Gemini CLI 0.61.0).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A folder of fake CLIs, put first on the PATH of the heat it runs.
pub struct FakeClis {
    pub bin: PathBuf,
    pub seen: PathBuf,
}

/// One run of a fake: what it was given.
#[derive(Debug)]
pub struct Call {
    pub prompt: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// Its environment, a `NAME=value` a line.
    pub env: String,
    /// The files its working directory held, a path a line (`./.heat/…`).
    pub files: String,
}

/// A reply a fake plays when the prompt holds `role` (`You are the JUDGE`)
/// and the turn asked for (after `# Now`) holds `turn` (empty: any turn).
pub struct Reply {
    pub role: &'static str,
    pub turn: &'static str,
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    /// An argument the run must have been given for this reply (empty: any).
    pub flag: &'static str,
}

impl Reply {
    pub fn new(role: &'static str, turn: &'static str, stdout: String) -> Self {
        Self { role, turn, stdout, stderr: String::new(), exit: 0, flag: "" }
    }
}

impl FakeClis {
    pub fn new(dir: &Path) -> Self {
        let (bin, seen) = (dir.join("bin"), dir.join("seen"));
        std::fs::create_dir_all(&bin).expect("bin");
        std::fs::create_dir_all(&seen).expect("seen");
        Self { bin, seen }
    }

    /// Installs `name`, which says `version` and plays the first of
    /// `replies` whose marks its prompt holds (else fails, exit 3).
    pub fn install(&self, name: &str, version: &str, replies: &[Reply]) {
        let mut cases = String::new();
        for (i, reply) in replies.iter().enumerate() {
            let out = self.bin.join(format!(".{name}-{i}.out"));
            let err = self.bin.join(format!(".{name}-{i}.err"));
            std::fs::write(&out, &reply.stdout).expect("reply written");
            std::fs::write(&err, &reply.stderr).expect("reply written");
            cases.push_str(&format!(
                "if [[ -z \"$out\" && \"$prompt\" == *'{}'* && \"$now\" == *'{}'* && \"$*\" == *'{}'* ]]; then out='{}'; err='{}'; code={}; fi\n",
                reply.role,
                reply.turn,
                reply.flag,
                out.display(),
                err.display(),
                reply.exit
            ));
        }
        let script = format!(
            "#!/usr/bin/env bash\n\
             if [ \"$1\" = \"--version\" ]; then printf '%s\\n' '{version}'; exit 0; fi\n\
             base=$(mktemp -u '{seen}/{name}-XXXXXXXX')\n\
             printf '%s\\n' \"$@\" > \"$base.argv\"\n\
             pwd > \"$base.cwd\"\n\
             env > \"$base.env\"\n\
             find . -type f > \"$base.files\"\n\
             prompt=$(cat)\n\
             printf '%s' \"$prompt\" > \"$base.prompt\"\n\
             now=\"${{prompt##*# Now}}\"\n\
             out=''; err=''; code=3\n\
             {cases}\
             if [ -z \"$out\" ]; then echo 'the fake has no reply for this prompt' >&2; exit 3; fi\n\
             cat \"$err\" >&2\n\
             while IFS= read -r line || [ -n \"$line\" ]; do printf '%s\\n' \"$line\"; sleep 0.01; done < \"$out\"\n\
             exit $code\n",
            seen = self.seen.display(),
        );
        let path = self.bin.join(name);
        std::fs::write(&path, script).expect("fake written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("made runnable");
    }

    /// The PATH a heat that should find the fakes first runs with.
    pub fn path(&self) -> String {
        format!("{}:{}", self.bin.display(), std::env::var("PATH").unwrap_or_default())
    }

    /// Every run of `name`, in no order.
    pub fn calls(&self, name: &str) -> Vec<Call> {
        let mut calls = Vec::new();
        for entry in std::fs::read_dir(&self.seen).expect("seen").flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some(base) = file.strip_suffix(".prompt").filter(|b| b.starts_with(&format!("{name}-"))) else {
                continue;
            };
            let read = |ext: &str| std::fs::read_to_string(self.seen.join(format!("{base}.{ext}"))).unwrap_or_default();
            calls.push(Call {
                prompt: read("prompt"),
                argv: read("argv").lines().map(str::to_string).collect(),
                cwd: read("cwd").trim().to_string(),
                env: read("env"),
                files: read("files"),
            });
        }
        calls
    }
}

fn lines(events: &[Value]) -> String {
    let mut out = String::new();
    for event in events {
        out.push_str(&serde_json::to_string(event).expect("json"));
        out.push('\n');
    }
    out
}

/// `text` in about `n` pieces.
fn pieces(text: &str, n: usize) -> Vec<String> {
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    words.chunks(words.len().div_ceil(n).max(1)).map(<[&str]>::concat).collect()
}

const SESSION: &str = "40520632-388e-44bb-abab-207a280c1714";

/// Claude Code's `--output-format stream-json --verbose
/// --include-partial-messages` for an answer of `text` (after `thinking`,
/// if any) by `model`.
pub fn claude(text: &str, thinking: Option<&str>, model: &str) -> String {
    let stream = |event: Value| json!({"type": "stream_event", "event": event, "session_id": SESSION, "parent_tool_use_id": null, "uuid": "0d513bc6-8924-4c13-a692-fb9c7634db3a"});
    let mut events = vec![
        json!({"type": "system", "subtype": "init", "cwd": "/tmp/heat-seat-x", "session_id": SESSION, "tools": [], "mcp_servers": [], "model": model, "permissionMode": "dontAsk", "slash_commands": [], "apiKeySource": "none", "claude_code_version": "2.1.197", "output_style": "default", "agents": [], "uuid": "1f41513b-9ecf-4943-945f-e29607e2eb8d"}),
        json!({"type": "system", "subtype": "status", "status": "requesting", "uuid": "1f41513b-9ecf-4943-945f-e29607e2eb8d", "session_id": SESSION}),
        stream(
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 42, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}}),
        ),
    ];
    let mut content = Vec::new();
    if let Some(thinking) = thinking {
        events.push(stream(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}})));
        for piece in pieces(thinking, 2) {
            events.push(stream(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": piece}})));
        }
        events.push(stream(json!({"type": "content_block_stop", "index": 0})));
        content.push(json!({"type": "thinking", "thinking": thinking, "signature": "sig"}));
    }
    let index = content.len();
    events.push(stream(
        json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
    ));
    for piece in pieces(text, 4) {
        events.push(stream(
            json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}}),
        ));
    }
    content.push(json!({"type": "text", "text": text}));
    events.push(json!({"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": content, "stop_reason": null, "stop_sequence": null}, "parent_tool_use_id": null, "session_id": SESSION, "uuid": "u"}));
    events.push(stream(json!({"type": "content_block_stop", "index": index})));
    events.push(stream(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"input_tokens": 42, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 37}})));
    events.push(stream(json!({"type": "message_stop"})));
    events.push(json!({"type": "result", "subtype": "success", "is_error": false, "api_error_status": null, "duration_ms": 607, "duration_api_ms": 565, "num_turns": 1, "result": text, "stop_reason": "end_turn", "session_id": SESSION, "total_cost_usd": 0.001_135, "usage": {"input_tokens": 42, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 37}, "permission_denials": [], "terminal_reason": "completed", "uuid": "e79cf712"}));
    lines(&events)
}

/// Claude Code's stream-json when it cannot answer: the message it makes
/// up to say so, then a result that is an error (`Not logged in · Please
/// run /login`, exit 1).
pub fn claude_error(said: &str) -> String {
    lines(&[
        json!({"type": "system", "subtype": "status", "status": "requesting", "uuid": "9793c34d", "session_id": SESSION}),
        json!({"type": "assistant", "message": {"id": "dcea3967", "container": null, "model": "<synthetic>", "role": "assistant", "stop_reason": "stop_sequence", "stop_sequence": "", "type": "message", "usage": {"input_tokens": 0, "output_tokens": 0}, "content": [{"type": "text", "text": said}]}, "parent_tool_use_id": null, "session_id": SESSION, "uuid": "u"}),
        json!({"type": "result", "subtype": "success", "is_error": true, "api_error_status": null, "duration_ms": 47, "duration_api_ms": 0, "num_turns": 1, "result": said, "stop_reason": "stop_sequence", "session_id": SESSION, "total_cost_usd": 0, "usage": {"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 0}}),
    ])
}

/// Gemini CLI's `--output-format stream-json` for an answer of `text` by `model`.
pub fn gemini(prompt_echo: &str, text: &str, model: &str) -> String {
    let at = "2026-12-06T12:56:59.506Z";
    let mut events = vec![
        json!({"type": "init", "timestamp": at, "session_id": SESSION, "model": model}),
        json!({"type": "message", "timestamp": at, "role": "user", "content": prompt_echo}),
    ];
    for piece in pieces(text, 4) {
        events.push(json!({"type": "message", "timestamp": at, "role": "assistant", "content": piece, "delta": true}));
    }
    events.push(json!({"type": "result", "timestamp": at, "status": "success", "stats": {"total_tokens": 1302, "input_tokens": 1234, "output_tokens": 56, "cached": 0, "input": 1234, "duration_ms": 298, "tool_calls": 0, "models": {model: {"total_tokens": 1302, "input_tokens": 1234, "output_tokens": 56, "cached": 0, "input": 1234}}}}));
    lines(&events)
}

/// Codex's `exec --json` events for an answer of `text` (after `reasoning`, if any).
pub fn codex(text: &str, reasoning: Option<&str>) -> String {
    let mut events = vec![
        json!({"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}),
        json!({"type": "turn.started"}),
    ];
    if let Some(reasoning) = reasoning {
        events
            .push(json!({"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": reasoning}}));
    }
    events.push(json!({"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": text}}));
    events.push(json!({"type": "turn.completed", "usage": {"input_tokens": 2114, "cached_input_tokens": 1024, "output_tokens": 48}}));
    lines(&events)
}

/// Claude Code's stream-json for an answer held to `--json-schema`: its
/// `StructuredOutput` tool call streams the object, and the result carries it.
pub fn claude_structured(object: &str, model: &str) -> String {
    let stream = |event: Value| json!({"type": "stream_event", "event": event, "session_id": SESSION, "parent_tool_use_id": null, "uuid": "u"});
    let value: Value = serde_json::from_str(object).expect("a JSON object");
    let mut events = vec![
        json!({"type": "system", "subtype": "init", "cwd": "/tmp/heat-seat-x", "session_id": SESSION, "tools": ["StructuredOutput"], "mcp_servers": [], "model": model, "permissionMode": "dontAsk", "claude_code_version": "2.1.197", "uuid": "u"}),
        stream(
            json!({"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant", "model": model, "content": [], "usage": {"input_tokens": 80, "output_tokens": 1}}}),
        ),
        stream(
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "StructuredOutput", "input": {}}}),
        ),
    ];
    for piece in pieces(object, 3) {
        events.push(stream(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": piece}})));
    }
    events.push(json!({"type": "assistant", "message": {"id": "msg_2", "type": "message", "role": "assistant", "model": model, "content": [{"type": "tool_use", "id": "toolu_1", "name": "StructuredOutput", "input": value}]}, "session_id": SESSION, "uuid": "u"}));
    events.push(stream(json!({"type": "content_block_stop", "index": 0})));
    events.push(json!({"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "toolu_1", "type": "tool_result", "content": "Structured output provided successfully"}]}, "session_id": SESSION, "uuid": "u"}));
    events.push(json!({"type": "result", "subtype": "success", "is_error": false, "num_turns": 2, "result": object, "session_id": SESSION, "total_cost_usd": 0.002, "usage": {"input_tokens": 80, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 30}, "structured_output": value, "uuid": "u"}));
    lines(&events)
}

/// Claude Code's stream-json when it gave up holding its answer to
/// `--json-schema` (its model never matched it): exit 1.
pub fn claude_schema_given_up() -> String {
    lines(&[
        json!({"type": "system", "subtype": "init", "cwd": "/tmp/heat-seat-x", "session_id": SESSION, "tools": ["StructuredOutput"], "mcp_servers": [], "model": "claude-opus-4-8", "uuid": "u"}),
        json!({"type": "result", "subtype": "error_max_structured_output_retries", "is_error": true, "num_turns": 5, "session_id": SESSION, "total_cost_usd": 0.004, "usage": {"input_tokens": 400, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 90}, "uuid": "u"}),
    ])
}
