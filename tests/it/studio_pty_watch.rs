//! `heat watch` end to end: the real binary in three pseudo-terminals, one
//! studio debating against the mock Anthropic server and two watchers
//! following the same session. The watchers' screens end with the
//! operator's transcript; killing one changes nothing for the debate.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use std::time::Duration;

use heat::debate::DebateEvent;
use heat::store::Store;
use studio_support::pty::{Studio, spawn_heat};
use support::mock_llm::{Gate, MockLlm};

const API_KEY: &str = "sk-ant-test-watch-41c9";

/// The screen without its first row (the badge: LIVE, or watching) and
/// its last two (the status line and the keys, which differ by design).
fn transcript(studio: &Studio) -> String {
    let text = studio.text();
    let rows: Vec<&str> = text.lines().collect();
    rows[1..rows.len().saturating_sub(2)].iter().map(|r| r.trim_end()).collect::<Vec<_>>().join("\n")
}

#[tokio::test(flavor = "multi_thread")]
async fn two_watchers_follow_a_live_debate_and_one_can_go_without_harm() {
    // Round 1's verdict waits until the watchers have joined: they join a live debate.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(60), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let key = Some((server.base_url.as_str(), API_KEY));
    let args = ["--max-rounds", "2", "Remote work beats the office"];
    let mut operator = spawn_heat(data.path(), data.path(), key, &args, &[]);
    operator.wait_for("the debate to go live", |s| s.contains("● LIVE") && s.contains("Remote work beats")).await;

    let mut watchers = [(); 2].map(|()| spawn_heat(data.path(), data.path(), None, &["watch"], &[]));
    for watcher in &watchers {
        watcher.wait_for("the watch to open live", |s| s.contains("· watching 2") && s.contains("LIVE")).await;
    }
    // A steering key on a watcher is refused in one line, and sends nothing.
    watchers[0].keys(" ");
    watchers[0].wait_for("the refusal", |s| s.contains("This is a watch (read-only)")).await;

    watchers[1].child.kill().unwrap();
    watchers[1].wait_exit().await;
    verdicts.open();

    operator.wait_for("the end", |s| s.contains("Debate over")).await;
    let [watcher, _] = &mut watchers;
    watcher.wait_for("the end on the watcher", |s| s.contains("✓ ENDED · watching")).await;
    assert!(!operator.text().contains("PAUSED"), "the watcher's space paused nothing");
    // Both opened the results on the end; closed, the panes show the transcript.
    for studio in [&mut operator, &mut *watcher] {
        studio.keys("\x1b");
        studio.wait_for("the panes", |s| !s.contains("╭ Results")).await;
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while transcript(watcher) != transcript(&operator) {
        assert!(
            std::time::Instant::now() < deadline,
            "the watcher shows\n{}\nthe operator\n{}",
            transcript(watcher),
            transcript(&operator)
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    assert!(transcript(watcher).contains("Offices build trust"), "{}", transcript(watcher));

    // The watcher stays on the ended debate until asked to quit.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(watcher.child.try_wait().unwrap().is_none(), "the watcher quit by itself");
    watcher.keys("q");
    assert!(watcher.wait_exit().await.success());
    operator.keys("q");
    assert!(operator.wait_exit().await.success());

    // The debate's log is whole: two rounds, ended at the limit, nothing skipped.
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let loaded = store.load(&id).unwrap();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let events: Vec<&DebateEvent> = loaded.records.iter().map(|r| &r.event).collect();
    assert_eq!(events.iter().filter(|e| matches!(e, DebateEvent::RoundStarted { .. })).count(), 2);
    assert!(matches!(events.last(), Some(DebateEvent::Finished { .. })), "{:?}", events.last());
}

/// `heat run` takes steering from a watch: a person watching it in the
/// studio injects a topic with the studio's own keys, and it reaches the
/// debaters' next round.
#[tokio::test(flavor = "multi_thread")]
async fn a_watcher_steers_a_debate_heat_run_runs() {
    // Round 1's verdict waits until the run has taken the watcher's topic: round 2's debaters carry it.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(150), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let mut run = support::binary::process(data.path(), "[network]\nmax_retries = 1\n");
    run.env("ANTHROPIC_API_KEY", API_KEY).env("ANTHROPIC_BASE_URL", &server.base_url);
    run.args(["run", "--max-rounds", "3", "Remote work beats the office"]);
    run.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut run = run.spawn().unwrap();
    let store = Store::open(data.path()).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !store.list().first().is_some_and(|e| heat::store::steering::taken(&store.log_path(&e.id))) {
        assert!(std::time::Instant::now() < deadline, "heat run never took steering");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mut watcher = spawn_heat(data.path(), data.path(), None, &["watch"], &[]);
    watcher.wait_for("the watch that steers", |s| s.contains("A watch: your steering reaches the debate")).await;
    watcher.keys("i");
    watcher.wait_for("the inject editor", |s| s.contains("Inject")).await;
    watcher.keys("Commute costs");
    watcher.keys("\r");
    watcher.wait_for("the injection said", |s| s.contains("Topic injected")).await;
    studio_support::pty::wait_logged(data.path(), "topic_injected").await;
    verdicts.open();

    let status = tokio::task::spawn_blocking(move || run.wait().unwrap()).await.unwrap();
    assert!(status.success(), "heat run: {status}");
    watcher.wait_for("the end on the watcher", |s| s.contains("✓ ENDED · watching")).await;
    watcher.keys("q");
    watcher.keys("q");
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    assert!(
        events.iter().any(|e| matches!(e, DebateEvent::TopicInjected { text } if text == "Commute costs")),
        "the run recorded the watcher's topic"
    );
    let carried =
        server.requests().iter().any(|r| !r.system().contains("JUDGE") && r.last_message().contains("Commute costs"));
    assert!(carried, "a debater's next round carried it");
    assert!(!heat::store::steering::path_for(&store.log_path(&id)).exists(), "the spool went with the run");
}
