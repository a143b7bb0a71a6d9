//! Keys, paste and the mouse wheel: what each does to the studio's state and
//! which `Effect`s (commands to the engine) it asks for. Steering a live
//! debate is in `steer`, the start screen's keys in `start`.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use super::app::{App, Replay, Tone, Until, speed_label};
use super::effect::Effect;
use super::help::HelpView;
use super::keymap::Action;
use super::modal::{Confirm, Editor, EditorPurpose, Modal, Results, topic_area};
use super::steer::is_steering;
use crate::debate::Command;

impl App {
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.interrupts += 1;
            return vec![if self.interrupts > 1 { Effect::HardQuit } else { Effect::Quit }];
        }
        if self.modal.is_some() {
            return self.modal_key(key);
        }
        if self.start.is_some() {
            return self.start_key(key);
        }
        if self.search_key(&key) {
            return Vec::new();
        }
        match self.keymap.action(&key) {
            Some(action) => self.act(action),
            None => Vec::new(),
        }
    }

    pub fn on_paste(&mut self, text: &str) {
        let text = crate::sanitize::clean(text);
        if let Some(Modal::Editor(editor)) = &mut self.modal {
            editor.area.insert_str(&text);
        } else if let Some(Modal::Search(query)) = &mut self.modal {
            App::paste_into_search(query, &text);
        } else if let Some(area) = &mut self.start {
            // Pasted text is a proposition, wherever the keys were.
            self.recent_chosen = None;
            area.insert_str(&text);
        }
    }

    pub fn on_mouse(&mut self, mouse: MouseEvent) {
        let rows = 3;
        let at = Position::new(mouse.column, mouse.row);
        let Some(index) = self.pane_areas.iter().position(|a| a.contains(at)) else { return };
        match mouse.kind {
            MouseEventKind::ScrollUp => self.panes[index].scroll_up(rows),
            MouseEventKind::ScrollDown => self.panes[index].scroll_down(rows),
            MouseEventKind::Down(_) => {
                self.focus = index;
                self.focus_chosen = true;
            }
            _ => {}
        }
    }

    /// Runs an action from the keymap.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        if self.watching()
            && let Some(effects) = self.watch_act(action)
        {
            return effects;
        }
        if let Some(replay) = self.replay
            && let Some(effects) = self.replay_act(replay, action)
        {
            return effects;
        }
        if matches!(action, Action::Faster | Action::Slower | Action::NextRound) {
            let text = "Faster, slower and the next round are for replays (`heat replay`)";
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        }
        if action == Action::NewDebate && !self.starts_debates() {
            let text = "This studio plays stored debates back; `heat` starts a new one";
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        }
        if is_steering(action) {
            if self.session.is_none() || self.debate.finish.is_some() {
                let text = format!("The debate has ended; {} starts a new one", self.keymap.hint(Action::NewDebate));
                self.say_until(Tone::Info, text, Until::NextRound);
                return Vec::new();
            }
            return self.steer(action);
        }
        let page = self.panes[self.focus].height.saturating_sub(2).max(1);
        match action {
            Action::NewDebate => {
                let area = topic_area("The proposition to debate");
                self.modal = Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::NewTopic, area })));
            }
            Action::Export => return vec![Effect::Export],
            Action::Sessions => return vec![Effect::Sessions],
            Action::Quit => {
                if self.streaming() {
                    self.modal = Some(Modal::Confirm(Confirm::Quit));
                } else {
                    return vec![Effect::Quit];
                }
            }
            Action::Help => self.modal = Some(Modal::Help(HelpView::default())),
            Action::ToggleReasoning => self.show_reasoning = !self.show_reasoning,
            Action::TurnStats => {
                self.show_stats = !self.show_stats;
                let text = if self.show_stats {
                    "Pane titles show each latest turn's time and tokens/s"
                } else {
                    "Turn times hidden"
                };
                self.say_until(Tone::Info, text, Until::NextRound);
            }
            Action::Results => self.modal = Some(Modal::Results(Results::default())),
            Action::HumanVerdict => return self.open_verdict_form(),
            Action::Branch => return self.open_branch_form(),
            Action::CitedLines => {
                self.show_cited = !self.show_cited;
                let text = match (self.debate.source.is_some(), self.show_cited) {
                    (false, _) => "This debate has no source document: nothing is cited",
                    (true, true) => "The source lines each citation points at show under its mark",
                    (true, false) => "Cited lines hidden",
                };
                self.say_until(Tone::Info, text, Until::NextRound);
            }
            Action::FocusNext => self.cycle_focus(true),
            Action::FocusPrev => self.cycle_focus(false),
            Action::ScrollUp => self.panes[self.focus].scroll_up(1),
            Action::ScrollDown => self.panes[self.focus].scroll_down(1),
            Action::PageUp => self.panes[self.focus].scroll_up(page),
            Action::PageDown => self.panes[self.focus].scroll_down(page),
            Action::Top => self.panes[self.focus].to_top(),
            Action::Follow => self.panes[self.focus].follow(),
            Action::Search => self.open_search(),
            Action::Copy => return self.copy(),
            // Handled above.
            _ => {}
        }
        Vec::new()
    }

    /// What an action means in a replay, where it differs from a live
    /// debate: space pauses the playback, steering is refused; `None` for
    /// the actions that work as they do anywhere.
    fn replay_act(&mut self, replay: Replay, action: Action) -> Option<Vec<Effect>> {
        match action {
            Action::TogglePause if replay == Replay::Ended => {
                let text = format!(
                    "The replay has ended; {} opens another debate, {} quits",
                    self.keymap.hint(Action::Sessions),
                    self.keymap.hint(Action::Quit)
                );
                self.say_until(Tone::Info, text, Until::NextRound);
                Some(Vec::new())
            }
            Action::TogglePause => {
                let pause = replay == Replay::Playing;
                self.replay = Some(if pause { Replay::Paused } else { Replay::Playing });
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
            _ if is_steering(action) => {
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
            _ if is_steering(action) || watch_refuses(action) => {
                self.say_until(Tone::Info, WATCH_REFUSAL, Until::NextRound);
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// `+` / `-` in a replay: the next speed up or down, said in the status line.
    fn change_speed(&mut self, faster: bool) -> Vec<Effect> {
        let Some(clock) = &mut self.replay_clock else { return Vec::new() };
        let Some(speed) = super::replay::step_speed(clock.speed, faster) else {
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

    fn modal_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(modal) = self.modal.take() else { return Vec::new() };
        match modal {
            Modal::Help(mut help) => {
                if help.key(&key, &self.keymap) {
                    self.modal = Some(Modal::Help(help));
                }
                Vec::new()
            }
            Modal::Sessions(mut browser) => match browser.key(key) {
                None => Vec::new(),
                Some(mut effects) => {
                    if let Some(open) = effects.iter().position(|e| matches!(e, Effect::Open(_))) {
                        return self.ask_before_replacing(effects.swap_remove(open));
                    }
                    self.modal = Some(Modal::Sessions(browser));
                    effects
                }
            },
            Modal::Confirm(what) => match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => match what {
                    Confirm::Force => {
                        let text = "Resolution forced: the judge writes its final synthesis";
                        self.say_until(Tone::Info, text, Until::NextRound);
                        vec![Effect::Send(Command::ForceResolution)]
                    }
                    Confirm::Quit => vec![Effect::Quit],
                    Confirm::Replace(next) => vec![*next],
                },
                KeyCode::Char('n' | 'N') | KeyCode::Esc => Vec::new(),
                _ => {
                    self.modal = Some(Modal::Confirm(what));
                    Vec::new()
                }
            },
            Modal::Editor(editor) => self.editor_key(editor, key),
            Modal::Temperature(temp) => self.temperature_key(temp, key),
            Modal::Search(query) => self.search_prompt_key(query, key),
            Modal::Settings(form) => self.settings_key(form, key),
            Modal::Results(results) => self.results_key(results, key),
            Modal::Verdict(form) => self.verdict_key(form, key),
            Modal::Branch(form) => self.branch_key(form, key),
        }
    }

    /// The results view: `w` writes the report, `a` asks for the summary,
    /// Esc, Enter and its own key close it; any other key closes it and does
    /// what it does.
    fn results_key(&mut self, results: Results, key: KeyEvent) -> Vec<Effect> {
        match key.code {
            KeyCode::Char('w') => {
                self.modal = Some(Modal::Results(results));
                vec![Effect::Report]
            }
            KeyCode::Char('a') if self.watching() => {
                self.modal = Some(Modal::Results(results));
                self.say_until(Tone::Info, WATCH_REFUSAL, Until::NextRound);
                Vec::new()
            }
            KeyCode::Char('a') => {
                let asked = results.summary_draft.is_none();
                self.modal = Some(Modal::Results(results));
                if asked { vec![Effect::Summarize] } else { Vec::new() }
            }
            KeyCode::Esc | KeyCode::Enter => Vec::new(),
            _ => match self.keymap.action(&key) {
                Some(Action::Results) | None => Vec::new(),
                Some(action) => self.act(action),
            },
        }
    }

    fn editor_key(&mut self, mut editor: Box<Editor>, key: KeyEvent) -> Vec<Effect> {
        match editor_key(&key) {
            EditorKey::Cancel => Vec::new(),
            EditorKey::Newline => {
                editor.area.insert_newline();
                self.modal = Some(Modal::Editor(editor));
                Vec::new()
            }
            EditorKey::Edit => {
                editor.area.input(key);
                self.modal = Some(Modal::Editor(editor));
                Vec::new()
            }
            EditorKey::Submit => {
                let text = editor.area.lines().join("\n").trim().to_string();
                if text.is_empty() {
                    let what = match editor.purpose {
                        EditorPurpose::Inject => "Type the topic to inject first, or Esc to cancel",
                        EditorPurpose::NewTopic => "Type the proposition to debate first, or Esc to cancel",
                    };
                    self.say(Tone::Warn, what);
                    self.modal = Some(Modal::Editor(editor));
                    return Vec::new();
                }
                match editor.purpose {
                    EditorPurpose::Inject => self.inject(text),
                    EditorPurpose::NewTopic => self.ask_before_replacing(Effect::Start(text)),
                }
            }
        }
    }

    /// Starting or opening another debate (`next`) stops the running one:
    /// ask first, as quitting does.
    fn ask_before_replacing(&mut self, next: Effect) -> Vec<Effect> {
        if self.live() && self.replay.is_none() {
            self.modal = Some(Modal::Confirm(Confirm::Replace(Box::new(next))));
            return Vec::new();
        }
        vec![next]
    }
}

/// Where a watched debate is steered.
pub const STEERED_ELSEWHERE: &str = "steering happens on the operator's screen";

/// What a watch says when asked to steer: one line, for a projector.
const WATCH_REFUSAL: &str = "This is a watch (read-only): steering happens on the operator's screen";

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

pub(super) enum EditorKey {
    Submit,
    Cancel,
    Newline,
    Edit,
}

/// Enter or Ctrl-S sends, Alt/Shift-Enter breaks the line, Esc cancels.
pub(super) fn editor_key(key: &KeyEvent) -> EditorKey {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => EditorKey::Cancel,
        KeyCode::Enter if key.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::SHIFT) => EditorKey::Newline,
        KeyCode::Enter => EditorKey::Submit,
        KeyCode::Char('s') if ctrl => EditorKey::Submit,
        _ => EditorKey::Edit,
    }
}
