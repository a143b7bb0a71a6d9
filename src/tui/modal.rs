//! The dialogs that open over the studio (help, the session browser, a
//! question, an editor, the heat dialog, search, settings, the results, the
//! person's verdict, a branch) and the small ones' keys. Every dialog
//! answers a key in one shape, `FormStep<DialogAsk>` (`Modal::key`): it
//! changes only itself, and says what it asks of the studio, which `App`
//! applies.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::effect::{BranchRequest, Effect};
pub use super::form::{EditorKey, FormStep, editor_key, topic_area};
use super::keymap::{Action, KeyMap};
use super::results::ResultsAsk;
use super::seat_target::SeatTarget;
use super::verdict_form::{Given, VerdictForm};
use crate::debate::event::Waiting;
use crate::debate::{Heat, Role};

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
    /// The argument map, a claim chosen.
    Map(super::map_view::MapView),
}

/// What a dialog asks of the studio, answering a key: as it closes
/// (`FormStep::Done`) or while it stays open (`FormStep::Ask`).
pub enum DialogAsk {
    /// An editor's text, for what it was opened for; `to`: the seats a note
    /// goes to (none: every seat).
    Text {
        purpose: EditorPurpose,
        to: Vec<Role>,
        text: String,
    },
    /// The person's own turn set aside with its draft (Esc): it waits.
    TurnWaits(TextArea<'static>),
    /// The person's own turn, written on in their `$EDITOR` (Ctrl-G).
    TurnInEditor(TextArea<'static>),
    /// The person's verdict, given.
    Verdict(Given),
    /// A judging person's verdict form set aside (Esc): the turn waits with it.
    VerdictWaits(Box<VerdictForm>),
    /// Something the person's steering queued, taken back.
    TakeBack(Waiting),
    /// The heat pinned, for whom.
    PinHeat(SeatTarget, Heat),
    /// The panes searched for this.
    Find(String),
    /// The start screen's settings, with the form they came from (shown
    /// again if they cannot be applied).
    Configure(Box<super::settings::SettingsForm>, Vec<(String, String)>),
    /// A provider's model list, for the settings' model field.
    ListModels(String),
    Branch(BranchRequest),
    /// The person said yes.
    Confirmed(Confirm),
    /// What replaces the debate on screen (a session opened), asked about
    /// first while one runs.
    Replace(Effect),
    /// An effect of the session browser's (export, delete, a label).
    Do(Effect),
    Results(ResultsAsk),
    /// Steering from the argument map, on the chosen claim.
    Map(super::map_view::MapAsk),
}

impl Modal {
    /// A key in the dialog: it changes itself and says what it asks for.
    pub fn key(&mut self, key: &KeyEvent, keymap: &KeyMap) -> FormStep<DialogAsk> {
        match self {
            Modal::Help(paged) => stays_if(paged.key(key, keymap)),
            Modal::Map(view) => view.key(key, keymap).map(DialogAsk::Map),
            Modal::Sent(view) => stays_if(view.paged.key(key, keymap)),
            Modal::Costs => stays_if(
                !matches!(key.code, KeyCode::Esc | KeyCode::Enter)
                    && !matches!(keymap.action(key), Some(Action::Costs | Action::Quit)),
            ),
            Modal::Confirm(what) => match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => FormStep::Done(DialogAsk::Confirmed(what.clone())),
                KeyCode::Char('n' | 'N') | KeyCode::Esc => FormStep::Close,
                _ => FormStep::Stay,
            },
            Modal::Sessions(browser) => match browser.key(*key) {
                FormStep::Done(open) => FormStep::Done(DialogAsk::Replace(open)),
                step => step.map(DialogAsk::Do),
            },
            Modal::Editor(editor) => editor.key(*key),
            Modal::Waiting(list) => list.key(*key).map(DialogAsk::TakeBack),
            Modal::Temperature(heat) => {
                let to = heat.to.clone();
                heat.key(*key).map(|heat| DialogAsk::PinHeat(to, heat))
            }
            Modal::Search(query) => super::search::prompt_key(query, *key).map(DialogAsk::Find),
            Modal::Settings(form) => match form.key(*key) {
                FormStep::Done(fields) => FormStep::Done(DialogAsk::Configure(Box::new(form.clone()), fields)),
                FormStep::Close => FormStep::Close,
                FormStep::Refuse(why) => FormStep::Refuse(why),
                // Moving to a model field fetches its provider's list.
                FormStep::Stay | FormStep::Ask(_) => {
                    form.list_wanted().map_or(FormStep::Stay, |p| FormStep::Ask(DialogAsk::ListModels(p)))
                }
            },
            Modal::Results(results) => results.key(key, keymap).map(DialogAsk::Results),
            Modal::Verdict(form) => match form.key(*key) {
                FormStep::Close if form.seat.is_some() => {
                    FormStep::Done(DialogAsk::VerdictWaits(Box::new(form.as_ref().clone())))
                }
                step => step.map(DialogAsk::Verdict),
            },
            Modal::Branch(form) => form.key(*key).map(DialogAsk::Branch),
        }
    }
}

/// A dialog read by scrolling: open while the key scrolled it.
fn stays_if<T>(open: bool) -> FormStep<T> {
    if open { FormStep::Stay } else { FormStep::Close }
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
    /// not be empty. In the person's own turn, Esc sets the draft aside and
    /// Ctrl-G writes on in their `$EDITOR`.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<DialogAsk> {
        if let (Some(to), KeyCode::Tab | KeyCode::BackTab) = (&mut self.to, key.code) {
            to.cycle(key.code == KeyCode::Tab);
            return FormStep::Stay;
        }
        let own_turn = self.purpose == EditorPurpose::Turn;
        if own_turn && key.code == KeyCode::Char('g') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return FormStep::Done(DialogAsk::TurnInEditor(std::mem::take(&mut self.area)));
        }
        match editor_key(&key) {
            EditorKey::Cancel if own_turn => FormStep::Done(DialogAsk::TurnWaits(std::mem::take(&mut self.area))),
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
                    let to = self.to.as_ref().map(|to| to.seats().to_vec()).unwrap_or_default();
                    return FormStep::Done(DialogAsk::Text { purpose: self.purpose, to, text });
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
