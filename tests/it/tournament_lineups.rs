//! `heat tournament` with line-ups by seat and a panel of three judges, from
//! the binary on the mock of `tournament.rs`: each debate sits the seats its
//! line-up named (swapped too), every judge of the panel is asked, the dry run
//! counts the panel's calls, `heat stats` counts the panel's rulings, and bad
//! line-ups and panels are refused with their line before anything starts.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use crate::support;
use crate::tournament::{heat, journal, server};
use heat::debate::{DebateState, Role};

/// A duel whose seats are the proposition and the opposition, judged by a
/// panel of three.
const TRIO: &str = r#"summary = "a proposition and an opposition, a panel of three judges"

[[seats]]
id = "proposition"
label = "Proposition"
side = "pro"
brief = "advocate.md"

[[seats]]
id = "opposition"
label = "Opposition"
side = "con"
brief = "skeptic.md"

[judges]
count = 3
label = "Chair"
brief = "judge.md"
"#;

const FILE: &str = r#"
propositions = ["Night trains beat short-haul flights", "Cities should ban cars from their centres"]
lineups = [
  { proposition = "openai:mock-a", opposition = "openai:mock-b" },
  { opposition = "openai:mock-a", advocate = "openai:mock-c" },
]
judge = ["openai:mock-j", "openai:mock-j2", "openai:mock-j3"]
format = "trio"
rounds = 1
seed = 5
concurrency = 4
"#;

/// The data dir with the trio format beside heat.toml, and the tournament file.
fn data_dir(file: &str) -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("heat.toml"), "[network]\nmax_retries = 1\n").unwrap();
    std::fs::create_dir_all(data.path().join("formats")).unwrap();
    std::fs::write(data.path().join("formats/trio.toml"), TRIO).unwrap();
    std::fs::write(data.path().join("t.toml"), file).unwrap();
    data
}

async fn run(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

/// The seats a stored session sat: `(advocate, skeptic, judge)` as `PROVIDER:MODEL`, and its state.
fn seats(data: &Path, session: &str) -> ((String, String, String), DebateState) {
    let store = heat::store::Store::open(data).unwrap();
    let loaded = store.load(session).unwrap();
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    let model = |role| state.participant(role).map(|p| format!("{}:{}", p.provider, p.model)).unwrap();
    ((model(Role::Advocate), model(Role::Skeptic), model(Role::Judge)), state)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lineup_tournament_judged_by_a_panel_runs_to_the_end_and_is_counted() {
    let server = server(Duration::ZERO).await;
    let data = data_dir(FILE);
    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml")).arg("--dry-run");
    let out = run(cmd).await;
    let stdout = support::binary::stdout(&out);
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    assert!(
        stdout.contains("8 debates (2 propositions × 2 line-ups × both sides × 1 repeat), 4 at once, seed 5"),
        "{stdout}"
    );
    assert!(
        stdout.contains("format trio, 1 round a debate, judged by openai:mock-j, openai:mock-j2, openai:mock-j3"),
        "{stdout}"
    );
    assert!(stdout.contains("model calls: at most 48 (6 a debate, a panel of 3 judges voting each round)"), "{stdout}");
    assert!(
        stdout.contains(
            "unknown for openai:mock-a, openai:mock-b, openai:mock-c, openai:mock-j, openai:mock-j2, openai:mock-j3"
        ),
        "{stdout}"
    );
    assert!(server.requests().is_empty() || !server.requests().iter().any(|r| r.body["messages"].is_array()));

    let mut cmd = heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml")).arg("--json");
    let out = run(cmd).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let (_, began, finished) = journal(data.path());
    let keys: BTreeSet<&str> = finished.iter().map(String::as_str).collect();
    let want: BTreeSet<&str> =
        ["p0-l0-r0", "p0-l0s-r0", "p0-l1-r0", "p0-l1s-r0", "p1-l0-r0", "p1-l0s-r0", "p1-l1-r0", "p1-l1s-r0"].into();
    assert_eq!(keys, want);
    // Each debate sat its line-up (swapped for an `s` key), judged by the whole panel.
    for (key, sessions) in &began {
        let ((advocate, skeptic, judge), state) = seats(data.path(), &sessions[0]);
        let lineup =
            if key.contains("-l0") { ("openai:mock-a", "openai:mock-b") } else { ("openai:mock-c", "openai:mock-a") };
        let lineup = if key.contains("s-") { (lineup.1, lineup.0) } else { lineup };
        assert_eq!((advocate.as_str(), skeptic.as_str()), lineup, "{key}");
        assert_eq!(judge, "openai:mock-j", "{key}");
        let format = state.format.as_ref().unwrap();
        assert_eq!((format.name.as_str(), format.judges), ("trio", 3), "{key}");
        assert_eq!(format.panel_models, ["mock-j2", "mock-j3"], "{key}");
        assert_eq!(state.seat_name(Role::Advocate), "proposition", "{key}");
    }
    // Every judge of the panel was asked, on every debate's round.
    let mut asked: BTreeMap<String, usize> = BTreeMap::new();
    for request in server.requests().iter().filter(|r| r.body["messages"].is_array()) {
        *asked.entry(request.body["model"].as_str().unwrap_or("").to_string()).or_default() += 1;
    }
    for judge in ["mock-j2", "mock-j3"] {
        assert_eq!(asked.get(judge), Some(&8), "one vote a debate from {judge}: {asked:?}");
    }
    assert!(asked.get("mock-j").is_some_and(|&n| n >= 8), "{asked:?}");

    // Counted: mock-c beats mock-a, mock-b beats mock-a, on either side; the panel is the judge.
    let mut cmd = heat(data.path(), &server);
    cmd.args(["stats", "--json"]);
    let out = run(cmd).await;
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["debates"], 8, "{stats}");
    let record = |model: &str| {
        let models = stats["summary"]["models"].as_array().unwrap();
        let overall = &models.iter().find(|m| m["model"] == format!("openai:{model}")).unwrap()["overall"];
        (overall["wins"].as_f64(), overall["losses"].as_f64())
    };
    assert_eq!(record("mock-c"), (Some(4.0), Some(0.0)), "{stats}");
    assert_eq!(record("mock-b"), (Some(4.0), Some(0.0)), "{stats}");
    assert_eq!(record("mock-a"), (Some(0.0), Some(8.0)), "{stats}");
    let text = stats.to_string();
    assert!(text.contains("openai:mock-j + openai:mock-j2 + openai:mock-j3"), "the panel judged: {stats}");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_lineups_and_panels_are_refused_with_their_line_and_nothing_starts() {
    let server = server(Duration::ZERO).await;
    let cases = [
        (FILE.replace("\"openai:mock-j3\"", "\"human\""), "t.toml line 7: a person cannot sit in a tournament's seats"),
        (FILE.replace("openai:mock-c", "human"), "t.toml line 5: a person cannot sit in a tournament's seats"),
        (
            FILE.replace("format = \"trio\"", "format = \"duel\""),
            "t.toml line 7: judge names a panel of 3, and format duel seats 1 judge",
        ),
        (
            FILE.replace("advocate = \"openai:mock-c\"", "chair = \"openai:mock-c\""),
            "t.toml line 5: a line-up names the seat \"chair\", which format trio has not for a debater: its seats \
             are proposition, opposition (or advocate, skeptic)",
        ),
        (
            FILE.replace("opposition = \"openai:mock-a\"", "proposition = \"openai:mock-a\""),
            "t.toml line 5: a line-up gives the proposition seat twice",
        ),
        (
            FILE.replace(", opposition = \"openai:mock-b\"", ""),
            "t.toml line 4: a line-up needs a model on each side, and this one names the proposition only",
        ),
        (
            FILE.replace("judge = [", "models = [\"openai:mock-a\", \"openai:mock-b\"]\njudge = ["),
            "gives both models and lineups",
        ),
    ];
    for (file, said) in cases {
        let data = data_dir(&file);
        let mut cmd = heat(data.path(), &server);
        cmd.arg("tournament").arg(data.path().join("t.toml"));
        let out = run(cmd).await;
        let stderr = support::binary::stderr(&out);
        assert!(!out.status.success(), "{file}");
        assert!(stderr.contains(said), "{said}\n{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "one sentence: {stderr}");
        assert!(!data.path().join("tournaments").exists(), "nothing started");
    }
    assert!(!server.requests().iter().any(|r| r.body["messages"].is_array()), "no model was asked");
}
