//! One seat's turn in a round (a debater's argument, a judge's verdict)
//! and where it stands.

use serde::{Deserialize, Serialize};

use super::looked_up::ToolStep;
use crate::debate::event::TurnPurpose;
use crate::debate::grounding::QuoteCheck;
use crate::debate::seat::Role;
use crate::debate::stance::StanceLine;
use crate::debate::verdict::Verdict;
use crate::provider::Usage;

/// Where a turn stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum TurnStatus {
    Streaming,
    Retrying { attempt: u32, max_retries: u32, delay_ms: u64, reason: String },
    Done,
    Cancelled,
    Failed { error: String },
}

/// What became of a judge turn's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum VerdictStatus {
    Parsed { verdict: Verdict },
    Invalid { error: String, will_retry: bool },
}

/// One model call's worth of text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub role: Role,
    pub purpose: TurnPurpose,
    pub temperature: Option<f32>,
    pub status: TurnStatus,
    pub text: String,
    pub reasoning: String,
    pub usage: Option<Usage>,
    /// The answer stopped at the token limit, after this many tokens.
    #[serde(default)]
    pub truncated_at: Option<u32>,
    /// It ended mid-sentence with a clean stop, well short of its limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub possibly_cut: bool,
    /// Its request waits inside heat for one of its server's slots.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub queued: bool,
    /// Judge turns only: whether the answer parsed.
    pub verdict: Option<VerdictStatus>,
    /// What the argument cited from the source, checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<QuoteCheck>,
    /// The stance line the argument ended with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stance: Option<StanceLine>,
    /// The turn ran out of time after this many seconds and was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_time: Option<u32>,
    /// The notes a person sent this seat alone that its request carried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What it looked up before it answered: each stop to call tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolStep>,
    /// What its (last) request sent, secrets redacted; `None` in a log
    /// written before heat kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<Box<crate::debate::sent::SentRequest>>,
}

impl Turn {
    /// A turn just started: streaming, with nothing said yet.
    pub fn started(role: Role, purpose: TurnPurpose, temperature: Option<f32>) -> Self {
        Turn {
            role,
            purpose,
            temperature,
            status: TurnStatus::Streaming,
            text: String::new(),
            reasoning: String::new(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
            queued: false,
            verdict: None,
            checks: Vec::new(),
            stance: None,
            out_of_time: None,
            notes: Vec::new(),
            tools: Vec::new(),
            sent: None,
        }
    }

    /// Done or cancelled: its text stands and the debate can move on.
    pub fn is_settled(&self) -> bool {
        matches!(self.status, TurnStatus::Done | TurnStatus::Cancelled)
    }

    /// A judge turn whose verdict closes the debate: the final synthesis,
    /// or a verdict that declared it resolved. Its "next heat" means nothing.
    pub fn closes_debate(&self) -> bool {
        self.role.is_judge()
            && (self.purpose.is_final()
                || matches!(&self.verdict, Some(VerdictStatus::Parsed { verdict }) if verdict.resolved))
    }

    /// Started but not settled or failed: a model call is (or was) under way.
    pub fn is_open(&self) -> bool {
        matches!(self.status, TurnStatus::Streaming | TurnStatus::Retrying { .. })
    }
}
