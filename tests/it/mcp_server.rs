//! `heat mcp` from the binary, spoken to line by line over its standard
//! input and output: the handshake, a tool call and its refusals byte for
//! byte; a debate on a mock OpenAI server started, waited on with progress
//! notifications, steered once, its resource updates and a cancelled wait,
//! its synthesis read, while a person watches it with `heat watch`; and the
//! MCP Inspector's command line (a real client) listing and calling every
//! tool.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::support;
use support::mock_llm::{MockLlm, Recorded, Reply, openai_sse_text};

const CONFIG: &str = "[network]\nmax_retries = 1\n\n[roles.advocate]\nprovider = \"openai\"\nmodel = \"mock-a\"\n\n\
[roles.skeptic]\nprovider = \"openai\"\nmodel = \"mock-b\"\n\n[roles.judge]\nprovider = \"openai\"\nmodel = \"mock-j\"\n";

/// The advocate answers in 0.3 s, the skeptic in 1 s (so the skeptic
/// always speaks second, with room for a busy machine), the judge in 0.4 s: it puts the advocate ahead
/// each round, and its final synthesis finds for night trains.
fn play(request: &Recorded) -> Reply {
    let model = request.body["model"].as_str().unwrap_or("").to_string();
    let last = request.last_message();
    let round = (1..=5).rev().find(|n| last.contains(&format!("Round {n} of"))).unwrap_or(1);
    let (said, delay) = match model.as_str() {
        "mock-j" if last.contains("final synthesis") => (
            r#"{"resolved": true, "verdict": "Night trains win on comfort, the judge finds.", "ahead": "advocate", "conceded": "none", "topic": "Done.", "heat": 0.5}"#.to_string(),
            400,
        ),
        "mock-j" => (
            format!(
                r#"{{"resolved": false, "verdict": "Round {round}: the advocate leads.", "ahead": "advocate", "conceded": "none", "topic": "What of the cost?", "heat": 0.6}}"#
            ),
            400,
        ),
        "mock-a" => (format!("The advocate argues round {round}: sleepers save a day."), 300),
        _ => (format!("The skeptic argues round {round}: flights are faster."), 1000),
    };
    Reply::sse(&openai_sse_text(&said, 4), 64).with_delay(Duration::from_millis(delay))
}

/// `heat mcp` and the lines it writes.
struct Client {
    child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
    /// Every line read, in order.
    seen: Vec<String>,
}

impl Client {
    fn start(data: &Path, server: Option<&MockLlm>) -> Client {
        let mut cmd = support::binary::process(data, CONFIG);
        if let Some(server) = server {
            cmd.env("OPENAI_API_KEY", "sk-test-openai").env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
        }
        cmd.arg("mcp").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = tokio::process::Command::from(cmd).kill_on_drop(true).spawn().unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap()).lines();
        Client { child, input, output, seen: Vec::new() }
    }

    async fn send(&mut self, line: &str) {
        self.input.write_all(format!("{line}\n").as_bytes()).await.unwrap();
        self.input.flush().await.unwrap();
    }

    /// The next line heat writes.
    async fn line(&mut self) -> String {
        let line = tokio::time::timeout(Duration::from_secs(60), self.output.next_line()).await;
        let line = line.expect("heat mcp answers within a minute").unwrap().expect("heat mcp is still running");
        self.seen.push(line.clone());
        line
    }

    /// Lines until the answer to request `id`; the lines before it.
    async fn answer(&mut self, id: u64) -> (String, Vec<String>) {
        let mut before = Vec::new();
        loop {
            let line = self.line().await;
            let value: Value = serde_json::from_str(&line).unwrap();
            if value["id"] == json!(id) {
                return (line, before);
            }
            before.push(line);
        }
    }

    async fn call(&mut self, id: u64, tool: &str, arguments: Value) -> (Value, Vec<String>) {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        self.send(&request.to_string()).await;
        let (line, before) = self.answer(id).await;
        (serde_json::from_str(&line).unwrap(), before)
    }

    async fn initialize(&mut self) -> String {
        self.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"heat-test","version":"1"}}}"#).await;
        let (line, _) = self.answer(1).await;
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        line
    }
}

#[tokio::test]
async fn the_handshake_a_call_and_its_refusals_are_byte_exact() {
    let data = tempfile::tempdir().unwrap();
    let mut client = Client::start(data.path(), None);
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        client.initialize().await,
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"protocolVersion":"2025-06-18","capabilities":{{"resources":{{"subscribe":true}},"tools":{{}}}},"serverInfo":{{"name":"heat","title":"heat debate studio","version":"{version}"}},"instructions":"heat runs debates: start_debate on a proposition, wait_for_debate for each verdict, steer_debate to steer it, read_debate for the synthesis or transcript. Each debate is a stored session a person can watch with `heat watch ID`."}}}}"#
        )
    );
    // A tool that cannot do its work: a result the client shows, marked as an error.
    client.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_debate","arguments":{"session":"zz"}}}"#).await;
    assert_eq!(
        client.answer(2).await.0,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no session has an id starting with \"zz\"; there are no sessions yet"}],"isError":true}}"#
    );
    // An unknown tool and arguments outside the schema: protocol errors, one sentence each.
    client.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"launch","arguments":{}}}"#).await;
    assert_eq!(
        client.answer(3).await.0,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"heat has no tool `launch`; its tools are start_debate, wait_for_debate, read_debate, steer_debate, list_sessions, debate_stats"}}"#
    );
    client.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"start_debate","arguments":{"proposition":"x","rounds":"two"}}}"#).await;
    assert_eq!(
        client.answer(4).await.0,
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"start_debate: invalid type: string \"two\", expected u32"}}"#
    );
    // A source where none is allowed, refused before anything is stored.
    let (refused, _) =
        client.call(5, "start_debate", json!({"proposition": "Tabs beat spaces", "sources": ["/etc"]})).await;
    assert_eq!(refused["result"]["isError"], json!(true));
    let why = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(why.starts_with("heat mcp reads no sources unless heat.toml allows them"), "{why}");
    // And the server keeps running.
    client.send(r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#).await;
    assert_eq!(client.answer(6).await.0, r#"{"jsonrpc":"2.0","id":6,"result":{}}"#);
    assert!(heat::store::Store::open(data.path()).unwrap().list().is_empty(), "nothing was stored");
    drop(client.input);
    let status = tokio::time::timeout(Duration::from_secs(30), client.child.wait()).await.unwrap().unwrap();
    assert!(status.success(), "heat mcp ends cleanly when its client goes: {status}");
}

#[tokio::test]
async fn an_agent_starts_waits_steers_and_reads_while_a_person_watches() {
    let server = MockLlm::with_handler(play).await;
    let data = tempfile::tempdir().unwrap();
    let mut client = Client::start(data.path(), Some(&server));
    client.initialize().await;
    let seats = json!({"advocate": "openai:mock-a", "skeptic": "openai:mock-b", "judge": "openai:mock-j"});
    let (started, _) = client
        .call(
            2,
            "start_debate",
            json!({"proposition": "Night trains beat short-haul flights", "rounds": 3, "seats": seats}),
        )
        .await;
    let session = started["result"]["structuredContent"]["session"].as_str().unwrap().to_string();
    assert_eq!(started["result"]["structuredContent"]["max_rounds"], json!(3));

    // A person watches the same debate meanwhile, from another heat.
    let watch_data = data.path().to_path_buf();
    let watched_session = session.clone();
    let watcher = tokio::task::spawn_blocking(move || {
        let mut watch = support::binary::heat(&watch_data, CONFIG);
        watch.args(["watch", &watched_session, "--json"]).timeout(Duration::from_secs(120)).output().unwrap()
    });

    // Told when its record changes.
    let uri = format!("heat://sessions/{session}.json");
    client
        .send(&json!({"jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": {"uri": uri}}).to_string())
        .await;
    assert_eq!(client.answer(3).await.0, r#"{"jsonrpc":"2.0","id":3,"result":{}}"#);

    // Waits for the first verdict, told how it goes.
    let wait = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "wait_for_debate", "arguments": {"session": session}, "_meta": {"progressToken": "w1"}}});
    client.send(&wait.to_string()).await;
    let (line, before) = client.answer(4).await;
    let waited: Value = serde_json::from_str(&line).unwrap();
    assert!(
        before.contains(&r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"w1","progress":3.0,"message":"round 1: Skeptic has spoken"}}"#.to_string()),
        "{before:#?}"
    );
    let progress: Vec<f64> = before
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["method"] == json!("notifications/progress"))
        .map(|v| v["params"]["progress"].as_f64().unwrap())
        .collect();
    assert!(progress.windows(2).all(|w| w[0] < w[1]), "progress only grows: {progress:?}");
    let result = &waited["result"]["structuredContent"];
    assert_eq!((result["verdict"]["round"].clone(), result["ahead"].clone()), (json!(1), json!("advocate")));
    assert_eq!(result["timed_out"], json!(false));

    // Steers once: a topic for the next round.
    let (steered, _) =
        client.call(5, "steer_debate", json!({"session": session, "action": "inject", "text": "sleeper cabins"})).await;
    assert_eq!(steered["result"]["structuredContent"]["done"], json!("injected “sleeper cabins” for the next round"));
    // A wait cancelled by the client is never answered; the next request is.
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
        "name": "wait_for_debate", "arguments": {"session": session, "until": "end"}}})
            .to_string(),
        )
        .await;
    client.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6,"reason":"changed my mind"}}"#).await;
    client.send(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).await;
    assert_eq!(client.answer(7).await.0, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);

    // Waits for the end.
    let (ended, _) = client.call(8, "wait_for_debate", json!({"session": session, "until": "end"})).await;
    assert_eq!(ended["result"]["structuredContent"]["outcome"], json!("ended at the round limit"));
    let (synthesis, _) = client.call(9, "read_debate", json!({"session": session, "part": "synthesis"})).await;
    let text = synthesis["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Night trains win on comfort"), "{text}");
    let (steer_late, _) = client.call(10, "steer_debate", json!({"session": session, "action": "force"})).await;
    assert_eq!(steer_late["result"]["isError"], json!(true));

    assert!(!client.seen.iter().any(|l| l.contains(r#""id":6,"#)), "the cancelled wait was answered");
    let update =
        format!(r#"{{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{{"uri":"{uri}"}}}}"#);
    let told = client.seen.iter().filter(|l| **l == update).count();
    assert!(told >= 3, "told of each verdict and the end: {told} in {:#?}", client.seen);

    // The injected topic reached the debaters' next round.
    let later: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| r.body["model"] != json!("mock-j") && !r.last_message().contains("Round 1 of"))
        .map(Recorded::last_message)
        .collect();
    assert!(later.iter().any(|m| m.contains("sleeper cabins")), "{later:#?}");

    // The person watching saw the same debate: the injection and the end.
    let person = watcher.await.unwrap();
    let printed = support::binary::stdout(&person);
    let kinds: Vec<String> = printed
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["type"].as_str().map(str::to_string))
        .collect();
    assert!(kinds.iter().any(|k| k == "topic_injected") && kinds.last().is_some_and(|k| k == "finished"), "{kinds:?}");
    assert!(printed.contains("sleeper cabins"), "{printed}");
    assert_eq!(heat::store::Store::open(data.path()).unwrap().label(&session).tags, vec!["mcp".to_string()]);
}

#[tokio::test]
async fn a_debate_that_fails_is_an_error_the_client_sees_and_the_server_goes_on() {
    let server =
        MockLlm::with_handler(|_| Reply::error(400, r#"{"error": {"message": "model mock-a does not exist"}}"#)).await;
    let data = tempfile::tempdir().unwrap();
    let mut client = Client::start(data.path(), Some(&server));
    client.initialize().await;
    let (started, _) = client.call(2, "start_debate", json!({"proposition": "Tabs beat spaces", "rounds": 1})).await;
    let session = started["result"]["structuredContent"]["session"].as_str().unwrap().to_string();
    let (failed, _) = client.call(3, "wait_for_debate", json!({"session": session, "until": "end"})).await;
    assert_eq!(failed["result"]["isError"], json!(true), "{failed}");
    let why = failed["result"]["content"][0]["text"].as_str().unwrap();
    assert!(why.starts_with(&format!("session {session} failed: ")), "{why}");
    assert!(
        why.contains("does not exist") && why.ends_with(&format!("`heat resume {session}` tries it again")),
        "{why}"
    );
    assert!(!why.contains("sk-test-openai"), "no key in a result: {why}");
    client.send(r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#).await;
    assert_eq!(client.answer(4).await.0, r#"{"jsonrpc":"2.0","id":4,"result":{}}"#);
}

/// The MCP Inspector's command line (npm `@modelcontextprotocol/inspector`),
/// given as `HEAT_MCP_INSPECTOR`; skipped without it unless
/// `HEAT_REQUIRE_MCP_INSPECTOR` is set.
fn inspector() -> Option<String> {
    match std::env::var("HEAT_MCP_INSPECTOR") {
        Ok(path) if !path.is_empty() => Some(path),
        _ if std::env::var_os("HEAT_REQUIRE_MCP_INSPECTOR").is_some() => {
            panic!("HEAT_REQUIRE_MCP_INSPECTOR is set but HEAT_MCP_INSPECTOR names no inspector")
        }
        _ => {
            eprintln!("skipped: set HEAT_MCP_INSPECTOR to the MCP Inspector's bin/mcp-inspector");
            None
        }
    }
}

#[tokio::test]
async fn the_mcp_inspector_lists_and_calls_every_tool() {
    let Some(inspector) = inspector() else { return };
    let server = MockLlm::with_handler(play).await;
    let data = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("heat.toml"), CONFIG).unwrap();
    let heat = assert_cmd::cargo::cargo_bin!("heat").to_string_lossy().into_owned();
    let config = data.path().join("heat.toml").to_string_lossy().into_owned();
    let run = |args: Vec<String>| {
        let inspector = inspector.clone();
        let (heat, config, data, home) =
            (heat.clone(), config.clone(), data.path().to_path_buf(), home.path().to_path_buf());
        let base = format!("{}/v1", server.base_url);
        tokio::task::spawn_blocking(move || {
            let mut cmd = std::process::Command::new(&inspector);
            cmd.arg("--cli").args(&args).args(["-e", &format!("HEAT_DATA_DIR={}", data.display())]);
            cmd.args(["-e", "OPENAI_API_KEY=sk-test-openai", "-e", &format!("OPENAI_BASE_URL={base}")]);
            cmd.args(["--", &heat, "--config", &config, "mcp"]).env("HOME", &home);
            let output = cmd.output().unwrap();
            let text = String::from_utf8_lossy(&output.stdout).into_owned();
            (output.status.success(), text, String::from_utf8_lossy(&output.stderr).into_owned())
        })
    };
    let words = |s: &[&str]| s.iter().map(|w| (*w).to_string()).collect::<Vec<_>>();
    let (ok, listed, warnings) = run(words(&["--method", "tools/list", "--strict"])).await.unwrap();
    assert!(ok, "{listed}{warnings}");
    assert!(!warnings.contains("Warning"), "every schema is portable: {warnings}");
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let names: Vec<&str> = listed["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["start_debate", "wait_for_debate", "read_debate", "steer_debate", "list_sessions", "debate_stats"]
    );

    let call = |tool: &str, args: &[&str]| {
        let mut all = words(&["--method", "tools/call", "--tool-name", tool]);
        if !args.is_empty() {
            all.push("--tool-arg".into());
            all.extend(words(args));
        }
        run(all)
    };
    let (ok, started, why) =
        call("start_debate", &["proposition=Night trains beat short-haul flights", "rounds=1"]).await.unwrap();
    assert!(ok, "{started}{why}");
    let started: Value = serde_json::from_str(&started).unwrap();
    let session = started["structuredContent"]["session"].as_str().unwrap().to_string();
    // That heat mcp stopped (and saved) its debate as the inspector left; another finds it stored.
    let (_, waited, _) = call("wait_for_debate", &[&format!("session={session}")]).await.unwrap();
    assert!(waited.contains(&session), "{waited}");
    let (_, status, _) = call("read_debate", &[&format!("session={session}")]).await.unwrap();
    let status: Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["structuredContent"]["proposition"], json!("Night trains beat short-haul flights"));
    let (_, steered, _) = call("steer_debate", &[&format!("session={session}"), "action=pause"]).await.unwrap();
    assert!(steered.contains("is not run by this heat mcp"), "{steered}");
    let (_, listed, _) = call("list_sessions", &["tag=mcp"]).await.unwrap();
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed["structuredContent"]["sessions"][0]["session"], json!(session));
    let (_, counted, _) = call("debate_stats", &["tag=nothing-here"]).await.unwrap();
    assert!(counted.contains("has no finished debate to count yet"), "{counted}");
    let (ok, resource, why) =
        run(words(&["--method", "resources/read", "--uri", &format!("heat://sessions/{session}.md")])).await.unwrap();
    assert!(ok && resource.contains("Night trains beat short-haul flights"), "{resource}{why}");
}
