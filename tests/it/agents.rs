//! Agent CLIs in the seats, from the binary: fakes of Claude Code, Codex
//! and Gemini CLI (`support::agents`) that play each CLI's own stream
//! dialect. A whole duel with one in each seat; the prompt reaches each on
//! standard input and never in its arguments, each runs with its tools off
//! in a fresh working directory, reasoning stays out of the argument, the
//! log records each CLI and its version; and each failure is one sentence.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::{DebateEvent, DebateState, Role};
use heat::store::Store;
use support::agents::{FakeClis, Reply, claude, claude_error, codex, gemini};

const ADVOCATE: &str = "Tabs let every reader choose a width.";
const SKEPTIC: &str = "Spaces render the same everywhere.";
const OPEN: &str =
    r#"{"resolved": false, "verdict": "Both sides opened well.", "topic": "What about onboarding?", "heat": 0.6}"#;
const SETTLED: &str =
    r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#;

fn fakes(dir: &Path) -> FakeClis {
    let clis = FakeClis::new(dir);
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[Reply::new(
            "You are the ADVOCATE",
            "",
            claude(ADVOCATE, Some("The skeptic will say alignment breaks."), "claude-sonnet-4-5"),
        )],
    );
    clis.install(
        "codex",
        "codex-cli 0.171.0",
        &[Reply::new("You are the SKEPTIC", "", codex(SKEPTIC, Some("**Weighing portability**")))],
    );
    clis.install(
        "gemini",
        "0.61.0",
        &[
            Reply::new("You are the JUDGE", "Round 1 of", gemini("(prompt)", OPEN, "gemini-2.5-pro")),
            Reply::new("You are the JUDGE", "", gemini("(prompt)", SETTLED, "gemini-2.5-pro")),
        ],
    );
    clis
}

fn heat(data: &Path, clis: &FakeClis) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 0\n");
    cmd.env("PATH", clis.path()).timeout(std::time::Duration::from_secs(120));
    cmd
}

fn stored(data: &Path) -> Vec<DebateEvent> {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect()
}

#[test]
fn a_duel_with_an_agent_cli_in_every_seat_runs_to_its_synthesis() {
    let dir = tempfile::tempdir().unwrap();
    let clis = fakes(dir.path());
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "3"])
        .args(["--seat", "advocate=claude:sonnet", "--seat", "skeptic=codex", "--seat", "judge=gemini"])
        .output()
        .unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("▌ Advocate\n{ADVOCATE}\n")), "{stdout}");
    assert!(stdout.contains(&format!("▌ Skeptic\n{SKEPTIC}\n")), "{stdout}");
    assert!(stdout.contains("not resolved: Both sides opened well."), "{stdout}");
    assert!(
        stdout.contains("note: Claude Code says claude-sonnet-4-5 answered for the advocate"),
        "the CLI, not a server, names the model: {stdout}"
    );
    assert!(
        !stdout.contains("alignment breaks") && !stdout.contains("Weighing portability"),
        "reasoning is not argument"
    );

    // The log: who sat where, on which CLI and version; reasoning apart; no temperature sent.
    let events = stored(&data);
    let DebateEvent::Started { participants, .. } = &events[0] else { panic!("{:?}", events[0]) };
    let seat = |role: Role| participants.iter().find(|p| p.role == role).unwrap();
    assert_eq!((seat(Role::Advocate).provider.as_str(), seat(Role::Advocate).model.as_str()), ("claude", "sonnet"));
    assert_eq!(seat(Role::Advocate).agent.as_deref(), Some("Claude Code 2.1.197 (Claude Code)"));
    assert_eq!((seat(Role::Skeptic).provider.as_str(), seat(Role::Skeptic).model.as_str()), ("codex", "default"));
    assert_eq!(seat(Role::Skeptic).agent.as_deref(), Some("Codex CLI codex-cli 0.171.0"));
    assert_eq!(seat(Role::Judge).agent.as_deref(), Some("Gemini CLI 0.61.0"));
    let state = DebateState::from_events(events.iter());
    let finish = state.finish.as_ref().expect("the debate ended");
    assert!(
        finish.synthesis.as_deref().is_some_and(|s| s.contains("Tabs win on accessibility")),
        "{:?}",
        finish.synthesis
    );
    assert!(
        events.iter().any(
            |e| matches!(e, DebateEvent::Reasoning { role: Role::Advocate, text, .. } if text.contains("alignment"))
        ),
        "Claude Code's thinking reached the reasoning block"
    );
    assert!(
        events.iter().any(
            |e| matches!(e, DebateEvent::Reasoning { role: Role::Skeptic, text, .. } if text.contains("Weighing"))
        ),
        "Codex's reasoning item reached the reasoning block"
    );
    for event in &events {
        if let DebateEvent::TurnStarted { temperature, role, .. } = event {
            assert_eq!(*temperature, None, "no CLI takes a temperature ({role:?})");
        }
    }

    // Each CLI read heat's prompt on standard input, never in its arguments, with its tools off.
    let advocate = clis.calls("claude");
    assert!(!advocate.is_empty());
    for call in &advocate {
        assert!(
            call.prompt.contains("You are the ADVOCATE") && call.prompt.contains("Tabs beat spaces"),
            "{}",
            call.prompt
        );
        assert!(!call.argv.iter().any(|a| a.contains("Tabs beat spaces")), "the prompt went in argv: {:?}", call.argv);
        let tools = call.argv.iter().position(|a| a == "--tools").unwrap();
        assert_eq!(call.argv[tools + 1], "", "Claude Code's tools are off: {:?}", call.argv);
        for flag in ["--strict-mcp-config", "--no-session-persistence", "--print"] {
            assert!(call.argv.iter().any(|a| a == flag), "{flag} missing: {:?}", call.argv);
        }
        assert!(call.argv.windows(2).any(|w| w == ["--model", "sonnet"]), "{:?}", call.argv);
        assert!(call.cwd.contains("heat-seat-"), "a fresh working directory: {}", call.cwd);
        assert!(!Path::new(&call.cwd).exists(), "the working directory is removed after the turn");
    }
    let rounds_two =
        advocate.iter().any(|c| c.prompt.contains("# The conversation so far") && c.prompt.contains(ADVOCATE));
    assert!(rounds_two, "a later round's prompt carries the seat's earlier turn");
    for call in clis.calls("codex") {
        assert!(call.prompt.contains("You are the SKEPTIC"));
        assert!(call.argv.iter().any(|a| a == "--ephemeral") && !call.argv.iter().any(|a| a == "--model"));
        assert!(call.argv.windows(2).any(|w| w == ["--sandbox", "read-only"]), "{:?}", call.argv);
    }
    let judged = clis.calls("gemini");
    assert!(!judged.is_empty());
    for call in &judged {
        assert!(call.prompt.contains("JSON schema"), "the verdict's schema rides in the prompt");
        // Its tools are denied by a policy and settings heat wrote into the turn's own directory.
        let policy = call.argv.iter().position(|a| a == "--admin-policy").map(|at| call.argv[at + 1].clone());
        assert_eq!(policy, Some(format!("{}/.heat/deny-all.toml", call.cwd)), "{:?}", call.argv);
        assert!(call.files.contains("./.heat/deny-all.toml"), "{}", call.files);
        assert!(call.env.contains("PATH="), "the CLI runs in heat's environment");
    }
}

#[test]
fn a_cli_that_is_not_installed_is_said_in_one_sentence_before_the_debate() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    clis.install("claude", "2.1.197 (Claude Code)", &[]);
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let mut cmd = heat(&data, &clis);
    cmd.env("PATH", format!("{}:/usr/bin:/bin", clis.bin.display()));
    let out =
        cmd.args(["run", "Tabs beat spaces", "--seat", "skeptic=codex", "--provider", "claude"]).output().unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains(
            "Codex CLI (codex) is not installed or not on the PATH (install it: npm install -g @openai/codex)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_cli_that_is_not_logged_in_stops_the_debate_with_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    let mut logged_out = Reply::new("You are", "", claude_error("Not logged in · Please run /login"));
    logged_out.exit = 1;
    clis.install("claude", "2.1.197 (Claude Code)", &[logged_out]);
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis).args(["run", "Tabs beat spaces", "--provider", "claude"]).output().unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("Claude Code is not logged in: Not logged in · Please run /login"), "{all}");
    assert!(all.contains("run `claude` once in a terminal and log in"), "{all}");
    assert!(!stdout.contains("▌ Advocate\nNot logged in"), "the CLI's made-up message is not an argument: {stdout}");
    assert!(clis.calls("claude").len() <= 3, "a logged-out CLI is not asked again and again");
}

#[test]
fn the_doctor_finds_each_cli_says_its_version_and_probes_it() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[Reply::new("connection check", "", claude("ready", None, "claude-sonnet-4-5"))],
    );
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis)
        .args(["doctor", "--seat", "advocate=claude", "--seat", "skeptic=codex", "--seat", "judge=claude"])
        .output()
        .unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(
        stdout.contains(
            "ok    claude       Claude Code 2.1.197 (Claude Code) (claude); its tools off, the prompt on standard input"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("ok    claude       claude/default streams an answer on the chat path"), "{stdout}");
    assert!(
        stdout.contains("FAIL  codex        Codex CLI (codex) is not installed or not on the PATH (install it: npm install -g @openai/codex)"),
        "{stdout}"
    );
    assert!(!out.status.success(), "a seat's CLI is missing: the doctor says the debate cannot run");

    // Codex says it is logged out when asked (`codex login status`): said before any probe.
    let mut logged_out = Reply::new("", "", "Not logged in\n".to_string());
    (logged_out.exit, logged_out.flag) = (1, "login status");
    clis.install("codex", "codex-cli 0.171.0", &[logged_out]);
    let out = heat(&data, &clis)
        .args(["doctor", "--seat", "advocate=claude", "--seat", "skeptic=codex", "--seat", "judge=claude"])
        .output()
        .unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(
        stdout.contains("FAIL  codex        Codex CLI is not logged in: Not logged in; run `codex login` in a terminal (or set OPENAI_API_KEY)"),
        "{stdout}"
    );
    assert!(clis.calls("codex").iter().all(|c| c.argv == ["login", "status"]), "no probe after a failed login check");

    // Given a provider of its own (`args`), Codex has no login to check: the probe is its word.
    let mut logged_out = Reply::new("", "", "Not logged in\n".to_string());
    (logged_out.exit, logged_out.flag) = (1, "login status");
    clis.install("codex", "codex-cli 0.171.0", &[logged_out, Reply::new("connection check", "", codex("ready", None))]);
    std::fs::write(data.join("heat.toml"), "[providers.codex]\nargs = [\"-c\", \"model_provider=\\\"lab\\\"\"]\n")
        .unwrap();
    let out = heat(&data, &clis)
        .args(["doctor", "--seat", "advocate=codex", "--seat", "skeptic=codex", "--seat", "judge=codex"])
        .output()
        .unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(!stdout.contains("not logged in"), "{stdout}");
    assert!(stdout.contains("ok    codex        codex/default streams an answer on the chat path"), "{stdout}");
}

/// The state letter of process `pid` (`T` stopped, `Z` a zombie), or
/// `None` once it is gone.
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pause_freezes_the_clis_whole_process_group_and_a_dropped_turn_ends_it() {
    use futures::StreamExt;
    use heat::provider::agent::{AgentModel, AgentSpec, Dialect};
    use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk};
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    // A CLI with a child of its own, writing a dot every 50 ms.
    let script = format!(
        "sleep 60 & echo $! > {0}; echo $$ >> {0}; printf 'started'; while true; do sleep 0.05; printf .; done",
        pids.display()
    );
    let spec = AgentSpec {
        name: "slow",
        title: "Slow".into(),
        command: vec!["bash".into(), "-c".into(), script],
        dialect: Dialect::Text,
        env: Vec::new(),
        files: Vec::new(),
        model_arg: None,
        schema_arg: None,
        install: None,
        login: None,
        login_check: None,
        reads: None,
        first_byte: Duration::from_secs(20),
        idle: Duration::from_secs(20),
    };
    let model = AgentModel::new(spec).unwrap();
    let (pause, held) = tokio::sync::watch::channel(false);
    let request = ChatRequest { messages: vec![ChatMessage::user("go")], ..ChatRequest::default() };
    let mut stream = model.stream_held(request, Some(held));
    let first = stream.next().await.unwrap().unwrap();
    assert!(matches!(&first, Chunk::Text(t) if t.starts_with("started")), "{first:?}");
    let written = std::fs::read_to_string(&pids).unwrap();
    let group: Vec<u32> = written.lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(group.len(), 2, "the CLI and its child");

    pause.send(true).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for pid in &group {
        assert_eq!(process_state(*pid), Some('T'), "process {pid} is frozen while paused");
    }
    // Nothing is written while frozen: what arrives after the pause settles is at most a dot or two in flight.
    while tokio::time::timeout(Duration::from_millis(50), stream.next()).await.is_ok() {}
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        tokio::time::timeout(Duration::from_millis(100), stream.next()).await.is_err(),
        "a frozen CLI writes nothing"
    );

    pause.send(false).unwrap();
    let after =
        tokio::time::timeout(Duration::from_secs(5), stream.next()).await.expect("it goes on").unwrap().unwrap();
    assert!(matches!(&after, Chunk::Text(t) if t.contains('.')), "{after:?}");

    drop(stream);
    let gone = |pid: u32| matches!(process_state(pid), None | Some('Z'));
    for _ in 0..100 {
        if group.iter().all(|pid| gone(*pid)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for pid in &group {
        assert!(gone(*pid), "process {pid} outlived its dropped turn: {:?}", process_state(*pid));
    }
}

#[test]
fn a_judge_on_claude_code_is_held_to_the_verdicts_schema_and_read_from_its_tool_call() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[
            Reply::new("You are the ADVOCATE", "", claude(ADVOCATE, None, "claude-sonnet-4-5")),
            Reply::new("You are the SKEPTIC", "", claude(SKEPTIC, None, "claude-sonnet-4-5")),
            Reply::new("You are the JUDGE", "Round 1 of", support::agents::claude_structured(OPEN, "claude-opus-4-8")),
            Reply::new("You are the JUDGE", "", support::agents::claude_structured(SETTLED, "claude-opus-4-8")),
        ],
    );
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "3", "--provider", "claude"])
        .output()
        .unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("not resolved: Both sides opened well."), "{stdout}");
    assert!(!stdout.contains("could not be read"), "{stdout}");
    let calls = clis.calls("claude");
    let judged: Vec<_> = calls.iter().filter(|c| c.prompt.contains("You are the JUDGE")).collect();
    assert!(!judged.is_empty());
    for call in &judged {
        let at = call.argv.iter().position(|a| a == "--json-schema").expect("the judge is held to the schema");
        let schema: serde_json::Value = serde_json::from_str(&call.argv[at + 1]).unwrap();
        assert!(schema["properties"]["resolved"].is_object(), "the verdict's schema: {schema}");
    }
    let argued = calls.iter().filter(|c| !c.prompt.contains("You are the JUDGE"));
    assert!(argued.clone().count() >= 2);
    assert!(argued.into_iter().all(|c| !c.argv.iter().any(|a| a == "--json-schema")), "a debater is held to none");
}

#[test]
fn a_heat_killed_with_sigkill_leaves_no_cli_behind() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // A CLI (under heat's guard, its parent) with a child of its own, that never finishes.
    let config = format!(
        "[providers.slow]\nkind = \"command\"\ncommand = [\"bash\", \"-c\", \
         \"echo $PPID >> {0}; echo $$ >> {0}; sleep 60 & echo $! >> {0}; printf started; wait\"]\n",
        pids.display()
    );
    std::fs::write(data.join("heat.toml"), config).unwrap();
    let mut heat = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"))
        .arg("--config")
        .arg(data.join("heat.toml"))
        .args(["run", "Tabs beat spaces", "--provider", "slow"])
        .env("HEAT_DATA_DIR", &data)
        // The seats' working folders, which a killed heat cannot remove, go with the test's.
        .env("TMPDIR", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let group = loop {
        let written: Vec<u32> =
            std::fs::read_to_string(&pids).unwrap_or_default().lines().filter_map(|l| l.trim().parse().ok()).collect();
        if written.len() >= 6 {
            break written;
        }
        assert!(started.elapsed().as_secs() < 60, "the two debaters' CLIs never started: {written:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    heat.kill().unwrap();
    heat.wait().unwrap();
    let gone = |pid: u32| matches!(process_state(pid), None | Some('Z'));
    let started = std::time::Instant::now();
    while !group.iter().all(|pid| gone(*pid)) && started.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for pid in &group {
        assert!(
            gone(*pid),
            "process {pid} (guard, CLI or its child) outlived a killed heat: {:?}",
            process_state(*pid)
        );
    }
}

#[test]
fn a_seat_may_read_one_folder_and_a_read_without_a_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[
            Reply::new("You are the ADVOCATE", "", claude(ADVOCATE, None, "claude-sonnet-4-5")),
            Reply::new("You are the SKEPTIC", "", claude(SKEPTIC, None, "claude-sonnet-4-5")),
            Reply::new("You are the JUDGE", "", support::agents::claude_structured(SETTLED, "claude-opus-4-8")),
        ],
    );
    let code = dir.path().join("code");
    std::fs::create_dir_all(&code).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let config = format!("[providers.claude]\ntools = \"read\"\nread_dir = \"{}\"\n", code.display());
    std::fs::write(data.join("heat.toml"), &config).unwrap();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "1", "--provider", "claude"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", support::binary::stderr(&out));
    let folder = std::fs::canonicalize(&code).unwrap().display().to_string();
    for call in clis.calls("claude") {
        let tools = call.argv.iter().position(|a| a == "--tools").unwrap();
        assert_eq!(call.argv[tools + 1], "Read,Grep,Glob", "{:?}", call.argv);
        assert!(call.argv.windows(2).any(|w| w == ["--add-dir", folder.as_str()]), "{:?}", call.argv);
        assert!(call.argv.windows(2).any(|w| w == ["--allowedTools", "Read,Grep,Glob"]), "{:?}", call.argv);
        assert!(call.cwd.contains("heat-seat-"), "it still runs in a fresh directory: {}", call.cwd);
    }

    std::fs::write(data.join("heat.toml"), "[providers.claude]\ntools = \"read\"\n").unwrap();
    let out = heat(&data, &clis).args(["run", "Tabs beat spaces", "--provider", "claude"]).output().unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("`providers.claude.tools` = \"read\" names no folder: set providers.claude.read_dir"),
        "{stderr}"
    );
}

#[test]
fn a_claude_judge_that_cannot_hold_the_schema_is_asked_again_with_it_in_the_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    let mut given_up = Reply::new("You are the JUDGE", "", support::agents::claude_schema_given_up());
    (given_up.exit, given_up.flag) = (1, "--json-schema");
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[
            Reply::new("You are the ADVOCATE", "", claude(ADVOCATE, None, "claude-sonnet-4-5")),
            Reply::new("You are the SKEPTIC", "", claude(SKEPTIC, None, "claude-sonnet-4-5")),
            given_up,
            Reply::new("You are the JUDGE", "", claude(SETTLED, None, "claude-opus-4-8")),
        ],
    );
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "1", "--provider", "claude"])
        .output()
        .unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Tabs win on accessibility"), "the verdict read from the prompt-held answer: {stdout}");
    let judged: Vec<_> = clis.calls("claude").into_iter().filter(|c| c.prompt.contains("You are the JUDGE")).collect();
    let held = judged.iter().filter(|c| c.argv.iter().any(|a| a == "--json-schema")).count();
    assert_eq!((held, judged.len() - held), (1, 1), "held to the schema once, then asked with it in the prompt alone");
    assert!(judged.iter().all(|c| c.prompt.contains("JSON schema")));
}

#[test]
fn a_debate_cut_by_a_failing_cli_resumes_on_the_same_clis_and_reruns_only_the_cut_turn() {
    let dir = tempfile::tempdir().unwrap();
    let clis = fakes(dir.path());
    // It fails after the advocate's turn is done (a line every 10 ms): that turn is paid for and kept.
    let waiting = "{\"type\":\"turn.started\"}\n".repeat(80);
    let failed = "{\"type\":\"turn.failed\",\"error\":{\"message\":\"stream disconnected before completion\"}}\n";
    let mut broken = Reply::new("You are the SKEPTIC", "", format!("{waiting}{failed}"));
    broken.exit = 1;
    clis.install("codex", "codex-cli 0.171.0", &[broken]);
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "3"])
        .args(["--seat", "advocate=claude:sonnet", "--seat", "skeptic=codex", "--seat", "judge=gemini"])
        .output()
        .unwrap();
    let stderr = support::binary::stderr(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("Codex CLI failed (exit status 1): stream disconnected before completion"), "{stderr}");
    let advocate_before = clis.calls("claude").len();
    assert_eq!(advocate_before, 1, "the advocate's round 1 was paid for once");

    // The CLI works again: `heat resume` (no flags) seats each role on its CLI again.
    clis.install("codex", "codex-cli 0.171.0", &[Reply::new("You are the SKEPTIC", "", codex(SKEPTIC, None))]);
    let out = heat(&data, &clis).args(["resume"]).output().unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let round_one = |calls: Vec<support::agents::Call>| {
        calls.iter().filter(|c| c.prompt.rsplit("# Now").next().is_some_and(|now| now.contains("Round 1 of"))).count()
    };
    assert_eq!(round_one(clis.calls("claude")), 1, "the advocate's round 1 turn is not asked again");
    assert!(round_one(clis.calls("codex")) >= 2, "the cut skeptic turn runs again on Codex");
    let events = stored(&data);
    let state = DebateState::from_events(events.iter());
    assert!(state.finish.is_some(), "the resumed debate ended");
    assert_eq!(state.participant(Role::Skeptic).map(|p| p.provider.as_str()), Some("codex"));
}

#[test]
fn the_turn_clock_ends_a_cli_that_talks_on_and_keeps_what_it_said() {
    let dir = tempfile::tempdir().unwrap();
    let clis = FakeClis::new(dir.path());
    clis.install(
        "claude",
        "2.1.197 (Claude Code)",
        &[Reply::new("You are the JUDGE", "", claude(SETTLED, None, "claude-opus-4-8"))],
    );
    let pids = dir.path().join("pids");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // A debater's CLI that says half a sentence, then never finishes.
    let config = format!(
        "[providers.slow]\nkind = \"command\"\ncommand = [\"bash\", \"-c\", \
         \"echo $$ >> {}; printf 'Tabs let every reader choose '; sleep 60\"]\n\n[network]\nmax_retries = 0\n",
        pids.display()
    );
    std::fs::write(data.join("heat.toml"), config).unwrap();
    let started = std::time::Instant::now();
    let out = heat(&data, &clis)
        .args(["run", "Tabs beat spaces", "--max-rounds", "1", "--turn-seconds", "2"])
        .args(["--seat", "advocate=slow", "--seat", "skeptic=slow", "--seat", "judge=claude"])
        .output()
        .unwrap();
    let stdout = support::binary::stdout(&out);
    assert!(out.status.success(), "{stdout}\n{}", support::binary::stderr(&out));
    assert!(started.elapsed().as_secs() < 40, "the clock, not the CLI, ended the turns");
    assert!(stdout.contains("Tabs let every reader choose"), "what it said before the clock is kept: {stdout}");
    let group: Vec<u32> =
        std::fs::read_to_string(&pids).unwrap().lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert_eq!(group.len(), 2, "both debaters' CLIs ran");
    for pid in group {
        assert!(matches!(process_state(pid), None | Some('Z')), "process {pid} outlived its turn's clock");
    }
}
