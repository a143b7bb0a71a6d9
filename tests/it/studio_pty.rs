//! The studio end to end: the real binary in a pseudo-terminal (read back
//! through a vt100 parser) against the mock Anthropic server. Keys pause,
//! inject, pin and force; the screen and the requests the server received
//! show each took effect.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use std::time::{Duration, Instant};

use heat::debate::DebateEvent;
use heat::store::Store;
use studio_support::pty::{Studio, spawn_heat, wait_logged};
use support::mock_llm::{Gate, MockLlm, Recorded, Reply, anthropic_sse};

const INJECTED: &str = "What about junior staff?";
const API_KEY: &str = "sk-ant-test-pty-7d2e";

/// Slow enough that a person can pause mid-stream.
fn reply(request: &Recorded) -> Reply {
    studio_support::remote_work_duel(request, Duration::from_millis(120))
}

fn open_studio(data: &std::path::Path, server: &MockLlm) -> Studio {
    open_heat(data, server, &["--max-rounds", "4", "Remote work beats the office"])
}

fn open_heat(data: &std::path::Path, server: &MockLlm, args: &[&str]) -> Studio {
    open_heat_with(data, server, args, &[])
}

fn open_heat_with(data: &std::path::Path, server: &MockLlm, args: &[&str], env: &[(&str, &str)]) -> Studio {
    spawn_heat(data, data, Some((&server.base_url, API_KEY)), args, env)
}

fn debater_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| !r.system().contains("You are the JUDGE")).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_steer_a_live_debate_in_a_terminal() {
    // Each round's verdict waits to be let go: the pause lands in round 1, the force in round 2.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);

    studio.wait_for("the debate to go live", |s| s.contains("● LIVE") && s.contains("Remote work beats")).await;
    studio.wait_for("both debaters to stream", |s| s.contains("Remote work") && s.contains("Offices")).await;
    studio.keys(" ");
    studio.wait_for("the pause", |s| s.contains("PAUSED")).await;

    studio.keys("i");
    studio.wait_for("the inject dialog", |s| s.contains("Inject a topic")).await;
    studio.keys(INJECTED);
    studio.keys("\r");
    studio.wait_for("the injection to show", |s| s.contains("1 injected topic waiting")).await;

    studio.keys("t");
    studio.wait_for("the heat dialog", |s| s.contains("Pin the heat")).await;
    studio.keys("0.45\r");
    studio.wait_for("the pin to show", |s| s.contains("PINNED") && s.contains("heat 0.45")).await;

    verdicts.let_go(1);
    studio.keys(" ");
    studio.wait_for("round 2", |s| s.contains("Round 2 of 4")).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while debater_requests(&server).len() < 4 {
        assert!(Instant::now() < deadline, "round 2's debaters never called the server");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }

    // Round 2's requests carry the pinned heat and the injected topic.
    let round_two = &debater_requests(&server)[2..4];
    for request in round_two {
        let temperature = request.body["temperature"].as_f64().unwrap();
        assert!((temperature - 0.45).abs() < 1e-6, "sent temperature {temperature}");
        assert!(request.body.to_string().contains(INJECTED), "the injected topic is missing from {}", request.body);
    }
    for request in &debater_requests(&server)[..2] {
        assert!(!request.body.to_string().contains(INJECTED), "round 1 already carried the injection");
    }

    studio.keys("r");
    studio.wait_for("the force dialog", |s| s.contains("Force a resolution?")).await;
    studio.keys("y");
    wait_logged(data.path(), "resolution_forced").await;
    verdicts.open();
    studio.wait_for("the forced ending", |s| s.contains("Debate over: resolution forced")).await;
    studio.keys("e");
    studio.wait_for("the export", |s| s.contains("Exported to")).await;
    // A second export never replaces the first: it takes a fresh name.
    studio.keys("e");
    studio.wait_for("the second export", |s| s.contains("-2.md")).await;

    studio.keys("q");
    let status = studio.wait_exit().await;
    assert!(status.success(), "exit status {status:?}");

    // Nothing heat wrote holds the API key; the export is there.
    let mut files = vec![data.path().to_path_buf()];
    let mut exported = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains(API_KEY), "{} holds the API key", path.display());
        exported += usize::from(path.file_name().unwrap().to_string_lossy().ends_with(".md"));
    }
    assert_eq!(exported, 2, "e wrote two Markdown exports");

    // The session log holds every steering action.
    let events = session_events(data.path());
    for wanted in ["paused", "resumed", "topic_injected", "temperature_pinned", "resolution_forced", "finished"] {
        assert!(
            events.iter().any(|e| serde_json::to_value(e).unwrap()["type"] == wanted),
            "no {wanted} event in the log"
        );
    }
    studio.wait_restored().await;
}

fn session_events(data: &std::path::Path) -> Vec<DebateEvent> {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_or_a_closed_terminal_mid_stream_restores_the_terminal_and_saves_the_debate() {
    // SIGHUP is what a closed terminal window sends: it ends the same way.
    for signal in ["-TERM", "-HUP"] {
        // Round 1's verdict is never let go: the debate is live when the signal comes.
        let server =
            MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &Gate::default())).await;
        let data = tempfile::tempdir().unwrap();
        let mut studio = open_studio(data.path(), &server);
        studio.wait_for("both debaters to stream", |s| s.contains("Remote work gives") && s.contains("Offices")).await;
        let pid = studio.child.process_id().unwrap();
        let killed = std::process::Command::new("kill").args([signal, &pid.to_string()]).status().unwrap();
        assert!(killed.success());
        studio.wait_exit().await;
        studio.wait_restored().await;
        let events = session_events(data.path());
        assert!(
            matches!(events.last(), Some(DebateEvent::Finished { outcome: heat::debate::Outcome::Cancelled, .. })),
            "{signal}: the log should end with a cancelled finish, ends with {:?}",
            events.last()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_quit_debate_resumes_in_the_studio_where_it_stopped() {
    // Round 1's verdict waits until the first studio has quit, round 2's for good: both quit a live debate.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    studio.wait_for("both debaters to stream", |s| s.contains("Remote work gives") && s.contains("Offices")).await;
    studio.keys("q");
    studio.wait_for("the quit question", |s| s.contains("Quit while the debate streams?")).await;
    studio.keys("y");
    studio.wait_exit().await;
    let first = session_events(data.path());
    assert!(matches!(first.last(), Some(DebateEvent::Finished { outcome: heat::debate::Outcome::Cancelled, .. })));

    verdicts.let_go(1);
    let mut studio = open_heat(data.path(), &server, &["resume"]);
    studio.wait_for("the resumed session", |s| s.contains("Resumed session") && s.contains("Round 1 of 4")).await;
    studio.wait_for("round 2", |s| s.contains("Round 2 of 4")).await;
    // Round 1's transcript is on screen, not only what streamed since.
    studio.wait_for("the round 1 heading", |s| s.contains("Round 1 · heat 0.90")).await;
    studio.keys(" ");
    studio.wait_for("the pause", |s| s.contains("PAUSED")).await;
    studio.keys("q");
    // Paused, the question says so (not "while the debate streams").
    studio.wait_for("the quit question", |s| s.contains("Quit while the debate is paused?")).await;
    studio.keys("y");
    studio.wait_exit().await;
    let events = session_events(data.path());
    assert!(events.len() > first.len(), "the resumed debate appended to the same log");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::Reopened)), "no reopened event");
    assert_eq!(
        events.iter().filter(|e| matches!(e, DebateEvent::Started { .. })).count(),
        1,
        "resuming must not start a second debate"
    );
}

const HOSTILE: &str = "SAFE-START \u{1b}]0;pwned title\u{7}\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\u{1b}[H\u{7}\u{0}\u{202e}\u{1b}P1$qm\u{1b}\\ SAFE-END";

#[tokio::test(flavor = "multi_thread")]
async fn escape_sequences_from_a_model_never_reach_the_terminal() {
    let server = MockLlm::with_handler(|request: &Recorded| {
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "SAFE-VERDICT \u001b]0;judge title\u0007 done", "topic": "t", "heat": 0.5}"#
        } else {
            HOSTILE
        };
        Reply::sse(&anthropic_sse(&[text], Some("\u{1b}]52;c;dGhpbmtpbmc=\u{7}thinking")), 16)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    // The debate resolves at once: its results open over the panes, and Esc shows them.
    studio.wait_for("the results", |s| s.contains("Resolved by the judge after 1 round")).await;
    studio.keys("\u{1b}");
    studio
        .wait_for("the hostile text, drawn inert", |s| s.matches("SAFE-START").count() >= 2 && s.contains("SAFE-END"))
        .await;
    studio.wait_for("the verdict", |s| s.contains("SAFE-VERDICT")).await;
    {
        let parser = studio.screen.lock().unwrap();
        let watch = parser.callbacks();
        assert!(watch.titles.is_empty(), "a model set the window title: {:?}", watch.titles);
        assert!(watch.clipboard.is_empty(), "a model wrote the clipboard: {:?}", watch.clipboard);
        assert_eq!(watch.bells, 0, "a model rang the bell");
        let text = parser.screen().contents();
        assert!(text.contains("heat") && text.contains("Round 1 of 4"), "the screen was cleared:\n{text}");
        assert!(!text.contains('\u{202e}'), "a bidi override reached the screen");
    }
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_key_reads_as_a_sentence_with_its_fix_in_the_studio() {
    let server = MockLlm::with_handler(|_: &Recorded| Reply::refused_key()).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    studio
        .wait_for("the failure and its fix", |s| {
            s.contains("authentication failed (401)") && s.contains("check ANTHROPIC_API_KEY")
        })
        .await;
    assert!(!studio.text().contains(API_KEY), "the key reached the screen");
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_theme_is_one_sentence_and_the_terminal_is_left_as_it_was() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_heat(data.path(), &server, &["--theme", "no-such-theme", "Remote work beats the office"]);
    let status = studio.wait_exit().await;
    assert!(!status.success());
    studio.wait_restored().await;
    studio.wait_for("the error sentence", |s| s.contains("heat: ") && s.contains("no-such-theme")).await;
    assert!(server.requests().is_empty(), "no debate starts with a broken theme");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_studio_takes_the_mouse_unless_told_not_to() {
    let server = MockLlm::with_handler(reply).await;
    for (setting, taken) in [(None, true), (Some("false"), false)] {
        let data = tempfile::tempdir().unwrap();
        let env: Vec<(&str, &str)> = setting.map(|v| ("HEAT_MOUSE", v)).into_iter().collect();
        let mut studio = open_heat_with(data.path(), &server, &[], &env);
        studio.wait_for("the start screen", |s| s.contains("Who debates")).await;
        let mode = studio.screen.lock().unwrap().screen().mouse_protocol_mode();
        assert_eq!(mode != vt100::MouseProtocolMode::None, taken, "HEAT_MOUSE={setting:?}: {mode:?}");
        studio.keys("\x1b");
        studio.wait_exit().await;
        studio.wait_restored().await;
        let mode = studio.screen.lock().unwrap().screen().mouse_protocol_mode();
        assert_eq!(mode, vt100::MouseProtocolMode::None, "the mouse is handed back");
    }
}

/// A stored copy of the bundled demo debate; returns its id.
fn store_demo(data: &std::path::Path) -> String {
    let demo = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo-session.jsonl")).unwrap();
    let loaded = heat::store::log::parse(&demo).unwrap();
    let store = Store::open(data).unwrap();
    let mut recorder = store.create().unwrap();
    for record in &loaded.records {
        assert_eq!(recorder.record(&record.event), None);
    }
    recorder.id().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_says_it_ended_offers_what_works_and_exports_what_it_plays() {
    let data = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let id = store_demo(data.path());
    let mut studio = spawn_heat(data.path(), cwd.path(), None, &["replay", &id, "--instant"], &[]);
    // A stored copy of the demo is still scripted, and says so.
    studio.wait_for("the end of the replay", |s| s.contains("SCRIPTED DEMO · ended")).await;
    // (The frame may still be arriving when the header shows the end: wait for its last line.)
    studio.wait_for("nothing left to pause", |s| s.contains("e export") && !s.contains("pause replay")).await;

    // Help leaves out what only a live debate does, and, the replay over, its playback keys.
    studio.keys("?");
    studio.wait_for("help", |s| s.contains("works in a live debate, not in a")).await;
    let help = studio.text();
    assert!(!help.contains("inject a topic") && !help.contains("pause or resume the replay"), "{help}");
    studio.keys("\x1b");
    // (A key sent with the Esc would read as Alt and that key.)
    studio.wait_for("help to close", |s| !s.contains("works in a live debate")).await;

    // e exports the replayed debate, under a fresh name each time.
    studio.keys("e");
    studio.wait_for("the export", |s| s.contains("Exported to") && s.contains(&format!("heat-{id}.md"))).await;
    studio.keys("e");
    studio.wait_for("the second export", |s| s.contains(&format!("heat-{id}-2.md"))).await;
    assert!(cwd.path().join(format!("heat-{id}.md")).is_file());

    // Where nothing can be written, the sentence says how else to get it.
    let gone = cwd.path().to_path_buf();
    drop(cwd);
    assert!(!gone.exists());
    studio.keys("e");
    studio
        .wait_for("the failed export", |s| {
            s.contains("Export failed") && s.contains(&format!("`heat export {id} -o FILE` writes it elsewhere"))
        })
        .await;
    studio.keys("q");
    let status = studio.wait_exit().await;
    assert!(status.success(), "exit status {status:?}");
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_replay_exports_too() {
    let data = tempfile::tempdir().unwrap();
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--instant"], &[]);
    studio.wait_for("the end of the replay", |s| s.contains("SCRIPTED DEMO · ended")).await;
    studio.keys("e");
    studio.wait_for("the export", |s| s.contains("Exported to")).await;
    let exported = std::fs::read_dir(data.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "md"))
        .count();
    assert_eq!(exported, 1);
    studio.keys("q");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_results_ask_for_a_summary_and_write_the_report() {
    let server = MockLlm::with_handler(|request: &Recorded| {
        let text = if request.system().contains("You are the ARBITER") {
            "## Verdict\nThe advocate has it.\n\n## Recommended actions\n- Try it for a quarter."
        } else if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "The advocate's argument for remote work held, and the skeptic's argument for the office did not answer it.", "topic": "t", "heat": 0.5}"#
        } else {
            "An argument for its side."
        };
        Reply::sse(&anthropic_sse(&[text], None), 16)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    studio
        .wait_for("the results", |s| s.contains("Resolved by the judge after 1 round") && s.contains("a summary"))
        .await;
    studio.keys("a");
    // The summary as Markdown: its heading, then its words.
    studio.wait_for("the summary", |s| s.contains("Summary:") && s.contains("The advocate has it.")).await;
    studio.keys("w");
    studio.wait_for("the report's path", |s| s.contains("Report: ")).await;
    studio.keys("qq");
    studio.wait_exit().await;
    // The summary is kept with the session, and the report carries it.
    let sessions: Vec<_> = std::fs::read_dir(data.path().join("sessions"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .collect();
    let log = std::fs::read_to_string(sessions[0].path()).unwrap();
    assert!(log.contains("\"type\":\"summarized\"") && log.contains("Try it for a quarter"), "{log}");
    let report = std::fs::read_dir(data.path().join("reports")).unwrap().flatten().next().unwrap().path();
    let html = std::fs::read_to_string(report).unwrap();
    assert!(html.contains("Summary for a decision") && html.contains("The advocate has it."));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_persons_verdict_ends_a_live_debate() {
    // Round 1's verdict waits until the person's is recorded: it ends round 1.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    studio.wait_for("the debaters to stream", |s| s.contains("● LIVE") && s.contains("Remote work")).await;
    studio.keys("v");
    studio.wait_for("the verdict form", |s| s.contains("Your verdict") && s.contains("‹ even ›")).await;
    // ← the advocate, ↑ 55 %, a note, Ctrl-E ends the debate, Enter records.
    studio.keys("\u{1b}[D");
    studio.keys("\u{1b}[A");
    studio.keys("clear win");
    studio.keys("\u{5}");
    studio.wait_for("the choice", |s| s.contains("‹ advocate ›") && s.contains("[x] end the debate")).await;
    studio.keys("\r");
    wait_logged(data.path(), "human_verdict").await;
    verdicts.open();
    studio.wait_for("the person's resolution", |s| s.contains("Resolution forced after 1 round")).await;
    studio.keys("\u{1b}");
    studio.wait_for("the verdict beside the judge's", |s| s.contains("You, round 1: advocate ahead, 55% sure")).await;
    studio.keys("q");
    studio.wait_exit().await;
    let sessions: Vec<_> = std::fs::read_dir(data.path().join("sessions")).unwrap().flatten().collect();
    let log = sessions.iter().find(|e| e.path().extension().is_some_and(|x| x == "jsonl")).unwrap().path();
    let log = std::fs::read_to_string(log).unwrap();
    assert!(log.contains("\"type\":\"human_verdict\"") && log.contains("\"ends\":true"), "{log}");
    assert!(log.contains("\"kind\":\"forced\""), "the debate ended as the person's resolution");
}

#[tokio::test(flavor = "multi_thread")]
async fn b_branches_a_live_debate_after_its_first_round() {
    // Round 1's verdict goes, round 2's never: the parent stays in its
    // second round (live, round 1 the last finished) however slowly the keys
    // below reach it.
    let verdicts = Gate::default();
    verdicts.let_go(1);
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open_studio(data.path(), &server);
    // The verdict read, not only streamed (its text shows as it streams; no round is finished before it is read).
    studio
        .wait_for("round 1's verdict", |s| {
            s.contains("● LIVE") && s.contains("Both sides hold ground.") && s.contains("not resolved · heat → 0.60")
        })
        .await;
    studio.keys("b");
    studio.wait_for("the branch form", |s| s.contains("round 1") && s.contains("as the judge set it")).await;
    // Ctrl-S swaps the sides; the typed text is a note for the next round.
    studio.keys("\u{13}");
    studio.keys("Mind the juniors");
    studio
        .wait_for("the choices", |s| s.contains("swapped: each model argues") && s.contains("Mind the juniors"))
        .await;
    studio.keys("\r");
    studio
        .wait_for("the branch and the stopped parent named", |s| {
            s.contains("Branched ") && s.contains("was stopped and saved")
        })
        .await;
    studio.wait_for("the branch to argue", |s| s.contains("● LIVE")).await;
    let asked =
        |server: &MockLlm| debater_requests(server).iter().any(|r| r.last_message().contains("Mind the juniors"));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !asked(&server) {
        assert!(std::time::Instant::now() < deadline, "the note never reached a debater");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    studio.keys("q");
    studio.wait_for("the quit question", |s| s.contains("Quit?") || s.contains("quit")).await;
    studio.keys("y");
    studio.wait_exit().await;

    let logs: Vec<String> = std::fs::read_dir(data.path().join("sessions"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(logs.len(), 2, "the parent and its branch");
    let child = logs.iter().find(|l| l.contains("\"type\":\"branched\"")).expect("a branch was stored");
    let parent = logs.iter().find(|l| !l.contains("\"type\":\"branched\"")).expect("the parent stays");
    assert!(child.contains("\"round\":1") && child.contains("sides swapped, note \\\"Mind the juniors\\\""), "{child}");
    // (What the branch's turns were sent quotes the shared round, as the models read it.)
    let events: String = child.lines().filter(|l| !l.contains("\"type\":\"request_sent\"")).collect();
    assert!(!events.contains("Both sides hold ground."), "the shared round is read from the parent, not copied");
    assert!(parent.contains("\"kind\":\"cancelled\""), "the parent was stopped and saved");
}
