//! The results view holds what it shows: a synthesis longer than its room
//! is drawn as Markdown and scrolls (the arrows, the page keys, Home and End), the arrows never
//! close it, a key that is no action does nothing, and Esc, Enter or q close it.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{DebateEvent, Outcome};
use heat::tui::App;
use heat::tui::modal::Modal;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// A debate that ended with a synthesis of twenty numbered points.
fn long_synthesis() -> App {
    let mut app = mid_stream();
    let points: Vec<String> = (1..=20).map(|n| format!("{n}. Point number {n} of the synthesis")).collect();
    let synthesis = format!("The advocate carried it, on **twenty** points:\n\n{}", points.join("\n"));
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: Some(synthesis) }]);
    if app.modal.is_none() {
        press(&mut app, KeyCode::Char('o'));
    }
    app
}

#[test]
fn a_long_synthesis_scrolls_and_the_arrows_keep_the_results_open() {
    let mut app = long_synthesis();
    let first = screen(&mut app, 80, 24);
    assert!(
        first.contains("Synthesis: The advocate carried it, on twenty points:"),
        "Markdown, bold unmarked:\n{first}"
    );
    assert!(first.contains("more · ↓ or PgDn scrolls") && !first.contains("Point number 20"), "{first}");
    press(&mut app, KeyCode::Down);
    assert!(matches!(app.modal, Some(Modal::Results(_))), "↓ scrolls, it does not close");
    let scrolled = screen(&mut app, 80, 24);
    assert!(!scrolled.contains("Synthesis: The advocate"), "one line down:\n{scrolled}");
    press(&mut app, KeyCode::End);
    let end = screen(&mut app, 80, 24);
    assert!(end.contains("20. Point number 20 of the synthesis") && !end.contains("more · ↓"), "{end}");
    press(&mut app, KeyCode::Home);
    assert!(screen(&mut app, 80, 24).contains("Synthesis: The advocate"));
    // A key that is no action leaves it open; Esc closes it.
    press(&mut app, KeyCode::Char('%'));
    assert!(matches!(app.modal, Some(Modal::Results(_))));
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none());
}

#[test]
fn q_closes_the_results_rather_than_quitting_and_a_second_q_quits() {
    let mut app = long_synthesis();
    let text = screen(&mut app, 160, 40);
    let keys = text.lines().find(|l| l.contains("Esc/q close")).unwrap_or_else(|| panic!("{text}"));
    assert!(!keys.contains("quit"), "the results' keys say q closes them: {keys}");
    let effects = app.on_key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
    assert!(app.modal.is_none(), "q closed the results");
    assert!(!effects.iter().any(|e| matches!(e, heat::tui::effect::Effect::Quit)), "{effects:?}");
    let effects = app.on_key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
    let quits = effects.iter().any(|e| matches!(e, heat::tui::effect::Effect::Quit))
        || matches!(app.modal, Some(Modal::Confirm(_)));
    assert!(quits, "with the results closed, q quits (or asks first): {effects:?}");
}
