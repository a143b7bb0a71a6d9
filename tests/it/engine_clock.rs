//! The debate's clock: a debater's turn past `debate.turn_seconds` is cut,
//! marked, and judged with what it said; a round past
//! `debate.round_seconds` ends the debate `timeout`; time spent paused is
//! not counted. The engine on scripted models, on tokio's paused clock.

use crate::engine_support;

use std::sync::Arc;
use std::time::Duration;

use engine_support::{duel_spec as spec, finish};
use heat::debate::engine::{self, Clock, EngineSetup, RoleSetup};
use heat::debate::{Command, DebateEvent, Outcome, Role};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};
use tokio::sync::Semaphore;

fn verdict(resolved: bool, topic: &str) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": {resolved}, "verdict": "The round on {topic} stays open for both.", "topic": "{topic}", "heat": 0.6}}"#
    ))
}

fn role(model: &Arc<ScriptedModel>) -> RoleSetup {
    RoleSetup::new(Arc::clone(model) as Arc<dyn ChatModel>, "m", 512)
}

fn setup(models: [&Arc<ScriptedModel>; 3], clock: Clock) -> EngineSetup {
    let [a, s, j] = models;
    engine_support::duel(role(a), role(s), role(j)).clock(clock).build()
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

#[tokio::test(start_paused = true)]
async fn a_turn_past_its_limit_is_cut_marked_and_judged_with_what_it_said() {
    // The advocate says half a sentence, then never finishes.
    let never = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("Tabs let readers ", &never, "choose.")], Reply::text("For.")));
    let s = Arc::new(ScriptedModel::new([], Reply::text("Spaces render the same.")));
    let j = Arc::new(ScriptedModel::new([verdict(false, "diffs")], verdict(true, "end")));
    let handle = engine::start(setup([&a, &s, &j], Clock { turn: Some(secs(30)), round: None }), spec(2));
    let (events, state) = finish(handle, Vec::new()).await;
    let cut = state.rounds[0].turn(Role::Advocate).expect("the advocate's turn");
    assert_eq!((cut.out_of_time, cut.text.as_str()), (Some(30), "Tabs let readers "));
    assert!(
        events.iter().any(|e| matches!(e, DebateEvent::TurnTimedOut { round: 0, role: Role::Advocate, seconds: 30 }))
    );
    // The judge read the cut argument as it stood, and the debate went on.
    let judged = j.requests()[0].messages.last().expect("asked").content.clone();
    assert!(judged.contains("Tabs let readers"), "{judged}");
    assert_eq!(state.rounds.len(), 2);
    assert!(state.rounds[0].turn(Role::Skeptic).is_some_and(|t| t.out_of_time.is_none()), "the other seat was in time");
}

#[tokio::test(start_paused = true)]
async fn a_round_past_its_limit_ends_the_debate_timeout() {
    let never = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([], Reply::text("For.")));
    let s = Arc::new(ScriptedModel::new([], Reply::text("Against.")));
    // Round 1 is judged; round 2's judge never answers.
    let j =
        Arc::new(ScriptedModel::new([verdict(false, "diffs"), Reply::gated("{", &never, "}")], verdict(true, "end")));
    let handle = engine::start(setup([&a, &s, &j], Clock { turn: None, round: Some(secs(120)) }), spec(4));
    let (_, state) = finish(handle, Vec::new()).await;
    let finish = state.finish.expect("ended");
    assert_eq!(finish.outcome, Outcome::Timeout(120));
    assert_eq!(state.rounds.len(), 2);
    // Its last word is the nearest readable verdict, said as such.
    assert!(finish.synthesis.is_some_and(|s| s.contains("last readable verdict, from round 1")));
}

#[tokio::test(start_paused = true)]
async fn time_spent_paused_is_not_counted() {
    let gate = Arc::new(Semaphore::new(0));
    let a = Arc::new(ScriptedModel::new([Reply::gated("For ", &gate, "it.")], Reply::text("For.")));
    let s = Arc::new(ScriptedModel::new([], Reply::text("Against.")));
    let j = Arc::new(ScriptedModel::new([verdict(true, "end")], verdict(true, "end")));
    let mut handle = engine::start(setup([&a, &s, &j], Clock { turn: Some(secs(30)), round: None }), spec(1));
    let mut events = Vec::new();
    // Paused 10 s into the turn, for a minute; resumed, the turn finishes 15 s later: 25 s of its 30.
    loop {
        let e = handle.next_event().await.expect("running");
        let started = matches!(e, DebateEvent::Delta { role: Role::Advocate, .. });
        events.push(e);
        if started {
            break;
        }
    }
    tokio::time::sleep(Duration::from_secs(10)).await;
    handle.send(Command::Pause);
    tokio::time::sleep(Duration::from_secs(60)).await;
    handle.send(Command::Resume);
    tokio::time::sleep(Duration::from_secs(15)).await;
    gate.add_permits(1);
    let (events, state) = finish(handle, events).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::TurnTimedOut { .. })), "{events:?}");
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("For it."));
}
