//! Branch sessions: a debate that goes on from another after one of its
//! rounds. Its log begins with a `branched` event naming the parent and how
//! many of the parent's records it shares; reading it reads those from the
//! parent's log (and from the grandparent's, for a branch of a branch), so
//! nothing is copied and the parent is never written. Where a round ends,
//! and whether it can be branched, is decided here too.

use std::path::Path;

use anyhow::{Context, bail};

use super::log::{self, Loaded, Record};
use crate::debate::plan::{Step, next_steps};
use crate::debate::{DebateEvent, DebateState};

/// How deep branches of branches may nest: a guard against a log that
/// names itself, not a limit anyone meets.
const MAX_DEPTH: usize = 64;

/// The parent a log's records branch from, and how many of its records
/// they share; `None` for a debate that is not a branch.
pub fn parent_of(records: &[Record]) -> Option<(&str, usize)> {
    match records.first().map(|r| &r.event) {
        Some(DebateEvent::Branched { from, records, .. }) => {
            Some((from.as_str(), usize::try_from(*records).unwrap_or(usize::MAX)))
        }
        _ => None,
    }
}

/// A session's own records with its parent's shared ones in front, when it
/// is a branch (a debate that is not one is returned as it is). The
/// parent's notices come along, saying whose they are.
pub fn splice(sessions: &Path, own: Loaded) -> anyhow::Result<Loaded> {
    splice_at(sessions, own, 0)
}

fn splice_at(sessions: &Path, mut own: Loaded, depth: usize) -> anyhow::Result<Loaded> {
    let Some((from, shared)) = parent_of(&own.records) else { return Ok(own) };
    let from = from.to_string();
    let id = own.header.id.clone();
    if depth >= MAX_DEPTH || !is_session_id(&from) || from == id {
        bail!("session {id} names {from:?} as the debate it branches, which cannot be: its log is damaged");
    }
    let parent = log::load(&sessions.join(format!("{from}.jsonl")))
        .and_then(|parent| splice_at(sessions, parent, depth + 1))
        .with_context(|| format!("session {id} branches {from}, whose log holds its first rounds"))?;
    if parent.records.len() < shared {
        bail!(
            "session {id} shares the first {shared} events of {from}, which holds only {}: that log was cut short",
            parent.records.len()
        );
    }
    let mut records = parent.records;
    records.truncate(shared);
    records.append(&mut own.records);
    own.records = records;
    let inherited = parent.notices.into_iter().map(|n| format!("in {from}, which it branches: {n}"));
    own.notices = inherited.chain(own.notices).collect();
    Ok(own)
}

/// Whether `text` can be a session id (and so a file name in the sessions
/// directory): letters, digits and dashes only.
fn is_session_id(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// How many of a debate's records its rounds 1 to `round` take, and what
/// they fold to (not paused): where a branch after that round leaves it.
/// Refused, in one sentence each, for a round out of range, one that has
/// not finished, and one that ended the debate (a branch of it would have
/// nothing to go on with); each names the rounds that can be branched.
pub fn round_end(id: &str, records: &[Record], round: u32) -> anyhow::Result<(usize, DebateState)> {
    // Each `round_started` is a round of the folded state; only the shared part is folded.
    let rounds = records.iter().filter(|r| matches!(r.event, DebateEvent::RoundStarted { .. })).count();
    let rounds = u32::try_from(rounds).unwrap_or(u32::MAX);
    if rounds == 0 {
        bail!("session {id} has not started a round: there is nothing to branch yet");
    }
    // The rounds a branch can follow are those the debate went on from: all
    // but a last one that is unfinished or ended it.
    let last = after(records, rounds);
    let open = if matches!(last.2, After::GoesOn) { rounds } else { rounds - 1 };
    let offered = match open {
        0 => "it has no round a branch can go on from".to_string(),
        1 => "a branch can be taken after round 1 only".to_string(),
        _ => format!("a branch can be taken after round 1 to {open}"),
    };
    if round == 0 || round > rounds {
        let s = if rounds == 1 { "" } else { "s" };
        let why = if open < rounds { format!(" (round {rounds} {})", last.2.short()) } else { String::new() };
        bail!("session {id} has {rounds} round{s}{why}: {offered}, not {round}");
    }
    let (end, shared, then) = if round == rounds { last } else { after(records, round) };
    match then {
        After::GoesOn => Ok((end, shared)),
        After::Ended(outcome) => {
            bail!("round {round} ended session {id} ({outcome}): {offered}, or run it again with `heat rematch {id}`")
        }
        After::Unfinished => {
            bail!("round {round} of session {id} has not finished: its judge has given no verdict yet; {offered}")
        }
    }
}

/// What a debate did after one of its rounds.
enum After {
    GoesOn,
    /// The round ended the debate, for this reason.
    Ended(String),
    /// Its judge has given no verdict yet.
    Unfinished,
}

impl After {
    /// Why a branch cannot follow the round, in a few words.
    fn short(&self) -> String {
        match self {
            After::GoesOn => "went on".into(),
            After::Ended(outcome) => format!("ended it: {outcome}"),
            After::Unfinished => "has no verdict yet".into(),
        }
    }
}

/// The records rounds 1 to `round` take, their state, and what came next.
fn after(records: &[Record], round: u32) -> (usize, DebateState, After) {
    let index = round - 1;
    let end = records.iter().rposition(|r| r.event.round() == Some(index)).map_or(0, |i| i + 1);
    let mut shared = DebateState::from_events(records[..end].iter().map(|r| &r.event));
    // A pause at that moment is not what the round was.
    shared.paused = false;
    let then = match next_steps(&shared, &[]).as_slice() {
        [Step::StartRound { .. }] => After::GoesOn,
        [Step::Finish { outcome, .. }] => After::Ended(outcome.describe()),
        _ => After::Unfinished,
    };
    (end, shared, then)
}
