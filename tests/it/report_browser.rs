//! `heat report` in a real browser: the demo's report opened from disk
//! (`file://`) in headless Chromium shows no console error (CSP violations
//! included), makes or attempts no network request, lays every chart's `<svg>`
//! out at a size above zero, prints to PDF, and leaves a full-page screenshot
//! in `<target>/ci-artifacts/report.png` for CI to keep. This file also owns the
//! harness and the tests that prove it catches what it looks for.
//!
//! The browser is the system's: `HEAT_CHROMIUM`, else `chromium`,
//! `chromium-browser` or `google-chrome` on PATH. Without one the tests say
//! they were skipped and pass, unless `HEAT_REQUIRE_BROWSER=1` (CI) makes that
//! a failure.
//!
//! The driver is the `headless_chrome` crate, which speaks Chromium's
//! remote-debugging protocol (CDP). Only the protocol sees every network
//! request (including those the CSP blocks before they leave), every console
//! message with its source, and layout boxes measured from outside a page whose
//! CSP forbids script; the `--dump-dom`/`--print-to-pdf`/`--screenshot` flags
//! would need a scripted wrapper page and scraping of Chromium's log. The crate builds with Rust
//! alone (no cmake, no clang) in about 50 s extra on two cores, once. Its
//! default `offline` feature must stay on: without it, its build script
//! downloads the protocol's definition. Its `fetch` feature, which downloads a
//! browser, is off.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::protocol::cdp::{Network, Page};
use headless_chrome::{Browser, LaunchOptions};

/// The report's Content-Security-Policy, as the fixtures below carry it.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// Everything one page load showed the browser.
#[derive(Debug, Default)]
struct Loaded {
    /// Console and log messages, each with its level and `[source] text (url)`.
    console: Vec<Message>,
    /// Requests for anything but the page itself (`data:` URLs are no request).
    requests: Vec<String>,
    /// Requests that failed or were blocked, with the reason.
    failed: Vec<String>,
    /// Every `svg` inside a `.chart`: the chart's id and the svg's width and height in CSS px.
    charts: Vec<(String, f64, f64)>,
    pdf: Vec<u8>,
    png: Vec<u8>,
}

#[derive(Debug, Clone)]
struct Message {
    level: String,
    text: String,
}

impl Loaded {
    /// What fails the report's checks, one line each; empty when the page is clean.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.console {
            if matches!(m.level.as_str(), "error" | "assert") {
                out.push(format!("console error: {}", m.text));
            }
        }
        out.extend(self.requests.iter().map(|r| format!("network request: {r}")));
        out.extend(self.failed.iter().map(|r| format!("request failed or blocked: {r}")));
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

/// Collects a page's console, log and network events as they come.
#[derive(Default)]
struct Recorder {
    page_url: String,
    loaded: Loaded,
    /// Request id to URL, to name the requests that fail.
    urls: HashMap<String, String>,
}

impl Recorder {
    fn on(&mut self, event: &Event) {
        match event {
            Event::LogEntryAdded(e) => {
                let entry = &e.params.entry;
                self.loaded.console.push(Message {
                    level: field(entry, "level"),
                    text: format!(
                        "[{}] {} ({})",
                        field(entry, "source"),
                        entry.text,
                        entry.url.as_deref().unwrap_or("")
                    ),
                });
            }
            Event::RuntimeConsoleAPICalled(e) => {
                let args: Vec<String> = e
                    .params
                    .args
                    .iter()
                    .map(|a| {
                        a.value.as_ref().map(ToString::to_string).or_else(|| a.description.clone()).unwrap_or_default()
                    })
                    .collect();
                self.loaded
                    .console
                    .push(Message { level: field(&e.params, "type"), text: format!("[console] {}", args.join(" ")) });
            }
            Event::RuntimeExceptionThrown(e) => {
                let details = &e.params.exception_details;
                let description = details.exception.as_ref().and_then(|x| x.description.as_deref()).unwrap_or("");
                self.loaded.console.push(Message {
                    level: "error".into(),
                    text: format!("[exception] {} {description}", details.text),
                });
            }
            Event::NetworkRequestWillBeSent(e) => {
                let url = &e.params.request.url;
                self.urls.insert(e.params.request_id.clone(), url.clone());
                if *url != self.page_url && !url.starts_with("data:") {
                    self.loaded.requests.push(url.clone());
                }
            }
            Event::NetworkLoadingFailed(e) => {
                let id = &e.params.request_id;
                let url = self.urls.get(id).cloned().unwrap_or_else(|| format!("request {id}"));
                let reason = match field(&e.params, "blockedReason") {
                    blocked if !blocked.is_empty() => format!("blocked: {blocked}"),
                    _ => e.params.error_text.clone(),
                };
                self.loaded.failed.push(format!("{url} ({reason})"));
            }
            _ => {}
        }
    }
}

/// One string field of a protocol object as Chromium sent it (its enums
/// included), or "" when absent.
fn field(object: &impl serde::Serialize, key: &str) -> String {
    let json = serde_json::to_value(object).unwrap_or_default();
    json.get(key).and_then(|v| v.as_str()).unwrap_or_default().to_owned()
}

fn required() -> bool {
    std::env::var("HEAT_REQUIRE_BROWSER").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The browser to drive: `HEAT_CHROMIUM` (taken as given: a wrong path fails
/// the launch), else the first of chromium, chromium-browser, google-chrome on PATH.
fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HEAT_CHROMIUM").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Chromium, or `None` after saying the test is skipped (a failure under
/// `HEAT_REQUIRE_BROWSER=1`). The line goes to stderr past the test
/// harness's capture, so it shows even when the test passes.
fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        assert!(
            !required(),
            "HEAT_REQUIRE_BROWSER is set but no Chromium was found: set HEAT_CHROMIUM or put \
             chromium, chromium-browser or google-chrome on PATH (Debian: apt-get install chromium)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: no Chromium (HEAT_CHROMIUM unset; none of chromium, chromium-browser, \
             google-chrome on PATH). Install it (apt-get install chromium) or set HEAT_REQUIRE_BROWSER=1 to fail instead."
        );
    }
    found
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
    let options = LaunchOptions::default_builder()
        .path(Some(chromium.to_path_buf()))
        // Chromium refuses to start as root with its sandbox, and CI runs as
        // root; the page is a local file written by the test.
        .sandbox(false)
        .window_size(Some((1280, 900)))
        .idle_browser_timeout(Duration::from_secs(120))
        .args(vec![
            // No host resolves but loopback: whatever a page asks for, nothing leaves the machine.
            std::ffi::OsStr::new("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
            std::ffi::OsStr::new("--hide-scrollbars"),
        ])
        .build()
        .expect("launch options");
    let browser = Browser::new(options).unwrap_or_else(|e| panic!("{} did not start: {e:#}", chromium.display()));
    let tab = browser.new_tab().expect("a tab");
    tab.set_default_timeout(Duration::from_secs(60));

    let recorder = Arc::new(Mutex::new(Recorder { page_url: url.clone(), ..Recorder::default() }));
    let listener = Arc::clone(&recorder);
    tab.add_event_listener(Arc::new(move |event: &Event| listener.lock().expect("the recorder").on(event)))
        .expect("an event listener");
    tab.enable_log().expect("Log.enable");
    tab.enable_runtime().expect("Runtime.enable");
    tab.call_method(Network::Enable {
        max_total_buffer_size: None,
        max_resource_buffer_size: None,
        max_post_data_size: None,
        report_direct_socket_traffic: None,
        enable_durable_messages: None,
    })
    .expect("Network.enable");

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

    // The whole page, not only the window: the layout's full height.
    let size = tab.call_method(Page::GetLayoutMetrics(None)).expect("layout metrics").css_content_size;
    let shot = tab
        .call_method(Page::CaptureScreenshot {
            format: Some(Page::CaptureScreenshotFormatOption::Png),
            quality: None,
            clip: Some(Page::Viewport { x: 0.0, y: 0.0, width: size.width, height: size.height, scale: 1.0 }),
            from_surface: Some(true),
            capture_beyond_viewport: Some(true),
            optimize_for_speed: None,
        })
        .expect("a screenshot")
        .data;
    let png = base64::engine::general_purpose::STANDARD.decode(shot).expect("the screenshot's base64");
    let pdf = tab.print_to_pdf(None).expect("print to PDF");

    let mut loaded = std::mem::take(&mut recorder.lock().expect("the recorder").loaded);
    loaded.charts = charts;
    loaded.png = png;
    loaded.pdf = pdf;
    loaded
}

/// Where CI collects artefacts: `$CARGO_TARGET_DIR/ci-artifacts`, else `target/ci-artifacts`.
fn artifacts_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    let dir = target.join("ci-artifacts");
    std::fs::create_dir_all(&dir).expect("the artefacts directory");
    dir
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
    eprintln!("screenshot: {}; console: {:#?}", shot.display(), loaded.console);
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
    eprintln!("console: {:#?}", loaded.console);
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
