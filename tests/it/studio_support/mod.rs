//! Builds studio `App`s in known states from debate events, and reads a
//! drawn frame back as text.
#![allow(dead_code)]

pub mod pty;

use crate::support::log::{Log, completed};
use crate::support::mock_llm::{Gate, Recorded, Reply, anthropic_sse};

use heat::debate::Heat;
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, Outcome, Role, TurnPurpose};
use heat::tui::app::StudioOptions;
use heat::tui::keymap::KeyMap;
use heat::tui::theme::Theme;
use heat::tui::{App, RosterEntry, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;

pub const TOPIC: &str = "Remote work beats the office";

/// The duel's seats, in screen order: who sits when no format is chosen.
pub const DUEL: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Judge];

pub fn roster() -> Vec<RosterEntry> {
    DUEL.into_iter()
        .map(|role| RosterEntry {
            role,
            provider: "openai".into(),
            model: "gpt-4.1-mini".into(),
            price: None,
            pauses_in_place: false,
        })
        .collect()
}

pub fn new_app() -> App {
    new_app_with(|_| {})
}

/// A studio opened with the default theme, keys and roster as `change`
/// leaves them (as heat.toml and the command line would).
pub fn new_app_with(change: impl FnOnce(&mut StudioOptions)) -> App {
    let theme = Theme::load("default", None, false).expect("theme");
    let mut options = StudioOptions { roster: roster(), ..StudioOptions::new(theme, KeyMap::default()) };
    change(&mut options);
    App::new(options)
}

pub fn feed(app: &mut App, events: &[DebateEvent]) {
    for event in events {
        app.on_event(event);
    }
}

pub fn start_screen() -> App {
    start_screen_with(|_| {})
}

/// The start screen with two recent debates, opened with `change`'s options.
pub fn start_screen_with(change: impl FnOnce(&mut StudioOptions)) -> App {
    let mut app = new_app_with(|options| {
        options.recent = vec![
            ("20261120-101500-ab12".into(), "Tabs beat spaces (resolved by the judge)".into()),
            ("20261119-090000-cd34".into(), "Cities should ban cars (unfinished)".into()),
        ];
        change(options);
    });
    app.show_start();
    app
}

fn started() -> Vec<DebateEvent> {
    started_events(4)
}

/// A debate of `max_rounds` started, both debaters' first turns begun.
pub fn started_events(max_rounds: u32) -> Vec<DebateEvent> {
    Log::new(TOPIC, max_rounds, 0.9)
        .seats(&DUEL, "openai", "gpt-4.1-mini")
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .into_events()
}

pub const ADVOCATE: &str = "## Focus wins\n\nRemote work gives people **long stretches of quiet** and removes the commute.\n\n- Fewer interruptions\n- *Two hours* a day back\n\n> Output per hour rose in every study we cite.";
pub const SKEPTIC: &str = "Offices exist for a reason: the hallway conversation that";

/// Both debaters streaming in round 1.
pub fn mid_stream() -> App {
    mid_stream_with(|_| {})
}

/// Both debaters streaming in round 1, in a studio opened with `change`'s options.
pub fn mid_stream_with(change: impl FnOnce(&mut StudioOptions)) -> App {
    let mut app = new_app_with(change);
    app.begin("20261123-120000-ab12".into());
    feed(&mut app, &started());
    feed(
        &mut app,
        &[
            DebateEvent::Delta { round: 0, role: Role::Advocate, text: ADVOCATE.into() },
            DebateEvent::Delta { round: 0, role: Role::Skeptic, text: SKEPTIC.into() },
        ],
    );
    app
}

const JUDGE_JSON: &str = r#"{"resolved": true, "verdict": "The advocate carried it: focus and time outweigh hallway chance.", "topic": "Does remote work hurt juniors?", "heat": 0.4}"#;

/// Round 1 argued and judged; the debate resolved.
pub fn resolved() -> App {
    resolved_with(|_| {})
}

/// Round 1 argued and judged, the debate resolved, in a studio opened with
/// `change`'s options.
pub fn resolved_with(change: impl FnOnce(&mut StudioOptions)) -> App {
    let mut app = mid_stream_with(change);
    let verdict = Verdict {
        resolved: true,
        verdict: "The advocate carried it: focus and time outweigh hallway chance.".into(),
        topic: "Does remote work hurt juniors?".into(),
        heat: Heat::new(0.4),
        ..Verdict::default()
    };
    let usage = Some(heat::provider::Usage { input_tokens: 1200, output_tokens: 340, ..Default::default() });
    feed(
        &mut app,
        &[
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text: ADVOCATE.into(),
                usage,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Skeptic,
                text: format!("{SKEPTIC} builds trust."),
                usage,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::TurnStarted {
                round: 0,
                role: Role::Judge,
                purpose: TurnPurpose::Judge,
                temperature: Some(0.2),
            },
            DebateEvent::Delta { round: 0, role: Role::Judge, text: JUDGE_JSON.into() },
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Judge,
                text: JUDGE_JSON.into(),
                usage,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::VerdictReached { round: 0, verdict: verdict.clone() },
            DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: Some(verdict.verdict) },
        ],
    );
    // The results open over the panes when a debate ends; Esc shows the panes as they stand.
    assert!(matches!(app.modal, Some(heat::tui::modal::Modal::Results(_))), "the results opened");
    app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Esc));
    app
}

/// The judge streaming its verdict JSON, half written.
pub fn judging() -> App {
    let mut app = mid_stream();
    feed(
        &mut app,
        &[
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text: ADVOCATE.into(),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Skeptic,
                text: SKEPTIC.into(),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::TurnStarted {
                round: 0,
                role: Role::Judge,
                purpose: TurnPurpose::Judge,
                temperature: Some(0.2),
            },
            DebateEvent::Delta {
                round: 0,
                role: Role::Judge,
                text: r#"{"resolved": false, "verdict": "Both sides argue past each other on"#.into(),
            },
        ],
    );
    app
}

/// Draws one frame and returns it as lines of text.
pub fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal.draw(|frame| heat::tui::render(frame, app, &mut view::Retained::default())).expect("draw");
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut row = String::new();
        for x in 0..width {
            row.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// A stored debate playing back in a studio that only replays (`heat
/// replay`), both debaters mid-stream.
pub fn replaying() -> App {
    let mut app = mid_stream_with(|options| options.mode = heat::tui::app::Mode::Replays);
    app.staged().replay = Some(heat::tui::app::Replay::Playing);
    app
}

/// Round 1 judged (the skeptic ahead, the advocate conceded a point) and
/// its verdict flipped when the swap check read the debaters the other
/// way round; round 2 under way.
pub fn swap_flipped() -> App {
    use heat::debate::verdict::{Ahead, Conceded};
    let mut app = mid_stream();
    let verdict = Verdict {
        resolved: false,
        verdict: "The skeptic's mentoring point stood; the advocate granted it.".into(),
        ahead: Some(Ahead::Skeptic),
        conceded: Some(Conceded::Advocate),
        topic: "Can mentoring be done remotely?".into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    let swapped = Verdict { ahead: Some(Ahead::Advocate), ..verdict.clone() };
    let text = serde_json::to_string(&verdict).unwrap_or_default();
    let done = |role, text: &str| completed(0, role, text);
    feed(
        &mut app,
        &[
            done(Role::Advocate, ADVOCATE),
            done(Role::Skeptic, &format!("{SKEPTIC} builds trust.")),
            DebateEvent::TurnStarted {
                round: 0,
                role: Role::Judge,
                purpose: TurnPurpose::Judge,
                temperature: Some(0.2),
            },
            DebateEvent::Delta { round: 0, role: Role::Judge, text: text.clone() },
            done(Role::Judge, &text),
            DebateEvent::VerdictReached { round: 0, verdict },
            DebateEvent::SwapCheckStarted { round: 0 },
            DebateEvent::SwapChecked { round: 0, verdict: swapped, flips: true, usage: None },
            DebateEvent::RoundStarted {
                round: 1,
                topic: "Can mentoring be done remotely?".into(),
                heat: Heat::new(0.6),
                injected: vec![],
            },
        ],
    );
    // The judge's pane in front: at 80×24 one pane shows at a time.
    app.focus(heat::debate::Role::Judge);
    app
}

/// The mock server's side of a duel on [`TOPIC`] whose judge always goes on:
/// each debater's argument streamed in 40-byte pieces, `delay` before each
/// piece, so a test can act mid-stream.
pub fn remote_work_duel(request: &Recorded, delay: Duration) -> Reply {
    let system = request.system();
    if system.contains("You are the JUDGE") {
        let text = r#"{"resolved": false, "verdict": "Both sides hold ground.", "topic": "Go deeper", "heat": 0.6}"#;
        return Reply::sse(&anthropic_sse(&[text], None), 64);
    }
    let text = if system.contains("You are the ADVOCATE") {
        "Remote work gives **focus** and saves the commute for everyone."
    } else {
        "Offices build trust through chance meetings in the hallway."
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 40).with_delay(delay)
}

/// [`remote_work_duel`] with the judge's verdicts held at `verdicts`: the
/// verdict on round N (the round its request names) is sent once the test
/// lets N go, so the debate stays in round N, live, until the keys the test
/// sends it have landed, however busy the machine. A test that never lets a
/// round go ends the debate itself (a key, a signal).
pub fn held_duel(delay: Duration, verdicts: &Gate) -> impl Fn(&Recorded) -> Reply + Send + Sync + 'static {
    let verdicts = verdicts.clone();
    move |request| {
        let reply = remote_work_duel(request, delay);
        if !request.system().contains("You are the JUDGE") {
            return reply;
        }
        let asked = request.last_message();
        let round = (1..100).find(|n| asked.contains(&format!("Round {n} of"))).unwrap_or(u32::MAX);
        reply.held_at(&verdicts, round)
    }
}
