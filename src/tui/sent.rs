//! `w`: what the focused seat's turn in view was sent (its request as heat
//! built it: the system prompt, the messages with the person's notes in
//! place, the temperature; secrets redacted), read by scrolling; any other
//! key closes it.

use super::copy::focused_turn;
use super::paged::Paged;
use super::panes::Panes;
use crate::debate::{DebateState, Role, TurnPurpose};

/// The turn whose request is shown, and where it is scrolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentView {
    /// The round (from 0) and the seat of the turn.
    pub round: u32,
    pub role: Role,
    pub paged: Paged,
}

impl SentView {
    /// The request of the focused pane's turn in view (as `y` chooses it);
    /// why not, when the seat has not been asked or its log kept none.
    pub fn open(debate: &DebateState, panes: &Panes) -> Result<Self, String> {
        let role = panes.focused_role();
        let seat = debate.seat_name(role);
        let Some((round, turn)) = focused_turn(debate, panes) else {
            return Err(format!("Nothing sent yet: the {seat} has not been asked"));
        };
        if turn.sent.is_none() {
            return Err(format!(
                "The {seat}'s round {} request was not kept: its session was written before heat kept requests",
                round.number + 1
            ));
        }
        Ok(Self { round: round.number, role, paged: Paged::default() })
    }

    /// "the skeptic's round 2 argument", as the dialog's title names it.
    pub fn what(&self, debate: &DebateState) -> String {
        let who = debate.seat_name(self.role);
        let number = self.round + 1;
        let purpose =
            debate.rounds.iter().find(|r| r.number == self.round).and_then(|r| r.turn(self.role)).map(|t| t.purpose);
        match purpose {
            Some(TurnPurpose::Argue) | None => format!("the {who}'s round {number} argument"),
            Some(TurnPurpose::Judge | TurnPurpose::RepairVerdict) => format!("the {who}'s round {number} verdict"),
            Some(TurnPurpose::Synthesis | TurnPurpose::RepairSynthesis) => format!("the {who}'s final synthesis"),
        }
    }
}
