//! `heat tournament` from the binary, on a mock OpenAI server that plays
//! three models and a judge: the plan, a dry run that asks no model, a
//! tournament run to its end with every planned debate an ordinary tagged
//! session, a SIGKILL mid-way and a resume that runs only what is missing
//! (no debate begun twice), and bad files refused with their line.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::support;
use heat::store::tournaments::{Entry, Tournaments};
use support::mock_llm::{MockLlm, Recorded, Reply, openai_sse_text};

/// Each model argues in its own words; the judge (`mock-j`, or a panel's
/// `mock-j2`, `mock-j3`, …) puts the later letter ahead (mock-c beats
/// mock-b beats mock-a), on whichever side it sits.
fn play(request: &Recorded, pace: Duration) -> Reply {
    Reply::sse(&openai_sse_text(&said(request), 4), 64).with_delay(pace)
}

/// What each model says: its argument, or the judge's verdict.
fn said(request: &Recorded) -> String {
    let model = request.body["model"].as_str().unwrap_or("").to_string();
    let last = request.last_message();
    let round = (1..=3).rev().find(|n| last.contains(&format!("Round {n} of"))).unwrap_or(1);
    if model.starts_with("mock-j") {
        // The sides' arguments follow their names: `[advocate, skeptic]:`, or a format's own.
        let arguments = last.split_once("]:\n").map_or("", |(_, after)| after);
        let letter = |side: usize| {
            let said = arguments.split("\",\"").nth(side).unwrap_or("");
            ["C", "B", "A"].into_iter().find(|l| said.contains(&format!("Model {l} says")))
        };
        let ahead = if letter(0) > letter(1) { "advocate" } else { "skeptic" };
        format!(
            r#"{{"resolved": false, "verdict": "Round {round} was argued.", "ahead": "{ahead}", "conceded": "none", "topic": "Go on.", "heat": 0.6}}"#
        )
    } else {
        let letter = model.trim_start_matches("mock-").to_uppercase();
        format!("Model {letter} says its case for round {round} plainly and at length.")
    }
}

pub(crate) async fn server(pace: Duration) -> MockLlm {
    MockLlm::with_handler(move |request| play(request, pace)).await
}

pub(crate) fn heat(data: &Path, server: &MockLlm) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 1\n");
    cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
    cmd.timeout(Duration::from_secs(120));
    cmd
}

const FILE: &str = r#"
propositions = ["Night trains beat short-haul flights", "Cities should ban cars from their centres"]
models = ["openai:mock-a", "openai:mock-b", "openai:mock-c"]
judge = "openai:mock-j"
rounds = 1
seed = 11
concurrency = 3
"#;

/// The file above (12 debates of one round) with another seed and as many at once.
pub(crate) fn file(seed: u64, concurrency: usize) -> String {
    FILE.replace("seed = 11", &format!("seed = {seed}"))
        .replace("concurrency = 3", &format!("concurrency = {concurrency}"))
}

/// The stored tournament's journal: the sessions each key began as, and
/// the keys that finished.
pub(crate) fn journal(data: &Path) -> (String, BTreeMap<String, Vec<String>>, Vec<String>) {
    let tournaments = Tournaments::open(data).unwrap();
    let id = tournaments.resolve(None, false).unwrap();
    let stored = tournaments.load(&id).unwrap();
    let mut began: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut finished = Vec::new();
    for entry in &stored.entries {
        match entry {
            Entry::Started { key, session } => began.entry(key.clone()).or_default().push(session.clone()),
            Entry::Finished { key, .. } => finished.push(key.clone()),
            _ => {}
        }
    }
    (id, began, finished)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dry_run_prices_the_plan_and_asks_no_model() {
    let server = server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("t.toml"), FILE).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml")).arg("--dry-run");
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    assert!(
        stdout.contains("12 debates (2 propositions × 3 pairs × both sides × 1 repeat), 3 at once, seed 11"),
        "{stdout}"
    );
    assert!(stdout.contains("model calls: at most 48 (4 a debate)"), "{stdout}");
    assert!(stdout.contains("format duel, 1 round a debate, judged by openai:mock-j"), "{stdout}");
    assert!(
        stdout.contains("cost: unknown for openai:mock-a, openai:mock-b, openai:mock-c, openai:mock-j"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().filter(|l| l.contains(" for, ") && l.contains(" against: ")).count(), 12, "{stdout}");
    assert!(!server.requests().iter().any(|r| r.body["messages"].is_array()), "no model was asked");
    assert!(!data.path().join("tournaments").exists(), "nothing is stored by a dry run");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_runs_every_debate_once_as_tagged_sessions_and_survives_a_kill() {
    let server = server(Duration::from_millis(60)).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("t.toml"), FILE).unwrap();
    // First run: killed once a few debates have finished.
    // The config `heat` wrote for the dry run's kind of call; this one is started by hand, to be killed.
    std::fs::write(data.path().join("heat.toml"), "[network]\nmax_retries = 1\n").unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"))
        .arg("--config")
        .arg(data.path().join("heat.toml"))
        .env("HEAT_DATA_DIR", data.path())
        .env("NO_COLOR", "1")
        .env("OPENAI_API_KEY", "sk-test-openai")
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url))
        .env_remove("ANTHROPIC_API_KEY")
        .arg("tournament")
        .arg(data.path().join("t.toml"))
        .arg("--json")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut waited = 0;
    while waited < 600 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
        if data.path().join("tournaments").exists() && journal(data.path()).2.len() >= 3 {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (_, began_before, finished_before) = journal(data.path());
    assert!(finished_before.len() >= 3 && finished_before.len() < 12, "killed mid-way: {finished_before:?}");

    // Resumed: what is missing runs, and only that.
    let mut cmd = heat(data.path(), &server);
    cmd.args(["tournament", "resume", "--json"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(out.status.success(), "{}\n{stdout}", support::binary::stderr(&out));
    let (id, began, finished) = journal(data.path());
    assert_eq!(finished.len(), 12, "every planned debate finished: {finished:?}");
    let unique: std::collections::BTreeSet<&String> = finished.iter().collect();
    assert_eq!(unique.len(), 12, "none finished twice");
    // A debate begun is taken up in its own session after the kill; one cut off before it began
    // (its log holds no start: no model was asked) begins anew. Either way one session is kept.
    let store = heat::store::Store::open(data.path()).unwrap();
    for (key, sessions) in &began {
        let kept: Vec<&String> = sessions.iter().filter(|s| store.log_path(s).exists()).collect();
        assert_eq!(kept, [sessions.last().unwrap()], "{key} kept one session, its last: {sessions:?}");
    }
    for key in &finished_before {
        assert!(!stdout.contains(&format!("\"key\":\"{key}\"")), "{key} had finished and was not run again");
    }
    assert!(began_before.len() <= began.len());
    // Every debate is an ordinary session, tagged with the tournament.
    let mut cmd = heat(data.path(), &server);
    cmd.args(["sessions", "--json", "--tag", &format!("tournament-{id}")]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().map(Vec::len), Some(12), "{listed}");
    // Each session records its recipe: the tournament's seed, sent to every model.
    let session = began.values().next().unwrap().last().unwrap();
    let loaded = store.load(session).unwrap();
    let recorded = heat::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(recorded.recipe.as_ref().and_then(|r| r.seed), Some(11), "{:?}", recorded.recipe);
    assert!(server.requests().iter().filter(|r| r.body["messages"].is_array()).all(|r| r.body["seed"] == 11));

    // Counted: mock-c won every debate, mock-a none, on either side.
    let mut cmd = heat(data.path(), &server);
    cmd.args(["stats", "--json"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["debates"], 12, "{stats}");
    let record = |model: &str| {
        let models = stats["summary"]["models"].as_array().unwrap();
        models.iter().find(|m| m["model"] == format!("openai:{model}")).unwrap()["overall"].clone()
    };
    assert_eq!((record("mock-c")["wins"].as_f64(), record("mock-c")["losses"].as_f64()), (Some(8.0), Some(0.0)));
    assert_eq!((record("mock-b")["wins"].as_f64(), record("mock-b")["losses"].as_f64()), (Some(4.0), Some(4.0)));
    assert_eq!(record("mock-a")["wins"].as_f64(), Some(0.0));
    let rated: Vec<&str> = stats["summary"]["ratings"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["model"].as_str().unwrap())
        .collect();
    assert_eq!(rated, ["openai:mock-c", "openai:mock-b", "openai:mock-a"]);
    // Each side won half: the judge favours neither.
    assert_eq!(stats["summary"]["side_bias"]["overall"]["share"].as_f64(), Some(0.5), "{stats}");
    let mut cmd = heat(data.path(), &server);
    cmd.arg("stats");
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let text = support::binary::stdout(&out);
    assert!(text.starts_with(&format!("tournament {id}: 12 debates counted\n")), "{text}");

    // A round's debater calls were asked once each: nothing paid for twice (a call the kill cut
    // short is the one exception, asked again when its debate was taken up).
    let calls = server.requests().into_iter().filter(|r| r.body["messages"].is_array()).count();
    assert!(calls <= 12 * 4 + 3, "{calls} calls for 12 debates of 4 calls each, and at most 3 cut by the kill");
    // The server's model list and limits were asked once a run (the killed one and the resume),
    // not once a debate.
    for path in ["/v1/models", "/props"] {
        let asked = server.requests().iter().filter(|r| r.method == "GET" && r.path == path).count();
        assert!((1..=2).contains(&asked), "GET {path} asked {asked} times in two runs of 12 debates");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_file_is_refused_with_its_line_and_nothing_starts() {
    let server = server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    let bad = FILE.replace("rounds = 1", "rounds = 0");
    std::fs::write(data.path().join("t.toml"), bad).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml"));
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("t.toml line 5: rounds is a whole number from 1 to 50"), "{stderr}");
    assert!(!data.path().join("tournaments").exists(), "nothing started");
    let mut cmd = heat(data.path(), &server);
    cmd.args(["tournament", "resume"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    assert!(
        support::binary::stderr(&out).contains("there are no tournaments yet"),
        "{}",
        support::binary::stderr(&out)
    );
}

/// An OpenAI stream of `text` whose usage says `prompt` tokens were read.
fn costly(text: &str, prompt: u64) -> Vec<u8> {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let data = serde_json::json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {data}\n\n")
    };
    let usage = serde_json::json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 100, "total_tokens": prompt + 100}});
    let body = [chunk(serde_json::json!({"content": text}), None), chunk(serde_json::json!({}), Some("stop"))].concat();
    format!("{body}data: {usage}\n\ndata: [DONE]\n\n").into_bytes()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_pauses_at_its_budget_and_goes_on_past_it_when_resumed() {
    // Every call reads 4,000 tokens and writes 100: a one-round debate (three calls) spends 12,300.
    let server = MockLlm::with_handler(|request: &Recorded| Reply::sse(&costly(&said(request), 4_000), 256)).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("heat.toml"), "[network]\nmax_retries = 1\n[roles]\nmax_tokens = 16\n").unwrap();
    let file = FILE.replace("\"openai:mock-c\"", "").replace(", ]", "]").replace("concurrency = 3", "concurrency = 1");
    let too_small = format!("{file}budget_tokens = 2000\n");
    std::fs::write(data.path().join("small.toml"), too_small).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("small.toml"));
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(stderr.contains("small.toml line 8: budget_tokens 2,000 is below what one debate may take"), "{stderr}");

    std::fs::write(data.path().join("t.toml"), format!("{file}budget_tokens = 20000\n")).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml"));
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("the tournament's budget is reached (24,600 of 20,000 tokens): no more debates begin"),
        "{stderr}"
    );
    assert_eq!(journal(data.path()).2.len(), 2, "two debates ran, then it paused: {stderr}");

    let mut cmd = heat(data.path(), &server);
    cmd.args(["tournament", "resume"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    assert_eq!(journal(data.path()).2.len(), 4, "resumed, it goes on past its budget");
}
