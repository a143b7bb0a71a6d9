//! A tournament's debates run to the end: as many at once as the file
//! allows, each begun or taken up again as the journal says, every end
//! written to the journal before the next debate is told of; a debate that
//! failed is tried once more at the end (taken up where it failed), then
//! kept as failed with its reason. Ctrl-C stops every debate where it is,
//! saved: `heat tournament resume` goes on.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinSet;

use super::debate::{self, Ran, Shared};
use super::progress::{Progress, Report};
use crate::debate::Outcome;
use crate::store::tournaments::{Entry, Stored};
use crate::tournament::plan::Planned;

/// One debate to run: what the plan says, the session to take up if one
/// began, and which attempt this is.
struct Job {
    planned: Planned,
    session: Option<String>,
    attempt: u32,
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Every planned debate has ended (some may have failed).
    Done { failed: usize },
    /// Stopped by the person; it can be resumed.
    Stopped,
    /// Paused at its budget, having spent this (in words); resumed, it goes on past it.
    Budget(String),
}

/// What the tournament may spend before it pauses, and has spent.
pub struct Budget {
    pub tokens: Option<u64>,
    pub usd: Option<f64>,
    pub spent_tokens: u64,
    pub spent_usd: f64,
}

impl Budget {
    /// What was spent against which limit, once a limit is reached.
    fn reached(&self) -> Option<String> {
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

/// The work left in a stored tournament: every planned debate not yet
/// finished nor failed twice, with its session if one began.
fn left(planned: &[Planned], stored: &Stored) -> Vec<Job> {
    let (finished, failures, sessions) = (stored.finished(), stored.failures(), stored.sessions());
    planned
        .iter()
        .filter(|p| !finished.contains(&p.key))
        .filter(|p| failures.get(&p.key).is_none_or(|(attempt, _)| *attempt < 2))
        .map(|p| Job {
            planned: p.clone(),
            session: sessions.get(&p.key).cloned(),
            attempt: failures.get(&p.key).map_or(1, |(attempt, _)| attempt + 1),
        })
        .collect()
}

/// Runs what is left of the tournament.
pub async fn run(
    shared: Shared,
    stop: watch::Sender<bool>,
    planned: &[Planned],
    stored: &Stored,
    mut budget: Budget,
    report: &mut Report,
) -> anyhow::Result<Ending> {
    let concurrency = shared.file.concurrency;
    let shared = Arc::new(shared);
    let total = planned.len();
    let mut done = stored.finished().len() + stored.failures().values().filter(|(a, _)| *a >= 2).count();
    // Failures are tried again after everything else; a debate that failed once before this run is tried now.
    let (mut first, mut again): (VecDeque<Job>, VecDeque<Job>) =
        left(planned, stored).into_iter().partition(|j| j.attempt == 1);
    first.extend(again.drain(..));
    let mut running: JoinSet<Ran> = JoinSet::new();
    let mut attempts: BTreeMap<String, u32> = BTreeMap::new();
    let mut failed = stored.failures().values().filter(|(a, _)| *a >= 2).count();
    report.say(&Progress::Plan { total, done, left: first.len() });
    let stopped = || *stop.borrow();
    // Once reached, no debate begins; those running finish.
    let mut paused: Option<String> = None;
    let mut ctrl_c = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        while running.len() < concurrency && !stopped() && paused.is_none() {
            let Some(job) = first.pop_front().or_else(|| again.pop_front()) else { break };
            attempts.insert(job.planned.key.clone(), job.attempt);
            report.say(&Progress::Begins {
                planned: job.planned.clone(),
                session: job.session.clone(),
                attempt: job.attempt,
            });
            running.spawn(debate::run(shared.clone(), job.planned, job.session));
        }
        if running.is_empty() {
            break;
        }
        let joined = tokio::select! {
            joined = running.join_next() => joined,
            _ = &mut ctrl_c, if !stopped() => {
                let _ = stop.send(true);
                report.say(&Progress::Stopping { running: running.len() });
                continue;
            }
        };
        let Some(joined) = joined else { break };
        let ran = joined.map_err(|e| anyhow::anyhow!("a tournament debate's task ended: {e}"))?;
        let attempt = attempts.get(&ran.key).copied().unwrap_or(1);
        budget.spent_tokens += ran.tokens;
        budget.spent_usd += ran.usd.unwrap_or(0.0);
        for warning in &ran.warnings {
            report.say(&Progress::Warning(warning.clone()));
        }
        match ran.outcome {
            // Stopped by the person (or cut off at its budget): taken up again on resume.
            Ok(Outcome::Cancelled) => report.say(&Progress::Stopped { key: ran.key, session: ran.session }),
            Ok(Outcome::Failed(why)) | Err(why) => {
                shared.write(&Entry::Failed {
                    key: ran.key.clone(),
                    session: ran.session.clone(),
                    why: why.clone(),
                    attempt,
                    tokens: ran.tokens,
                    usd: ran.usd,
                })?;
                if attempt < 2 && !stopped() {
                    let planned = planned.iter().find(|p| p.key == ran.key).cloned();
                    again.extend(planned.map(|planned| Job { planned, session: ran.session.clone(), attempt: 2 }));
                } else if attempt >= 2 {
                    done += 1;
                    failed += 1;
                }
                report.say(&Progress::Failed { key: ran.key, session: ran.session, why, attempt, done, total });
            }
            Ok(outcome) => {
                let session = ran.session.clone().unwrap_or_default();
                shared.write(&Entry::Finished {
                    key: ran.key.clone(),
                    session: session.clone(),
                    outcome: outcome.clone(),
                    tokens: ran.tokens,
                    usd: ran.usd,
                })?;
                done += 1;
                report.say(&Progress::Finished { key: ran.key, session, outcome, winner: ran.winner, done, total });
            }
        }
        if paused.is_none()
            && let Some(spent) = budget.reached()
        {
            shared.write(&Entry::BudgetReached { spent: spent.clone() })?;
            report.say(&Progress::Budget { spent: spent.clone(), running: running.len() });
            paused = Some(spent);
        }
    }
    if stopped() {
        return Ok(Ending::Stopped);
    }
    if let Some(spent) = paused
        && (!first.is_empty() || !again.is_empty())
    {
        return Ok(Ending::Budget(spent));
    }
    shared.write(&Entry::Ended { at_ms: crate::store::now_ms() })?;
    Ok(Ending::Done { failed })
}
