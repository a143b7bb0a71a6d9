//! Searching the transcript: `/` finds text in every pane, `n`/`N` step
//! through the matches (scrolling and focusing the pane that holds each, and
//! highlighting it), Esc clears; `n` starts a new debate again once no
//! search is on.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{DebateEvent, Role};
use heat::tui::App;
use heat::tui::effect::Effect;
use heat::tui::modal::Modal;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn search(app: &mut App, query: &str) {
    assert!(press(app, KeyCode::Char('/')).is_empty());
    for c in query.chars() {
        assert!(press(app, KeyCode::Char(c)).is_empty());
    }
    assert!(press(app, KeyCode::Enter).is_empty());
}

fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal.draw(|frame| heat::tui::render(frame, app, &mut heat::tui::view::Retained::default())).expect("draw");
    terminal.backend().buffer().clone()
}

/// The text of each pane cell drawn in the search's current-match colour
/// (the header and status rows left out).
fn marked(app: &App, buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 2..area.height - 2 {
        for x in 0..area.width {
            let cell = &buffer[(x, y)];
            if cell.bg == app.theme.key {
                out.push_str(cell.symbol());
            }
        }
    }
    out
}

#[test]
fn slash_finds_in_every_pane_and_n_steps_through_the_matches() {
    let mut app = resolved();
    draw(&mut app, 200, 50);
    // "hallway" is in the skeptic's argument and the judge's verdict; the
    // search goes from the focused pane on.
    app.focus(heat::debate::Role::Advocate);
    search(&mut app, "HALLWAY");
    let search_on = app.panes.search.clone().expect("a search is on");
    assert_eq!(search_on.current.map(|h| h.pane), Some(1), "the first match is the skeptic's");
    assert_eq!(app.panes.focus, 1, "the pane holding it gets the focus");
    let buffer = draw(&mut app, 200, 50);
    assert_eq!(marked(&app, &buffer), "hallway", "the current match is highlighted, whatever its case");
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("\"HALLWAY\": match 1 of 2 (Skeptic)"), "{text}");
    assert!(text.contains("n next match") && text.contains("Esc clear search"), "the footer offers the search keys");

    assert!(press(&mut app, KeyCode::Char('n')).is_empty(), "n steps, it does not start a debate");
    assert!(app.modal.is_none());
    assert_eq!(app.panes.focus, 2, "the second match is the judge's");
    assert!(screen(&mut app, 200, 50).contains("match 2 of 2 (Judge)"));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.panes.focus, 1, "n goes round to the first match");
    press(&mut app, KeyCode::Char('N'));
    assert_eq!(app.panes.focus, 2, "N goes back round to the last");

    // Esc clears the search and its highlights; n is a new debate again.
    assert!(press(&mut app, KeyCode::Esc).is_empty());
    assert!(app.panes.search.is_none());
    let buffer = draw(&mut app, 200, 50);
    assert_eq!(marked(&app, &buffer), "", "no highlight is left");
    assert!(!screen(&mut app, 200, 50).contains("match 2 of 2"));
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.modal, Some(Modal::Editor(_))), "n opens the new debate's editor");
}

#[test]
fn a_match_out_of_view_is_scrolled_to_and_one_pane_layouts_switch_to_it() {
    let mut app = mid_stream();
    // The needle is at the top of a long argument; the pane follows the end.
    let long = format!("needle at the top. {}", "filler words to push it up. ".repeat(300));
    app.on_event(&DebateEvent::Delta { round: 0, role: Role::Skeptic, text: long });
    // One pane at a time, the advocate's shown: the skeptic's pane is hidden.
    app.focus(heat::debate::Role::Advocate);
    let before = screen(&mut app, 80, 24);
    assert!(!before.contains("needle"), "{before}");
    search(&mut app, "needle");
    assert_eq!(app.panes.focus, 1, "the hidden pane that holds the match is shown");
    assert!(!app.panes[1].scroll.follow, "the pane stops following to show the match");
    let buffer = draw(&mut app, 80, 24);
    assert_eq!(marked(&app, &buffer), "needle");
    assert!(screen(&mut app, 80, 24).contains("needle at the top"));
}

#[test]
fn a_search_that_finds_nothing_says_so_and_esc_in_the_prompt_cancels() {
    let mut app = resolved();
    draw(&mut app, 120, 40);
    search(&mut app, "zebra");
    assert!(app.panes.search.is_none());
    assert!(screen(&mut app, 120, 40).contains("No match for \"zebra\""));

    press(&mut app, KeyCode::Char('/'));
    press(&mut app, KeyCode::Char('x'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("/x") && text.contains("Enter finds · Esc cancels"), "the prompt shows:\n{text}");
    assert!(press(&mut app, KeyCode::Esc).is_empty());
    assert!(app.modal.is_none() && app.panes.search.is_none());
    // Pasted text joins the prompt on one line.
    press(&mut app, KeyCode::Char('/'));
    app.on_paste("focus\nand");
    assert!(matches!(&app.modal, Some(Modal::Search(q)) if q == "focus and"));
}

#[test]
fn help_lists_the_search_keys() {
    let mut app = resolved();
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&mut app, 200, 50);
    for needle in ["search every pane", "next / previous match, while a search is on", "clear the search"] {
        assert!(text.contains(needle), "help lacks {needle:?}:\n{text}");
    }
}
