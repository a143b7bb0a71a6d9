//! `y` copies the focused turn or verdict: the key asks the event loop for
//! a copy (an `Effect`), the loop writes OSC 52 to the terminal, and the
//! status line says what was copied.

use crate::studio_support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::Heat;
use heat::debate::{DebateEvent, Role, TurnPurpose};
use heat::tui::App;
use heat::tui::app::Tone;
use heat::tui::clipboard::{self, Host};
use heat::tui::effect::Clip;
use heat::tui::effect::Effect;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn copied(app: &mut App) -> Clip {
    match press(app, KeyCode::Char('y')).as_slice() {
        [Effect::Copy(clip)] => clip.clone(),
        other => panic!("y asked for {other:?}"),
    }
}

#[test]
fn y_copies_the_focused_argument_and_the_loop_writes_osc_52() {
    let mut app = resolved();
    screen(&mut app, 200, 50);
    app.focus(heat::debate::Role::Skeptic);
    let clip = copied(&mut app);
    let argument = format!("{SKEPTIC} builds trust.");
    assert_eq!(clip, Clip { text: argument.clone(), what: "the skeptic's round 1 argument".into() });

    // What the event loop does with it: the bytes on the terminal.
    let mut terminal = Vec::new();
    let (tone, said) = clipboard::copy(&mut terminal, &clip, Host::default(), Some("20261123-120000-ab12"));
    let terminal = String::from_utf8(terminal).expect("ASCII");
    let encoded = terminal.strip_prefix("\x1b]52;c;").and_then(|t| t.strip_suffix('\x07')).expect("one OSC 52");
    assert_eq!(STANDARD.decode(encoded).expect("base64"), argument.as_bytes());
    assert_eq!(tone, Tone::Good);
    assert_eq!(said, format!("Copied the skeptic's round 1 argument, {} characters", argument.chars().count()));
}

#[test]
fn the_judge_pane_copies_the_verdict_as_prose_and_an_open_turn_says_so_far() {
    let mut app = resolved();
    screen(&mut app, 200, 50);
    app.focus(heat::debate::Role::Judge);
    let clip = copied(&mut app);
    assert_eq!(clip.text, "The advocate carried it: focus and time outweigh hallway chance.");
    assert_eq!(clip.what, "the judge's round 1 verdict");

    let mut app = mid_stream();
    screen(&mut app, 200, 50);
    app.focus(heat::debate::Role::Advocate);
    assert_eq!(copied(&mut app).what, "the advocate's round 1 argument so far");
    // Model text is copied without its control characters.
    app.on_event(&DebateEvent::Delta { round: 0, role: Role::Advocate, text: " \u{1b}]0;title\u{7}end".into() });
    assert!(!copied(&mut app).text.contains('\u{1b}'));
}

#[test]
fn a_scrolled_pane_copies_the_turn_in_view_and_an_empty_pane_says_why_not() {
    let mut app = resolved();
    // Round 2: the advocate argues again; the pane shows round 1 when scrolled to the top.
    app.staged().debate.finish = None;
    let round_two = [
        DebateEvent::RoundStarted { round: 1, topic: TOPIC.into(), heat: Heat::new(0.4), injected: vec![] },
        DebateEvent::TurnStarted { round: 1, role: Role::Advocate, purpose: TurnPurpose::Argue, temperature: None },
        DebateEvent::Delta { round: 1, role: Role::Advocate, text: "Round two. ".repeat(200) },
    ];
    feed(&mut app, &round_two);
    app.focus(heat::debate::Role::Advocate);
    screen(&mut app, 200, 50);
    assert_eq!(copied(&mut app).what, "the advocate's round 2 argument so far", "following: the latest");
    press(&mut app, KeyCode::Char('g'));
    screen(&mut app, 200, 50);
    assert_eq!(copied(&mut app).what, "the advocate's round 1 argument", "the turn in view");
    // While a search is on, the current match's turn.
    press(&mut app, KeyCode::Char('G'));
    press(&mut app, KeyCode::Char('/'));
    for c in "focus wins".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(copied(&mut app).what, "the advocate's round 1 argument", "the match's turn");

    let mut app = mid_stream();
    app.focus(heat::debate::Role::Judge);
    assert!(press(&mut app, KeyCode::Char('y')).is_empty());
    assert!(screen(&mut app, 200, 50).contains("Nothing to copy: the judge has not spoken yet"));
}

#[test]
fn help_and_the_footer_offer_y() {
    let mut app = resolved();
    assert!(screen(&mut app, 200, 50).contains("y copy"));
    press(&mut app, KeyCode::Char('?'));
    assert!(screen(&mut app, 200, 50).contains("copy the focused turn or verdict"));
}
