//! What the engine tests share: the one builder of an `EngineSetup`, a
//! seat, a debate spec in a format, and reading a debate to its end (while
//! checking that the fold of its events is the engine's own state).
#![allow(dead_code)]

pub mod builder;

use std::sync::Arc;

use heat::debate::engine::{DebateHandle, DebateSpec, Grounding, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::debate::{DebateEvent, DebateState, Heat};
use heat::provider::ChatModel;

pub use builder::{duel, setup};

/// A seat on `model`, asked as `m` with 512 tokens.
pub fn seat(model: Arc<dyn ChatModel>) -> RoleSetup {
    RoleSetup::new(model, "m", 512)
}

/// A debate on `topic` in `format` of `max_rounds` rounds from heat 0.9.
pub fn spec(topic: &str, format: FormatRecord, max_rounds: u32) -> DebateSpec {
    DebateSpec {
        topic: topic.into(),
        max_rounds,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(format),
    }
}

/// Every event of a debate to its end, the engine joined.
pub async fn drain_events(mut handle: DebateHandle) -> Vec<DebateEvent> {
    let mut events = Vec::new();
    while let Some(e) = handle.next_event().await {
        events.push(e);
    }
    handle.join().await;
    events
}

/// Every event of a debate to its end, and its final state, which must be
/// the fold of those events.
pub async fn drain(mut handle: DebateHandle) -> (Vec<DebateEvent>, DebateState) {
    let mut events = Vec::new();
    while let Some(e) = handle.next_event().await {
        events.push(e);
    }
    let state = handle.join().await;
    assert_eq!(DebateState::from_events(&events), state, "the fold of the events is the engine's state");
    (events, state)
}

/// A duel on "Tabs beat spaces" of `max_rounds` rounds from heat 0.9.
pub fn duel_spec(max_rounds: u32) -> DebateSpec {
    DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    }
}

/// Reads events into `events` up to and including the first that `pred` holds.
pub async fn wait_for(handle: &mut DebateHandle, events: &mut Vec<DebateEvent>, pred: impl Fn(&DebateEvent) -> bool) {
    loop {
        let event = handle.next_event().await.expect("the debate ended before the awaited event");
        let hit = pred(&event);
        events.push(event);
        if hit {
            return;
        }
    }
}

/// [`drain`] for a debate whose first `events` were read already.
pub async fn finish(mut handle: DebateHandle, mut events: Vec<DebateEvent>) -> (Vec<DebateEvent>, DebateState) {
    while let Some(event) = handle.next_event().await {
        events.push(event);
    }
    let state = handle.join().await;
    assert_eq!(DebateState::from_events(&events), state, "the fold of the events is the engine's state");
    (events, state)
}
