//! Pausing a debate mid-turn, against scripted models: a model that pauses
//! in place (the embedded one) is not read at all while paused and goes on
//! where it stopped; a server's answer runs on, is held until it completes,
//! and is then recorded while still paused (a quit or a crash before the
//! resume keeps it), each piece stamped when it arrived; nothing new starts
//! until the resume.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use crate::engine_support;

use heat::debate::Heat;
use heat::debate::engine::{self, DebateHandle, DebateSpec, Grounding, RoleSetup, Stamped};
use heat::debate::{Command, DebateEvent, DebateState, Role};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::store::Store;

const ANSWER: &str = "Tabs let every reader choose the width they like best.";
/// One chunk per word, then usage and the finish.
const CHUNKS: usize = 12;
/// The time between two of the advocate's chunks.
const PACE: Duration = Duration::from_millis(100);
/// How long each test stays paused.
const PAUSE: Duration = Duration::from_secs(60);

fn role(model: &Arc<ScriptedModel>) -> RoleSetup {
    RoleSetup::new(Arc::clone(model) as Arc<dyn ChatModel>, "m", 512)
}

/// An advocate that streams `ANSWER` a word at a time, a quick skeptic and
/// a judge that resolves the debate in round one.
fn debate(advocate: ScriptedModel) -> (Arc<ScriptedModel>, DebateHandle) {
    let advocate = Arc::new(advocate);
    let skeptic = Arc::new(ScriptedModel::new([], Reply::text("Spaces look the same everywhere.")));
    let verdict = r#"{"resolved": true, "verdict": "Settled.", "topic": "Tabs beat spaces", "heat": 0.4}"#;
    let judge = Arc::new(ScriptedModel::new([], Reply::text(verdict)));
    let setup = engine_support::duel(role(&advocate), role(&skeptic), role(&judge)).build();
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 1,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    };
    (advocate, engine::start(setup, spec))
}

fn answer() -> Reply {
    Reply::slow(ANSWER, PACE)
}

async fn until(handle: &mut DebateHandle, seen: &mut Vec<Stamped>, hit: impl Fn(&DebateEvent) -> bool) {
    loop {
        let stamped = handle.next_stamped().await.expect("the debate ended before the awaited event");
        let found = hit(&stamped.event);
        seen.push(stamped);
        if found {
            return;
        }
    }
}

/// Pauses once the advocate has said something, waits `PAUSE` (reading
/// what the engine tells meanwhile), resumes and reads the debate to its
/// end. Returns every event, how many chunks the advocate's model gave
/// while the debate was paused, the end state, and how many of the events
/// were told before the resume was sent.
async fn pause_mid_turn(
    advocate: &ScriptedModel,
    mut handle: DebateHandle,
) -> (Vec<Stamped>, usize, DebateState, usize) {
    let mut seen = Vec::new();
    until(&mut handle, &mut seen, |e| matches!(e, DebateEvent::Delta { role: Role::Advocate, .. })).await;
    handle.send(Command::Pause);
    until(&mut handle, &mut seen, |e| matches!(e, DebateEvent::Paused)).await;
    let before = advocate.pulled();
    let until_resume = tokio::time::Instant::now() + PAUSE;
    while let Ok(Some(stamped)) = tokio::time::timeout_at(until_resume, handle.next_stamped()).await {
        seen.push(stamped);
    }
    let while_paused = advocate.pulled() - before;
    let told_paused = seen.len();
    handle.send(Command::Resume);
    while let Some(stamped) = handle.next_stamped().await {
        seen.push(stamped);
    }
    let state = handle.join().await;
    assert_eq!(DebateState::from_events(seen.iter().map(|s| &s.event)), state);
    (seen, while_paused, state, told_paused)
}

fn advocate_text(seen: &[Stamped]) -> String {
    seen.iter()
        .filter_map(|s| match &s.event {
            DebateEvent::Delta { role: Role::Advocate, text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn position(seen: &[Stamped], wanted: impl Fn(&DebateEvent) -> bool) -> usize {
    seen.iter().position(|s| wanted(&s.event)).expect("the event was emitted")
}

#[tokio::test(start_paused = true)]
async fn a_model_that_pauses_in_place_is_not_read_while_paused_and_goes_on_where_it_stopped() {
    let model = ScriptedModel::new([answer()], Reply::text("x")).pausing_in_place();
    let (advocate, handle) = debate(model);
    let (seen, while_paused, state, _) = pause_mid_turn(&advocate, handle).await;
    assert_eq!(while_paused, 0, "the paused model was read");
    // Nothing was held back: every word came after the resume, one at a time.
    let resumed = position(&seen, |e| matches!(e, DebateEvent::Resumed));
    let after = seen[resumed..].iter().filter(|s| matches!(s.event, DebateEvent::Delta { role: Role::Advocate, .. }));
    assert!(after.count() > 1, "the rest of the answer streams after the resume");
    assert_eq!(advocate_text(&seen), ANSWER, "the answer goes on where it stopped, complete and in order");
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some(ANSWER));
    assert_eq!(advocate.pulled(), CHUNKS);
}

#[tokio::test(start_paused = true)]
async fn a_server_answer_runs_on_while_paused_and_is_recorded_when_it_completes_as_it_arrived() {
    let (advocate, handle) = debate(ScriptedModel::new([answer()], Reply::text("x")));
    let paused_at = tokio::time::Instant::now();
    let (seen, while_paused, state, told_paused) = pause_mid_turn(&advocate, handle).await;
    assert!(while_paused > 5, "the server's answer was read on while paused: {while_paused} chunks");
    assert_eq!(advocate.pulled(), CHUNKS, "the whole answer arrived while paused");
    assert_eq!(advocate_text(&seen), ANSWER, "held, then shown complete and in order");
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some(ANSWER));
    // What was held is told before the resume, stamped when it arrived: all
    // within the pause's first seconds, none at the resume a minute later.
    let paused = position(&seen, |e| matches!(e, DebateEvent::Paused));
    let resumed = position(&seen, |e| matches!(e, DebateEvent::Resumed));
    let completed = position(&seen, |e| matches!(e, DebateEvent::TurnCompleted { role: Role::Advocate, .. }));
    assert!(paused < completed && completed < resumed, "the held turn is told, then the resume");
    // Told while paused (kept if the person quit now), and nothing new started: the judge waits.
    assert!(completed < told_paused, "recorded before the resume was sent");
    let judged = position(&seen, |e| matches!(e, DebateEvent::TurnStarted { role: Role::Judge, .. }));
    assert!(resumed < judged, "the judge is asked only after the resume");
    let resumed_at = seen[resumed].at;
    assert!(resumed_at.duration_since(paused_at.into_std()) >= PAUSE);
    for held in &seen[paused + 1..resumed] {
        let early = resumed_at.duration_since(held.at);
        assert!(early + Duration::from_secs(3) >= PAUSE, "{:?} stamped {early:?} before the resume", held.event);
    }
    assert!(seen.windows(2).all(|w| w[0].at <= w[1].at), "stamps never go back");
}

#[tokio::test(start_paused = true)]
async fn held_text_is_logged_when_it_arrived_not_when_it_was_shown() {
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let mut recorder = store.create().unwrap();
    let id = recorder.id().to_string();
    let (advocate, handle) = debate(ScriptedModel::new([answer()], Reply::text("x")));
    let (seen, _, _, _) = pause_mid_turn(&advocate, handle).await;
    for Stamped { event, at } in &seen {
        assert_eq!(recorder.record_at(event, *at), None);
    }
    drop(recorder);
    let records = store.load(&id).unwrap().records;
    let ms = |wanted: fn(&DebateEvent) -> bool| records.iter().find(|r| wanted(&r.event)).expect("logged").ms;
    let paused = ms(|e| matches!(e, DebateEvent::Paused));
    let resumed = ms(|e| matches!(e, DebateEvent::Resumed));
    let last_word = records
        .iter()
        .filter(|r| matches!(r.event, DebateEvent::Delta { role: Role::Advocate, .. }))
        .map(|r| r.ms)
        .max()
        .unwrap();
    assert!(resumed - paused >= 59_000, "the pause lasted a minute: {paused} → {resumed}");
    assert!(last_word < paused + 3_000, "the last word arrived early in the pause, at {last_word} ms");
    assert!(records.windows(2).all(|w| w[0].ms <= w[1].ms), "timestamps never go back");
    // The log folds back to the same debate.
    let folded = DebateState::from_events(records.iter().map(|r| &r.event));
    assert_eq!(folded.rounds[0].argument(Role::Advocate), Some(ANSWER));
}
