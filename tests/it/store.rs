//! The session store: logs fold back to the live state, survive torn and
//! corrupt lines with a notice, refuse a second writer, stay private.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::sync::Arc;

use crate::engine_support;
use crate::support::log::Log;

use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, Grounding, RoleSetup};
use heat::debate::{Command, DebateEvent, DebateState, Role};
use heat::provider::scripted::{Reply, ScriptedModel, Step};
use heat::provider::{ChatModel, ProviderError};
use heat::store::Store;
use tokio::sync::Semaphore;

fn role(model: Arc<ScriptedModel>) -> RoleSetup {
    RoleSetup::new(model as Arc<dyn ChatModel>, "m", 256)
}

/// A debate that exercises most event kinds: steering, a retry, a bad verdict, a cancel.
async fn eventful_debate(store: &Store) -> (DebateState, String) {
    let gate = Arc::new(Semaphore::new(0));
    let mut failing = Reply::text("partial answer").0;
    failing.truncate(1);
    failing.push(Step::Fail(ProviderError::StreamCut));
    let advocate =
        Arc::new(ScriptedModel::new([Reply(failing), Reply::gated("For ", &gate, "it.")], Reply::text("For, again.")));
    let skeptic = Arc::new(ScriptedModel::new([], Reply::text("Against \u{1F525} \"quoted\"\nline two.")));
    let judge = Arc::new(ScriptedModel::new(
        [
            Reply::text("not json"),
            Reply::text(
                r#"{"resolved": false, "verdict": "Open: latency is unclear.", "topic": "Costs?", "heat": 0.6}"#,
            ),
        ],
        Reply::text(r#"{"resolved": true, "verdict": "Settled: logs win on cost.", "topic": "t", "heat": 0.3}"#),
    ));
    let setup = engine_support::duel(role(advocate), role(skeptic), role(judge)).retries(3).build();
    let mut recorder = store.create().unwrap();
    let id = recorder.id().to_string();
    let mut handle = engine::start(
        setup,
        DebateSpec {
            topic: "Logs beat databases".into(),
            max_rounds: 4,
            initial_heat: Heat::new(0.9),
            grounding: Grounding::default(),
            format: None,
        },
    );
    let mut steered = false;
    while let Some(event) = handle.next_event().await {
        assert!(recorder.record(&event).is_none());
        if !steered && matches!(event, DebateEvent::Delta { role: Role::Advocate, .. }) {
            steered = true;
            for c in [
                Command::Pause,
                Command::InjectTopic("And latency?".into()),
                Command::PinTemperature(Heat::new(0.5)),
                Command::ReleaseTemperature,
                Command::Resume,
            ] {
                handle.send(c);
            }
            gate.add_permits(1);
        }
    }
    let state = handle.join().await;
    assert_eq!(recorder.state(), &state);
    (state, id)
}

#[tokio::test(start_paused = true)]
async fn a_recorded_debate_folds_back_to_the_live_state() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let (live, id) = eventful_debate(&store).await;
    let loaded = store.load(&id).unwrap();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let kinds: std::collections::BTreeSet<String> = loaded
        .records
        .iter()
        .map(|r| serde_json::to_value(&r.event).unwrap()["type"].as_str().unwrap().to_string())
        .collect();
    for kind in [
        "started",
        "round_started",
        "turn_started",
        "delta",
        "turn_retrying",
        "turn_completed",
        "verdict_invalid",
        "verdict_reached",
        "paused",
        "resumed",
        "topic_injected",
        "temperature_pinned",
        "temperature_released",
        "finished",
    ] {
        assert!(kinds.contains(kind), "missing {kind} in {kinds:?}");
    }
    let folded = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(folded, live);
    assert!(loaded.records.windows(2).all(|w| w[0].ms <= w[1].ms), "timestamps never go back");
    let listed = store.list();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].topic, "Logs beat databases");
    assert_eq!(listed[0].outcome.as_deref(), Some("resolved by the judge"));
    assert_eq!(listed[0].rounds, 2);
}

fn write_log(store: &Store, id: &str, body: &[u8]) {
    std::fs::write(store.log_path(id), body).unwrap();
}

const HEADER: &str = "{\"heat_session\":1,\"id\":\"s\",\"created_ms\":1}\n";
const PAUSED: &str = "{\"ms\":5,\"event\":{\"type\":\"paused\"}}\n";

#[test]
fn a_torn_last_line_is_dropped_with_a_notice_and_cut_on_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    write_log(&store, "s", format!("{HEADER}{PAUSED}{{\"ms\":6,\"event\":{{\"type\":\"resu").as_bytes());
    let loaded = store.load("s").unwrap();
    assert_eq!(loaded.records.len(), 1);
    assert_eq!(
        loaded.notices,
        vec!["line 3 was cut short by a crash (29 bytes); it was moved aside to s.jsonl.torn".to_string()]
    );
    let (mut recorder, _) = store.reopen("s").unwrap();
    recorder.record(&DebateEvent::Resumed);
    drop(recorder);
    let again = store.load("s").unwrap();
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert_eq!(again.records.len(), 2);
    let torn = std::fs::read_to_string(store.dir().join("s.jsonl.torn")).unwrap();
    assert_eq!(torn, "{\"ms\":6,\"event\":{\"type\":\"resu");
}

#[test]
fn a_torn_last_line_is_reported_once_then_moved_aside_not_on_every_load() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    write_log(&store, "t", format!("{HEADER}{PAUSED}{{\"ms\":6,\"event\":{{\"type\":\"resu").as_bytes());
    let first = store.load("t").unwrap();
    assert_eq!(first.notices, vec!["line 3 was cut short by a crash (29 bytes); it was moved aside to t.jsonl.torn"]);
    let second = store.load("t").unwrap();
    assert!(second.notices.is_empty(), "said once: {:?}", second.notices);
    assert_eq!(second.records, first.records);
    let torn = std::fs::read_to_string(store.dir().join("t.jsonl.torn")).unwrap();
    assert_eq!(torn, "{\"ms\":6,\"event\":{\"type\":\"resu");

    // A log a running debate holds is only read: the notice stays, the file is not touched.
    write_log(&store, "u", format!("{HEADER}{PAUSED}{{\"ms\":6,\"ev").as_bytes());
    let holder = std::fs::File::open(store.log_path("u")).unwrap();
    holder.try_lock().unwrap();
    let held = store.load("u").unwrap();
    assert!(held.notices[0].ends_with("it was dropped"), "{:?}", held.notices);
    assert!(!store.dir().join("u.jsonl.torn").exists());
    drop(holder);
}

#[test]
fn garbage_and_newer_event_kinds_are_skipped_with_the_line_named() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let body = format!("{HEADER}{PAUSED}this is not json\n{{\"ms\":7,\"event\":{{\"type\":\"hologram\"}}}}\n{PAUSED}");
    write_log(&store, "s", body.as_bytes());
    let loaded = store.load("s").unwrap();
    assert_eq!(loaded.records.len(), 2);
    assert_eq!(loaded.notices.len(), 2);
    assert!(loaded.notices[0].starts_with("line 3: not a heat event"), "{:?}", loaded.notices);
    assert_eq!(loaded.notices[1], "line 4: event kind `hologram` comes from a newer heat; skipped");
    // Loading never rewrites the file.
    assert_eq!(std::fs::read_to_string(store.log_path("s")).unwrap(), body);
}

#[test]
fn empty_headerless_and_newer_format_logs_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let cases = [
        ("empty", String::new(), "the file is empty"),
        ("nohead", PAUSED.to_string(), "line 1 is not a heat session header"),
        (
            "newer",
            "{\"heat_session\":2,\"id\":\"n\",\"created_ms\":1}\n".to_string(),
            "session format 2 and this heat reads format 1",
        ),
    ];
    for (id, body, expected) in cases {
        write_log(&store, id, body.as_bytes());
        let err = format!("{:#}", store.load(id).unwrap_err());
        assert!(err.contains(expected) && err.contains(&format!("{id}.jsonl")), "{id}: {err}");
    }
}

#[test]
fn a_second_writer_is_refused_and_files_are_private() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let recorder = store.create().unwrap();
    let id = recorder.id().to_string();
    let err = format!("{:#}", store.reopen(&id).err().unwrap());
    assert!(err.contains("is open in another heat"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(recorder.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    drop(recorder);
    assert!(store.reopen(&id).is_ok(), "the lock is released with the writer");
}

#[test]
fn sessions_resolve_by_prefix_or_newest_and_the_index_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert!(format!("{:#}", store.resolve(None).unwrap_err()).contains("there are no sessions yet"));
    let mut ids = Vec::new();
    for topic in ["first", "second"] {
        let mut r = store.create().unwrap();
        for event in Log::new(topic, 2, 0.9).events() {
            r.record(event);
        }
        ids.push(r.id().to_string());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(store.resolve(None).unwrap(), ids[1]);
    assert_eq!(store.resolve(Some(&ids[0])).unwrap(), ids[0]);
    assert!(format!("{:#}", store.resolve(Some("zzz")).unwrap_err()).contains("no session has an id starting with"));
    // A corrupt index is rebuilt from the logs.
    std::fs::File::create(store.dir().join("index.json")).unwrap().write_all(b"{garbage").unwrap();
    let topics: Vec<String> = store.list().into_iter().map(|e| e.topic).collect();
    assert_eq!(topics.len(), 2);
    assert!(topics.contains(&"first".to_string()) && topics.contains(&"second".to_string()));
    store.delete(&ids[0]).unwrap();
    assert_eq!(store.list().len(), 1);
}
