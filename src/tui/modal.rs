//! The dialogs that open over the studio (help, the session browser, a
//! question, an editor, the heat dialog, search, settings, the results, the
//! person's verdict, a branch) and the small ones' keys. A dialog changes
//! only itself; what it asks of the studio (a `FormStep`), `App` applies.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui_textarea::TextArea;

use super::effect::Effect;
pub use super::form::{EditorKey, FormStep, editor_key, topic_area};
use super::seat_target::SeatTarget;
use crate::debate::Heat;

/// A dialog over the panes.
pub enum Modal {
    Help(super::paged::Paged),
    Sessions(super::browser::Browser),
    Confirm(Confirm),
    Editor(Box<Editor>),
    Temperature(TempEditor),
    /// The search prompt, with what is typed so far.
    Search(String),
    /// The start screen's settings for the next debate.
    Settings(super::settings::SettingsForm),
    /// How the debate went: its outcome, heat and words per round.
    Results(super::results::Results),
    /// The person's own verdict, being given.
    Verdict(Box<super::verdict_form::VerdictForm>),
    /// A branch of the shown debate, being set up.
    Branch(Box<super::branch_form::BranchForm>),
    /// Tokens and cost, per seat and per round.
    Costs,
    /// What the person's steering queued and no request carried yet, to
    /// take one back.
    Waiting(super::waiting::WaitingList),
    /// What a turn was sent, read by scrolling.
    Sent(super::sent::SentView),
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
    /// The next round's question, prefilled with the one it would ask.
    Question,
    /// A person's argument in their seat (`--seat skeptic=human`).
    Turn,
    /// The model a seat is asked on from its next turn, as
    /// `PROVIDER:MODEL`, prefilled with its own.
    Model(crate::debate::Role),
}

pub struct Editor {
    pub purpose: EditorPurpose,
    pub area: TextArea<'static>,
    /// Whom a note goes to (Tab cycles); `None` where the text is not a note.
    pub to: Option<SeatTarget>,
}

impl Editor {
    /// A key in the editor: Enter (or Ctrl-S) gives the text, which must
    /// not be empty.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<String> {
        if let (Some(to), KeyCode::Tab | KeyCode::BackTab) = (&mut self.to, key.code) {
            to.cycle(key.code == KeyCode::Tab);
            return FormStep::Stay;
        }
        match editor_key(&key) {
            EditorKey::Cancel => FormStep::Close,
            EditorKey::Newline => {
                self.area.insert_newline();
                FormStep::Stay
            }
            EditorKey::Edit => {
                self.area.input(key);
                FormStep::Stay
            }
            EditorKey::Submit => {
                let text = self.area.lines().join("\n").trim().to_string();
                if !text.is_empty() {
                    return FormStep::Done(text);
                }
                FormStep::Refuse(match self.purpose {
                    EditorPurpose::Inject => "Type the topic to inject first, or Esc to cancel",
                    EditorPurpose::NewTopic => "Type the proposition to debate first, or Esc to cancel",
                    EditorPurpose::Question => "Type the next round's question first, or Esc to cancel",
                    EditorPurpose::Turn => "Type your argument first; Esc steps out and keeps your turn waiting",
                    EditorPurpose::Model(_) => "Type the model (PROVIDER:MODEL) first, or Esc to cancel",
                })
            }
        }
    }
}

/// The heat being chosen: arrows step it, digits type it.
#[derive(Debug, Clone, PartialEq)]
pub struct TempEditor {
    pub value: Heat,
    pub typed: Option<String>,
    pub error: Option<String>,
    /// Whom the pin is for (Tab cycles): every seat, or one debater.
    pub to: SeatTarget,
}

impl TempEditor {
    /// A key in the pin-heat dialog: Enter gives the heat to pin, or says
    /// in the dialog why what was typed cannot be pinned.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Heat> {
        self.error = None;
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Tab | KeyCode::BackTab => self.to.cycle(key.code == KeyCode::Tab),
            KeyCode::Up | KeyCode::Right | KeyCode::Char('k') => self.step(true),
            KeyCode::Down | KeyCode::Left | KeyCode::Char('j') => self.step(false),
            // Every other character is part of what is typed, so `-1` reads as minus one and
            // `abc` as text: either is refused with the range, never taken for something else.
            KeyCode::Char(c) if !c.is_control() => self.typed.get_or_insert_with(String::new).push(c),
            KeyCode::Backspace => {
                if let Some(typed) = &mut self.typed {
                    typed.pop();
                }
            }
            KeyCode::Enter => match self.chosen() {
                Ok(heat) => return FormStep::Done(heat),
                Err(e) => self.error = Some(e),
            },
            _ => {}
        }
        FormStep::Stay
    }

    /// One step up or down from what is chosen, on the heat's grid.
    fn step(&mut self, up: bool) {
        self.value = self.chosen().unwrap_or(self.value).step(up);
        self.typed = None;
    }

    /// The heat to pin: what was typed, else the stepped value; or why
    /// what was typed cannot be pinned.
    pub fn chosen(&self) -> Result<Heat, String> {
        let range = format!("type {:.2} to {:.2}", Heat::MIN, Heat::MAX);
        let value = match self.typed.as_deref().filter(|t| !t.is_empty()) {
            Some(typed) => typed
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{typed:?} is not a number: {range}"))?,
            None => self.value.get(),
        };
        if !(Heat::MIN.get()..=Heat::MAX.get()).contains(&value) {
            return Err(format!("{value} is out of range: {range}"));
        }
        Ok(Heat::new(value))
    }
}
