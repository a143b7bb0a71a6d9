//! The studio's state: the folded debate and the parts of the screen it is
//! shown on (the panes, the start screen, the status line, the clocks, the
//! open dialog), how engine events change them, and how what a dialog or
//! the start screen asks for is applied. Keys are read in `input`; every
//! dialog answers a key in one shape (`Modal::key`: a `FormStep` of a
//! `DialogAsk`), applied here by one function (`answer`).

use crate::debate::PanelJudge;
use crossterm::event::KeyEvent;

use super::clocks::Clocks;
use super::effect::Effect;
pub use super::flash::{Flash, StatusLine, Tone, Until};
use super::keymap::{Action, KeyMap};
use super::modal::{Confirm, DialogAsk, EditorPurpose, FormStep, Modal};
pub use super::options::{Mode, StudioOptions};
use super::paged::Fit;
use super::panes::Panes;
use super::person_turn::PersonTurn;
pub use super::replay::{Replay, ReplayClock, speed_label};
use super::results::{Results, ResultsAsk};
use super::roster::RosterEntry;
use super::stage::Stage;
use super::start::StartScreen;
use super::steer;
use super::theme::Theme;
use super::{likeness::Likeness, word_counts::WordCounts};
use crate::config::studio::FIELDS;
use crate::debate::cost::{self, Price};
use crate::debate::state::Turn;
use crate::debate::{DebateEvent, DebateState, Outcome, Role};
use crate::sanitize::clean;
use crate::store::log::Record;

pub struct App {
    pub debate: DebateState,
    pub session: Option<String>,
    pub panes: Panes,
    pub modal: Option<Modal>,
    pub start: StartScreen,
    pub status: StatusLine,
    pub clocks: Clocks,
    pub keymap: KeyMap,
    pub theme: Theme,
    pub roster: Vec<RosterEntry>,
    /// The prices of a panel's judges 2 to 5 that have their own.
    pub judge_prices: Vec<(PanelJudge, Price)>,
    /// What this studio is for: `heat replay` opens one that starts no debate.
    pub mode: Mode,
    /// Where a stored debate being played back stands.
    pub replay: Option<Replay>,
    /// How far a replay has got, and at what speed.
    pub replay_clock: Option<ReplayClock>,
    /// A pause or resume sent but not yet confirmed by the engine.
    pub pause_requested: Option<bool>,
    pub interrupts: u8,
    /// Whether the header shows each side's words this round (`ui.length_parity`).
    pub show_parity: bool,
    /// Each turn's words, counted as it streams (the header reads them every frame).
    pub word_counts: WordCounts,
    /// How alike the current round's two arguments are, measured when they change.
    pub likeness: Likeness,
    /// In a watch: whether another heat was running the debate when it
    /// opened (a debate stopped unfinished is shown as not running).
    pub watched_live: bool,
    /// In a watch: whether the heat running the debate takes steering from
    /// a watch (`heat run`, a tournament, `heat mcp`; not a studio, whose
    /// operator steers at its own keyboard).
    pub watched_steers: bool,
    /// The turn the debate waits on the person for, in a seat they take.
    pub person: Option<PersonTurn>,
    /// Presenter mode, a zoomed pane, the verdict card.
    pub stage: Stage,
}

/// The standing note over a scripted debate (the bundled demo).
pub const SCRIPTED_NOTE: &str = "Scripted demo: written in advance to show heat at work; no model is answering";

/// Where a watched debate is steered.
pub const STEERED_ELSEWHERE: &str = "steering happens on the operator's screen";

/// What a watch says when asked to steer: one line, for a projector.
pub const WATCH_REFUSAL: &str = "This is a watch (read-only): steering happens on the operator's screen";

impl App {
    /// The studio `options` open.
    pub fn new(options: StudioOptions) -> Self {
        let StudioOptions {
            theme,
            keymap,
            mode,
            roster,
            judge_prices,
            turn_limit,
            settings,
            formats,
            install,
            recent,
            notice,
            show_stats,
            follow_by,
            show_parity,
            present,
            card_for,
        } = options;
        let start = StartScreen { recent, settings, formats, install, ..StartScreen::default() };
        let mut panes = Panes::default();
        (panes.show_stats, panes.follow_by) = (show_stats, follow_by);
        let mut status = StatusLine::default();
        status.notice = notice;
        let mut clocks = Clocks::default();
        clocks.turn_limit = turn_limit;
        App {
            debate: DebateState::default(),
            session: None,
            panes,
            modal: None,
            start,
            status,
            clocks,
            keymap,
            theme,
            roster,
            judge_prices,
            mode,
            replay: None,
            replay_clock: None,
            pause_requested: None,
            interrupts: 0,
            show_parity,
            word_counts: WordCounts::default(),
            likeness: Likeness::default(),
            watched_live: false,
            watched_steers: false,
            person: None,
            stage: Stage { present, cards: mode == Mode::Watch, card_for, ..Stage::default() },
        }
    }

    /// A stored debate, `session`, starts playing back along `timeline`
    /// at `speed`.
    pub fn play(&mut self, session: String, timeline: super::replay::Timeline, speed: f64) {
        self.begin(session);
        self.replay = Some(Replay::Playing);
        self.replay_clock = Some(ReplayClock { timeline, played: 0, speed });
    }

    /// The debate played back has sent everything.
    pub fn played_out(&mut self) {
        if self.replay.is_some() {
            self.replay = Some(Replay::Ended);
        }
    }

    /// Opens `dialog` over the screen.
    pub fn open(&mut self, dialog: Modal) {
        self.modal = Some(dialog);
    }

    /// Opens the start screen's topic editor.
    pub fn show_start(&mut self) {
        self.start.open();
    }

    /// A fresh debate begins: clear the old one from view.
    pub fn begin(&mut self, session: String) {
        self.debate = DebateState::default();
        self.session = Some(session);
        self.panes.clear();
        self.start.close();
        self.pause_requested = None;
        self.replay = None;
        self.replay_clock = None;
        self.status.flash = None;
        self.clocks.restart();
        self.word_counts = WordCounts::default();
        self.stage.card = None;
        if self.status.notice.as_deref() == Some(SCRIPTED_NOTE) {
            self.status.notice = None;
        }
    }

    /// Shows stored debate `session` as its records leave it: begun afresh,
    /// each record folded at the time it was recorded. Returns the last
    /// record's time (0 for none), from which a debate that goes on counts.
    pub fn show_stored(&mut self, session: String, records: &[Record]) -> u64 {
        self.begin(session);
        for record in records {
            self.on_event_at(&record.event, record.ms);
        }
        // What was already decided is in the panes: no card goes up for it.
        self.stage.card = None;
        records.last().map_or(0, |r| r.ms)
    }

    /// Sets the debate's clock to `ms` now (a resumed debate's goes on
    /// from its log's last event).
    pub fn continue_clock(&mut self, ms: u64) {
        self.clocks.continue_from(ms);
    }

    /// "14.2 s · 18 tok/s" for a role's turn in the current round, while
    /// pane titles show turn times (`m`).
    pub fn turn_stats(&self, role: Role) -> Option<String> {
        self.panes.show_stats.then(|| self.clocks.turn_stats(&self.debate, role, self.replay.is_some())).flatten()
    }

    pub fn focused_role(&self) -> Role {
        self.panes.focused_role()
    }

    /// The seats that sit, in screen order (the duel's three before a
    /// debate starts): the panes drawn, the tabs, the header's chips.
    pub fn seats(&self) -> Vec<Role> {
        self.debate.seats()
    }

    /// Says something in the status line until something newer is said.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.status.say(tone, text);
    }

    /// Says something in the status line for as long as `until` allows.
    pub fn say_until(&mut self, tone: Tone, text: impl Into<String>, until: Until) {
        self.status.say_until(tone, text, until);
    }

    /// Whether this studio can start a debate.
    pub fn starts_debates(&self) -> bool {
        self.mode == Mode::Debates
    }

    /// Whether any model call is under way.
    pub fn streaming(&self) -> bool {
        self.debate.finish.is_none() && self.debate.current_round().is_some_and(|r| r.turns.iter().any(Turn::is_open))
    }

    pub fn live(&self) -> bool {
        self.session.is_some() && self.debate.finish.is_none()
    }

    pub fn paused(&self) -> bool {
        self.replay == Some(Replay::Paused) || self.pause_requested.unwrap_or(self.debate.paused)
    }

    /// Whether a role's turn in the current round is under way.
    pub fn turn_open(&self, role: Role) -> bool {
        self.debate.current_round().and_then(|r| r.turn(role)).is_some_and(Turn::is_open)
    }

    /// Whether a role's turn runs on while the debate is paused: a server
    /// does not wait, so its answer finishes in the background and is kept
    /// and shown when it completes (the offline model stops where it is).
    pub fn finishing(&self, role: Role) -> bool {
        let in_place = self.roster.iter().any(|e| e.role == role && e.pauses_in_place);
        let held = crate::tui::wait::Wait::held(&self.debate, role);
        self.turn_open(role)
            && !in_place
            && !held
            && self.paused()
            && self.replay.is_none()
            && self.debate.finish.is_none()
    }

    /// Folds one engine event into the view, as happening now.
    pub fn on_event(&mut self, event: &DebateEvent) {
        self.on_event_at(event, self.clocks.at(std::time::Instant::now()));
    }

    /// Folds one event that happened at `ms` on the debate's clock (a
    /// stored event's recorded time).
    pub fn on_event_at(&mut self, event: &DebateEvent, ms: u64) {
        self.clocks.record(event, ms);
        self.debate.apply(event);
        self.word_counts.record(event, &self.debate);
        // Only the format says which seats sit: a token need not ask.
        if matches!(event, DebateEvent::Formatted { .. }) {
            self.panes.focus_a_sitting_seat(&self.debate.seats());
        }
        // What the status line said is over: it goes before anything newer is said.
        self.status.expire(event, &self.debate);
        if (self.replay.is_some() || self.watching())
            && let Some(text) = steer::narrate(&self.debate, event)
        {
            self.say_until(Tone::Info, text, Until::NextRound);
        }
        match event {
            DebateEvent::Started { .. } if self.debate.is_scripted() => {
                self.status.notice = Some(SCRIPTED_NOTE.into());
            }
            DebateEvent::Paused | DebateEvent::Resumed => self.pause_requested = None,
            DebateEvent::RoundStarted { .. } => self.panes.follow_speaker(Role::Advocate),
            DebateEvent::TurnStarted { role, .. } if role.is_judge() => self.panes.follow_speaker(Role::Judge),
            DebateEvent::TurnRetrying { role, .. } => self.panes[role.position()].reset_last(),
            DebateEvent::Finished { outcome, .. } => self.finished(outcome),
            // An ending set aside for more rounds: its results give way to the rounds (in a replay too).
            DebateEvent::RoundsAdded { .. } if matches!(self.modal, Some(Modal::Results(_))) => self.modal = None,
            _ => {}
        }
        self.status.on_event(event, &self.debate, &self.keymap);
        self.stage.on_event(event, std::time::Instant::now);
        self.status.after(event);
    }

    /// The debate ended: say how, and open the results over the panes when
    /// it came to an end (not over a failure, whose sentence and fix must
    /// stay in view, nor when the person stopped it).
    fn finished(&mut self, outcome: &Outcome) {
        let tone = match outcome {
            Outcome::Failed(_) | Outcome::Invalidated(_) => Tone::Error,
            Outcome::Cancelled => Tone::Warn,
            _ => Tone::Good,
        };
        let hint = self.finished_hint();
        let concluded = outcome.concluded();
        if self.modal.is_none() && concluded {
            self.modal = Some(Modal::Results(Results::default()));
        }
        let outcome = clean(&outcome.describe());
        self.say(tone, format!("Debate over: {}. {hint}", crate::sanitize::clause(&outcome)));
    }

    /// What can follow an ended debate: a replay studio starts no debate,
    /// but opens others; a watch only shows this one.
    pub fn finished_hint(&self) -> String {
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
    /// the header and, while nothing newer is said, the status line (beside
    /// a notice already there: where the audience page is).
    /// `live`: whether another heat runs the debate; `steers`: whether
    /// that heat takes steering from here.
    pub fn watch(&mut self, live: bool, steers: bool) {
        // What the history said in passing is over; the watch says what it is.
        self.status.flash = None;
        self.mode = Mode::Watch;
        self.watched_live = live;
        self.watched_steers = live && steers;
        // The header names the session; this fits 80 columns.
        let what = if self.watched_steers { "A watch: your steering reaches the debate" } else { "A watch, read-only" };
        self.status.notice = Some(match self.status.notice.take() {
            Some(notice) => format!("{what} · {notice}"),
            None if self.watched_steers => what.to_string(),
            None => format!("{what}: {STEERED_ELSEWHERE}"),
        });
    }

    /// Whether this studio's keys steer the debate it shows: one running
    /// here, or one another heat runs that takes steering from a watch.
    pub fn steers_here(&self) -> bool {
        !self.watching() || (self.watched_steers && self.live())
    }

    /// Whether a person seated in the debate answers on this screen: the
    /// studio that runs it, not a watch or a replay.
    pub fn person_here(&self) -> bool {
        self.mode == Mode::Debates && self.replay.is_none()
    }

    /// Whether this studio follows another heat's debate (`heat watch`).
    pub fn watching(&self) -> bool {
        self.mode == Mode::Watch
    }

    /// Seconds until a role's retry, while it waits.
    pub fn retry_in(&self, role: Role) -> Option<u64> {
        self.clocks.retry_in(&self.debate, role)
    }

    /// Whole seconds a role's turn has waited for its first word, while it
    /// still waits (not paused, not retrying).
    pub fn thinking_for(&self, role: Role) -> Option<u64> {
        self.clocks.thinking_for(&self.debate, role, self.paused())
    }

    /// Whole seconds left of a debater's turn under `debate.turn_seconds`,
    /// while it streams live (a replay's recorded turns have no countdown).
    pub fn time_left(&self, role: Role) -> Option<u64> {
        if self.replay.is_some() || self.watching() {
            return None;
        }
        self.clocks.time_left(&self.debate, role)
    }

    /// Whether the screen changes with time alone: a retry countdown, or
    /// the seconds a turn has waited for its first word (a tick a second,
    /// only while something is waited for).
    pub fn animating(&self) -> bool {
        self.seats()
            .into_iter()
            .any(|r| self.retry_in(r).is_some() || self.thinking_for(r).is_some() || self.time_left(r).is_some())
            || self.stage.timed_card()
    }

    /// Before a frame is drawn: lays out the pane of every seat that sits
    /// for where it goes (`areas`, and the text area inside each), and
    /// fits a dialog read by scrolling to the rows it has (`paged`: its
    /// rows in all, and shown).
    pub fn lay_out(&mut self, areas: [ratatui::layout::Rect; Role::COUNT], paged: Option<Fit>) {
        self.clocks.now = std::time::Instant::now();
        self.stage.expire(self.clocks.now);
        self.likeness.refresh(&self.debate);
        let seats = self.seats();
        // A focused pane the layout hides (the judge's, under presenter mode's strip) gives
        // the focus to the first pane shown, so the keys move what the room sees.
        if areas[self.panes.focus].is_empty()
            && let Some(shown) = areas.iter().position(|a| !a.is_empty())
        {
            self.panes.focus = shown;
        }
        self.panes.person_here = self.person_here();
        self.panes.lay_out(areas, &seats, &self.debate, &self.theme);
        let Some(Fit { total, rows, items, chosen_at }) = paged else { return };
        match &mut self.modal {
            Some(Modal::Help(view)) => view.fit(total, rows),
            Some(Modal::Sent(view)) => view.paged.fit(total, rows),
            Some(Modal::Results(view)) => view.fit(total, rows),
            Some(Modal::Map(view)) => view.fit(total, rows, items, chosen_at),
            _ => {}
        }
    }

    /// Every price configured: the roster's seats' and the panel judges'.
    pub fn prices(&self) -> cost::Prices {
        cost::Prices {
            seats: self.roster.iter().filter_map(|e| Some((e.role, e.price?))).collect(),
            judges: self.judge_prices.clone(),
        }
    }

    /// A key while a dialog is open: the dialog changes itself and says
    /// what it asks for; this applies it.
    pub(super) fn on_modal_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let effects = self.dialog_key(key);
        // Why the dialog could not do what was asked goes when it closes.
        if self.modal.is_none() {
            self.status.dialog_closed();
        }
        effects
    }

    /// The key applied to the open dialog: it answers in one shape
    /// (`Modal::key`), applied here.
    fn dialog_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(mut dialog) = self.modal.take() else { return Vec::new() };
        match dialog.key(&key, &self.keymap) {
            FormStep::Stay => self.modal = Some(dialog),
            FormStep::Refuse(why) => {
                self.say_until(Tone::Warn, why, Until::Dialog);
                self.modal = Some(dialog);
            }
            FormStep::Close => {}
            FormStep::Ask(asked) => {
                self.modal = Some(dialog);
                return self.answer(asked);
            }
            FormStep::Done(asked) => return self.answer(asked),
        }
        Vec::new()
    }

    /// Does what a dialog asked for.
    fn answer(&mut self, asked: DialogAsk) -> Vec<Effect> {
        match asked {
            DialogAsk::Text { purpose, to, text } => return self.edited(purpose, to, text),
            DialogAsk::TurnWaits(area) => self.step_out_of_turn(area),
            DialogAsk::TurnInEditor(area) => {
                if let Some(turn) = &mut self.person {
                    turn.draft = Some(area);
                }
                return vec![Effect::EditTurn];
            }
            DialogAsk::Verdict(given) => return self.record_verdict(given),
            DialogAsk::VerdictWaits(form) => self.step_out_of_verdict(form),
            DialogAsk::TakeBack(what) => return self.apply_steer(steer::take_back(&self.debate, &what)),
            DialogAsk::PinHeat(to, heat) => return self.apply_steer(steer::pin_heat(&self.keymap, &to, heat)),
            DialogAsk::Find(query) => self.find(&query),
            DialogAsk::Configure(form, fields) => {
                self.start.configuring = Some(*form);
                self.say_until(Tone::Info, "Applying the settings…", Until::NextRound);
                return vec![Effect::Configure(fields)];
            }
            DialogAsk::ListModels(provider) => return vec![Effect::ListModels(provider)],
            DialogAsk::Branch(request) => {
                let said = format!("Branching session {} after round {}", request.from, request.round);
                self.say_until(Tone::Info, said, Until::NextRound);
                return vec![Effect::Branch(request)];
            }
            DialogAsk::Confirmed(Confirm::Force) => return self.apply_steer(steer::force(&self.debate)),
            DialogAsk::Confirmed(Confirm::Quit) => return vec![Effect::Quit],
            DialogAsk::Confirmed(Confirm::Replace(next)) => return vec![*next],
            DialogAsk::Replace(next) => return self.ask_before_replacing(next),
            DialogAsk::Do(effect) => return vec![effect],
            DialogAsk::Results(ResultsAsk::Report) => return vec![Effect::Report],
            DialogAsk::Results(ResultsAsk::Summarize(_)) if self.watching() => {
                self.say_until(Tone::Info, WATCH_REFUSAL, Until::NextRound);
            }
            DialogAsk::Results(ResultsAsk::Summarize(fresh)) => {
                return if fresh { vec![Effect::Summarize] } else { Vec::new() };
            }
            DialogAsk::Results(ResultsAsk::Act(action)) => return self.act(action),
            DialogAsk::Map(asked) => return self.steer_on_map(asked),
        }
        Vec::new()
    }

    /// What an editor's text does, once given.
    fn edited(&mut self, purpose: EditorPurpose, to: Vec<Role>, text: String) -> Vec<Effect> {
        match purpose {
            EditorPurpose::Inject => {
                let steered = if to.is_empty() {
                    steer::inject(&self.debate, text)
                } else {
                    steer::note_to(&self.debate, text, to)
                };
                self.apply_steer(steered)
            }
            EditorPurpose::NewTopic => self.ask_before_replacing(Effect::Start(text)),
            EditorPurpose::Question => self.apply_steer(steer::set_question(&self.debate, &self.keymap, &text)),
            EditorPurpose::Turn => self.send_argument(text),
            EditorPurpose::Model(role) => self.apply_steer(steer::change_model(&self.debate, role, &text)),
        }
    }

    /// Starting or opening another debate (`next`) stops the running one:
    /// ask first, as quitting does.
    pub(super) fn ask_before_replacing(&mut self, next: Effect) -> Vec<Effect> {
        if self.live() && self.replay.is_none() {
            self.modal = Some(Modal::Confirm(Confirm::Replace(Box::new(next))));
            return Vec::new();
        }
        vec![next]
    }

    /// Applies a steering action's answer: says it, and returns what it sends.
    pub(super) fn apply_steer(&mut self, steered: steer::Steered) -> Vec<Effect> {
        self.show(steered.said);
        steered.effects
    }

    /// Says a sentence decided elsewhere, for as long as it says.
    pub(super) fn show(&mut self, flash: Flash) {
        let Flash { text, tone, until } = flash;
        self.say_until(tone, text, until);
    }

    /// Who can sit in the seats now, and the prices of a panel's judges.
    pub fn seat(&mut self, roster: Vec<RosterEntry>, judge_prices: Vec<(PanelJudge, Price)>) {
        (self.roster, self.judge_prices) = (roster, judge_prices);
    }

    /// The loop applied the start screen's settings (or could not): the
    /// start screen shows the new ones, or the form comes back saying why.
    pub fn configured(&mut self, result: &Result<[String; FIELDS], String>) {
        match self.start.configured(result) {
            Ok(said) => self.show(said),
            Err(form) => {
                self.modal = Some(Modal::Settings(*form));
                self.status.flash = None;
            }
        }
    }
}
