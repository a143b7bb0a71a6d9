//! The studio's state: the folded debate plus what the view adds (focus,
//! scroll, the open dialog, the status line), and how engine events change
//! it. Keys are handled in `input`.

use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use ratatui_textarea::TextArea;

use super::modal::Modal;

pub use super::flash::{Flash, Tone, Until};
use super::keymap::KeyMap;
use super::pane::Pane;
use super::theme::Theme;
use crate::debate::cost::{self, Price};
use crate::debate::state::TurnStatus;
use crate::debate::{DebateEvent, DebateState, Outcome, Role};
use crate::sanitize::clean;

/// What a studio is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Debates are started, continued and shown (`heat`, `heat resume`).
    Debates,
    /// Stored debates are played back or opened; none is started (`heat replay`).
    Replays,
    /// Another heat's debate followed read-only as its log grows (`heat
    /// watch`): nothing is started, steered or written.
    Watch,
}

/// Where a replay stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    Playing,
    Paused,
    /// Every recorded event has been shown.
    Ended,
}

/// A replay's place in its recording: the events shown so far, the speed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayClock {
    pub timeline: super::replay::Timeline,
    pub played: usize,
    pub speed: f64,
}

impl ReplayClock {
    /// "round 2 of 3 · 0:41 / 1:05"
    pub fn describe(&self) -> String {
        let (round, rounds) = self.timeline.round(self.played);
        let (at, total) = self.timeline.position(self.played);
        format!("round {} of {rounds} · {} / {}", round.max(1).min(rounds), clock(at), clock(total))
    }
}

/// Milliseconds as m:ss (h:mm:ss from an hour).
fn clock(ms: u64) -> String {
    let secs = ms / 1000;
    match secs / 3600 {
        0 => format!("{}:{:02}", secs / 60, secs % 60),
        hours => format!("{hours}:{:02}:{:02}", secs / 60 % 60, secs % 60),
    }
}

/// "2×", "0.5×"
pub fn speed_label(speed: f64) -> String {
    format!("{speed}×")
}

/// Who speaks for each role, for titles and the start screen.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterEntry {
    pub role: Role,
    pub provider: String,
    pub model: String,
    /// What the role's tokens cost, when its prices are configured.
    pub price: Option<Price>,
    /// The model stops where it is while the debate is paused (the offline
    /// one); a server's answer finishes in the background instead.
    pub pauses_in_place: bool,
}

// Independent switches of the view (reasoning, turn times, focus chosen,
// tabs), not a state machine in disguise.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    pub debate: DebateState,
    pub session: Option<String>,
    pub panes: [Pane; Role::COUNT],
    pub focus: usize,
    /// Set once the person picks a pane; until then focus follows the
    /// speaker (what a one-pane narrow layout shows).
    pub focus_chosen: bool,
    pub modal: Option<Modal>,
    /// The start screen's topic editor, while no debate has begun.
    pub start: Option<TextArea<'static>>,
    pub flash: Option<Flash>,
    /// A standing note about the providers, shown when nothing newer is.
    pub notice: Option<String>,
    /// When each role's pending retry fires.
    pub retry_at: [Option<Instant>; Role::COUNT],
    /// Since when each role's turn has waited for its first word.
    pub thinking_since: [Option<Instant>; Role::COUNT],
    pub show_reasoning: bool,
    pub keymap: KeyMap,
    pub theme: Theme,
    pub roster: Vec<RosterEntry>,
    /// The prices of a panel's judges 2 to 5 that have their own.
    pub judge_prices: Vec<(u32, Price)>,
    /// Recent sessions for the start screen: (id, one-line description).
    pub recent: Vec<(String, String)>,
    /// The start screen's chosen recent debate, while the list has the
    /// keys (`None`: the proposition has them).
    pub recent_chosen: Option<usize>,
    /// What this studio is for: `heat replay` opens one that starts no debate.
    pub mode: Mode,
    /// Where a stored debate being played back stands.
    pub replay: Option<Replay>,
    /// How far a replay has got, and at what speed.
    pub replay_clock: Option<ReplayClock>,
    /// A pause or resume sent but not yet confirmed by the engine.
    pub pause_requested: Option<bool>,
    pub interrupts: u8,
    pub now: Instant,
    /// Where each pane was drawn, for the mouse wheel.
    pub pane_areas: [Rect; Role::COUNT],
    /// The offline model's install, when the start screen offers it.
    pub install: Option<super::install::InstallState>,
    /// A proposition waiting for the install to finish.
    pub queued_topic: Option<String>,
    /// The search that is on, if any.
    pub search: Option<super::search::Search>,
    /// Whether pane titles show their latest turn's time and tokens/s.
    pub show_stats: bool,
    /// Whether the header shows each side's words this round (`ui.length_parity`).
    pub show_parity: bool,
    /// Whether the source lines a turn cited show under its marks.
    pub show_cited: bool,
    /// Each role's latest turn, timed.
    pub turn_times: super::turn_stats::TurnTimes,
    /// Each turn's words, counted as it streams (the header reads them every frame).
    pub word_counts: super::word_counts::WordCounts,
    /// How alike the current round's two arguments are, measured when they change.
    pub likeness: super::likeness::Likeness,
    /// The debate's clock: milliseconds at `clock.0`; it runs on from there
    /// (a resumed debate's clock goes on from its log's last event).
    clock: (Instant, u64),
    /// When the latest event happened on that clock (a replay's recorded time).
    pub event_ms: u64,
    /// Whether the latest event was an engine notice: notices said one
    /// after another (a round's warnings) share the status line.
    notice_run: bool,
    /// The start screen's settings in force (the form's fields), when this
    /// studio offers them.
    pub settings: Option<[String; crate::config::studio::FIELDS]>,
    /// The formats the settings form offers (`heat formats`).
    pub formats: super::settings::FormatChoices,
    /// Settings sent to be applied, until the loop says how it went.
    pub configuring: Option<super::settings::SettingsForm>,
    /// In a watch: whether another heat was running the debate when it
    /// opened (a debate stopped unfinished is shown as not running).
    pub watched_live: bool,
}

/// The standing note over a scripted debate (the bundled demo).
pub const SCRIPTED_NOTE: &str = "Scripted demo: written in advance to show heat at work; no model is answering";

impl App {
    pub fn new(theme: Theme, keymap: KeyMap, roster: Vec<RosterEntry>) -> Self {
        App {
            debate: DebateState::default(),
            session: None,
            panes: Role::ALL.map(Pane::new),
            focus: 0,
            focus_chosen: false,
            modal: None,
            start: None,
            flash: None,
            notice: None,
            retry_at: [None; Role::COUNT],
            thinking_since: [None; Role::COUNT],
            show_reasoning: true,
            keymap,
            theme,
            roster,
            judge_prices: Vec::new(),
            recent: Vec::new(),
            recent_chosen: None,
            mode: Mode::Debates,
            replay: None,
            replay_clock: None,
            pause_requested: None,
            interrupts: 0,
            now: Instant::now(),
            pane_areas: [Rect::default(); Role::COUNT],
            install: None,
            queued_topic: None,
            search: None,
            settings: None,
            formats: super::settings::FormatChoices::default(),
            configuring: None,
            show_stats: false,
            show_parity: true,
            show_cited: false,
            turn_times: super::turn_stats::TurnTimes::default(),
            word_counts: super::word_counts::WordCounts::default(),
            likeness: super::likeness::Likeness::default(),
            clock: (Instant::now(), 0),
            event_ms: 0,
            notice_run: false,
            watched_live: false,
        }
    }

    /// Opens the start screen's topic editor.
    pub fn show_start(&mut self) {
        self.start = Some(super::modal::topic_area("Type the proposition to debate, then press Enter"));
        self.recent_chosen = None;
    }

    /// A fresh debate begins: clear the old one from view.
    pub fn begin(&mut self, session: String) {
        self.debate = DebateState::default();
        self.session = Some(session);
        self.panes = Role::ALL.map(Pane::new);
        self.start = None;
        self.recent_chosen = None;
        self.retry_at = [None; Role::COUNT];
        self.thinking_since = [None; Role::COUNT];
        self.pause_requested = None;
        self.replay = None;
        self.replay_clock = None;
        self.flash = None;
        self.search = None;
        self.turn_times = super::turn_stats::TurnTimes::default();
        self.word_counts = super::word_counts::WordCounts::default();
        self.clock = (Instant::now(), 0);
        self.event_ms = 0;
        if self.notice.as_deref() == Some(SCRIPTED_NOTE) {
            self.notice = None;
        }
    }

    /// Sets the debate's clock to `ms` now (a resumed debate's goes on
    /// from its log's last event).
    pub fn continue_clock(&mut self, ms: u64) {
        self.clock = (Instant::now(), ms);
    }

    /// The debate's clock at `at`.
    fn clock_at(&self, at: Instant) -> u64 {
        self.clock.1 + u64::try_from(at.saturating_duration_since(self.clock.0).as_millis()).unwrap_or(u64::MAX)
    }

    /// "14.2 s · 18 tok/s" for a role's turn in the current round (the one
    /// its title's state is about), while asked for: so far while it runs (a
    /// replay's clock stands at its latest event), nothing for a turn left
    /// open when the debate ended.
    pub fn turn_stats(&self, role: Role) -> Option<String> {
        if !self.show_stats {
            return None;
        }
        let time = self.turn_times.0[role.position()]?;
        if self.debate.current_round().map(|r| r.number) != Some(time.round) {
            return None;
        }
        if time.ended.is_none() && self.debate.finish.is_some() {
            return None;
        }
        let now = if self.replay.is_some() { self.event_ms } else { self.clock_at(self.now) };
        Some(time.describe(now.max(self.event_ms)))
    }

    pub fn focused_role(&self) -> Role {
        Role::at(self.focus).unwrap_or(Role::Judge)
    }

    /// The seats that sit, in screen order (the duel's three before a
    /// debate starts): the panes drawn, the tabs, the header's chips.
    pub fn seats(&self) -> Vec<Role> {
        self.debate.seats()
    }

    /// Focuses the next (or previous) sitting seat's pane, round the ends.
    pub fn cycle_focus(&mut self, forward: bool) {
        let seats = self.seats();
        let at = seats.iter().position(|r| r.position() == self.focus);
        let next = match at {
            Some(i) if forward => (i + 1) % seats.len(),
            Some(i) => (i + seats.len() - 1) % seats.len(),
            None => 0,
        };
        if let Some(role) = seats.get(next) {
            self.focus = role.position();
        }
        self.focus_chosen = true;
    }

    /// Keeps the focus on a seat that sits (a format that seats no judge,
    /// or fewer debaters, may arrive after the focus moved).
    fn focus_a_sitting_seat(&mut self) {
        let seats = self.seats();
        if !seats.iter().any(|r| r.position() == self.focus)
            && let Some(first) = seats.first()
        {
            self.focus = first.position();
        }
    }

    /// Says something in the status line until something newer is said.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.say_until(tone, text, Until::Replaced);
    }

    /// Says something in the status line for as long as `until` allows.
    pub fn say_until(&mut self, tone: Tone, text: impl Into<String>, until: Until) {
        self.flash = Some(Flash { text: text.into(), tone, until });
    }

    /// Whether this studio can start a debate.
    pub fn starts_debates(&self) -> bool {
        self.mode == Mode::Debates
    }

    /// Whether any model call is under way.
    pub fn streaming(&self) -> bool {
        self.debate.finish.is_none()
            && self.debate.current_round().is_some_and(|r| r.turns.iter().any(crate::debate::state::Turn::is_open))
    }

    pub fn live(&self) -> bool {
        self.session.is_some() && self.debate.finish.is_none()
    }

    pub fn paused(&self) -> bool {
        self.replay == Some(Replay::Paused) || self.pause_requested.unwrap_or(self.debate.paused)
    }

    /// Whether a role's turn in the current round is under way.
    pub fn turn_open(&self, role: Role) -> bool {
        self.debate.current_round().and_then(|r| r.turn(role)).is_some_and(crate::debate::state::Turn::is_open)
    }

    /// Whether a role's turn runs on while the debate is paused: a server
    /// does not wait, so its answer finishes in the background and shows on
    /// resume (the offline model stops where it is).
    pub fn finishing(&self, role: Role) -> bool {
        let in_place = self.roster.iter().any(|e| e.role == role && e.pauses_in_place);
        self.turn_open(role) && !in_place && self.paused() && self.replay.is_none() && self.debate.finish.is_none()
    }

    /// Folds one engine event into the view, as happening now.
    pub fn on_event(&mut self, event: &DebateEvent) {
        self.on_event_at(event, self.clock_at(Instant::now()));
    }

    /// Folds one event that happened at `ms` on the debate's clock (a
    /// stored event's recorded time).
    pub fn on_event_at(&mut self, event: &DebateEvent, ms: u64) {
        self.event_ms = ms;
        self.turn_times.record(event, ms);
        self.debate.apply(event);
        self.word_counts.record(event, &self.debate);
        // Only the format says which seats sit: a token need not ask.
        if matches!(event, DebateEvent::Formatted { .. }) {
            self.focus_a_sitting_seat();
        }
        // What the status line said is over: it goes before anything newer is said.
        if self.flash.as_ref().is_some_and(|f| f.until.over(event, &self.debate)) {
            self.flash = None;
        }
        if self.replay.is_some() || self.watching() {
            self.narrate_steering(event);
        }
        match event {
            DebateEvent::Started { .. } if self.debate.is_scripted() => self.notice = Some(SCRIPTED_NOTE.into()),
            DebateEvent::Paused | DebateEvent::Resumed => self.pause_requested = None,
            DebateEvent::RoundStarted { .. } if !self.focus_chosen => self.focus = 0,
            DebateEvent::TurnStarted { role, .. } => {
                self.thinking_since[role.position()] = Some(Instant::now());
                if role.is_judge() && !self.focus_chosen {
                    self.focus = Role::Judge.position();
                }
            }
            DebateEvent::TurnRetrying { role, attempt, max_retries, delay_ms, reason, .. } => {
                self.retry_at[role.position()] = Some(self.now + Duration::from_millis(*delay_ms));
                self.panes[role.position()].reset_last();
                let secs = delay_ms.div_ceil(1000);
                let reason = clean(reason);
                let text =
                    format!("{}: {reason}; retry {attempt} of {max_retries} in {secs} s", self.debate.label(*role));
                self.say_until(Tone::Warn, text, Until::Answer(*role));
            }
            DebateEvent::Delta { role, .. } | DebateEvent::TurnCompleted { role, .. } => {
                self.retry_at[role.position()] = None;
                self.thinking_since[role.position()] = None;
            }
            DebateEvent::EndpointAdapted { message, .. } => {
                // It holds for the rest of the debate: it stands when nothing newer is shown.
                self.notice = Some(clean(message));
                self.say(Tone::Info, clean(message));
            }
            DebateEvent::TurnFailed { role, error, .. } => {
                self.retry_at[role.position()] = None;
                self.say(Tone::Error, format!("{} failed: {}", self.debate.label(*role), clean(error)));
            }
            DebateEvent::VerdictInvalid { error, will_retry, .. } => {
                let then = if *will_retry { "asking the judge again" } else { "keeping the current heat" };
                self.say(Tone::Warn, format!("The verdict could not be used ({}); {then}", clean(error)));
            }
            DebateEvent::Notice { message } => match &mut self.flash {
                Some(flash) if self.notice_run && flash.tone == Tone::Info => {
                    flash.text = format!("{} · {}", flash.text, clean(message));
                }
                _ => self.say(Tone::Info, clean(message)),
            },
            DebateEvent::Finished { outcome, .. } => {
                let tone = match outcome {
                    Outcome::Failed(_) | Outcome::Invalidated(_) => Tone::Error,
                    Outcome::Cancelled => Tone::Warn,
                    _ => Tone::Good,
                };
                let hint = self.finished_hint();
                // The results open over the panes when the debate came to an end: not over a
                // failure, whose sentence and fix must stay in view, nor when the person stopped it.
                let concluded = !matches!(outcome, Outcome::Cancelled | Outcome::Failed(_) | Outcome::Invalidated(_));
                if self.modal.is_none() && concluded {
                    self.modal = Some(super::modal::Modal::Results(super::modal::Results::default()));
                }
                let outcome = clean(&outcome.describe());
                self.say(tone, format!("Debate over: {}. {hint}", crate::sanitize::clause(&outcome)));
            }
            _ => {}
        }
        self.notice_run = matches!(event, DebateEvent::Notice { .. });
    }

    /// What can follow an ended debate: a replay studio starts no debate,
    /// but opens others; a watch only shows this one.
    pub fn finished_hint(&self) -> String {
        use super::keymap::Action;
        let next = match self.mode {
            Mode::Debates => format!("{} new debate · ", self.keymap.hint(Action::NewDebate)),
            Mode::Replays => format!("{} sessions · ", self.keymap.hint(Action::Sessions)),
            Mode::Watch => String::new(),
        };
        format!(
            "{} results · {next}{} export · {} quit",
            self.keymap.hint(Action::Results),
            self.keymap.hint(Action::Export),
            self.keymap.hint(Action::Quit)
        )
    }

    /// Makes this studio a watch of the shown session: read-only, said in
    /// the header and, while nothing newer is said, the status line.
    /// `live`: whether another heat runs the debate.
    pub fn watch(&mut self, live: bool) {
        self.mode = Mode::Watch;
        self.watched_live = live;
        // The header names the session; this fits 80 columns.
        self.notice = Some(format!("A watch, read-only: {}", super::input::STEERED_ELSEWHERE));
    }

    /// Whether this studio follows another heat's debate (`heat watch`).
    pub fn watching(&self) -> bool {
        self.mode == Mode::Watch
    }

    /// In a replay or a watch, says what the person at the keyboard did
    /// when they did it (live, the key that did it says so).
    fn narrate_steering(&mut self, event: &DebateEvent) {
        let text = match event {
            DebateEvent::TopicInjected { text } => format!("Topic injected: {}", clean(text)),
            DebateEvent::TemperaturePinned { heat } => {
                format!("Heat pinned at {heat:.2}: it holds, whatever the judge sets")
            }
            DebateEvent::TemperatureReleased => "Heat released: the judge sets it again".into(),
            DebateEvent::ResolutionForced => "Resolution forced: the judge sums up once this round is argued".into(),
            _ => return,
        };
        self.say_until(Tone::Info, text, Until::NextRound);
    }

    /// Seconds until a role's retry, while it waits.
    pub fn retry_in(&self, role: Role) -> Option<u64> {
        let turn = self.debate.current_round()?.turn(role)?;
        if !matches!(turn.status, TurnStatus::Retrying { .. }) {
            return None;
        }
        let at = self.retry_at[role.position()]?;
        Some(at.saturating_duration_since(self.now).as_secs_f32().ceil() as u64)
    }

    /// Whole seconds a role's turn has waited for its first word, while it
    /// still waits (not paused, not retrying).
    pub fn thinking_for(&self, role: Role) -> Option<u64> {
        let turn = self.debate.current_round()?.turn(role)?;
        let waiting = turn.status == TurnStatus::Streaming && turn.text.is_empty() && turn.reasoning.is_empty();
        if !waiting || self.paused() || self.debate.finish.is_some() {
            return None;
        }
        let since = self.thinking_since[role.position()]?;
        Some(self.now.saturating_duration_since(since).as_secs())
    }

    /// Whether the screen changes with time alone: a retry countdown, or
    /// the seconds a turn has waited for its first word (a tick a second,
    /// only while something is waited for).
    pub fn animating(&self) -> bool {
        self.seats().into_iter().any(|r| self.retry_in(r).is_some() || self.thinking_for(r).is_some())
    }

    /// Lays out the pane of every seat that sits for the area it will be
    /// drawn in. Where one pane shows at a time, the hidden ones are laid
    /// out for the same area, so a search finds what they hold and
    /// switching shows them at once.
    pub fn prepare(&mut self, widths: [u16; Role::COUNT], heights: [u16; Role::COUNT]) {
        self.now = Instant::now();
        self.likeness.refresh(&self.debate);
        let shared = (0..Role::COUNT).max_by_key(|&i| widths[i]).map_or((0, 0), |i| (widths[i], heights[i]));
        let seats = self.seats();
        for (i, pane) in self.panes.iter_mut().enumerate() {
            let (width, height) = if widths[i] == 0 { shared } else { (widths[i], heights[i]) };
            if width == 0 || !seats.contains(&pane.role) {
                continue;
            }
            pane.height = usize::from(height);
            pane.show_cited = self.show_cited;
            pane.update(&self.debate, width, &self.theme, self.show_reasoning);
        }
    }

    /// How many of the current round's turns are streaming now.
    pub fn streams(&self) -> usize {
        self.debate
            .current_round()
            .map_or(0, |round| round.turns.iter().filter(|t| matches!(t.status, TurnStatus::Streaming)).count())
    }

    /// Total tokens the providers reported: (input, output).
    pub fn usage(&self) -> Option<(u64, u64)> {
        cost::tokens(&self.debate)
    }

    /// Of the input tokens, how many the providers read from their prompt cache.
    pub fn cached_input(&self) -> u64 {
        cost::cached_input(&self.debate)
    }

    /// What the debate has cost so far, in US dollars: only when every role
    /// Every price configured: the roster's seats' and the panel judges'.
    pub fn prices(&self) -> cost::Prices {
        cost::Prices {
            seats: self.roster.iter().filter_map(|e| Some((e.role, e.price?))).collect(),
            judges: self.judge_prices.clone(),
        }
    }

    /// that reported usage has a configured price (no guessing).
    pub fn cost(&self) -> Option<f64> {
        cost::cost(&self.debate, &self.prices())
    }
}
