//! The headless-Chromium harness the browser tests share: finding the
//! browser (or saying the test is skipped), launching it so nothing leaves
//! the machine, recording every console message and network request a tab
//! sees, a full-page screenshot, and where CI collects artefacts.
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
use headless_chrome::{Browser, LaunchOptions, Tab};

/// A console or log message: its level and `[source] text (url)`.
#[derive(Debug, Clone)]
pub struct Message {
    pub level: String,
    pub text: String,
}

/// What a tab showed the browser: its console and its requests.
#[derive(Debug, Default)]
pub struct Seen {
    /// Console and log messages, each with its level and `[source] text (url)`.
    pub console: Vec<Message>,
    /// Requests for anything but the page itself (`data:` URLs are no request).
    pub requests: Vec<String>,
    /// Requests that failed or were blocked, with the reason.
    pub failed: Vec<String>,
}

impl Seen {
    /// The console's errors (CSP and Trusted Types violations included), one line each.
    pub fn console_errors(&self) -> Vec<String> {
        self.console
            .iter()
            .filter(|m| matches!(m.level.as_str(), "error" | "assert"))
            .map(|m| format!("console error: {}", m.text))
            .collect()
    }

    /// The console's errors, every request, every failed request: one line
    /// each; empty when a page that should reach for nothing reached for nothing.
    pub fn problems(&self) -> Vec<String> {
        let mut out = self.console_errors();
        out.extend(self.requests.iter().map(|r| format!("network request: {r}")));
        out.extend(self.failed.iter().map(|r| format!("request failed or blocked: {r}")));
        out
    }
}

/// Collects a page's console, log and network events as they come.
#[derive(Default)]
pub struct Recorder {
    page_url: String,
    pub seen: Seen,
    /// Request id to URL, to name the requests that fail.
    urls: HashMap<String, String>,
}

impl Recorder {
    fn on(&mut self, event: &Event) {
        match event {
            Event::LogEntryAdded(e) => {
                let entry = &e.params.entry;
                self.seen.console.push(Message {
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
                self.seen
                    .console
                    .push(Message { level: field(&e.params, "type"), text: format!("[console] {}", args.join(" ")) });
            }
            Event::RuntimeExceptionThrown(e) => {
                let details = &e.params.exception_details;
                let description = details.exception.as_ref().and_then(|x| x.description.as_deref()).unwrap_or("");
                self.seen.console.push(Message {
                    level: "error".into(),
                    text: format!("[exception] {} {description}", details.text),
                });
            }
            Event::NetworkRequestWillBeSent(e) => {
                let url = &e.params.request.url;
                self.urls.insert(e.params.request_id.clone(), url.clone());
                if *url != self.page_url && !url.starts_with("data:") {
                    self.seen.requests.push(url.clone());
                }
            }
            Event::NetworkLoadingFailed(e) => {
                let id = &e.params.request_id;
                let url = self.urls.get(id).cloned().unwrap_or_else(|| format!("request {id}"));
                let reason = match field(&e.params, "blockedReason") {
                    blocked if !blocked.is_empty() => format!("blocked: {blocked}"),
                    _ => e.params.error_text.clone(),
                };
                self.seen.failed.push(format!("{url} ({reason})"));
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
pub fn chromium_or_skip(test: &str) -> Option<PathBuf> {
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

/// Headless Chromium with a window of `width` x `height` CSS px, resolving
/// no host but loopback.
pub fn launch(chromium: &Path, width: u32, height: u32) -> Browser {
    let options = LaunchOptions::default_builder()
        .path(Some(chromium.to_path_buf()))
        // Chromium refuses to start as root with its sandbox, and CI runs as
        // root; the pages are the test's own, local files or on loopback.
        .sandbox(false)
        .window_size(Some((width, height)))
        .idle_browser_timeout(Duration::from_secs(120))
        .args(vec![
            // No host resolves but loopback: whatever a page asks for, nothing leaves the machine.
            std::ffi::OsStr::new("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
            std::ffi::OsStr::new("--hide-scrollbars"),
        ])
        .build()
        .expect("launch options");
    Browser::new(options).unwrap_or_else(|e| panic!("{} did not start: {e:#}", chromium.display()))
}

/// Records what `tab` shows from now on (its console, log and network);
/// `page_url` is the page itself, whose own request is no request.
pub fn observe(tab: &Tab, page_url: &str) -> Arc<Mutex<Recorder>> {
    let recorder = Arc::new(Mutex::new(Recorder { page_url: page_url.to_owned(), ..Recorder::default() }));
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
    recorder
}

/// A PNG of the whole page, not only the window: the layout's full height.
pub fn full_page_png(tab: &Tab) -> Vec<u8> {
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
    base64::engine::general_purpose::STANDARD.decode(shot).expect("the screenshot's base64")
}

/// Where CI collects artefacts: `$CARGO_TARGET_DIR/ci-artifacts`, else `target/ci-artifacts`.
pub fn artifacts_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    let dir = target.join("ci-artifacts");
    std::fs::create_dir_all(&dir).expect("the artefacts directory");
    dir
}
