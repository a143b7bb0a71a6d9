//! `heat run` and `heat resume` end to end: the real binary as a subprocess
//! against the local mock server speaking Anthropic's wire format.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use heat::cli::json_lines::read_json_line;
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const KEY: &str = "sk-ant-test-5f3a9c1e";

/// Plays a debate: the judge leaves round 1 open (heat 0.6), resolves round 2.
fn debate_reply(request: &Recorded) -> Reply {
    let system = request.system();
    let text = if system.contains("You are the JUDGE") {
        if request.last_message().contains("Round 1 of") {
            r#"{"resolved": false, "verdict": "Both sides opened well.", "topic": "What about onboarding?", "heat": 0.6}"#
        } else {
            r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#
        }
    } else if system.contains("You are the ADVOCATE") {
        // A new argument each round: one said again word for word is asked for again.
        if request.last_message().contains("Round 1 of") {
            "Tabs let every reader choose a width."
        } else {
            "Tabs keep every file smaller on disk."
        }
    } else if request.last_message().contains("Round 1 of") {
        "Spaces render the same everywhere."
    } else {
        "Spaces keep alignment exact in review."
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

fn heat(data: &Path, server: &MockLlm) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 1\n");
    cmd.env("ANTHROPIC_API_KEY", KEY).env("ANTHROPIC_BASE_URL", &server.base_url);
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

/// Every file heat wrote under `dir`, read as text.
fn written_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(written_files(&path));
        } else {
            out.push((
                path.display().to_string(),
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned(),
            ));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_runs_to_resolution_and_prints_as_it_streams() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    // The most verbose log, so the secrets check below covers everything logged.
    cmd.args(["--log-level", "trace", "run", "Tabs beat spaces", "--max-rounds", "3"]);
    let out = output(cmd).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("advocate  anthropic/claude-haiku-4-5"), "{stdout}");
    assert!(!stdout.contains("TRACE") && !stderr.contains("INFO"), "log records reached the terminal");
    assert!(stdout.contains("── Round 1 of 3 · heat 0.90"), "{stdout}");
    assert!(stdout.contains("▌ Advocate\nTabs let every reader choose a width.\n"), "{stdout}");
    assert!(stdout.contains("▌ Skeptic\nSpaces render the same everywhere.\n"), "{stdout}");
    assert!(
        stdout.contains("not resolved: Both sides opened well.\nnext: What about onboarding? · heat 0.60"),
        "{stdout}"
    );
    assert!(stdout.contains("── Round 2 of 3 · heat 0.60"), "{stdout}");
    assert!(stdout.contains("══ resolved by the judge after 2 rounds ══\nTabs win on accessibility."), "{stdout}");
    // One outcome, said once: the closing verdict is not also printed as "resolved: …".
    assert_eq!(stdout.matches("Tabs win on accessibility.").count(), 1, "{stdout}");
    assert!(!stdout.contains("resolved: Tabs win"), "{stdout}");
    assert!(stderr.contains("saved as session"), "{stderr}");

    // What reached the server: three calls a round, the heat as temperature, the key as x-api-key.
    let requests = server.requests();
    assert_eq!(requests.len(), 6);
    assert!(
        requests
            .iter()
            .all(|r| r.header("x-api-key") == Some(KEY) && r.header("anthropic-version") == Some("2023-06-01"))
    );
    let debaters: Vec<&Recorded> = requests.iter().filter(|r| !r.system().contains("You are the JUDGE")).collect();
    let temps: Vec<f64> = debaters.iter().map(|r| r.body["temperature"].as_f64().unwrap()).collect();
    assert_eq!(temps, vec![0.9, 0.9, 0.6, 0.6]);
    assert!(debaters[2].last_message().contains("What about onboarding?"));
    let judges: Vec<&Recorded> = requests.iter().filter(|r| r.system().contains("You are the JUDGE")).collect();
    assert!(
        judges
            .iter()
            .all(|r| r.body["temperature"] == 0.2 && r.body["output_config"]["format"]["type"] == "json_schema")
    );

    // The log file tells the debate's story.
    let files = written_files(data.path());
    let (_, log) = files.iter().find(|(p, _)| p.contains("/logs/heat.")).expect("a log file in the data dir");
    for line in ["heat started", "debate started", "round started", "turn completed", "verdict", "debate finished"] {
        assert!(log.contains(line), "the log lacks `{line}`:\n{log}");
    }

    // The key never reaches a file heat wrote.
    assert!(files.iter().any(|(p, _)| Path::new(p).extension().is_some_and(|e| e == "jsonl")));
    for (path, text) in files {
        assert!(!text.contains(KEY), "the API key leaked into {path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn json_mode_prints_one_event_per_line() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--json", "--max-rounds", "2"]);
    let out = output(cmd).await;
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    // Rounds count from 1, as everywhere else heat shows them.
    let rounds: Vec<u64> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "round_started")
        .map(|v| v["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, [1, 2]);
    let events: Vec<DebateEvent> = stdout.lines().map(|l| read_json_line(l).unwrap()).collect();
    assert!(matches!(events.first(), Some(DebateEvent::Started { .. })));
    // Round 2 of 2 is the last: the judge writes the final synthesis.
    assert!(matches!(events.last(), Some(DebateEvent::Finished { outcome: Outcome::MaxRounds, .. })));
    assert!(events.iter().any(|e| matches!(e, DebateEvent::Delta { role: Role::Skeptic, .. })));
    // The stored log holds the same events.
    let store = Store::open(data.path()).unwrap();
    let loaded = store.load(&store.resolve(None).unwrap()).unwrap();
    let stored: Vec<DebateEvent> = loaded.records.into_iter().map(|r| r.event).collect();
    assert_eq!(stored, events);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_key_fails_with_the_servers_message() {
    let server = MockLlm::with_handler(|_| Reply::refused_key()).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces"]);
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("the debate failed") && stderr.contains("invalid x-api-key"), "{stderr}");
    assert!(stderr.contains("heat resume"), "{stderr}");
    assert!(!stderr.contains(KEY));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_debate_resumes_where_it_stopped() {
    // The judge's server is down for the first run: every judge call fails.
    let judge_down = Arc::new(AtomicUsize::new(1));
    let flag = Arc::clone(&judge_down);
    let server = MockLlm::with_handler(move |request| {
        if request.system().contains("You are the JUDGE") && flag.load(Ordering::SeqCst) == 1 {
            return Reply::error(503, r#"{"error":{"message":"judge unavailable"}}"#);
        }
        debate_reply(request)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "2"]);
    let first = output(cmd).await;
    assert_eq!(first.status.code(), Some(1), "{}", String::from_utf8_lossy(&first.stderr));
    let debater_calls = server.requests().iter().filter(|r| !r.system().contains("JUDGE")).count();
    assert_eq!(debater_calls, 2);

    judge_down.store(0, Ordering::SeqCst);
    let mut cmd = heat(data.path(), &server);
    cmd.args(["resume"]);
    let second = output(cmd).await;
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    assert!(stdout.contains("resuming \"Tabs beat spaces\" at round 1"), "{stdout}");
    assert!(stdout.contains("══ ended at the round limit after 2 rounds ══"), "{stdout}");
    // Only the interrupted turn was re-run: the round-1 debaters were not asked again.
    let requests = server.requests();
    let round_one_debaters =
        requests.iter().filter(|r| !r.system().contains("JUDGE") && r.last_message().contains("Round 1 of")).count();
    assert_eq!(round_one_debaters, 2);
    let store = Store::open(data.path()).unwrap();
    let loaded = store.load(&store.resolve(None).unwrap()).unwrap();
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(state.finish.unwrap().outcome, Outcome::MaxRounds);
    assert_eq!(state.rounds.len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_provider_at_all_names_every_option() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    // Point Ollama at a closed port and the offline model at a missing file.
    std::fs::write(&config, "[providers.ollama]\nbase_url = \"http://127.0.0.1:9\"\n[providers.local]\nmodel_path = \"/nonexistent/model.gguf\"\n").unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.arg("--config").arg(&config).args(["run", "Tabs beat spaces"]).env("HEAT_DATA_DIR", data.path());
    for var in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OLLAMA_HOST", "HEAT_PROVIDER", "HEAT_MODEL_PATH"] {
        cmd.env_remove(var);
    }
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    for option in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "Ollama", "offline model"] {
        assert!(stderr.contains(option), "missing {option}: {stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_prints_what_the_run_printed() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "3"]);
    let run = output(cmd).await;
    assert!(run.status.success());
    let mut cmd = heat(data.path(), &server);
    cmd.args(["replay", "--speed", "1000"]);
    let replayed = output(cmd).await;
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    assert_eq!(String::from_utf8_lossy(&replayed.stdout), String::from_utf8_lossy(&run.stdout));
    assert_eq!(server.requests().len(), 6, "a replay calls no model");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_replays_with_no_provider_at_all() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.args(["replay", "--demo", "--speed", "1000"]).env("HEAT_DATA_DIR", data.path()).env_remove("ANTHROPIC_API_KEY");
    let out = output(cmd).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("heat · Remote work beats the office for software teams"), "{stdout}");
    assert!(
        stdout.contains("advocate  scripted/demo") && stdout.contains("a scripted demo: written in advance"),
        "{stdout}"
    );
    assert!(stdout.contains("── Round 4 of 5 · heat 0.50"), "{stdout}");
    assert!(
        stdout.contains("▌ Advocate")
            && stdout.contains("▌ Skeptic")
            && stdout.contains("══ resolution forced after 4 rounds"),
        "{stdout}"
    );
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.args(["replay", "--demo", "--speed", "NaN"]).env("HEAT_DATA_DIR", data.path());
    let bad = output(cmd).await;
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--speed must be a number of at least 0"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_studio_without_a_terminal_points_to_heat_run() {
    let server = MockLlm::scripted(vec![]).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("Tabs beat spaces");
    let out = output(cmd).await;
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the studio needs a terminal") && stderr.contains("heat run"), "{stderr}");
    assert!(server.requests().is_empty(), "no debate may start without a screen");
}

/// Runs `heat ARGS 2>&1 | head -3` in bash; returns heat's exit status and
/// what head printed.
async fn through_head(data: &Path, server: &MockLlm, args: &str) -> (i32, String) {
    let config = data.join("heat.toml");
    if !config.exists() {
        std::fs::write(&config, "[network]\nmax_retries = 1\n").unwrap();
    }
    let heat = assert_cmd::cargo::cargo_bin("heat");
    let script = format!("\"$HEAT\" --config \"$CONFIG\" {args} 2>&1 | head -3; echo \"status=${{PIPESTATUS[0]}}\"");
    let mut cmd = std::process::Command::new("bash");
    cmd.arg("-c")
        .arg(script)
        .env("HEAT", heat)
        .env("CONFIG", &config)
        .env("HEAT_DATA_DIR", data)
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .env_remove("OPENAI_API_KEY")
        .env_remove("HEAT_PROVIDER")
        .env("NO_COLOR", "1");
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let status = text.lines().find_map(|l| l.strip_prefix("status=")).unwrap().parse().unwrap();
    (status, text)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_pipe_ends_quietly_and_keeps_no_session_that_said_nothing() {
    // Slow answers: the reader is gone long before a turn completes.
    let server = MockLlm::with_handler(|request| debate_reply(request).with_delay(Duration::from_millis(150))).await;
    let data = tempfile::tempdir().unwrap();
    let (status, text) = through_head(data.path(), &server, "run \"Tea is better than coffee\" --max-rounds 1").await;
    assert!(status == 141 || status == 0, "exit {status}:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
    let store = Store::open(data.path()).unwrap();
    assert!(store.list().is_empty(), "a debate cut short before any turn is not kept: {:?}", store.list());

    // A debate that had said something is kept, and `heat resume | head` ends quietly too.
    let fast = MockLlm::with_handler(debate_reply).await;
    let mut run = heat(data.path(), &fast);
    run.args(["run", "Tea is better than coffee", "--max-rounds", "2"]);
    assert!(output(run).await.status.success());
    let (status, text) = through_head(data.path(), &fast, "resume").await;
    assert!(status == 141 || status == 0 || status == 1, "exit {status}:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert_eq!(Store::open(data.path()).unwrap().list().len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn resume_with_no_id_takes_the_newest_debate_that_can_go_on_and_says_which() {
    // First a debate that fails (its judge is down), then a newer one that ends.
    let judge_down = Arc::new(AtomicUsize::new(1));
    let flag = Arc::clone(&judge_down);
    let server = MockLlm::with_handler(move |request| {
        if request.system().contains("You are the JUDGE") && flag.load(Ordering::SeqCst) == 1 {
            return Reply::error(401, r#"{"error":{"message":"judge key revoked"}}"#);
        }
        debate_reply(request)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "2"]);
    let refused = output(cmd).await;
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    // A revoked key is not something a retry changes: `heat resume` is offered for after the fix.
    assert!(said.contains("Once that is fixed, `heat resume "), "{said}");
    assert!(!said.contains("tries again"), "{said}");
    let failed = Store::open(data.path()).unwrap().resolve(None).unwrap();
    judge_down.store(0, Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(5));
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Spaces beat tabs", "--max-rounds", "2"]);
    assert!(output(cmd).await.status.success());

    let mut cmd = heat(data.path(), &server);
    cmd.args(["resume"]);
    let resumed = output(cmd).await;
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("resuming {failed}, the newest debate that can go on")), "{stderr}");
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("resuming \"Tabs beat spaces\""));

    // Now every debate has ended: say so, not "already ended" about the newest.
    let mut cmd = heat(data.path(), &server);
    cmd.args(["resume"]);
    let none = output(cmd).await;
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert!(!none.status.success());
    assert!(stderr.contains("no stored debate can be continued: of 2 stored debates, none can go on"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failure_a_retry_may_change_offers_resume_as_trying_again() {
    // The advocate's server fails every time: retried, then the debate fails; trying later may work.
    let server = MockLlm::with_handler(|request| {
        if request.system().contains("You are the ADVOCATE") {
            return Reply::error(503, r#"{"error":{"message":"upstream unavailable"}}"#);
        }
        debate_reply(request)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let out = output(cmd).await;
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("tries again."), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mistyped_subcommand_asks_did_you_mean_instead_of_debating_it() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.arg("sesions");
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did you mean `heat sessions`?") && stderr.contains("heat -- sesions"), "{stderr}");
    assert!(server.requests().is_empty(), "no debate started");
    // After `--` the word is a topic (the studio, which needs a terminal, says so).
    let mut cmd = heat(data.path(), &server);
    cmd.args(["--", "sesions"]);
    let out = output(cmd).await;
    assert!(!String::from_utf8_lossy(&out.stderr).contains("did you mean"));
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn config_init_writes_a_file_only_its_owner_can_read() {
    use std::os::unix::fs::PermissionsExt as _;
    let data = tempfile::tempdir().unwrap();
    let path = data.path().join("fresh.toml");
    for args in [vec!["config", "init"], vec!["config", "init", "--force"]] {
        let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
        cmd.arg("--config").arg(&path).args(&args).env("HEAT_DATA_DIR", data.path());
        let out = output(cmd).await;
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{args:?}: it may hold an API key");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ollama_without_a_server_names_the_server_and_a_running_one_is_labelled_ollama() {
    let data = tempfile::tempdir().unwrap();
    let server = MockLlm::with_handler(debate_reply).await;
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--provider", "ollama"]).env("OLLAMA_HOST", "127.0.0.1:9");
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("no Ollama server at http://127.0.0.1:9") && stderr.contains("OLLAMA_HOST"), "{stderr}");
    assert!(!stderr.contains("set providers.ollama.model"), "the cause is the server: {stderr}");

    // A server that answers like Ollama: its model list, then the OpenAI dialect.
    let ollama = MockLlm::with_handler(|request| {
        if request.path == "/api/tags" {
            return Reply::error(200, r#"{"models":[{"name":"llama3.2:1b"}]}"#);
        }
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": true, "verdict": "Tabs win narrowly.", "topic": "t", "heat": 0.3}"#
        } else {
            "An argument."
        };
        Reply::sse(&support::mock_llm::openai_sse_text(text, 3), 64)
    })
    .await;
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--provider", "ollama", "--max-rounds", "1"])
        .env("OLLAMA_HOST", ollama.base_url.trim_start_matches("http://"));
    let out = output(cmd).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("advocate  ollama/llama3.2:1b"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread")]
async fn help_has_examples_and_every_flag_says_what_it_does() {
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.arg("--help");
    let help = String::from_utf8_lossy(&output(cmd).await.stdout).into_owned();
    assert!(help.contains("Examples:") && help.contains("heat replay --demo"), "{help}");
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.args(["run", "--help"]);
    let run = String::from_utf8_lossy(&output(cmd).await.stdout).into_owned();
    for flag in ["--advocate-provider", "--skeptic-provider", "--judge-provider", "--judge-model"] {
        let line = run.lines().find(|l| l.contains(flag)).unwrap_or_else(|| panic!("{flag} missing:\n{run}"));
        let described = line.split(flag).nth(1).is_some_and(|rest| rest.contains("alone"));
        assert!(described, "{flag} has no description:\n{run}");
    }
    // `--temperature` is what people type for the heat.
    let data = tempfile::tempdir().unwrap();
    let server = MockLlm::with_handler(debate_reply).await;
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1", "--temperature", "0.5"]);
    let out = output(cmd).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("heat 0.50"));
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_list_as_json_filter_and_delete_by_id_or_age_asking_first() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    for topic in ["Tabs beat spaces", "Cats beat dogs"] {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["run", topic, "--max-rounds", "1"]);
        assert!(output(cmd).await.status.success());
    }
    let sessions = |args: &[&str]| {
        let mut cmd = heat(data.path(), &server);
        cmd.arg("sessions").args(args);
        cmd
    };
    let listed = output(sessions(&["--json"])).await;
    let all: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);
    let found = output(sessions(&["--json", "--search", "CATS"])).await;
    let cats: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(cats.as_array().unwrap().len(), 1);
    assert_eq!(cats[0]["topic"], "Cats beat dogs");
    let none = output(sessions(&["--continuable"])).await;
    assert!(String::from_utf8_lossy(&none.stdout).contains("No session matches; 2 debates stored"));

    // Deleting asks; with no terminal to ask on it says to pass --yes, and deletes nothing.
    let cat_id = cats[0]["id"].as_str().unwrap().to_string();
    let refused = output(sessions(&["rm", &cat_id])).await;
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pass --yes"));
    assert_eq!(Store::open(data.path()).unwrap().list().len(), 2);
    let removed = output(sessions(&["rm", &cat_id, "--yes"])).await;
    assert!(removed.status.success(), "{}", String::from_utf8_lossy(&removed.stderr));
    let left = Store::open(data.path()).unwrap().list();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].topic, "Tabs beat spaces");

    // Prune by age: nothing is a day old; everything is older than no time at all.
    let young = output(sessions(&["prune", "--older-than", "1d", "--yes"])).await;
    assert!(String::from_utf8_lossy(&young.stderr).contains("no stored debate is older than 1 day"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    let pruned = output(sessions(&["prune", "--older-than", "10ms", "--yes"])).await;
    assert!(pruned.status.success(), "{}", String::from_utf8_lossy(&pruned.stderr));
    assert!(Store::open(data.path()).unwrap().list().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_at_speed_zero_or_instant_prints_everything_at_once() {
    let data = tempfile::tempdir().unwrap();
    let server = MockLlm::with_handler(debate_reply).await;
    let replay = |args: &[&str]| {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["replay", "--demo"]).args(args);
        cmd
    };
    let paced = output(replay(&["--speed", "1000"])).await;
    let instant = output(replay(&["--instant"])).await;
    let zero = output(replay(&["--speed", "0"])).await;
    assert!(instant.status.success() && zero.status.success());
    assert!(!paced.stdout.is_empty());
    assert_eq!(instant.stdout, paced.stdout, "the same debate, all at once");
    assert_eq!(zero.stdout, paced.stdout);
    let negative = output(replay(&["--speed=-1"])).await;
    assert!(String::from_utf8_lossy(&negative.stderr).contains("--speed must be a number of at least 0"));
}

#[tokio::test(flavor = "multi_thread")]
async fn export_to_a_file_never_replaces_one_unless_forced() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    assert!(output(cmd).await.status.success());
    let file = data.path().join("notes.md");
    std::fs::write(&file, "my own notes").unwrap();
    let export = |extra: &[&str]| {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["export", "-o", file.to_str().unwrap()]).args(extra);
        cmd
    };
    let refused = output(export(&[])).await;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(stderr.contains("notes.md already exists; pass --force to replace it"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my own notes", "the file is untouched");
    let charts = [data.path().join("notes-heat.svg"), data.path().join("notes-words.svg")];
    assert!(charts.iter().all(|c| !c.exists()), "a refused export wrote its charts anyway");

    // Charts of an earlier export in the way: the error names the file asked
    // for first, then the chart; nothing is written, not even FILE.
    std::fs::remove_file(&file).unwrap();
    std::fs::write(&charts[1], "an old chart").unwrap();
    let refused = output(export(&[])).await;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("notes-words.svg already exists (a chart of ") && stderr.contains("notes.md); pass --force"),
        "{stderr}"
    );
    assert!(!file.exists() && !charts[0].exists(), "a refused export left files behind");
    assert_eq!(std::fs::read_to_string(&charts[1]).unwrap(), "an old chart");

    std::fs::write(&file, "my own notes").unwrap();
    let forced = output(export(&["--force"])).await;
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("# Tabs beat spaces"));
    assert!(std::fs::read_to_string(&charts[1]).unwrap().contains("<svg"), "--force replaces the charts too");

    // --force with a directory where a chart goes: refused, and FILE keeps its bytes.
    std::fs::write(&file, "my own notes").unwrap();
    std::fs::remove_file(&charts[0]).unwrap();
    std::fs::create_dir(&charts[0]).unwrap();
    let refused = output(export(&["--force"])).await;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("notes-heat.svg is a directory: name a file"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my own notes", "a refused --force empties nothing");

    // -o naming a directory says so, with or without --force.
    for extra in [&[][..], &["--force"]] {
        let mut cmd = heat(data.path(), &server);
        cmd.args(["export", "-o", data.path().to_str().unwrap()]).args(extra);
        let out = output(cmd).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains("is a directory: name a file, e.g. "), "{extra:?}: {stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn theme_and_present_are_offered_only_by_the_commands_that_open_the_studio() {
    let help = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("heat").unwrap().args(args).arg("--help").output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for studio in [&[][..], &["resume"], &["replay"], &["watch"]] {
        let said = help(studio);
        assert!(said.contains("--theme") && said.contains("--present"), "heat {studio:?} --help lacks --theme");
    }
    for other in [&["sessions"][..], &["run"], &["export"], &["doctor"], &["model", "list"], &["config", "show"]] {
        let said = help(other);
        assert!(!said.contains("--theme") && !said.contains("--present"), "heat {other:?} --help offers --theme");
    }
    let data = tempfile::tempdir().unwrap();
    let server = MockLlm::with_handler(debate_reply).await;
    let mut cmd = heat(data.path(), &server);
    cmd.args(["--theme", "light", "sessions"]);
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("give them to `heat`, `heat resume`, `heat replay` or `heat watch`"),
        "{stderr}"
    );
    let mut cmd = heat(data.path(), &server);
    cmd.args(["--present", "run", "Tabs beat spaces"]);
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--theme and --present set up the studio"), "{stderr}");
}

/// A debate about a design document: the advocate quotes it, the skeptic invents.
fn source_reply(request: &Recorded) -> Reply {
    let system = request.system();
    let text = if system.contains("You are the JUDGE") {
        r#"{"resolved": true, "verdict": "The advocate's quotes hold; the skeptic's do not.", "topic": "t", "heat": 0.3}"#
    } else if system.contains("You are the ADVOCATE") {
        "The doc says \"a job is enqueued in the same commit\" [L4–L5]."
    } else {
        "It also says \"Postgres is slower than Redis for everything\" [L99]."
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

const QUEUE_DOC: &str = "# Move the job queue to Postgres\n\
    The current queue runs on Redis and loses jobs\n\
    when a node restarts during a deploy.\n\
    Postgres gives us transactions, so a job is enqueued\n\
    in the same commit as the row that caused it.\n";

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_about_a_document_checks_its_quotes_end_to_end() {
    let server = MockLlm::with_handler(source_reply).await;
    let data = tempfile::tempdir().unwrap();
    let doc = data.path().join("queue.md");
    std::fs::write(&doc, QUEUE_DOC).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "--max-rounds", "1", "--source"]).arg(&doc);
    let out = output(cmd).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("heat · Move the job queue to Postgres\n"), "the topic is the first heading: {stdout}");
    assert!(stdout.contains("source    "), "{stdout}");
    assert!(stdout.contains("queue.md (5 lines)"), "{stdout}");
    assert!(
        stdout.contains("advocate's citations: ✓ “a job is enqueued in the same commit” (L4–L5) · ✓ [L4–L5]"),
        "{stdout}"
    );
    assert!(stdout.contains("skeptic's citations: ✗ “Postgres is slower than Redis for everything” (not in the source) · ✗ [L99] (no such lines)"), "{stdout}");

    // Every request carried today's date and the numbered document, first.
    for request in server.requests() {
        let system = request.system();
        assert!(system.starts_with("Today is "), "{system}");
        assert!(system.contains("L2: The current queue runs on Redis and loses jobs"), "{system}");
    }
    let judge = server.requests().into_iter().find(|r| r.system().contains("You are the JUDGE")).unwrap();
    assert!(judge.last_message().contains("- the skeptic: ✗"), "{}", judge.last_message());

    // The session keeps the document's text: export works after the file is gone.
    std::fs::remove_file(&doc).unwrap();
    let store = Store::open(data.path()).unwrap();
    let id = store.list()[0].id.clone();
    let mut export = heat(data.path(), &server);
    export.args(["export", &id]);
    let exported = output(export).await;
    let md = String::from_utf8_lossy(&exported.stdout);
    assert!(md.contains("- Source: `"), "{md}");
    assert!(md.contains("- Advocate's citations: 2 verified, 0 near, 0 not found"), "{md}");
    assert!(md.contains("*Checked against the source:* ✗ “Postgres is slower than Redis for everything”"), "{md}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_source_that_cannot_be_debated_is_refused_and_nothing_is_stored() {
    let server = MockLlm::with_handler(source_reply).await;
    let data = tempfile::tempdir().unwrap();
    let binary = data.path().join("images/image.md");
    std::fs::create_dir_all(data.path().join("images")).unwrap();
    std::fs::write(&binary, b"PNG\0\0\x01").unwrap();
    let cases: [(Vec<String>, String); 4] = [
        (vec!["--source".into(), data.path().join("missing.md").display().to_string()], "does not exist".into()),
        // A folder is a library: one with nothing readable is refused.
        (
            vec!["--source".into(), data.path().join("images").display().to_string()],
            "holds nothing heat can read".into(),
        ),
        (vec!["--source".into(), binary.display().to_string()], "looks binary".into()),
        (vec![], "give a proposition to debate".into()),
    ];
    for (args, said) in cases {
        let mut cmd = heat(data.path(), &server);
        cmd.arg("run").args(&args);
        let out = output(cmd).await;
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(&said), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "one sentence: {stderr}");
    }
    assert!(Store::open(data.path()).unwrap().list().is_empty(), "nothing stored");
    assert!(server.requests().is_empty(), "nothing asked");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_section_of_a_document_is_debated_with_its_heading_path() {
    let server = MockLlm::with_handler(source_reply).await;
    let data = tempfile::tempdir().unwrap();
    let doc = data.path().join("design.md");
    std::fs::write(&doc, "# Design\nintro\n## Storage\nPostgres holds the jobs.\n## Network\nHTTP only.\n").unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "--max-rounds", "1", "--section", "storage", "--source"]).arg(&doc);
    let out = output(cmd).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("heat · Storage\n"), "{stdout}");
    let system = server.requests()[0].system();
    assert!(system.contains("this section of the source document"), "{system}");
    assert!(system.contains("Design › Storage (lines 3–4)"), "{system}");
    assert!(system.contains("<source>\nL3: ## Storage\nL4: Postgres holds the jobs.\n</source>"), "{system}");

    let mut missing = heat(data.path(), &server);
    missing.args(["run", "--section", "Billing", "--source"]).arg(&doc);
    let out = output(missing).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("has no heading \"Billing\"; its headings: Design, Storage, Network"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_source_too_big_for_the_configured_context_is_refused_before_any_request() {
    let server = MockLlm::with_handler(source_reply).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::write(
        data.path().join("heat.toml"),
        "[network]\nmax_retries = 1\n[providers.anthropic]\nmax_context = 2000\n",
    )
    .unwrap();
    let doc = data.path().join("long.md");
    std::fs::write(&doc, "A line of a long design document that goes on and on.\n".repeat(400)).unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "--source"]).arg(&doc);
    let out = output(cmd).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("more than the advocate's model can read: its context is 2000 tokens"), "{stderr}");
    assert!(stderr.contains("--section HEADING"), "{stderr}");
    assert!(server.requests().is_empty());
    assert!(Store::open(data.path()).unwrap().list().is_empty());
}

/// A judge on the debaters' own model is said once, at the start; with keys
/// for two providers, `auto` seats the judge on the one no debater sits on
/// (each mock server sees only its seats' requests), and nothing is said.
#[tokio::test(flavor = "multi_thread")]
async fn a_judge_on_the_debaters_model_is_named_and_with_two_keys_it_sits_apart() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let out = output(cmd).await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = "note: The judge sits on the same model as the advocate and the skeptic (anthropic/claude-haiku-4-5)";
    assert_eq!(stdout.matches(said).count(), 1, "said once:\n{stdout}");

    let verdict =
        r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#;
    let openai = MockLlm::with_handler(move |_| {
        Reply::sse(&support::bodies::openai_stream("gpt-4.1-mini", &[verdict], Some("stop")), 64)
    })
    .await;
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server);
    cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", openai.base_url));
    cmd.args(["run", "Tabs beat spaces", "--max-rounds", "1"]);
    let out = output(cmd).await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("openai/gpt-4.1-mini"), "the judge's seat is named:\n{stdout}");
    assert!(!stdout.contains("The judge sits on the same model"), "{stdout}");
    let chats: Vec<_> = openai.requests().into_iter().filter(|r| r.body["messages"].is_array()).collect();
    assert!(
        !chats.is_empty() && chats.iter().all(|r| r.system().contains("You are the JUDGE")),
        "only the judge on OpenAI"
    );
    assert!(!server.requests().iter().any(|r| r.system().contains("You are the JUDGE")), "no judging on Anthropic");
}
