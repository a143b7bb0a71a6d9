//! A review in the studio: the defender and its two critics side by side
//! with the judge in a 2×2 grid, the board of issues under the round's
//! verdict in the judge's pane (as it stood at that verdict, each status
//! in its colour), and the board's count among the results' facts.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support::log::Log;

use heat::debate::{DebateEvent, Heat, Outcome, Role, TurnPurpose, Verdict};
use heat::tui::App;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use studio_support::{feed, new_app, screen};

const PROPOSAL: &str = "Move billing to a queue";

/// The review's seats, in screen order.
const SEATS: [Role; 4] = [Role::Advocate, Role::Skeptic, Role::Third, Role::Judge];

const DEFENDER_1: &str = "The proposal moves billing to a queue so a slow provider never blocks checkout.";
const LOGIC_1: &str =
    "ISSUE L1 [high] The retry loop never gives up — evidence: step 3 retries forever\nIt will pin a worker.";
const OPS_1: &str = "ISSUE O1 [critical] API keys reach the request log — evidence: the logging section prints headers\nAnyone with log access holds the keys.";
const DEFENDER_2: &str = "L1: retries stop after five attempts with backoff. O1: headers are redacted before logging.";
const LOGIC_2: &str = "Five attempts with backoff settle my first point; nothing new from me.";
const OPS_2: &str = "Redaction is promised but not shown; my concern about the logs stands until it is.";

fn started() -> Vec<DebateEvent> {
    Log::new(PROPOSAL, 2, 0.9).seats(&SEATS, "anthropic", "claude-sonnet-4").format("review").into_events()
}

fn round_started(round: u32, heat: f32) -> DebateEvent {
    DebateEvent::RoundStarted { round, topic: PROPOSAL.into(), heat: Heat::new(heat), injected: vec![] }
}

fn argue(round: u32, role: Role, heat: f32) -> DebateEvent {
    DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(heat) }
}

fn done(round: u32, role: Role, text: &str) -> DebateEvent {
    DebateEvent::TurnCompleted { round, role, text: text.into(), usage: None, truncated_at: None, possibly_cut: false }
}

/// The judge's verdict on `round` (from 0), L1 ruled `l1` and O1 still open.
fn judged(round: u32, l1: &str) -> Vec<DebateEvent> {
    let said = if round == 0 {
        "Round 1: both issues stand until the defender answers them.".to_string()
    } else {
        "Round 2: the defender answered the retry loop; the key logging stands.".to_string()
    };
    let text = format!(
        r#"{{"resolved": false, "verdict": "{said}", "ahead": "even", "conceded": "none", "topic": "Answer O1: who can read the logs?", "heat": 0.6, "issues": [{{"id": "L1", "status": "{l1}"}}, {{"id": "O1", "status": "open"}}]}}"#
    );
    let verdict = Verdict {
        resolved: false,
        verdict: said,
        topic: "Answer O1: who can read the logs?".into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    vec![
        DebateEvent::TurnStarted { round, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: Some(0.2) },
        done(round, Role::Judge, &text),
        DebateEvent::VerdictReached { round, verdict },
    ]
}

/// Round 1 argued and ruled (both issues open); in round 2 the defender has
/// answered and both critics are writing.
fn critics_streaming() -> App {
    let mut events = started();
    events.push(round_started(0, 0.9));
    events.extend([Role::Advocate, Role::Skeptic, Role::Third].map(|role| argue(0, role, 0.9)));
    events.extend([done(0, Role::Advocate, DEFENDER_1), done(0, Role::Skeptic, LOGIC_1), done(0, Role::Third, OPS_1)]);
    events.extend(judged(0, "open"));
    events.push(round_started(1, 0.6));
    events.extend([Role::Advocate, Role::Skeptic, Role::Third].map(|role| argue(1, role, 0.6)));
    events.extend([
        done(1, Role::Advocate, DEFENDER_2),
        DebateEvent::Delta { round: 1, role: Role::Skeptic, text: "Five attempts with backoff settle".into() },
        DebateEvent::Delta { round: 1, role: Role::Third, text: "Redaction is promised but".into() },
    ]);
    let mut app = new_app();
    app.begin("20261125-030000-review".into());
    feed(&mut app, &events);
    app
}

/// Round 2 argued and ruled: L1 addressed, O1 still open.
fn ruled_twice() -> App {
    let mut app = critics_streaming();
    feed(&mut app, &[done(1, Role::Skeptic, LOGIC_2), done(1, Role::Third, OPS_2)]);
    feed(&mut app, &judged(1, "addressed"));
    app
}

/// The screen's cells at `width`×`height`, for their colours.
fn cells(app: &mut App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| heat::tui::render(frame, app, &mut heat::tui::view::Retained::default())).unwrap();
    terminal.backend().buffer().clone()
}

/// The colour of the first cell where `word` starts on the row holding `on`.
fn colour_of(buffer: &ratatui::buffer::Buffer, on: &str, word: &str) -> Option<ratatui::style::Color> {
    let area = buffer.area;
    for y in 0..area.height {
        let row: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        let Some(line_at) = row.find(on) else { continue };
        let word_at = row[line_at..].find(word)? + line_at;
        let column = row[..word_at].chars().count();
        return Some(buffer[(u16::try_from(column).unwrap(), y)].fg);
    }
    None
}

#[test]
fn the_judges_pane_shows_the_board_under_the_rounds_verdict() {
    let mut app = critics_streaming();
    let text = screen(&mut app, 120, 40);
    for label in [" Defender ", " Logic critic ", " Ops critic ", " Judge "] {
        assert!(text.contains(label), "{label} has a pane:\n{text}");
    }
    for absent in ["Third", "Fourth", "Advocate", "Skeptic"] {
        assert!(!text.contains(absent), "no {absent} in a review:\n{text}");
    }
    assert!(text.contains("▣ 2 issues: 2 open"), "round 1's board under its verdict:\n{text}");
    assert!(text.contains("L1 [high] open · The retry loop never gives up"), "{text}");
    // A critic's issue line stands on its own line, as written: the prose after it starts a new one.
    assert!(
        text.contains("│It will pin a worker.") && text.contains("│Anyone with log access holds the keys."),
        "{text}"
    );
    insta::assert_snapshot!("review_critics_streaming_120x40", text);
    insta::assert_snapshot!("review_critics_streaming_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("review_critics_streaming_200x50", screen(&mut app, 200, 50));

    let mut app = ruled_twice();
    let text = screen(&mut app, 200, 50);
    // Round 1's verdict keeps the board as it stood then; round 2's shows L1 addressed.
    assert!(text.contains("▣ 2 issues: 2 open"), "{text}");
    assert!(text.contains("▣ 2 issues: 1 open, 1 addressed"), "{text}");
    assert!(text.contains("L1 [high] addressed · The retry loop never gives up (Logic critic, round 1)"), "{text}");
    assert!(text.contains("O1 [critical] open · API keys reach the request log (Ops critic, round 1)"), "{text}");
    insta::assert_snapshot!("review_ruled_200x50", text);
    insta::assert_snapshot!("review_ruled_120x40", screen(&mut app, 120, 40));
    insta::assert_snapshot!("review_ruled_80x24", screen(&mut app, 80, 24));

    let theme = &app.theme;
    let (warn, good) = (theme.warn, theme.good);
    let buffer = cells(&mut app, 200, 50);
    assert_eq!(colour_of(&buffer, "L1 [high] addressed", "addressed"), Some(good));
    assert_eq!(colour_of(&buffer, "O1 [critical] open ·", "open"), Some(warn));
}

#[test]
fn a_judge_streaming_its_verdict_shows_no_board_of_its_own_yet() {
    let mut app = critics_streaming();
    feed(&mut app, &[done(1, Role::Skeptic, LOGIC_2), done(1, Role::Third, OPS_2)]);
    feed(
        &mut app,
        &[
            DebateEvent::TurnStarted {
                round: 1,
                role: Role::Judge,
                purpose: TurnPurpose::Judge,
                temperature: Some(0.2),
            },
            DebateEvent::Delta {
                round: 1,
                role: Role::Judge,
                text: r#"{"resolved": false, "verdict": "Round 2"#.into(),
            },
        ],
    );
    let text = screen(&mut app, 200, 50);
    assert_eq!(text.matches("▣ 2 issues").count(), 1, "only round 1's verdict has its board:\n{text}");
}

#[test]
fn the_results_count_the_issues() {
    let mut app = ruled_twice();
    let synthesis = "The queue stands; the key logging must be shown redacted before it ships.".to_string();
    feed(&mut app, &[DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: Some(synthesis) }]);
    let results = screen(&mut app, 120, 40);
    assert!(results.contains("▣ 2 issues: 1 open, 1 addressed"), "{results}");
    assert!(results.contains("Words per round ■ d ■ l ■ o"), "every debater's words, by initial:\n{results}");
    insta::assert_snapshot!("review_results_120x40", results);
    insta::assert_snapshot!("review_results_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("review_results_200x50", screen(&mut app, 200, 50));
}
