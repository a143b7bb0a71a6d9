//! A tournament's debates run to the end: as many at once as the file
//! allows, each begun or taken up again as the journal says, every end
//! written to the journal before the next debate is told of; a debate that
//! failed is tried once more at the end (taken up where it failed), then
//! kept as failed with its reason. Ctrl-C stops every debate where it is,
//! saved: `heat tournament resume` goes on. Held (the board's space), no
//! debate begins and those running pause where they are.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinSet;

use super::debate::{self, Ran, Shared};
use crate::debate::Outcome;
use crate::store::tournaments::{Entry, Stored};
use crate::tournament::plan::Planned;
use crate::tournament::progress::{Budget, Progress};

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
    stop: &watch::Sender<bool>,
    planned: &[Planned],
    stored: &Stored,
    mut budget: Budget,
) -> anyhow::Result<Ending> {
    let concurrency = shared.file.concurrency;
    let shared = Arc::new(shared);
    let failed = stored.failures().values().filter(|(a, _)| *a >= 2).count();
    let mut tally = Tally { total: planned.len(), done: stored.finished().len() + failed, failed };
    // Failures are tried again after everything else; a debate that failed once before this run is tried now.
    let (mut first, mut again): (VecDeque<Job>, VecDeque<Job>) =
        left(planned, stored).into_iter().partition(|j| j.attempt == 1);
    first.extend(again.drain(..));
    let mut running: JoinSet<Ran> = JoinSet::new();
    let mut attempts: BTreeMap<String, u32> = BTreeMap::new();
    let (total, done) = (tally.total, tally.done);
    shared.say(Progress::Plan { total, done, left: first.len(), budget: budget.clone() });
    let stopped = || *stop.borrow();
    let mut hold = shared.hold.clone();
    let mut holdable = true;
    // Once reached, no debate begins; those running finish.
    let mut paused: Option<String> = None;
    let mut ctrl_c = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        let holding = *hold.borrow_and_update();
        while running.len() < concurrency && !stopped() && paused.is_none() && !holding {
            let Some(job) = first.pop_front().or_else(|| again.pop_front()) else { break };
            attempts.insert(job.planned.key.clone(), job.attempt);
            shared.say(Progress::Begins {
                planned: job.planned.clone(),
                session: job.session.clone(),
                attempt: job.attempt,
            });
            running.spawn(debate::run(shared.clone(), job.planned, job.session));
        }
        if running.is_empty() && !(holding && holdable && !stopped() && paused.is_none()) {
            break;
        }
        let joined = tokio::select! {
            joined = running.join_next(), if !running.is_empty() => joined,
            _ = &mut ctrl_c, if !stopped() => {
                let _ = stop.send(true);
                shared.say(Progress::Stopping { running: running.len() });
                continue;
            }
            changed = hold.changed(), if holdable => {
                match changed {
                    Ok(()) => shared.say(Progress::Held(*hold.borrow())),
                    Err(_) => holdable = false,
                }
                continue;
            }
            () = stopped_while_held(stop), if running.is_empty() => continue,
        };
        let Some(joined) = joined else { break };
        let ran = joined.map_err(|e| anyhow::anyhow!("a tournament debate's task ended: {e}"))?;
        let attempt = attempts.get(&ran.key).copied().unwrap_or(1);
        budget.spent_tokens += ran.tokens;
        budget.spent_usd += ran.usd.unwrap_or(0.0);
        for warning in &ran.warnings {
            shared.say(Progress::Warning(warning.clone()));
        }
        let retry = !stopped();
        let job = counted(&shared, ran, (attempt, retry), &budget, &mut tally)?;
        again.extend(job.and_then(|(key, session)| {
            let planned = planned.iter().find(|p| p.key == key).cloned()?;
            Some(Job { planned, session, attempt: 2 })
        }));
        if paused.is_none()
            && let Some(spent) = budget.reached()
        {
            shared.write(&Entry::BudgetReached { spent: spent.clone() })?;
            shared.say(Progress::Budget { spent: spent.clone(), running: running.len() });
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
    Ok(Ending::Done { failed: tally.failed })
}

/// How many debates the tournament plans, has ended, and kept as failed.
struct Tally {
    total: usize,
    done: usize,
    failed: usize,
}

/// A debate's end written to the journal and told; the key and session
/// of a failed debate to try again (its first failure, `retry` allowing).
fn counted(
    shared: &Shared,
    ran: Ran,
    (attempt, retry): (u32, bool),
    budget: &Budget,
    tally: &mut Tally,
) -> anyhow::Result<Option<(String, Option<String>)>> {
    let spent = (budget.spent_tokens, budget.spent_usd);
    let Tally { total, .. } = *tally;
    match ran.outcome {
        // Stopped by the person (or cut off at its budget): taken up again on resume.
        Ok(Outcome::Cancelled) => shared.say(Progress::Stopped { key: ran.key, session: ran.session }),
        Ok(Outcome::Failed(why)) | Err(why) => {
            shared.write(&Entry::Failed {
                key: ran.key.clone(),
                session: ran.session.clone(),
                why: why.clone(),
                attempt,
                tokens: ran.tokens,
                usd: ran.usd,
            })?;
            let again = (attempt < 2 && retry).then(|| (ran.key.clone(), ran.session.clone()));
            if attempt >= 2 {
                tally.done += 1;
                tally.failed += 1;
            }
            let done = tally.done;
            shared.say(Progress::Failed { key: ran.key, session: ran.session, why, attempt, done, total, spent });
            return Ok(again);
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
            tally.done += 1;
            shared.say(Progress::Finished {
                key: ran.key,
                session,
                outcome,
                winner: ran.winner,
                game: ran.game,
                done: tally.done,
                total,
                spent,
            });
        }
    }
    Ok(None)
}

/// Resolves once the tournament is told to stop (never, if no one can tell it).
async fn stopped_while_held(stop: &watch::Sender<bool>) {
    let mut told = stop.subscribe();
    if told.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}
