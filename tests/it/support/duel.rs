//! A tabs-against-spaces duel as the mock server answers it over Anthropic's
//! wire: each debater says its one line and the judge what the test asks,
//! streamed a word per delta (the mock reports one output token a delta and
//! 97 input tokens a call).

use super::mock_llm::{Recorded, Reply, anthropic_sse};

pub const ADVOCATE: &str = "Tabs let every reader choose a width.";
pub const SKEPTIC: &str = "Spaces render the same everywhere.";

/// The reply to `request`: the judge's is `judge(request)`, a debater's its line.
pub fn reply(request: &Recorded, judge: impl FnOnce(&Recorded) -> String) -> Reply {
    let text = if request.system().contains("You are the JUDGE") {
        judge(request)
    } else if request.system().contains("You are the ADVOCATE") {
        ADVOCATE.to_string()
    } else {
        SKEPTIC.to_string()
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}
