//! The debate engine against scripted models: every branch of the protocol.
#![allow(clippy::unwrap_used)]
// Heats are copied, never computed, so exact comparison is the right check.
#![allow(clippy::float_cmp)]

use std::sync::Arc;
use std::time::Duration;

use crate::engine_support::{self, drain, finish, wait_for};

use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, RoleSetup};
use heat::debate::state::VerdictStatus;
use heat::debate::{Command, DebateEvent, DebateState, Outcome, Role, TurnPurpose};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatModel, ProviderError};
use tokio::sync::Semaphore;

fn verdict(resolved: bool, heat: f32, topic: &str) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": {resolved}, "verdict": "Both sides argued; {topic} is open.", "topic": "{topic}", "heat": {heat}}}"#
    ))
}

fn role(model: &Arc<ScriptedModel>) -> RoleSetup {
    RoleSetup::new(Arc::clone(model) as Arc<dyn ChatModel>, "m", 512)
}

fn setup(adv: &Arc<ScriptedModel>, skp: &Arc<ScriptedModel>, judge: &Arc<ScriptedModel>) -> EngineSetup {
    engine_support::duel(role(adv), role(skp), role(judge)).retries(2).build()
}

fn debater(text: &str) -> Arc<ScriptedModel> {
    Arc::new(ScriptedModel::new([], Reply::text(text)))
}

fn judge(replies: impl IntoIterator<Item = Reply>) -> Arc<ScriptedModel> {
    Arc::new(ScriptedModel::new(replies, verdict(false, 0.5, "fallback")))
}

/// A duel of `max_rounds` rounds on "Tabs beat spaces" from heat 0.9.
fn spec(max_rounds: u32) -> DebateSpec {
    crate::engine_support::duel_spec(max_rounds)
}

fn outcome(state: &DebateState) -> Outcome {
    state.finish.clone().expect("debate finished").outcome
}

#[tokio::test(start_paused = true)]
async fn resolves_in_round_one() {
    let (a, s) = (debater("For it."), debater("Against it."));
    let j = judge([verdict(true, 0.3, "Tabs beat spaces")]);
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(4))).await;
    assert_eq!(outcome(&state), Outcome::Resolved);
    assert_eq!(state.rounds.len(), 1);
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("For it."));
    assert_eq!(state.rounds[0].argument(Role::Skeptic), Some("Against it."));
    assert!(matches!(events.first(), Some(DebateEvent::Started { .. })));
    let synthesis = state.finish.unwrap().synthesis.unwrap();
    assert!(synthesis.contains("Both sides argued"), "{synthesis}");
    // The judge received the pair in [advocate, skeptic] order.
    let judge_prompt = j.requests()[0].messages.last().unwrap().content.clone();
    assert!(judge_prompt.contains(r#"["For it.","Against it."]"#), "{judge_prompt}");
}

#[tokio::test(start_paused = true)]
async fn runs_to_max_rounds_with_heat_from_the_judge() {
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([verdict(false, 0.7, "Costs?"), verdict(false, 0.5, "Habits?"), verdict(true, 0.3, "final")]);
    let (_, state) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
    assert_eq!(outcome(&state), Outcome::MaxRounds);
    assert_eq!(state.heat_history(), vec![Heat::new(0.9), Heat::new(0.7), Heat::new(0.5)]);
    let temps: Vec<_> = a.requests().iter().map(|r| r.temperature).collect();
    assert_eq!(temps, vec![Some(0.9), Some(0.7), Some(0.5)]);
    // The judge's refined topic reaches the next round, and the control line carries the heat.
    let round2 = a.requests()[1].messages.last().unwrap().content.clone();
    assert!(round2.contains("Costs?") && round2.contains(r#"{"set_temp": 0.70}"#), "{round2}");
    // Debaters see the opponent's previous argument and keep their own history.
    assert!(round2.contains("The skeptic argued last round") && round2.contains("Against."), "{round2}");
    assert_eq!(a.requests()[1].messages.len(), 3);
    // The last judge call asks for the synthesis.
    let last = state.rounds[2].turn(Role::Judge).unwrap();
    assert_eq!(last.purpose, TurnPurpose::Synthesis);
    assert!(j.requests()[2].messages.last().unwrap().content.contains("final round"));
}

#[tokio::test(start_paused = true)]
async fn pause_freezes_the_stream_and_loses_nothing() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("first ", &gate, "second third")], Reply::text("x")));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "t")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(2));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::Pause);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Paused)).await;
    gate.add_permits(1);
    // While paused, the turn that ends is recorded as a whole when it ends
    // (kept if the person quits now); nothing new starts, however long we wait.
    let until = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut told = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout_at(until, handle.next_event()).await {
        told.push(event);
    }
    assert!(
        matches!(told.last(), Some(DebateEvent::TurnCompleted { role: Role::Advocate, text, .. }) if text == "first second third"),
        "{told:?}"
    );
    assert!(!told.iter().any(|e| matches!(e, DebateEvent::TurnStarted { .. })), "{told:?}");
    assert!(j.requests().is_empty(), "no new model call starts while paused");
    events.extend(told);
    handle.send(Command::Resume);
    let (events, state) = finish(handle, events).await;
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("first second third"));
    let paused = events.iter().position(|e| matches!(e, DebateEvent::Paused)).unwrap();
    let resumed = events.iter().position(|e| matches!(e, DebateEvent::Resumed)).unwrap();
    let completed =
        events.iter().position(|e| matches!(e, DebateEvent::TurnCompleted { role: Role::Advocate, .. })).unwrap();
    assert!(paused < completed && completed < resumed, "the turn is told while paused, before the resume");
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn injection_during_a_round_reaches_the_next_round_and_the_judge() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("For ", &gate, "it.")], Reply::text("For, again.")));
    let s = debater("Against.");
    let j = judge([verdict(false, 0.6, "Next"), verdict(true, 0.3, "t")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(3));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::InjectTopic("What about remote teams?".into()));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TopicInjected { .. })).await;
    gate.add_permits(1);
    let (_, state) = finish(handle, events).await;
    // The streaming round was not lost and did not carry the injection.
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("For it."));
    assert!(state.rounds[0].injected.is_empty());
    assert_eq!(state.rounds[1].injected, vec!["What about remote teams?".to_string()]);
    assert!(state.pending_injections.is_empty());
    for model in [&a, &s] {
        let prompt = model.requests()[1].messages.last().unwrap().content.clone();
        assert!(prompt.contains("Moderator's note: What about remote teams?"), "{prompt}");
    }
    let judge_prompt = j.requests()[1].messages.last().unwrap().content.clone();
    assert!(judge_prompt.contains("injected this topic: What about remote teams?"), "{judge_prompt}");
}

#[tokio::test(start_paused = true)]
async fn an_injection_in_the_last_round_reaches_the_final_synthesis() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("For ", &gate, "it.")], Reply::text("For.")));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "t")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::InjectTopic("What about remote teams?".into()));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TopicInjected { .. })).await;
    gate.add_permits(1);
    let (_, state) = finish(handle, events).await;
    assert_eq!(state.rounds.len(), 1, "no round is left to carry it");
    let synthesis = j.requests()[0].messages.last().unwrap().content.clone();
    assert!(
        synthesis.contains("asks the final synthesis to consider: What about remote teams?"),
        "the note is not dropped: {synthesis}"
    );
}

#[tokio::test(start_paused = true)]
async fn injection_between_rounds_while_the_judge_streams() {
    let gate = Arc::new(Semaphore::new(0));
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([
        Reply::gated(
            r#"{"resolved": false, "verdict": "Still open on cost.", "#,
            &gate,
            r#""topic": "T2", "heat": 0.8}"#,
        ),
        verdict(true, 0.3, "t"),
    ]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(3));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Judge, .. })).await;
    handle.send(Command::InjectTopic("Consider cost".into()));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TopicInjected { .. })).await;
    gate.add_permits(1);
    let (_, state) = finish(handle, events).await;
    assert_eq!(state.rounds[1].injected, vec!["Consider cost".to_string()]);
    assert!(s.requests()[1].messages.last().unwrap().content.contains("Moderator's note: Consider cost"));
}

#[tokio::test(start_paused = true)]
async fn pinned_temperature_reaches_the_next_requests_until_released() {
    let gate = Arc::new(Semaphore::new(0));
    let gate2 = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new(
        [Reply::gated("For ", &gate, "it."), Reply::gated("Again ", &gate2, "more.")],
        Reply::text("For."),
    ));
    let s = debater("Against.");
    let j = judge([verdict(false, 0.8, "A"), verdict(false, 0.6, "B"), verdict(true, 0.3, "C")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(4));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::PinTemperature(Heat::new(0.42)));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TemperaturePinned { .. })).await;
    gate.add_permits(1);
    // Release during round 2 so that round 3 follows the judge again.
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { round: 1, role: Role::Advocate, .. }))
        .await;
    handle.send(Command::ReleaseTemperature);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TemperatureReleased)).await;
    gate2.add_permits(1);
    let (_, state) = finish(handle, events).await;
    let temps: Vec<_> = s.requests().iter().map(|r| r.temperature).collect();
    assert_eq!(temps, vec![Some(0.9), Some(0.42), Some(0.6)]);
    let prompt = s.requests()[1].messages.last().unwrap().content.clone();
    assert!(prompt.contains(r#"{"set_temp": 0.42}"#), "{prompt}");
    assert_eq!(state.pinned_heat, None);
    // The judge keeps its own low temperature throughout.
    assert!(j.requests().iter().all(|r| r.temperature == Some(0.2)));
}

#[tokio::test(start_paused = true)]
async fn pin_is_clamped_into_range() {
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([verdict(false, 0.8, "A"), verdict(true, 0.3, "B")]);
    let handle = engine::start(setup(&a, &s, &j), spec(3));
    handle.send(Command::PinTemperature(Heat::new(7.0)));
    let (_, state) = drain(handle).await;
    assert_eq!(state.pinned_heat, Some(Heat::new(1.0)));
    assert_eq!(state.rounds[1].heat, Heat::new(1.0));
}

#[tokio::test(start_paused = true)]
async fn forced_resolution_lets_the_round_finish_then_asks_for_synthesis() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("For ", &gate, "it.")], Reply::text("For.")));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "done")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(6));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::ForceResolution);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ResolutionForced)).await;
    gate.add_permits(1);
    let (_, state) = finish(handle, events).await;
    assert_eq!(outcome(&state), Outcome::Forced);
    assert_eq!(state.rounds.len(), 1);
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("For it."));
    assert_eq!(state.rounds[0].turn(Role::Judge).unwrap().purpose, TurnPurpose::Synthesis);
    assert!(j.requests()[0].messages.last().unwrap().content.contains("asked for a resolution now"));
}

#[tokio::test(start_paused = true)]
async fn judge_garbage_then_repair() {
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([Reply::text("I think the advocate wins."), verdict(true, 0.3, "t")]);
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
    assert!(events.iter().any(|e| matches!(e, DebateEvent::VerdictInvalid { will_retry: true, .. })));
    assert_eq!(outcome(&state), Outcome::Resolved);
    let repair = &j.requests()[1];
    assert_eq!(repair.messages[repair.messages.len() - 2].content, "I think the advocate wins.");
    assert!(repair.messages.last().unwrap().content.contains("contains no JSON object"));
    assert_eq!(state.rounds[0].turns.last().unwrap().purpose, TurnPurpose::RepairVerdict);
}

#[tokio::test(start_paused = true)]
async fn judge_garbage_twice_keeps_the_previous_heat_and_goes_on() {
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([Reply::text("nope"), Reply::text("still nope"), verdict(true, 0.3, "t")]);
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
    let invalid: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::VerdictInvalid { will_retry, .. } => Some(*will_retry),
            _ => None,
        })
        .collect();
    assert_eq!(invalid, vec![true, false]);
    assert_eq!(state.rounds.len(), 2);
    assert_eq!(state.rounds[1].heat, Heat::new(0.9), "previous heat kept");
    assert_eq!(state.rounds[1].topic, "Tabs beat spaces", "previous topic kept");
    assert!(matches!(state.rounds[0].turn(Role::Judge).unwrap().verdict, Some(VerdictStatus::Invalid { .. })));
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn provider_failure_mid_stream_is_retried_without_splicing() {
    let mut half = Reply::text("half an answ").0;
    half.truncate(2);
    half.push(heat::provider::scripted::Step::Fail(ProviderError::StreamCut));
    let a = Arc::new(ScriptedModel::new(
        [
            heat::provider::scripted::Reply(half),
            Reply::fail(ProviderError::Server { status: 503, retry_after: None, message: "busy".into() }),
        ],
        Reply::text("A whole answer."),
    ));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "t")]);
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(2))).await;
    let retries = events.iter().filter(|e| matches!(e, DebateEvent::TurnRetrying { role: Role::Advocate, .. })).count();
    assert_eq!(retries, 2);
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("A whole answer."));
    assert_eq!(a.requests().len(), 3);
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn final_provider_error_ends_the_debate_with_a_clear_failure() {
    let a = Arc::new(ScriptedModel::new(
        [],
        Reply::fail(ProviderError::Auth { status: 401, message: "invalid x-api-key".into() }),
    ));
    let (s, j) = (debater("Against."), judge([]));
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(2))).await;
    assert_eq!(a.requests().len(), 1, "401 is not retried");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnFailed { role: Role::Advocate, .. })));
    let Outcome::Failed(why) = outcome(&state) else { panic!("expected failure") };
    assert!(why.contains("advocate") && why.contains("invalid x-api-key"), "{why}");
}

#[tokio::test(start_paused = true)]
async fn debaters_run_concurrently() {
    let shared = Arc::new(ScriptedModel::new([], Reply::after(Duration::from_millis(100), "An argument.")));
    let j = judge([verdict(true, 0.3, "t")]);
    let (_, state) = drain(engine::start(setup(&shared, &shared, &j), spec(2))).await;
    assert_eq!(shared.peak_concurrency(), 2, "advocate and skeptic were in flight at once");
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn cancel_keeps_what_streamed_and_moves_on() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("Partial ", &gate, "never seen")], Reply::text("For.")));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "t")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(2));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnCompleted { role: Role::Skeptic, .. })).await;
    handle.send(Command::CancelTurn);
    let (events, state) = finish(handle, events).await;
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnCancelled { role: Role::Advocate, .. })));
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("Partial "));
    assert!(j.requests()[0].messages.last().unwrap().content.contains("Partial"));
    assert_eq!(outcome(&state), Outcome::Resolved);
}

/// A cancelled call's request is dropped with its task: the model's
/// stream, stopped at a gate that never opens, is closed by the time the
/// cancel is recorded and the runtime has run what is ready, not kept
/// open by a task or a channel left behind.
#[tokio::test(start_paused = true)]
async fn a_cancelled_call_drops_its_request() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("Partial ", &gate, "never seen")], Reply::text("For.")));
    let s = debater("Against.");
    let j = judge([verdict(true, 0.3, "t")]);
    let mut handle = engine::start(setup(&a, &s, &j), spec(2));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    assert_eq!(a.open_streams(), 1, "the advocate's request is open at its gate");
    handle.send(Command::CancelSeat(Role::Advocate));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnCancelled { role: Role::Advocate, .. })).await;
    tokio::task::yield_now().await;
    assert_eq!(a.open_streams(), 0, "the cancelled call's request was dropped");
    let (_, state) = finish(handle, events).await;
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("Partial "));
    assert_eq!(a.open_streams(), 0);
}

#[tokio::test(start_paused = true)]
async fn stop_cancels_the_debate() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([], Reply::gated("x ", &gate, "y")));
    let (s, j) = (debater("Against."), judge([]));
    let mut handle = engine::start(setup(&a, &s, &j), spec(2));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { .. })).await;
    handle.send(Command::Stop);
    let (_, state) = finish(handle, events).await;
    assert_eq!(outcome(&state), Outcome::Cancelled);
}

#[tokio::test(start_paused = true)]
async fn thinking_budget_means_no_temperature_but_the_control_line_stays() {
    let (a, s) = (debater("For."), debater("Against."));
    let j = judge([verdict(true, 0.3, "t")]);
    let mut setup = setup(&a, &s, &j);
    setup.role_mut(Role::Advocate).thinking_budget = Some(2048);
    drain(engine::start(setup, spec(2))).await;
    assert_eq!(a.requests()[0].temperature, None);
    assert_eq!(a.requests()[0].thinking_budget, Some(2048));
    assert!(a.requests()[0].messages[0].content.contains(r#"{"set_temp": 0.90}"#));
    assert_eq!(s.requests()[0].temperature, Some(0.9));
}

#[tokio::test(start_paused = true)]
async fn resume_reruns_only_the_interrupted_turn() {
    // A first run, interrupted while round 2's advocate was streaming.
    let gate = Arc::new(Semaphore::new(0));
    let a =
        Arc::new(ScriptedModel::new([Reply::text("For."), Reply::gated("half ", &gate, "never")], Reply::text("x")));
    let (s, j) = (debater("Against."), judge([verdict(false, 0.6, "Round two")]));
    let mut handle = engine::start(setup(&a, &s, &j), spec(3));
    let mut events = Vec::new();
    // The two seats stream at once: the skeptic may finish before or after the advocate's first words.
    let skeptic_done = |e: &DebateEvent| matches!(e, DebateEvent::TurnCompleted { round: 1, role: Role::Skeptic, .. });
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { round: 1, role: Role::Advocate, .. }))
        .await;
    if !events.iter().any(skeptic_done) {
        wait_for(&mut handle, &mut events, skeptic_done).await;
    }
    drop(handle); // the process dies: no Finished event is read
    let folded = DebateState::from_events(&events);
    assert!(folded.finish.is_none());

    let a2 = debater("For, resumed.");
    let (s2, j2) = (debater("unused"), judge([verdict(true, 0.3, "t")]));
    let handle = engine::resume(setup(&a2, &s2, &j2), folded);
    let (log, state) = finish(handle, events.clone()).await;
    let resumed_events = &log[events.len()..];
    assert!(!resumed_events.iter().any(|e| matches!(e, DebateEvent::Started { .. })), "resume does not start over");
    assert_eq!(a2.requests().len(), 1);
    assert!(s2.requests().is_empty(), "the settled skeptic turn is not re-run");
    assert_eq!(state.rounds.len(), 2);
    assert_eq!(state.rounds[1].argument(Role::Advocate), Some("For, resumed."));
    assert_eq!(state.rounds[1].argument(Role::Skeptic), Some("Against."));
    assert_eq!(outcome(&state), Outcome::Resolved);
    // The whole log (first run + resumed run) folds to the same state.
    events.extend_from_slice(resumed_events);
    assert_eq!(DebateState::from_events(&events), state);
}

#[tokio::test]
async fn a_judge_whose_context_cannot_hold_a_round_is_named_before_the_round_starts() {
    let (adv, skp) = (debater("Tabs."), debater("Spaces."));
    let small = Arc::new(ScriptedModel::new([], verdict(true, 0.3, "done")).with_context(2048));
    let mut roomy = setup(&adv, &skp, &small);
    roomy.role_mut(Role::Advocate).max_tokens = 256;
    roomy.role_mut(Role::Skeptic).max_tokens = 256;
    roomy.role_mut(Role::Judge).max_tokens = 256;
    let (events, _) = drain(engine::start(roomy.clone(), spec(2))).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::Notice { .. })), "256-token arguments fit 2,048");

    let mut remote_debaters = roomy;
    remote_debaters.role_mut(Role::Advocate).max_tokens = 1024;
    remote_debaters.role_mut(Role::Skeptic).max_tokens = 1024;
    let (events, _) = drain(engine::start(remote_debaters, spec(3))).await;
    let notices: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, DebateEvent::Notice { message } if message.contains("context window")))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(notices.len(), 1, "said once");
    let first_round = events.iter().position(|e| matches!(e, DebateEvent::RoundStarted { .. })).unwrap();
    assert!(notices[0] < first_round, "said before the round starts");
    let DebateEvent::Notice { message } = &events[notices[0]] else { unreachable!() };
    assert!(message.contains("2048 tokens") && message.contains("2048 for the two arguments"), "{message}");
}

#[tokio::test]
async fn a_proposition_long_for_a_small_context_is_named_with_both_numbers_before_the_debate() {
    let small = |text: &str| Arc::new(ScriptedModel::new([], Reply::text(text)).with_context(2048));
    let (a, s) = (small("For."), small("Against."));
    let j = Arc::new(ScriptedModel::new([], verdict(true, 0.3, "t")).with_context(2048));
    let mut setup = setup(&a, &s, &j);
    for role in &mut setup.roles {
        role.max_tokens = 256;
    }
    let long = DebateSpec { topic: "Remote work beats the office. ".repeat(70), ..spec(1) };
    let (events, _) = drain(engine::start(setup.clone(), long)).await;
    let notice = proposition_notice(&events);
    assert!(notice.contains("about 699 tokens") && notice.contains("2,048-token context"), "{notice}");
    let (events, _) = drain(engine::start(setup, spec(1))).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::Notice { .. })), "a short one is not");
}

/// The notice about the proposition's length, said before the first round.
fn proposition_notice(events: &[DebateEvent]) -> String {
    let first_round = events.iter().position(|e| matches!(e, DebateEvent::RoundStarted { .. })).unwrap();
    events[..first_round]
        .iter()
        .find_map(|e| match e {
            DebateEvent::Notice { message } if message.contains("proposition") => Some(message.clone()),
            _ => None,
        })
        .expect("said before the first round")
}

#[tokio::test]
async fn a_proposition_the_length_of_a_document_is_named_for_any_model_with_the_way_to_debate_a_document() {
    // No context window known (a served or cloud model): the length itself
    // is worth saying, since every request of the debate carries it.
    let (a, s, j) = (debater("For."), debater("Against."), judge([verdict(true, 0.3, "t")]));
    let long = DebateSpec { topic: "Remote work beats the office. ".repeat(170), ..spec(1) };
    let (events, _) = drain(engine::start(setup(&a, &s, &j), long)).await;
    let notice = proposition_notice(&events);
    assert!(notice.contains("5,099 characters") && notice.contains("--source FILE"), "{notice}");
    assert!(notice.contains("every request"), "{notice}");
}

#[tokio::test]
async fn a_proposition_is_one_line_of_text_whatever_breaks_its_lines() {
    let (a, s, j) = (debater("For."), debater("Against."), judge([verdict(true, 0.3, "t")]));
    let topic = "Tabs beat\r\nspaces\rreally,\n\tin every\u{b}file\u{1b}[31m";
    let (_, state) = drain(engine::start(setup(&a, &s, &j), DebateSpec { topic: topic.into(), ..spec(1) })).await;
    assert_eq!(state.topic, "Tabs beat spaces really, in every file");
}

#[tokio::test(start_paused = true)]
async fn a_judge_answer_logged_but_never_read_is_read_on_resume() {
    let (a, s, j) =
        (debater("For."), debater("Against."), judge([verdict(false, 0.6, "Does onboarding suffer remotely?")]));
    let (events, _) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
    // The process died between logging the judge's answer and reading it.
    let answered = events
        .iter()
        .position(|e| matches!(e, DebateEvent::TurnCompleted { round: 0, role: Role::Judge, .. }))
        .unwrap();
    let folded = DebateState::from_events(&events[..=answered]);
    assert!(folded.rounds[0].verdict().is_none());

    let (a2, s2, j2) = (debater("For again."), debater("Against again."), judge([verdict(true, 0.3, "t")]));
    let handle = engine::resume(setup(&a2, &s2, &j2), folded);
    let (log, state) = finish(handle, events[..=answered].to_vec()).await;
    let resumed = &log[answered + 1..];
    assert!(
        matches!(resumed.get(1), Some(DebateEvent::VerdictReached { round: 0, verdict }) if verdict.topic == "Does onboarding suffer remotely?"),
        "the answer is read before anything else: {:?}",
        resumed.get(1)
    );
    assert_eq!(j2.requests().len(), 1, "the judge is not asked round 1 again");
    assert_eq!(state.rounds[1].topic, "Does onboarding suffer remotely?", "the next round takes the judge's topic");
    assert_eq!(state.rounds[1].heat, Heat::new(0.6), "and its heat");
}

/// The control line and what it means go together, per seat: a debater on
/// a served model is shown both; one on the embedded model (a tiny model
/// that writes about what it is told), in the same debate, neither.
#[tokio::test]
async fn only_a_seat_shown_the_control_line_is_told_what_it_means() {
    let served = debater("For.");
    let tiny = Arc::new(ScriptedModel::new([], Reply::text("Against.")).playing_embedded());
    let j = judge([verdict(true, 0.3, "t")]);
    let (_, _) = drain(engine::start(setup(&served, &tiny, &j), spec(1))).await;
    let served_request = &served.requests()[0];
    let tiny_request = &tiny.requests()[0];
    let said = |request: &heat::provider::ChatRequest| {
        format!(
            "{}\n{}",
            request.full_system_prompt(),
            request.messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n")
        )
    };
    let served_said = said(served_request);
    assert!(served_said.contains("{\"set_temp\": 0.") && served_said.contains("is a control message"), "{served_said}");
    let tiny_said = said(tiny_request);
    assert!(!tiny_said.contains("set_temp") && !tiny_said.contains("control message"), "{tiny_said}");
    let judge_said = said(&j.requests()[0]);
    assert!(!judge_said.contains("is a control message"), "the judge is shown no control line: {judge_said}");
}

/// A last word that says the debate is not settled stands as the synthesis
/// and is said to be the judge's last word, not a resolution; one that
/// settles it is not remarked on.
#[tokio::test(start_paused = true)]
async fn a_final_word_that_does_not_settle_the_debate_is_said_as_such() {
    let unsettled = |resolved: bool| async move {
        let judge = judge([verdict(false, 0.6, "Round two?"), verdict(resolved, 0.5, "done")]);
        let handle = engine::start(setup(&debater("Tabs."), &debater("Spaces."), &judge), spec(2));
        finish(handle, Vec::new()).await
    };
    let (events, state) = unsettled(false).await;
    let said: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } if message.contains("final word does not settle") => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            "The judge's final word does not settle the debate (it answered \"resolved\": false): it stands as the synthesis as the judge's last word, not as a resolution"
        ]
    );
    let finish = state.finish.unwrap();
    assert_eq!(finish.synthesis.as_deref(), Some("Both sides argued; done is open."), "the word stands");
    let notice = events
        .iter()
        .position(|e| matches!(e, DebateEvent::Notice { message } if message.contains("final word")))
        .unwrap();
    assert!(matches!(events[notice + 1], DebateEvent::Finished { .. }), "said as it ends");

    let (events, _) = unsettled(true).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::Notice { message } if message.contains("final word"))));
}

/// Each model call runs on one task of its own, between its model's stream
/// and the engine: two debaters waiting at their gates make three tasks
/// with the engine's (a call once took two, its retried stream driven on a
/// second task behind a channel of its own).
#[tokio::test(start_paused = true)]
async fn a_model_call_is_one_task() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("For ", &gate, "never")], Reply::text("For.")));
    let s = Arc::new(ScriptedModel::new([Reply::gated("Against ", &gate, "never")], Reply::text("Against.")));
    let j = judge([verdict(true, 0.3, "t")]);
    let metrics = tokio::runtime::Handle::current().metrics();
    assert_eq!(metrics.num_alive_tasks(), 0);
    let mut handle = engine::start(setup(&a, &s, &j), spec(2));
    let mut events = Vec::new();
    for role in [Role::Advocate, Role::Skeptic] {
        if !events.iter().any(|e| matches!(e, DebateEvent::Delta { role: r, .. } if *r == role)) {
            wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Delta { role: r, .. } if *r == role)).await;
        }
    }
    tokio::task::yield_now().await;
    assert_eq!(metrics.num_alive_tasks(), 3, "the engine and one task for each call");
    handle.send(Command::Stop);
    finish(handle, events).await;
}
