//! How a debate ended: the outcome its `Finished` event records, and how
//! each is said in a headline and a sentence.

use serde::{Deserialize, Serialize};

/// How a debate ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Outcome {
    /// The judge declared it resolved.
    Resolved,
    /// The person at the keyboard forced a resolution.
    Forced,
    /// `max_rounds` was reached; the judge wrote a final synthesis.
    MaxRounds,
    /// Both debaters stated `ACCEPTING_CONSENSUS` in one round; the judge wrote
    /// the final synthesis.
    Consensus,
    /// The judge resolved it, or the rounds ran out, while a debater's
    /// latest stance was `DISSENTING`.
    Dissent,
    /// Every debater gave the same final answer in one round (a format
    /// with convergence on).
    Converged,
    /// A provider failed for good (after its retry budget, or a final error).
    Failed(String),
    /// Stopped by the person before it ended.
    Cancelled,
    /// A round ran past its time (`debate.round_seconds`, this many seconds).
    Timeout(u32),
    /// The debate can no longer be trusted: its recorded source does not
    /// match the hash recorded with it (the session log was changed).
    Invalidated(String),
}

impl Outcome {
    /// Whether the debate came to its end on its own terms (resolved,
    /// forced, converged, the rounds ran out): not failed, stopped or
    /// invalidated. Only such an ending can be set aside for more rounds.
    pub fn concluded(&self) -> bool {
        !matches!(self, Outcome::Failed(_) | Outcome::Cancelled | Outcome::Invalidated(_))
    }

    /// Whether a resume lifts this ending and goes on: a failure or a stop
    /// by the person (any other ending stands).
    pub fn lifted_on_resume(&self) -> bool {
        matches!(self, Outcome::Failed(_) | Outcome::Cancelled)
    }

    /// The ending in a few words with where it came, for a headline: a
    /// failure says in which round, not why (the turn that failed says that).
    pub fn headline(&self, rounds: usize) -> String {
        let after = format!("after {rounds} round{}", if rounds == 1 { "" } else { "s" });
        let round = rounds.max(1);
        match self {
            Outcome::Failed(_) => format!("failed in round {round}"),
            Outcome::Cancelled => format!("stopped in round {round}"),
            Outcome::Invalidated(_) => format!("invalidated in round {round}"),
            other => format!("{} {after}", other.describe()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Outcome::Resolved => "resolved by the judge".into(),
            Outcome::Forced => "resolution forced".into(),
            Outcome::MaxRounds => "ended at the round limit".into(),
            Outcome::Consensus => "ended in consensus".into(),
            Outcome::Dissent => "ended with a dissent".into(),
            Outcome::Converged => "converged".into(),
            Outcome::Timeout(seconds) => format!("a round ran out of time ({seconds} s)"),
            Outcome::Failed(why) => format!("failed: {why}"),
            Outcome::Invalidated(why) => format!("invalidated: {why}"),
            // The person stopped it; `heat resume` goes on with it. One word for that, everywhere.
            Outcome::Cancelled => "stopped".into(),
        }
    }
}
