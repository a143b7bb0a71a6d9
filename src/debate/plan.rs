//! The protocol as a pure function: given the folded state and the turns in
//! flight, what the engine should do next. No I/O, no async; the engine
//! performs the steps. Resume needs nothing else: fold the log, then plan.

use super::event::{Outcome, Role, TurnPurpose};
use super::extractive;
use super::heat::Heat;
use super::state::{DebateState, Round, Turn, TurnStatus, VerdictStatus};
use super::swap::SwapCheck;

/// One thing the engine should do.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    StartRound {
        round: u32,
        topic: String,
        heat: Heat,
        injected: Vec<String>,
    },
    StartTurn {
        round: u32,
        role: Role,
        purpose: TurnPurpose,
    },
    /// Ask the judge again about `round`'s verdict, the debaters swapped.
    SwapCheck {
        round: u32,
    },
    Finish {
        outcome: Outcome,
        synthesis: Option<String>,
    },
}

/// What the planner is told besides the state and the turns in flight.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// `debate.swap_check`: each round's verdict is checked with the
    /// debaters swapped before the debate goes on.
    pub swap_check: bool,
    /// A swap check's call is under way.
    pub swap_in_flight: bool,
}

/// What to do now, with no swap check. Empty means: wait for a turn, a
/// command, or resume.
pub fn next_steps(state: &DebateState, in_flight: &[Role]) -> Vec<Step> {
    next_steps_with(state, in_flight, Options::default())
}

/// What to do now. Empty means: wait for a turn, a swap check, a command,
/// or resume.
pub fn next_steps_with(state: &DebateState, in_flight: &[Role], options: Options) -> Vec<Step> {
    if state.finish.is_some() || state.paused {
        return Vec::new();
    }
    let Some(round) = state.current_round() else {
        return vec![start_round(state, 0, state.topic.clone())];
    };
    let mut steps = Vec::new();
    let mut debaters_settled = true;
    for role in Role::DEBATERS {
        match round.turn(role) {
            Some(t) if t.is_settled() => {}
            Some(t) if t.is_open() && in_flight.contains(&role) => debaters_settled = false,
            Some(t) if matches!(t.status, TurnStatus::Failed { .. }) => {
                return vec![failed(role, &t.status)];
            }
            // Not started, or left open by an interrupted process.
            _ => {
                debaters_settled = false;
                steps.push(Step::StartTurn { round: round.number, role, purpose: TurnPurpose::Argue });
            }
        }
    }
    if !debaters_settled {
        return steps;
    }
    judge_steps(state, round, in_flight, options)
}

fn judge_steps(state: &DebateState, round: &Round, in_flight: &[Role], options: Options) -> Vec<Step> {
    let is_last = round.number + 1 >= state.max_rounds;
    let wants_final =
        state.force_requested || is_last || (state.may_resolve_early() && state.consensus_in(round.number));
    let start = |purpose| vec![Step::StartTurn { round: round.number, role: Role::Judge, purpose }];
    let Some(judge) = round.turn(Role::Judge) else {
        return start(if wants_final { TurnPurpose::Synthesis } else { TurnPurpose::Judge });
    };
    if judge.is_open() {
        return if in_flight.contains(&Role::Judge) { Vec::new() } else { start(judge.purpose) };
    }
    if matches!(judge.status, TurnStatus::Failed { .. }) {
        return vec![failed(Role::Judge, &judge.status)];
    }
    let was_final = judge.purpose.is_final();
    let finish = |synthesis: Option<String>| {
        let outcome = if state.force_requested {
            Outcome::Forced
        } else if state.may_resolve_early() && state.consensus_in(round.number) {
            Outcome::Consensus
        } else if state.dissenting() {
            Outcome::Dissent
        } else if was_final && is_last {
            Outcome::MaxRounds
        } else {
            Outcome::Resolved
        };
        vec![Step::Finish { outcome, synthesis }]
    };
    match &judge.verdict {
        Some(VerdictStatus::Parsed { verdict }) => {
            if let Some(steps) = swap_steps(round, judge, options) {
                return steps;
            }
            if verdict.resolved || was_final {
                finish(Some(verdict.verdict.clone()))
            } else if wants_final {
                start(TurnPurpose::Synthesis)
            } else {
                vec![start_round(state, round.number + 1, verdict.topic.clone())]
            }
        }
        Some(VerdictStatus::Invalid { will_retry: true, .. }) => {
            start(if was_final { TurnPurpose::RepairSynthesis } else { TurnPurpose::RepairVerdict })
        }
        // Unparsable twice, or cancelled: keep the previous heat and topic.
        Some(VerdictStatus::Invalid { will_retry: false, .. }) | None => {
            if was_final {
                finish(None)
            } else if wants_final {
                start(TurnPurpose::Synthesis)
            } else {
                vec![start_round(state, round.number + 1, round.topic.clone())]
            }
        }
    }
}

/// The swap check a round's verdict waits for: `None` when none is due
/// (the setting is off, the verdict is the final synthesis, the embedded
/// judge's chosen form names no side, or the check has settled).
fn swap_steps(round: &Round, judge: &Turn, options: Options) -> Option<Vec<Step>> {
    if !options.swap_check || judge.purpose.is_final() || extractive::is_chosen(&judge.text) {
        return None;
    }
    match round.swap {
        Some(SwapCheck::Asking) if options.swap_in_flight => Some(Vec::new()),
        // Not asked yet, or asked by a process that stopped before the answer.
        None | Some(SwapCheck::Asking) => Some(vec![Step::SwapCheck { round: round.number }]),
        Some(SwapCheck::Answered { .. } | SwapCheck::Failed { .. }) => None,
    }
}

/// The next round: its question is the one given (a branch's edited
/// question wins over it), its heat the one in force.
fn start_round(state: &DebateState, round: u32, topic: String) -> Step {
    let topic = state.next_question.clone().unwrap_or(topic);
    Step::StartRound { round, topic, heat: state.effective_heat(), injected: state.pending_injections.clone() }
}

fn failed(role: Role, status: &TurnStatus) -> Step {
    let why = match status {
        TurnStatus::Failed { error } => error.clone(),
        _ => "unknown error".into(),
    };
    Step::Finish { outcome: Outcome::Failed(format!("the {} could not answer: {why}", role.key())), synthesis: None }
}
