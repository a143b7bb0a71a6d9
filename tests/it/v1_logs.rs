//! A duel's log written by heat before formats existed (format version 1,
//! `tests/fixtures/v1-duel.jsonl`, written by that release on the embedded
//! model, with its export and replay as that release printed them) still
//! lists, folds as a duel, replays and exports byte for byte as before.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::{DebateEvent, DebateState, Role};
use heat::store::Store;

const ID: &str = "20261124-214807-1747";

fn heat(data: &Path) -> assert_cmd::Command {
    support::binary::heat(data, "")
}

/// A data dir holding only the old session.
fn data_dir() -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("heat.toml"), "").unwrap();
    let sessions = data.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::write(sessions.join(format!("{ID}.jsonl")), include_str!("../fixtures/v1-duel.jsonl")).unwrap();
    data
}

fn stdout(mut cmd: assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn an_old_duel_exports_and_replays_byte_for_byte_as_before() {
    let data = data_dir();
    let mut cmd = heat(data.path());
    cmd.args(["export", ID, "--format", "md"]);
    assert_eq!(stdout(cmd), include_str!("../fixtures/v1-duel.export.md"));
    let mut cmd = heat(data.path());
    cmd.args(["replay", ID, "--instant", "--json"]);
    assert_eq!(stdout(cmd), include_str!("../fixtures/v1-duel.replay.jsonl"));
}

#[test]
fn an_old_duel_lists_and_folds_as_a_duel() {
    let data = data_dir();
    let mut cmd = heat(data.path());
    cmd.args(["sessions", "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&stdout(cmd)).unwrap();
    let first = &listed.as_array().unwrap()[0];
    assert_eq!((first["id"].as_str(), first["topic"].as_str()), (Some(ID), Some("Tabs beat spaces")), "{listed}");

    let store = Store::open(data.path()).unwrap();
    let loaded = store.load(ID).unwrap();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert!(!loaded.records.iter().any(|r| matches!(r.event, DebateEvent::Formatted { .. })));
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(state.format, None);
    assert_eq!((state.label(Role::Advocate), state.label(Role::Judge)), ("Advocate", "Judge"));
    assert!(!state.scored() && state.may_resolve_early());
    assert_eq!(state.rounds.len(), 2);

    let mut cmd = heat(data.path());
    cmd.args(["report", ID, "-o"]).arg(data.path().join("r.html"));
    stdout(cmd);
    let html = std::fs::read_to_string(data.path().join("r.html")).unwrap();
    assert!(html.contains("<dt>Format</dt><dd>duel</dd>") && !html.contains("<dt>Scores</dt>"), "{html}");
}
