//! A tournament killed at random points and resumed until it ends runs
//! each planned debate exactly once: the real binary, killed (SIGKILL) after
//! generated delays (one to three kills a case) against the mock that
//! plays three models and a judge, then resumed to the end. Each planned
//! debate finishes once and keeps one session however often it was cut off
//! (one cut off before it began, its log holding no start, begins anew), and
//! the models are asked each turn once (a turn a kill cut short is the one
//! asked again).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::support;
use crate::tournament::{file, heat, journal, server};
use heat::store::tournaments::Entry;

/// The file's debates: 2 propositions × 3 pairs × both sides, 1 round each.
const PLANNED: usize = 12;
/// Model calls a debate makes: two turns, a verdict and the synthesis.
const CALLS: usize = 4;

/// `heat tournament` (or `resume`) started, to be killed.
fn start(data: &Path, base: &str, resume: bool) -> std::process::Child {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"));
    cmd.arg("--config")
        .arg(data.join("heat.toml"))
        .env("HEAT_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .env("OPENAI_API_KEY", "sk-test-openai")
        .env("OPENAI_BASE_URL", base)
        .env_remove("ANTHROPIC_API_KEY")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if resume {
        cmd.args(["tournament", "resume"]);
    } else {
        cmd.arg("tournament").arg(data.join("t.toml"));
    }
    cmd.spawn().unwrap()
}

/// Whether a tournament is stored (its folder and its file).
fn stored(data: &Path) -> bool {
    heat::store::tournaments::Tournaments::open(data).unwrap().resolve(None, false).is_ok()
}

/// Whether the stored tournament has ended.
fn ended(data: &Path) -> bool {
    let tournaments = heat::store::tournaments::Tournaments::open(data).unwrap();
    let Ok(id) = tournaments.resolve(None, false) else { return false };
    // (Killed between its folder and its file, it cannot be read: not ended.)
    tournaments.load(&id).is_ok_and(|t| t.ended())
}

/// One case: killed after each of `kills` (ms), then resumed to the end.
async fn case(kills: Vec<u64>) -> Result<(), TestCaseError> {
    let server = server(Duration::from_millis(15)).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("t.toml"), file(23, 3)).unwrap();
    std::fs::write(data.path().join("heat.toml"), "[network]\nmax_retries = 1\n").unwrap();
    let base = format!("{}/v1", server.base_url);
    let mut killed = 0;
    for (i, after) in kills.iter().enumerate() {
        // The first start waits for the tournament to be stored before a resume can find it.
        let resume = i > 0 && stored(data.path());
        if resume && ended(data.path()) {
            break;
        }
        let mut child = start(data.path(), &base, resume);
        tokio::time::sleep(Duration::from_millis(*after)).await;
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            killed += 1;
        }
        child.wait().unwrap();
    }
    if !stored(data.path()) {
        // Killed before it stored anything: it begins again from its file.
        let mut child = start(data.path(), &base, false);
        prop_assert!(child.wait().unwrap().success());
    } else if !ended(data.path()) {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["tournament", "resume"]);
        let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
        prop_assert!(out.status.success(), "{}", support::binary::stderr(&out));
    }
    let (_, began, finished) = journal(data.path());
    prop_assert_eq!(finished.len(), PLANNED, "each planned debate finished once: {:?}", finished);
    prop_assert_eq!(finished.iter().collect::<BTreeSet<_>>().len(), PLANNED, "none finished twice");
    // A debate cut off before it began (its log holds no start, no model asked) begins anew; one
    // begun is taken up in its own session: either way one session is kept for each.
    let store = heat::store::Store::open(data.path()).unwrap();
    for (key, sessions) in &began {
        let kept: BTreeSet<&String> = sessions.iter().filter(|s| store.log_path(s).exists()).collect();
        prop_assert_eq!(kept.len(), 1, "{} kept one session after {} kills: {:?}", key, killed, sessions);
        prop_assert_eq!(kept.into_iter().next(), sessions.last(), "{}: the last one begun", key);
    }
    let calls = server.requests().into_iter().filter(|r| r.body["messages"].is_array()).count();
    // Each kill cuts at most the calls of the debates running then (3 at once).
    prop_assert!(calls <= PLANNED * CALLS + 3 * killed, "{} calls after {} kills", calls, killed);
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_killed_at_random_points_runs_each_planned_debate_exactly_once() {
    let mut runner = TestRunner::new(Config { cases: 4, failure_persistence: None, ..Config::default() });
    let kills = proptest::collection::vec(50u64..2_500, 1..=3);
    let handle = tokio::runtime::Handle::current();
    let result = tokio::task::block_in_place(|| runner.run(&kills, |kills| handle.block_on(case(kills))));
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_cut_off_before_it_began_begins_anew_on_resume() {
    let server = server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    let text = file(23, 3);
    // As a kill leaves it: the journal says a debate began as a session whose log holds no start.
    let parsed = heat::tournament::file::TournamentFile::parse("t.toml", &text, data.path()).unwrap();
    let first = heat::tournament::plan::plan(&parsed, 23).remove(0);
    let tournaments = heat::store::tournaments::Tournaments::open(data.path()).unwrap();
    let (_, mut journal_file) = tournaments.create(&text).unwrap();
    journal_file.write(&Entry::Began { seed: 23, debates: PLANNED, at_ms: 0 }).unwrap();
    let store = heat::store::Store::open(data.path()).unwrap();
    let cut = store.create().unwrap().id().to_string();
    journal_file.write(&Entry::Started { key: first.key.clone(), session: cut.clone() }).unwrap();
    drop(journal_file);

    let mut cmd = heat(data.path(), &server);
    cmd.args(["tournament", "resume"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let (_, began, finished) = journal(data.path());
    assert_eq!(finished.len(), PLANNED, "{finished:?}");
    assert_eq!(began[&first.key].len(), 2, "begun anew: {:?}", began[&first.key]);
    assert_eq!(began[&first.key][0], cut);
    assert!(!store.log_path(&cut).exists(), "the session that never began is gone");
}
