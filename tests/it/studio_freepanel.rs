//! The `panel` format in the studio: three free panelists (Optimist,
//! Realist, Critic) and a judge in a 2×2 grid, each finished turn's final
//! answer under it, and, once the panelists agree, the judge's synthesis
//! and the debate's end in the judge's pane.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support::log::Log;

use crossterm::event::{KeyCode, KeyEvent};
use heat::debate::{DebateEvent, Heat, Outcome, Role, TurnPurpose, Verdict};
use heat::tui::App;
use studio_support::{feed, new_app, screen};

const QUESTION: &str = "Should cities ban cars from their centres?";

/// The panel's seats, in screen order.
const SEATS: [Role; 4] = [Role::Advocate, Role::Skeptic, Role::Third, Role::Judge];
const PANELISTS: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Third];

const OPTIMIST_1: &str = "Quieter streets fill with cafes and children walk to school again.\nFinal answer: fewer cars";
const REALIST_1: &str =
    "Shops need their vans at dawn; a ban without exceptions empties the high street.\nFinal answer: a ban";
const CRITIC_1: &str = "Buses stall when lanes close, and the poorest riders pay for it.\nFinal answer: no ban";
const OPTIMIST_2: &str = "Deliveries at night answer the realist's vans.\nFinal answer: Fewer cars.";
const REALIST_2: &str = "With night deliveries kept, fewer cars is the change that sticks.\nFinal answer: fewer cars";
const CRITIC_2: &str = "If the buses keep their lanes, I can live with fewer cars.\nFinal answer: fewer cars";

const JUDGE_1: &str = r#"{"resolved": false, "verdict": "The panel splits on an outright ban against fewer cars.", "ahead": "even", "conceded": "none", "topic": "What about deliveries?", "heat": 0.5}"#;
const SYNTHESIS: &str = "Synthesis: the panel agrees on fewer cars, with deliveries kept at night.";

fn started() -> Vec<DebateEvent> {
    Log::new(QUESTION, 4, 0.9).seats(&SEATS, "anthropic", "claude-sonnet-4").format("panel").into_events()
}

fn round_started(round: u32, heat: f32) -> DebateEvent {
    DebateEvent::RoundStarted { round, topic: QUESTION.into(), heat: Heat::new(heat), injected: vec![] }
}

fn done(round: u32, role: Role, text: &str) -> DebateEvent {
    DebateEvent::TurnCompleted { round, role, text: text.into(), usage: None, truncated_at: None, possibly_cut: false }
}

fn judge(round: u32, purpose: TurnPurpose, text: &str, verdict: Verdict) -> Vec<DebateEvent> {
    vec![
        DebateEvent::TurnStarted { round, role: Role::Judge, purpose, temperature: Some(0.2) },
        done(round, Role::Judge, text),
        DebateEvent::VerdictReached { round, verdict },
    ]
}

/// Round 1 argued and weighed (the panel split); in round 2 the optimist
/// has answered, the realist writes and the critic thinks.
fn mid_stream() -> App {
    let mut events = started();
    events.push(round_started(0, 0.9));
    events.extend(PANELISTS.map(|role| DebateEvent::TurnStarted {
        round: 0,
        role,
        purpose: TurnPurpose::Argue,
        temperature: Some(0.9),
    }));
    events.extend([
        done(0, Role::Advocate, OPTIMIST_1),
        done(0, Role::Skeptic, REALIST_1),
        done(0, Role::Third, CRITIC_1),
    ]);
    let split = Verdict {
        resolved: false,
        verdict: "The panel splits on an outright ban against fewer cars.".into(),
        topic: "What about deliveries?".into(),
        heat: Heat::new(0.5),
        ..Verdict::default()
    };
    events.extend(judge(0, TurnPurpose::Judge, JUDGE_1, split));
    events.push(round_started(1, 0.5));
    events.extend(PANELISTS.map(|role| DebateEvent::TurnStarted {
        round: 1,
        role,
        purpose: TurnPurpose::Argue,
        temperature: Some(0.5),
    }));
    events.extend([
        done(1, Role::Advocate, OPTIMIST_2),
        DebateEvent::Delta { round: 1, role: Role::Skeptic, text: "With night deliveries kept, fewer".into() },
    ]);
    let mut app = new_app();
    app.begin("20261125-030000-panel".into());
    feed(&mut app, &events);
    app
}

/// Every panelist gave "fewer cars" in round 2: converged, and the judge
/// wrote the synthesis at once.
fn converged() -> App {
    let mut app = mid_stream();
    feed(&mut app, &[done(1, Role::Skeptic, REALIST_2), done(1, Role::Third, CRITIC_2)]);
    let text = format!(
        r#"{{"resolved": true, "verdict": "{SYNTHESIS}", "ahead": "even", "conceded": "none", "topic": "t", "heat": 0.3}}"#
    );
    let verdict = Verdict {
        resolved: true,
        verdict: SYNTHESIS.into(),
        topic: "t".into(),
        heat: Heat::new(0.3),
        ..Verdict::default()
    };
    feed(&mut app, &judge(1, TurnPurpose::Synthesis, &text, verdict));
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::Converged, synthesis: Some(SYNTHESIS.into()) }]);
    assert!(matches!(app.modal, Some(heat::tui::modal::Modal::Results(_))), "the results opened");
    app.on_key(KeyEvent::from(KeyCode::Esc));
    app
}

#[test]
fn a_panel_shows_three_panelists_and_the_judge() {
    let mut app = mid_stream();
    let text = screen(&mut app, 120, 40);
    for label in [" Optimist ", " Realist ", " Critic ", " Judge "] {
        assert!(text.contains(label), "{label} has a pane:\n{text}");
    }
    for absent in ["Third", "Fourth", "Advocate", "Skeptic"] {
        assert!(!text.contains(absent), "no {absent} in a panel:\n{text}");
    }
    assert!(text.contains("▸ final answer: fewer cars"), "{text}");
    assert!(text.contains("The panel splits on an outright ban"), "the judge's round 1:\n{text}");
    insta::assert_snapshot!("panel_mid_stream_120x40", text);
    insta::assert_snapshot!("panel_mid_stream_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("panel_mid_stream_200x50", screen(&mut app, 200, 50));
}

#[test]
fn a_converged_panel_ends_with_the_judges_synthesis() {
    let mut app = converged();
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Synthesis: the panel agrees on fewer cars"), "{text}");
    assert!(text.contains("Debate over: converged"), "the judge's pane closes the debate:\n{text}");
    for absent in ["Third", "Fourth"] {
        assert!(!text.contains(absent), "no {absent} in a panel:\n{text}");
    }
    insta::assert_snapshot!("panel_converged_120x40", text);
    insta::assert_snapshot!("panel_converged_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("panel_converged_200x50", screen(&mut app, 200, 50));
}
