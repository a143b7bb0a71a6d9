//! Any bytes as a session log: loading never panics; what it loads folds
//! into a state without panicking, and every event it accepts can be
//! written back and read again unchanged (so a resumed log stays loadable).
#![no_main]

use heat::debate::{DebateEvent, DebateState};
use heat::store::log;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(loaded) = log::parse(data) else { return };
    let events: Vec<DebateEvent> = loaded.records.iter().map(|r| r.event.clone()).collect();
    let state = DebateState::from_events(&events);
    for event in &events {
        let json = serde_json::to_string(event).expect("an accepted event serialises");
        let back: DebateEvent = serde_json::from_str(&json).expect("an accepted event reads back");
        assert_eq!(&back, event);
    }
    assert!(state.heat.is_finite() && state.effective_heat().is_finite(), "a log made the heat {}", state.heat);
});
