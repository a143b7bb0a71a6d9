//! The bundled demo (`heat replay --demo`): a scripted debate, generated
//! through the real engine from `script.rs`, that shows every feature and is
//! labelled scripted wherever it is shown. After changing the script:
//! `cargo test --no-default-features --test it -- --ignored demo::regenerate`.
#![allow(clippy::unwrap_used)]
// Heats are copied from the script, never computed: exact comparison is right.
#![allow(clippy::float_cmp)]

mod generate;
mod script;
use crate::studio_support;

use heat::debate::Heat;
use heat::debate::guard::turn::{self as guard, ArgumentOutcome, SentPrompt, VerdictOutcome};
use heat::debate::prompt::{self, Prompts};
use heat::debate::{DebateEvent, DebateState, Outcome, Role, TurnPurpose};
use heat::provider::{ChatMessage, ChatRole};
use heat::store::log::{self, Loaded};
use heat::tui::app::{Mode, Replay};

const ASSET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo-session.jsonl");

fn demo() -> Loaded {
    log::parse(&std::fs::read(ASSET).unwrap()).unwrap()
}

fn events(loaded: &Loaded) -> Vec<DebateEvent> {
    loaded.records.iter().map(|r| r.event.clone()).collect()
}

/// Writes the demo afresh from the script.
#[tokio::test(start_paused = true)]
#[ignore = "rewrites assets/demo-session.jsonl"]
async fn regenerate() {
    std::fs::write(ASSET, generate::generate().await).unwrap();
}

#[tokio::test(start_paused = true)]
async fn the_bundled_demo_is_what_the_script_generates() {
    let generated = generate::generate().await;
    let bundled = std::fs::read_to_string(ASSET).unwrap();
    assert!(
        generated == bundled,
        "assets/demo-session.jsonl differs from what tests/demo/script.rs generates; \
         run `cargo test --no-default-features --test demo -- --ignored regenerate`"
    );
}

#[test]
fn the_demo_folds_without_a_notice_and_is_labelled_scripted() {
    let loaded = demo();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let events = events(&loaded);
    let state = DebateState::from_events(&events);
    assert!(state.notices.is_empty(), "{:?}", state.notices);
    assert!(state.is_scripted());
    assert!(state.participants.iter().all(|p| p.model == "demo"), "{:?}", state.participants);
    assert!(!events.iter().any(|e| matches!(
        e,
        DebateEvent::Notice { .. } | DebateEvent::VerdictInvalid { .. } | DebateEvent::TurnFailed { .. }
    )));
    // Played at its pace, no wait is cut short (the replay cuts those over 2 s).
    let stamps: Vec<u64> = loaded.records.iter().map(|r| r.ms).collect();
    assert!(stamps.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= 2000), "{stamps:?}");
}

#[test]
fn the_demo_shows_every_feature() {
    let events = events(&demo());
    let state = DebateState::from_events(&events);
    let position = |pred: &dyn Fn(&DebateEvent) -> bool| events.iter().position(pred);

    assert!((3..=4).contains(&state.rounds.len()), "{} rounds", state.rounds.len());
    let heats = state.heat_history();
    assert!(heats.windows(2).any(|w| w[1] > w[0]) && heats.windows(2).any(|w| w[1] < w[0]), "{heats:?}");
    let judged: Vec<f32> = state.rounds.iter().filter_map(|r| r.verdict()).map(|v| v.heat.get()).collect();
    assert!(judged.windows(2).any(|w| w[1] > w[0]) && judged.windows(2).any(|w| w[1] < w[0]), "{judged:?}");

    let injected = position(&|e| matches!(e, DebateEvent::TopicInjected { .. })).expect("an injection");
    assert!(state.rounds.iter().any(|r| r.injected == [script::INJECTED]), "a round carries it");
    assert!(injected > 0);

    let pinned = position(&|e| matches!(e, DebateEvent::TemperaturePinned { .. })).expect("a pin");
    let released = position(&|e| matches!(e, DebateEvent::TemperatureReleased)).expect("a release");
    assert!(pinned < released);
    assert!(state.rounds.iter().any(|r| r.pinned && r.heat == Heat::new(0.5)), "a round played at the pinned heat");
    assert_eq!(state.pinned_heat, None);

    let retry = events.iter().enumerate().find_map(|(i, e)| match e {
        DebateEvent::TurnRetrying { round, role, delay_ms, reason, .. } => Some((i, *round, *role, *delay_ms, reason)),
        _ => None,
    });
    let (at, round, role, delay_ms, reason) = retry.expect("a retry");
    assert!(reason.contains("429") && delay_ms == 2000, "{reason} after {delay_ms} ms");
    assert!(
        events[at..]
            .iter()
            .any(|e| matches!(e, DebateEvent::Delta { round: r, role: o, .. } if *r == round && *o == role)),
        "the turn streams again"
    );

    let forced = position(&|e| matches!(e, DebateEvent::ResolutionForced)).expect("a forced resolution");
    assert!(released < forced);
    let finish = state.finish.clone().expect("it ends");
    assert_eq!(finish.outcome, Outcome::Forced);
    assert_eq!(finish.synthesis.as_deref(), Some(script::SYNTHESIS.verdict));
    let last = state.rounds.last().unwrap().turn(Role::Judge).unwrap();
    assert_eq!(last.purpose, TurnPurpose::Synthesis);
}

#[test]
fn every_argument_and_verdict_passes_the_guards() {
    let events = events(&demo());
    let mut started = std::collections::HashMap::new();
    let mut checked = 0;
    for (i, event) in events.iter().enumerate() {
        match event {
            DebateEvent::TurnStarted { round, role, purpose, .. } => {
                let before = DebateState::from_events(&events[..i]);
                started.insert(*role, (*purpose, sent(&before, *role, *round, *purpose)));
            }
            DebateEvent::TurnCompleted { role, text, .. } if *role != Role::Judge => {
                let before = DebateState::from_events(&events[..i]);
                let streamed = before.current_round().unwrap().turn(*role).unwrap().text.clone();
                let outcome = guard::argument(&before, *role, &started[role].1, &streamed, false, true);
                assert_eq!(outcome, ArgumentOutcome::Stands(text.clone()));
                let words = text.split_whitespace().count();
                assert!((120..=190).contains(&words), "{} argues in {words} words", role.key());
                checked += 1;
            }
            DebateEvent::VerdictReached { round, verdict } => {
                let before = DebateState::from_events(&events[..i]);
                let (purpose, sent) = &started[&Role::Judge];
                let outcome = guard::verdict(&before, *round, *purpose, sent, verdict.clone(), true);
                assert_eq!(outcome, VerdictOutcome::Stands { verdict: verdict.clone(), notice: None });
                checked += 1;
            }
            _ => {}
        }
    }
    assert_eq!(checked, 4 * 2 + 4, "eight arguments, three verdicts and the synthesis");
}

/// What a turn's model was sent, rebuilt from the debate as it stood.
fn sent(state: &DebateState, role: Role, round: u32, purpose: TurnPurpose) -> SentPrompt {
    let messages: Vec<ChatMessage> = if role == Role::Judge {
        prompt::judge_messages(state, round, purpose, false)
    } else {
        prompt::debater_messages(state, role, round, false)
    };
    let user = messages.into_iter().filter(|m| m.role == ChatRole::User).map(|m| m.content).collect();
    SentPrompt { system: Prompts::default().system_for(role), user, own: Vec::new() }
}

#[test]
fn the_studio_says_it_plays_a_scripted_demo() {
    let events = events(&demo());
    let first_round_over = events.iter().position(|e| matches!(e, DebateEvent::VerdictReached { .. })).unwrap();
    for (width, height) in [(80, 24), (160, 45)] {
        let mut app = studio_support::new_app_with(|options| options.mode = Mode::Replays);
        app.begin("demo".into());
        app.staged().replay = Some(Replay::Playing);
        studio_support::feed(&mut app, &events[..first_round_over]);
        let text = studio_support::screen(&mut app, width, height);
        assert!(text.contains("▶ SCRIPTED DEMO") && text.contains("scripted/demo"), "{text}");
        assert!(text.contains("Scripted demo: written in advance"), "{text}");
        // What the person at the keyboard did is said when it happens.
        let injected = events.iter().position(|e| matches!(e, DebateEvent::TopicInjected { .. })).unwrap();
        studio_support::feed(&mut app, &events[first_round_over..=injected]);
        let text = studio_support::screen(&mut app, width, height);
        assert!(text.contains(&format!("Topic injected: {}", script::INJECTED)), "{text}");
        studio_support::feed(&mut app, &events[injected + 1..]);
        app.played_out();
        // The results open at the end: the outcome, then Esc shows the panes.
        let text = studio_support::screen(&mut app, width, height);
        assert!(text.contains("Resolution forced after 4 rounds") && text.contains("Heat per round"), "{text}");
        app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Esc));
        let text = studio_support::screen(&mut app, width, height);
        assert!(text.contains("■ SCRIPTED DEMO · ended") && text.contains("resolution forced"), "{text}");
        if width == 160 {
            assert!(text.contains("Round 4 · heat 0.50 · pinned"), "{text}");
        }
    }
}
