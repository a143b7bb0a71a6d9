//! The tournament's board: a full-screen view of a running tournament
//! (progress, the debates running, the standings so far, spend and time
//! left) with its keys: Enter watches the chosen debate, space holds the
//! tournament, q stops it (as SIGTERM, SIGINT and SIGHUP do). `state`
//! folds the progress and keys, `view`
//! draws; [`show`] is the loop, which hands a watch back to its caller
//! (the studio's watch is opened by the command, not here).

mod state;
#[cfg(test)]
mod tests;
mod view;

use std::time::{Duration, Instant};

use anyhow::Context as _;
use crossterm::event::{Event, EventStream};
use futures::StreamExt as _;
use tokio::sync::{mpsc, watch};

pub use state::{Act, Board, Phase, RECOUNT};

use crate::tournament::progress::Progress;

use super::signals::Signals;
use super::terminal::Guard;

/// A frame at most this often while debates stream in.
const FRAME: Duration = Duration::from_millis(100);

/// What the board's keys reach: the tournament's hold and stop.
pub struct Controls<'a> {
    pub hold: &'a watch::Sender<bool>,
    pub stop: &'a watch::Sender<bool>,
}

/// Why the board closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// The person asked to watch this session; show the board again after.
    Watch(String),
    /// The tournament is over and the person left, or it stopped.
    Leave,
}

/// Shows the board until the person watches a debate or leaves, folding
/// the tournament's progress as it comes; the terminal is restored on
/// every way out.
pub async fn show(
    board: &mut Board,
    progress: &mut mpsc::UnboundedReceiver<Progress>,
    controls: &Controls<'_>,
) -> anyhow::Result<Exit> {
    let mut signals = Signals::watch()?;
    let mut guard = Guard::enter(false).context("could not take over the terminal")?;
    let mut input = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut drawn: Option<Instant> = None;
    let mut changed = true;
    let mut open = board.phase != Phase::Over;
    loop {
        let now = Instant::now();
        if changed && drawn.is_none_or(|at| now.duration_since(at) >= FRAME) {
            guard.draw(|frame| view::draw(frame, board, now))?;
            (drawn, changed) = (Some(now), false);
        }
        // A change not drawn yet is drawn when its frame is due.
        let due = drawn.map_or(now, |at| at + FRAME);
        let recount = board.recount_due();
        tokio::select! {
            told = progress.recv(), if open => {
                changed = true;
                let Some(told) = told else {
                    open = false;
                    let stopped = board.phase == Phase::Stopping;
                    board.over();
                    if stopped {
                        return Ok(Exit::Leave);
                    }
                    continue;
                };
                board.apply(told, Instant::now());
                // Everything waiting is folded before a frame.
                while let Ok(more) = progress.try_recv() {
                    board.apply(more, Instant::now());
                }
            }
            event = input.next() => {
                let Some(event) = event else { return Ok(Exit::Leave) };
                match event.context("could not read the terminal")? {
                    Event::Key(key) => {
                        if let Some(act) = board.key(key) {
                            match act {
                                Act::Watch(session) => return Ok(Exit::Watch(session)),
                                Act::Leave => return Ok(Exit::Leave),
                                Act::Hold(held) => {
                                    let _ = controls.hold.send(held);
                                }
                                Act::Stop => {
                                    let _ = controls.stop.send(true);
                                    board.phase = Phase::Stopping;
                                }
                            }
                        }
                        changed = true;
                    }
                    Event::Resize(..) => changed = true,
                    _ => {}
                }
            }
            // A terminal closed or a `kill`: the tournament stops where it is, saved; a second leaves.
            () = signals.next() => {
                if !open || board.phase == Phase::Stopping {
                    return Ok(Exit::Leave);
                }
                let _ = controls.stop.send(true);
                board.phase = Phase::Stopping;
                changed = true;
            }
            _ = tick.tick() => changed = true,
            () = tokio::time::sleep_until(due.into()), if changed => {}
            () = tokio::time::sleep_until(recount.unwrap_or(now).into()), if recount.is_some() => changed = true,
        }
    }
}
