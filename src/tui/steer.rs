//! Steering a live debate from the keyboard: pause, inject, pin and release
//! the heat, force a resolution, cancel the streaming turns. Each says in the
//! status line what it did, for as long as that holds.

use crossterm::event::{KeyCode, KeyEvent};

use super::app::{App, Tone, Until};
use super::effect::Effect;
use super::keymap::Action;
use super::modal::topic_area;
use super::modal::{Confirm, Editor, EditorPurpose, Modal, TempEditor};
use crate::debate::{Command, Heat, Role};

/// The actions that steer a running debate (and do nothing in a replay or
/// once it ended).
pub fn is_steering(action: Action) -> bool {
    matches!(
        action,
        Action::TogglePause
            | Action::Inject
            | Action::Temperature
            | Action::ReleaseTemperature
            | Action::ForceResolution
            | Action::CancelTurn
    )
}

impl App {
    /// Runs a steering action on the live debate.
    pub(super) fn steer(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::TogglePause => {
                let pause = !self.paused();
                self.pause_requested = Some(pause);
                if pause {
                    let text =
                        format!("Paused: {}{} resumes", self.pause_note(), self.keymap.hint(Action::TogglePause));
                    self.say_until(Tone::Info, text, Until::Resumed);
                    return vec![Effect::Send(Command::Pause)];
                }
                self.say_until(Tone::Info, "Resumed", Until::NextRound);
                return vec![Effect::Send(Command::Resume)];
            }
            Action::Inject => {
                let area = topic_area("A topic or question for the next round");
                self.modal = Some(Modal::Editor(Box::new(Editor { purpose: EditorPurpose::Inject, area })));
            }
            Action::Temperature => {
                let value = self.debate.effective_heat();
                self.modal = Some(Modal::Temperature(TempEditor { value, typed: None, error: None }));
            }
            Action::ReleaseTemperature => {
                if self.debate.pinned_heat.is_none() {
                    self.say_until(Tone::Info, "The heat is not pinned; the judge already sets it", Until::NextRound);
                    return Vec::new();
                }
                let text = "Heat released: the judge sets it again from the next round";
                self.say_until(Tone::Info, text, Until::NextRound);
                return vec![Effect::Send(Command::ReleaseTemperature)];
            }
            Action::ForceResolution => self.modal = Some(Modal::Confirm(Confirm::Force)),
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
    /// requested): a server's answer finishes in the background, the
    /// offline model stops where it is. Empty when none is under way.
    fn pause_note(&self) -> &'static str {
        let seats = self.seats();
        if seats.iter().any(|&r| self.finishing(r)) {
            "the running turns finish in the background and show when you resume · "
        } else if seats.iter().any(|&r| self.turn_open(r)) && self.debate.finish.is_none() {
            "the offline model stops where it is and goes on from there · "
        } else {
            ""
        }
    }

    /// A key in the pin-heat dialog.
    pub(super) fn temperature_key(&mut self, mut temp: TempEditor, key: KeyEvent) -> Vec<Effect> {
        temp.error = None;
        match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Up | KeyCode::Right | KeyCode::Char('k') => temp.step(Heat::STEP),
            KeyCode::Down | KeyCode::Left | KeyCode::Char('j') => temp.step(-Heat::STEP),
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
                    let text = format!(
                        "Heat pinned at {heat:.2} from the next turn; {} releases it",
                        self.keymap.hint(Action::ReleaseTemperature)
                    );
                    self.say_until(Tone::Good, text, Until::NextRound);
                    return vec![Effect::Send(Command::PinTemperature(heat))];
                }
                Err(e) => temp.error = Some(e),
            },
            _ => {}
        }
        self.modal = Some(Modal::Temperature(temp));
        Vec::new()
    }

    /// Sends an injected topic, saying where it will be heard: the next
    /// round's prompts, or in the last round the judge's final synthesis;
    /// once that synthesis is being written it is too late, and said so.
    pub(super) fn inject(&mut self, text: String) -> Vec<Effect> {
        let round = self.debate.current_round();
        let last = self.debate.force_requested || round.is_some_and(|r| r.number + 1 >= self.debate.max_rounds);
        let final_started = round.and_then(|r| r.turn(Role::Judge)).is_some_and(|t| t.purpose.is_final());
        if final_started {
            let text = "Too late to inject: the judge is writing the final synthesis";
            self.say_until(Tone::Warn, text, Until::NextRound);
            return Vec::new();
        }
        let heard = if last {
            "Topic injected: this is the last round, so the judge's final synthesis considers it"
        } else {
            "Topic injected: the next round's prompts carry it"
        };
        self.say_until(Tone::Good, heard, Until::NextRound);
        vec![Effect::Send(Command::InjectTopic(text))]
    }
}

impl TempEditor {
    fn step(&mut self, by: f32) {
        let base = self.chosen().unwrap_or(self.value);
        self.value = Heat::new(((base.get() + by) * 100.0).round() / 100.0);
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
