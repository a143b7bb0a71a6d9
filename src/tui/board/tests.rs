//! The board folded from progress and keys, and drawn at 80×24.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::state::{Act, Board, Phase, RECOUNT};
use crate::debate::Outcome;
use crate::tournament::plan::Planned;
use crate::tournament::progress::{Budget, Progress};
use crate::tournament::stats::{Game, Pick};

fn planned(key: &str, advocate: &str, skeptic: &str) -> Planned {
    Planned {
        key: key.into(),
        proposition: "Night trains beat short-haul flights".into(),
        advocate: advocate.into(),
        skeptic: skeptic.into(),
        repeat: 0,
    }
}

fn game(session: &str, advocate: &str, skeptic: &str, winner: Pick) -> Game {
    Game::between(session, (advocate, skeptic), "openai:j", Some(winner))
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn finished(key: &str, session: &str, game: Game, done: usize, spent: (u64, f64)) -> Progress {
    Progress::Finished {
        key: key.into(),
        session: session.into(),
        outcome: Outcome::MaxRounds,
        winner: Some(game.advocate.clone()),
        game: Some(game),
        done,
        total: 4,
        spent,
    }
}

/// A board with a plan of 4, two begun, one with its session.
fn begun(now: Instant) -> Board {
    let mut board = Board::new("t1", 7, Vec::new(), now);
    let budget = Budget { tokens: Some(10_000), usd: None, spent_tokens: 0, spent_usd: 0.0 };
    board.apply(Progress::Plan { total: 4, done: 0, left: 4, budget }, now);
    for (k, a, s) in [("p0", "openai:a", "openai:b"), ("p1", "openai:b", "openai:a")] {
        board.apply(Progress::Begins { planned: planned(k, a, s), session: None, attempt: 1 }, now);
    }
    board.apply(Progress::Started { key: "p0".into(), session: "S0".into() }, now);
    board
}

#[test]
fn progress_folds_into_what_runs_what_is_done_and_what_was_spent() {
    let now = Instant::now();
    let mut board = begun(now);
    assert_eq!(board.running.len(), 2);
    assert_eq!(board.running[0].session.as_deref(), Some("S0"));
    assert_eq!(board.running[1].session, None);
    board.apply(finished("p0", "S0", game("S0", "openai:a", "openai:b", Pick::Advocate), 1, (2_600, 0.0)), now);
    assert_eq!(board.running.len(), 1, "the finished debate left the running list");
    assert_eq!((board.done, board.budget.spent_tokens, board.budget.tokens), (1, 2_600, Some(10_000)));
    let (line, session) = board.latest.front().unwrap();
    assert!(line.starts_with("[1/4] openai:a ahead · Night trains"), "{line}");
    assert_eq!(session.as_deref(), Some("S0"));
    let standings = board.standings(now).unwrap();
    assert_eq!(standings.games, 1);
    assert_eq!(standings.models[0].model, "openai:a");
    assert_eq!(standings.models[0].overall.wins, 1);
    board.apply(
        Progress::Failed {
            key: "p1".into(),
            session: None,
            why: "the server said no.".into(),
            attempt: 2,
            done: 2,
            total: 4,
            spent: (2_700, 0.0),
        },
        now,
    );
    assert_eq!((board.failed, board.done, board.running.len()), (1, 2, 0));
    assert_eq!(board.latest.front().unwrap().0, "a debate failed: the server said no; kept as failed");
}

#[test]
fn enter_watches_the_chosen_debate_once_it_has_a_session() {
    let now = Instant::now();
    let mut board = begun(now);
    assert_eq!(board.key(key(KeyCode::Enter)), Some(Act::Watch("S0".into())));
    board.key(key(KeyCode::Down));
    assert_eq!(board.chosen, 1);
    assert_eq!(board.key(key(KeyCode::Enter)), None, "no session yet");
    assert!(board.notice.as_deref().unwrap().contains("no session yet"));
    board.key(key(KeyCode::Down));
    assert_eq!(board.chosen, 1, "the choice stays on the list");
    board.apply(Progress::Stopped { key: "p1".into(), session: None }, now);
    assert_eq!(board.chosen, 0, "the choice follows the list as it shrinks");
}

#[test]
fn space_holds_and_lets_go_and_q_stops_only_when_asked_twice() {
    let now = Instant::now();
    let mut board = begun(now);
    assert_eq!(board.key(key(KeyCode::Char(' '))), Some(Act::Hold(true)));
    board.apply(Progress::Held(true), now);
    assert_eq!(board.phase, Phase::Held);
    assert_eq!(board.key(key(KeyCode::Char(' '))), Some(Act::Hold(false)));
    board.apply(Progress::Held(false), now);
    assert_eq!(board.phase, Phase::Running);

    assert_eq!(board.key(key(KeyCode::Char('q'))), None);
    assert!(board.confirming);
    assert_eq!(board.key(key(KeyCode::Char('x'))), None, "another key keeps it running");
    assert!(!board.confirming);
    board.key(key(KeyCode::Char('q')));
    assert_eq!(board.key(key(KeyCode::Char('q'))), Some(Act::Stop));

    board.apply(Progress::Budget { spent: "10,000 of 10,000 tokens".into(), running: 1 }, now);
    assert_eq!(board.key(key(KeyCode::Char(' '))), None, "at its budget, space cannot let it go on");
    assert!(board.notice.as_deref().unwrap().contains("resume"));
    board.over();
    assert_eq!(board.key(key(KeyCode::Char('q'))), Some(Act::Leave), "over, one q leaves");
}

#[test]
fn time_left_is_this_runs_pace_without_the_time_held() {
    let start = Instant::now();
    let mut board = begun(start);
    assert_eq!(board.left(start), None, "no pace before a debate has finished");
    board.apply(Progress::Held(true), start);
    let later = start + Duration::from_secs(30);
    board.apply(Progress::Held(false), later);
    let done = later + Duration::from_secs(10);
    board.apply(finished("p0", "S0", game("S0", "openai:a", "openai:b", Pick::Skeptic), 1, (100, 0.0)), done);
    // 40 s since the start, 30 of them held: 10 s a debate, 3 left.
    assert_eq!(board.left(done), Some(Duration::from_secs(30)));
}

#[test]
fn standings_are_recounted_at_most_every_few_seconds_while_debates_run() {
    let now = Instant::now();
    let mut board = begun(now);
    board.apply(finished("p0", "S0", game("S0", "openai:a", "openai:b", Pick::Advocate), 1, (100, 0.0)), now);
    assert_eq!(board.standings(now).unwrap().games, 1);
    board.apply(Progress::Begins { planned: planned("p2", "openai:a", "openai:b"), session: None, attempt: 1 }, now);
    board.apply(finished("p1", "S1", game("S1", "openai:b", "openai:a", Pick::Advocate), 2, (200, 0.0)), now);
    assert_eq!(board.standings(now).unwrap().games, 1, "not recounted yet");
    assert_eq!(board.recount_due(), Some(now + RECOUNT));
    assert_eq!(board.standings(now + RECOUNT).unwrap().games, 2);
    assert_eq!(board.recount_due(), None);
}

fn screen(board: &mut Board, width: u16, height: u16, now: Instant) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| super::view::draw(frame, board, now)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_board_at_80_by_24_shows_progress_running_standings_latest_and_keys() {
    let now = Instant::now();
    let mut board = begun(now);
    board.apply(finished("p0", "S0", game("S0", "openai:a", "openai:b", Pick::Advocate), 1, (2_600, 0.0)), now);
    let text = screen(&mut board, 80, 24, now + Duration::from_secs(5));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(" heat · tournament t1") && lines[0].ends_with("● RUNNING"), "{text}");
    assert!(lines[1].contains("25 %"), "{text}");
    assert!(lines[2].contains("1 of 4 done · 1 running · 2,600 of 10,000 tokens · about 15 s left"), "{text}");
    assert!(text.contains("› openai:b for · openai:a against · Night trains beat short-haul flights  5 s"), "{text}");
    assert!(text.contains("Standings · 1 decided"), "{text}");
    let row = lines.iter().find(|l| l.contains("openai:a") && l.contains("100 %")).unwrap();
    assert!(row.trim_start().starts_with("1 openai:a"), "{row}");
    assert!(text.contains("[1/4] openai:a ahead · Night trains beat short-haul flights · S0"), "{text}");
    assert!(lines[23].contains("Enter watch") && lines[23].contains("space hold"), "{text}");
    assert!(lines.iter().all(|l| l.chars().count() <= 80));
}

#[test]
fn a_terminal_too_small_for_the_board_says_so() {
    let now = Instant::now();
    let mut board = begun(now);
    let text = screen(&mut board, 50, 10, now);
    assert!(text.contains("too small for the board"), "{text}");
}
