//! The agent CLIs' stream dialects as the real CLIs wrote them
//! (`agent_streams/`: Claude Code 2.1.197, Codex CLI 0.171.0 and Gemini CLI
//! 0.61.0, recorded against local servers), read whole and split at every
//! byte: the same answer, reasoning apart, the usage reported, the model
//! named, and each error in the CLI's own words.

use heat::provider::agent::{Decoder, Dialect, Ending};
use heat::provider::{Chunk, Usage};

const ANSWER: &str = "Rust's ownership model guarantees memory safety without a garbage collector. Each value has a \
                      single owner, and borrowing rules are checked at compile time. This prevents data races in \
                      concurrent code.";

/// What a dialect read of a whole output: the answer, the reasoning, the
/// last usage, the models named, and how it ended.
#[derive(Debug, PartialEq)]
struct Read {
    text: String,
    reasoning: String,
    usage: Option<Usage>,
    models: Vec<String>,
    ending: Ending,
}

fn read_in(dialect: Dialect, output: &[u8], pieces: &[usize]) -> Read {
    let mut decoder = Decoder::new(dialect);
    let mut chunks = Vec::new();
    let mut at = 0;
    for &end in pieces.iter().chain(std::iter::once(&output.len())) {
        chunks.extend(decoder.feed(&output[at..end]));
        at = end;
    }
    let (rest, ending) = decoder.finish();
    chunks.extend(rest);
    let mut read = Read { text: String::new(), reasoning: String::new(), usage: None, models: Vec::new(), ending };
    for chunk in chunks {
        match chunk {
            Chunk::Text(t) => read.text.push_str(&t),
            Chunk::Reasoning(t) => read.reasoning.push_str(&t),
            Chunk::Usage(u) => read.usage = Some(u),
            Chunk::Model(m) => read.models.push(m),
            other => panic!("a dialect gave {other:?}"),
        }
    }
    read
}

fn stream(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/agent_streams").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reads `name` whole, then split in two at every byte: each reading is the same.
fn read(dialect: Dialect, name: &str) -> Read {
    let output = stream(name);
    let whole = read_in(dialect, &output, &[]);
    for cut in 1..output.len() {
        assert_eq!(read_in(dialect, &output, &[cut]), whole, "{name} split at byte {cut}");
    }
    whole
}

#[test]
fn claude_codes_partial_messages_stream_the_answer_once_with_its_thinking_apart() {
    let text = read(Dialect::Claude, "claude-text.jsonl");
    assert_eq!(text.text, ANSWER, "the deltas, not the whole message after them as well");
    assert_eq!(text.models, ["claude-opus-4-8[1m]"]);
    // Its cost as Claude Code reckoned it (total_cost_usd 0.001135), in millionths of a dollar.
    let reported_micro_usd = Some(1135);
    assert_eq!(
        text.usage,
        Some(Usage { input_tokens: 42, output_tokens: 37, cached_input_tokens: 0, reported_micro_usd })
    );
    assert_eq!(text.ending, Ending::Done);
    let thinking = read(Dialect::Claude, "claude-thinking.jsonl");
    assert_eq!(thinking.text, ANSWER);
    assert!(thinking.reasoning.starts_with("The user asks about Rust. "), "{}", thinking.reasoning);
    assert!(!thinking.text.contains("The user asks"), "thinking is never the argument");
}

#[test]
fn claude_codes_errors_are_its_result_and_its_made_up_message_is_no_answer() {
    let logged_out = read(Dialect::Claude, "claude-not-logged-in.jsonl");
    assert_eq!(logged_out.text, "", "the synthetic message is not an argument");
    assert_eq!(logged_out.ending, Ending::Failed("Not logged in · Please run /login".into()));
    let failed = read(Dialect::Claude, "claude-500.jsonl");
    assert_eq!(failed.text, "");
    assert!(
        matches!(&failed.ending, Ending::Failed(said) if said.starts_with("API Error: 500 Internal server error.")),
        "{:?}",
        failed.ending
    );
}

#[test]
fn claude_codes_structured_output_is_the_answer_held_to_its_schema() {
    let held = read(Dialect::Claude, "claude-json-schema.jsonl");
    let verdict: serde_json::Value = serde_json::from_str(&held.text).expect("the answer is the JSON object");
    assert_eq!(verdict["verdict"], "pro");
    assert_eq!(held.ending, Ending::Done);
}

#[test]
fn codex_gives_its_message_whole_with_reasoning_apart_and_its_failure_in_its_words() {
    let text = read(Dialect::Codex, "codex-text.jsonl");
    assert_eq!(text.text, ANSWER);
    assert_eq!(
        text.usage,
        Some(Usage { input_tokens: 1234, output_tokens: 56, cached_input_tokens: 1000, ..Usage::default() })
    );
    assert_eq!(text.ending, Ending::Done);
    let reasoning = read(Dialect::Codex, "codex-reasoning.jsonl");
    assert_eq!(reasoning.text, ANSWER);
    assert!(reasoning.reasoning.contains("ownership, borrowing"), "{}", reasoning.reasoning);
    let refused = read(Dialect::Codex, "codex-401.jsonl");
    assert_eq!(refused.text, "");
    assert!(
        matches!(&refused.ending, Ending::Failed(said) if said.starts_with("unexpected status 401 Unauthorized")),
        "its last word, not a reconnecting notice: {:?}",
        refused.ending
    );
}

#[test]
fn gemini_clis_deltas_are_the_answer_and_its_error_result_is_said() {
    let text = read(Dialect::Gemini, "gemini-text.jsonl");
    assert_eq!(text.text, ANSWER, "the user's message it echoes is not the answer");
    assert_eq!(text.models, ["gemini-2.5-pro"]);
    assert_eq!(
        text.usage,
        Some(Usage { input_tokens: 1234, output_tokens: 56, cached_input_tokens: 0, ..Usage::default() })
    );
    let bad_key = read(Dialect::Gemini, "gemini-bad-key.jsonl");
    assert!(
        matches!(&bad_key.ending, Ending::Failed(said) if said.contains("API key not valid")),
        "{:?}",
        bad_key.ending
    );
}

#[test]
fn output_that_is_not_the_dialect_and_a_cut_stream_are_told_apart() {
    let stray = read_in(Dialect::Claude, b"Error: unknown option '--tools'\n", &[]);
    assert_eq!(stray.ending, Ending::NotItsDialect("Error: unknown option '--tools'".into()));
    let output = stream("claude-text.jsonl");
    let cut = output.len() / 2;
    let half = read_in(Dialect::Claude, &output[..cut], &[]);
    assert_eq!(half.ending, Ending::Cut, "no result event: the answer is incomplete");
    let text = read_in(Dialect::Text, "héllo wörld".as_bytes(), &[2, 3, 9]);
    assert_eq!((text.text.as_str(), text.ending), ("héllo wörld", Ending::Done), "a character cut between reads waits");
}

#[test]
fn a_claude_code_result_alone_still_gives_its_answer() {
    let result = br#"{"type":"result","subtype":"success","is_error":false,"result":"Tabs let every reader choose.","usage":{"input_tokens":10,"output_tokens":5}}"#;
    let read = read_in(Dialect::Claude, result, &[]);
    assert_eq!((read.text.as_str(), read.ending), ("Tabs let every reader choose.", Ending::Done));
}

#[test]
fn a_claude_code_turn_on_a_subscription_has_no_reported_cost() {
    let output = String::from_utf8(stream("claude-text.jsonl")).unwrap();
    let on_key = read_in(Dialect::Claude, output.as_bytes(), &[]);
    assert!(on_key.usage.is_some_and(|u| u.reported_micro_usd == Some(1135)), "on an API key: {:?}", on_key.usage);
    let subscribed = output.replace(r#""apiKeySource":"ANTHROPIC_API_KEY""#, r#""apiKeySource":"none""#);
    assert_ne!(subscribed, output, "the recording names its key's source");
    let on_login = read_in(Dialect::Claude, subscribed.as_bytes(), &[]);
    let usage = on_login.usage.expect("its tokens are still reported");
    assert_eq!((usage.output_tokens, usage.reported_micro_usd), (37, None), "a subscription's turn is not priced");
}
