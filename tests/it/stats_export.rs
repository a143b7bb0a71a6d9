//! `heat stats --export FILE`: the rows built from a hand-made debate (exact
//! values, nulls where the debate records nothing, model text cleaned of
//! escape sequences and known keys, the log's times), the columns each kind
//! of row has (and that docs/tournaments.md lists them), and from the binary:
//! a small tournament on the mock server exported as CSV and Parquet at each
//! kind of row and read back by real readers (Python's `csv` module and
//! pyarrow), agreeing with `heat stats --json`; a bad extension and a
//! tournament with nothing finished refused in one sentence, nothing written.
//!
//! The readers run on the Python in `$HEAT_PYTHON` (`.ci/run` installs a
//! pinned pyarrow in its venv). Without it the files are checked from Rust
//! alone and the test says so, unless `HEAT_REQUIRE_PYTHON=1` (CI) makes
//! that a failure.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use heat::debate::cost::{Price, Prices};
use heat::debate::verdict::Ahead;
use heat::debate::{DebateEvent, DebateState, Heat, Participant, Role, TurnPurpose, Verdict};
use heat::provider::Usage;
use heat::tournament::export::rows::{self, DebateRow, RoundRow, TurnRow};
use heat::tournament::export::table::{Kind, Row, Table, Value};
use heat::tournament::export::{Context, Debate, Rows, Sheet, Timing};

use crate::support;

const KEY: &str = "sk-known-secret-value-123";

fn used(input: u64, output: u64) -> Usage {
    Usage { input_tokens: input, output_tokens: output, ..Usage::default() }
}

fn verdict(ahead: Ahead, heat: f32) -> Verdict {
    Verdict {
        verdict: "Argued.".into(),
        ahead: Some(ahead),
        topic: "Is it faster?".into(),
        heat: Heat::new(heat),
        ..Verdict::default()
    }
}

fn turn(ms: [u64; 3], round: u32, role: Role, text: &str, spent: Option<Usage>) -> Vec<(u64, DebateEvent)> {
    let purpose = if role.is_judge() { TurnPurpose::Judge } else { TurnPurpose::Argue };
    vec![
        (ms[0], DebateEvent::TurnStarted { round, role, purpose, temperature: Some(0.9) }),
        (ms[1], DebateEvent::Delta { round, role, text: text.into() }),
        (
            ms[2],
            DebateEvent::TurnCompleted {
                round,
                role,
                text: text.into(),
                usage: spent,
                truncated_at: None,
                possibly_cut: false,
            },
        ),
    ]
}

/// A two-round duel, stamped: mock-a for, mock-b against, mock-j judging;
/// the advocate ahead in round 1 (its swap check flipped), the skeptic in
/// round 2; the advocate's first turn names a known key, its second was
/// retried; the person put the advocate ahead in round 2.
fn stamped() -> Vec<(u64, DebateEvent)> {
    let seat = |role, model| Participant::new(role, "openai", model);
    let mut events = vec![
        (
            0,
            DebateEvent::Started {
                topic: "Night trains \u{1b}[31mbeat\u{1b}[0m\nflights".into(),
                max_rounds: 2,
                initial_heat: Heat::new(0.9),
                participants: vec![
                    seat(Role::Advocate, "mock-a"),
                    seat(Role::Skeptic, "mock-b"),
                    seat(Role::Judge, "mock-j"),
                ],
            },
        ),
        (
            5,
            DebateEvent::RoundStarted {
                round: 0,
                topic: "Night trains beat flights".into(),
                heat: Heat::new(0.9),
                injected: vec![],
            },
        ),
    ];
    events.extend(turn([10, 40, 90], 0, Role::Advocate, &format!("Trains win. My key is {KEY}"), Some(used(100, 20))));
    events.extend(turn([100, 130, 200], 0, Role::Skeptic, "Flights are faster.", Some(used(120, 30))));
    events.extend(turn([210, 220, 260], 0, Role::Judge, "{}", Some(used(300, 10))));
    events.extend([
        (261, DebateEvent::VerdictReached { round: 0, verdict: verdict(Ahead::Advocate, 0.6) }),
        (262, DebateEvent::SwapCheckStarted { round: 0 }),
        (
            300,
            DebateEvent::SwapChecked {
                round: 0,
                verdict: verdict(Ahead::Skeptic, 0.6),
                flips: true,
                usage: Some(used(50, 5)),
            },
        ),
        (
            310,
            DebateEvent::RoundStarted {
                round: 1,
                topic: "Is it faster?".into(),
                heat: Heat::new(0.6),
                injected: vec![],
            },
        ),
        (
            320,
            DebateEvent::TurnStarted {
                round: 1,
                role: Role::Advocate,
                purpose: TurnPurpose::Argue,
                temperature: Some(0.6),
            },
        ),
        (330, DebateEvent::Delta { round: 1, role: Role::Advocate, text: "Lost".into() }),
        (
            340,
            DebateEvent::TurnRetrying {
                round: 1,
                role: Role::Advocate,
                attempt: 1,
                max_retries: 2,
                delay_ms: 10,
                reason: "overloaded".into(),
            },
        ),
    ]);
    events.extend(turn([340, 360, 400], 1, Role::Advocate, "Still trains.", Some(used(110, 25))).split_off(1));
    events.extend(turn([410, 415, 450], 1, Role::Skeptic, "Still flights.", Some(used(150, 40))));
    events.extend(turn([460, 470, 480], 1, Role::Judge, "{}", Some(used(310, 12))));
    events.push((481, DebateEvent::VerdictReached { round: 1, verdict: verdict(Ahead::Skeptic, 0.5) }));
    let synthesis =
        DebateEvent::TurnStarted { round: 1, role: Role::Judge, purpose: TurnPurpose::Synthesis, temperature: None };
    events.push((490, synthesis));
    events.extend(turn([490, 500, 520], 1, Role::Judge, "In sum, flights.", Some(used(200, 50))).split_off(1));
    events.extend([
        (
            525,
            DebateEvent::HumanVerdict {
                round: 1,
                ahead: Some(Role::Advocate),
                confidence: 70,
                note: String::new(),
                ends: false,
            },
        ),
        (530, DebateEvent::Finished { outcome: heat::debate::Outcome::MaxRounds, synthesis: Some("In sum.".into()) }),
    ]);
    events
}

/// Every seat at $1 a million tokens in and $2 out; the judge too unless `judge_unpriced`.
fn prices(judge_unpriced: bool) -> Prices {
    let price = Price { input: 1.0, output: 2.0, cached_input: None };
    let seats = [Role::Advocate, Role::Skeptic, Role::Judge].into_iter().filter(|r| !(judge_unpriced && r.is_judge()));
    Prices { seats: seats.map(|r| (r, price)).collect(), judges: Vec::new() }
}

/// The rows of the hand-made debate, priced as `prices` says.
fn built(prices: &Prices) -> (DebateRow, Vec<RoundRow>, Vec<TurnRow>) {
    let events = stamped();
    let state = DebateState::from_events(events.iter().map(|(_, e)| e));
    let timing = Timing::of(events.iter().map(|(ms, e)| (*ms, e)));
    let debate = Debate {
        session: "s1",
        tournament: Some("t1"),
        key: Some("p0-m0vm1-r0"),
        created_ms: Some(1_700_000_000_000),
        state: &state,
        timing: &timing,
    };
    let secrets = [KEY.to_string()];
    let context = Context { prices, secrets: &secrets };
    let debate_row = rows::debate_row(&debate, &context).unwrap();
    (debate_row, rows::round_rows(&debate, &context), rows::turn_rows(&debate, &context))
}

fn dollars(input: u64, output: u64) -> f64 {
    (input as f64 + output as f64 * 2.0) / 1e6
}

#[test]
fn a_debate_row_says_what_the_debate_recorded_and_null_where_it_did_not() {
    let (row, _, _) = built(&prices(false));
    assert_eq!(row.who.tournament.as_deref(), Some("t1"));
    assert_eq!(row.who.key.as_deref(), Some("p0-m0vm1-r0"));
    assert_eq!(row.who.session, "s1");
    assert_eq!(
        (row.who.advocate_model.as_deref(), row.who.skeptic_model.as_deref(), row.who.judge_model.as_deref()),
        (Some("openai:mock-a"), Some("openai:mock-b"), Some("openai:mock-j"))
    );
    assert_eq!(row.proposition, "Night trains beat flights", "the escape sequence is cleaned away, on one line");
    assert_eq!(row.started_at, Some(1_700_000_000_000));
    assert_eq!((row.format.as_str(), row.panel_models.as_deref(), row.seed), ("duel", None, None));
    assert_eq!((row.max_rounds, row.rounds, row.outcome), (2, 2, Some("max_rounds")));
    assert_eq!((row.winner_side, row.winner_model.as_deref()), (Some("skeptic"), Some("openai:mock-b")));
    assert_eq!((row.person_side, row.room_side), (Some("advocate"), None), "the room never voted: null");
    assert_eq!((row.advocate_words, row.skeptic_words), (8, 5));
    assert_eq!((row.swap_checks, row.swap_flips), (1, 1));
    let (input, output) = (100 + 120 + 300 + 50 + 110 + 150 + 310 + 200, 20 + 30 + 10 + 5 + 25 + 40 + 12 + 50);
    assert_eq!((row.spent.calls, row.spent.input, row.spent.output), (8, input, output));
    assert!((row.spent.cost.unwrap() - dollars(input, output)).abs() < 1e-12);
    assert_eq!(row.duration_ms, Some(530));

    let (unpriced, _, _) = built(&prices(true));
    assert_eq!(unpriced.spent.cost, None, "a call without a price: the cost is unknown, not a partial sum");
    let cells = unpriced.cells();
    let cell = |name: &str| cells.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap();
    assert_eq!(cell("cost_usd"), Value::Float(None));
    assert_eq!(cell("tokens_in"), Value::Int(Some(i64::try_from(input).unwrap())));
    assert_eq!(cell("room_side"), Value::Text(None));
    assert_eq!(cell("seed"), Value::Int(None));
    assert_eq!(cell("started_at"), Value::Time(Some(1_700_000_000_000)));
}

#[test]
fn round_rows_say_who_was_ahead_each_round_and_what_it_cost() {
    let (_, rounds, _) = built(&prices(false));
    assert_eq!(rounds.len(), 2);
    let [first, second] = [&rounds[0], &rounds[1]];
    assert_eq!((first.round, first.question.as_str(), first.heat), (1, "Night trains beat flights", 0.9));
    assert_eq!((first.ahead_side, first.ahead_model.as_deref()), (Some("advocate"), Some("openai:mock-a")));
    assert_eq!((first.resolved, first.conceded, first.next_heat), (Some(false), None, Some(0.6)));
    assert_eq!((first.advocate_score, first.skeptic_score), (None, None), "the duel does not score");
    assert_eq!((first.swap_flipped, first.person_side, first.room_votes), (Some(true), None, None));
    assert_eq!((first.panel_ahead_side, first.panel_ahead_votes), (None, None), "no panel");
    assert_eq!((first.advocate_words, first.skeptic_words), (Some(6), Some(3)));
    assert_eq!((first.spent.input, first.spent.output), (100 + 120 + 300 + 50, 20 + 30 + 10 + 5));
    assert_eq!(first.duration_ms, Some(300 - 5), "from its start to its swap check's answer");
    assert_eq!(
        (second.round, second.ahead_side, second.ahead_model.as_deref()),
        (2, Some("skeptic"), Some("openai:mock-b"))
    );
    assert_eq!((second.swap_flipped, second.person_side), (None, Some("advocate")));
    assert_eq!(second.duration_ms, Some(520 - 310), "the person's later verdict is not the round's time");
}

#[test]
fn turn_rows_carry_each_turn_cleaned_with_its_times() {
    let (_, _, turns) = built(&prices(false));
    let seats: Vec<(u32, &str, &str)> = turns.iter().map(|t| (t.round, t.seat, t.purpose)).collect();
    assert_eq!(
        seats,
        [
            (1, "advocate", "argue"),
            (1, "skeptic", "argue"),
            (1, "judge", "judge"),
            (2, "advocate", "argue"),
            (2, "skeptic", "argue"),
            (2, "judge", "judge"),
            (2, "judge", "synthesis")
        ]
    );
    let first = &turns[0];
    assert_eq!(first.text, "Trains win. My key is [redacted]", "a key heat knows is never written");
    assert_eq!((first.model.as_deref(), first.status, first.temperature), (Some("openai:mock-a"), "done", Some(0.9)));
    assert_eq!((first.started_ms, first.first_token_ms, first.duration_ms), (Some(10), Some(30), Some(80)));
    assert_eq!((first.verdict_read, first.ahead_side, first.truncated, first.tool_calls), (None, None, false, 0));
    assert!((first.spent.cost.unwrap() - dollars(100, 20)).abs() < 1e-12);
    let retried = &turns[3];
    assert_eq!(
        (retried.started_ms, retried.first_token_ms, retried.duration_ms),
        (Some(320), Some(40), Some(80)),
        "the first token after the retry"
    );
    assert_eq!((turns[2].verdict_read, turns[2].ahead_side), (Some(true), Some("advocate")));
    assert_eq!((turns[6].verdict_read, turns[6].ahead_side, turns[6].temperature), (Some(false), None, None));
}

fn unstamped<'a>(state: &'a DebateState, timing: &'a Timing) -> Debate<'a> {
    Debate { session: "s", tournament: None, key: None, created_ms: None, state, timing }
}

#[test]
fn a_debate_without_its_sides_has_no_row_and_times_not_logged_are_null() {
    let events = stamped();
    let state = DebateState::from_events(events.iter().map(|(_, e)| e));
    let mut sideless = state.clone();
    sideless.participants.retain(|p| p.role != Role::Skeptic);
    let timing = Timing::default();
    let context = Context { prices: &Prices::default(), secrets: &[] };
    assert!(rows::debate_row(&unstamped(&sideless, &timing), &context).is_none(), "heat stats does not count it");
    assert!(rows::turn_rows(&unstamped(&sideless, &timing), &context).is_empty());
    let mut sheet = Sheet::new(Rows::Turns);
    assert!(!sheet.add(&unstamped(&sideless, &timing), &context));
    assert!(sheet.add(&unstamped(&state, &timing), &context));
    assert_eq!(sheet.describe(), "7 turns of 1 debate");
    let turns = rows::turn_rows(&unstamped(&state, &timing), &context);
    assert!(turns.iter().all(|t| t.started_ms.is_none() && t.duration_ms.is_none()), "no log times: null");
    let row = rows::debate_row(&unstamped(&state, &timing), &context).unwrap();
    assert_eq!((row.spent.cost, row.duration_ms, row.started_at, row.who.tournament), (None, None, None, None));
    let game = heat::tournament::games::game("s", &state).unwrap();
    assert_eq!(
        (row.winner_side, game.winner),
        (Some("skeptic"), Some(heat::tournament::stats::Pick::Skeptic)),
        "the winner heat stats counts"
    );
}

/// Each kind of row: its columns' names, unique, its rows' cells matching them.
fn columns<R: Row>(rows: &[R]) -> Vec<(&'static str, Kind)> {
    let blank = R::blank();
    let names: std::collections::BTreeSet<&str> = blank.iter().map(|(n, _)| *n).collect();
    assert_eq!(names.len(), blank.len(), "{} has a column named twice", R::TABLE);
    for row in rows {
        let cells = row.cells();
        let same = cells.iter().zip(&blank).all(|((a, x), (b, y))| a == b && x.kind() == y.kind());
        assert!(same && cells.len() == blank.len(), "{}'s row has the columns of its blank", R::TABLE);
    }
    blank.iter().map(|(n, v)| (*n, v.kind())).collect()
}

#[test]
fn every_column_is_named_once_typed_alike_in_every_row_and_documented() {
    let (debate, rounds, turns) = built(&prices(false));
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournaments.md")).unwrap();
    let all = [columns(&[debate]), columns(&rounds), columns(&turns)];
    for (name, _) in all.iter().flatten() {
        assert!(docs.contains(&format!("`{name}`")), "docs/tournaments.md names the column `{name}`");
    }
    assert_eq!(all[0][..3], [("tournament", Kind::Text), ("key", Kind::Text), ("session", Kind::Text)]);
}

#[test]
fn csv_fields_are_quoted_where_they_must_be_a_null_is_empty_and_a_formula_defused() {
    let table = Table {
        name: "t",
        columns: vec![("a", Kind::Text), ("b", Kind::Int), ("c", Kind::Float), ("d", Kind::Time), ("e", Kind::Bool)],
        rows: vec![
            vec![
                Value::Text(Some("he said \"no\", twice\nthen left".into())),
                Value::Int(Some(-3)),
                Value::Float(Some(0.25)),
                Value::Time(Some(1_700_000_000_123)),
                Value::Bool(Some(true)),
            ],
            vec![
                Value::Text(Some("=1+1".into())),
                Value::Int(None),
                Value::Float(None),
                Value::Time(None),
                Value::Bool(None),
            ],
        ],
    };
    let mut out = Vec::new();
    heat::tournament::export::csv::write(&table, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "a,b,c,d,e\r\n\"he said \"\"no\"\", twice\nthen left\",-3,0.25,2023-11-14T22:13:20.123Z,true\r\n'=1+1,,,,\r\n"
    );
}

// ---- From the binary ----------------------------------------------------

const FILE: &str = r#"
propositions = ["Night trains beat short-haul flights", "Cities should ban cars from their centres"]
models = ["openai:mock-a", "openai:mock-b"]
judge = "openai:mock-j"
rounds = 2
seed = 5
concurrency = 2
"#;

fn required() -> bool {
    std::env::var("HEAT_REQUIRE_PYTHON").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The Python that has pyarrow, or `None` after saying why the readers are skipped.
fn python(test: &str) -> Option<PathBuf> {
    let python = std::env::var_os("HEAT_PYTHON").map(PathBuf::from).filter(|p| {
        std::process::Command::new(p)
            .args(["-c", "import csv, pyarrow.parquet"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if python.is_none() {
        let why = format!(
            "{test}: the readers are skipped: $HEAT_PYTHON names no Python with pyarrow (see .ci/run; HEAT_REQUIRE_PYTHON=1 fails instead)"
        );
        assert!(!required(), "{why}");
        eprintln!("{why}");
    }
    python
}

/// Reads each file with Python's `csv` module or pyarrow: its rows as
/// JSON objects (every CSV value a string), and a Parquet file's column types.
const READ: &str = r#"
import csv, json, sys
import pyarrow.parquet as pq
out = {}
for path in sys.argv[1:]:
    if path.endswith(".csv"):
        with open(path, newline="", encoding="utf-8") as f:
            out[path] = {"rows": list(csv.DictReader(f))}
    else:
        table = pq.read_table(path)
        out[path] = {"rows": table.to_pylist(), "types": {f.name: str(f.type) for f in table.schema}}
print(json.dumps(out, default=str))
"#;

fn run(mut cmd: assert_cmd::Command) -> std::process::Output {
    cmd.timeout(Duration::from_secs(180));
    cmd.output().unwrap()
}

/// `heat stats --export FILE --rows ROWS`, which must succeed and say what it wrote.
async fn export(data: &Path, server: &support::mock_llm::MockLlm, file: &Path, rows: &str) -> String {
    let mut cmd = crate::tournament::heat(data, server);
    cmd.arg("stats").arg("--export").arg(file).args(["--rows", rows]);
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(out.stdout.is_empty(), "the export prints nothing on standard output");
    stderr
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tournament_exports_to_csv_and_parquet_that_real_readers_read_back() {
    let server = crate::tournament::server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("t.toml"), FILE).unwrap();
    let mut cmd = crate::tournament::heat(data.path(), &server);
    cmd.arg("tournament").arg(data.path().join("t.toml"));
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let mut cmd = crate::tournament::heat(data.path(), &server);
    cmd.args(["stats", "--json"]);
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["debates"], 4, "{stats}");

    let dir = data.path().join("out");
    std::fs::create_dir(&dir).unwrap();
    let mut files = Vec::new();
    for (rows, said) in
        [("debates", "4 debates"), ("rounds", "8 rounds of 4 debates"), ("turns", "24 turns of 4 debates")]
    {
        for extension in ["csv", "parquet"] {
            let file = dir.join(format!("{rows}.{extension}"));
            let stderr = export(data.path(), &server, &file, rows).await;
            assert!(stderr.contains(&format!("heat: wrote {said} to {}", file.display())), "{stderr}");
            files.push(file);
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 6, "the six files and no temporary one: {leftovers:?}");
    let bytes = std::fs::read(&files[1]).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"), "a Parquet file");
    let csv = std::fs::read_to_string(&files[0]).unwrap();
    assert!(csv.starts_with("tournament,key,session,advocate_model,skeptic_model,judge_model,started_at,"), "{csv}");

    // Exported again without --force: refused, the file as it was.
    let mut cmd = crate::tournament::heat(data.path(), &server);
    cmd.arg("stats").arg("--export").arg(&files[0]);
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    assert!(support::binary::stderr(&out).contains("already exists; pass --force to replace it"));
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), csv);

    let Some(python) = python("a_tournament_exports_to_csv_and_parquet_that_real_readers_read_back") else { return };
    let out = std::process::Command::new(python).arg("-c").arg(READ).args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let table = |index: usize| read[files[index].to_str().unwrap()].clone();
    read_debates(&stats, &table(0), &table(1));
    read_rounds(&table(2), &table(3));
    read_turns(&table(4), &table(5));
}

/// The debates: four rows each way, every winner the one `heat stats` counted.
fn read_debates(stats: &serde_json::Value, csv: &serde_json::Value, parquet: &serde_json::Value) {
    let types = &parquet["types"];
    assert_eq!(
        [&types["winner_model"], &types["rounds"], &types["cost_usd"], &types["started_at"]],
        ["string", "int64", "double", "timestamp[ms, tz=UTC]"]
    );
    let (csv, parquet) = (csv["rows"].as_array().unwrap(), parquet["rows"].as_array().unwrap());
    assert_eq!((csv.len(), parquet.len()), (4, 4));
    for model in stats["summary"]["models"].as_array().unwrap() {
        let name = model["model"].as_str().unwrap();
        let won = |rows: &[serde_json::Value]| rows.iter().filter(|r| r["winner_model"] == name).count() as f64;
        assert_eq!(Some(won(csv)), model["overall"]["wins"].as_f64(), "{name} in the CSV");
        assert_eq!(Some(won(parquet)), model["overall"]["wins"].as_f64(), "{name} in the Parquet file");
    }
    for (c, p) in csv.iter().zip(parquet) {
        assert_eq!(c["session"], p["session"], "the same order");
        assert_eq!(
            (p["winner_model"].as_str(), p["winner_side"].as_str()),
            (Some("openai:mock-b"), c["winner_side"].as_str())
        );
        assert_eq!(
            (&p["rounds"], &p["max_rounds"], &p["outcome"]),
            (&serde_json::json!(2), &serde_json::json!(2), &serde_json::json!("max_rounds"))
        );
        assert!(p["key"].as_str().unwrap().starts_with('p'), "{p}");
        assert_eq!(c["key"], p["key"]);
        // The mock reports 30 tokens in and 4 out a call, and a debate makes six.
        assert_eq!((&p["tokens_in"], &p["tokens_out"]), (&serde_json::json!(180), &serde_json::json!(24)), "{p}");
        assert_eq!((c["tokens_in"].as_str(), c["tokens_out"].as_str()), (Some("180"), Some("24")));
        assert!(p["person_side"].is_null() && c["person_side"] == "", "no person judged: null");
        assert!(p["cost_usd"].is_null() && c["cost_usd"] == "", "no prices: null");
        assert_eq!(p["seed"], 5);
        assert!(p["duration_ms"].as_i64().is_some_and(|ms| ms >= 0), "{p}");
        assert!(p["started_at"].as_str().unwrap().contains("+00:00"), "{p}");
    }
}

/// The rounds: two a debate, the later letter ahead in each.
fn read_rounds(csv: &serde_json::Value, parquet: &serde_json::Value) {
    let (csv, parquet) = (csv["rows"].as_array().unwrap(), parquet["rows"].as_array().unwrap());
    assert_eq!((csv.len(), parquet.len()), (8, 8));
    for (c, p) in csv.iter().zip(parquet) {
        assert_eq!(p["ahead_model"], "openai:mock-b", "{p}");
        assert_eq!(c["ahead_model"], "openai:mock-b");
        assert_eq!(c["round"], p["round"].to_string(), "{c}");
        assert!(p["advocate_score"].is_null() && c["advocate_score"] == "", "the duel does not score");
        assert_eq!((&p["resolved"], c["resolved"].as_str()), (&serde_json::json!(false), Some("false")));
    }
    assert_eq!(parquet.iter().filter(|p| p["round"] == 2).count(), 4);
}

/// The turns: six a debate (two rounds of three, the last round's judge
/// writing the synthesis), each model's words in its own turns.
fn read_turns(csv: &serde_json::Value, parquet: &serde_json::Value) {
    assert_eq!(parquet["types"]["text"], "string");
    let (csv, parquet) = (csv["rows"].as_array().unwrap(), parquet["rows"].as_array().unwrap());
    assert_eq!((csv.len(), parquet.len()), (24, 24));
    for (c, p) in csv.iter().zip(parquet) {
        assert_eq!(c["text"], p["text"], "the CSV quotes the text so it reads back whole");
        let model = p["model"].as_str().unwrap();
        if p["seat"] == "judge" {
            assert_eq!(model, "openai:mock-j");
        } else {
            let letter = model.trim_start_matches("openai:mock-").to_uppercase();
            assert!(p["text"].as_str().unwrap().starts_with(&format!("Model {letter} says")), "{p}");
            assert!(p["verdict_read"].is_null() && c["verdict_read"] == "", "a debater's turn has no verdict");
        }
        assert!(p["duration_ms"].as_i64().is_some() && p["started_ms"].as_i64().is_some(), "{p}");
    }
    assert_eq!(parquet.iter().filter(|p| p["purpose"] == "synthesis").count(), 4);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_extension_and_a_tournament_with_nothing_finished_are_one_sentence_each() {
    let server = crate::tournament::server(Duration::ZERO).await;
    let data = tempfile::tempdir().unwrap();
    let bad = data.path().join("out.xlsx");
    let mut cmd = crate::tournament::heat(data.path(), &server);
    cmd.arg("stats").arg("--export").arg(&bad);
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert_eq!(
        stderr.trim_end(),
        format!(
            "heat: heat exports to a .csv or a .parquet file, and {} is neither: name it out.csv or out.parquet",
            bad.display()
        )
    );
    assert!(!bad.exists());

    let tournaments = heat::store::tournaments::Tournaments::open(data.path()).unwrap();
    let (id, mut journal) = tournaments.create(FILE).unwrap();
    journal.write(&heat::store::tournaments::Entry::Began { seed: 5, debates: 4, at_ms: 1 }).unwrap();
    let file = data.path().join("out.parquet");
    let mut cmd = crate::tournament::heat(data.path(), &server);
    cmd.arg("stats").arg("--export").arg(&file);
    let out = tokio::task::spawn_blocking(move || run(cmd)).await.unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert_eq!(stderr.trim_end(), format!("heat: tournament {id} has no finished debate to export yet"));
    let written: Vec<_> = std::fs::read_dir(data.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!written.iter().any(|name| name.to_string_lossy().contains("out")), "nothing written: {written:?}");
}
