//! Crash safety: `heat run` killed with SIGKILL at several points mid-debate
//! leaves a log that loads, and `heat resume` carries it to the end.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;
use std::time::{Duration, Instant};

use heat::debate::{DebateState, Outcome};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

/// The word stem one side streams.
fn side(advocate: bool) -> &'static str {
    if advocate { "pro" } else { "con" }
}

/// Debaters stream slowly (~1.4 s a turn, so a kill lands mid-turn); the
/// judge leaves round 1 open and resolves round 2.
fn reply(request: &Recorded, slow: bool) -> Reply {
    if request.system().contains("You are the JUDGE") {
        let verdict = if request.last_message().contains("Round 1 of") {
            r#"{"resolved": false, "verdict": "Both sides should go on.", "topic": "More", "heat": 0.6}"#
        } else {
            r#"{"resolved": true, "verdict": "Settled: the advocate wins.", "topic": "t", "heat": 0.3}"#
        };
        return Reply::sse(&anthropic_sse(&[verdict], None), 64);
    }
    // Each side its own words: a debater repeating the argument its prompt quotes is a failed turn.
    let side = side(request.system().contains("You are the ADVOCATE"));
    let words: Vec<String> = (0..40).map(|i| format!("{side}{i} ")).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let body = Reply::sse(&anthropic_sse(&words, None), 90);
    if slow { body.with_delay(Duration::from_millis(20)) } else { body }
}

fn heat(data: &Path, server: &MockLlm) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"));
    cmd.arg("--config")
        .arg(data.join("heat.toml"))
        .env("HEAT_DATA_DIR", data)
        .env("ANTHROPIC_API_KEY", "sk-kill-test")
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .env_remove("OPENAI_API_KEY")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    cmd
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_run_leaves_a_log_that_loads_and_resumes() {
    let slow = MockLlm::with_handler(|r| reply(r, true)).await;
    let fast = MockLlm::with_handler(|r| reply(r, false)).await;
    let mut rounds_reached = Vec::new();
    // Kill points, found in the log as it grows: both debaters streaming in
    // round 1; one debater done; both streaming in round 2.
    let points = [("\"type\":\"turn_started\"", 2), ("\"type\":\"turn_completed\"", 1), ("\"round\":1,\"role\"", 2)];
    for (needle, count) in points {
        let data = tempfile::tempdir().unwrap();
        std::fs::write(data.path().join("heat.toml"), "[debate]\nmax_rounds = 2\n").unwrap();
        let mut child = heat(data.path(), &slow).args(["run", "Kill tests beat hope"]).spawn().unwrap();
        let store = Store::open(data.path()).unwrap();
        let start = Instant::now();
        let id = loop {
            assert!(start.elapsed() < Duration::from_secs(20), "never saw {needle} x{count}");
            tokio::time::sleep(Duration::from_millis(5)).await;
            let Some(id) = store.resolve(None).ok() else { continue };
            let log = std::fs::read_to_string(store.log_path(&id)).unwrap_or_default();
            if log.matches(needle).count() >= count {
                break id;
            }
        };
        tokio::time::sleep(Duration::from_millis(150)).await; // into the stream
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let kill_after = needle;
        let loaded = store.load(&id).unwrap_or_else(|e| panic!("killed after {kill_after}: {e:#}"));
        let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
        assert!(state.finish.is_none(), "killed after {kill_after} yet finished");
        rounds_reached.push(state.rounds.len());

        let status = heat(data.path(), &fast).args(["resume", &id]).status().unwrap();
        assert!(status.success(), "resume after a kill at {kill_after} failed");
        let loaded = store.load(&id).unwrap();
        let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
        assert!(
            matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Resolved | Outcome::MaxRounds)),
            "kill at {kill_after}: {:?}",
            state.finish
        );
        for round in &state.rounds {
            for role in heat::debate::Role::DEBATERS {
                let text = round.argument(role).unwrap();
                let side = side(role == heat::debate::Role::Advocate);
                assert!(
                    text.starts_with(&format!("{side}0 ")) && text.trim_end().ends_with(&format!("{side}39")),
                    "a turn was spliced: {text}"
                );
            }
        }
    }
    assert_eq!(rounds_reached.len(), 3, "every kill landed in a live session");
    assert!(rounds_reached.contains(&2), "one kill landed in round 2: {rounds_reached:?}");
}
