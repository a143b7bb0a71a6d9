//! The board's state: a running tournament folded from its progress
//! ([`Board::apply`]): what is done, the debates running, the latest
//! results, the spend, the standings so far (recounted at most every
//! [`RECOUNT`] while debates finish, from few resamples; in full, as
//! `heat stats` counts them, once it is over); and what a key
//! asks of it ([`Board::key`]). No I/O and no clock of its own: the time
//! is handed in.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::tournament::plan::Planned;
use crate::tournament::progress::{Budget, Progress};
use crate::tournament::stats::{self, Game, Summary};

/// The standings are recounted no more often while debates finish.
pub const RECOUNT: Duration = Duration::from_secs(2);

/// Bootstrap resamples for the board's intervals (`heat stats` draws 1,000).
const RESAMPLES: u32 = 200;

/// The latest results kept.
const LATEST: usize = 50;

/// A debate running now.
#[derive(Debug, Clone)]
pub struct Running {
    pub planned: Planned,
    /// Its session, once it has one.
    pub session: Option<String>,
    pub attempt: u32,
    pub since: Instant,
}

/// Where the tournament stands as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    Running,
    /// Held by the person: no debate begins, those running pause.
    Held,
    /// Its budget is reached: those running finish, no more begin.
    AtBudget(String),
    /// Told to stop: the debates stop where they are.
    Stopping,
    /// Every debate has run, or the run has stopped; nothing more comes.
    Over,
}

/// What a key asks the board's owner to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Open the studio's watch of this session.
    Watch(String),
    /// Hold the tournament (`true`) or let it go on.
    Hold(bool),
    /// Stop the tournament where it is (saved; it can be resumed).
    Stop,
    /// Close the board.
    Leave,
}

/// A running tournament as the board shows it.
pub struct Board {
    pub tournament: String,
    pub total: usize,
    pub done: usize,
    /// Debates kept as failed (tried twice).
    pub failed: usize,
    pub running: Vec<Running>,
    /// The latest results, newest first, as lines, each with its session if it has one.
    pub latest: VecDeque<(String, Option<String>)>,
    pub budget: Budget,
    pub phase: Phase,
    /// The running debate chosen (Enter watches it).
    pub chosen: usize,
    /// A first `q` asks for a second before the tournament stops.
    pub confirming: bool,
    /// A line for the person (what a key did, or why it did nothing).
    pub notice: Option<String>,
    games: Vec<Game>,
    seed: u64,
    standings: Option<Summary>,
    counted: usize,
    counted_at: Option<Instant>,
    /// When this run began, what was done then, and the time spent held.
    began: Instant,
    done_before: usize,
    held_since: Option<Instant>,
    held_for: Duration,
}

impl Board {
    /// A board for tournament `id`, with the games it finished before this run.
    pub fn new(tournament: &str, seed: u64, games: Vec<Game>, now: Instant) -> Board {
        Board {
            tournament: tournament.to_string(),
            total: 0,
            done: 0,
            failed: 0,
            running: Vec::new(),
            latest: VecDeque::new(),
            budget: Budget::default(),
            phase: Phase::Running,
            chosen: 0,
            confirming: false,
            notice: None,
            games,
            seed,
            standings: None,
            counted: usize::MAX,
            counted_at: None,
            began: now,
            done_before: 0,
            held_since: None,
            held_for: Duration::ZERO,
        }
    }

    /// Folds one thing that happened.
    pub fn apply(&mut self, progress: Progress, now: Instant) {
        match progress {
            Progress::Plan { total, done, budget, .. } => {
                (self.total, self.done, self.done_before, self.budget) = (total, done, done, budget);
            }
            Progress::Begins { planned, session, attempt } => {
                self.running.push(Running { planned, session, attempt, since: now });
            }
            Progress::Started { key, session } => {
                if let Some(running) = self.running.iter_mut().find(|r| r.planned.key == key) {
                    running.session = Some(session);
                }
            }
            Progress::Finished { key, session, winner, game, done, spent, .. } => {
                let running = self.end(&key);
                self.done = done;
                self.spent(spent);
                let ahead = winner.map_or_else(|| "no one named ahead".to_string(), |w| format!("{w} ahead"));
                let what = running.map(|r| r.planned.proposition).unwrap_or_default();
                self.said_of(&format!("[{done}/{}] {ahead} · {what}", self.total), Some(session));
                self.games.extend(game);
            }
            Progress::Failed { key, why, attempt, done, spent, .. } => {
                self.end(&key);
                self.spent(spent);
                self.done = done;
                let then = if attempt < 2 { "tried once more at the end" } else { "kept as failed" };
                if attempt >= 2 {
                    self.failed += 1;
                }
                self.said(&format!("a debate failed: {}; {then}", crate::sanitize::clause(&why)));
            }
            Progress::Stopped { key, .. } => {
                self.end(&key);
            }
            Progress::Stopping { .. } => self.phase = Phase::Stopping,
            Progress::Held(held) => self.held(held, now),
            Progress::Budget { spent, .. } => {
                self.said(&format!("the budget is reached ({spent}): no more debates begin"));
                self.phase = Phase::AtBudget(spent);
            }
            Progress::Warning(warning) => self.said(&warning),
        }
        self.chosen = self.chosen.min(self.running.len().saturating_sub(1));
    }

    /// Nothing more will come: the run has ended.
    pub fn over(&mut self) {
        self.phase = Phase::Over;
        self.running.clear();
        self.confirming = false;
        // Counted again, in full.
        self.counted = usize::MAX;
    }

    /// What `key` asks for; the board's own changes (the choice, the
    /// confirmation) are made here.
    pub fn key(&mut self, key: KeyEvent) -> Option<Act> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let confirming = std::mem::take(&mut self.confirming);
        let stop_key = matches!(key.code, KeyCode::Char('q') | KeyCode::Esc)
            || (key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL));
        self.notice = None;
        if self.phase == Phase::Over {
            return stop_key.then_some(Act::Leave);
        }
        match key.code {
            _ if stop_key && self.phase == Phase::Stopping => None,
            _ if stop_key && confirming => Some(Act::Stop),
            _ if stop_key => {
                self.confirming = true;
                None
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.chosen = self.chosen.saturating_sub(1);
                None
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.chosen = (self.chosen + 1).min(self.running.len().saturating_sub(1));
                None
            }
            KeyCode::Enter => self.watch(),
            KeyCode::Char(' ') => match self.phase {
                Phase::Running => Some(Act::Hold(true)),
                Phase::Held => Some(Act::Hold(false)),
                Phase::AtBudget(_) => {
                    self.notice = Some("the budget is reached: `heat tournament resume` goes on past it".into());
                    None
                }
                Phase::Stopping | Phase::Over => None,
            },
            _ => None,
        }
    }

    fn watch(&mut self) -> Option<Act> {
        let Some(running) = self.running.get(self.chosen) else {
            self.notice = Some("no debate is running to watch".into());
            return None;
        };
        if let Some(session) = &running.session {
            return Some(Act::Watch(session.clone()));
        }
        self.notice = Some("that debate has no session yet: a moment".into());
        None
    }

    /// The standings so far: recounted when a debate has finished since
    /// they were counted and [`RECOUNT`] has passed (or nothing runs).
    pub fn standings(&mut self, now: Instant) -> Option<&Summary> {
        let due = self.counted_at.is_none_or(|at| now.duration_since(at) >= RECOUNT) || self.running.is_empty();
        if self.counted != self.games.len() && due {
            // Over, they are counted as `heat stats` counts them, and agree with it.
            let resamples = if self.phase == Phase::Over { stats::RESAMPLES } else { RESAMPLES };
            self.standings =
                (!self.games.is_empty()).then(|| stats::summarise_with_resamples(&self.games, self.seed, resamples));
            (self.counted, self.counted_at) = (self.games.len(), Some(now));
        }
        self.standings.as_ref()
    }

    /// When the standings will next be recounted, if a finished debate waits.
    pub fn recount_due(&self) -> Option<Instant> {
        (self.counted != self.games.len()).then(|| self.counted_at.map_or(self.began, |at| at + RECOUNT))
    }

    /// About how long what is left will take, at this run's pace so far
    /// (time held not counted); `None` until a debate has finished.
    pub fn left(&self, now: Instant) -> Option<Duration> {
        let finished = self.done.saturating_sub(self.done_before);
        if finished == 0 || self.phase == Phase::Over {
            return None;
        }
        let held = self.held_for + self.held_since.map_or(Duration::ZERO, |since| now.duration_since(since));
        let pace = now.duration_since(self.began).saturating_sub(held) / u32::try_from(finished).unwrap_or(u32::MAX);
        Some(pace * u32::try_from(self.total.saturating_sub(self.done)).unwrap_or(u32::MAX))
    }

    fn held(&mut self, held: bool, now: Instant) {
        match (held, &self.phase) {
            (true, Phase::Running) => {
                self.phase = Phase::Held;
                self.held_since = Some(now);
            }
            (false, Phase::Held) => {
                self.phase = Phase::Running;
                self.held_for += self.held_since.take().map_or(Duration::ZERO, |since| now.duration_since(since));
            }
            _ => {}
        }
    }

    fn end(&mut self, key: &str) -> Option<Running> {
        let at = self.running.iter().position(|r| r.planned.key == key)?;
        Some(self.running.remove(at))
    }

    fn spent(&mut self, (tokens, usd): (u64, f64)) {
        (self.budget.spent_tokens, self.budget.spent_usd) = (tokens, usd);
    }

    fn said(&mut self, line: &str) {
        self.said_of(line, None);
    }

    fn said_of(&mut self, line: &str, session: Option<String>) {
        self.latest.push_front((crate::sanitize::one_line(line), session));
        self.latest.truncate(LATEST);
    }
}
