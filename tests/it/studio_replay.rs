//! Replay controls: `+`/`-` step the speed (0.5× to 8×), `]` skips to the
//! next round, and the header says where the replay stands ("round 2 ·
//! 0:41 / 1:05"); in a live debate the keys say they are for replays.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::tui::App;
use heat::tui::app::Mode;
use heat::tui::effect::Effect;
use heat::tui::replay::Timeline;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// The bundled demo (three rounds) playing in a replay studio, with the
/// events up to round 2's middle shown.
fn demo_in_round_two() -> App {
    let demo = heat::store::log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("demo");
    let mut app = new_app_with(|options| options.mode = Mode::Replays);
    app.play("demo".into(), Timeline::new(&demo.records), 1.0);
    let mut rounds = 0;
    for record in &demo.records {
        if matches!(record.event, heat::debate::DebateEvent::RoundStarted { .. }) {
            rounds += 1;
            if rounds == 3 {
                break;
            }
        }
        app.on_source_event(&record.event);
    }
    app
}

#[test]
fn the_header_says_which_round_and_how_far_in() {
    let mut app = demo_in_round_two();
    let clock = app.replay_clock.clone().expect("a clock");
    let (at, total) = clock.timeline.position(clock.played);
    assert!(at > 0 && at < total, "{at} of {total}");
    let text = screen(&mut app, 120, 40);
    let position = clock.describe();
    assert!(position.starts_with("round 2 · ") && position.contains(" / "), "{position}");
    assert!(text.contains(&format!("▶ SCRIPTED DEMO · {position}")), "{text}");
    // The keys are offered, and listed in help.
    assert!(text.contains("] next round") && text.contains("+ faster") && text.contains("- slower"), "{text}");
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 200, 50);
    for needle in ["play the replay faster", "play the replay slower", "skip the replay to the next round"] {
        assert!(help.contains(needle), "help lacks {needle:?}:\n{help}");
    }
}

#[test]
fn plus_and_minus_step_the_speed_and_say_where_it_stops() {
    let mut app = demo_in_round_two();
    assert_eq!(press(&mut app, KeyCode::Char('+')), vec![Effect::ReplaySpeed(2.0)]);
    assert_eq!(press(&mut app, KeyCode::Char('=')), vec![Effect::ReplaySpeed(4.0)], "= is + without Shift");
    assert!(screen(&mut app, 120, 40).contains("▶ SCRIPTED DEMO 4× · round 2 · "));
    press(&mut app, KeyCode::Char('+'));
    assert!(press(&mut app, KeyCode::Char('+')).is_empty(), "nothing is faster than 8×");
    assert!(screen(&mut app, 120, 40).contains("8× is the fastest"));
    for expected in [4.0, 2.0, 1.0, 0.5] {
        assert_eq!(press(&mut app, KeyCode::Char('-')), vec![Effect::ReplaySpeed(expected)]);
    }
    assert!(press(&mut app, KeyCode::Char('-')).is_empty());
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("0.5× is the slowest") && text.contains("SCRIPTED DEMO 0.5×"), "{text}");
    // Paused, the header keeps the speed.
    press(&mut app, KeyCode::Char(' '));
    assert!(screen(&mut app, 120, 40).contains("❚❚ SCRIPTED DEMO PAUSED 0.5× · round 2 · "));
}

#[test]
fn bracket_skips_to_the_next_round_until_the_replay_has_ended() {
    let mut app = demo_in_round_two();
    assert_eq!(press(&mut app, KeyCode::Char(']')), vec![Effect::ReplaySkip]);
    app.played_out();
    assert!(press(&mut app, KeyCode::Char(']')).is_empty());
    let text = screen(&mut app, 120, 40);
    assert!(
        text.contains("The replay has ended: every round is shown") && text.contains("■ SCRIPTED DEMO · ended"),
        "{text}"
    );
}

#[test]
fn in_a_live_debate_the_replay_keys_say_what_they_are_for() {
    let mut app = mid_stream();
    for key in ['+', '-', ']'] {
        assert!(press(&mut app, KeyCode::Char(key)).is_empty(), "{key:?}");
    }
    assert!(screen(&mut app, 120, 40).contains("Faster, slower and the next round are for replays"));
}

#[test]
fn a_replay_studio_says_at_once_that_it_does_not_branch() {
    let mut app = demo_in_round_two();
    // A stored debate, not the demo: only the studio's kind stands in the way.
    app.staged().session = Some("20261206-120000-abcd".into());
    press(&mut app, KeyCode::Char('b'));
    assert!(app.modal.is_none(), "no dialog opens to be refused at Enter");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("This studio plays stored debates back; `heat` branches one"), "{text}");
}
