//! The tools a debater may call on the library: `search(query)`, which
//! gives the passages that best answer a query under their citations, and
//! `read(path, start, end)`, which gives a file's lines, numbered. Their
//! specs as every wire offers them, and each call's answer as text within
//! [`RESULT_BYTES`]; a call that cannot be answered (an unknown file, a
//! missing argument, a tool heat does not have) fails with one sentence the
//! model reads and can act on.

use std::fmt::Write as _;

use serde_json::json;

use crate::library::Library;
use crate::provider::{ToolCall, ToolSpec};

/// The most bytes of text one call answers with: about 1,500 tokens.
pub const RESULT_BYTES: usize = 6_000;
/// The most the embedded model is given, its context being small: about
/// 300 tokens, a passage or two.
pub const SMALL_RESULT_BYTES: usize = 1_200;
/// The passages one search answers with, at most.
const SEARCH_PASSAGES: usize = 5;
/// The lines one read gives when it names no end.
const READ_LINES: usize = 80;

/// The tools' specs, offered to a debater whose turn may still call them.
pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "search".into(),
            description: "Search the debate's library of files for passages on a question or a few words. \
                Returns the best passages, each under its citation [file:Lstart–Lend]."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": { "query": { "type": "string", "description": "What to look for" } },
                "required": ["query"],
            }),
        },
        ToolSpec {
            name: "read".into(),
            description: "Read lines of one file of the library, numbered (at most 80 lines a call).".into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "path": { "type": "string", "description": "The file, as the library names it" },
                    "start": { "type": "integer", "description": "First line (from 1)" },
                    "end": { "type": "integer", "description": "Last line" },
                },
                "required": ["path"],
            }),
        },
    ]
}

/// What one call answered: its text, and whether it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub failed: bool,
}

impl Answer {
    fn failed(text: impl Into<String>) -> Self {
        Self { text: text.into(), failed: true }
    }

    fn ok(text: String) -> Self {
        Self { text: clip(text), failed: false }
    }
}

/// Answers `call` from `library`.
pub fn answer(library: &Library, call: &ToolCall) -> Answer {
    let args = call.arguments_object();
    match call.name.as_str() {
        "search" => match args["query"].as_str().map(str::trim).filter(|q| !q.is_empty()) {
            Some(query) => search(library, query),
            None => Answer::failed("search needs a `query`: the words to look for"),
        },
        "read" => match args["path"].as_str().map(str::trim).filter(|p| !p.is_empty()) {
            Some(path) => read(library, path, number(&args["start"]), number(&args["end"])),
            None => Answer::failed("read needs a `path`: a file of the library"),
        },
        other => Answer::failed(format!("there is no tool `{other}`; the tools are search and read")),
    }
}

/// A line number, as a model may write it (`12`, `"12"`, `12.0`).
fn number(value: &serde_json::Value) -> Option<usize> {
    let n = value.as_f64().or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))?;
    (n >= 1.0).then_some(n as usize)
}

fn search(library: &Library, query: &str) -> Answer {
    let hits = library.search(query, SEARCH_PASSAGES);
    if hits.is_empty() {
        return Answer { text: format!("nothing in the library matches \"{query}\""), failed: false };
    }
    let mut out = String::new();
    for hit in hits {
        let passage = &library.passages[hit.passage];
        let doc = &library.docs[passage.doc];
        let reading = crate::debate::grounding::Reading {
            file: doc.name.clone(),
            start: passage.start,
            end: passage.end,
            text: library.text(passage),
        };
        let block = reading.numbered();
        if !out.is_empty() && out.len() + block.len() > RESULT_BYTES {
            break;
        }
        out.push_str(&block);
        out.push('\n');
    }
    Answer::ok(out)
}

fn read(library: &Library, path: &str, start: Option<usize>, end: Option<usize>) -> Answer {
    let Some(doc) = library.doc(path) else {
        let names: Vec<&str> = library.docs.iter().take(12).map(|d| d.name.as_str()).collect();
        let more = if library.docs.len() > names.len() { ", …" } else { "" };
        return Answer::failed(format!(
            "no file `{path}` in the library; its files include {}{more}",
            names.join(", ")
        ));
    };
    let count = doc.line_count();
    let start = start.unwrap_or(1);
    if start > count {
        return Answer::failed(format!("{} has {count} lines; line {start} is past its end", doc.name));
    }
    let end = end.unwrap_or(start + READ_LINES - 1).clamp(start, count).min(start + READ_LINES - 1);
    let lines = doc.lines(start, end).unwrap_or_default();
    let mut out = format!("[{}:L{start}–L{end}] of {count} lines\n", doc.name);
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(out, "L{}: {line}", start + i);
    }
    Answer::ok(out)
}

/// A call as a person reads it: `search "night trains"`, `read docs/a.md
/// L1–L40`; an MCP server's tool as `files: read_text_file path="a.md"`.
pub fn said(call: &ToolCall) -> String {
    let args = call.arguments_object();
    let text = |key: &str| args[key].as_str().map(crate::sanitize::one_line).unwrap_or_default();
    let said = match call.name.as_str() {
        "search" => format!("search \"{}\"", text("query")),
        "read" => match (number(&args["start"]), number(&args["end"])) {
            (Some(start), Some(end)) => format!("read {} L{start}–L{end}", text("path")),
            (Some(start), None) => format!("read {} from L{start}", text("path")),
            _ => format!("read {}", text("path")),
        },
        other => {
            let (server, tool) = other.split_once("__").map_or(("", other), |(s, t)| (s, t));
            let pairs: Vec<String> = args
                .as_object()
                .into_iter()
                .flatten()
                .map(|(key, value)| match value.as_str() {
                    Some(text) => format!("{key}=\"{text}\""),
                    None => format!("{key}={value}"),
                })
                .collect();
            let server = if server.is_empty() { String::new() } else { format!("{server}: ") };
            crate::sanitize::one_line(&format!("{server}{tool} {}", pairs.join(" ")))
        }
    };
    clip_words(&said, 72)
}

/// What an answer gave, in a few words: `5 passages`, `40 lines`, its
/// first words, or why it failed.
pub fn gist(text: &str, failed: bool) -> String {
    if failed {
        return format!("failed: {}", clip_words(&crate::sanitize::one_line(text), 96));
    }
    let passages = text.lines().filter(|l| l.starts_with('[') && l.ends_with(']')).count();
    let lines = text.lines().filter(|l| l.starts_with('L') && l.contains(": ")).count();
    match (passages, lines) {
        (0, 0) if text.trim().is_empty() => "nothing".into(),
        (0, 0) => {
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            let first = clip_words(&crate::sanitize::one_line(text), 48);
            if lines > 1 {
                format!("{} · “{first}”", crate::words::count(lines, "line"))
            } else {
                format!("“{first}”")
            }
        }
        (0, n) => crate::words::count(n, "line"),
        (n, _) => crate::words::count(n, "passage"),
    }
}

/// `text` cut to at most `most` characters, with `…` where it was cut.
fn clip_words(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(most - 1).collect();
    cut.push('…');
    cut
}

/// How long a call took, as said beside it: `<1 ms`, `12 ms`, `2.4 s`.
pub fn took(millis: u64) -> String {
    match millis {
        0 => "<1 ms".into(),
        1..=999 => format!("{millis} ms"),
        _ => format!("{:.1} s", millis as f64 / 1000.0),
    }
}

/// `text` within [`RESULT_BYTES`], cut at a line's end where it must be cut.
pub fn clip(text: String) -> String {
    clip_to(text, RESULT_BYTES)
}

/// `text` within `most` bytes, cut at a line's end where it must be cut,
/// and said to be.
pub fn clip_to(mut text: String, most: usize) -> String {
    if text.len() <= most {
        return text;
    }
    let mut cut = most;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text[..cut].rfind('\n').map_or(cut, |n| n + 1);
    text.truncate(cut);
    text.push_str(&format!("[… cut at {} bytes]\n", crate::words::thousands(most as u64)));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Document;
    use std::path::PathBuf;

    fn library() -> Library {
        let doc = |name: &str, text: &str| {
            Document::from_bytes(name.into(), PathBuf::from(name), text.as_bytes()).expect("a document")
        };
        let long: String = (1..=300).map(|n| format!("line {n} of the long file")).collect::<Vec<_>>().join("\n");
        Library::from_docs(
            vec![PathBuf::from(".")],
            vec![
                doc("docs/trains.md", "# Night trains\nNight trains save a hotel night.\nThey run at 120 km/h.\n"),
                doc("long.txt", &long),
            ],
            Vec::new(),
        )
    }

    fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall { id: "c1".into(), name: name.into(), arguments: arguments.into() }
    }

    #[test]
    fn search_answers_with_cited_numbered_passages() {
        let answer = answer(&library(), &call("search", r#"{"query": "hotel night"}"#));
        assert!(!answer.failed);
        assert!(
            answer.text.starts_with("[docs/trains.md:L1–L3]\nL1: # Night trains\nL2: Night trains save"),
            "{}",
            answer.text
        );
    }

    #[test]
    fn read_gives_numbered_lines_within_its_bounds() {
        let library = library();
        let some = answer(&library, &call("read", r#"{"path": "trains.md", "start": "2", "end": 9}"#));
        assert_eq!(
            some.text,
            "[docs/trains.md:L2–L3] of 3 lines\nL2: Night trains save a hotel night.\nL3: They run at 120 km/h.\n"
        );
        let long = answer(&library, &call("read", r#"{"path": "long.txt"}"#));
        assert!(
            long.text.starts_with("[long.txt:L1–L80] of 300 lines\n")
                && long.text.ends_with("L80: line 80 of the long file\n")
        );
    }

    #[test]
    fn a_call_that_cannot_be_answered_says_why_in_one_sentence() {
        let library = library();
        let unknown = answer(&library, &call("read", r#"{"path": "nope.md"}"#));
        assert!(
            unknown.failed && unknown.text.contains("no file `nope.md`") && unknown.text.contains("docs/trains.md")
        );
        let past = answer(&library, &call("read", r#"{"path": "long.txt", "start": 400}"#));
        assert!(past.failed && past.text.contains("300 lines"), "{}", past.text);
        assert!(answer(&library, &call("search", "{}")).failed);
        assert!(answer(&library, &call("search", "{\"query\": \"cut")).failed, "arguments cut off");
        assert!(answer(&library, &call("fetch", "{}")).text.contains("no tool `fetch`"));
    }

    #[test]
    fn a_long_answer_is_cut_at_a_line_end_within_the_bound() {
        let text = (0..1000).map(|n| format!("line {n}")).collect::<Vec<_>>().join("\n");
        let clipped = clip(text);
        assert!(clipped.len() <= RESULT_BYTES + 40);
        assert!(clipped.ends_with("\n[… cut at 6,000 bytes]\n"));
    }
}
