//! The audience page (`heat watch --web`) in a real browser: headless
//! Chromium opens the page of a debate recorded in this process while the
//! test goes on recording it, and sees the proposition and the advocate's
//! streamed words, the words grow as the log does, a click on a vote button
//! counted, the visitor's second vote in the round refused (409, one ballot
//! in the spool), the room's count once the test, holding the log, records
//! the spool, and the judge's verdict; all without a console error (CSP and
//! Trusted Types violations included) or a request to another origin, and
//! with no page wider than its window. Full-page screenshots at a laptop's
//! and a phone's size go to `<target>/ci-artifacts/audience.png` and
//! `audience-phone.png`.
//!
//! The harness, and the rule that the test passes saying it was skipped
//! when no Chromium is found (unless `HEAT_REQUIRE_BROWSER=1`), are
//! `support::browser`'s. The browser is driven with `headless_chrome`'s
//! blocking API on a blocking thread while the page's server goes on in the
//! test's runtime. The DOM is read through the protocol's own evaluation
//! (`Runtime.evaluate`, which the page's CSP does not govern), never through
//! the page's script.

use std::time::{Duration, Instant};

use headless_chrome::Tab;
use headless_chrome::protocol::cdp::Emulation;
use heat::debate::{DebateEvent, Role};
use heat::store::ballots::{self, Spooled};
use heat::store::log::{self, DELTA_FLUSH};
use heat::store::spool::Reader;
use heat::store::{Recorder, Store};
use heat::web::{Limits, Stage};

use crate::support::browser::{self, artifacts_dir, chromium_or_skip};

/// How many of the debate's first `Delta` events the log holds when the page opens.
const FIRST_DELTAS: usize = 4;
/// How many more the test records while the page watches.
const MORE_DELTAS: usize = 24;
/// How long a change may take to show in the page: the log is followed with
/// notify and a 500 ms poll.
const PATIENCE: Duration = Duration::from_secs(10);
/// Round 1's part of the page.
const ROUND: &str = r#"section.round[data-round="1"]"#;
/// What the page says when a vote is counted (assets/web/audience.js).
const COUNTED: &str = "Counted — thank you";

/// The demo debate, played into a log event by event.
struct Debate {
    recorder: Recorder,
    recorded: Vec<DebateEvent>,
    rest: std::vec::IntoIter<DebateEvent>,
}

impl Debate {
    fn new(recorder: Recorder) -> Self {
        let demo = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo parses");
        let events: Vec<DebateEvent> = demo.records.into_iter().map(|r| r.event).collect();
        Debate { recorder, recorded: Vec::new(), rest: events.into_iter() }
    }

    /// Records the demo's next events, up to and including the first for which `last` is true.
    fn record_until(&mut self, mut last: impl FnMut(&DebateEvent) -> bool) {
        for event in self.rest.by_ref() {
            let warning = self.recorder.record(&event);
            assert_eq!(warning, None, "recording {event:?}");
            let done = last(&event);
            self.recorded.push(event);
            if done {
                return;
            }
        }
        panic!("the demo ran out before the event the test waits for");
    }

    /// Records the demo's next `n` `Delta` events and whatever comes between
    /// them, pausing before the last as a model does: the log hands deltas
    /// to its file once [`DELTA_FLUSH`] has passed since it last did.
    fn record_deltas(&mut self, n: usize) {
        let mut seen = 0;
        let mut count = |e: &DebateEvent| {
            seen += usize::from(matches!(e, DebateEvent::Delta { .. }));
            seen
        };
        if n > 1 {
            self.record_until(|e| count(e) == n - 1);
        }
        std::thread::sleep(DELTA_FLUSH);
        self.record_until(|e| count(e) == n);
    }

    /// The advocate's words in the first round as the log has them: its
    /// whole turn once complete, else what streamed.
    fn advocates_words(&self) -> String {
        let mut words = String::new();
        for event in &self.recorded {
            match event {
                DebateEvent::Delta { round: 0, role: Role::Advocate, text } => words.push_str(text),
                DebateEvent::TurnCompleted { round: 0, role: Role::Advocate, text, .. } => words.clone_from(text),
                _ => {}
            }
        }
        words
    }

    /// What the page has spooled, read from its start.
    fn spooled(&self) -> Vec<Spooled> {
        Reader::<Spooled>::new(ballots::path_for(self.recorder.path())).read().expect("the spool reads")
    }
}

/// `expression`'s value in the page, when a string.
fn string_of(tab: &Tab, expression: &str) -> Option<String> {
    let value = tab.evaluate(expression, false).unwrap_or_else(|e| panic!("evaluating {expression}: {e:#}")).value;
    value.and_then(|v| v.as_str().map(str::to_owned))
}

/// The text of the first element `selector` finds, if any.
fn text_of(tab: &Tab, selector: &str) -> Option<String> {
    let quoted = serde_json::to_string(selector).expect("a selector as JSON");
    string_of(
        tab,
        &format!("(() => {{ const e = document.querySelector({quoted}); return e ? e.textContent : null; }})()"),
    )
}

/// Waits until the text at `selector` passes `wanted`; fails saying `what`
/// was not seen, and what was.
fn wait_for(tab: &Tab, what: &str, selector: &str, wanted: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = text_of(tab, selector);
        if let Some(text) = text.as_deref().filter(|t| wanted(t)) {
            return text.to_owned();
        }
        assert!(
            start.elapsed() < PATIENCE,
            "{what}: not seen in {PATIENCE:?}; `{selector}` holds {text:?}\nstatus: {:?}",
            text_of(tab, "#status")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The time each step took, printed at the end.
struct Steps(Instant, Vec<(&'static str, Duration)>);

impl Steps {
    fn done(&mut self, step: &'static str) {
        let now = Instant::now();
        self.1.push((step, now - self.0));
        self.0 = now;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audience_page_streams_counts_one_vote_a_round_and_shows_the_verdict_in_chromium() {
    let Some(chromium) =
        chromium_or_skip("the_audience_page_streams_counts_one_vote_a_round_and_shows_the_verdict_in_chromium")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).expect("store");
    let mut debate = Debate::new(store.create().expect("a session"));
    debate.record_deltas(FIRST_DELTAS);
    let loaded = store.load(debate.recorder.id()).expect("the log loads");
    let addr = "127.0.0.1:0".parse().expect("an address");
    let stage =
        Stage::open_within(addr, debate.recorder.path(), &loaded, Limits::default()).await.expect("the page is served");
    let url = format!("http://{}/", stage.addr);

    // The browser blocks; the page's server and its following of the log go on in the runtime.
    let watched = tokio::task::spawn_blocking(move || watch(&chromium, &url, debate)).await;
    drop(stage);
    if let Err(e) = watched {
        std::panic::resume_unwind(e.try_into_panic().expect("the browser's thread panicked or was cancelled"));
    }
}

/// Drives the page at `url` through the debate, checking each step.
fn watch(chromium: &std::path::Path, url: &str, mut debate: Debate) {
    let mut steps = Steps(Instant::now(), Vec::new());
    let browser = browser::launch(chromium, 1280, 900);
    let tab = browser.new_tab().expect("a tab");
    tab.set_default_timeout(Duration::from_secs(30));
    let recorder = browser::observe(&tab, url);
    steps.done("launch Chromium");
    tab.navigate_to(url).expect("navigation").wait_until_navigated().expect("the page loads");

    // The page renders what the log holds.
    let topic = debate.recorder.state().topic.clone();
    wait_for(&tab, "the proposition", "#proposition", |t| t == topic);
    let advocate = format!(r#"{ROUND} .turn[data-role="advocate"] .text"#);
    let so_far = debate.advocates_words();
    assert!(!so_far.is_empty(), "the log holds none of the advocate's words");
    wait_for(&tab, "the advocate's first streamed words in round 1", &advocate, |t| letters(t) == letters(&so_far));
    steps.done("page renders");

    // It streams: words recorded now reach the page.
    debate.record_deltas(MORE_DELTAS);
    let more = debate.advocates_words();
    assert!(more.len() > so_far.len(), "the test recorded none of the advocate's words");
    wait_for(&tab, "the advocate's words growing as the log does", &advocate, |t| letters(t) == letters(&more));
    let streaming =
        string_of(&tab, &format!(r#"document.querySelector('{ROUND} .turn[data-role="advocate"]').className"#));
    assert!(streaming.is_some_and(|c| c.contains("streaming")), "the advocate's turn is not marked as streaming");
    steps.done("words stream");

    vote(&tab, &mut debate);
    steps.done("vote, refusal, count");

    // The round's verdict, and the advocate's turn complete.
    debate.record_until(|e| matches!(e, DebateEvent::VerdictReached { .. }));
    let title =
        wait_for(&tab, "the judge's verdict card", &format!("{ROUND} .verdict .verdict-title"), |t| !t.is_empty());
    assert!(title.starts_with("Judge · "), "the verdict card's title: {title:?}");
    let reason = text_of(&tab, &format!("{ROUND} .verdict .verdict-reason")).unwrap_or_default();
    assert!(reason.starts_with("The advocate made a clear case"), "the verdict's reason: {reason:?}");
    let whole = debate.advocates_words();
    wait_for(&tab, "the advocate's whole turn", &advocate, |t| letters(t) == letters(&whole));
    // Its Markdown drawn as elements: the list and the bold words, never the marks.
    let drawn = string_of(
        &tab,
        &format!(
            r#"(() => {{ const t = document.querySelector('{ROUND} .turn[data-role="advocate"] .text');
                return `${{t.querySelectorAll('li').length}} ${{t.querySelectorAll('strong').length}} ${{t.textContent.includes('**')}}`; }})()"#
        ),
    );
    assert_eq!(drawn.as_deref(), Some("3 3 false"), "the advocate's list of three bold points, as elements");
    wait_for(&tab, "the heat after the verdict", "#heat-value", |t| t == "0.7");
    let said = text_of(&tab, &format!("{ROUND} .vote-said"));
    assert_eq!(said.as_deref(), Some(COUNTED), "the visitor's vote is still shown as counted");
    steps.done("verdict");

    // A turn's citations, as checked: each opens on the lines it points at.
    cited(&tab, &mut debate);
    steps.done("citations");

    // Scrolled to the newest round of a long page, the proposition and the heat are still in view.
    let in_view = string_of(
        &tab,
        r"(() => { const tall = document.createElement('div'); tall.style.height = '4000px';
            document.getElementById('rounds').append(tall);
            window.scrollTo(0, document.documentElement.scrollHeight);
            const seen = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                return r.top >= 0 && r.bottom <= window.innerHeight; };
            const out = `${window.scrollY > 1000} ${seen('proposition')} ${seen('heat-value')}`;
            tall.remove(); window.scrollTo(0, 0); return out; })()",
    );
    assert_eq!(in_view.as_deref(), Some("true true true"), "scrolled, the proposition and the heat stay in view");
    steps.done("header stays in view");

    screenshots(&tab);
    steps.done("screenshots");

    // Nothing went wrong in the console, and nothing left the page's origin.
    let seen = std::mem::take(&mut recorder.lock().expect("the recorder").seen);
    let vote_url = format!("{url}vote");
    // Chromium logs every 4xx answer as an error: the test's own refused
    // vote is the one expected (the icon every page is asked for is a 204).
    let expected =
        |line: &String| line.contains("status of 409 (Conflict)") && line.ends_with(&format!("({vote_url})"));
    let mut problems: Vec<String> = seen.console_errors().into_iter().filter(|l| !expected(l)).collect();
    problems.extend(seen.requests.iter().filter(|r| !r.starts_with(url)).map(|r| format!("request elsewhere: {r}")));
    problems.extend(seen.failed.iter().map(|r| format!("request failed or blocked: {r}")));
    assert_eq!(problems, Vec::<String>::new(), "console: {:#?}\nrequests: {:#?}", seen.console, seen.requests);
    assert!(seen.requests.contains(&vote_url), "the click's vote was not a request: {:#?}", seen.requests);

    for (step, took) in &steps.1 {
        eprintln!("audience_browser: {step}: {} ms", took.as_millis());
    }
}

/// The advocate's round 1 citations, recorded checked against a source
/// the debate is given: shown under its turn, a verified one opening on its
/// lines and a missing one said as missing.
fn cited(tab: &Tab, debate: &mut Debate) {
    use heat::debate::grounding::{Cited, Mark, QuoteCheck, Source};
    let source = Source::from_bytes("tea.md".into(), b"# Tea\nTea calms the mind.\n").expect("the source");
    let check = |start, end, mark| QuoteCheck {
        cited: Cited::Lines { start, end },
        mark,
        lines: (mark == Mark::Verified).then_some((start, end)),
        from: None,
        file: None,
        library: false,
    };
    for event in [
        DebateEvent::Grounded { date: None, source: Some(source), library: None },
        DebateEvent::QuotesChecked {
            round: 0,
            role: Role::Advocate,
            checks: vec![check(2, 2, Mark::Verified), check(7, 7, Mark::Unverified)],
        },
    ] {
        assert_eq!(debate.recorder.record(&event), None, "recording {event:?}");
    }
    let cited = format!(r#"{ROUND} .turn[data-role="advocate"] .cited"#);
    let verified =
        wait_for(tab, "the advocate's checked citations", &format!("{cited} li.verified summary"), |t| !t.is_empty());
    assert_eq!(verified, "✓ [L2]");
    let missing = text_of(tab, &format!("{cited} li.unverified")).unwrap_or_default();
    assert_eq!(missing, "✗ [L7] (no such lines)");
    let opened = string_of(
        tab,
        &format!(
            r"(() => {{ const d = document.querySelector('{cited} li.verified details'); d.open = true;
                const pre = d.querySelector('pre'); return `${{pre.getBoundingClientRect().height > 0}} ${{pre.textContent}}`; }})()"
        ),
    );
    assert_eq!(opened.as_deref(), Some("true L2: Tea calms the mind."), "the verified citation opens on its line");
}

/// A click votes once, the count shows once the log records the spool, and
/// the same visitor's second vote is refused.
fn vote(tab: &Tab, debate: &mut Debate) {
    let button = format!(r#"{ROUND} button.vote[data-side="advocate"]"#);
    tab.wait_for_element(&button).expect("round 1's vote button for the advocate").click().expect("a click");
    let said = wait_for(tab, "the vote counted", &format!("{ROUND} .vote-said"), |t| t != "Sending…" && !t.is_empty());
    assert_eq!(said, COUNTED, "what the page says after the click");
    let state = "b => `${b.dataset.side}:${b.disabled}:${b.getAttribute('aria-pressed')}`";
    let buttons =
        string_of(tab, &format!("Array.from(document.querySelectorAll('{ROUND} button.vote'), {state}).join(' ')"));
    assert_eq!(
        buttons.as_deref(),
        Some("advocate:true:true skeptic:true:false even:true:false"),
        "after a vote every button in the round is disabled and the chosen one pressed"
    );
    let spooled = debate.spooled();
    assert_eq!(spooled.len(), 1, "one ballot spooled: {spooled:?}");
    assert_eq!((spooled[0].round, spooled[0].ballot.side), (0, Some(Role::Advocate)), "the spooled ballot");

    // The log's holder records the spool; the room's count follows the log.
    let (events, warning) = debate.recorder.record_ballots(debate.spooled());
    assert_eq!((events.len(), warning), (1, None), "the ballot recorded: {events:?}");
    let count = format!(r#"{ROUND} .count[data-side="advocate"]"#);
    wait_for(tab, "the advocate's count in round 1", &count, |t| t == "1");
    assert_eq!(text_of(tab, &format!("{ROUND} .total")).as_deref(), Some("1 vote"), "round 1's total");

    // The same visitor again, from the page's own origin with its cookie: refused.
    let again = "fetch('/vote', {method: 'POST', headers: {'content-type': 'application/json'}, \
        body: JSON.stringify({round: 1, side: 'skeptic'}), credentials: 'same-origin'}).then(r => r.status)";
    let status = tab.evaluate(again, true).expect("a second vote from the page").value;
    assert_eq!(status, Some(serde_json::json!(409)), "a second vote in round 1 by the same visitor");
    let spooled = debate.spooled();
    assert_eq!(spooled.len(), 1, "the refused vote is not spooled: {spooled:?}");
}

/// Full-page screenshots at a laptop's size and a phone's; neither
/// page is wider than its window.
fn screenshots(tab: &Tab) {
    let dir = artifacts_dir();
    for (name, width, height, mobile) in [("audience.png", 1280, 900, false), ("audience-phone.png", 390, 844, true)] {
        tab.call_method(Emulation::SetDeviceMetricsOverride {
            width,
            height,
            device_scale_factor: 1.0,
            mobile,
            scale: None,
            screen_width: None,
            screen_height: None,
            position_x: None,
            position_y: None,
            dont_set_visible_size: None,
            screen_orientation: None,
            viewport: None,
            display_feature: None,
            device_posture: None,
        })
        .expect("the window's size");
        // The next frame is laid out at that size, with its fonts.
        tab.evaluate("document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => r(1))))", true)
            .expect("a frame");
        let wide = string_of(tab, "`${document.documentElement.scrollWidth} ${window.innerWidth}`").unwrap_or_default();
        let fits = wide.split_once(' ').is_some_and(|(page, window)| page == window);
        assert!(fits, "at {width} x {height} the page is wider than the window (page, window: {wide})");
        let png = browser::full_page_png(tab);
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "the {name} screenshot is not a PNG");
        let path = dir.join(name);
        std::fs::write(&path, &png).expect("writing the screenshot");
        eprintln!("screenshot: {}", path.display());
    }
}

/// The letters and digits of `text`: what a turn says, whatever its
/// Markdown is drawn as (marks, list bullets and line breaks aside).
fn letters(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// In a format that keeps an argument map, the round's verdict card says
/// each side's scorecard and lists the claims still standing, each marked
/// with its side; a conceded claim is not among them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audience_page_shows_the_claims_still_standing_and_the_scorecard_in_chromium() {
    use heat::debate::Heat;
    use heat::debate::event::{Participant, TurnPurpose};
    use heat::debate::verdict::{ClaimStatus, NamedClaim, Scorecard, Verdict};
    let Some(chromium) =
        chromium_or_skip("the_audience_page_shows_the_claims_still_standing_and_the_scorecard_in_chromium")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).expect("store");
    let mut recorder = store.create().expect("a session");
    let catalog = heat::format::Catalog::load(None);
    let oxford = catalog.find("oxford").expect("built in");
    let claim = |id: &str, by, text: &str, status| NamedClaim {
        id: id.into(),
        by,
        claim: text.into(),
        status,
        answers: None,
        evidence: None,
    };
    let side = |logic: u8| [("logic".to_string(), logic), ("evidence".to_string(), 6)].into_iter().collect();
    let verdict = Verdict {
        verdict: "The proposition's cost point stood.".into(),
        topic: "Who carries the night?".into(),
        heat: Heat::new(0.7),
        claims: vec![
            claim("A1", Role::Advocate, "A sleeper saves a hotel night", ClaimStatus::Standing),
            claim("S1", Role::Skeptic, "Fares are higher", ClaimStatus::Conceded),
        ],
        scorecard: Some(Box::new(Scorecard { advocate: side(8), skeptic: side(5) })),
        ..Verdict::default()
    };
    let events = [
        DebateEvent::Started {
            topic: "Night trains beat short-haul flights".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: oxford.seats().iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
        },
        DebateEvent::Formatted { format: Box::new(oxford.log_record().expect("oxford has a record")) },
        DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.9), injected: vec![] },
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
        DebateEvent::VerdictReached { round: 0, verdict },
    ];
    for event in &events {
        assert_eq!(recorder.record(event), None, "recording {event:?}");
    }
    let loaded = store.load(recorder.id()).expect("the log loads");
    let addr = "127.0.0.1:0".parse().expect("an address");
    let stage =
        Stage::open_within(addr, recorder.path(), &loaded, Limits::default()).await.expect("the page is served");
    let url = format!("http://{}/", stage.addr);
    let shown = tokio::task::spawn_blocking(move || {
        let browser = browser::launch(&chromium, 1280, 900);
        let tab = browser.new_tab().expect("a tab");
        tab.set_default_timeout(Duration::from_secs(30));
        let recorder = browser::observe(&tab, &url);
        tab.navigate_to(&url).expect("navigation").wait_until_navigated().expect("the page loads");
        let scores = wait_for(&tab, "the scorecard", &format!("{ROUND} .verdict .verdict-scores"), |t| !t.is_empty());
        assert_eq!(scores, "Scorecard: Proposition 7.0 · Opposition 5.5 (out of 10)");
        let claims = wait_for(&tab, "the claims still standing", &format!("{ROUND} .verdict .verdict-claims"), |t| {
            !t.is_empty()
        });
        assert!(claims.contains("A1 A sleeper saves a hotel night") && !claims.contains("Fares"), "{claims}");
        let side = string_of(&tab, &format!("document.querySelector('{ROUND} .verdict-claims .claim').dataset.side"));
        assert_eq!(side.as_deref(), Some("advocate"));
        let seen = std::mem::take(&mut recorder.lock().expect("the recorder").seen);
        assert_eq!(seen.console_errors(), Vec::<String>::new(), "console: {:#?}", seen.console);
    })
    .await;
    drop(stage);
    if let Err(e) = shown {
        std::panic::resume_unwind(e.try_into_panic().expect("the browser's thread panicked or was cancelled"));
    }
}
