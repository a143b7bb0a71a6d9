//! Whom a note or a pinned heat is for, chosen in its dialog with Tab:
//! every seat, one seat, or (where a judge sits) every debater but not the
//! judge.

use crate::debate::{DebateState, Role};

/// The seats a dialog's note or pin goes to, and the choices Tab cycles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatTarget {
    /// Each choice: empty is every seat.
    choices: Vec<Vec<Role>>,
    at: usize,
    /// Each seat's name as the debate calls it ("the skeptic").
    names: Vec<(Role, String)>,
}

impl SeatTarget {
    /// For a note: every seat, each seat alone, and the debaters without
    /// the judge (where a judge sits and two debaters or more argue).
    pub fn for_note(state: &DebateState) -> Self {
        let seats = state.seats();
        let debaters = state.debaters().to_vec();
        let mut choices = vec![Vec::new()];
        choices.extend(seats.iter().map(|&r| vec![r]));
        if state.judges() > 0 && debaters.len() > 1 {
            choices.push(debaters);
        }
        Self::new(state, choices)
    }

    /// For a pin: every seat, or one debater alone (the judge's temperature
    /// is its own, not the heat).
    pub fn for_pin(state: &DebateState) -> Self {
        let mut choices = vec![Vec::new()];
        choices.extend(state.debaters().iter().map(|&r| vec![r]));
        Self::new(state, choices)
    }

    fn new(state: &DebateState, choices: Vec<Vec<Role>>) -> Self {
        let names = state.seats().into_iter().map(|r| (r, format!("the {}", state.seat_name(r)))).collect();
        Self { choices, at: 0, names }
    }

    /// Tab: the next choice; Shift-Tab: the one before.
    pub fn cycle(&mut self, forward: bool) {
        let n = self.choices.len().max(1);
        self.at = if forward { (self.at + 1) % n } else { (self.at + n - 1) % n };
    }

    /// The seats chosen; empty is every seat.
    pub fn seats(&self) -> &[Role] {
        self.choices.get(self.at).map_or(&[], Vec::as_slice)
    }

    /// Whether every seat is chosen.
    pub fn is_everyone(&self) -> bool {
        self.seats().is_empty()
    }

    /// The choice in words: "every seat", "the skeptic only", "the advocate
    /// and the skeptic only".
    pub fn describe(&self) -> String {
        if self.is_everyone() {
            return "every seat".into();
        }
        let names: Vec<&str> = self
            .seats()
            .iter()
            .filter_map(|r| self.names.iter().find(|(role, _)| role == r).map(|(_, n)| n.as_str()))
            .collect();
        format!("{} only", names.join(" and "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::DebateEvent;
    use crate::debate::event::Participant;

    fn duel() -> DebateState {
        let participants = Role::DUEL.iter().map(|&role| Participant::new(role, "openai", "m")).collect();
        DebateState::from_events(&[DebateEvent::Started {
            topic: "T".into(),
            max_rounds: 3,
            initial_heat: crate::debate::Heat::new(0.7),
            participants,
        }])
    }

    #[test]
    fn a_note_cycles_every_seat_each_seat_and_the_debaters_then_back() {
        let mut to = SeatTarget::for_note(&duel());
        let mut said = vec![to.describe()];
        for _ in 0..5 {
            to.cycle(true);
            said.push(to.describe());
        }
        assert_eq!(
            said,
            [
                "every seat",
                "the advocate only",
                "the skeptic only",
                "the judge only",
                "the advocate and the skeptic only",
                "every seat"
            ]
        );
        to.cycle(false);
        assert_eq!(to.seats(), [Role::Advocate, Role::Skeptic]);
    }

    #[test]
    fn a_pin_goes_to_every_seat_or_one_debater_never_the_judge() {
        let mut to = SeatTarget::for_pin(&duel());
        to.cycle(false);
        assert_eq!(to.seats(), [Role::Skeptic]);
        to.cycle(true);
        assert!(to.is_everyone());
    }
}
