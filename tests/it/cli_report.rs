//! `heat report` from the binary: where it writes, and one clear sentence
//! for each bad input (an unknown id, an unwritable path, a running debate,
//! a damaged log) that still writes what can be written.

// The shared mock server's helpers unwrap.
#![allow(clippy::unwrap_used)]

use crate::support;
use crate::support::log::{Log, participant};

use std::path::Path;

use heat::debate::Heat;
use heat::store::Store;
use heat::store::log;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

fn heat(data: &Path) -> assert_cmd::Command {
    support::binary::heat(data, "[roles]\nprice_input = 3.0\nprice_output = 15.0\n")
}

/// Stores the bundled demo's events as a session; returns its id and, when
/// `keep_open`, the writer that holds it (a debate still running).
fn store_demo(data: &Path, keep_open: bool) -> (String, Option<heat::store::Recorder>) {
    let demo = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let store = Store::open(data).expect("store opens");
    let mut recorder = store.create().expect("session created");
    let events = if keep_open { &demo.records[..demo.records.len() / 2] } else { &demo.records[..] };
    for record in events {
        recorder.record(&record.event);
    }
    let id = recorder.id().to_string();
    (id, keep_open.then_some(recorder))
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn writes_to_the_data_dir_by_default_and_names_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(dir.path(), false);
    let out = heat(dir.path()).arg("report").output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let path = dir.path().join("reports").join(format!("{id}.html"));
    assert_eq!(stdout(&out).trim(), path.display().to_string());
    let html = std::fs::read_to_string(&path).expect("the report is there");
    assert!(html.contains("Remote work beats the office"));
    // The config's prices reach the header.
    assert!(html.contains("at the prices in heat.toml"), "the cost is shown");
    // Written again, it is replaced.
    let again = heat(dir.path()).args(["report", &id]).output().expect("runs");
    assert!(again.status.success(), "{}", stderr(&again));
}

#[test]
fn an_existing_file_is_kept_without_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mine.html");
    std::fs::write(&file, "keep me").expect("written");
    let out = heat(dir.path()).args(["report", "--demo", "-o"]).arg(&file).output().expect("runs");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists; pass --force"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "keep me");
    let out = heat(dir.path()).args(["report", "--demo", "--force", "-o"]).arg(&file).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&file).expect("read").starts_with("<!doctype html>"));
}

#[test]
fn an_unknown_id_names_the_nearest() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(dir.path(), false);
    // One character of the id's start mistyped.
    let mut typo: String = id.chars().take(10).collect();
    typo.replace_range(3..4, if &typo[3..4] == "9" { "8" } else { "9" });
    let out = heat(dir.path()).args(["report", &typo]).output().expect("runs");
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(said.contains(&format!("no session has an id starting with {typo:?}")), "{said}");
    assert!(said.contains(&format!("the nearest: {id}")), "{said}");
}

#[test]
fn an_unwritable_path_names_the_path_and_the_cause() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("no-such-dir").join("report.html");
    let out = heat(dir.path()).args(["report", "--demo", "-o"]).arg(&path).output().expect("runs");
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(said.contains(&format!("could not write {}", path.display())), "{said}");
    assert!(said.contains("No such file or directory"), "{said}");
}

#[test]
fn a_running_debate_gives_what_exists_so_far() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, recorder) = store_demo(dir.path(), true);
    assert!(recorder.is_some(), "the debate is still being written");
    let file = dir.path().join("live.html");
    let out = heat(dir.path()).args(["report", &id, "-o"]).arg(&file).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("is still running"), "{}", stderr(&out));
    let html = std::fs::read_to_string(&file).expect("written");
    assert!(html.contains("still running: this is what exists so far"));
    drop(recorder);
}

#[test]
fn an_ended_debate_a_studio_still_holds_is_not_said_to_be_running() {
    let dir = tempfile::tempdir().expect("temp dir");
    let demo = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let store = Store::open(dir.path()).expect("store opens");
    let mut recorder = store.create().expect("session created");
    for record in &demo.records {
        recorder.record(&record.event);
    }
    let id = recorder.id().to_string();
    let file = dir.path().join("ended.html");
    let out = heat(dir.path()).args(["report", &id, "-o"]).arg(&file).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("still running"), "the demo has ended: {}", stderr(&out));
    let html = std::fs::read_to_string(&file).expect("written");
    assert!(!html.contains("still running"), "the page does not say so either");
    drop(recorder);
}

#[test]
fn a_damaged_log_reports_what_loaded_and_what_was_skipped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(dir.path(), false);
    let path = dir.path().join("sessions").join(format!("{id}.jsonl"));
    let text = std::fs::read_to_string(&path).expect("log read");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(5, "{\"ms\": 12, \"event\": {\"type\": \"no_such_event\"}}");
    std::fs::write(&path, lines.join("\n") + "\n").expect("damaged");
    let file = dir.path().join("damaged.html");
    let out = heat(dir.path()).args(["report", &id, "-o"]).arg(&file).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&file).expect("written");
    assert!(html.contains("id=\"skipped\""), "the page says what was skipped");
    assert!(html.contains("line 6"), "and where: {}", &html[html.find("id=\"skipped\"").unwrap_or(0)..][..400]);
    assert!(html.contains("resolution forced"), "the rest loaded");
}

const SUMMARY: &str = "## Verdict\nThe skeptic has the better of it.\n\n## What was settled\n- Juniors learn slower remotely.\n\n## Trade-offs to weigh\n- Focus against mentoring.\n\n## Recommended actions\n- Budget senior time.\n\n## The minority's best point\nFocus time is real.";

#[tokio::test(flavor = "multi_thread")]
async fn a_summary_is_asked_of_the_judge_recorded_and_reported() {
    let server = MockLlm::with_handler(|_: &Recorded| {
        let words: Vec<&str> = SUMMARY.split_inclusive(' ').collect();
        Reply::sse(&anthropic_sse(&words, None), 64)
    })
    .await;
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(dir.path(), false);
    let file = dir.path().join("with-summary.html");
    let mut cmd = heat(dir.path());
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e")
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .args(["report", &id, "--summary", "-o"])
        .arg(&file);
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("runs")).await.expect("joined");
    assert!(out.status.success(), "{}", stderr(&out));
    // It streams as it is written, and goes to the judge's model with the debate in brief.
    assert!(stderr(&out).contains("The skeptic has the better of it."), "{}", stderr(&out));
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one call, to the judge");
    assert!(requests[0].system().contains("You are the ARBITER"));
    let asked = requests[0].last_message();
    assert!(
        asked.contains("Proposition: Remote work beats the office") && asked.contains("Round 4 question:"),
        "{asked}"
    );
    // Recorded in the session: the page, the export and a later report have it without asking again.
    let html = std::fs::read_to_string(&file).expect("written");
    assert!(
        html.contains("id=\"summary\"") && html.contains("<h3>Verdict</h3>"),
        "the summary tops the page, its sections under its heading"
    );
    let state = {
        let loaded = Store::open(dir.path()).expect("store").load(&id).expect("loads");
        heat::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event))
    };
    assert!(state.summary.as_ref().is_some_and(|s| s.text.contains("Budget senior time")), "{:?}", state.summary);
    let export = heat(dir.path()).args(["export", &id]).output().expect("runs");
    let md = stdout(&export);
    assert!(md.contains("## Summary for a decision") && md.contains("### Verdict"), "{md}");
}

#[test]
fn a_summary_waits_for_the_debate_to_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, recorder) = store_demo(dir.path(), true);
    drop(recorder);
    let out = heat(dir.path()).args(["report", &id, "--summary"]).output().expect("runs");
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&format!("session {id} has not ended")), "{}", stderr(&out));
}

#[test]
fn a_markdown_export_to_a_file_draws_its_charts_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(dir.path(), false);
    let file = dir.path().join("debate.md");
    let out = heat(dir.path()).args(["export", &id, "-o"]).arg(&file).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let md = std::fs::read_to_string(&file).expect("written");
    assert!(md.contains("![Heat per round](debate-heat.svg)") && md.contains("(debate-words.svg)"), "{md}");
    for chart in ["debate-heat.svg", "debate-words.svg"] {
        let svg = std::fs::read_to_string(dir.path().join(chart)).expect("the chart is beside it");
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{chart}");
    }
    // Without images (and to standard output) the charts are text.
    let other = dir.path().join("plain.md");
    let out = heat(dir.path()).args(["export", &id, "--no-images", "-o"]).arg(&other).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let md = std::fs::read_to_string(&other).expect("written");
    assert!(md.contains("## Heat per round\n\n`") && md.contains("| Round | Advocate | Skeptic |"), "{md}");
    assert!(!dir.path().join("plain-heat.svg").exists());
}

#[test]
fn compare_sets_two_debates_side_by_side_and_says_where_they_part() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (first, _) = store_demo(dir.path(), false);
    let (same, _) = store_demo(dir.path(), false);
    // A third whose round 3 ran at another heat.
    let demo = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let mut recorder = Store::open(dir.path()).expect("store").create().expect("created");
    for record in &demo.records {
        let mut event = record.event.clone();
        if let heat::debate::DebateEvent::RoundStarted { round: 2, heat, .. } = &mut event {
            *heat = Heat::new(0.6);
        }
        recorder.record(&event);
    }
    let other = recorder.id().to_string();
    drop(recorder);

    let out = heat(dir.path()).args(["compare", &first, &same]).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("They are the same through all 4 rounds."), "{text}");
    assert!(
        text.contains("outcome    resolution forced after 4 rounds       resolution forced after 4 rounds"),
        "{text}"
    );

    let out = heat(dir.path()).args(["compare", &first, &other]).output().expect("runs");
    let text = stdout(&out);
    assert!(text.contains("They part in round 3: the heat differs (0.90 and 0.60)."), "{text}");
    assert!(text.contains("0.90 → 0.70 → 0.60 → 0.50"), "{text}");
    assert!(text.lines().all(|l| l == l.trim_end()), "no trailing spaces");

    let out = heat(dir.path()).args(["compare", &first, "zzz"]).output().expect("runs");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no session has an id starting with \"zzz\""), "{}", stderr(&out));
    assert!(!text.contains("relation"), "unrelated debates have no relation line:\n{text}");
}

#[test]
fn compare_says_when_one_debate_is_a_swapped_sides_rematch_of_the_other() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (first, _) = store_demo(dir.path(), false);
    let demo = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let mut recorder = Store::open(dir.path()).expect("store").create().expect("created");
    recorder.record(&demo.records[0].event);
    recorder.record(&heat::debate::DebateEvent::Derived { from: first.clone(), how: "sides swapped".into() });
    for record in &demo.records[1..] {
        recorder.record(&record.event);
    }
    let rematch = recorder.id().to_string();
    drop(recorder);
    for (a, b, said) in [
        (&first, &rematch, "B is a rematch of A: sides swapped"),
        (&rematch, &first, "A is a rematch of B: sides swapped"),
    ] {
        let out = heat(dir.path()).args(["compare", a, b]).output().expect("runs");
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let line =
            text.lines().find(|l| l.starts_with("relation")).unwrap_or_else(|| panic!("no relation line:\n{text}"));
        assert!(line.ends_with(said), "{text}");
    }
}

/// A stored one-round debate argued by three named Anthropic models.
fn store_named(data: &Path) -> String {
    use heat::debate::{DebateEvent, Role, TurnPurpose};
    let store = Store::open(data).expect("store opens");
    let mut recorder = store.create().expect("session created");
    let seat = |role, model: &str| participant(role, "anthropic", model);
    let log = Log::new("Tabs beat spaces", 3, 0.8)
        .seated(vec![seat(Role::Advocate, "m-adv"), seat(Role::Skeptic, "m-skp"), seat(Role::Judge, "m-judge")])
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .completes(0, Role::Advocate, "For.")
        .then(DebateEvent::Finished { outcome: heat::debate::Outcome::Cancelled, synthesis: None });
    for event in log.events() {
        recorder.record(event);
    }
    recorder.id().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rematch_with_sides_swapped_seats_each_model_on_the_other_side() {
    let server = MockLlm::with_handler(|request: &Recorded| {
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "The advocate's case for tabs held against the skeptic's case for spaces.", "topic": "Tabs beat spaces", "heat": 0.3}"#
        } else if request.system().contains("You are the ADVOCATE") {
            "Tabs let every reader choose a width."
        } else {
            "Spaces render the same everywhere."
        };
        Reply::sse(&anthropic_sse(&[text], None), 64)
    })
    .await;
    let dir = tempfile::tempdir().expect("temp dir");
    let first = store_named(dir.path());
    let mut cmd = heat(dir.path());
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url).args([
        "rematch",
        &first,
        "--swap-sides",
        "--seat",
        "judge=m-arbiter",
    ]);
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("runs")).await.expect("joined");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("  a rematch of {first}: sides swapped, seat judge=m-arbiter")),
        "{}",
        stdout(&out)
    );
    assert_eq!(stdout(&out).matches("heat · ").count(), 1, "one header:\n{}", stdout(&out));
    // Each seat's request went to the model that argued the other side; the judge to the one named.
    let model_for = |who: &str| -> Vec<String> {
        server
            .requests()
            .iter()
            .filter(|r| r.system().contains(who))
            .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(model_for("You are the ADVOCATE"), vec!["m-skp"]);
    assert_eq!(model_for("You are the SKEPTIC"), vec!["m-adv"]);
    assert!(model_for("You are the JUDGE").iter().all(|m| m == "m-arbiter"));
    // A new session, the first untouched; it records where it came from, and its shape.
    let store = Store::open(dir.path()).expect("store");
    let sessions = store.list();
    assert_eq!(sessions.len(), 2);
    let rematch = sessions.iter().find(|e| e.id != first).expect("the rematch is stored").id.clone();
    let loaded = store.load(&rematch).expect("loads");
    let state = heat::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(state.origin, Some((first.clone(), "sides swapped, seat judge=m-arbiter".to_string())));
    assert_eq!((state.topic.as_str(), state.max_rounds), ("Tabs beat spaces", 3));
    assert!((state.initial_heat.get() - 0.8).abs() < 1e-6, "{}", state.initial_heat);
    let page = dir.path().join("rematch.html");
    let out = heat(dir.path()).args(["report", &rematch, "-o"]).arg(&page).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(html.contains(&format!("<dt>Rematch of</dt><dd><code>{first}</code>: sides swapped")), "the page says so");
    let listed = stdout(&heat(dir.path()).arg("sessions").output().expect("runs"));
    assert!(listed.contains(&format!("Tabs beat spaces ↳ rematch of {first}")), "{listed}");

    let demo = tempfile::tempdir().expect("temp dir");
    let (id, _) = store_demo(demo.path(), false);
    let out = heat(demo.path()).args(["rematch", &id]).output().expect("runs");
    assert!(stderr(&out).contains("argued by scripted models (the demo): they cannot argue again"), "{}", stderr(&out));
}
