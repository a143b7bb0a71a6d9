//! The embedded model's look-up, held by its grammar. A request that
//! offers the library's `search` while the turn may still call it is
//! answered `search: WORDS` and nothing else (the grammar's), read as one
//! call to `search` and handed on as a call, not as text: the turn's one
//! look-up, its query the model's own choice of two to six words of its
//! prompt (a tiny model left to write a query after `search:` writes a
//! web address). The calls and answers a turn's
//! history carries are written into the prompt as plain lines, as the
//! model wrote them and as heat answered them.

use crate::provider::{ChatMessage, ChatRequest, ToolCall};

/// What the answer opens with.
const OPENING: &str = "search: ";

/// The most words of the prompt a query may choose from.
const MOST_WORDS: usize = 240;

/// Words too common to search by.
const COMMON: &[&str] = &[
    "about", "after", "all", "also", "and", "any", "are", "been", "before", "being", "between", "both", "but", "can",
    "could", "does", "each", "for", "from", "has", "have", "here", "how", "into", "its", "just", "many", "may", "more",
    "most", "much", "must", "not", "now", "one", "only", "other", "our", "out", "over", "own", "same", "should",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "too",
    "under", "very", "was", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "would",
    "you", "your",
];

/// The grammar of `request`'s look-up: `search: `, two to six words of its
/// last message (the round's prompt: the proposition, the question, what
/// was argued; not the passages it was given, whose file names would crowd
/// the words out), a line end.
pub fn grammar(request: &ChatRequest) -> String {
    let asked = request.messages.iter().rev().find(|m| m.tool_results.is_empty()).map_or("", |m| m.content.as_str());
    let own = asked.lines().filter(|line| !is_passage(line)).collect::<Vec<_>>().join("\n");
    let mut words: Vec<String> = Vec::new();
    for word in own.split(|c: char| !c.is_ascii_alphabetic()).map(str::to_ascii_lowercase) {
        let useful = (3..=20).contains(&word.len()) && !COMMON.contains(&word.as_str());
        if useful && !words.contains(&word) && words.len() < MOST_WORDS {
            words.push(word);
        }
    }
    if words.len() < 2 {
        words.extend(["debate", "evidence"].map(String::from));
    }
    let choices: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    format!("start: \"{OPENING}\" word (\" \" word){{1,5}} \"\\n\"\nword: {}\n", choices.join(" | "))
}

/// Whether `request` is answered with a look-up: it offers `search`, may
/// still call it, and asks for no other form.
pub fn calls(request: &ChatRequest) -> bool {
    let offers = request.tools.as_ref().is_some_and(|t| t.may_call && t.specs.iter().any(|s| s.name == "search"));
    offers && request.response_schema.is_none() && request.grammar.is_none()
}

/// Whether `line` is part of a passage block: its heading, a citation, a numbered line.
fn is_passage(line: &str) -> bool {
    let numbered = line
        .strip_prefix('L')
        .and_then(|rest| rest.split_once(':'))
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    numbered || line.starts_with('[') || line.starts_with("Passages from the library")
}

/// The call the answer `written` makes, the `n`th of its turn; `None` when
/// it names no words.
pub fn call_of(written: &str, n: usize) -> Option<ToolCall> {
    let query = written.trim().strip_prefix(OPENING.trim_end())?.trim();
    (!query.is_empty()).then(|| ToolCall {
        id: format!("search_{n}"),
        name: "search".into(),
        arguments: serde_json::json!({ "query": query }).to_string(),
    })
}

/// `message` as the prompt gives it: a call as the line the model wrote,
/// heat's answers under a line that says what they are; any other as it is.
pub fn as_text(message: &ChatMessage) -> String {
    if !message.tool_calls.is_empty() {
        let calls = message.tool_calls.iter().map(|call| {
            let query = call.arguments_object()["query"].as_str().unwrap_or_default().to_string();
            format!("{OPENING}{query}")
        });
        return std::iter::once(message.content.trim().to_string())
            .filter(|c| !c.is_empty())
            .chain(calls)
            .collect::<Vec<_>>()
            .join("\n");
    }
    if !message.tool_results.is_empty() {
        let answers: Vec<&str> = message.tool_results.iter().map(|r| r.content.trim()).collect();
        return format!("What the search found:\n\n{}\n\nNow write your argument.", answers.join("\n\n"));
    }
    message.content.clone()
}

/// How many calls the turn's history already carries: the next is numbered after them.
pub fn made(request: &ChatRequest) -> usize {
    request.messages.iter().map(|m| m.tool_calls.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::{ToolResult, ToolSpec, Tools};

    fn offering(may_call: bool) -> ChatRequest {
        let search = ToolSpec { name: "search".into(), description: String::new(), parameters: serde_json::json!({}) };
        ChatRequest { tools: Some(Tools { specs: vec![search], may_call }), ..ChatRequest::default() }
    }

    #[test]
    fn a_look_ups_words_are_the_prompts_own_less_the_common_ones() {
        let mut request = offering(true);
        request.messages.push(ChatMessage::user(
            "Passages from the library that bear on this round:\n\n[docs/config.toml:L1–L2]\nL1: toml settings\n\n\
             Proposition: Night trains beat the flights, and the night is long.",
        ));
        let lark = grammar(&request);
        assert!(lark.starts_with("start: \"search: \" word (\" \" word){1,5} \"\\n\"\n"), "{lark}");
        assert!(
            lark.ends_with("word: \"proposition\" | \"night\" | \"trains\" | \"beat\" | \"flights\" | \"long\"\n"),
            "{lark}"
        );
    }

    #[test]
    fn a_request_that_may_still_search_is_answered_with_a_look_up_and_read_as_a_call() {
        assert!(calls(&offering(true)));
        assert!(!calls(&offering(false)), "the turn has made its call");
        assert!(!calls(&ChatRequest::default()));
        let call = call_of("search: night trains carbon\n", 1).expect("a call");
        assert_eq!((call.id.as_str(), call.name.as_str()), ("search_1", "search"));
        assert_eq!(call.arguments_object()["query"], "night trains carbon");
        assert_eq!(call_of("search:  \n", 1), None);
    }

    #[test]
    fn a_turns_call_and_its_answer_are_written_into_the_prompt_as_lines() {
        let call = call_of("search: night trains", 1).expect("a call");
        assert_eq!(as_text(&ChatMessage::calling("", vec![call])), "search: night trains");
        let answer =
            ToolResult { call_id: "search_1".into(), content: "[a.md:L1–L2]\nL1: Trains.".into(), is_error: false };
        assert_eq!(
            as_text(&ChatMessage::results(vec![answer])),
            "What the search found:\n\n[a.md:L1–L2]\nL1: Trains.\n\nNow write your argument."
        );
        assert_eq!(as_text(&ChatMessage::user("plain")), "plain");
    }
}
