//! `v`: the person's own verdict, beside the judge's: who is ahead (←/→:
//! the advocate, even, the skeptic; in a vote, even or one of the
//! debaters), how sure (↑/↓ in fives, 0 to 100), a
//! note (typed), and, while the debate runs, whether it ends the debate
//! here (Ctrl-E). Enter records it; after the end it is recorded all the
//! same, beside the judge's last word.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::app::{App, Tone, Until};
use super::effect::Effect;
use super::modal::{Modal, topic_area};
use crate::debate::state::HumanVerdict;
use crate::debate::{Command, DebateEvent, DebateState, Role};

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

impl App {
    /// Opens the form, where a verdict can be recorded.
    pub(super) fn open_verdict_form(&mut self) -> Vec<Effect> {
        let why = if self.replay.is_some() {
            Some("This is a replay: a verdict is given in a live or stored debate")
        } else if self.session.is_none() {
            Some("No debate is shown: start one, or open one with s")
        } else {
            None
        };
        if let Some(why) = why {
            self.say_until(Tone::Info, why, Until::NextRound);
            return Vec::new();
        }
        let live = self.debate.finish.is_none();
        self.modal = Some(Modal::Verdict(Box::new(VerdictForm::new(live, ahead_choices(&self.debate)))));
        Vec::new()
    }

    pub(super) fn verdict_key(&mut self, mut form: Box<VerdictForm>, key: KeyEvent) -> Vec<Effect> {
        match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Left => form.ahead = form.ahead.saturating_sub(1),
            KeyCode::Right => form.ahead = (form.ahead + 1).min(form.choices.len().saturating_sub(1)),
            KeyCode::Up => form.confidence = (form.confidence + 5).min(100),
            KeyCode::Down => form.confidence = form.confidence.saturating_sub(5),
            KeyCode::Char('e') if key.modifiers.contains(KeyModifiers::CONTROL) => form.ends = form.live && !form.ends,
            KeyCode::Enter => return self.record_verdict(&form),
            _ => {
                form.note.input(key);
            }
        }
        self.modal = Some(Modal::Verdict(form));
        Vec::new()
    }

    /// A live debate's engine records it (and ends the debate when asked);
    /// an ended one's is recorded by the studio.
    fn record_verdict(&mut self, form: &VerdictForm) -> Vec<Effect> {
        let ahead = form.choices.get(form.ahead).copied().flatten();
        let note = form.note.lines().join(" ").trim().to_string();
        let round = self.debate.rounds.last().map_or(0, |r| r.number);
        let given =
            HumanVerdict { round: round + 1, ahead, confidence: form.confidence, note: note.clone(), ends: form.ends };
        let said = format!("Your verdict: {}", given.describe(&self.debate));
        if form.live && self.debate.finish.is_none() {
            let then = match (form.ends, self.debate.judges()) {
                (false, _) => "",
                (true, 0) => "; the vote after this round decides",
                (true, _) => "; the judge now writes the final synthesis",
            };
            self.say_until(Tone::Good, format!("{said}{then}"), Until::NextRound);
            return vec![Effect::Send(Command::HumanVerdict {
                ahead,
                confidence: form.confidence,
                note,
                ends: form.ends,
            })];
        }
        self.say_until(Tone::Good, said, Until::NextRound);
        vec![Effect::Record(DebateEvent::HumanVerdict { round, ahead, confidence: form.confidence, note, ends: false })]
    }
}
