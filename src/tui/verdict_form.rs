//! `v`: the person's own verdict, beside the judge's: who is ahead (←/→:
//! the advocate, even, the skeptic; in a vote, even or one of the
//! debaters), how sure (↑/↓ in fives, 0 to 100), a
//! note (typed), and, while the debate runs, whether it ends the debate
//! here (Ctrl-E). Enter records it; after the end it is recorded all the
//! same, beside the judge's last word. A person in the judge's seat gives
//! the round's verdict in the same form: who is ahead, the verdict (typed),
//! the next question (Tab moves to it), the heat (↑/↓) and whether it is
//! resolved (Ctrl-E); asked for the final synthesis, the verdict alone (it
//! ends the debate whatever it says).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::form::FormStep;
use super::form::topic_area;
use crate::debate::{DebateState, Heat, Role};

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
#[derive(Clone)]
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
    /// The judge's seat's part, when a person judges the round.
    pub seat: Option<JudgeSeat>,
}

/// What a person in the judge's seat gives besides who is ahead: the next
/// question and the heat; the note is the verdict, `ends` resolves it.
#[derive(Clone)]
pub struct JudgeSeat {
    pub question: TextArea<'static>,
    pub heat: Heat,
    /// Typing goes to the question (else to the verdict).
    pub on_question: bool,
    /// The final synthesis is asked: it ends the debate whatever it says,
    /// so no question is asked and nothing is to be resolved.
    pub closing: bool,
}

/// A round's verdict a person judging gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub resolved: bool,
    pub verdict: String,
    pub question: String,
    pub heat: Heat,
}

impl VerdictForm {
    /// A form for `choices`, even chosen.
    pub fn new(live: bool, choices: Vec<Option<Role>>) -> Self {
        let ahead = choices.iter().position(Option::is_none).unwrap_or(0);
        Self { choices, ahead, confidence: 50, note: topic_area("A note (optional)"), ends: false, live, seat: None }
    }

    /// The form for a person judging `debate`'s current round: the next
    /// question opens on the round's own, the heat on the debate's.
    pub fn judging(debate: &DebateState, closing: bool) -> Self {
        let mut form = Self::new(true, ahead_choices(debate));
        form.note = if closing {
            topic_area("Your final synthesis: how the debate came out, and why")
        } else {
            topic_area("Your verdict: what decided the round")
        };
        form.ends = closing;
        let mut question = topic_area("The next round's question");
        question.insert_str(debate.current_round().map_or(debate.topic.as_str(), |r| r.topic.as_str()));
        // Selected: typing replaces it, an arrow keeps it to edit.
        question.select_all();
        form.seat = Some(JudgeSeat { question, heat: debate.heat, on_question: false, closing });
        form
    }
}

/// A verdict given in the form, for the studio to record.
#[derive(Debug, Clone, PartialEq)]
pub struct Given {
    pub ahead: Option<Role>,
    pub confidence: u8,
    pub note: String,
    /// It ends the debate.
    pub ends: bool,
    /// The debate still ran when the form opened.
    pub live: bool,
    /// The round's verdict, when a person judging gave it.
    pub judged: Option<Judged>,
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
        if self.seat.is_some() {
            return self.judging_key(key);
        }
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
                    judged: None,
                });
            }
            _ => {
                self.note.input(key);
            }
        }
        FormStep::Stay
    }

    /// A key while a person judges: the verdict and the question take
    /// text, ↑/↓ the heat; Enter gives it once the verdict says something.
    fn judging_key(&mut self, key: KeyEvent) -> FormStep<Given> {
        let Some(seat) = self.seat.as_mut() else { return FormStep::Stay };
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Tab | KeyCode::BackTab if !seat.closing => seat.on_question = !seat.on_question,
            KeyCode::Left => self.ahead = self.ahead.saturating_sub(1),
            KeyCode::Right => self.ahead = (self.ahead + 1).min(self.choices.len().saturating_sub(1)),
            KeyCode::Up | KeyCode::Down if !seat.closing => seat.heat = seat.heat.step(key.code == KeyCode::Up),
            KeyCode::Char('e') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.ends = seat.closing || !self.ends;
            }
            KeyCode::Enter => {
                let verdict = self.note.lines().join(" ").trim().to_string();
                let question = seat.question.lines().join(" ").trim().to_string();
                if verdict.is_empty() {
                    return FormStep::Refuse("Write your verdict first: what decided the round");
                }
                if question.is_empty() && !self.ends {
                    return FormStep::Refuse("Give the next round's question, or resolve the debate with Ctrl-E");
                }
                let judged = Judged { resolved: self.ends, verdict: verdict.clone(), question, heat: seat.heat };
                return FormStep::Done(Given {
                    ahead: self.choices.get(self.ahead).copied().flatten(),
                    confidence: self.confidence,
                    note: verdict,
                    ends: self.ends,
                    live: self.live,
                    judged: Some(judged),
                });
            }
            _ if seat.on_question => {
                seat.question.input(key);
            }
            _ => {
                self.note.input(key);
            }
        }
        FormStep::Stay
    }
}
