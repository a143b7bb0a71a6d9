//! The studio: `App` owns its state (`StudioState`: the folded debate and
//! the parts of the screen it is shown on), lends it out read-only, and is
//! the only one to change it: here, how engine events change it and how
//! what a dialog or the start screen asks for is applied; keys in `input`;
//! what the loop's tasks report in `tasks`. Every dialog answers a key in
//! one shape (`Modal::key`: a `FormStep` of a `DialogAsk`), applied here by
//! one function (`answer`).

use crossterm::event::KeyEvent;

mod input;
mod tasks;

use crate::config::studio::FIELDS;
use crate::debate::cost::{self};
use crate::debate::state::Turn;
use crate::debate::{DebateEvent, DebateState, Outcome, Role};
use crate::sanitize::clean;
use crate::store::log::Record;
use crate::tui::clocks::Clocks;
use crate::tui::effect::Effect;
pub use crate::tui::flash::{Flash, StatusLine, Tone, Until};
use crate::tui::keymap::Action;
use crate::tui::modal::{Confirm, DialogAsk, EditorPurpose, FormStep, Modal};
pub use crate::tui::options::{Mode, StudioOptions};
use crate::tui::paged::Fit;
use crate::tui::panes::Panes;
pub use crate::tui::replay::{Replay, ReplayClock, speed_label};
use crate::tui::results::{Results, ResultsAsk};
use crate::tui::stage::Stage;
use crate::tui::start::StartScreen;
use crate::tui::steer;
pub use crate::tui::studio_state::StudioState;
use crate::tui::{likeness::Likeness, word_counts::WordCounts};

/// The studio: its state ([`StudioState`], read by anyone through `Deref`)
/// changed only by its own methods, here and in `input` and `tasks`.
pub struct App {
    state: StudioState,
}

impl std::ops::Deref for App {
    type Target = StudioState;

    fn deref(&self) -> &StudioState {
        &self.state
    }
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
        let state = StudioState {
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
        };
        App { state }
    }

    /// A stored debate, `session`, starts playing back along `timeline`
    /// at `speed`.
    pub fn play(&mut self, session: String, timeline: crate::tui::replay::Timeline, speed: f64) {
        self.begin(session);
        self.state.replay = Some(Replay::Playing);
        self.state.replay_clock = Some(ReplayClock { timeline, played: 0, speed });
    }

    /// The debate played back has sent everything.
    pub fn played_out(&mut self) {
        if self.state.replay.is_some() {
            self.state.replay = Some(Replay::Ended);
        }
    }

    /// Opens `dialog` over the screen.
    pub fn open(&mut self, dialog: Modal) {
        self.state.modal = Some(dialog);
    }

    /// Closes the open dialog.
    pub fn close(&mut self) {
        self.state.modal = None;
    }

    /// Focuses `role`'s pane as the person's choice: the focus no longer
    /// follows the speaker.
    pub fn focus(&mut self, role: Role) {
        self.state.panes.focus = role.position();
        self.state.panes.focus_chosen = true;
    }

    /// The state itself, for a test that stages a screen no sequence of
    /// events reaches quickly. heat's own code never calls it (the
    /// architecture test holds that): it changes the studio through the
    /// methods here and in `input` and `tasks`.
    #[doc(hidden)]
    pub fn staged(&mut self) -> &mut StudioState {
        &mut self.state
    }

    /// Opens the start screen's topic editor.
    pub fn show_start(&mut self) {
        self.state.start.open();
    }

    /// A fresh debate begins: clear the old one from view.
    pub fn begin(&mut self, session: String) {
        self.state.debate = DebateState::default();
        self.state.session = Some(session);
        self.state.panes.clear();
        self.state.start.close();
        self.state.pause_requested = None;
        self.state.replay = None;
        self.state.replay_clock = None;
        self.state.status.flash = None;
        self.state.clocks.restart();
        self.state.word_counts = WordCounts::default();
        self.state.stage.card = None;
        if self.state.status.notice.as_deref() == Some(SCRIPTED_NOTE) {
            self.state.status.notice = None;
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
        self.state.stage.card = None;
        records.last().map_or(0, |r| r.ms)
    }

    /// Sets the debate's clock to `ms` now (a resumed debate's goes on
    /// from its log's last event).
    pub fn continue_clock(&mut self, ms: u64) {
        self.state.clocks.continue_from(ms);
    }

    /// "14.2 s · 18 tok/s" for a role's turn in the current round, while
    /// pane titles show turn times (`m`).
    pub fn turn_stats(&self, role: Role) -> Option<String> {
        self.state
            .panes
            .show_stats
            .then(|| self.state.clocks.turn_stats(&self.state.debate, role, self.state.replay.is_some()))
            .flatten()
    }

    pub fn focused_role(&self) -> Role {
        self.state.panes.focused_role()
    }

    /// The seats that sit, in screen order (the duel's three before a
    /// debate starts): the panes drawn, the tabs, the header's chips.
    pub fn seats(&self) -> Vec<Role> {
        self.state.debate.seats()
    }

    /// Says something in the status line until something newer is said.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.state.status.say(tone, text);
    }

    /// Says something in the status line for as long as `until` allows.
    pub fn say_until(&mut self, tone: Tone, text: impl Into<String>, until: Until) {
        self.state.status.say_until(tone, text, until);
    }

    /// Whether this studio can start a debate.
    pub fn starts_debates(&self) -> bool {
        self.state.mode == Mode::Debates
    }

    /// Whether any model call is under way.
    pub fn streaming(&self) -> bool {
        self.state.debate.finish.is_none()
            && self.state.debate.current_round().is_some_and(|r| r.turns.iter().any(Turn::is_open))
    }

    pub fn live(&self) -> bool {
        self.state.session.is_some() && self.state.debate.finish.is_none()
    }

    pub fn paused(&self) -> bool {
        self.state.replay == Some(Replay::Paused) || self.state.pause_requested.unwrap_or(self.state.debate.paused)
    }

    /// Whether a role's turn in the current round is under way.
    pub fn turn_open(&self, role: Role) -> bool {
        self.state.debate.current_round().and_then(|r| r.turn(role)).is_some_and(Turn::is_open)
    }

    /// Whether a role's turn runs on while the debate is paused: a server
    /// does not wait, so its answer finishes in the background and is kept
    /// and shown when it completes (the offline model stops where it is).
    pub fn finishing(&self, role: Role) -> bool {
        let in_place = self.state.roster.iter().any(|e| e.role == role && e.pauses_in_place);
        let held = crate::tui::wait::Wait::held(&self.state.debate, role);
        self.turn_open(role)
            && !in_place
            && !held
            && self.paused()
            && self.state.replay.is_none()
            && self.state.debate.finish.is_none()
    }

    /// Folds one engine event into the view, as happening now.
    pub fn on_event(&mut self, event: &DebateEvent) {
        self.on_event_at(event, self.state.clocks.at(std::time::Instant::now()));
    }

    /// The next event from the debate's source: a played-back one at the
    /// time its timeline recorded, when it has one.
    pub fn on_source_event(&mut self, event: &DebateEvent) {
        let recorded = self.state.replay_clock.as_mut().and_then(|clock| {
            clock.played += 1;
            clock.timeline.recorded(clock.played - 1)
        });
        match recorded {
            Some(ms) => self.on_event_at(event, ms),
            None => self.on_event(event),
        }
    }

    /// Folds one event that happened at `ms` on the debate's clock (a
    /// stored event's recorded time).
    pub fn on_event_at(&mut self, event: &DebateEvent, ms: u64) {
        self.state.clocks.record(event, ms);
        self.state.debate.apply(event);
        self.state.word_counts.record(event, &self.state.debate);
        // Only the format says which seats sit: a token need not ask.
        if matches!(event, DebateEvent::Formatted { .. }) {
            self.state.panes.focus_a_sitting_seat(&self.state.debate.seats());
        }
        // What the status line said is over: it goes before anything newer is said.
        self.state.status.expire(event, &self.state.debate);
        if (self.state.replay.is_some() || self.watching())
            && let Some(text) = steer::narrate(&self.state.debate, event)
        {
            self.say_until(Tone::Info, text, Until::NextRound);
        }
        match event {
            DebateEvent::Started { .. } if self.state.debate.is_scripted() => {
                self.state.status.notice = Some(SCRIPTED_NOTE.into());
            }
            DebateEvent::Paused | DebateEvent::Resumed => self.state.pause_requested = None,
            DebateEvent::RoundStarted { .. } => self.state.panes.follow_speaker(Role::Advocate),
            DebateEvent::TurnStarted { role, .. } if role.is_judge() => self.state.panes.follow_speaker(Role::Judge),
            DebateEvent::TurnRetrying { role, .. } => self.state.panes[role.position()].reset_last(),
            DebateEvent::Finished { outcome, .. } => self.finished(outcome),
            // An ending set aside for more rounds: its results give way to the rounds (in a replay too).
            DebateEvent::RoundsAdded { .. } if matches!(self.state.modal, Some(Modal::Results(_))) => {
                self.state.modal = None;
            }
            _ => {}
        }
        self.state.status.on_event(event, &self.state.debate, &self.state.keymap);
        self.state.stage.on_event(event, std::time::Instant::now);
        self.state.status.after(event);
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
        if self.state.modal.is_none() && concluded {
            self.state.modal = Some(Modal::Results(Results::default()));
        }
        let outcome = clean(&outcome.describe());
        self.say(tone, format!("Debate over: {}. {hint}", crate::sanitize::clause(&outcome)));
    }

    /// What can follow an ended debate: a replay studio starts no debate,
    /// but opens others; a watch only shows this one.
    pub fn finished_hint(&self) -> String {
        let next = match self.state.mode {
            Mode::Debates => format!("{} new debate · ", self.state.keymap.hint(Action::NewDebate)),
            Mode::Replays => format!("{} sessions · ", self.state.keymap.hint(Action::Sessions)),
            Mode::Watch => String::new(),
        };
        format!(
            "{} results · {next}{} export · {} quit",
            self.state.keymap.hint(Action::Results),
            self.state.keymap.hint(Action::Export),
            self.state.keymap.hint(Action::Quit)
        )
    }

    /// Makes this studio a watch of the shown session: read-only, said in
    /// the header and, while nothing newer is said, the status line (beside
    /// a notice already there: where the audience page is).
    /// `live`: whether another heat runs the debate; `steers`: whether
    /// that heat takes steering from here.
    pub fn watch(&mut self, live: bool, steers: bool) {
        // What the history said in passing is over; the watch says what it is.
        self.state.status.flash = None;
        self.state.mode = Mode::Watch;
        self.state.watched_live = live;
        self.state.watched_steers = live && steers;
        // The header names the session; this fits 80 columns.
        let what =
            if self.state.watched_steers { "A watch: your steering reaches the debate" } else { "A watch, read-only" };
        self.state.status.notice = Some(match self.state.status.notice.take() {
            Some(notice) => format!("{what} · {notice}"),
            None if self.state.watched_steers => what.to_string(),
            None => format!("{what}: {STEERED_ELSEWHERE}"),
        });
    }

    /// Whether this studio's keys steer the debate it shows: one running
    /// here, or one another heat runs that takes steering from a watch.
    pub fn steers_here(&self) -> bool {
        !self.watching() || (self.state.watched_steers && self.live())
    }

    /// Whether a person seated in the debate answers on this screen: the
    /// studio that runs it, not a watch or a replay.
    pub fn person_here(&self) -> bool {
        self.state.mode == Mode::Debates && self.state.replay.is_none()
    }

    /// Whether this studio follows another heat's debate (`heat watch`).
    pub fn watching(&self) -> bool {
        self.state.mode == Mode::Watch
    }

    /// Seconds until a role's retry, while it waits.
    pub fn retry_in(&self, role: Role) -> Option<u64> {
        self.state.clocks.retry_in(&self.state.debate, role)
    }

    /// Whole seconds a role's turn has waited for its first word, while it
    /// still waits (not paused, not retrying).
    pub fn thinking_for(&self, role: Role) -> Option<u64> {
        self.state.clocks.thinking_for(&self.state.debate, role, self.paused())
    }

    /// Whole seconds left of a debater's turn under `debate.turn_seconds`,
    /// while it streams live (a replay's recorded turns have no countdown).
    pub fn time_left(&self, role: Role) -> Option<u64> {
        if self.state.replay.is_some() || self.watching() {
            return None;
        }
        self.state.clocks.time_left(&self.state.debate, role)
    }

    /// Whether the screen changes with time alone: a retry countdown, or
    /// the seconds a turn has waited for its first word (a tick a second,
    /// only while something is waited for).
    pub fn animating(&self) -> bool {
        self.seats()
            .into_iter()
            .any(|r| self.retry_in(r).is_some() || self.thinking_for(r).is_some() || self.time_left(r).is_some())
            || self.state.stage.timed_card()
    }

    /// Before a frame is drawn: lays out the pane of every seat that sits
    /// for where it goes (`areas`, and the text area inside each), and
    /// fits a dialog read by scrolling to the rows it has (`paged`: its
    /// rows in all, and shown).
    pub fn lay_out(&mut self, areas: [ratatui::layout::Rect; Role::COUNT], paged: Option<Fit>) {
        self.state.clocks.now = std::time::Instant::now();
        self.state.stage.expire(self.state.clocks.now);
        self.state.likeness.refresh(&self.state.debate);
        let seats = self.seats();
        // A focused pane the layout hides (the judge's, under presenter mode's strip) gives
        // the focus to the first pane shown, so the keys move what the room sees.
        if areas[self.state.panes.focus].is_empty()
            && let Some(shown) = areas.iter().position(|a| !a.is_empty())
        {
            self.state.panes.focus = shown;
        }
        self.state.panes.person_here = self.person_here();
        self.state.panes.lay_out(areas, &seats, &self.state.debate, &self.state.theme);
        let Some(Fit { total, rows, items, chosen_at }) = paged else { return };
        match &mut self.state.modal {
            Some(Modal::Help(view)) => view.fit(total, rows),
            Some(Modal::Sent(view)) => view.paged.fit(total, rows),
            Some(Modal::Results(view)) => view.fit(total, rows),
            Some(Modal::Map(view)) => view.fit(total, rows, items, chosen_at),
            _ => {}
        }
    }

    /// Where the narrow screen's seat tabs were drawn, for the mouse.
    pub fn tabs_drawn(&mut self, tabs: [ratatui::layout::Rect; Role::COUNT]) {
        self.state.panes.tabs = tabs;
    }

    /// Every price configured: the roster's seats' and the panel judges'.
    pub fn prices(&self) -> cost::Prices {
        cost::Prices {
            seats: self.state.roster.iter().filter_map(|e| Some((e.role, e.price?))).collect(),
            judges: self.state.judge_prices.clone(),
        }
    }

    /// A key while a dialog is open: the dialog changes itself and says
    /// what it asks for; this applies it.
    pub(super) fn on_modal_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let effects = self.dialog_key(key);
        // Why the dialog could not do what was asked goes when it closes.
        if self.state.modal.is_none() {
            self.state.status.dialog_closed();
        }
        effects
    }

    /// The key applied to the open dialog: it answers in one shape
    /// (`Modal::key`), applied here.
    fn dialog_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(mut dialog) = self.state.modal.take() else { return Vec::new() };
        match dialog.key(&key, &self.state.keymap) {
            FormStep::Stay => self.state.modal = Some(dialog),
            FormStep::Refuse(why) => {
                self.say_until(Tone::Warn, why, Until::Dialog);
                self.state.modal = Some(dialog);
            }
            FormStep::Close => {}
            FormStep::Ask(asked) => {
                self.state.modal = Some(dialog);
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
                if let Some(turn) = &mut self.state.person {
                    turn.draft = Some(area);
                }
                return vec![Effect::EditTurn];
            }
            DialogAsk::Verdict(given) => return self.record_verdict(given),
            DialogAsk::VerdictWaits(form) => self.step_out_of_verdict(form),
            DialogAsk::TakeBack(what) => return self.apply_steer(steer::take_back(&self.state.debate, &what)),
            DialogAsk::PinHeat(to, heat) => return self.apply_steer(steer::pin_heat(&self.state.keymap, &to, heat)),
            DialogAsk::Find(query) => self.find(&query),
            DialogAsk::Configure(form, fields) => {
                self.state.start.configuring = Some(*form);
                self.say_until(Tone::Info, "Applying the settings…", Until::NextRound);
                return vec![Effect::Configure(fields)];
            }
            DialogAsk::ListModels(provider) => return vec![Effect::ListModels(provider)],
            DialogAsk::Branch(request) => {
                let said = format!("Branching session {} after round {}", request.from, request.round);
                self.say_until(Tone::Info, said, Until::NextRound);
                return vec![Effect::Branch(request)];
            }
            DialogAsk::Confirmed(Confirm::Force) => return self.apply_steer(steer::force(&self.state.debate)),
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
                    steer::inject(&self.state.debate, text)
                } else {
                    steer::note_to(&self.state.debate, text, to)
                };
                self.apply_steer(steered)
            }
            EditorPurpose::NewTopic => self.ask_before_replacing(Effect::Start(text)),
            EditorPurpose::Question => {
                self.apply_steer(steer::set_question(&self.state.debate, &self.state.keymap, &text))
            }
            EditorPurpose::Turn => self.send_argument(text),
            EditorPurpose::Model(role) => self.apply_steer(steer::change_model(&self.state.debate, role, &text)),
        }
    }

    /// Starting or opening another debate (`next`) stops the running one:
    /// ask first, as quitting does.
    pub(super) fn ask_before_replacing(&mut self, next: Effect) -> Vec<Effect> {
        if self.live() && self.state.replay.is_none() {
            self.state.modal = Some(Modal::Confirm(Confirm::Replace(Box::new(next))));
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
}
