//! `b`: a branch of the shown debate after one of its finished rounds, the
//! studio's `heat branch`. The form chooses the round (←/→), whether the
//! sides swap (Ctrl-S), the next round's heat (↑/↓, else the judge's), and
//! a text (typed) that the next round carries as a note, or asks as its
//! question (Ctrl-T). Enter asks the event loop to start the branch.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::app::{App, Tone, Until};
use super::effect::Effect;
use super::modal::{Modal, topic_area};
use crate::debate::state::VerdictStatus;
use crate::debate::{DebateState, Heat, Role, vote};

/// What the event loop needs to start a branch.
#[derive(Debug, Clone, PartialEq)]
pub struct BranchRequest {
    /// The stored debate branched.
    pub from: String,
    /// The last round shared (from 1).
    pub round: u32,
    pub swap_sides: bool,
    /// The next round's heat, when the person set one.
    pub heat: Option<Heat>,
    /// The next round's question, instead of the judge's.
    pub question: Option<String>,
    /// A note the next round's prompts carry.
    pub note: Option<String>,
}

/// The form as it is filled in.
pub struct BranchForm {
    pub from: String,
    /// The rounds that can be branched (from 1), each with the heat its
    /// judge set for the round after.
    pub rounds: Vec<(u32, Heat)>,
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

impl App {
    /// Opens the form, or says in one sentence why a branch cannot be taken.
    pub(super) fn open_branch_form(&mut self) -> Vec<Effect> {
        let rounds = branchable(&self.debate);
        let why = match (&self.session, self.replay.is_some()) {
            (None, _) => Some("No debate is shown: start one, or open one with s"),
            (Some(id), true) if id == "demo" => Some("The demo is not stored: a branch is taken from a stored debate"),
            _ if rounds.is_empty() => {
                Some("No round has finished and left the debate open: a branch goes on after one")
            }
            _ => None,
        };
        if let Some(why) = why {
            self.say_until(Tone::Info, why, Until::NextRound);
            return Vec::new();
        }
        let from = self.session.clone().unwrap_or_default();
        let form = BranchForm {
            from,
            at: rounds.len() - 1,
            rounds,
            swap_sides: (!self.debate.free()).then_some(false),
            heat: None,
            text: topic_area("A note for the next round (optional); Ctrl-T: make it the question"),
            as_question: false,
            stops_running: self.live() && self.replay.is_none(),
            heat_by: match self.debate.judges() {
                0 => "the vote",
                1 => "the judge",
                _ => "the panel",
            },
        };
        self.modal = Some(Modal::Branch(Box::new(form)));
        Vec::new()
    }

    pub(super) fn branch_key(&mut self, mut form: Box<BranchForm>, key: KeyEvent) -> Vec<Effect> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Left => form.at = form.at.saturating_sub(1),
            KeyCode::Right => form.at = (form.at + 1).min(form.rounds.len().saturating_sub(1)),
            KeyCode::Up | KeyCode::Down => {
                let from = form.heat.unwrap_or(form.chosen().1);
                form.heat = Some(from.step(key.code == KeyCode::Up));
            }
            // Free debaters argue answers of their own: there are no sides to swap.
            KeyCode::Char('s') if ctrl => form.swap_sides = form.swap_sides.map(|swapped| !swapped),
            KeyCode::Char('t') if ctrl => form.as_question = !form.as_question,
            KeyCode::Enter => {
                let request = form.request();
                let said = format!("Branching session {} after round {}", request.from, request.round);
                self.say_until(Tone::Info, said, Until::NextRound);
                return vec![Effect::Branch(request)];
            }
            _ => {
                form.text.input(key);
            }
        }
        self.modal = Some(Modal::Branch(form));
        Vec::new()
    }
}
