//! `heat report` from the binary: where it writes, and one clear sentence
//! for each bad input (an unknown id, an unwritable path, a running debate,
//! a damaged log) that still writes what can be written.

use std::path::Path;

use heat::store::Store;
use heat::store::log;

fn heat(data: &Path) -> assert_cmd::Command {
    let config = data.join("heat.toml");
    if !config.exists() {
        std::fs::write(&config, "[roles]\nprice_input = 3.0\nprice_output = 15.0\n").expect("config written");
    }
    let mut cmd = assert_cmd::Command::cargo_bin("heat").expect("the binary is built");
    cmd.arg("--config")
        .arg(&config)
        .env("HEAT_DATA_DIR", data)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// Stores the bundled demo's events as a session; returns its id and, when
/// `keep_open`, the writer that holds it (a debate still running).
fn store_demo(data: &Path, keep_open: bool) -> (String, Option<heat::store::Recorder>) {
    let demo = log::parse(include_bytes!("../assets/demo-session.jsonl")).expect("the demo loads");
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
