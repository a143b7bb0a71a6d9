//! Keys, paste and the mouse: what each does to the studio and which
//! `Effect`s it asks for. An open dialog's keys go to the dialog (applied in
//! `app`), the start screen's to the start screen; the rest are actions of
//! the key map: moving about the panes, opening dialogs, and steering a live
//! debate (pause, inject, pin and release the heat, force a resolution,
//! cancel the streaming turns), each said in the status line for as long as
//! it holds.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};

use super::{App, Replay, Tone, Until, WATCH_REFUSAL, speed_label};
use crate::debate::{Command, Role};
use crate::tui::branch_form::BranchForm;
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::modal::{Confirm, Editor, EditorPurpose, Modal, TempEditor, topic_area};
use crate::tui::paged::Paged;
use crate::tui::person_turn::{self, PersonTurn};
use crate::tui::results::Results;
use crate::tui::seat_target::SeatTarget;
use crate::tui::sent::SentView;
use crate::tui::start::StartStep;
use crate::tui::steer;
use crate::tui::verdict_form::{Given, Judged, VerdictForm};
use crate::tui::waiting::WaitingList;

impl App {
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.state.interrupts += 1;
            return vec![if self.state.interrupts > 1 { Effect::HardQuit } else { Effect::Quit }];
        }
        if self.state.modal.is_some() {
            return self.on_modal_key(key);
        }
        // A key takes a verdict card down, and does nothing else.
        if self.state.stage.dismiss() {
            return Vec::new();
        }
        if self.state.start.is_open() {
            return self.start_key(key);
        }
        if self.search_key(&key) {
            return Vec::new();
        }
        // A person's turn waiting: Enter goes back to it.
        if key.code == KeyCode::Enter && self.state.person.is_some() {
            self.open_person_turn();
            return Vec::new();
        }
        match self.state.keymap.action(&key) {
            Some(action) => self.act(action),
            // Esc with nothing open: what a key said in the status line goes.
            None if key.code == KeyCode::Esc => {
                self.state.status.dismiss();
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// Opens the waiting turn's editor, or its verdict form.
    pub fn open_person_turn(&mut self) {
        let Some(turn) = self.state.person.as_mut() else { return };
        let seat = self.state.debate.seat_name(turn.role);
        self.state.modal = Some(if turn.judges() {
            Modal::Verdict(
                turn.form.take().unwrap_or_else(|| Box::new(VerdictForm::judging(&self.state.debate, turn.closing))),
            )
        } else {
            let area = turn.editor();
            Modal::Editor(Box::new(Editor { purpose: EditorPurpose::Turn, area, to: None }))
        });
        let text = format!("Your turn as the {seat}: Enter sends · Esc steps out to steer (the turn waits)");
        self.say_until(Tone::Good, text, Until::NextRound);
    }

    /// Closes a person's turn the debate gave up (cancelled, timed out,
    /// stopped), and its editor with it; true when there was one.
    pub fn drop_given_up_turn(&mut self) -> bool {
        if !self.state.person.as_ref().is_some_and(PersonTurn::is_closed) {
            return false;
        }
        let judging = self.state.person.take().is_some_and(|turn| turn.judges());
        let open = match &self.state.modal {
            Some(Modal::Editor(editor)) => editor.purpose == EditorPurpose::Turn,
            Some(Modal::Verdict(form)) => judging && form.seat.is_some(),
            _ => false,
        };
        if open {
            self.state.modal = None;
        }
        self.say_until(Tone::Warn, "Your turn was given up: cancelled, or the debate stopped", Until::NextRound);
        true
    }

    /// The person's verdict: in the judge's seat, the round's; beside the
    /// judge, the person's own (`steer::human_verdict`).
    pub(super) fn record_verdict(&mut self, given: Given) -> Vec<Effect> {
        if let Some(judged) = &given.judged {
            self.send_verdict(given.ahead, judged);
            return Vec::new();
        }
        self.apply_steer(steer::human_verdict(&self.state.debate, given))
    }

    /// A person's verdict, given in the judge's seat: the engine reads it
    /// as the round's.
    fn send_verdict(&mut self, ahead: Option<Role>, judged: &Judged) {
        let sent = self.state.person.take().is_some_and(|turn| turn.send_verdict(ahead, judged));
        let round = self.state.debate.current_round().map_or(1, |r| r.number + 1);
        self.show(person_turn::verdict_said(sent, round, judged));
    }

    /// A person's argument, written in their seat: the debate goes on with it.
    pub(super) fn send_argument(&mut self, text: String) -> Vec<Effect> {
        if !self.state.person.take().is_some_and(|turn| turn.send(text)) {
            self.show(person_turn::argument_late());
        }
        Vec::new()
    }

    /// Esc in a judging person's verdict form: what they gave so far is
    /// kept and the turn waits.
    pub(super) fn step_out_of_verdict(&mut self, form: Box<crate::tui::verdict_form::VerdictForm>) {
        if let Some(turn) = self.state.person.as_mut().filter(|t| t.judges()) {
            turn.form = Some(form);
            self.show(person_turn::verdict_waits());
        }
    }

    /// Esc in a person's editor: the draft is kept and the turn waits.
    pub(super) fn step_out_of_turn(&mut self, area: ratatui_textarea::TextArea<'static>) {
        let Some(turn) = &mut self.state.person else { return };
        turn.draft = Some(area);
        let seat = self.state.debate.seat_name(turn.role);
        self.show(person_turn::turn_waits(&seat));
    }

    /// Enter or `n` on a claim in the argument map: put to the other side
    /// as the next round's question, or sent to it alone as a note. Only a
    /// debate running here is steered.
    pub(super) fn steer_on_map(&mut self, asked: crate::tui::map_view::MapAsk) -> Vec<Effect> {
        use crate::tui::map_view::MapAsk;
        let refusal = if !self.steers_here() {
            Some(WATCH_REFUSAL.to_string())
        } else if self.state.replay.is_some() {
            Some("This is a replay: steering works in a live debate".to_string())
        } else if !self.live() {
            Some(format!("The debate has ended; {} starts a new one", self.state.keymap.hint(Action::NewDebate)))
        } else {
            None
        };
        if let Some(why) = refusal {
            self.say_until(Tone::Info, why, Until::NextRound);
            return Vec::new();
        }
        let ledger = crate::debate::argument_map::ledger(&self.state.debate);
        let order = crate::debate::argument_map::in_map_order(&ledger);
        let (MapAsk::Question(at) | MapAsk::Note(at)) = asked;
        let Some(claim) = order.get(at) else { return Vec::new() };
        let steered = match asked {
            MapAsk::Question(_) => steer::claim_as_question(&self.state.debate, &self.state.keymap, claim),
            MapAsk::Note(_) => steer::claim_to_answer(&self.state.debate, claim),
        };
        self.apply_steer(steered)
    }

    pub fn on_paste(&mut self, text: &str) {
        let text = crate::sanitize::clean(text);
        match &mut self.state.modal {
            Some(Modal::Editor(editor)) => {
                editor.area.insert_str(&text);
            }
            Some(Modal::Search(query)) => crate::tui::search::paste(query, &text),
            _ => self.state.start.paste(&text),
        }
    }

    /// The mouse over the panes (not through a dialog or the start screen).
    pub fn on_mouse(&mut self, mouse: MouseEvent) {
        if self.state.modal.is_none() && !self.state.start.is_open() {
            self.state.panes.on_mouse(mouse);
        }
    }

    /// A key on the start screen, and what it asks for.
    fn start_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        match self.state.start.key(key, &self.state.keymap) {
            StartStep::Effects(effects) => return effects,
            StartStep::Help => self.state.modal = Some(Modal::Help(Paged::default())),
            StartStep::Settings => match self.state.start.settings_form() {
                Ok(form) => self.state.modal = Some(Modal::Settings(form)),
                Err(why) => self.say(Tone::Info, why),
            },
            StartStep::Warn(why) => self.say(Tone::Warn, why),
        }
        Vec::new()
    }

    /// Why `action` is not for this studio, if it is not.
    fn not_here(&self, action: Action) -> Option<&'static str> {
        let plays_back = !self.starts_debates();
        match action {
            Action::Faster | Action::Slower | Action::NextRound => {
                Some("Faster, slower and the next round are for replays (`heat replay`)")
            }
            Action::NewDebate if plays_back => Some("This studio plays stored debates back; `heat` starts a new one"),
            // Said before the dialog opens, not when its Enter is refused.
            Action::Branch if plays_back && self.session.as_deref() != Some("demo") => {
                Some("This studio plays stored debates back; `heat` branches one (or `heat branch ID`)")
            }
            _ => None,
        }
    }

    /// Runs an action from the keymap.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        if self.watching()
            && let Some(effects) = self.watch_act(action)
        {
            return effects;
        }
        if let Some(replay) = self.state.replay
            && let Some(effects) = self.replay_act(replay, action)
        {
            return effects;
        }
        if let Some(text) = self.not_here(action) {
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        }
        if action.steers() {
            let concluded = self.state.debate.finish.as_ref().is_some_and(|f| f.outcome.concluded());
            if action == Action::MoreRounds && concluded && self.state.session.is_some() && self.starts_debates() {
                return self.apply_steer(steer::more_rounds(&self.state.debate));
            }
            if self.state.session.is_none() || self.state.debate.finish.is_some() {
                let text =
                    format!("The debate has ended; {} starts a new one", self.state.keymap.hint(Action::NewDebate));
                self.say_until(Tone::Info, text, Until::NextRound);
                return Vec::new();
            }
            return self.steer(action);
        }
        let page = self.state.panes.focused().height.saturating_sub(2).max(1);
        match action {
            Action::NewDebate => {
                let area = topic_area("The proposition to debate");
                self.state.modal =
                    Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::NewTopic, area, to: None })));
            }
            Action::Export => return vec![Effect::Export],
            Action::Audience if crate::tui::offers::offers(self, Action::Audience) => return vec![Effect::Audience],
            Action::Audience => {
                self.say(Tone::Info, "The audience page shows a stored debate, live or ended: none is shown");
            }
            Action::Sessions => return vec![Effect::Sessions],
            // A debate running here is asked about, whatever its turns are doing (paused, a
            // server's answer may still be finishing unseen); a stored or ended one quits at once.
            Action::Quit => {
                if self.live() || self.streaming() {
                    self.state.modal = Some(Modal::Confirm(Confirm::Quit));
                } else {
                    return vec![Effect::Quit];
                }
            }
            Action::Help => self.state.modal = Some(Modal::Help(Paged::default())),
            Action::ToggleReasoning | Action::Present | Action::Zoom | Action::TurnStats | Action::CitedLines => {
                self.toggle_view(action);
            }
            Action::Results => self.state.modal = Some(Modal::Results(Results::default())),
            Action::Costs => self.state.modal = Some(Modal::Costs),
            Action::Map if self.state.debate.map().is_none() => {
                let why = "This format keeps no argument map: oxford keeps one (heat run --format oxford)";
                self.say_until(Tone::Info, why, Until::NextRound);
            }
            Action::Map => self.state.modal = Some(Modal::Map(crate::tui::map_view::MapView::default())),
            Action::Sent => match SentView::open(&self.state.debate, &self.state.panes) {
                Ok(view) => self.state.modal = Some(Modal::Sent(view)),
                Err(why) => self.say_until(Tone::Info, why, Until::NextRound),
            },
            Action::HumanVerdict if self.state.person.as_ref().is_some_and(PersonTurn::judges) => {
                self.open_person_turn();
            }
            Action::HumanVerdict => {
                let form =
                    VerdictForm::open(&self.state.debate, self.state.session.is_some(), self.state.replay.is_some());
                self.open_form(form.map(|form| Modal::Verdict(Box::new(form))));
            }
            Action::Branch => {
                let form = BranchForm::open(
                    &self.state.debate,
                    self.state.session.as_deref(),
                    self.state.replay.is_some(),
                    self.live(),
                );
                self.open_form(form.map(|form| Modal::Branch(Box::new(form))));
            }
            Action::FocusNext => self.state.panes.cycle_focus(&self.state.debate.seats(), true),
            Action::FocusPrev => self.state.panes.cycle_focus(&self.state.debate.seats(), false),
            Action::ScrollUp => self.state.panes.focused_mut().scroll_up(1),
            Action::ScrollDown => self.state.panes.focused_mut().scroll_down(1),
            Action::PageUp => self.state.panes.focused_mut().scroll_up(page),
            Action::PageDown => self.state.panes.focused_mut().scroll_down(page),
            Action::Top => self.state.panes.focused_mut().to_top(),
            Action::Follow => self.state.panes.focused_mut().follow(),
            Action::Search => self.state.modal = Some(Modal::Search(String::new())),
            Action::Copy => match crate::tui::copy::focused(&self.state.debate, &self.state.panes) {
                Ok(clip) => return vec![Effect::Copy(clip)],
                Err(why) => self.say_until(Tone::Info, why, Until::NextRound),
            },
            Action::CopyDebate if self.state.session.is_none() => {
                self.say_until(Tone::Info, "Nothing to copy: no debate is shown", Until::NextRound);
            }
            Action::CopyDebate => return vec![Effect::CopyDebate],
            // Handled above.
            _ => {}
        }
        Vec::new()
    }

    /// A key that changes what the studio shows: reasoning, presenter
    /// mode, a zoomed pane, turn times, the cited lines.
    fn toggle_view(&mut self, action: Action) {
        match action {
            Action::CitedLines => {
                self.state.panes.show_cited = !self.state.panes.show_cited;
                let text = match (self.state.debate.grounds(), self.state.panes.show_cited) {
                    (None, _) => "This debate has no source document or library: nothing is cited",
                    (Some("the library"), true) => "The library's lines each citation points at show under its mark",
                    (Some(_), true) => "The source lines each citation points at show under its mark",
                    (Some(_), false) => "Cited lines hidden",
                };
                self.say_until(Tone::Info, text, Until::NextRound);
            }
            Action::ToggleReasoning => self.state.panes.show_reasoning = !self.state.panes.show_reasoning,
            Action::Present => {
                let said = self.state.stage.toggle_present();
                self.say_until(Tone::Info, said, Until::NextRound);
            }
            Action::Zoom => self.state.stage.toggle_zoom(),
            Action::TurnStats => {
                self.state.panes.show_stats = !self.state.panes.show_stats;
                let text = if self.state.panes.show_stats {
                    "Pane titles show each latest turn's time and tokens/s"
                } else {
                    "Turn times hidden"
                };
                self.say_until(Tone::Info, text, Until::NextRound);
            }
            _ => {}
        }
    }

    /// Opens a dialog, or says in one sentence why it cannot open.
    fn open_form(&mut self, form: Result<Modal, &'static str>) {
        match form {
            Ok(modal) => self.state.modal = Some(modal),
            Err(why) => self.say_until(Tone::Info, why, Until::NextRound),
        }
    }

    /// Runs a steering action on the live debate.
    fn steer(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::TogglePause => {
                let pause = !self.paused();
                self.state.pause_requested = Some(pause);
                if pause {
                    let text =
                        format!("Paused: {}{} resumes", self.pause_note(), self.state.keymap.hint(Action::TogglePause));
                    self.say_until(Tone::Info, text, Until::Resumed);
                    return vec![Effect::Send(Command::Pause)];
                }
                self.say_until(Tone::Info, "Resumed", Until::NextRound);
                return vec![Effect::Send(Command::Resume)];
            }
            Action::Inject => {
                let area = topic_area("A topic or question for the next round");
                let to = Some(SeatTarget::for_note(&self.state.debate));
                self.state.modal = Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::Inject, area, to })));
            }
            Action::Temperature => {
                let value = self.state.debate.effective_heat();
                let to = SeatTarget::for_pin(&self.state.debate);
                self.state.modal = Some(Modal::Temperature(TempEditor { value, typed: None, error: None, to }));
            }
            Action::ReleaseTemperature => {
                let seats: Vec<Role> = self.state.debate.seat_pins.keys().copied().collect();
                if self.state.debate.pinned_heat.is_none() && seats.is_empty() {
                    self.say_until(Tone::Info, "The heat is not pinned; the judge already sets it", Until::NextRound);
                    return Vec::new();
                }
                // Every pin goes: the one for every seat and each seat's own.
                let text = "Heat released: the judge sets it again from the next round";
                self.say_until(Tone::Info, text, Until::NextRound);
                let all = self.state.debate.pinned_heat.map(|_| Command::ReleaseTemperature);
                let each = seats.into_iter().map(Command::ReleaseSeat);
                return all.into_iter().chain(each).map(Effect::Send).collect();
            }
            Action::ForceResolution => self.state.modal = Some(Modal::Confirm(Confirm::Force)),
            Action::Ask => {
                let mut area = topic_area("The question the next round asks");
                area.insert_str(crate::sanitize::one_line(&self.state.debate.question_ahead()));
                // Typing replaces it; an arrow keeps it to edit.
                area.select_all();
                self.state.modal =
                    Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::Question, area, to: None })));
            }
            Action::TakeBack => self.open_form(WaitingList::open(&self.state.debate).map(Modal::Waiting)),
            Action::ChangeModel => {
                let role = self.focused_role();
                let mut area = topic_area("PROVIDER:MODEL");
                if let Some(p) = self.state.debate.participant(role) {
                    area.insert_str(crate::sanitize::one_line(&format!("{}:{}", p.provider, p.model)));
                }
                area.select_all();
                let purpose = EditorPurpose::Model(role);
                self.state.modal = Some(Modal::Editor(Box::new(Editor { purpose, area, to: None })));
            }
            Action::MoreRounds => return self.apply_steer(steer::more_rounds(&self.state.debate)),
            Action::CancelSeat => return self.apply_steer(steer::cancel_seat(&self.state.debate, self.focused_role())),
            Action::Reroll => return self.apply_steer(steer::ask_again(&self.state.debate, self.focused_role())),
            Action::CancelTurn => {
                if !self.streaming() {
                    self.say_until(Tone::Info, "Nothing is streaming", Until::NextRound);
                    return Vec::new();
                }
                self.say_until(Tone::Info, "Cancelling the streaming turns; their text so far stands", Until::Settled);
                return vec![Effect::Send(Command::CancelTurn)];
            }
            _ => {}
        }
        Vec::new()
    }

    /// What a pause does to the turns under way (asked once it is
    /// requested): a server's answer finishes in the background and is
    /// kept when it completes, the offline model stops where it is. Empty when none is under way.
    fn pause_note(&self) -> &'static str {
        let seats = self.seats();
        if seats.iter().any(|&r| self.finishing(r)) {
            "the running turns finish in the background and are kept as each completes · "
        } else if seats.iter().any(|&r| self.turn_open(r)) && self.state.debate.finish.is_none() {
            "the offline model stops where it is and goes on from there · "
        } else {
            ""
        }
    }

    /// What an action means in a replay, where it differs from a live
    /// debate: space pauses the playback, steering is refused; `None` for
    /// the actions that work as they do anywhere.
    fn replay_act(&mut self, replay: Replay, action: Action) -> Option<Vec<Effect>> {
        match action {
            Action::TogglePause if replay == Replay::Ended => {
                let text = format!(
                    "The replay has ended; {} opens another debate, {} quits",
                    self.state.keymap.hint(Action::Sessions),
                    self.state.keymap.hint(Action::Quit)
                );
                self.say_until(Tone::Info, text, Until::NextRound);
                Some(Vec::new())
            }
            Action::TogglePause => {
                let pause = replay == Replay::Playing;
                self.state.replay = Some(if pause { Replay::Paused } else { Replay::Playing });
                self.say_until(Tone::Info, if pause { "Replay paused" } else { "Replay resumed" }, Until::NextRound);
                Some(vec![Effect::Send(if pause { Command::Pause } else { Command::Resume })])
            }
            Action::Quit => Some(vec![Effect::Quit]),
            Action::Faster | Action::Slower => Some(self.change_speed(action == Action::Faster)),
            Action::NextRound if replay == Replay::Ended => {
                self.say_until(Tone::Info, "The replay has ended: every round is shown", Until::NextRound);
                Some(Vec::new())
            }
            Action::NextRound => Some(vec![Effect::ReplaySkip]),
            _ if action.steers() => {
                self.say_until(Tone::Info, "This is a replay: steering works in a live debate", Until::NextRound);
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// What an action means in a watch: quitting leaves at once (the
    /// debate goes on on the operator's screen); whatever would steer, start
    /// or add to a debate is refused in one line; `None` for the actions
    /// that work as they do anywhere (scrolling, focus, help, results, export).
    fn watch_act(&mut self, action: Action) -> Option<Vec<Effect>> {
        match action {
            Action::Quit => Some(vec![Effect::Quit]),
            // The heat running it takes steering from a watch: the keys work as at its own keyboard.
            _ if (action.steers() || action == Action::HumanVerdict) && self.steers_here() => None,
            _ if action.steers() || watch_refuses(action) => {
                self.say_until(Tone::Info, WATCH_REFUSAL, Until::NextRound);
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// `+` / `-` in a replay: the next speed up or down, said in the status line.
    fn change_speed(&mut self, faster: bool) -> Vec<Effect> {
        let Some(clock) = &mut self.state.replay_clock else { return Vec::new() };
        let Some(speed) = crate::tui::replay::step_speed(clock.speed, faster) else {
            let text = match (faster, clock.speed <= 0.0) {
                (_, true) => "The replay shows everything at once (--speed 0)".to_string(),
                (true, false) => format!("{} is the fastest", speed_label(clock.speed)),
                (false, false) => format!("{} is the slowest", speed_label(clock.speed)),
            };
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        };
        clock.speed = speed;
        self.say_until(Tone::Info, format!("Replaying at {}", speed_label(speed)), Until::NextRound);
        vec![Effect::ReplaySpeed(speed)]
    }

    /// Looks for `query` from the focused pane's view on, and says which
    /// match shows; an empty query leaves any search as it was.
    pub(super) fn find(&mut self, query: &str) {
        if query.is_empty() {
            return;
        }
        let seats = self.seats();
        match self.state.panes.find(&seats, query) {
            Some(found) => self.say_found(found),
            None => self.say_until(Tone::Warn, format!("No match for \"{query}\""), Until::NextRound),
        }
    }

    /// Says which match of the search shows.
    pub(super) fn say_found(&mut self, found: crate::tui::panes::Found) {
        let Some(search) = &self.state.panes.search else { return };
        let who = self.state.debate.label(found.role);
        let text = format!(
            "\"{}\": match {} of {} ({who}) · n next · N previous · Esc clears",
            search.query, found.n, found.of
        );
        self.say(Tone::Info, text);
    }

    /// Whether a key steps through the matches or ends the search: `n`,
    /// `N` and Esc while a search is on.
    fn search_key(&mut self, key: &KeyEvent) -> bool {
        if self.state.panes.search.is_none() || key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
            return false;
        }
        match key.code {
            KeyCode::Char(c @ ('n' | 'N')) => {
                let seats = self.seats();
                if let Some(found) = self.state.panes.step_search(&seats, c == 'n') {
                    self.say_found(found);
                } else {
                    let query = self.state.panes.search.as_ref().map(|s| s.query.clone()).unwrap_or_default();
                    self.say_until(Tone::Warn, format!("No match for \"{query}\" any more"), Until::NextRound);
                }
            }
            KeyCode::Esc => self.clear_search(),
            _ => return false,
        }
        true
    }

    /// Ends the search, and what the status line said of it.
    fn clear_search(&mut self) {
        let Some(search) = self.state.panes.search.take() else { return };
        if self.state.status.flash.as_ref().is_some_and(|f| f.text.starts_with(&format!("\"{}\":", search.query))) {
            self.state.status.flash = None;
        }
    }
}

/// Besides steering, what a watch does not do: start, open or add to a
/// debate, or change a playback's pace.
fn watch_refuses(action: Action) -> bool {
    matches!(
        action,
        Action::NewDebate
            | Action::Sessions
            | Action::HumanVerdict
            | Action::Branch
            | Action::Faster
            | Action::Slower
            | Action::NextRound
    )
}
