//! `heat watch`'s reading side: a follower folds what a writer records into
//! the same state, while never writing or locking the log; and the binary
//! without a terminal prints a running debate as it grows, and says in one
//! sentence what is wrong with a bad id or a log that is not heat's.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use heat::debate::{DebateEvent, DebateState};
use heat::store::follow::Follower;
use heat::store::log::{self, Record};
use heat::store::watch::{Followed, Watch};
use heat::store::{Recorder, Store};

fn demo() -> Vec<Record> {
    log::parse(include_bytes!("../../assets/demo-session.jsonl")).unwrap().records
}

/// The log's lines after its header (which names the session).
fn body(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let start = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    bytes[start..].to_vec()
}

/// Follows `recorder`'s log from where it stands, as `heat watch` does.
fn watch(store: &Store, recorder: &Recorder) -> Watch {
    let loaded = store.load(recorder.id()).unwrap();
    Watch::start(recorder.path(), Follower::at(recorder.path(), loaded.valid_len()).unwrap())
}

/// Everything a watch brings until the debate's `finished` event.
async fn followed_to_the_end(watch: &mut Watch) -> Vec<DebateEvent> {
    let mut events = Vec::new();
    while !matches!(events.last(), Some(DebateEvent::Finished { .. })) {
        let next = tokio::time::timeout(Duration::from_secs(10), watch.rx.recv()).await;
        match next.expect("the watch went quiet before the end").expect("the watch stopped") {
            Followed::Records(records) => events.extend(records.into_iter().map(|r| r.event)),
            other => panic!("the watch brought {other:?}"),
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_folds_what_the_writer_records_and_never_writes_or_locks() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    // Every event stamped before the sessions were created: each log's
    // stamps are all 0, so the two logs can be compared byte for byte.
    let at = std::time::Instant::now();
    let mut watched = store.create().unwrap();
    let mut unwatched = store.create().unwrap();
    let mut watchers = [watch(&store, &watched), watch(&store, &watched)];

    for (i, record) in demo().iter().enumerate() {
        assert!(watched.record_at(&record.event, at).is_none());
        assert!(unwatched.record_at(&record.event, at).is_none());
        if i % 25 == 0 {
            // The watchers read while the writer is mid-debate.
            tokio::time::sleep(Duration::from_millis(2)).await;
            assert!(store.is_live(watched.id()), "the writer still holds its log");
            let refused = store.reopen(watched.id()).err().map(|e| format!("{e:#}")).unwrap_or_default();
            assert!(refused.contains("is open in another heat"), "a second writer got in: {refused:?}");
        }
    }
    for watcher in &mut watchers {
        let events = followed_to_the_end(watcher).await;
        assert_eq!(DebateState::from_events(events.iter()), *watched.state(), "the watcher's fold is the writer's");
    }
    // Still following, and nothing more comes: no line was read twice or made up.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(watchers[0].rx.try_recv().is_err());
    drop(watchers);
    assert!(store.is_live(watched.id()), "the writer still holds its log after the watchers");
    assert_eq!(body(watched.path()), body(unwatched.path()), "the watched log is byte for byte the unwatched one");
    let names: Vec<std::path::PathBuf> = std::fs::read_dir(store.dir()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(!names.iter().any(|n| n.extension().is_some_and(|e| e == "torn")), "nothing was moved aside: {names:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_deltas_reach_a_watcher_without_waiting_for_the_turn_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut writer = store.create().unwrap();
    let mut watcher = watch(&store, &writer);
    let records = demo();
    let first_delta = records.iter().position(|r| matches!(r.event, DebateEvent::Delta { .. })).unwrap();
    for record in &records[..first_delta] {
        writer.record(&record.event);
    }
    // Deltas every 5 ms and nothing else: the 50 ms flush rule brings them out.
    let deltas: Vec<&Record> =
        records[first_delta..].iter().take_while(|r| matches!(r.event, DebateEvent::Delta { .. })).collect();
    assert!(deltas.len() > 5, "the demo streams its first turn");
    let started = Instant::now();
    let mut seen = 0;
    for record in deltas.iter().cycle().take(40) {
        writer.record(&record.event);
        tokio::time::sleep(Duration::from_millis(5)).await;
        while let Ok(Followed::Records(batch)) = watcher.rx.try_recv() {
            seen += batch.iter().filter(|r| matches!(r.event, DebateEvent::Delta { .. })).count();
        }
    }
    assert!(seen > 0, "no delta reached the watcher in {:?} of streaming", started.elapsed());
}

fn heat(data: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.env("HEAT_DATA_DIR", data)
        .env("HEAT_CONFIG", data.join("none.toml"))
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(60));
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn without_a_terminal_a_running_debate_is_printed_as_it_grows() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut writer = store.create().unwrap();
    let id = writer.id().to_string();
    let records = demo();
    let half = records.len() / 2;
    for record in &records[..half] {
        writer.record(&record.event);
    }
    // The rest of the debate comes while the watch runs.
    let rest: Vec<DebateEvent> = records[half..].iter().map(|r| r.event.clone()).collect();
    let appender = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        for event in &rest {
            writer.record(event);
        }
        writer
    });
    let out = heat(dir.path()).arg("watch").output().unwrap();
    let writer = appender.join().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("heat · Remote work beats the office"), "{printed}");
    let finished = writer.state().finish.as_ref().unwrap();
    assert!(printed.contains(&finished.outcome.describe()), "the ending is printed:\n{printed}");
    drop(writer);

    // `--json`: one event per line, every event of the log, then it stops (the debate has ended).
    let out = heat(dir.path()).args(["watch", &id, "--json"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().count(), records.len());
    let said = text(&out.stderr);
    assert!(said.contains(&format!("session {id} has ended")), "{said}");
}

#[test]
fn a_bad_id_and_a_log_that_is_not_heats_each_get_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut writer = store.create().unwrap();
    writer.record(&demo()[0].event);
    let id = writer.id().to_string();

    let out = heat(dir.path()).args(["watch", "2099"]).output().unwrap();
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(said.contains("no session has an id starting with \"2099\"") && said.contains(&id), "{said}");

    std::fs::write(store.log_path("notes"), "just some notes\n").unwrap();
    let out = heat(dir.path()).args(["watch", "notes"]).output().unwrap();
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(said.contains("line 1 is not a heat session header"), "{said}");
    assert_eq!(said.trim().lines().count(), 1, "one sentence: {said}");
}

#[test]
fn with_no_id_the_newest_running_debate_is_watched_not_an_ended_one_a_studio_holds() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let records = demo();
    let first_round_ends =
        records.iter().position(|r| matches!(r.event, DebateEvent::VerdictReached { .. })).unwrap() + 1;
    // An older debate still running, and a newer one that has ended while a studio holds it open.
    let mut running = store.create().unwrap();
    for record in &records[..first_round_ends] {
        running.record(&record.event);
    }
    std::thread::sleep(Duration::from_millis(20));
    let mut ended = store.create().unwrap();
    for record in &records {
        ended.record(&record.event);
    }
    assert!(store.is_live(ended.id()) && ended.state().finish.is_some());
    let out = heat(dir.path()).args(["watch", "--json"]).timeout(Duration::from_secs(3)).output().unwrap();
    let watched: Vec<serde_json::Value> =
        text(&out.stdout).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert_eq!(watched.len(), first_round_ends, "the running debate's events, not the ended one's");
    drop((running, ended));
}
