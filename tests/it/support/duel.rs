//! A tabs-against-spaces duel as the mock server answers it over Anthropic's
//! wire: each debater says its one line and the judge what the test asks,
//! streamed a word per delta (the mock reports one output token a delta and
//! 97 input tokens a call).

use super::mock_llm::{Recorded, Reply, anthropic_sse};

pub const ADVOCATE: &str = "Tabs let every reader choose a width.";
pub const SKEPTIC: &str = "Spaces render the same everywhere.";

/// What each side says in rounds 2 to 5: a new argument each round (one
/// said again word for word is asked for again).
const LATER: [(&str, &str); 4] = [
    ("Tabs keep every file smaller on disk.", "Spaces keep alignment exact in review."),
    ("Tabs make indenting one keystroke.", "Spaces survive every copy and paste."),
    ("Tabs suit proportional fonts well.", "Spaces need no editor settings at all."),
    ("Tabs are what the language intended.", "Spaces are what most style guides ask."),
];

/// The round (from 1) a request asks for, as its last message says it ("Round 2 of 3").
pub fn round_asked(request: &Recorded) -> usize {
    let last = request.last_message();
    let after = last.split("Round ").nth(1).unwrap_or_default();
    after.split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// The reply to `request`: the judge's is `judge(request)`, a debater's its
/// line (round 1's [`ADVOCATE`] and [`SKEPTIC`], then a new one each round).
pub fn reply(request: &Recorded, judge: impl FnOnce(&Recorded) -> String) -> Reply {
    let later = LATER.get(round_asked(request).saturating_sub(2)).filter(|_| round_asked(request) > 1);
    let text = if request.system().contains("You are the JUDGE") {
        judge(request)
    } else if request.system().contains("You are the ADVOCATE") {
        later.map_or(ADVOCATE, |(advocate, _)| advocate).to_string()
    } else {
        later.map_or(SKEPTIC, |(_, skeptic)| skeptic).to_string()
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}
