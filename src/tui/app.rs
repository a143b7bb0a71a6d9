//! The studio's state: the folded debate plus what the view adds (focus,
//! scroll, the open dialog, the status line), and how engine events change
//! it. Keys are handled in `input`.

use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use ratatui_textarea::TextArea;

pub use super::flash::{Flash, Tone, Until};
use super::keymap::KeyMap;
use super::pane::Pane;
use super::theme::Theme;
use crate::debate::state::TurnStatus;
use crate::debate::{Command, DebateEvent, DebateState, Outcome, Role};
use crate::sanitize::clean;

/// What the studio asks its event loop to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Pass a command to the running debate.
    Send(Command),
    /// Stop any running debate and start one on this topic.
    Start(String),
    /// Write the debate as Markdown.
    Export,
    /// Stop the debate, save it and leave.
    Quit,
    /// Leave now (a second Ctrl-C).
    HardQuit,
    /// Open the session browser (the loop fills it from the store).
    Sessions,
    /// Show a stored session, continuing it when it can go on.
    Open(String),
    /// Export a stored session as Markdown.
    ExportSession(String),
    /// Delete a stored session.
    Delete(String),
    /// Install the offline model (offered by the start screen).
    InstallModel,
}

/// A dialog over the panes.
pub enum Modal {
    Help(super::help::HelpView),
    Sessions(super::browser::Browser),
    Confirm(Confirm),
    Editor(Box<Editor>),
    Temperature(TempEditor),
}

/// What a studio is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Debates are started, continued and shown (`heat`, `heat resume`).
    Debates,
    /// Stored debates are played back or opened; none is started (`heat replay`).
    Replays,
}

/// Where a replay stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    Playing,
    Paused,
    /// Every recorded event has been shown.
    Ended,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Confirm {
    Force,
    Quit,
    /// Stop the running debate to start or open another: what comes next.
    Replace(Box<Effect>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorPurpose {
    Inject,
    NewTopic,
}

pub struct Editor {
    pub purpose: EditorPurpose,
    pub area: TextArea<'static>,
}

/// The heat being chosen: arrows step it, digits type it.
#[derive(Debug, Clone, PartialEq)]
pub struct TempEditor {
    pub value: f32,
    pub typed: Option<String>,
    pub error: Option<String>,
}

/// Who speaks for each role, for titles and the start screen.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterEntry {
    pub role: Role,
    pub provider: String,
    pub model: String,
    /// US dollars per million input and output tokens, when configured.
    pub price: Option<(f64, f64)>,
    /// The model stops where it is while the debate is paused (the offline
    /// one); a server's answer finishes in the background instead.
    pub pauses_in_place: bool,
}

pub struct App {
    pub debate: DebateState,
    pub session: Option<String>,
    pub panes: [Pane; 3],
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
    pub retry_at: [Option<Instant>; 3],
    /// Since when each role's turn has waited for its first word.
    pub thinking_since: [Option<Instant>; 3],
    pub show_reasoning: bool,
    pub keymap: KeyMap,
    pub theme: Theme,
    pub roster: Vec<RosterEntry>,
    /// Recent sessions for the start screen: (id, one-line description).
    pub recent: Vec<(String, String)>,
    /// The start screen's chosen recent debate, while the list has the
    /// keys (`None`: the proposition has them).
    pub recent_chosen: Option<usize>,
    /// What this studio is for: `heat replay` opens one that starts no debate.
    pub mode: Mode,
    /// Where a stored debate being played back stands.
    pub replay: Option<Replay>,
    /// A pause or resume sent but not yet confirmed by the engine.
    pub pause_requested: Option<bool>,
    pub interrupts: u8,
    pub now: Instant,
    /// Where each pane was drawn, for the mouse wheel.
    pub pane_areas: [Rect; 3],
    /// Whether the last draw showed one pane at a time (narrow terminal).
    pub tabs: bool,
    /// The offline model's install, when the start screen offers it.
    pub install: Option<super::install::InstallState>,
    /// A proposition waiting for the install to finish.
    pub queued_topic: Option<String>,
    /// What each pane's text area showed at the last frame.
    pub retained: super::view::Retained,
}

pub fn role_index(role: Role) -> usize {
    match role {
        Role::Advocate => 0,
        Role::Skeptic => 1,
        Role::Judge => 2,
    }
}

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
            retry_at: [None; 3],
            thinking_since: [None; 3],
            show_reasoning: true,
            keymap,
            theme,
            roster,
            recent: Vec::new(),
            recent_chosen: None,
            mode: Mode::Debates,
            replay: None,
            pause_requested: None,
            interrupts: 0,
            now: Instant::now(),
            pane_areas: [Rect::default(); 3],
            tabs: false,
            install: None,
            queued_topic: None,
            retained: super::view::Retained::default(),
        }
    }

    /// Opens the start screen's topic editor.
    pub fn show_start(&mut self) {
        self.start = Some(super::input::topic_area("Type the proposition to debate, then press Enter"));
        self.recent_chosen = None;
    }

    /// A fresh debate begins: clear the old one from view.
    pub fn begin(&mut self, session: String) {
        self.debate = DebateState::default();
        self.session = Some(session);
        self.panes = Role::ALL.map(Pane::new);
        self.start = None;
        self.recent_chosen = None;
        self.retry_at = [None; 3];
        self.thinking_since = [None; 3];
        self.pause_requested = None;
        self.replay = None;
        self.flash = None;
    }

    pub fn focused_role(&self) -> Role {
        Role::ALL[self.focus]
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

    /// Folds one engine event into the view.
    pub fn on_event(&mut self, event: &DebateEvent) {
        self.debate.apply(event);
        // What the status line said is over: it goes before anything newer is said.
        if self.flash.as_ref().is_some_and(|f| f.until.over(event, &self.debate)) {
            self.flash = None;
        }
        match event {
            DebateEvent::Paused | DebateEvent::Resumed => self.pause_requested = None,
            DebateEvent::RoundStarted { .. } if !self.focus_chosen => self.focus = 0,
            DebateEvent::TurnStarted { role, .. } => {
                self.thinking_since[role_index(*role)] = Some(Instant::now());
                if *role == Role::Judge && !self.focus_chosen {
                    self.focus = 2;
                }
            }
            DebateEvent::TurnRetrying { role, attempt, max_retries, delay_ms, reason, .. } => {
                self.retry_at[role_index(*role)] = Some(self.now + Duration::from_millis(*delay_ms));
                self.panes[role_index(*role)].reset_last();
                let secs = delay_ms.div_ceil(1000);
                let reason = clean(reason);
                let text = format!("{}: {reason}; retry {attempt} of {max_retries} in {secs} s", role.label());
                self.say_until(Tone::Warn, text, Until::Answer(*role));
            }
            DebateEvent::Delta { role, .. } | DebateEvent::TurnCompleted { role, .. } => {
                self.retry_at[role_index(*role)] = None;
                self.thinking_since[role_index(*role)] = None;
            }
            DebateEvent::EndpointAdapted { message, .. } => {
                // It holds for the rest of the debate: it stands when nothing newer is shown.
                self.notice = Some(clean(message));
                self.say(Tone::Info, clean(message));
            }
            DebateEvent::TurnFailed { role, error, .. } => {
                self.retry_at[role_index(*role)] = None;
                self.say(Tone::Error, format!("{} failed: {}", role.label(), clean(error)));
            }
            DebateEvent::VerdictInvalid { error, will_retry, .. } => {
                let then = if *will_retry { "asking the judge again" } else { "keeping the current heat" };
                self.say(Tone::Warn, format!("The verdict could not be used ({}); {then}", clean(error)));
            }
            DebateEvent::Notice { message } => self.say(Tone::Info, clean(message)),
            DebateEvent::Finished { outcome, .. } => {
                let tone = match outcome {
                    Outcome::Failed(_) => Tone::Error,
                    Outcome::Cancelled => Tone::Warn,
                    _ => Tone::Good,
                };
                // What can follow: a replay studio starts no debate, but opens others.
                let (next, what) = if self.starts_debates() {
                    (super::keymap::Action::NewDebate, "new debate")
                } else {
                    (super::keymap::Action::Sessions, "sessions")
                };
                let hint = format!(
                    "{} {what} · {} export · {} quit",
                    self.keymap.hint(next),
                    self.keymap.hint(super::keymap::Action::Export),
                    self.keymap.hint(super::keymap::Action::Quit)
                );
                let outcome = clean(&outcome.describe());
                self.say(tone, format!("Debate over: {}. {hint}", crate::sanitize::clause(&outcome)));
            }
            _ => {}
        }
    }

    /// Seconds until a role's retry, while it waits.
    pub fn retry_in(&self, role: Role) -> Option<u64> {
        let turn = self.debate.current_round()?.turn(role)?;
        if !matches!(turn.status, TurnStatus::Retrying { .. }) {
            return None;
        }
        let at = self.retry_at[role_index(role)]?;
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
        let since = self.thinking_since[role_index(role)]?;
        Some(self.now.saturating_duration_since(since).as_secs())
    }

    /// Whether the screen changes with time alone: a retry countdown, or
    /// the seconds a turn has waited for its first word (a tick a second,
    /// only while something is waited for).
    pub fn animating(&self) -> bool {
        Role::ALL.iter().any(|&r| self.retry_in(r).is_some() || self.thinking_for(r).is_some())
    }

    /// Lays out every pane for the areas they will be drawn in.
    pub fn prepare(&mut self, widths: [u16; 3], heights: [u16; 3]) {
        self.now = Instant::now();
        for (i, pane) in self.panes.iter_mut().enumerate() {
            if widths[i] == 0 {
                continue;
            }
            pane.height = usize::from(heights[i]);
            pane.update(&self.debate, widths[i], &self.theme, self.show_reasoning);
        }
    }

    /// Total tokens the providers reported: (input, output).
    pub fn usage(&self) -> Option<(u64, u64)> {
        let mut seen = false;
        let (mut input, mut output) = (0, 0);
        for turn in self.debate.rounds.iter().flat_map(|r| &r.turns) {
            if let Some(u) = turn.usage {
                seen = true;
                input += u.input_tokens;
                output += u.output_tokens;
            }
        }
        seen.then_some((input, output))
    }

    /// What the debate has cost so far, in US dollars: only when every role
    /// that reported usage has a configured price (no guessing).
    pub fn cost(&self) -> Option<f64> {
        let mut total = 0.0;
        let mut seen = false;
        for turn in self.debate.rounds.iter().flat_map(|r| &r.turns) {
            let Some(usage) = turn.usage else { continue };
            let (input, output) = self.roster.iter().find(|e| e.role == turn.role)?.price?;
            total += (usage.input_tokens as f64 * input + usage.output_tokens as f64 * output) / 1e6;
            seen = true;
        }
        seen.then_some(total)
    }
}
