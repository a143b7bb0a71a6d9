//! What the studio says about its keys, and how: help lists every key that
//! works where the person is, the footer offers as many as fit (most
//! important first), a hint is never cut in half nor a word cut, what a key
//! said goes with Esc, the quit question names how the debate stands, a
//! count takes its plural, and a click focuses the pane clicked.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use heat::debate::{DebateEvent, Role};
use heat::tui::App;
use heat::tui::app::Mode;
use heat::tui::effect::Effect;
use heat::tui::keymap::Action;
use heat::tui::offers;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Help as one line of words: the overlay drawn one column wide on a tall
/// screen, its borders and the key column's padding taken out, so what a
/// description wraps onto the next line reads on.
fn help_text(app: &mut App) -> String {
    app.close();
    app.act(Action::Help);
    let text = screen(app, 80, 200);
    app.close();
    words(&boxed(&text, "Keys"))
}

/// Rows as one line of words, however they were spaced and wrapped.
fn words(rows: &[String]) -> String {
    rows.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rows inside the dialog box titled `title` on `text`.
fn boxed(text: &str, title: &str) -> Vec<String> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = lines.iter().position(|l| l.iter().collect::<String>().contains(&format!("╭ {title}"))).unwrap_or(0);
    let left = lines[top].iter().position(|c| *c == '╭').unwrap_or(0);
    let right = lines[top].iter().position(|c| *c == '╮').unwrap_or(0);
    let bottom = (top + 1..lines.len()).find(|&i| lines[i].get(left) == Some(&'╰')).unwrap_or(top + 1);
    lines[top + 1..bottom].iter().map(|l| l[left + 1..right.min(l.len())].iter().collect::<String>()).collect()
}

/// The studio in each place a person meets it.
fn places() -> Vec<(&'static str, App)> {
    let mut paused = mid_stream();
    feed(&mut paused, &[DebateEvent::Paused]);
    let mut ended_replay = replaying();
    ended_replay.played_out();
    let mut watch = mid_stream();
    watch.watch(true, false);
    let stored = resolved_with(|options| options.mode = Mode::Replays);
    vec![
        ("live", mid_stream()),
        ("paused", paused),
        ("ended", resolved()),
        ("a replay", replaying()),
        ("an ended replay", ended_replay),
        ("a watch", watch),
        ("a stored debate in a replay studio", stored),
    ]
}

#[test]
fn help_lists_every_key_the_table_offers_where_the_person_is() {
    for (place, mut app) in places() {
        let help = help_text(&mut app);
        for row in Action::TABLE {
            if !offers::offers(&app, row.action) {
                continue;
            }
            // The keys, then what they do (in a replay, space pauses the playback).
            let keys = app.keymap.all_keys(row.action);
            let what = if app.replay.is_some() && row.action == Action::TogglePause {
                "pause or resume the replay"
            } else {
                row.help
            };
            let listed = format!("{keys} {what}");
            assert!(help.contains(&listed), "{place}: help lacks {listed:?}:\n{help}");
        }
    }
    // What was missing: b in a live debate, and Y (new) anywhere a debate shows.
    let help = help_text(&mut mid_stream());
    assert!(help.contains("b branch after a finished round"), "{help}");
    assert!(help.contains("Y copy the whole debate as Markdown"), "{help}");
    // And what does not work is not listed: steering in a replay or a watch.
    for (place, mut app) in places().into_iter().filter(|(p, _)| p.contains("replay") || *p == "a watch") {
        let help = help_text(&mut app);
        assert!(!help.contains("inject a topic"), "{place} lists steering:\n{help}");
    }
}

/// The footer row (the screen's last), as its hints.
fn footer(text: &str) -> Vec<String> {
    let last = text.lines().last().unwrap_or_default();
    last.split("  ").map(str::trim).filter(|h| !h.is_empty() && !h.starts_with("tokens")).map(String::from).collect()
}

#[test]
fn at_160_columns_the_live_footer_offers_the_verdict_the_results_and_a_branch() {
    let text = screen(&mut mid_stream(), 160, 45);
    let hints = footer(&text);
    for wanted in ["v verdict", "o results", "b branch", "space pause", "i inject", "? help", "q quit"] {
        assert!(hints.iter().any(|h| h == wanted), "the footer lacks {wanted:?}: {hints:?}");
    }
    // Most important first: steering leads, the scroll keys come last.
    assert!(hints[0] == "space pause" && hints[1] == "i inject", "{hints:?}");
}

/// The status sentence's rows (between the panes and the footer).
fn sentence_rows(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let bottom = lines.iter().rposition(|l| l.starts_with('┗') || l.starts_with('╰')).unwrap_or(0);
    lines[bottom + 1..lines.len().saturating_sub(1)].iter().map(|l| l.trim().to_string()).collect()
}

/// Every word shown is a whole word of `sentence` (the last may end in
/// `…` after a whole word), and every `key label` hint in it shows on one
/// row or not at all.
fn check_whole(sentence: &str, rows: &[String], at: &str) {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    for row in rows {
        for word in row.split_whitespace() {
            let word = word.strip_suffix('…').unwrap_or(word);
            assert!(
                word.is_empty() || words.contains(&word),
                "{at}: {word:?} is not a whole word of {sentence:?}: {rows:?}"
            );
        }
    }
    for pair in ["o results", "n new debate", "s sessions", "e export", "q quit", "space resumes"] {
        let (key, label) = pair.split_once(' ').unwrap_or_default();
        let split = rows.windows(2).any(|w| w[0].ends_with(&format!(" {key}")) && w[1].starts_with(label));
        assert!(!split, "{at}: the hint {pair:?} is split across rows: {rows:?}");
        // Nor is a key left at the end of a cut row without what it does.
        let cut = rows.last().is_some_and(|r| r.ends_with(&format!(" {key}…")));
        assert!(!cut, "{at}: the hint {pair:?} is cut after its key: {rows:?}");
    }
}

#[test]
fn a_hint_in_the_status_sentence_is_never_split_nor_a_word_cut_at_100_and_50_columns() {
    let words = ["the", "judge", "resolved", "it", "after", "weighing", "both", "arguments", "closely"];
    for (width, height) in [(100, 30), (50, 20), (100, 14), (50, 12)] {
        for n in 0..60 {
            let said: Vec<&str> = words.iter().cycle().take(n).copied().collect();
            let sentence = format!("Debate over: {}. o results · n new debate · e export · q quit", said.join(" "));
            let mut app = resolved();
            app.say(heat::tui::app::Tone::Good, sentence.clone());
            let rows = sentence_rows(&screen(&mut app, width, height));
            check_whole(&sentence, &rows, &format!("{n} words at {width}x{height}"));
        }
        // A word with a hyphen in it is not broken at the hyphen.
        let copied = "Copied the debate as Markdown, 4 rounds, 10,527 characters, if tmux passes it on \
                      (`set -g set-clipboard on`); else e exports the debate as Markdown";
        let mut app = resolved();
        app.say(heat::tui::app::Tone::Info, copied);
        let rows = sentence_rows(&screen(&mut app, width, height));
        check_whole(copied, &rows, &format!("the copy at {width}x{height}"));
    }
}

#[test]
fn at_100_and_50_columns_hints_are_whole_and_no_word_is_cut() {
    let long_why = "No round has finished and left the debate open: a branch goes on after one";
    for (width, height) in [(100, 30), (50, 20), (100, 14), (50, 12)] {
        let at = format!("{width}x{height}");
        // The footer: whole hints from the full list, in its order.
        for (place, mut app) in places() {
            let all = footer(&screen(&mut app, 1000, 50));
            let shown = footer(&screen(&mut app, width, height));
            assert!(!shown.is_empty(), "{place} at {at}: no key offered");
            let mut rest = all.iter();
            for hint in &shown {
                assert!(rest.any(|h| h == hint), "{place} at {at}: {hint:?} is not a whole hint in order: {all:?}");
            }
        }
        // The sentence: an ended debate's keys, a refusal too long for a short screen.
        let mut ended = resolved();
        let sentence = ended.status.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
        let rows = sentence_rows(&screen(&mut ended, width, height));
        check_whole(&sentence, &rows, &format!("the end at {at}"));
        let mut live = mid_stream();
        press(&mut live, KeyCode::Char('b'));
        let rows = sentence_rows(&screen(&mut live, width, height));
        assert!(rows.iter().any(|r| r.starts_with("No round has finished")), "{at}: {rows:?}");
        check_whole(long_why, &rows, &format!("the refusal at {at}"));
        // The start screen's one row for what is said, and its keys: help and quitting first.
        let notice = "offline: SmolLM2-135M — small model, expect weak arguments";
        let mut start = start_screen_with(|options| options.notice = Some(notice.into()));
        let text = screen(&mut start, width, height);
        let row = text.lines().find(|l| l.trim_start().starts_with("offline:")).unwrap_or_default();
        check_whole(notice, &[row.trim().to_string()], &format!("the start screen at {at}"));
        let keys = footer(&text);
        assert!(keys.contains(&"F1 help".to_string()) && keys.contains(&"Esc quit".to_string()), "{at}: {keys:?}");
    }
}

/// The last row inside the dialog box titled `title` on `text`: its hints.
fn dialog_hints(text: &str, title: &str) -> String {
    boxed(text, title).last().map(|row| row.trim().to_string()).unwrap_or_default()
}

#[test]
fn a_dialogs_hints_are_left_out_whole_at_50_columns() {
    // What is opened, from where, by which key; the dialog's title, and all its hints.
    type Case = (&'static str, fn() -> App, KeyCode, &'static str, &'static str);
    let cases: [Case; 5] = [
        (
            "the verdict",
            resolved,
            KeyCode::Char('v'),
            "Your verdict",
            "←/→ who · ↑/↓ how sure · type a note · Enter records · Esc cancels",
        ),
        (
            "inject",
            mid_stream,
            KeyCode::Char('i'),
            "Inject",
            "Tab: to whom · Enter sends · Alt-Enter new line · Esc cancels",
        ),
        (
            "the heat",
            mid_stream,
            KeyCode::Char('t'),
            "Pin the heat",
            "↑/↓ ±0.05 · type a value · Tab: for whom · Enter pins · Esc",
        ),
        ("help", mid_stream, KeyCode::Char('?'), "Keys", "more ↓ · ↑/↓ PgUp/PgDn scroll · any other key closes"),
        (
            "a seat's model",
            mid_stream,
            KeyCode::Char('M'),
            "The advocate's model, from its next turn",
            "PROVIDER:MODEL, or a model alone · Enter sets it · Esc cancels",
        ),
    ];
    for (dialog, build, key, title, full) in cases {
        let mut app = build();
        press(&mut app, key);
        for width in [100, 50] {
            let shown = dialog_hints(&screen(&mut app, width, 20), title);
            assert!(!shown.is_empty(), "{dialog} at {width}: no hints");
            let pieces: Vec<&str> = full.split(" · ").collect();
            for piece in shown.split(" · ") {
                assert!(pieces.contains(&piece), "{dialog} at {width}: {piece:?} is not a whole hint of {full:?}");
            }
            assert!(shown.contains("Esc") || shown.contains("key closes"), "{dialog} at {width}: no way out: {shown}");
        }
    }
    // Help's lines wrap rather than cut at 50 columns: its longest description reads whole.
    let mut app = mid_stream();
    assert!(help_text(&mut app).contains("a note or question"));
    app.act(Action::Help);
    let text = screen(&mut app, 50, 48);
    let joined = words(&boxed(&text, "Keys"));
    assert!(
        joined.contains("b branch after a finished round: sides swapped, another heat, a note or question"),
        "{text}"
    );
}

#[test]
fn esc_clears_what_a_dialog_or_a_key_left_in_the_status_line() {
    // The inject dialog refuses an empty topic; Esc closes it, and its refusal goes with it.
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('i'));
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 120, 40).contains("Type the topic to inject first, or Esc to cancel"));
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none());
    let text = screen(&mut app, 120, 40);
    assert!(!text.contains("Type the topic to inject first"), "the refusal outlived its dialog:\n{text}");
    // A key that did nothing says why; Esc clears it.
    press(&mut app, KeyCode::Char('b'));
    assert!(screen(&mut app, 120, 40).contains("No round has finished"));
    press(&mut app, KeyCode::Esc);
    assert!(!screen(&mut app, 120, 40).contains("No round has finished"));
    // What still holds stays: the pause.
    app.act(Action::TogglePause);
    press(&mut app, KeyCode::Esc);
    assert!(screen(&mut app, 120, 40).contains("Paused"), "Esc cleared the pause note");
    // A dialog's complaint is said over the pause note, which comes back when it closes.
    press(&mut app, KeyCode::Char('i'));
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app, 120, 40).contains("Type the topic to inject first"));
    press(&mut app, KeyCode::Esc);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Paused") && !text.contains("Type the topic"), "{text}");
}

#[test]
fn the_quit_question_names_how_the_debate_stands() {
    let mut app = mid_stream();
    press(&mut app, KeyCode::Char('q'));
    assert!(screen(&mut app, 120, 40).contains("Quit while the debate streams?"));
    press(&mut app, KeyCode::Esc);
    feed(&mut app, &[DebateEvent::Paused]);
    press(&mut app, KeyCode::Char('q'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Quit while the debate is paused?") && !text.contains("streams"), "{text}");
}

#[test]
fn counts_take_their_plural() {
    let mut app = mid_stream();
    feed(&mut app, &[DebateEvent::TopicInjected { text: "juniors?".into() }]);
    assert!(screen(&mut app, 200, 50).contains("+ 1 injected topic waiting"));
    feed(&mut app, &[DebateEvent::TopicInjected { text: "hiring?".into() }]);
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("+ 2 injected topics waiting"), "{text}");
    assert!(screen(&mut app, 80, 24).contains("+2 topics"));
    assert_eq!(heat::words::count(1, "character"), "1 character");
    assert_eq!(heat::words::count(12_345, "character"), "12,345 characters");
}

fn click(app: &mut App, column: u16, row: u16, button: MouseButton) {
    app.on_mouse(MouseEvent { kind: MouseEventKind::Down(button), column, row, modifiers: KeyModifiers::NONE });
}

#[test]
fn a_left_click_focuses_the_pane_or_tab_clicked() {
    // Side by side: the panes as they were drawn.
    let mut app = mid_stream();
    screen(&mut app, 180, 45);
    let skeptic = app.panes.areas[Role::Skeptic.position()];
    click(&mut app, skeptic.x + 3, skeptic.y + 5, MouseButton::Right);
    assert_eq!(app.panes.focus, Role::Advocate.position(), "a right click focuses nothing");
    click(&mut app, skeptic.x + 3, skeptic.y + 5, MouseButton::Left);
    assert_eq!(app.panes.focus, Role::Skeptic.position());
    assert!(app.panes.focus_chosen, "the focus no longer follows the speaker");
    // One pane at a time: a click on a tab shows that pane.
    let mut app = mid_stream();
    screen(&mut app, 100, 30);
    let judge = app.panes.tabs[Role::Judge.position()];
    assert!(judge.width > 0, "the judge's tab was drawn");
    click(&mut app, judge.x + 1, judge.y, MouseButton::Left);
    assert_eq!(app.panes.focus, Role::Judge.position());
    assert!(screen(&mut app, 100, 30).contains("Judge openai/gpt-4.1-mini"), "the judge's pane shows");
    // Not through a dialog.
    app.act(Action::Help);
    let advocate = app.panes.tabs[Role::Advocate.position()];
    click(&mut app, advocate.x + 1, advocate.y, MouseButton::Left);
    assert_eq!(app.panes.focus, Role::Judge.position(), "a click through help changed the focus");
}

#[test]
fn shift_y_asks_for_the_whole_debate() {
    let mut app = resolved();
    assert_eq!(app.on_key(KeyEvent::new(KeyCode::Char('Y'), KeyModifiers::SHIFT)), vec![Effect::CopyDebate]);
    let text = screen(&mut app, 200, 50);
    assert!(footer(&text).iter().any(|h| h == "Y copy debate"), "{text}");
}
