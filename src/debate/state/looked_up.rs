//! What a debater looked up during a turn: each step its answer stopped to
//! call tools, with what it said before them, what each call asked, and
//! what heat answered it.

use serde::{Deserialize, Serialize};

use crate::provider::{ChatMessage, ToolCall, ToolResult, Usage};

/// One stop of a turn's answer to call tools.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolStep {
    /// What the model said before the calls (not part of its argument).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub said: String,
    /// What the step's request spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    pub calls: Vec<ToolUse>,
}

/// One call and, once given, its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolUse {
    pub call: ToolCall,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<ToolAnswer>,
}

/// What heat answered a call, and how long it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolAnswer {
    pub text: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    pub millis: u64,
}

impl ToolStep {
    /// The step as the history a turn's next request carries: the
    /// model's message with its calls, then the answers (a call left
    /// unanswered, by a stop mid-step, is answered as not run).
    pub fn messages(&self) -> [ChatMessage; 2] {
        let calls = self.calls.iter().map(|u| u.call.clone()).collect();
        let results = self
            .calls
            .iter()
            .map(|u| match &u.answer {
                Some(answer) => {
                    ToolResult { call_id: u.call.id.clone(), content: answer.text.clone(), is_error: answer.failed }
                }
                None => {
                    ToolResult { call_id: u.call.id.clone(), content: "this call was not run".into(), is_error: true }
                }
            })
            .collect();
        [ChatMessage::calling(self.said.clone(), calls), ChatMessage::results(results)]
    }
}

/// Every call a turn's steps made.
pub fn calls_made(steps: &[ToolStep]) -> usize {
    steps.iter().map(|s| s.calls.len()).sum()
}

/// What a turn's tool steps spent, added to `last` (its final answer's).
pub fn spent(steps: &[ToolStep], last: Option<Usage>) -> Option<Usage> {
    steps.iter().filter_map(|s| s.usage).chain(last).reduce(|a, b| Usage {
        input_tokens: a.input_tokens + b.input_tokens,
        output_tokens: a.output_tokens + b.output_tokens,
        cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
        reported_micro_usd: match (a.reported_micro_usd, b.reported_micro_usd) {
            (None, None) => None,
            (x, y) => Some(x.unwrap_or(0) + y.unwrap_or(0)),
        },
    })
}
