//! Real MCP servers installed from the registries, started by heat from
//! heat.toml and called by a debater: npm's
//! `@modelcontextprotocol/server-filesystem` and PyPI's `mcp-server-fetch`.
//! What each answers reaches that debater's next request; a call still
//! running is held by a pause and ended by a cancel; a server that will
//! not start is one sentence and nothing is stored.
//!
//! The servers are looked for in `$HEAT_MCP_SERVERS` (the folder `.ci/run`
//! installs them into: `npm/` and `venv/`). A missing one skips its test,
//! and says so, unless `HEAT_REQUIRE_MCP_SERVERS=1` (CI) makes that a failure.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use heat::debate::command::Command;
use heat::debate::engine::{self, ToolServer};
use heat::debate::{DebateEvent, DebateState, Role};
use heat::mcp::{McpServer, McpSetting};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::store::Store;

use crate::engine_support::{self, finish, seat, wait_for};
use crate::support;
use support::bodies::{CallParts, anthropic_tools_sse, openai_tools_sse};
use support::mock_llm::{MockLlm, Recorded, Reply as HttpReply};

const FILE: &str = "# Night trains\nThe sleeper leaves at 21:40 and arrives at 07:15.\n";

fn required() -> bool {
    std::env::var("HEAT_REQUIRE_MCP_SERVERS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A server's command, or `None` after saying why the test is skipped.
fn installed(test: &str, which: &str) -> Option<Vec<String>> {
    let dir = std::env::var_os("HEAT_MCP_SERVERS").map(PathBuf::from);
    let command = dir.as_deref().and_then(|dir| {
        if which == "filesystem" {
            let entry = dir.join("npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
            entry.is_file().then(|| vec!["node".to_string(), entry.display().to_string()])
        } else {
            let program = dir.join("venv/bin/mcp-server-fetch");
            program.is_file().then(|| vec![program.display().to_string(), "--allow-private-ips".to_string()])
        }
    });
    if command.is_none() {
        let why =
            format!("{test}: skipped: the {which} MCP server is not installed in $HEAT_MCP_SERVERS (see .ci/run)");
        assert!(!required(), "{why}");
        eprintln!("{why}");
    }
    command
}

fn toml_list(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    format!("[{}]", quoted.join(", "))
}

/// The advocate reads `a.md` and a file outside the folder through the
/// server, then argues; everyone else argues at once.
fn reading_reply(request: &Recorded) -> HttpReply {
    if request.path.ends_with("/models") {
        return HttpReply::error(200, r#"{"object":"list","data":[{"id":"gpt-4.1-mini","object":"model"}]}"#);
    }
    let openai = request.path.ends_with("/chat/completions");
    let system = request.system();
    let offered = request.body["tools"].to_string();
    if system.contains("You are the ADVOCATE")
        && offered.contains("files__read_text_file")
        && !request.has_tool_answers()
    {
        let calls = [
            CallParts { id: "call_1", name: "files__read_text_file", parts: &["{\"path\": ", "\"a.md\"}"] },
            CallParts { id: "call_2", name: "files__read_text_file", parts: &["{\"path\": \"/etc/hostname\"}"] },
        ];
        let body = if openai { openai_tools_sse("", &calls) } else { anthropic_tools_sse("Let me read.", &calls) };
        return HttpReply::sse(&body, 29);
    }
    let text = if system.contains("You are the JUDGE") {
        r#"{"resolved": true, "verdict": "The advocate read the timetable.", "topic": "t", "heat": 0.3}"#
    } else {
        "The sleeper arrives at 07:15, in time for work."
    };
    let body = if openai {
        support::bodies::openai_stream("gpt-4o", &[text], Some("stop"))
    } else {
        support::bodies::anthropic_sse(&[text], None)
    };
    HttpReply::sse(&body, 64)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debater_reads_a_file_through_the_filesystem_server_on_both_wires() {
    let Some(command) = installed("filesystem", "filesystem") else { return };
    for wire in ["openai", "anthropic"] {
        let server = MockLlm::with_handler(reading_reply).await;
        let data = tempfile::tempdir().unwrap();
        let files = tempfile::tempdir().unwrap();
        std::fs::write(files.path().join("a.md"), FILE).unwrap();
        let mut words = command.clone();
        words.push(files.path().display().to_string());
        let config = format!("[network]\nmax_retries = 1\n\n[mcp.files]\ncommand = {}\n", toml_list(&words));
        let mut cmd = support::binary::heat(data.path(), &config);
        if wire == "openai" {
            cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
        } else {
            cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url);
        }
        cmd.args(["run", "--max-rounds", "1", "Night trains beat short-haul flights"]);
        let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{wire}: {stderr}");
        assert!(stderr.contains("MCP server `files` gives every debater 14 tools"), "{wire}: {stderr}");
        assert!(
            stdout.contains("advocate looks up: files: read_text_file path=\"a.md\" → 2 lines"),
            "{wire}: {stdout}"
        );
        assert!(stdout.contains("→ failed: Access denied - path outside allowed directories"), "{wire}: {stdout}");

        // The file's text reaches the advocate's next request, as its wire writes an answer.
        let next = server.requests().into_iter().find(Recorded::has_tool_answers).expect("the turn is asked on");
        let history = next.body["messages"].to_string();
        assert!(history.contains("The sleeper leaves at 21:40 and arrives at 07:15."), "{wire}: {history}");
        // Only the advocate's request offered them; every debater's was offered the server's tools.
        let offered = server.requests().into_iter().filter(|r| r.body["tools"].to_string().contains("files__")).count();
        assert!(offered >= 2, "{wire}: both debaters are offered the server's tools");

        let store = Store::open(data.path()).unwrap();
        let id = store.list()[0].id.clone();
        let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
        let state = DebateState::from_events(&events);
        let turn = state.rounds[0].turn(Role::Advocate).unwrap();
        let answers: Vec<bool> = turn.tools[0].calls.iter().map(|u| u.answer.as_ref().unwrap().failed).collect();
        assert_eq!(answers, [false, true], "{wire}: a refusal is recorded as a failed call");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_will_not_start_is_one_sentence_and_nothing_is_stored() {
    let data = tempfile::tempdir().unwrap();
    let config = "[mcp.files]\ncommand = [\"no-such-mcp-server-on-this-machine\", \"docs\"]\n";
    let mut cmd = support::binary::heat(data.path(), config);
    cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    cmd.args(["run", "--max-rounds", "1", "Night trains beat short-haul flights"]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("the MCP server `files` could not be started: `no-such-mcp-server-on-this-machine` was not found (mcp.files.command, "),
        "{stderr}"
    );
    assert!(
        !data.path().join("sessions").exists() || std::fs::read_dir(data.path().join("sessions")).unwrap().count() == 0
    );
}

/// A page the fetch server reads from the mock server: at once, or after `delay`.
fn page_server(delay: Duration) -> impl Fn(&Recorded) -> HttpReply + Send + Sync + 'static {
    move |request: &Recorded| {
        if request.path == "/robots.txt" {
            return HttpReply::error(404, "not here");
        }
        let page = "<html><body><h1>Timetable</h1><p>The sleeper to Vienna leaves at 21:40.</p></body></html>";
        HttpReply::page(page).with_delay(delay)
    }
}

async fn fetch_server(test: &str) -> Option<Arc<McpServer>> {
    let command = installed(test, "fetch")?;
    let setting = McpSetting { name: "web".into(), command, env: Vec::new(), call_within: Duration::from_secs(60) };
    Some(Arc::new(McpServer::start(&setting).await.unwrap()))
}

fn fetching(url: &str) -> Reply {
    Reply::calling("", &[("web__fetch", &format!("{{\"url\": \"{url}\"}}"))])
}

fn debate(server: &Arc<McpServer>, advocate: &Arc<ScriptedModel>) -> (engine::EngineSetup, [Arc<ScriptedModel>; 2]) {
    let skeptic = Arc::new(ScriptedModel::new([], Reply::text("Planes are faster.")));
    let verdict = r#"{"resolved": true, "verdict": "Read.", "topic": "t", "heat": 0.3}"#;
    let judge = Arc::new(ScriptedModel::new([], Reply::text(verdict)));
    let on = |m: &Arc<ScriptedModel>| seat(Arc::clone(m) as Arc<dyn ChatModel>);
    let mut setup = engine_support::duel(on(advocate), on(&skeptic), on(&judge)).retries(0).build();
    setup.servers = vec![ToolServer { server: Arc::clone(server), seat: Some(Role::Advocate) }];
    (setup, [skeptic, judge])
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_fetched_by_the_fetch_server_reaches_the_debaters_next_request() {
    let Some(server) = fetch_server("fetch").await else { return };
    let pages = MockLlm::with_handler(page_server(Duration::ZERO)).await;
    let url = format!("{}/timetable.html", pages.base_url);
    let advocate = Arc::new(ScriptedModel::new([fetching(&url)], Reply::text("It leaves at 21:40.")).taking_tools());
    let (setup, [skeptic, _]) = debate(&server, &advocate);
    let (_, state) = engine_support::drain(engine::start(setup, engine_support::duel_spec(1))).await;
    let asked = advocate.requests();
    assert_eq!(asked.len(), 2);
    let offered = asked[0].tools.as_ref().unwrap();
    assert!(offered.specs.iter().any(|s| s.name == "web__fetch"), "{:?}", offered.specs);
    let result = &asked[1].messages.last().unwrap().tool_results[0];
    assert!(!result.is_error, "{}", result.content);
    assert!(result.content.contains("The sleeper to Vienna leaves at 21:40."), "{}", result.content);
    assert!(skeptic.requests().iter().all(|r| r.tools.is_none()), "the server is the advocate's alone");
    assert_eq!(state.rounds[0].turn(Role::Advocate).unwrap().text.trim(), "It leaves at 21:40.");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pause_holds_a_turn_whose_call_is_running_and_a_cancel_ends_it() {
    let Some(server) = fetch_server("pause and cancel").await else { return };
    let pages = MockLlm::with_handler(page_server(Duration::from_millis(1500))).await;
    let url = format!("{}/slow.html", pages.base_url);

    // Paused while the call runs: its answer is recorded when it comes, the turn asked on only at the resume.
    let advocate = Arc::new(ScriptedModel::new([fetching(&url)], Reply::text("It leaves at 21:40.")).taking_tools());
    let (setup, _) = debate(&server, &advocate);
    let mut handle = engine::start(setup, engine_support::duel_spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ToolsCalled { .. })).await;
    handle.send(Command::Pause);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ToolAnswered { .. })).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(advocate.requests().len(), 1, "nothing is asked while paused");
    handle.send(Command::Resume);
    let (_, state) = finish(handle, events).await;
    assert_eq!(advocate.requests().len(), 2);
    assert_eq!(state.rounds[0].turn(Role::Advocate).unwrap().text.trim(), "It leaves at 21:40.");

    // Cancelled while the call runs: the turn ends there, the call's answer never comes.
    let advocate = Arc::new(ScriptedModel::new([fetching(&url)], Reply::text("unused")).taking_tools());
    let (setup, _) = debate(&server, &advocate);
    let mut handle = engine::start(setup, engine_support::duel_spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ToolsCalled { .. })).await;
    handle.send(Command::CancelSeat(Role::Advocate));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnCancelled { role: Role::Advocate, .. })).await;
    let (events, state) = finish(handle, events).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::ToolAnswered { .. })), "the call is dropped");
    assert_eq!(advocate.requests().len(), 1);
    assert!(state.finish.is_some());
}
