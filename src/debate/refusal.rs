//! A request parameter a seat's model refused (`DebateEvent::ParameterRefused`
//! records it): what the engine leaves out of the seat's later requests, or
//! sends in the form the model takes.

use serde::{Deserialize, Serialize};

/// A parameter a seat's model refused, learnt once a debate and kept in its log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// No temperature is sent (a reasoning model; extended thinking).
    Temperature,
    /// The answer's room goes as `max_completion_tokens`, not `max_tokens`
    /// (OpenAI's reasoning models).
    MaxTokens,
    /// No `reasoning_effort` is sent.
    ReasoningEffort,
    /// No tools are offered: the seat argues from the passages it is given.
    Tools,
}

impl Refusal {
    /// The refusal a dropped parameter (as `retry` names it) teaches.
    pub fn of(param: &str) -> Option<Self> {
        match param {
            "temperature" => Some(Self::Temperature),
            "max_tokens" => Some(Self::MaxTokens),
            "reasoning_effort" => Some(Self::ReasoningEffort),
            "tools" => Some(Self::Tools),
            _ => None,
        }
    }
}
