//! `heat report` in a real browser: the demo's report opened from disk
//! (`file://`) in headless Chromium shows no console error (CSP violations
//! included), makes or attempts no network request, lays every chart's `<svg>`
//! out at a size above zero, prints to PDF, and leaves a full-page screenshot
//! in `<target>/ci-artifacts/report.png` for CI to keep. This file also owns
//! the tests that prove the harness (`support::browser`, which finds and
//! drives the browser or skips without one) catches what it looks for.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::support::browser::{self, Seen, artifacts_dir, chromium_or_skip};

/// The report's Content-Security-Policy, as the fixtures below carry it.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// Everything one page load showed the browser.
#[derive(Debug, Default)]
struct Loaded {
    /// Its console and its requests.
    seen: Seen,
    /// Every `svg` inside a `.chart`: the chart's id and the svg's width and height in CSS px.
    charts: Vec<(String, f64, f64)>,
    pdf: Vec<u8>,
    png: Vec<u8>,
}

impl Loaded {
    /// What fails the report's checks, one line each; empty when the page is clean.
    fn problems(&self) -> Vec<String> {
        let mut out = self.seen.problems();
        for (id, w, h) in &self.charts {
            if *w <= 0.0 || *h <= 0.0 {
                out.push(format!("chart svg without size: #{id} is {w} x {h}"));
            }
        }
        if !self.pdf.starts_with(b"%PDF") {
            out.push(format!("print to PDF gave {} bytes that are not a PDF", self.pdf.len()));
        }
        if !self.png.starts_with(b"\x89PNG\r\n\x1a\n") {
            out.push(format!("the screenshot gave {} bytes that are not a PNG", self.png.len()));
        }
        out
    }
}

/// `file://` URL of an absolute path, with the bytes a URL path cannot hold escaped.
fn file_url(path: &Path) -> String {
    let path = std::fs::canonicalize(path).expect("the page exists");
    let mut url = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

/// The chart svgs' sizes, measured by the protocol's own evaluation (the
/// page's CSP forbids its scripts, not the debugger's).
const MEASURE_CHARTS: &str = "JSON.stringify(Array.from(document.querySelectorAll('.chart svg'), s => {
    const r = s.getBoundingClientRect();
    return [s.closest('.chart').id || '', r.width, r.height];
}))";

/// Opens `page` from disk in headless Chromium and records what it did,
/// after its load, its fonts and a full-page screenshot, then prints it to PDF.
fn load(chromium: &Path, page: &Path) -> Loaded {
    let url = file_url(page);
    let browser = browser::launch(chromium, 1280, 900);
    let tab = browser.new_tab().expect("a tab");
    tab.set_default_timeout(Duration::from_secs(60));
    let recorder = browser::observe(&tab, &url);

    tab.navigate_to(&url).expect("navigation").wait_until_navigated().expect("the page loads");
    // Loaded, with its fonts: the layout is final.
    let state =
        tab.evaluate("document.fonts.ready.then(() => document.readyState)", true).expect("document state").value;
    assert_eq!(state, Some(serde_json::json!("complete")), "{url} did not finish loading");

    let charts = tab.evaluate(MEASURE_CHARTS, false).expect("measuring the charts").value;
    let charts: Vec<(String, f64, f64)> = charts
        .as_ref()
        .and_then(|v| v.as_str())
        .map(|s| serde_json::from_str(s).expect("chart sizes as JSON"))
        .expect("chart sizes");

    let png = browser::full_page_png(&tab);
    let pdf = tab.print_to_pdf(None).expect("print to PDF");

    let seen = std::mem::take(&mut recorder.lock().expect("the recorder").seen);
    Loaded { seen, charts, pdf, png }
}

/// A page like the report: the same CSP, inline style, one inline svg chart, and `extra` in its body.
fn fixture(dir: &Path, name: &str, csp: Option<&str>, extra: &str) -> PathBuf {
    let meta = csp.map(|c| format!(r#"<meta http-equiv="Content-Security-Policy" content="{c}">"#)).unwrap_or_default();
    let html = format!(
        r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{meta}
<title>heat report fixture</title>
<style>body {{ font: 16px system-ui, sans-serif; margin: 2rem; }} .chart svg {{ width: 100%; max-width: 40rem; height: auto; }}</style>
</head>
<body>
<h1>Fixture</h1>
<figure class="chart" id="heat-chart"><svg viewBox="0 0 200 100" role="img" aria-label="heat by round"><polyline fill="none" stroke="#c33" stroke-width="3" points="0,80 50,40 100,60 150,20 200,30"/></svg><figcaption>Heat by round</figcaption></figure>
{extra}
</body>
</html>
"##
    );
    let path = dir.join(name);
    std::fs::write(&path, html).expect("writing the fixture");
    path
}

#[test]
fn the_demo_report_opens_offline_in_chromium_and_prints() {
    let Some(chromium) = chromium_or_skip("the_demo_report_opens_offline_in_chromium_and_prints") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = dir.path().join("heat.toml");
    std::fs::write(&config, "# an empty config: the test's own, not the user's\n").expect("writing the config");
    let report = dir.path().join("report.html");
    let out = assert_cmd::Command::cargo_bin("heat")
        .expect("the heat binary")
        .args(["report", "--demo", "-o"])
        .arg(&report)
        .env("HEAT_DATA_DIR", dir.path().join("data"))
        .env("HEAT_CONFIG", &config)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("HEAT_PROVIDER")
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(60))
        .output()
        .expect("running heat report");
    assert!(
        out.status.success(),
        "heat report --demo failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let loaded = load(&chromium, &report);
    let shot = artifacts_dir().join("report.png");
    std::fs::write(&shot, &loaded.png).expect("writing the screenshot");
    eprintln!("screenshot: {}; console: {:#?}", shot.display(), loaded.seen.console);
    assert!(!loaded.charts.is_empty(), "the report has no svg inside a .chart");
    assert_eq!(loaded.problems(), Vec::<String>::new(), "charts: {:?}", loaded.charts);
}

#[test]
fn a_clean_page_with_the_reports_csp_passes_the_harness() {
    let Some(chromium) = chromium_or_skip("a_clean_page_with_the_reports_csp_passes_the_harness") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    // A data: image is what the CSP allows: no request, no error.
    let page = fixture(
        dir.path(),
        "clean.html",
        Some(CSP),
        r#"<img alt="" width="1" height="1" src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==">"#,
    );
    let loaded = load(&chromium, &page);
    eprintln!("console: {:#?}", loaded.seen.console);
    assert_eq!(loaded.charts.len(), 1, "{:?}", loaded.charts);
    assert_eq!(loaded.problems(), Vec::<String>::new(), "charts: {:?}", loaded.charts);
}

#[test]
fn a_page_that_reaches_for_the_network_is_caught() {
    let Some(chromium) = chromium_or_skip("a_page_that_reaches_for_the_network_is_caught") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");

    // Under the report's CSP the image never leaves: the block itself is caught.
    let blocked = fixture(dir.path(), "blocked.html", Some(CSP), r#"<img alt="" src="http://example.com/x.png">"#);
    let problems = load(&chromium, &blocked).problems();
    assert!(
        problems.iter().any(|p| p.starts_with("console error") && p.contains("Content Security Policy")),
        "no CSP violation in {problems:#?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("http://example.com/x.png")),
        "the blocked request is not named in {problems:#?}"
    );

    // Without a CSP the request goes out, to a listener of the test's own on loopback: caught too.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
    let image = format!("http://127.0.0.1:{}/x.png", listener.local_addr().expect("its address").port());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let listening = std::thread::spawn(move || {
        // One connection, its request line read, then closed unanswered; or
        // none by the time the page has loaded.
        listener.set_nonblocking(true).expect("a non-blocking listener");
        while !stopped.load(std::sync::atomic::Ordering::SeqCst) {
            if let Ok((stream, _)) = listener.accept() {
                stream.set_nonblocking(false).expect("a blocking stream");
                let mut line = String::new();
                let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stream), &mut line);
                return Some(line);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    });
    let open = fixture(dir.path(), "open.html", None, &format!(r#"<img alt="" src="{image}">"#));
    let problems = load(&chromium, &open).problems();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(problems.contains(&format!("network request: {image}")), "the request is not caught in {problems:#?}");
    let arrived = listening.join().expect("the listener thread");
    assert_eq!(arrived.as_deref().map(str::trim_end), Some("GET /x.png HTTP/1.1"), "the request did not arrive");
}

#[test]
fn a_chart_with_no_size_is_caught() {
    let Some(chromium) = chromium_or_skip("a_chart_with_no_size_is_caught") else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let page = fixture(
        dir.path(),
        "collapsed.html",
        Some(CSP),
        r#"<figure class="chart" id="collapsed"><svg viewBox="0 0 10 10" style="height: 0"></svg></figure>"#,
    );
    let problems = load(&chromium, &page).problems();
    assert!(
        problems.len() == 1
            && problems[0].starts_with("chart svg without size: #collapsed is ")
            && problems[0].ends_with(" x 0"),
        "{problems:#?}"
    );
}

/// In a format that keeps an argument map, the report draws the map as a
/// graph (a box per claim, an arrow from an answer to what it answers) and
/// the scorecards as a table and a chart, all laid out in Chromium with the
/// report's CSP and no console error.
#[test]
fn the_argument_map_is_drawn_as_a_graph_and_the_scorecards_as_a_chart_in_chromium() {
    use heat::debate::event::{Participant, TurnPurpose};
    use heat::debate::verdict::{Ahead, ClaimStatus, NamedClaim, Scorecard, Verdict};
    use heat::debate::{DebateEvent, Heat, Role};
    let Some(chromium) =
        chromium_or_skip("the_argument_map_is_drawn_as_a_graph_and_the_scorecards_as_a_chart_in_chromium")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = heat::store::Store::open(dir.path()).expect("store");
    let mut recorder = store.create().expect("a session");
    let catalog = heat::format::Catalog::load(None);
    let oxford = catalog.find("oxford").expect("built in");
    let claim = |id: &str, by, text: &str, status, answers: Option<&str>| NamedClaim {
        id: id.into(),
        by,
        claim: text.into(),
        status,
        answers: answers.map(String::from),
        evidence: None,
    };
    let card = |pro: u8, con: u8| {
        let side = |n: u8| ["logic", "evidence", "rebuttal", "clarity"].iter().map(|k| ((*k).to_string(), n)).collect();
        Some(Box::new(Scorecard { advocate: side(pro), skeptic: side(con) }))
    };
    let verdicts = [
        Verdict {
            verdict: "The cost point <landed> & stands.".into(),
            ahead: Some(Ahead::Advocate),
            claims: vec![claim(
                "A1",
                Role::Advocate,
                "A sleeper saves a hotel night <and> a day of travel",
                ClaimStatus::Standing,
                None,
            )],
            scorecard: card(8, 6),
            ..Verdict::default()
        },
        Verdict {
            verdict: "The fares point turned it.".into(),
            ahead: Some(Ahead::Skeptic),
            claims: vec![claim(
                "S1",
                Role::Skeptic,
                "Sleeper fares cost more than a flight and a hotel together",
                ClaimStatus::Standing,
                Some("A1"),
            )],
            scorecard: card(6, 8),
            ..Verdict::default()
        },
    ];
    let mut events = vec![
        DebateEvent::Started {
            topic: "Night trains beat short-haul flights".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: oxford.seats().iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
        },
        DebateEvent::Formatted { format: Box::new(oxford.log_record().expect("oxford has a record")) },
    ];
    for (round, verdict) in (0u32..).zip(verdicts) {
        events.push(DebateEvent::RoundStarted { round, topic: "t".into(), heat: Heat::new(0.9), injected: vec![] });
        events.push(DebateEvent::TurnStarted {
            round,
            role: Role::Judge,
            purpose: TurnPurpose::Judge,
            temperature: None,
        });
        events.push(DebateEvent::VerdictReached { round, verdict });
    }
    for event in &events {
        assert_eq!(recorder.record(event), None);
    }
    let loaded = store.load(recorder.id()).expect("the log loads");
    let html = heat::report::html(&loaded.header, &loaded.records, &heat::report::model::Context::default())
        .expect("the report renders");
    assert!(html.contains("&lt;and&gt;") && !html.contains("<and>"), "claims are escaped in the graph");
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).expect("writing the report");
    let loaded = load(&chromium, &page);
    let ids: Vec<&str> = loaded.charts.iter().map(|(id, _, _)| id.as_str()).collect();
    assert!(ids.contains(&"map-graph") && ids.contains(&"scores-chart"), "{ids:?}");
    assert_eq!(loaded.problems(), Vec::<String>::new(), "charts: {:?}", loaded.charts);
    std::fs::write(artifacts_dir().join("report-map.png"), &loaded.png).expect("writing the screenshot");
}
