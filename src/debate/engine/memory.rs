//! What the engine says once a debate, so it is not said again: the
//! warning that most of the budget is spent, the debaters said to sit a
//! round out, and how many earlier rounds each seat's prompt was said to
//! leave out. Each decision is a pure step over this and the state.
//!
//! A resumed debate starts from what its log says: the budget warning, the
//! sit-outs and the rounds left out are notices it recorded in heat's own
//! words, read back by the functions that write them, so they are not said
//! again. The parameters a seat's model refused are not kept here: each is
//! recorded as an event of its own (`ParameterRefused`, by `heard`, the
//! first time a call meets it) beside its notice, which names the model,
//! and folded into the state (`DebateState::refused`), so a resumed
//! debate's requests leave it out as the interrupted one's did, and no
//! request meets the refusal, or says its notice, again. A log written
//! before that event holds no refusal: the first request learns it, as it
//! always did.

use std::collections::HashSet;

use crate::debate::event::DebateEvent;
use crate::debate::notices;
use crate::debate::seat::Role;
use crate::debate::state::DebateState;

#[derive(Debug, Default)]
pub(super) struct Memory {
    budget_warned: bool,
    /// Earlier rounds each seat's prompt was said to leave out.
    left_out: [usize; Role::COUNT],
    /// The debaters said to sit a round out, by round.
    sat_out: HashSet<(u32, Role)>,
}

impl Memory {
    /// What `state`'s log shows was said already.
    pub(super) fn of(state: &DebateState) -> Self {
        let mut memory = Self {
            budget_warned: state.notices.iter().any(|n| crate::debate::budget::is_warning(n)),
            ..Self::default()
        };
        for round in &state.rounds {
            for &role in state.debaters() {
                if state.notices.contains(&sits_out(state, round.number, role)) {
                    memory.sat_out.insert((round.number, role));
                }
            }
        }
        for role in Role::ALL {
            memory.left_out[role.position()] = left_out_said(state, role);
        }
        memory
    }

    /// The budget warning `message`, the first time one is due.
    pub(super) fn budget_near(&mut self, message: String) -> Option<DebateEvent> {
        (!std::mem::replace(&mut self.budget_warned, true)).then_some(DebateEvent::Notice { message })
    }

    /// The notices for the debaters of the current round who sit it out
    /// (their turn failed for good) and were not said to yet.
    pub(super) fn sitting_out(&mut self, state: &DebateState) -> Vec<DebateEvent> {
        let Some(round) = state.current_round() else { return Vec::new() };
        let number = round.number;
        crate::debate::plan::sitting_out(state, round)
            .into_iter()
            .filter(|&role| self.sat_out.insert((number, role)))
            .map(|role| DebateEvent::Notice { message: sits_out(state, number, role) })
            .collect()
    }

    /// Whether `role`'s prompt leaving out `rounds` earlier rounds is news
    /// (more than it was said to leave out); it is then remembered.
    pub(super) fn leaves_out(&mut self, role: Role, rounds: usize) -> bool {
        let said = &mut self.left_out[role.position()];
        let news = rounds > *said;
        *said = (*said).max(rounds);
        news
    }
}

/// The most earlier rounds `state`'s log said `role`'s prompt leaves out
/// (none are left out but rounds it holds).
fn left_out_said(state: &DebateState, role: Role) -> usize {
    let seat = state.seat_name(role);
    (1..=state.rounds.len())
        .rev()
        .find(|&rounds| {
            let opening = notices::left_out_opening(&seat, rounds);
            state.notices.iter().any(|n| n.starts_with(&opening))
        })
        .unwrap_or(0)
}

/// The notice that `role` sits round `round` (from 0) out.
fn sits_out(state: &DebateState, round: u32, role: Role) -> String {
    format!("the {} sits round {} out; the other debaters go on", state.seat_name(role), round + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::heat::Heat;

    fn started(notices: &[&str]) -> DebateState {
        let mut state = DebateState::default();
        state.apply(&DebateEvent::duel_started());
        for round in 0..2 {
            let topic = "Tabs beat spaces".to_string();
            state.apply(&DebateEvent::RoundStarted { round, topic, heat: Heat::new(0.9), injected: Vec::new() });
        }
        for message in notices {
            state.apply(&DebateEvent::Notice { message: (*message).to_string() });
        }
        state
    }

    #[test]
    fn the_budget_warning_is_said_once_and_not_again_after_a_resume() {
        let near = "85 % of the budget spent: 850 tokens of the 1,000 budgeted (debate.budget_tokens)";
        let mut fresh = Memory::of(&started(&[]));
        assert_eq!(fresh.budget_near(near.into()), Some(DebateEvent::Notice { message: near.into() }));
        assert_eq!(fresh.budget_near("90 % of the budget spent: …".into()), None);
        let mut resumed = Memory::of(&started(&[near]));
        assert_eq!(resumed.budget_near("90 % of the budget spent: …".into()), None, "its log said it");
    }

    #[test]
    fn a_sit_out_the_log_said_is_remembered_on_resume() {
        let state = started(&["the skeptic sits round 2 out; the other debaters go on"]);
        let memory = Memory::of(&state);
        assert_eq!(memory.sat_out, HashSet::from([(1, Role::Skeptic)]));
        assert_eq!(sits_out(&state, 1, Role::Skeptic), "the skeptic sits round 2 out; the other debaters go on");
    }

    #[test]
    fn the_rounds_left_out_the_log_said_are_not_said_again_after_a_resume() {
        let said = [notices::rounds_left_out("skeptic", 2, 8_192), notices::rounds_left_out("judge", 1, 4_096)];
        let mut resumed = Memory::of(&started(&said.each_ref().map(String::as_str)));
        assert!(!resumed.leaves_out(Role::Skeptic, 2), "its log said it");
        assert!(!resumed.leaves_out(Role::Skeptic, 1), "fewer than it said");
        assert!(!resumed.leaves_out(Role::Judge, 1), "the judge's prompt too");
        assert!(resumed.leaves_out(Role::Advocate, 1), "each seat its own");
        assert!(resumed.leaves_out(Role::Skeptic, 3), "more is news");
        let fresh = Memory::of(&started(&["The skeptic's prompt gives the earliest round in brief"]));
        assert_eq!(fresh.left_out, [0; Role::COUNT], "only the sentence heat writes is read back");
    }

    #[test]
    fn a_seats_left_out_rounds_are_news_only_as_they_grow() {
        let mut memory = Memory::default();
        assert!(memory.leaves_out(Role::Advocate, 1));
        assert!(!memory.leaves_out(Role::Advocate, 1));
        assert!(!memory.leaves_out(Role::Advocate, 0));
        assert!(memory.leaves_out(Role::Advocate, 2));
        assert!(memory.leaves_out(Role::Skeptic, 1), "each seat its own");
    }
}
