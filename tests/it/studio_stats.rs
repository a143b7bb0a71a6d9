//! Per-turn timing in the pane titles: `d` (or `ui.turn_stats`) shows each
//! role's latest turn time and tokens/s, from the events' times and usage.

use crate::studio_support;
use crate::support::log::Log;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{DebateEvent, Heat, Role, TurnPurpose};
use heat::provider::Usage;
use heat::tui::App;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// A debate whose skeptic took 14.2 s and wrote 220 tokens, 12.2 s of
/// them streaming; the advocate still streams.
fn timed() -> App {
    let mut app = new_app();
    app.begin("20261123-120000-ab12".into());
    let argue = |role| DebateEvent::TurnStarted { round: 0, role, purpose: TurnPurpose::Argue, temperature: None };
    let delta = |role, text: &str| DebateEvent::Delta { round: 0, role, text: text.into() };
    let usage = Some(Usage { input_tokens: 900, output_tokens: 220, cached_input_tokens: 0, ..Usage::default() });
    let opening = Log::new(TOPIC, 2, 0.9).seats(&Role::DUEL, "openai", "gpt-4.1-mini").round(0);
    let mut events: Vec<_> = opening.into_events().into_iter().map(|event| (0, event)).collect();
    events.extend([
        (10_000, argue(Role::Advocate)),
        (10_000, argue(Role::Skeptic)),
        (11_000, delta(Role::Advocate, "Focus")),
        (12_000, delta(Role::Skeptic, "Offices")),
        (
            24_200,
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Skeptic,
                text: "Offices".into(),
                usage,
                truncated_at: None,
                possibly_cut: false,
            },
        ),
        (13_100, delta(Role::Advocate, " wins")),
    ]);
    for (ms, event) in &events {
        app.on_event_at(event, *ms);
    }
    app
}

#[test]
fn d_shows_each_turns_time_and_rate_in_the_pane_titles() {
    let mut app = timed();
    // A replay's clock stands at its latest event: the advocate's 3.1 s so far.
    app.staged().replay = Some(heat::tui::app::Replay::Playing);
    let text = screen(&mut app, 200, 50);
    assert!(!text.contains("tok/s") && !text.contains("14.2 s"), "hidden until asked:\n{text}");
    press(&mut app, KeyCode::Char('d'));
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("· done · 14.2 s · 18 tok/s"), "the skeptic's finished turn:\n{text}");
    assert!(text.contains("· streaming · 3.1 s"), "the advocate's turn so far:\n{text}");
    assert!(text.contains("Pane titles show each latest turn's time and tokens/s"), "{text}");
    press(&mut app, KeyCode::Char('d'));
    assert!(!screen(&mut app, 200, 50).contains("tok/s"), "m hides them again");
}

#[test]
fn a_narrow_pane_gives_up_the_model_before_the_numbers() {
    let mut app = timed();
    app.staged().panes.show_stats = true;
    app.focus(heat::debate::Role::Skeptic);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("Skeptic openai/gpt-4.1-mini · done · 14.2 s · 18 tok/s"), "{text}");
    let narrow = screen(&mut app, 120, 40);
    assert!(narrow.contains("Skeptic · done · 14.2 s · 18 tok/s"), "{narrow}");
}

#[test]
fn help_names_m() {
    let mut app = timed();
    press(&mut app, KeyCode::Char('?'));
    assert!(screen(&mut app, 200, 50).contains("show or hide each pane's turn time and tokens/s"));
}

#[test]
fn a_new_round_leaves_the_last_rounds_numbers_out_until_the_role_speaks() {
    let mut app = timed();
    app.staged().panes.show_stats = true;
    app.staged().replay = Some(heat::tui::app::Replay::Playing);
    let round = DebateEvent::RoundStarted { round: 1, topic: TOPIC.into(), heat: Heat::new(0.7), injected: vec![] };
    app.on_event_at(&round, 30_000);
    let text = screen(&mut app, 200, 50);
    assert!(!text.contains("14.2 s"), "the skeptic is waiting for round 2:\n{text}");
    let started =
        DebateEvent::TurnStarted { round: 1, role: Role::Skeptic, purpose: TurnPurpose::Argue, temperature: None };
    app.on_event_at(&started, 30_000);
    app.on_event_at(&DebateEvent::Delta { round: 1, role: Role::Skeptic, text: "Yet".into() }, 32_500);
    assert!(screen(&mut app, 200, 50).contains("· streaming · 2.5 s"));
}
