//! Ctrl-C in the studio ends it as SIGINT ends a Unix tool, and as `heat
//! run` ends: exit status 130, the terminal restored, a live debate saved.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use std::time::Duration;

use heat::debate::{DebateEvent, Outcome};
use heat::store::Store;
use studio_support::pty::spawn_heat;
use support::mock_llm::{Gate, MockLlm};

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_in_a_replay_exits_130_with_the_terminal_restored() {
    let data = tempfile::tempdir().unwrap();
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo"], &[]);
    studio.wait_for("the replay", |s| s.contains("SCRIPTED DEMO")).await;
    studio.keys("\x03");
    let status = studio.wait_exit().await;
    assert_eq!(status.exit_code(), 130, "{status:?}");
    studio.wait_restored().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_in_a_live_debate_saves_it_and_exits_130() {
    // Round 1's verdict is never let go: the debate is live when Ctrl-C comes.
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &Gate::default())).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = spawn_heat(
        data.path(),
        data.path(),
        Some((&server.base_url, "sk-ant-test-interrupt")),
        &["--max-rounds", "3", "Remote work beats the office"],
        &[],
    );
    studio.wait_for("both debaters to stream", |s| s.contains("Remote work gives") && s.contains("Offices")).await;
    studio.keys("\x03");
    let status = studio.wait_exit().await;
    assert_eq!(status.exit_code(), 130, "{status:?}");
    studio.wait_restored().await;
    studio.wait_for("where the debate was saved", |s| s.contains("heat: session") && s.contains(" saved (")).await;
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    assert!(
        matches!(events.last(), Some(DebateEvent::Finished { outcome: Outcome::Cancelled, .. })),
        "the log ends with {:?}",
        events.last()
    );

    // `q` is not an interruption: a studio quit so exits 0 (the first `q` closes the results).
    let mut studio = spawn_heat(data.path(), data.path(), None, &["replay", "--demo", "--instant"], &[]);
    studio.wait_for("the replay's end", |s| s.contains("DEMO · ended")).await;
    studio.keys("qq");
    assert_eq!(studio.wait_exit().await.exit_code(), 0);
}
