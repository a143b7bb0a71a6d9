//! How alike the current round's two arguments are, for the header:
//! measured again only when one of them changes (settles, or a new round
//! starts), not on every frame; a 15,000-word pair took a share of the
//! studio's CPU while the judge streamed.

use crate::debate::{DebateState, Role, convergence};

/// What the measure was taken of: the round and each side's settled
/// argument's length (`None` while it is not settled).
type Key = (u32, Option<usize>, Option<usize>);

/// The current round's likeness, kept with what it was measured on.
#[derive(Debug, Clone, Default)]
pub struct Likeness {
    measured: Option<(Key, Option<f64>)>,
}

impl Likeness {
    /// Measures the current round again if its arguments changed.
    pub fn refresh(&mut self, state: &DebateState) {
        let Some(round) = state.current_round() else {
            self.measured = None;
            return;
        };
        let settled = |role: Role| round.argument(role).map(str::len);
        let key = (round.number, settled(Role::Advocate), settled(Role::Skeptic));
        if self.measured.as_ref().is_none_or(|(known, _)| *known != key) {
            self.measured = Some((key, convergence::of_round(round)));
        }
    }

    /// The likeness of `round` (from 0), when it is the round last measured.
    pub fn of(&self, round: u32) -> Option<f64> {
        self.measured.as_ref().filter(|((number, ..), _)| *number == round).and_then(|(_, value)| *value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{DebateEvent, Heat, TurnPurpose};

    #[test]
    fn the_measure_follows_the_arguments_as_they_settle() {
        let mut state = DebateState::default();
        let mut likeness = Likeness::default();
        let events = [
            DebateEvent::Started {
                topic: "t".into(),
                max_rounds: 2,
                initial_heat: Heat::new(0.9),
                participants: Vec::new(),
            },
            DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.9), injected: Vec::new() },
        ];
        for event in &events {
            state.apply(event);
        }
        let argue = |role, text: &str| DebateEvent::turn(0, role, TurnPurpose::Argue, text);
        for event in argue(Role::Advocate, "Tabs keep files small and let readers choose widths.") {
            state.apply(&event);
        }
        likeness.refresh(&state);
        assert_eq!(likeness.of(0), None, "one side has spoken");
        for event in argue(Role::Skeptic, "Tabs keep files small and let readers choose widths.") {
            state.apply(&event);
        }
        likeness.refresh(&state);
        assert_eq!(likeness.of(0), convergence::of_round(&state.rounds[0]));
        assert!(likeness.of(0).is_some_and(|x| x > 0.99), "the same words");
        assert_eq!(likeness.of(1), None, "only the round measured");
    }
}
