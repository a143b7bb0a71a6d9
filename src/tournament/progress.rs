//! What a running tournament says as it goes ([`Progress`]), one value a
//! thing that happened, and what it may spend ([`Budget`]). The CLI prints
//! them as lines or JSON; the studio's board folds them into its screen.

use crate::debate::Outcome;

use super::plan::Planned;
use super::stats::Game;

/// Something that happened in a running tournament.
#[derive(Debug, Clone)]
pub enum Progress {
    /// The tournament begins or goes on: its size, what is done, what is
    /// left, and what it may spend and has spent.
    Plan {
        total: usize,
        done: usize,
        left: usize,
        budget: Budget,
    },
    Begins {
        planned: Planned,
        session: Option<String>,
        attempt: u32,
    },
    /// A new debate has its session (before any model is asked).
    Started {
        key: String,
        session: String,
    },
    Finished {
        key: String,
        session: String,
        outcome: Outcome,
        winner: Option<String>,
        /// The debate as the statistics count it.
        game: Option<Game>,
        done: usize,
        total: usize,
        /// What the tournament has spent so far: tokens, and dollars where priced.
        spent: (u64, f64),
    },
    Failed {
        key: String,
        session: Option<String>,
        why: String,
        attempt: u32,
        done: usize,
        total: usize,
        spent: (u64, f64),
    },
    /// A debate stopped by the person, to be taken up on resume.
    Stopped {
        key: String,
        session: Option<String>,
    },
    Stopping {
        running: usize,
    },
    /// The person held the tournament (`true`: no debate begins and those
    /// running pause) or let it go on.
    Held(bool),
    /// The budget is reached: no debate begins; those running finish.
    Budget {
        spent: String,
        running: usize,
    },
    Warning(String),
}

/// What the tournament may spend before it pauses, and has spent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Budget {
    pub tokens: Option<u64>,
    pub usd: Option<f64>,
    pub spent_tokens: u64,
    pub spent_usd: f64,
}

impl Budget {
    /// What was spent against which limit, once a limit is reached.
    pub fn reached(&self) -> Option<String> {
        let tokens = self.tokens.filter(|limit| self.spent_tokens >= *limit).map(|limit| {
            format!("{} of {} tokens", crate::words::thousands(self.spent_tokens), crate::words::thousands(limit))
        });
        let usd = self
            .usd
            .filter(|limit| self.spent_usd >= *limit)
            .map(|limit| format!("${:.2} of ${limit:.2}", self.spent_usd));
        let reached: Vec<String> = tokens.into_iter().chain(usd).collect();
        (!reached.is_empty()).then(|| reached.join(" and "))
    }
}
