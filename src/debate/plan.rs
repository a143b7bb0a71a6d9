//! The protocol as a pure function: given the folded state and the calls
//! under way, what the engine should do next. No I/O, no async; the engine
//! performs the steps. Resume needs nothing else: fold the log, then plan.

use super::call::Call;
use super::event::TurnPurpose;
use super::extractive;
use super::heat::Heat;
use super::outcome::Outcome;
use super::panel::{self, vote::Vote};
use super::seat::PanelJudge;
use super::seat::Role;
use super::seat::Side;
use super::state::{DebateState, Round, Turn, TurnStatus, VerdictStatus};
use super::swap::check::SwapCheck;
use super::vote;

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
    /// Ask a panel's judge `judge` (2, 3, …) for its vote on `round`.
    PanelVote {
        round: u32,
        judge: PanelJudge,
    },
    /// Ask the judge again about `round`'s verdict, the debaters swapped.
    SwapCheck {
        round: u32,
    },
    /// Ask `role`'s model to put its argument in `round` in brief
    /// (`debate.summaries = "model"`).
    Brief {
        round: u32,
        role: Role,
    },
    Finish {
        outcome: Outcome,
        synthesis: Option<String>,
    },
}

/// What the planner is told besides the state and the calls under way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// `debate.swap_check`: each round's verdict is checked with the
    /// debaters swapped before the debate goes on.
    pub swap_check: bool,
    /// A panel's judges vote one at a time, after the chair (the embedded
    /// model: each vote holds a grammar of its own in memory).
    pub votes_in_turn: bool,
    /// `debate.summaries = "model"`: the arguments a round's prompts give in
    /// brief are put so by their debaters' models before the round starts.
    pub model_briefs: bool,
}

/// What to do now, with these seats' turns of the current round under way
/// and no other call (no swap check, no panel). Empty means: wait for a
/// turn, a command, or resume.
pub fn next_steps(state: &DebateState, turns: &[Role]) -> Vec<Step> {
    let round = state.current_round().map_or(0, |r| r.number);
    let calls: Vec<Call> = turns.iter().map(|&role| Call::Turn { round, role }).collect();
    next_steps_with(state, &calls, Options::default())
}

/// What to do now, with `calls` under way. Empty means: wait for a call,
/// a command, or resume.
pub fn next_steps_with(state: &DebateState, calls: &[Call], options: Options) -> Vec<Step> {
    if state.finish.is_some() || state.paused {
        return Vec::new();
    }
    let Some(round) = state.current_round() else {
        return vec![start_round(state, 0, state.topic.clone())];
    };
    // An ending a person set aside (its judge done, or its synthesis once written): the next round follows.
    let judge_done = round.turn(Role::Judge).is_none_or(|t| !t.is_open());
    if state.reopened_after == Some(round.number) && judge_done {
        return vec![start_round(state, round.number + 1, state.question_ahead())];
    }
    if options.model_briefs
        && let Some(due) = super::briefing::due(state, round, calls)
    {
        return due.into_iter().map(|(round, role)| Step::Brief { round, role }).collect();
    }
    let turning = |role: Role| calls.contains(&Call::Turn { round: round.number, role });
    let mut steps = Vec::new();
    let mut debaters_settled = true;
    for &role in state.debaters() {
        match round.turn(role) {
            Some(t) if t.is_settled() => {}
            Some(t) if t.is_open() && turning(role) => debaters_settled = false,
            Some(t) if matches!(t.status, TurnStatus::Failed { .. }) => {
                if !goes_on_without_failed(state, round) {
                    // A format's seat is named as the format names it ("the logic critic"), not by its log name.
                    let name = if state.format.is_some() { state.seat_name(role) } else { role.key().into() };
                    return vec![failed(&name, &t.status)];
                }
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
    if state.judges() == 0 {
        return vote_steps(state, round);
    }
    judge_steps(state, round, calls, options)
}

/// Whether `round` can go on without its debaters whose turn failed for
/// good, each sitting the round out: a format of three debaters or more,
/// where at least two have answered or may still answer, and each side
/// that sits (for, against) keeps one of them. A duel's failed debater
/// still ends the debate.
pub fn goes_on_without_failed(state: &DebateState, round: &Round) -> bool {
    let debaters = state.debaters();
    if debaters.len() < 3 {
        return false;
    }
    let failed = |role: Role| round.turn(role).is_some_and(|t| matches!(t.status, TurnStatus::Failed { .. }));
    let left: Vec<Role> = debaters.iter().copied().filter(|&r| !failed(r)).collect();
    let sides = [Side::For, Side::Against];
    let side_kept =
        |side: Side| debaters.iter().all(|&r| state.side(r) != side) || left.iter().any(|&r| state.side(r) == side);
    left.len() >= 2 && sides.into_iter().all(side_kept)
}

/// The debaters of `round` who sit it out: their turn failed for good and
/// the round went on without them ([`goes_on_without_failed`]).
pub fn sitting_out(state: &DebateState, round: &Round) -> Vec<Role> {
    if !goes_on_without_failed(state, round) {
        return Vec::new();
    }
    let failed = |role: &&Role| round.turn(**role).is_some_and(|t| matches!(t.status, TurnStatus::Failed { .. }));
    state.debaters().iter().filter(failed).copied().collect()
}

/// What follows a round with no judge: the final answers decide. All
/// alike ends it (`converged`, when the format stops on it); the last
/// round, or a forced resolution, ends it at the vote; otherwise the next
/// round starts on the same question, its heat lowered as the answers
/// agree (`vote::next_heat`) unless a person pinned one.
fn vote_steps(state: &DebateState, round: &Round) -> Vec<Step> {
    let tally = vote::of_round(state, round.number);
    let stops = state.format.as_ref().and_then(|f| f.convergence).is_none_or(|c| c.stop);
    let converged = tally.as_ref().is_some_and(vote::Tally::converged);
    let outcome = if state.force_requested {
        Outcome::Forced
    } else if converged && stops {
        Outcome::Converged
    } else if round.number + 1 >= state.max_rounds {
        Outcome::MaxRounds
    } else {
        let agreement = tally.as_ref().map_or(0.0, vote::Tally::agreement);
        let heat = state.pinned_heat.unwrap_or_else(|| vote::next_heat(state.initial_heat, agreement));
        let topic = state.next_question.clone().unwrap_or_else(|| round.topic.clone());
        return vec![Step::StartRound {
            round: round.number + 1,
            topic,
            heat,
            injected: state.pending_injections.clone(),
        }];
    };
    let synthesis = tally.as_ref().map(|t| format!("The vote: {}.", vote::describe(state, t)));
    vec![Step::Finish { outcome, synthesis }]
}

/// Whether `round` is the debate's last, and whether its judge is to give
/// the last word (the last round, a forced resolution or the sides' consensus).
fn last_word(state: &DebateState, round: &Round) -> (bool, bool) {
    let is_last = round.number + 1 >= state.max_rounds;
    let wants_final = state.force_requested
        || is_last
        || (state.may_resolve_early() && state.consensus_in(round.number))
        || super::vote::converged_in(state, round.number);
    (is_last, wants_final)
}

fn judge_steps(state: &DebateState, round: &Round, calls: &[Call], options: Options) -> Vec<Step> {
    let (is_last, wants_final) = last_word(state, round);
    let judges = state.judges();
    let voting: Vec<PanelJudge> = calls
        .iter()
        .filter_map(|call| match *call {
            Call::Vote { round: r, judge } if r == round.number => Some(judge),
            _ => None,
        })
        .collect();
    // A panel's other judges vote on the round while the chair judges it.
    // The chair first: the other judges are asked as the chair is, for the
    // last word or a round's verdict.
    let mut unasked = panel::unasked(round, judges, &voting);
    if options.votes_in_turn {
        let chair_busy = round
            .turn(Role::Judge)
            .is_none_or(|t| t.is_open() || matches!(t.verdict, Some(VerdictStatus::Invalid { will_retry: true, .. })));
        let free = !chair_busy && voting.is_empty();
        unasked.truncate(usize::from(free));
    }
    let votes: Vec<Step> = unasked.into_iter().map(|judge| Step::PanelVote { round: round.number, judge }).collect();
    let start = |purpose| Step::StartTurn { round: round.number, role: Role::Judge, purpose };
    let with_votes = |chair: Option<Step>| chair.into_iter().chain(votes.clone()).collect::<Vec<_>>();
    let Some(judge) = round.turn(Role::Judge) else {
        return with_votes(Some(start(if wants_final { TurnPurpose::Synthesis } else { TurnPurpose::Judge })));
    };
    if judge.is_open() {
        let turning = calls.contains(&Call::Turn { round: round.number, role: Role::Judge });
        return with_votes((!turning).then(|| start(judge.purpose)));
    }
    if let Some(VerdictStatus::Invalid { will_retry: true, .. }) = &judge.verdict {
        let was_final = judge.purpose.is_final();
        return with_votes(Some(start(if was_final {
            TurnPurpose::RepairSynthesis
        } else {
            TurnPurpose::RepairVerdict
        })));
    }
    if !panel::members_settled(round, judges) {
        return with_votes(None);
    }
    let said = match panel::decide_in(state, round) {
        _ if judges < 2 => Said::Lone,
        Ok(decision) => Said::Panel(decision.resolved),
        Err(_) => Said::Undecided,
    };
    if matches!(judge.status, TurnStatus::Failed { .. }) {
        let goes_on = !(wants_final || judge.purpose.is_final());
        // A panel goes on without its chair, its question kept; with no answer at all the chair's failure says why.
        return match said {
            Said::Lone => vec![failed(Role::Judge.key(), &judge.status)],
            Said::Undecided if panel::ballots(round).is_empty() => vec![failed(Role::Judge.key(), &judge.status)],
            Said::Panel(false) | Said::Undecided if goes_on => {
                vec![start_round(state, round.number + 1, round.topic.clone())]
            }
            Said::Panel(_) | Said::Undecided => vec![Step::Finish {
                outcome: finish_outcome(state, round, true, is_last),
                synthesis: fallback_synthesis(state, round),
            }],
        };
    }
    let checking = calls.contains(&Call::SwapCheck { round: round.number });
    decide_steps(state, round, judge, (options, checking), said)
}

/// The debate ends on `round` with no chair's verdict that could be read:
/// its synthesis is the readable word nearest the end, said as such. A
/// panel judge's verdict on this round, else the chair's last readable
/// verdict of an earlier round; `None` when no verdict was ever read.
pub fn fallback_synthesis(state: &DebateState, round: &Round) -> Option<String> {
    let chair = crate::debate::format::clean_label(state.label(Role::Judge));
    let voted = round.panel.iter().find_map(|(&judge, vote)| match vote {
        Vote::Voted { verdict, .. } if !verdict.verdict.trim().is_empty() => Some((judge, verdict)),
        _ => None,
    });
    if let Some((judge, verdict)) = voted {
        let name = panel::judge_name(state, judge);
        return Some(format!("{name}'s verdict, as the {chair}'s last word could not be read: {}", verdict.verdict));
    }
    let earlier =
        state.rounds.iter().rev().filter(|r| r.number < round.number).find_map(|r| Some((r.number, r.verdict()?)));
    earlier.map(|(number, verdict)| {
        format!(
            "The {chair}'s last readable verdict, from round {}, as its last word could not be read: {}",
            number + 1,
            verdict.verdict
        )
    })
}

/// Why a finished debate that has judges has no synthesis, when the
/// reason is that none of their verdicts could ever be read (a small model
/// on every try): said where the synthesis would stand, so the ending does
/// not look cut off. `None` when there is a synthesis, no judge, or the
/// debate failed, was cancelled, was invalidated or ran out of time (those
/// say why).
pub fn missing_synthesis(state: &DebateState) -> Option<String> {
    let finish = state.finish.as_ref()?;
    let ended = finish.outcome.concluded() && !matches!(finish.outcome, Outcome::Timeout(_));
    let unread = state.rounds.iter().all(|r| r.verdict().is_none());
    (finish.synthesis.is_none() && state.judges() > 0 && ended && unread).then(|| {
        let chair = crate::debate::format::clean_label(state.label(Role::Judge)).to_lowercase();
        format!("no synthesis: none of the {chair}'s verdicts could be read, in any round")
    })
}

/// What a round's judges said about going on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Said {
    /// One judge: its verdict says.
    Lone,
    /// A panel's majority on `resolved`.
    Panel(bool),
    /// Too few of a panel answered: the heat and the question are kept, as
    /// for a lone judge's verdict that could not be read.
    Undecided,
}

/// What follows the chair's settled verdict, given what the judges said.
fn decide_steps(state: &DebateState, round: &Round, judge: &Turn, swap: (Options, bool), said: Said) -> Vec<Step> {
    let (is_last, wants_final) = last_word(state, round);
    let start = |purpose| vec![Step::StartTurn { round: round.number, role: Role::Judge, purpose }];
    let was_final = judge.purpose.is_final();
    let finish = |synthesis: Option<String>| {
        vec![Step::Finish { outcome: finish_outcome(state, round, was_final, is_last), synthesis }]
    };
    match &judge.verdict {
        Some(VerdictStatus::Parsed { verdict }) => {
            if let Some(steps) = swap_steps(state, round, judge, swap) {
                return steps;
            }
            let resolved = match said {
                Said::Lone => verdict.resolved,
                Said::Panel(resolved) => resolved,
                Said::Undecided => false,
            };
            // A topic the person injected after the round began has no round left to carry it
            // once the judges resolve: the final synthesis is asked to weigh it, as in the last round.
            // A question the person set for the next round keeps the debate open for it.
            let question_waits = resolved && !was_final && state.next_question.is_some();
            let injected_waits = resolved && !was_final && !state.pending_injections.is_empty();
            if question_waits {
                vec![start_round(state, round.number + 1, verdict.topic.clone())]
            } else if injected_waits {
                start(TurnPurpose::Synthesis)
            } else if resolved || was_final {
                finish(Some(verdict.verdict.clone()))
            } else if wants_final {
                start(TurnPurpose::Synthesis)
            } else {
                let topic = if said == Said::Undecided { &round.topic } else { &verdict.topic };
                vec![start_round(state, round.number + 1, topic.clone())]
            }
        }
        // Unparsable twice, or cancelled: keep the previous heat and topic (a panel's majority may end it).
        // (A verdict to be asked again was asked for in `judge_steps`, beside the panel's votes.)
        Some(VerdictStatus::Invalid { .. }) | None => {
            if was_final || said == Said::Panel(true) {
                finish(fallback_synthesis(state, round))
            } else if wants_final {
                start(TurnPurpose::Synthesis)
            } else {
                vec![start_round(state, round.number + 1, round.topic.clone())]
            }
        }
    }
}

/// How a debate the judges end ended.
fn finish_outcome(state: &DebateState, round: &Round, was_final: bool, is_last: bool) -> Outcome {
    if state.force_requested {
        Outcome::Forced
    } else if state.may_resolve_early() && state.consensus_in(round.number) {
        Outcome::Consensus
    } else if super::vote::converged_in(state, round.number) {
        Outcome::Converged
    } else if state.dissenting() {
        Outcome::Dissent
    } else if was_final && is_last {
        Outcome::MaxRounds
    } else {
        Outcome::Resolved
    }
}

/// The swap check a round's verdict waits for: `None` when none is due
/// (the setting is off, the verdict is the final synthesis, the embedded
/// judge's chosen form names no side, or the check has settled). With the
/// check's call under way (`checking`), it waits.
fn swap_steps(
    state: &DebateState,
    round: &Round,
    judge: &Turn,
    (options, checking): (Options, bool),
) -> Option<Vec<Step>> {
    if !options.swap_check || judge.purpose.is_final() || extractive::is_chosen(&judge.text) || !state.two_sides() {
        return None;
    }
    match round.swap {
        Some(SwapCheck::Asking) if checking => Some(Vec::new()),
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

fn failed(who: &str, status: &TurnStatus) -> Step {
    let why = match status {
        TurnStatus::Failed { error } => error.clone(),
        _ => "unknown error".into(),
    };
    Step::Finish { outcome: Outcome::Failed(format!("the {who} could not answer: {why}")), synthesis: None }
}
