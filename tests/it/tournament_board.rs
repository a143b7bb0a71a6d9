//! `heat tournament` at a terminal: the real binary in a pseudo-terminal
//! against the mock that plays three models and a judge. The board shows
//! the debates running and the standings; space holds the tournament (no
//! model is asked while held); Enter watches the chosen debate in the
//! studio and leaving the watch shows the board again; q twice stops it,
//! saved, and a resume without a terminal runs only what is missing.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use crate::studio_support::pty::{Studio, spawn_heat};
use crate::tournament::{file, heat, journal, server};

/// The models' turns asked for so far (not the servers' model lists).
fn asked(server: &crate::support::mock_llm::MockLlm) -> usize {
    server.requests().iter().filter(|r| r.body["messages"].is_array()).count()
}

/// Presses q until the board shows again (a watch may first close its results).
async fn leave_the_watch(studio: &mut Studio) {
    for _ in 0..10 {
        if studio.text().contains("heat · tournament") {
            return;
        }
        studio.keys("q");
        tokio::time::sleep(Duration::from_millis(600)).await;
    }
    panic!("the board did not come back:\n{}", studio.text());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_board_holds_watches_and_stops_a_tournament_that_resumes_where_it_stopped() {
    let server = server(Duration::from_millis(120)).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("t.toml"), file(5, 2)).unwrap();
    let base = format!("{}/v1", server.base_url);
    let env = [("OPENAI_API_KEY", "sk-test-openai"), ("OPENAI_BASE_URL", base.as_str())];
    let mut board = spawn_heat(data.path(), data.path(), None, &["tournament", "t.toml"], &env);
    board
        .wait_for("two debates running", |s| {
            s.contains("● RUNNING") && s.contains("Running (2)") && s.contains(" for · ")
        })
        .await;

    // Held once both debates have their sessions and a model has been asked.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while journal(data.path()).1.len() < 2 || asked(&server) == 0 {
        assert!(std::time::Instant::now() < deadline, "the debates did not begin:\n{}", board.text());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    board.keys(" ");
    board.wait_for("the hold", |s| s.contains("‖ HELD")).await;
    // What was asked before the hold reached the debates has been answered.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (before, (_, began, _)) = (asked(&server), journal(data.path()));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(asked(&server), before, "no model is asked while the tournament is held");
    assert_eq!(journal(data.path()).1, began, "no debate begins while the tournament is held");
    // Enter watches the chosen debate in the studio; leaving it shows the board again.
    board.keys("\r");
    board.wait_for("the watch", |s| s.contains("· watching 2")).await;
    leave_the_watch(&mut board).await;
    board.wait_for("the board again, still held", |s| s.contains("‖ HELD") && s.contains("Running (2)")).await;
    assert_eq!(asked(&server), before, "the watch let nothing go on");

    board.keys("q");
    board.wait_for("the question", |s| s.contains("q again stops it")).await;
    board.keys("q");
    let status = board.wait_exit().await;
    assert_eq!(status.exit_code(), 130, "stopped, not ended: {}", board.text());
    board.wait_restored().await;
    let (_, began, finished) = journal(data.path());
    assert!(finished.len() < 12, "it stopped before the end: {finished:?}");

    let mut resume = heat(data.path(), &server);
    resume.args(["tournament", "resume"]);
    let out = tokio::task::spawn_blocking(move || resume.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", crate::support::binary::stderr(&out));
    let (_, resumed, finished) = journal(data.path());
    assert_eq!(finished.len(), 12, "every planned debate finished once: {finished:?}");
    for (key, sessions) in &began {
        assert_eq!(resumed[key], *sessions, "a debate begun before the stop went on in its own session");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kill_or_a_closed_terminal_stops_the_board_saved_and_restores_the_terminal() {
    let server = server(Duration::from_millis(120)).await;
    let base = format!("{}/v1", server.base_url);
    let env = [("OPENAI_API_KEY", "sk-test-openai"), ("OPENAI_BASE_URL", base.as_str())];
    for signal in ["-TERM", "-HUP"] {
        let data = tempfile::tempdir().unwrap();
        std::fs::write(data.path().join("t.toml"), file(5, 2)).unwrap();
        let mut board = spawn_heat(data.path(), data.path(), None, &["tournament", "t.toml"], &env);
        board.wait_for("debates running", |s| s.contains("● RUNNING") && s.contains("Running (2)")).await;
        let pid = board.child.process_id().unwrap();
        let killed = std::process::Command::new("kill").args([signal, &pid.to_string()]).status().unwrap();
        assert!(killed.success());
        let status = board.wait_exit().await;
        board.wait_restored().await;
        assert_eq!(status.exit_code(), 130, "{signal}: stopped, saved: {}", board.text());
        let tournaments = heat::store::tournaments::Tournaments::open(data.path()).unwrap();
        let id = tournaments.resolve(None, true).unwrap();
        assert!(!tournaments.load(&id).unwrap().ended(), "{signal}: it stopped before its end and can resume");
    }
}
