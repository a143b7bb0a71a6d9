//! What the studio says about a pause, drawn into a `TestBackend`: a
//! server's turns finish in the background and are kept as each completes (the header
//! and their panes say "finishing"); the offline model stops where it is.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{Command, DebateEvent};
use heat::tui::App;
use heat::tui::effect::Effect;
use studio_support::*;

const IN_THE_BACKGROUND: &str = "Paused: the running turns finish in the background and are kept as each completes";

fn pause(app: &mut App) {
    let effects = app.on_key(KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE));
    assert_eq!(effects, vec![Effect::Send(Command::Pause)]);
}

/// The pane title of each debater, as drawn.
fn titles(text: &str) -> &str {
    text.lines().nth(2).unwrap_or_default()
}

#[test]
fn a_pause_says_that_a_servers_turns_finish_in_the_background_and_shows_them_finishing() {
    let mut app = mid_stream();
    pause(&mut app);
    for confirmed in [false, true] {
        if confirmed {
            app.on_event(&DebateEvent::Paused);
        }
        let text = screen(&mut app, 200, 50);
        assert!(text.contains(IN_THE_BACKGROUND), "{text}");
        assert!(text.contains("❚❚ PAUSED · 2 turns finishing"), "{text}");
        let titles = titles(&text);
        assert!(titles.matches("· finishing").count() == 2 && !titles.contains("· paused"), "{titles}");
    }
    app.on_event(&DebateEvent::Resumed);
    let text = screen(&mut app, 200, 50);
    assert!(!text.contains("finishing") && !text.contains(IN_THE_BACKGROUND), "{text}");
    assert!(text.contains("● LIVE"), "{text}");
}

#[test]
fn a_pause_says_that_the_offline_model_stops_where_it_is() {
    let mut app = mid_stream_with(|options| {
        for entry in &mut options.roster {
            entry.provider = "local".into();
            entry.pauses_in_place = true;
        }
    });
    pause(&mut app);
    app.on_event(&DebateEvent::Paused);
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Paused: the offline model stops where it is and goes on from there"), "{text}");
    assert!(!text.contains("finishing") && text.contains("❚❚ PAUSED"), "{text}");
    assert_eq!(titles(&text).matches("· paused").count(), 2, "{text}");
}

#[test]
fn a_finishing_turn_is_shown_as_such_at_every_size() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut app = mid_stream();
        pause(&mut app);
        let text = screen(&mut app, width, height);
        assert!(text.contains("finishing"), "{width}x{height}:\n{text}");
    }
}

#[test]
fn help_says_what_a_pause_does() {
    let mut app = mid_stream();
    app.on_key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE));
    let text = screen(&mut app, 80, 50);
    // Help fills an 80-column screen: its lines, borders taken off, read on.
    let inside: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix('│')?.strip_suffix('│')).collect();
    let help = inside.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
    let note =
        "A pause stops the offline model where it is; a server's turn finishes in the background and shows on resume.";
    assert!(help.contains(note), "{text}");
}
