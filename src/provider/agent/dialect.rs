//! The stream dialects agent CLIs write on standard output, read as they
//! come: Claude Code's `stream-json` (with partial messages), Codex's
//! `exec --json` events, Gemini CLI's `stream-json`, or plain text. Each
//! becomes the chunks a server's stream gives: the answer's text, reasoning
//! kept apart, the model that answered, the usage the CLI reported, and
//! the closing event; or the error the CLI reported.

use serde_json::Value;

use crate::provider::chat::{Chunk, Usage};

/// How a command's standard output is read (`providers.NAME.output`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Plain text, as it comes; the answer ends when the command exits 0.
    Text,
    /// Claude Code's `--output-format stream-json --include-partial-messages`.
    Claude,
    /// Codex's `exec --json` events.
    Codex,
    /// Gemini CLI's `--output-format stream-json`.
    Gemini,
}

impl Dialect {
    /// Every dialect's name, as `output = "…"` takes it.
    pub const NAMES: [&'static str; 4] = ["text", "claude", "codex", "gemini"];

    pub fn from_setting(name: &str) -> Option<Self> {
        match name.trim() {
            "text" => Some(Self::Text),
            "claude" => Some(Self::Claude),
            "codex" => Some(Self::Codex),
            "gemini" => Some(Self::Gemini),
            _ => None,
        }
    }

    pub fn setting(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// What its output is called, for a sentence about it.
    fn described(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Claude | Self::Gemini => "stream-json events",
            Self::Codex => "exec --json events",
        }
    }
}

/// What the CLI's output said besides its chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Its closing event came (or, for text, it is up to the exit status).
    Done,
    /// It reported an error: its own words.
    Failed(String),
    /// Its output stopped without a closing event or an error.
    Cut,
    /// Nothing it wrote was its dialect: the start of what it wrote.
    NotItsDialect(String),
}

/// What Claude Code's stream has said so far that changes how the rest reads.
#[derive(Debug, Default)]
struct ClaudeSoFar {
    /// Text arrived as partial deltas (so the whole message that follows
    /// them is not taken again).
    partial: bool,
    /// It runs on a subscription's login (its init says no API key is the
    /// source): its turns are not paid for by the token.
    subscription: bool,
    /// The content block that holds its structured output (its
    /// `StructuredOutput` tool call), streamed as the answer's text.
    structured_block: Option<u64>,
}

/// Reads one CLI's standard output, a piece at a time.
#[derive(Debug)]
pub struct Decoder {
    dialect: Dialect,
    /// Bytes of a line (or, for text, of a character) not yet complete.
    pending: Vec<u8>,
    /// What Claude Code's stream has said that changes how the rest reads.
    claude: ClaudeSoFar,
    /// Whether any event of the dialect was read.
    events: bool,
    /// Whether answer text was given (so a structured result is not given twice).
    answered: bool,
    /// The first line that was not one, kept for the sentence.
    stray: Option<String>,
    ending: Option<Ending>,
}

impl Decoder {
    pub fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            pending: Vec::new(),
            claude: ClaudeSoFar::default(),
            events: false,
            answered: false,
            stray: None,
            ending: None,
        }
    }

    /// The chunks the next bytes of standard output complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Chunk> {
        self.pending.extend_from_slice(bytes);
        if self.dialect == Dialect::Text {
            return self.text_so_far();
        }
        let mut chunks = Vec::new();
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.line(&String::from_utf8_lossy(&line), &mut chunks);
        }
        chunks
    }

    /// Standard output ended: the chunks left (a last line without its
    /// newline), and how the answer ended.
    pub fn finish(&mut self) -> (Vec<Chunk>, Ending) {
        let mut chunks = Vec::new();
        if self.dialect == Dialect::Text {
            let rest = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
            if !rest.is_empty() {
                chunks.push(Chunk::Text(rest));
            }
            return (chunks, Ending::Done);
        }
        let rest = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
        self.line(&rest, &mut chunks);
        let ending = match self.ending.take() {
            Some(ending) => ending,
            None if !self.events => match self.stray.take() {
                Some(stray) => Ending::NotItsDialect(stray),
                None => Ending::Cut,
            },
            None => Ending::Cut,
        };
        (chunks, ending)
    }

    /// What the dialect is called, for a sentence about output not in it.
    pub fn described(&self) -> &'static str {
        self.dialect.described()
    }

    /// The text complete so far: a character cut between two reads waits.
    fn text_so_far(&mut self) -> Vec<Chunk> {
        // Bytes that can never be UTF-8 are shown replaced; a character cut short waits.
        let valid = match std::str::from_utf8(&self.pending) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => self.pending.len(),
        };
        let bytes: Vec<u8> = self.pending.drain(..valid).collect();
        if bytes.is_empty() { Vec::new() } else { vec![Chunk::Text(String::from_utf8_lossy(&bytes).into_owned())] }
    }

    fn line(&mut self, line: &str, chunks: &mut Vec<Chunk>) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        let Ok(event @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
            if self.stray.is_none() {
                self.stray = Some(excerpt(line));
            }
            return;
        };
        self.events = true;
        match self.dialect {
            Dialect::Claude => self.claude(&event, chunks),
            Dialect::Codex => self.codex(&event, chunks),
            Dialect::Gemini => self.gemini(&event, chunks),
            Dialect::Text => {}
        }
    }

    fn claude(&mut self, event: &Value, chunks: &mut Vec<Chunk>) {
        match text(event, "type") {
            "system" if text(event, "subtype") == "init" => {
                self.claude.subscription = text(event, "apiKeySource") == "none";
                model(event, chunks);
            }
            "stream_event" => {
                let inner = &event["event"];
                let block = &inner["content_block"];
                if text(inner, "type") == "content_block_start"
                    && text(block, "type") == "tool_use"
                    && text(block, "name") == "StructuredOutput"
                {
                    self.claude.structured_block = inner["index"].as_u64();
                }
                if text(inner, "type") != "content_block_delta" {
                    return;
                }
                let delta = &inner["delta"];
                match text(delta, "type") {
                    "text_delta" => {
                        self.claude.partial = true;
                        self.answered = true;
                        push_text(chunks, text(delta, "text"));
                    }
                    // The verdict held to its schema streams as the tool call's input.
                    "input_json_delta" if inner["index"].as_u64() == self.claude.structured_block => {
                        self.claude.partial = true;
                        self.answered = true;
                        push_text(chunks, text(delta, "partial_json"));
                    }
                    "thinking_delta" => {
                        self.claude.partial = true;
                        push_reasoning(chunks, text(delta, "thinking"));
                    }
                    _ => {}
                }
            }
            // The whole message, after its partial deltas (or in their place
            // when the CLI was not asked for them); never one the CLI made up
            // to say an error (`"model": "<synthetic>"`): its result says it.
            "assistant" if !self.claude.partial && text(&event["message"], "model") != "<synthetic>" => {
                for block in event["message"]["content"].as_array().into_iter().flatten() {
                    match text(block, "type") {
                        "text" => {
                            self.answered = true;
                            push_text(chunks, text(block, "text"));
                        }
                        "thinking" => push_reasoning(chunks, text(block, "thinking")),
                        "tool_use" if text(block, "name") == "StructuredOutput" => {
                            self.answered = true;
                            push_text(chunks, &block["input"].to_string());
                        }
                        _ => {}
                    }
                }
            }
            "result" => {
                let failed =
                    event["is_error"].as_bool().unwrap_or(false) || text(event, "subtype").starts_with("error");
                if failed {
                    let said = [text(event, "result"), text(event, "subtype")].into_iter().find(|t| !t.is_empty());
                    self.ending = Some(Ending::Failed(said.unwrap_or("it reported an error").to_string()));
                    return;
                }
                // The structured answer, or the result's text, where none of it streamed.
                if !self.answered && event["structured_output"].is_object() {
                    self.answered = true;
                    push_text(chunks, &event["structured_output"].to_string());
                } else if !self.answered {
                    self.answered = true;
                    push_text(chunks, text(event, "result"));
                }
                let usage = &event["usage"];
                let cached = number(usage, "cache_read_input_tokens");
                let input = number(usage, "input_tokens") + number(usage, "cache_creation_input_tokens") + cached;
                // Its cost as Claude Code reckons it; a subscription's turn is not paid by the
                // token (its reckoning is what the API would charge): unknown, not that.
                let reported = event["total_cost_usd"].as_f64().filter(|usd| *usd > 0.0 && !self.claude.subscription);
                chunks.push(Chunk::Usage(Usage {
                    input_tokens: input,
                    output_tokens: number(usage, "output_tokens"),
                    cached_input_tokens: cached,
                    reported_micro_usd: reported.map(|usd| (usd * 1e6).round() as u64),
                }));
                self.ending = Some(Ending::Done);
            }
            _ => {}
        }
    }

    fn codex(&mut self, event: &Value, chunks: &mut Vec<Chunk>) {
        match text(event, "type") {
            "item.completed" => {
                let item = &event["item"];
                match text(item, "type") {
                    "agent_message" => push_text(chunks, text(item, "text")),
                    "reasoning" => push_reasoning(chunks, text(item, "text")),
                    _ => {}
                }
            }
            "turn.completed" => {
                let usage = &event["usage"];
                chunks.push(Chunk::Usage(Usage {
                    input_tokens: number(usage, "input_tokens"),
                    output_tokens: number(usage, "output_tokens"),
                    cached_input_tokens: number(usage, "cached_input_tokens"),
                    ..Usage::default()
                }));
                self.ending = Some(Ending::Done);
            }
            "turn.failed" => {
                let said = text(&event["error"], "message");
                self.ending = Some(Ending::Failed(if said.is_empty() { "the turn failed" } else { said }.to_string()));
            }
            // A fatal error, unless the turn still completes after it.
            "error" if self.ending.is_none() => {
                self.ending = Some(Ending::Failed(text(event, "message").to_string()));
            }
            _ => {}
        }
    }

    fn gemini(&mut self, event: &Value, chunks: &mut Vec<Chunk>) {
        match text(event, "type") {
            "init" => model(event, chunks),
            "message" if text(event, "role") == "assistant" => {
                if event["thought"].as_bool().unwrap_or(false) {
                    push_reasoning(chunks, text(event, "content"));
                } else {
                    push_text(chunks, text(event, "content"));
                }
            }
            "error" if text(event, "severity") != "warning" => {
                self.ending = Some(Ending::Failed(text(event, "message").to_string()));
            }
            "result" => {
                if text(event, "status") == "error" {
                    let said = text(&event["error"], "message");
                    self.ending =
                        Some(Ending::Failed(if said.is_empty() { "it reported an error" } else { said }.to_string()));
                    return;
                }
                let stats = &event["stats"];
                chunks.push(Chunk::Usage(Usage {
                    input_tokens: number(stats, "input_tokens"),
                    output_tokens: number(stats, "output_tokens"),
                    cached_input_tokens: number(stats, "cached"),
                    ..Usage::default()
                }));
                self.ending = Some(Ending::Done);
            }
            _ => {}
        }
    }
}

/// A line of a CLI's output as one sentence may quote it: cleaned, one
/// line, at most 160 characters.
pub fn excerpt(line: &str) -> String {
    let line = crate::sanitize::one_line(line);
    match line.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

fn number(value: &Value, key: &str) -> u64 {
    value[key].as_u64().unwrap_or(0)
}

fn model(event: &Value, chunks: &mut Vec<Chunk>) {
    let model = text(event, "model");
    if !model.is_empty() {
        chunks.push(Chunk::Model(model.to_string()));
    }
}

fn push_text(chunks: &mut Vec<Chunk>, text: &str) {
    if !text.is_empty() {
        chunks.push(Chunk::Text(text.to_string()));
    }
}

fn push_reasoning(chunks: &mut Vec<Chunk>, text: &str) {
    if !text.is_empty() {
        chunks.push(Chunk::Reasoning(text.to_string()));
    }
}
