//! The planner, `next_steps`, pinned branch by branch before the protocol is
//! generalised: each test folds a real event log into a `DebateState` and
//! states the exact steps the engine is asked to take.
// Heats are copied through the reducer, never computed, so exact comparison is right.
#![allow(clippy::float_cmp)]

use heat::debate::Heat;
use heat::debate::PanelJudge;
use heat::debate::call::Call;
use heat::debate::plan::{Options, Step, next_steps, next_steps_with};
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, Outcome, Role, TurnPurpose};

use crate::support::log::Log;

const PROPOSITION: &str = "Cities should ban cars from their centres.";
const INITIAL_HEAT: f32 = 0.7;
const NEXT_TOPIC: &str = "Would deliveries cost small shops more without cars?";

/// A debate of `max_rounds` rounds on [`PROPOSITION`] at [`INITIAL_HEAT`].
fn debate(max_rounds: u32) -> Log {
    Log::new(PROPOSITION, max_rounds, INITIAL_HEAT).seats(&Role::DUEL, "openai", "gpt-test")
}

impl Log {
    /// What the planner asks for with `in_flight` turns under way.
    fn plan(&self, in_flight: &[Role]) -> Vec<Step> {
        next_steps(&self.state(), in_flight)
    }
}

fn open_verdict(topic: &str, heat: f32) -> Verdict {
    Verdict {
        resolved: false,
        verdict: "Both sides landed blows; it is open.".into(),
        topic: topic.into(),
        heat: Heat::new(heat),
        ..Verdict::default()
    }
}

fn closing_verdict(text: &str) -> Verdict {
    Verdict {
        resolved: true,
        verdict: text.into(),
        topic: PROPOSITION.into(),
        heat: Heat::new(0.5),
        ..Verdict::default()
    }
}

fn start_round(round: u32, topic: &str, heat: f32, injected: &[&str]) -> Step {
    Step::StartRound {
        round,
        topic: topic.into(),
        heat: Heat::new(heat),
        injected: injected.iter().map(|s| (*s).to_string()).collect(),
    }
}

fn start(round: u32, role: Role, purpose: TurnPurpose) -> Step {
    Step::StartTurn { round, role, purpose }
}

fn finish(outcome: Outcome, synthesis: Option<&str>) -> Step {
    Step::Finish { outcome, synthesis: synthesis.map(str::to_string) }
}

fn both_argue(round: u32) -> Vec<Step> {
    vec![start(round, Role::Advocate, TurnPurpose::Argue), start(round, Role::Skeptic, TurnPurpose::Argue)]
}

// ---- before any round, and a debate that is not running ----

#[test]
fn with_no_round_yet_round_zero_starts_on_the_proposition_at_the_initial_heat() {
    assert_eq!(debate(3).plan(&[]), vec![start_round(0, PROPOSITION, INITIAL_HEAT, &[])]);
}

#[test]
fn with_no_round_yet_a_pinned_heat_and_an_injected_topic_ride_on_round_zero() {
    let log = debate(3).pins(0.4).injects("What about buses?");
    assert_eq!(log.plan(&[]), vec![start_round(0, PROPOSITION, 0.4, &["What about buses?"])]);
}

#[test]
fn a_finished_debate_plans_nothing() {
    let log =
        debate(3).round(0).both_argue(0).then(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    assert_eq!(log.plan(&[]), vec![]);
}

#[test]
fn a_paused_debate_plans_nothing_even_before_its_first_round() {
    assert_eq!(debate(3).then(DebateEvent::Paused).plan(&[]), vec![]);
    assert_eq!(debate(3).round(0).then(DebateEvent::Paused).plan(&[]), vec![]);
}

#[test]
fn a_resumed_debate_plans_again() {
    let log = debate(3).round(0).then(DebateEvent::Paused).then(DebateEvent::Resumed);
    assert_eq!(log.plan(&[]), both_argue(0));
}

// ---- the debaters ----

#[test]
fn debaters_not_started_both_start_arguing_advocate_first() {
    assert_eq!(debate(3).round(0).plan(&[]), both_argue(0));
}

#[test]
fn a_debater_in_flight_leaves_only_the_other_to_start() {
    let log = debate(3).round(0).starts(0, Role::Advocate, TurnPurpose::Argue);
    assert_eq!(log.plan(&[Role::Advocate]), vec![start(0, Role::Skeptic, TurnPurpose::Argue)]);
}

#[test]
fn both_debaters_in_flight_leave_nothing_to_start() {
    let log =
        debate(3).round(0).starts(0, Role::Advocate, TurnPurpose::Argue).starts(0, Role::Skeptic, TurnPurpose::Argue);
    assert_eq!(log.plan(&[Role::Advocate, Role::Skeptic]), vec![]);
}

#[test]
fn a_settled_debater_waits_for_the_other_in_flight() {
    let log = debate(3).round(0).argues(0, Role::Advocate).starts(0, Role::Skeptic, TurnPurpose::Argue);
    assert_eq!(log.plan(&[Role::Skeptic]), vec![]);
}

#[test]
fn a_retrying_debater_in_flight_is_waited_for() {
    let log = debate(3)
        .round(0)
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .retries(0, Role::Skeptic);
    assert_eq!(log.plan(&[Role::Skeptic]), vec![]);
}

#[test]
fn a_debater_left_open_by_an_interrupted_process_is_started_again() {
    let log = debate(3).round(1).argues(1, Role::Advocate).starts(1, Role::Skeptic, TurnPurpose::Argue);
    assert_eq!(log.plan(&[]), vec![start(1, Role::Skeptic, TurnPurpose::Argue)]);
}

#[test]
fn both_debaters_left_open_by_an_interrupted_process_are_started_again() {
    let log = debate(3)
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .retries(0, Role::Skeptic);
    assert_eq!(log.plan(&[]), both_argue(0));
}

#[test]
fn a_failed_debater_finishes_the_debate_failed_naming_it() {
    let log = debate(3).round(0).argues(0, Role::Advocate).starts(0, Role::Skeptic, TurnPurpose::Argue).fails(
        0,
        Role::Skeptic,
        "HTTP 401: bad key",
    );
    assert_eq!(
        log.plan(&[]),
        vec![finish(Outcome::Failed("the skeptic could not answer: HTTP 401: bad key".into()), None)]
    );
}

#[test]
fn a_failed_debater_finishes_the_debate_even_while_the_other_is_in_flight() {
    let log = debate(3)
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .fails(0, Role::Advocate, "timed out");
    assert_eq!(
        log.plan(&[Role::Skeptic]),
        vec![finish(Outcome::Failed("the advocate could not answer: timed out".into()), None)]
    );
}

#[test]
fn a_failed_skeptic_wins_over_an_advocate_not_yet_started() {
    let log = debate(3).round(0).starts(0, Role::Skeptic, TurnPurpose::Argue).fails(0, Role::Skeptic, "refused");
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Failed("the skeptic could not answer: refused".into()), None)]);
}

#[test]
fn a_reopened_debate_runs_its_failed_debater_again() {
    let log = debate(3)
        .round(0)
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .fails(0, Role::Skeptic, "refused")
        .then(DebateEvent::Finished {
            outcome: Outcome::Failed("the skeptic could not answer: refused".into()),
            synthesis: None,
        })
        .then(DebateEvent::Reopened);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Skeptic, TurnPurpose::Argue)]);
}

// ---- the judge is called ----

#[test]
fn settled_debaters_call_the_judge_for_a_verdict() {
    assert_eq!(debate(3).round(0).both_argue(0).plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Judge)]);
}

#[test]
fn a_cancelled_debater_counts_as_settled() {
    let log = debate(3)
        .round(0)
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .cancels(0, Role::Skeptic);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Judge)]);
}

#[test]
fn settled_debaters_in_the_last_round_call_for_the_synthesis() {
    let log = debate(2)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.8))
        .round_on(1, NEXT_TOPIC, 0.8)
        .both_argue(1);
    assert_eq!(log.plan(&[]), vec![start(1, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn a_one_round_debate_calls_for_the_synthesis_straight_away() {
    assert_eq!(debate(1).round(0).both_argue(0).plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn settled_debaters_after_a_forced_resolution_call_for_the_synthesis() {
    let log = debate(3).round(0).forces().both_argue(0);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn an_open_judge_in_flight_is_waited_for() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge);
    assert_eq!(log.plan(&[Role::Judge]), vec![]);
}

#[test]
fn an_open_judge_not_in_flight_is_restarted_with_the_same_purpose() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Judge)]);
    let repairing = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true).starts(
        0,
        Role::Judge,
        TurnPurpose::RepairVerdict,
    );
    assert_eq!(repairing.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::RepairVerdict)]);
}

#[test]
fn an_open_judge_restarted_after_a_forced_resolution_keeps_its_verdict_purpose() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).forces();
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Judge)]);
}

#[test]
fn a_failed_judge_finishes_the_debate_failed_naming_it() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).fails(
        0,
        Role::Judge,
        "context length exceeded",
    );
    assert_eq!(
        log.plan(&[]),
        vec![finish(Outcome::Failed("the judge could not answer: context length exceeded".into()), None)]
    );
}

// ---- a verdict that parsed ----

#[test]
fn a_resolved_verdict_finishes_resolved_with_its_text_as_the_synthesis() {
    let log = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, closing_verdict("Cars should go."));
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Resolved, Some("Cars should go."))]);
}

#[test]
fn a_topic_injected_mid_round_that_the_judge_then_resolves_goes_to_the_final_synthesis() {
    // Injected while round 1 was argued: it waits for round 2, which a resolved verdict would never start.
    let log = debate(3).round(0).injects("What about deliveries at night?").both_argue(0).judge_rules(
        0,
        TurnPurpose::Judge,
        closing_verdict("Cars should go."),
    );
    assert_eq!(log.plan(&[]), vec![Step::StartTurn { round: 0, role: Role::Judge, purpose: TurnPurpose::Synthesis }]);
    // The synthesis it writes ends the debate, resolved.
    let log = log.judge_rules(0, TurnPurpose::Synthesis, closing_verdict("Cars go; night deliveries keep a permit."));
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Resolved, Some("Cars go; night deliveries keep a permit."))]);
}

#[test]
fn a_resolved_verdict_after_a_forced_resolution_finishes_forced() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).forces();
    let log = log
        .completes(0, Role::Judge, "{}")
        .then(DebateEvent::VerdictReached { round: 0, verdict: closing_verdict("Settled.") });
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Forced, Some("Settled."))]);
}

#[test]
fn an_open_verdict_starts_the_next_round_on_the_judges_topic_at_the_judges_heat() {
    let log = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.9));
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.9, &[])]);
}

#[test]
fn an_open_verdict_sets_a_heat_clamped_into_range() {
    let log = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 1.7));
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 1.0, &[])]);
}

#[test]
fn a_pinned_heat_wins_over_the_judges_for_the_next_round() {
    let log =
        debate(3).round(0).pins(0.35).both_argue(0).judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.9));
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.35, &[])]);
}

#[test]
fn a_released_pin_gives_the_judges_heat_back() {
    let log = debate(3)
        .round(0)
        .pins(0.35)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.9))
        .then(DebateEvent::TemperatureReleased);
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.9, &[])]);
}

#[test]
fn topics_injected_during_a_round_ride_on_the_next_one() {
    let log = debate(3).round(0).injects("What about buses?").both_argue(0).injects("And ambulances?").judge_rules(
        0,
        TurnPurpose::Judge,
        open_verdict(NEXT_TOPIC, 0.6),
    );
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.6, &["What about buses?", "And ambulances?"])]);
}

#[test]
fn a_repaired_verdict_that_parses_starts_the_next_round() {
    let log = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true).judge_rules(
        0,
        TurnPurpose::RepairVerdict,
        open_verdict(NEXT_TOPIC, 0.5),
    );
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.5, &[])]);
}

#[test]
fn an_open_verdict_in_the_last_round_after_a_verdict_turn_asks_for_the_synthesis() {
    let log = debate(1).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.8));
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn an_open_verdict_after_a_forced_resolution_asks_for_the_synthesis() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).forces();
    let log = log
        .completes(0, Role::Judge, "{}")
        .then(DebateEvent::VerdictReached { round: 0, verdict: open_verdict(NEXT_TOPIC, 0.8) });
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn a_final_synthesis_in_the_last_round_finishes_at_max_rounds() {
    let log = debate(2)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.8))
        .round_on(1, NEXT_TOPIC, 0.8)
        .both_argue(1)
        .judge_rules(1, TurnPurpose::Synthesis, closing_verdict("On balance, the centre should be car-free."));
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, Some("On balance, the centre should be car-free."))]);
}

#[test]
fn a_final_synthesis_ends_the_debate_even_when_it_says_unresolved() {
    let log = debate(1).round(0).both_argue(0).judge_rules(0, TurnPurpose::Synthesis, open_verdict(NEXT_TOPIC, 0.8));
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, Some("Both sides landed blows; it is open."))]);
}

#[test]
fn a_final_synthesis_after_a_forced_resolution_finishes_forced() {
    let log = debate(3).round(0).forces().both_argue(0).judge_rules(
        0,
        TurnPurpose::Synthesis,
        closing_verdict("Forced: ban them."),
    );
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Forced, Some("Forced: ban them."))]);
}

#[test]
fn a_repaired_synthesis_in_the_last_round_finishes_at_max_rounds() {
    let log = debate(1).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Synthesis, true).judge_rules(
        0,
        TurnPurpose::RepairSynthesis,
        closing_verdict("Repaired: ban them."),
    );
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, Some("Repaired: ban them."))]);
}

// ---- a verdict that did not parse ----

#[test]
fn an_invalid_verdict_that_will_retry_asks_for_a_repaired_verdict() {
    let log = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::RepairVerdict)]);
}

#[test]
fn an_invalid_synthesis_that_will_retry_asks_for_a_repaired_synthesis() {
    let log = debate(1).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Synthesis, true);
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::RepairSynthesis)]);
}

#[test]
fn an_invalid_verdict_given_up_on_starts_the_next_round_on_the_previous_topic_and_heat() {
    let log = debate(4)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.9))
        .round_on(1, NEXT_TOPIC, 0.9)
        .both_argue(1)
        .judge_garbles(1, TurnPurpose::Judge, true)
        .judge_garbles(1, TurnPurpose::RepairVerdict, false);
    assert_eq!(log.plan(&[]), vec![start_round(2, NEXT_TOPIC, 0.9, &[])]);
}

#[test]
fn a_cancelled_judge_moves_on_like_a_verdict_given_up_on() {
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).cancels(0, Role::Judge);
    assert_eq!(log.plan(&[]), vec![start_round(1, PROPOSITION, INITIAL_HEAT, &[])]);
}

#[test]
fn an_invalid_verdict_given_up_on_in_the_last_round_asks_for_the_synthesis() {
    let log = debate(1).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true).judge_garbles(
        0,
        TurnPurpose::RepairVerdict,
        false,
    );
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn an_invalid_final_synthesis_given_up_on_finishes_without_a_synthesis() {
    let log = debate(1).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Synthesis, true).judge_garbles(
        0,
        TurnPurpose::RepairSynthesis,
        false,
    );
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, None)]);
    // Where the synthesis would stand, the ending says why there is none.
    let ended = log.then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: None }).state();
    assert_eq!(
        heat::debate::plan::missing_synthesis(&ended).as_deref(),
        Some("no synthesis: none of the judge's verdicts could be read, in any round")
    );
}

#[test]
fn a_debate_with_a_synthesis_or_one_read_verdict_or_a_failure_says_nothing_of_a_missing_synthesis() {
    use heat::debate::plan::missing_synthesis;
    let read = debate(2)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict("What of buses?", 0.6))
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: None })
        .state();
    assert_eq!(missing_synthesis(&read), None, "a verdict was read");
    let failed = debate(1)
        .round(0)
        .both_argue(0)
        .then(DebateEvent::Finished { outcome: Outcome::Failed("down".into()), synthesis: None })
        .state();
    assert_eq!(missing_synthesis(&failed), None, "a failure says why itself");
}

#[test]
fn an_unreadable_synthesis_after_a_readable_verdict_ends_on_that_verdict_said_as_such() {
    let log = debate(2)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict("What of buses?", 0.6))
        .round_on(1, "What of buses?", 0.6)
        .both_argue(1)
        .judge_garbles(1, TurnPurpose::Synthesis, true)
        .judge_garbles(1, TurnPurpose::RepairSynthesis, false);
    let synthesis = "The Judge's last readable verdict, from round 1, as its last word could not be read: Both sides landed blows; it is open.";
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, Some(synthesis))]);
}

#[test]
fn an_unreadable_chair_on_a_panel_ends_on_a_panel_judges_readable_verdict() {
    let log = Log::new(PROPOSITION, 1, INITIAL_HEAT)
        .format("oxford")
        .seats(&Role::DUEL, "openai", "gpt-test")
        .round(0)
        .both_argue(0)
        .then(DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) })
        .then(DebateEvent::PanelVoted {
            round: 0,
            judge: PanelJudge(2),
            verdict: closing_verdict("The proposition carried it on evidence."),
            usage: None,
        })
        .then(DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(3) })
        .then(DebateEvent::PanelVoteFailed { round: 0, judge: PanelJudge(3), error: "timed out".into(), usage: None })
        .judge_garbles(0, TurnPurpose::Synthesis, true)
        .judge_garbles(0, TurnPurpose::RepairSynthesis, false);
    let steps = log.plan(&[]);
    let [Step::Finish { synthesis: Some(synthesis), .. }] = steps.as_slice() else { panic!("{steps:?}") };
    assert!(
        synthesis.starts_with("Judge 2's verdict, as the")
            && synthesis.ends_with("The proposition carried it on evidence."),
        "{synthesis}"
    );
}

#[test]
fn an_invalid_forced_synthesis_given_up_on_finishes_forced_without_a_synthesis() {
    let log = debate(3).round(0).forces().both_argue(0).judge_garbles(0, TurnPurpose::Synthesis, true).judge_garbles(
        0,
        TurnPurpose::RepairSynthesis,
        false,
    );
    assert_eq!(log.plan(&[]), vec![finish(Outcome::Forced, None)]);
}

#[test]
fn an_invalid_verdict_after_a_forced_resolution_is_still_repaired_as_a_verdict() {
    let log = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true).forces();
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::RepairVerdict)]);
}

#[test]
fn an_invalid_verdict_given_up_on_after_a_forced_resolution_asks_for_the_synthesis() {
    let log = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::Judge, true).forces().judge_garbles(
        0,
        TurnPurpose::RepairVerdict,
        false,
    );
    assert_eq!(log.plan(&[]), vec![start(0, Role::Judge, TurnPurpose::Synthesis)]);
}

#[test]
fn a_judge_answer_logged_but_never_parsed_is_passed_over_for_the_next_round() {
    // A process that stopped between TurnCompleted and VerdictReached: the logged
    // answer is not parsed on resume. Pinned as it is, not as it should be.
    let log = debate(3).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Judge).completes(
        0,
        Role::Judge,
        r#"{"resolved": true, "verdict": "Ban them.", "topic": "", "heat": 0.5}"#,
    );
    assert_eq!(log.plan(&[]), vec![start_round(1, PROPOSITION, INITIAL_HEAT, &[])]);
}

#[test]
fn a_final_synthesis_logged_but_never_parsed_finishes_without_it() {
    let log = debate(1).round(0).both_argue(0).starts(0, Role::Judge, TurnPurpose::Synthesis).completes(
        0,
        Role::Judge,
        r#"{"resolved": true, "verdict": "Ban them.", "topic": "", "heat": 0.5}"#,
    );
    assert_eq!(log.plan(&[]), vec![finish(Outcome::MaxRounds, None)]);
}

/// The planner's steps with the swap check on, its call under way or not.
fn with_swap_check(state: &heat::debate::DebateState, in_flight: bool) -> Vec<Step> {
    let round = state.current_round().map_or(0, |r| r.number);
    let calls: Vec<Call> = in_flight.then_some(Call::SwapCheck { round }).into_iter().collect();
    next_steps_with(state, &calls, Options { swap_check: true, ..Options::default() })
}

#[test]
fn with_the_swap_check_on_a_verdict_waits_for_its_check_before_the_next_round() {
    let log = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.6));
    assert_eq!(with_swap_check(&log.state(), false), vec![Step::SwapCheck { round: 0 }]);
    assert_eq!(log.plan(&[]), vec![start_round(1, NEXT_TOPIC, 0.6, &[])], "off: no check");
    let asking = log.then(DebateEvent::SwapCheckStarted { round: 0 });
    assert_eq!(with_swap_check(&asking.state(), true), vec![], "in flight: wait");
    assert_eq!(
        with_swap_check(&asking.state(), false),
        vec![Step::SwapCheck { round: 0 }],
        "asked by a process that stopped: asked again"
    );
    let answered = asking.then(DebateEvent::SwapChecked {
        round: 0,
        verdict: open_verdict(NEXT_TOPIC, 0.6),
        flips: true,
        usage: None,
    });
    assert_eq!(with_swap_check(&answered.state(), false), vec![start_round(1, NEXT_TOPIC, 0.6, &[])]);
}

#[test]
fn a_failed_swap_check_lets_the_debate_go_on() {
    let log = debate(3)
        .round(0)
        .both_argue(0)
        .judge_rules(0, TurnPurpose::Judge, open_verdict(NEXT_TOPIC, 0.6))
        .then(DebateEvent::SwapCheckStarted { round: 0 })
        .then(DebateEvent::SwapCheckFailed { round: 0, error: "HTTP 500".into(), usage: None });
    assert_eq!(with_swap_check(&log.state(), false), vec![start_round(1, NEXT_TOPIC, 0.6, &[])]);
}

#[test]
fn a_resolving_verdict_is_checked_before_the_debate_finishes() {
    let log = debate(3).round(0).both_argue(0).judge_rules(0, TurnPurpose::Judge, closing_verdict("Done."));
    assert_eq!(with_swap_check(&log.state(), false), vec![Step::SwapCheck { round: 0 }]);
}

#[test]
fn no_swap_check_follows_the_final_synthesis() {
    let log = debate(1).round(0).both_argue(0).judge_rules(0, TurnPurpose::Synthesis, closing_verdict("Synthesis."));
    assert_eq!(with_swap_check(&log.state(), false), vec![finish(Outcome::MaxRounds, Some("Synthesis."))]);
}

#[test]
fn no_swap_check_follows_an_unreadable_verdict() {
    let log = debate(3).round(0).both_argue(0).judge_garbles(0, TurnPurpose::RepairVerdict, false);
    assert_eq!(with_swap_check(&log.state(), false), vec![start_round(1, PROPOSITION, INITIAL_HEAT, &[])]);
}

// ---- A vote: free debaters, no judge (the `vote` format) ----

const THREE: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Third];

/// A `vote` debate of `max_rounds` rounds, its format recorded.
fn vote_debate(max_rounds: u32) -> Log {
    debate(max_rounds).format("vote")
}

impl Log {
    /// Each of the three seats argues round `round` ending with its answer.
    fn answer(self, round: u32, answers: [&str; 3]) -> Self {
        THREE.into_iter().zip(answers).fold(self, |log, (role, answer)| {
            let text = format!("The {} reasons about round {}.\nFinal answer: {answer}", role.key(), round + 1);
            log.starts(round, role, TurnPurpose::Argue).completes(round, role, &text)
        })
    }
}

#[test]
fn a_vote_starts_all_three_seats_at_once_and_waits_for_each() {
    let log = vote_debate(3).round(0);
    let all: Vec<Step> = THREE.iter().map(|&r| start(0, r, TurnPurpose::Argue)).collect();
    assert_eq!(log.plan(&[]), all);
    let log = log.argues(0, Role::Advocate).starts(0, Role::Skeptic, TurnPurpose::Argue);
    assert_eq!(
        log.plan(&[Role::Skeptic]),
        [start(0, Role::Third, TurnPurpose::Argue)],
        "the third seat is not forgotten"
    );
    let log = log.starts(0, Role::Third, TurnPurpose::Argue);
    assert_eq!(log.plan(&[Role::Skeptic, Role::Third]), Vec::<Step>::new(), "no judge to call while debaters argue");
}

#[test]
fn a_split_vote_goes_on_to_the_next_round_at_a_heat_lowered_by_agreement() {
    let log = vote_debate(3).round(0).answer(0, ["four days", "five days", "Four days."]);
    // Two of three agree: halfway from the start heat (0.7) to the floor (0.3).
    assert_eq!(log.plan(&[]), [start_round(1, PROPOSITION, 0.5, &[])]);
    let apart = vote_debate(3).round(0).answer(0, ["four", "five", "six"]);
    assert_eq!(apart.plan(&[]), [start_round(1, PROPOSITION, INITIAL_HEAT, &[])], "all apart: the start heat");
    let pinned =
        vote_debate(3).round(0).answer(0, ["four days", "five days", "Four days."]).pins(0.9).injects("Shifts?");
    assert_eq!(pinned.plan(&[]), [start_round(1, PROPOSITION, 0.9, &["Shifts?"])], "a pinned heat wins");
}

#[test]
fn a_vote_ends_converged_at_the_vote_or_when_forced() {
    let converged = vote_debate(3).round(0).answer(0, ["four days", "Four days", "four days."]);
    let said = "The vote: \"four days\" 3–0 (Advocate, Skeptic, Third).";
    // The seats' labels: the built-in vote's names.
    let said = said.replace("Advocate, Skeptic, Third", "Analyst, Pragmatist, Contrarian");
    assert_eq!(converged.plan(&[]), [finish(Outcome::Converged, Some(&said))]);
    let last = vote_debate(1).round(0).answer(0, ["four", "five", "four"]);
    let said = "The vote: \"four\" 2–1 (Analyst, Contrarian); minority: Pragmatist \"five\".";
    assert_eq!(last.plan(&[]), [finish(Outcome::MaxRounds, Some(said))]);
    let forced = vote_debate(3).round(0).forces().answer(0, ["four", "five", "six"]);
    let said = "The vote: \"four\" 1–1–1 (Analyst); minority: Pragmatist \"five\"; Contrarian \"six\".";
    assert_eq!(forced.plan(&[]), [finish(Outcome::Forced, Some(said))]);
}

#[test]
fn a_vote_debater_that_fails_for_good_sits_the_round_out_while_two_others_answer() {
    let failing = |log: Log| {
        log.round(0)
            .starts(0, Role::Third, TurnPurpose::Argue)
            .fails(0, Role::Third, "HTTP 500")
            .starts(0, Role::Advocate, TurnPurpose::Argue)
            .starts(0, Role::Skeptic, TurnPurpose::Argue)
    };
    let waiting = failing(vote_debate(3));
    assert_eq!(waiting.plan(&[Role::Advocate, Role::Skeptic]), Vec::<Step>::new(), "the others are waited for");
    let answered = |log: Log| {
        let text = |role: Role| format!("The {} reasons.\nFinal answer: four days", role.key());
        log.completes(0, Role::Advocate, &text(Role::Advocate)).completes(0, Role::Skeptic, &text(Role::Skeptic))
    };
    // Two of three agree, the third is silent: halfway to the floor, and the contrarian is asked again next round.
    assert_eq!(answered(failing(vote_debate(3))).plan(&[]), [start_round(1, PROPOSITION, 0.5, &[])]);
    let said = "The vote: \"four days\" 2–1 (Analyst, Pragmatist); no final answer: Contrarian.";
    assert_eq!(answered(failing(vote_debate(1))).plan(&[]), [finish(Outcome::MaxRounds, Some(said))]);
    let state = answered(failing(vote_debate(3))).state();
    assert_eq!(heat::debate::plan::sitting_out(&state, &state.rounds[0]), [Role::Third]);
}

#[test]
fn a_vote_with_one_answer_left_ends_failed_naming_the_first_seat_that_failed() {
    let log = vote_debate(3)
        .round(0)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .fails(0, Role::Skeptic, "HTTP 500")
        .starts(0, Role::Third, TurnPurpose::Argue)
        .fails(0, Role::Third, "HTTP 502")
        .starts(0, Role::Advocate, TurnPurpose::Argue);
    let failed = finish(Outcome::Failed("the pragmatist could not answer: HTTP 500".into()), None);
    assert_eq!(log.plan(&[Role::Advocate]), [failed], "one debater left cannot make a round");
}

/// A `review` debate: a defender (for) against two critics (against).
fn review_debate() -> Log {
    debate(3).format("review")
}

#[test]
fn a_review_goes_on_without_a_failed_critic_but_not_without_its_defender() {
    let critic_out = review_debate().round(0).argues(0, Role::Advocate).argues(0, Role::Skeptic).starts(
        0,
        Role::Third,
        TurnPurpose::Argue,
    );
    let critic_out = critic_out.fails(0, Role::Third, "HTTP 500");
    assert_eq!(
        critic_out.plan(&[]),
        [start(0, Role::Judge, TurnPurpose::Judge)],
        "the other critic still argues against"
    );
    let defender_out = review_debate()
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .fails(0, Role::Advocate, "HTTP 500")
        .starts(0, Role::Skeptic, TurnPurpose::Argue);
    let failed = finish(Outcome::Failed("the defender could not answer: HTTP 500".into()), None);
    assert_eq!(defender_out.plan(&[Role::Skeptic]), [failed], "no one is left to defend the proposal");
}

#[test]
fn a_resumed_review_asks_its_failed_judge_again_not_the_critic_who_sat_the_round_out() {
    let log = review_debate()
        .round(0)
        .argues(0, Role::Advocate)
        .argues(0, Role::Skeptic)
        .starts(0, Role::Third, TurnPurpose::Argue)
        .fails(0, Role::Third, "HTTP 500")
        .starts(0, Role::Judge, TurnPurpose::Judge)
        .fails(0, Role::Judge, "HTTP 500")
        .then(DebateEvent::Finished { outcome: Outcome::Failed("the judge could not answer".into()), synthesis: None })
        .then(DebateEvent::Reopened);
    assert_eq!(log.plan(&[]), [start(0, Role::Judge, TurnPurpose::Judge)]);
    let unjudged = review_debate()
        .round(0)
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .fails(0, Role::Skeptic, "HTTP 500")
        .starts(0, Role::Third, TurnPurpose::Argue)
        .fails(0, Role::Third, "HTTP 502")
        .then(DebateEvent::Finished { outcome: Outcome::Failed("x".into()), synthesis: None })
        .then(DebateEvent::Reopened);
    let again = [start(0, Role::Skeptic, TurnPurpose::Argue), start(0, Role::Third, TurnPurpose::Argue)];
    assert_eq!(unjudged.plan(&[]), again, "a round no judge took up asks its failed debaters again");
}
