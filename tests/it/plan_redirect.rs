//! The planner when a person redirects the debate: a question set for the
//! next round (`QuestionSet`), and rounds added to a running or an ended
//! debate (`RoundsAdded`). Each test folds a real event log and states the
//! exact steps the engine is asked to take.

use heat::debate::Heat;
use heat::debate::plan::{Step, next_steps};
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, Outcome, Role, TurnPurpose};

use crate::support::log::Log;

const PROPOSITION: &str = "Cities should ban cars from their centres.";
const JUDGES_QUESTION: &str = "Would deliveries cost small shops more without cars?";
const PERSONS_QUESTION: &str = "What happens to people who cannot walk far?";

fn debate(max_rounds: u32) -> Log {
    Log::new(PROPOSITION, max_rounds, 0.7).seats(&Role::DUEL, "openai", "gpt-test")
}

fn plan(log: &Log) -> Vec<Step> {
    next_steps(&log.state(), &[])
}

fn verdict(resolved: bool, heat: f32) -> Verdict {
    Verdict {
        resolved,
        verdict: if resolved { "Cars should go.".into() } else { "Still open.".into() },
        topic: JUDGES_QUESTION.into(),
        heat: Heat::new(heat),
        ..Verdict::default()
    }
}

fn start_round(round: u32, topic: &str, heat: f32) -> Step {
    Step::StartRound { round, topic: topic.into(), heat: Heat::new(heat), injected: Vec::new() }
}

fn asks(question: &str) -> DebateEvent {
    DebateEvent::QuestionSet { question: question.into() }
}

fn adds(rounds: u32) -> DebateEvent {
    DebateEvent::RoundsAdded { rounds }
}

#[test]
fn a_question_set_during_a_round_is_the_next_rounds_question_instead_of_the_judges() {
    let log = debate(3).round(0).both_argue(0).then(asks(PERSONS_QUESTION)).judge_rules(
        0,
        TurnPurpose::Judge,
        verdict(false, 0.9),
    );
    assert_eq!(plan(&log), vec![start_round(1, PERSONS_QUESTION, 0.9)]);
    // Asked once: the round after goes back to the judge's question, and the round says whose it was.
    let log = log.round_on(1, PERSONS_QUESTION, 0.9);
    let state = log.state();
    assert!(state.rounds[1].asked_by_person && !state.rounds[0].asked_by_person);
    assert_eq!(state.next_question, None);
    let log = log.both_argue(1).judge_rules(1, TurnPurpose::Judge, verdict(false, 0.6));
    assert_eq!(plan(&log), vec![start_round(2, JUDGES_QUESTION, 0.6)]);
}

#[test]
fn a_question_set_while_the_judge_resolves_keeps_the_debate_open_for_it() {
    let log = debate(3).round(0).both_argue(0).then(asks(PERSONS_QUESTION)).judge_rules(
        0,
        TurnPurpose::Judge,
        verdict(true, 0.4),
    );
    // A verdict that resolves sets no heat: the one in force goes on.
    assert_eq!(plan(&log), vec![start_round(1, PERSONS_QUESTION, 0.7)]);
    // Without it, the same verdict ends the debate.
    let plain = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, verdict(true, 0.4));
    assert_eq!(
        plan(&plain),
        vec![Step::Finish { outcome: Outcome::Resolved, synthesis: Some("Cars should go.".into()) }]
    );
}

#[test]
fn rounds_added_to_a_resolved_debate_go_on_after_its_last_round_on_the_judges_question() {
    let log = debate(3)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, verdict(true, 0.4))
        .then(DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: Some("Cars should go.".into()) });
    assert_eq!(plan(&log), Vec::new());
    let log = log.then(adds(2));
    let state = log.state();
    assert_eq!((state.finish.clone(), state.max_rounds, state.reopened_after), (None, 3, Some(0)));
    // The ending's heat is not a next round's: the one in force goes on.
    assert_eq!(plan(&log), vec![start_round(1, JUDGES_QUESTION, 0.7)]);
    // Round 3 is the last now: its judge writes the new synthesis.
    let log =
        log.round_on(1, JUDGES_QUESTION, 0.4).both_argue(1).judge_rules(1, TurnPurpose::Judge, verdict(false, 0.5));
    let log = log.round_on(2, JUDGES_QUESTION, 0.5).both_argue(2);
    assert_eq!(plan(&log), vec![Step::StartTurn { round: 2, role: Role::Judge, purpose: TurnPurpose::Synthesis }]);
}

#[test]
fn rounds_added_after_the_last_rounds_synthesis_go_on_on_that_rounds_question() {
    let log = debate(1)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Synthesis, verdict(true, 0.4))
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: Some("Cars should go.".into()) })
        .then(adds(1))
        .then(asks(PERSONS_QUESTION));
    assert_eq!(log.state().max_rounds, 2);
    assert_eq!(plan(&log), vec![start_round(1, PERSONS_QUESTION, 0.7)]);
    let without_a_question = debate(1)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Synthesis, verdict(true, 0.4))
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: None })
        .then(adds(1));
    assert_eq!(plan(&without_a_question), vec![start_round(1, PROPOSITION, 0.7)]);
}

#[test]
fn rounds_added_while_the_last_rounds_synthesis_is_written_set_that_synthesis_aside() {
    // The judge was asked for the synthesis of round 2 of 2; two rounds were added as it wrote.
    let log = debate(2)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, verdict(false, 0.8))
        .round_on(1, JUDGES_QUESTION, 0.8)
        .both_argue(1)
        .starts(1, Role::Judge, TurnPurpose::Synthesis)
        .then(adds(2));
    assert_eq!(log.state().max_rounds, 4);
    let log = log
        .completes(1, Role::Judge, "{}")
        .then(DebateEvent::VerdictReached { round: 1, verdict: verdict(false, 0.6) });
    // A synthesis sets no heat, even one set aside: round 2's holds.
    assert_eq!(plan(&log), vec![start_round(2, JUDGES_QUESTION, 0.8)]);
}

#[test]
fn rounds_added_to_a_failed_or_stopped_debate_raise_its_limit_and_leave_its_ending_to_the_reopening() {
    let log = debate(3)
        .round(0)
        .both_argue(0)
        .then(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None })
        .then(DebateEvent::Reopened)
        .then(adds(2));
    let state = log.state();
    assert_eq!((state.finish.clone(), state.max_rounds, state.reopened_after), (None, 5, None));
    assert_eq!(plan(&log), vec![Step::StartTurn { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge }]);
}

#[test]
fn a_converged_vote_given_more_rounds_starts_the_next_one() {
    let log = [Role::Advocate, Role::Skeptic, Role::Third]
        .into_iter()
        .fold(debate(1).format("vote").round(0), |log, role| {
            log.starts(0, role, TurnPurpose::Argue).completes(0, role, "It holds.\nFinal answer: yes")
        });
    assert!(matches!(plan(&log).as_slice(), [Step::Finish { outcome: Outcome::Converged, .. }]), "{:?}", plan(&log));
    let log = log.then(DebateEvent::Finished { outcome: Outcome::Converged, synthesis: None }).then(adds(1));
    assert!(matches!(plan(&log).as_slice(), [Step::StartRound { round: 1, .. }]), "{:?}", plan(&log));
}

#[test]
fn a_debate_that_ran_out_of_time_before_any_verdict_does_not_blame_the_judge() {
    let log =
        debate(3).round(0).both_argue(0).then(DebateEvent::Finished { outcome: Outcome::Timeout(60), synthesis: None });
    assert_eq!(heat::debate::plan::missing_synthesis(&log.state()), None);
    let unread = debate(3)
        .round(0)
        .both_argue(0)
        .judge_garbles(0, TurnPurpose::Synthesis, false)
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: None });
    assert!(heat::debate::plan::missing_synthesis(&unread.state()).is_some());
}
