//! A studio drawn frame after frame on one terminal shows, after every
//! frame, exactly what a fresh terminal shows for the same state: panes left
//! as the terminal shows them (unchanged since the last frame) never go
//! stale across streaming, scrolling, dialogs, focus moves and resizes.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::{DebateEvent, Role};
use heat::tui::App;
use heat::tui::theme::Theme;
use heat::tui::view::Retained;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::{Buffer, CellDiffOption};
use studio_support::*;

/// What the screen shows after one more frame on `terminal`, and whether
/// that frame left any cell to what the terminal already showed.
fn frame(terminal: &mut Terminal<TestBackend>, retained: &mut Retained, app: &mut App) -> (Buffer, bool) {
    let done = terminal.draw(|f| heat::tui::render(f, app, retained)).expect("draw");
    let kept = done.buffer.content.iter().any(|c| c.diff_option == CellDiffOption::Skip);
    (terminal.backend().buffer().clone(), kept)
}

/// What a terminal that has drawn nothing before shows for `app`.
fn fresh(app: &mut App, width: u16, height: u16) -> Buffer {
    // The reference draw has its own record of what it showed.
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal.draw(|f| heat::tui::render(f, app, &mut Retained::default())).expect("draw");
    terminal.backend().buffer().clone()
}

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn token(app: &mut App, role: Role, text: &str) {
    app.on_event(&DebateEvent::Delta { round: 0, role, text: text.into() });
}

/// A named change to the studio between two frames.
type Step = (&'static str, fn(&mut App));

#[test]
fn every_frame_on_one_terminal_matches_a_fresh_draw() {
    frames_match_fresh_draws("default");
}

/// high-contrast sets a text colour, which is first laid over the whole
/// screen, under the panes it leaves alone.
#[test]
fn every_frame_matches_a_fresh_draw_with_a_text_colour() {
    frames_match_fresh_draws("high-contrast");
}

fn frames_match_fresh_draws(theme: &str) {
    let mut app = mid_stream_with(|options| options.theme = Theme::load(theme, None, false).expect("theme"));
    let (width, height) = (200, 50);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    let mut retained = Retained::default();
    let mut kept_frames = 0;
    let steps: [Step; 12] = [
        ("first frame", |_| {}),
        ("nothing changed", |_| {}),
        ("advocate streams", |a| token(a, Role::Advocate, " and more focus")),
        ("advocate streams a paragraph", |a| token(a, Role::Advocate, ".\n\nA new paragraph begins")),
        ("skeptic streams", |a| token(a, Role::Skeptic, " keeps teams together")),
        ("help opens", |a| press(a, KeyCode::Char('?'))),
        ("advocate streams under help", |a| token(a, Role::Advocate, " under the dialog")),
        ("help closes", |a| press(a, KeyCode::Esc)),
        ("nothing changed after help", |_| {}),
        ("focus moves", |a| press(a, KeyCode::Tab)),
        ("reasoning hides", |a| press(a, KeyCode::Char('z'))),
        ("reasoning shows", |a| press(a, KeyCode::Char('z'))),
    ];
    for (name, step) in &steps {
        step(&mut app);
        let (shown, kept) = frame(&mut terminal, &mut retained, &mut app);
        kept_frames += usize::from(kept);
        assert_eq!(shown, fresh(&mut app, width, height), "after: {name}");
    }
    // Long streaming that wraps and scrolls the advocate's pane, then a
    // scroll up (the pane parks while the stream goes on) and back.
    for i in 0..120 {
        token(&mut app, Role::Advocate, if i % 25 == 24 { ".\n\nNext" } else { " argument" });
        if i == 60 {
            app.focus(heat::debate::Role::Advocate);
            for _ in 0..5 {
                press(&mut app, KeyCode::Up);
            }
        }
        if i == 100 {
            press(&mut app, KeyCode::Char('G'));
        }
        let (shown, kept) = frame(&mut terminal, &mut retained, &mut app);
        kept_frames += usize::from(kept);
        assert_eq!(shown, fresh(&mut app, width, height), "after token {i}");
    }
    // Resizes, some of which leave a pane's place unchanged.
    for (w, h) in [(201, 50), (199, 50), (200, 49), (100, 30), (120, 40), (200, 50)] {
        terminal.backend_mut().resize(w, h);
        for name in ["resized", "streaming after the resize"] {
            let (shown, kept) = frame(&mut terminal, &mut retained, &mut app);
            kept_frames += usize::from(kept);
            assert_eq!(shown, fresh(&mut app, w, h), "{name} to {w}×{h}");
            token(&mut app, Role::Skeptic, " still");
        }
    }
    // The point of it: unchanged panes were left alone in most frames.
    assert!(kept_frames > 100, "only {kept_frames} frames left a pane as shown");
}

#[test]
fn a_new_terminal_gets_every_pane_drawn() {
    let mut app = mid_stream();
    let mut first = Terminal::new(TestBackend::new(160, 40)).expect("terminal");
    // One record for both terminals: its frame count must tell them apart.
    let mut retained = Retained::default();
    frame(&mut first, &mut retained, &mut app);
    frame(&mut first, &mut retained, &mut app);
    // Same size, same state, but a terminal that has shown nothing yet.
    let mut second = Terminal::new(TestBackend::new(160, 40)).expect("terminal");
    let (shown, kept) = frame(&mut second, &mut retained, &mut app);
    assert!(!kept, "a new terminal's first frame left cells undrawn");
    assert!(screen_text(&shown).contains("Focus wins"), "{}", screen_text(&shown));
}

fn screen_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height).map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n").collect()
}
