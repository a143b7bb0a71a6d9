//! `b`: a branch of the shown debate after one of its finished rounds, the
//! studio's `heat branch`. The form chooses the round (←/→), whether the
//! sides swap (Ctrl-S), the next round's heat (↑/↓, else the judge's), and
//! a text (typed) that the next round carries as a note, or asks as its
//! question (Ctrl-T). Enter asks the event loop to start the branch.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::effect::BranchRequest;
use super::form::FormStep;
use super::form::topic_area;
use crate::debate::state::{Kept, VerdictStatus};
use crate::debate::{DebateState, Heat, Role, vote};

/// The form as it is filled in.
pub struct BranchForm {
    pub from: String,
    /// The rounds that can be branched (from 1), each with the heat its
    /// judge set for the round after.
    pub rounds: Vec<(u32, Heat)>,
    /// What a branch after each of `rounds` keeps of the parent (its pin,
    /// its waiting notes), in the same order.
    pub kept: Vec<Kept>,
    /// Index into `rounds`.
    pub at: usize,
    /// Whether the sides swap; `None` where free debaters have no sides.
    pub swap_sides: Option<bool>,
    /// The heat chosen with ↑/↓; `None`: the judge's.
    pub heat: Option<Heat>,
    pub text: TextArea<'static>,
    /// The text is the next round's question, not a note.
    pub as_question: bool,
    /// A debate is running: starting the branch stops it (saved).
    pub stops_running: bool,
    /// Who set the next round's heat: "the judge", "the panel", "the vote".
    pub heat_by: &'static str,
}

impl BranchForm {
    /// The round chosen (from 1) and the heat its judge set.
    pub fn chosen(&self) -> (u32, Heat) {
        self.rounds.get(self.at).copied().unwrap_or((1, Heat::MIN))
    }

    /// What a branch after the chosen round keeps of the parent.
    pub fn kept(&self) -> Kept {
        self.kept.get(self.at).cloned().unwrap_or_default()
    }

    /// The heat the branch's first round runs at, and whether it is the
    /// parent's pin: one set here wins, else the parent's pin, else the judge's.
    pub fn heat_used(&self) -> (Heat, bool) {
        match (self.heat, self.kept().pinned) {
            (Some(heat), _) => (heat, false),
            (None, Some(pin)) => (pin, true),
            (None, None) => (self.chosen().1, false),
        }
    }

    fn request(&self) -> BranchRequest {
        let text = self.text.lines().join(" ").trim().to_string();
        let text = (!text.is_empty()).then_some(text);
        let (question, note) = if self.as_question { (text, None) } else { (None, text) };
        BranchRequest {
            from: self.from.clone(),
            round: self.chosen().0,
            swap_sides: self.swap_sides.unwrap_or(false),
            heat: self.heat,
            question,
            note,
        }
    }
}

/// The rounds of a debate a branch can be taken after (from 1): those whose
/// judge gave a verdict that left the debate open, each with the heat that
/// verdict set (a verdict that could not be read keeps the round's own);
/// with no judge, those whose final answers are in and left the debate
/// open, each with the heat the vote set for the round after.
pub fn branchable(state: &DebateState) -> Vec<(u32, Heat)> {
    if state.judges() == 0 {
        return voted_rounds(state);
    }
    state
        .rounds
        .iter()
        .filter_map(|round| {
            let judge = round.turn(Role::Judge)?;
            let heat = match judge.verdict.as_ref()? {
                // A panel's heat is its median.
                VerdictStatus::Parsed { verdict } => {
                    crate::debate::panel::decision(state, round.number).map_or(verdict.heat, |d| d.heat)
                }
                VerdictStatus::Invalid { will_retry: false, .. } => round.heat,
                VerdictStatus::Invalid { will_retry: true, .. } => return None,
            };
            (judge.is_settled() && !crate::debate::panel::closes(state, round, judge))
                .then_some((round.number + 1, heat))
        })
        .collect()
}

/// [`branchable`] for a debate with no judge: a round whose tally is in,
/// that did not end the debate (its last round, or every answer alike in a
/// format that stops on it), with the heat the vote gave the next round.
fn voted_rounds(state: &DebateState) -> Vec<(u32, Heat)> {
    let stops_on_agreement = state.format.as_ref().and_then(|f| f.convergence).is_none_or(|c| c.stop);
    state
        .rounds
        .iter()
        .filter(|round| round.number + 1 < state.max_rounds)
        .filter_map(|round| {
            let tally = vote::of_round(state, round.number)?;
            if tally.converged() && stops_on_agreement {
                return None;
            }
            let next = state.rounds.iter().find(|r| r.number == round.number + 1).map(|r| r.heat);
            let heat = next.unwrap_or_else(|| vote::next_heat(state.initial_heat, tally.agreement()));
            Some((round.number + 1, heat))
        })
        .collect()
}

impl BranchForm {
    /// The form for a branch of the shown debate (`session`, a replay's
    /// when `replaying`; `live`: a debate runs and the branch stops it), or
    /// one sentence saying why a branch cannot be taken.
    pub fn open(
        debate: &DebateState,
        session: Option<&str>,
        replaying: bool,
        live: bool,
    ) -> Result<Self, &'static str> {
        let rounds = branchable(debate);
        match session {
            None => return Err("No debate is shown: start one, or open one with s"),
            Some("demo") if replaying => return Err("The demo is not stored: a branch is taken from a stored debate"),
            Some(_) if rounds.is_empty() => {
                return Err("No round has finished and left the debate open: a branch goes on after one");
            }
            Some(_) => {}
        }
        let kept = rounds.iter().map(|&(round, _)| debate.kept_after(round)).collect();
        Ok(BranchForm {
            from: session.unwrap_or_default().to_string(),
            at: rounds.len() - 1,
            rounds,
            kept,
            swap_sides: (!debate.free()).then_some(false),
            heat: None,
            text: topic_area("A note for the next round (optional); Ctrl-T: make it the question"),
            as_question: false,
            stops_running: live && !replaying,
            heat_by: match debate.judges() {
                0 => "the vote",
                1 => "the judge",
                _ => "the panel",
            },
        })
    }

    /// A key in the form: Enter gives the branch to start.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<BranchRequest> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Left => self.at = self.at.saturating_sub(1),
            KeyCode::Right => self.at = (self.at + 1).min(self.rounds.len().saturating_sub(1)),
            KeyCode::Up | KeyCode::Down => {
                let from = self.heat_used().0;
                self.heat = Some(from.step(key.code == KeyCode::Up));
            }
            // Free debaters argue answers of their own: there are no sides to swap.
            KeyCode::Char('s') if ctrl => self.swap_sides = self.swap_sides.map(|swapped| !swapped),
            KeyCode::Char('t') if ctrl => self.as_question = !self.as_question,
            KeyCode::Enter => return FormStep::Done(self.request()),
            _ => {
                self.text.input(key);
            }
        }
        FormStep::Stay
    }
}
