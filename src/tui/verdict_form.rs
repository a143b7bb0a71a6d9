//! `v`: the person's own verdict, beside the judge's: who is ahead (←/→:
//! the advocate, even, the skeptic; in a vote, even or one of the
//! debaters), how sure (↑/↓ in fives, 0 to 100), a
//! note (typed), and, while the debate runs, whether it ends the debate
//! here (Ctrl-E). Enter records it; after the end it is recorded all the
//! same, beside the judge's last word.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::form::FormStep;
use super::form::topic_area;
use crate::debate::{DebateState, Role};

/// The choices for who is ahead between two sides, left to right.
pub const AHEAD: [Option<Role>; 3] = [Some(Role::Advocate), None, Some(Role::Skeptic)];

/// The choices for who is ahead in `debate`, left to right: [`AHEAD`]
/// between two sides; where debaters answer for themselves, even, then
/// each debater.
pub fn ahead_choices(debate: &DebateState) -> Vec<Option<Role>> {
    if debate.two_sides() {
        return AHEAD.to_vec();
    }
    std::iter::once(None).chain(debate.debaters().iter().copied().map(Some)).collect()
}

/// A choice's name in the form: a side's key ("advocate") between two
/// sides, else the seat's name in the format ("analyst").
pub fn ahead_label(debate: &DebateState, ahead: Option<Role>) -> String {
    match ahead {
        None => "even".into(),
        Some(role) if debate.two_sides() => role.key().into(),
        Some(role) => crate::sanitize::clean(&debate.seat_name(role)),
    }
}

/// The form as it is filled in.
pub struct VerdictForm {
    /// The choices for who is ahead ([`ahead_choices`]).
    pub choices: Vec<Option<Role>>,
    /// Index into `choices`.
    pub ahead: usize,
    pub confidence: u8,
    pub note: TextArea<'static>,
    /// End the debate with it (only while it runs).
    pub ends: bool,
    /// Whether the debate still runs (ending it is offered).
    pub live: bool,
}

impl VerdictForm {
    /// A form for `choices`, even chosen.
    pub fn new(live: bool, choices: Vec<Option<Role>>) -> Self {
        let ahead = choices.iter().position(Option::is_none).unwrap_or(0);
        Self { choices, ahead, confidence: 50, note: topic_area("A note (optional)"), ends: false, live }
    }
}

/// A verdict given in the form, for the studio to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    pub ahead: Option<Role>,
    pub confidence: u8,
    pub note: String,
    /// It ends the debate.
    pub ends: bool,
    /// The debate still ran when the form opened.
    pub live: bool,
}

impl VerdictForm {
    /// The form for the shown debate, or one sentence saying why a verdict
    /// cannot be given (a replay, or no debate shown).
    pub fn open(debate: &DebateState, shown: bool, replaying: bool) -> Result<Self, &'static str> {
        if replaying {
            return Err("This is a replay: a verdict is given in a live or stored debate");
        }
        if !shown {
            return Err("No debate is shown: start one, or open one with s");
        }
        Ok(VerdictForm::new(debate.finish.is_none(), ahead_choices(debate)))
    }

    /// A key in the form: Enter gives the verdict.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Given> {
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Left => self.ahead = self.ahead.saturating_sub(1),
            KeyCode::Right => self.ahead = (self.ahead + 1).min(self.choices.len().saturating_sub(1)),
            KeyCode::Up => self.confidence = (self.confidence + 5).min(100),
            KeyCode::Down => self.confidence = self.confidence.saturating_sub(5),
            KeyCode::Char('e') if key.modifiers.contains(KeyModifiers::CONTROL) => self.ends = self.live && !self.ends,
            KeyCode::Enter => {
                return FormStep::Done(Given {
                    ahead: self.choices.get(self.ahead).copied().flatten(),
                    confidence: self.confidence,
                    note: self.note.lines().join(" ").trim().to_string(),
                    ends: self.ends,
                    live: self.live,
                });
            }
            _ => {
                self.note.input(key);
            }
        }
        FormStep::Stay
    }
}
