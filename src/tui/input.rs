//! Keys, paste and the mouse wheel: what each does to the studio's state and
//! which `Effect`s (commands to the engine) it asks for.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::Position;
use ratatui::style::{Modifier, Style};
use ratatui_textarea::TextArea;

use super::app::{App, Confirm, Editor, EditorPurpose, Effect, Modal, TempEditor, Tone};
use super::install::InstallState;
use super::keymap::Action;
use crate::debate::verdict::{HEAT_MAX, HEAT_MIN};
use crate::debate::{Command, Role};

const HEAT_STEP: f32 = 0.05;

/// A multi-line editor for a topic.
pub fn topic_area(placeholder: &str) -> TextArea<'static> {
    let mut area = TextArea::default();
    area.set_placeholder_text(placeholder);
    area.set_cursor_line_style(Style::new());
    area.set_placeholder_style(Style::new().add_modifier(Modifier::DIM));
    area
}

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
        match self.keymap.action(&key) {
            Some(action) => self.act(action),
            None => Vec::new(),
        }
    }

    pub fn on_paste(&mut self, text: &str) {
        let text = crate::sanitize::clean(text);
        if let Some(Modal::Editor(editor)) = &mut self.modal {
            editor.area.insert_str(&text);
        } else if let Some(area) = &mut self.start {
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

    fn start_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(area) = &mut self.start else { return Vec::new() };
        let ctrl_o = key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('o');
        if ctrl_o && self.install.as_ref().is_some_and(InstallState::can_start) {
            return vec![Effect::InstallModel];
        }
        match editor_key(&key) {
            EditorKey::Submit => {
                let topic = area.lines().join("\n").trim().to_string();
                if topic.is_empty() {
                    self.say(Tone::Warn, "Type a proposition first, e.g. \"Remote work beats the office\"");
                    return Vec::new();
                }
                vec![Effect::Start(topic)]
            }
            EditorKey::Cancel => vec![Effect::Quit],
            EditorKey::Newline => {
                area.insert_newline();
                Vec::new()
            }
            EditorKey::Edit => {
                area.input(key);
                Vec::new()
            }
        }
    }

    /// Runs an action from the keymap.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        let ended = self.session.is_none() || self.debate.finish.is_some();
        let needs_live = matches!(
            action,
            Action::TogglePause
                | Action::Inject
                | Action::Temperature
                | Action::ReleaseTemperature
                | Action::ForceResolution
                | Action::CancelTurn
        );
        if let Some(paused) = self.replay {
            match action {
                Action::TogglePause => {
                    self.replay = Some(!paused);
                    self.say(Tone::Info, if paused { "Replay resumed" } else { "Replay paused" });
                    return vec![Effect::Send(if paused { Command::Resume } else { Command::Pause })];
                }
                Action::Quit => return vec![Effect::Quit],
                _ if needs_live => {
                    self.say(Tone::Info, "This is a replay: steering works in a live debate");
                    return Vec::new();
                }
                _ => {}
            }
        }
        if needs_live && ended {
            self.say(Tone::Info, "The debate has ended; n starts a new one");
            return Vec::new();
        }
        let page = self.panes[self.focus].height.saturating_sub(2).max(1);
        match action {
            Action::TogglePause => {
                let pause = !self.paused();
                self.pause_requested = Some(pause);
                if pause {
                    self.say(Tone::Info, format!("Paused: {} resumes", self.keymap.hint(Action::TogglePause)));
                    return vec![Effect::Send(Command::Pause)];
                }
                self.say(Tone::Info, "Resumed");
                return vec![Effect::Send(Command::Resume)];
            }
            Action::Inject => {
                let area = topic_area("A topic or question for the next round");
                self.modal = Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::Inject, area })));
            }
            Action::NewDebate => {
                let area = topic_area("The proposition to debate");
                self.modal = Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::NewTopic, area })));
            }
            Action::Temperature => {
                let value = self.debate.effective_heat();
                self.modal = Some(Modal::Temperature(TempEditor { value, typed: None, error: None }));
            }
            Action::ReleaseTemperature => {
                if self.debate.pinned_heat.is_none() {
                    self.say(Tone::Info, "The heat is not pinned; the judge already sets it");
                    return Vec::new();
                }
                self.say(Tone::Info, "Heat released: the judge sets it again from the next round");
                return vec![Effect::Send(Command::ReleaseTemperature)];
            }
            Action::ForceResolution => self.modal = Some(Modal::Confirm(Confirm::Force)),
            Action::CancelTurn => {
                if !self.streaming() {
                    self.say(Tone::Info, "Nothing is streaming");
                    return Vec::new();
                }
                self.say(Tone::Info, "Cancelling the streaming turns; their text so far stands");
                return vec![Effect::Send(Command::CancelTurn)];
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
            Action::Help => self.modal = Some(Modal::Help),
            Action::ToggleReasoning => self.show_reasoning = !self.show_reasoning,
            Action::FocusNext => {
                self.focus = (self.focus + 1) % 3;
                self.focus_chosen = true;
            }
            Action::FocusPrev => {
                self.focus = (self.focus + 2) % 3;
                self.focus_chosen = true;
            }
            Action::ScrollUp => self.panes[self.focus].scroll_up(1),
            Action::ScrollDown => self.panes[self.focus].scroll_down(1),
            Action::PageUp => self.panes[self.focus].scroll_up(page),
            Action::PageDown => self.panes[self.focus].scroll_down(page),
            Action::Top => self.panes[self.focus].to_top(),
            Action::Follow => self.panes[self.focus].follow(),
        }
        Vec::new()
    }

    fn modal_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(modal) = self.modal.take() else { return Vec::new() };
        match modal {
            Modal::Help => Vec::new(),
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
                        self.say(Tone::Info, "Resolution forced: the judge writes its final synthesis");
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

    fn temperature_key(&mut self, mut temp: TempEditor, key: KeyEvent) -> Vec<Effect> {
        temp.error = None;
        match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Up | KeyCode::Right | KeyCode::Char('k') => temp.step(HEAT_STEP),
            KeyCode::Down | KeyCode::Left | KeyCode::Char('j') => temp.step(-HEAT_STEP),
            // Every other character is part of what is typed, so `-1` reads as minus one and
            // `abc` as text: either is refused with the range, never taken for something else.
            KeyCode::Char(c) if !c.is_control() => temp.typed.get_or_insert_with(String::new).push(c),
            KeyCode::Backspace => {
                if let Some(typed) = &mut temp.typed {
                    typed.pop();
                }
            }
            KeyCode::Enter => match temp.chosen() {
                Ok(heat) => {
                    self.say(
                        Tone::Good,
                        format!(
                            "Heat pinned at {heat:.2} from the next turn; {} releases it",
                            self.keymap.hint(Action::ReleaseTemperature)
                        ),
                    );
                    return vec![Effect::Send(Command::PinTemperature(heat))];
                }
                Err(e) => temp.error = Some(e),
            },
            _ => {}
        }
        self.modal = Some(Modal::Temperature(temp));
        Vec::new()
    }
}

impl App {
    /// Starting or opening another debate (`next`) stops the running one:
    /// ask first, as quitting does.
    fn ask_before_replacing(&mut self, next: Effect) -> Vec<Effect> {
        if self.live() && self.replay.is_none() {
            self.modal = Some(Modal::Confirm(Confirm::Replace(Box::new(next))));
            return Vec::new();
        }
        vec![next]
    }

    /// Sends an injected topic, saying where it will be heard: the next
    /// round's prompts, or in the last round the judge's final synthesis;
    /// once that synthesis is being written it is too late, and said so.
    fn inject(&mut self, text: String) -> Vec<Effect> {
        let round = self.debate.current_round();
        let last = self.debate.force_requested || round.is_some_and(|r| r.number + 1 >= self.debate.max_rounds);
        let final_started = round.and_then(|r| r.turn(Role::Judge)).is_some_and(|t| t.purpose.is_final());
        if final_started {
            self.say(Tone::Warn, "Too late to inject: the judge is writing the final synthesis");
            return Vec::new();
        }
        let heard = if last {
            "Topic injected: this is the last round, so the judge's final synthesis considers it"
        } else {
            "Topic injected: the next round's prompts carry it"
        };
        self.say(Tone::Good, heard);
        vec![Effect::Send(Command::InjectTopic(text))]
    }
}

impl TempEditor {
    fn step(&mut self, by: f32) {
        let base = self.chosen().unwrap_or(self.value);
        self.value = ((base + by) * 100.0).round() / 100.0;
        self.value = self.value.clamp(HEAT_MIN, HEAT_MAX);
        self.typed = None;
    }

    /// The heat to pin: what was typed, else the stepped value; or why
    /// what was typed cannot be pinned.
    pub fn chosen(&self) -> Result<f32, String> {
        let range = format!("type {HEAT_MIN:.2} to {HEAT_MAX:.2}");
        let value = match self.typed.as_deref().filter(|t| !t.is_empty()) {
            Some(typed) => typed
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{typed:?} is not a number: {range}"))?,
            None => self.value,
        };
        if !(HEAT_MIN..=HEAT_MAX).contains(&value) {
            return Err(format!("{value} is out of range: {range}"));
        }
        Ok(value)
    }
}

enum EditorKey {
    Submit,
    Cancel,
    Newline,
    Edit,
}

/// Enter or Ctrl-S sends, Alt/Shift-Enter breaks the line, Esc cancels.
fn editor_key(key: &KeyEvent) -> EditorKey {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => EditorKey::Cancel,
        KeyCode::Enter if key.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::SHIFT) => EditorKey::Newline,
        KeyCode::Enter => EditorKey::Submit,
        KeyCode::Char('s') if ctrl => EditorKey::Submit,
        _ => EditorKey::Edit,
    }
}
