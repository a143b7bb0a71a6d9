//! `heat doctor` end to end: the real binary against the mock server. Each
//! broken thing gets one line naming the cause and the fix, and the exit
//! code says whether a debate could run; the key is never printed.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse, openai_stream};

const KEY: &str = "sk-ant-doctor-7c41";

fn doctor(data: &Path, server: &MockLlm) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(doctor_command(data, server));
    cmd.timeout(std::time::Duration::from_secs(30));
    cmd
}

fn doctor_command(data: &Path, server: &MockLlm) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_heat"));
    cmd.arg("doctor")
        // The platform's config file, as a user has it: here not there yet.
        .env("XDG_CONFIG_HOME", data)
        .env_remove("HEAT_CONFIG")
        .env("HEAT_DATA_DIR", data)
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .env_remove("OPENAI_API_KEY")
        .env_remove("HEAT_PROVIDER")
        .env_remove("HEAT_MODEL_PATH");
    cmd
}

async fn run(mut cmd: assert_cmd::Command) -> (bool, String) {
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!text.contains(KEY), "doctor printed the key:\n{text}");
    (out.status.success(), text)
}

fn line<'a>(text: &'a str, what: &str) -> &'a str {
    text.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(what))
        .unwrap_or_else(|| panic!("no {what} line:\n{text}"))
}

const VERDICT: &str = r#"{"resolved": true, "verdict": "ready", "topic": "ready", "heat": 0.5}"#;

/// An Anthropic server that lists its models (whatever the query asks:
/// heat asks for up to 1,000) and answers on the chat path (the verdict
/// when a schema is asked for, else a word).
fn anthropic_server(request: &Recorded) -> Reply {
    match request.path.split('?').next().unwrap_or_default() {
        "/v1/models" => Reply::error(200, r#"{"data":[{"id":"claude-haiku-4-5"}]}"#),
        "/v1/messages" if request.body.get("output_config").is_some() => {
            Reply::sse(&anthropic_sse(&[VERDICT], None), 64)
        }
        "/v1/messages" => Reply::sse(&anthropic_sse(&["ready"], None), 64),
        _ => Reply::error(404, r#"{"error":{"message":"no route"}}"#),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_working_setup_passes_and_the_key_chat_and_verdict_are_checked_live() {
    let server = MockLlm::with_handler(anthropic_server).await;
    let data = tempfile::tempdir().unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(ok, "{text}");
    assert!(line(&text, "config").contains("not present; built-in defaults"), "{text}");
    assert!(line(&text, "data").contains("writable; 0 stored debates"), "{text}");
    assert!(line(&text, "advocate").contains("anthropic/claude-haiku-4-5"), "{text}");
    assert!(
        line(&text, "anthropic").starts_with("ok") && line(&text, "anthropic").contains("key from ANTHROPIC_API_KEY")
    );
    assert!(line(&text, "chat").starts_with("ok") && line(&text, "chat").contains("streams"), "{text}");
    assert!(line(&text, "verdict").starts_with("ok") && line(&text, "verdict").contains("output_config"), "{text}");
    assert!(text.ends_with("heat can run a debate.\n"), "{text}");
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "the model list, one chat probe, one verdict probe");
    assert!(requests.iter().all(|r| r.header("x-api-key") == Some(KEY)));
    let tokens: u64 = requests.iter().filter_map(|r| r.body["max_tokens"].as_u64()).sum();
    assert!(tokens <= 128, "a few tokens at most: {tokens}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_gateway_with_no_model_list_passes_on_its_chat_and_verdict() {
    // A gateway that serves /v1/messages and no /v1/models (404 with a key).
    let server = MockLlm::with_handler(|request| match request.path.split('?').next().unwrap_or_default() {
        "/v1/models" => Reply::error(404, r#"{"error":{"message":"Not Found"}}"#),
        _ => anthropic_server(request),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(ok, "{text}");
    let listed = line(&text, "anthropic");
    assert!(listed.starts_with("note") && listed.contains("404") && listed.contains("model list"), "{text}");
    assert!(line(&text, "chat").starts_with("ok"), "{text}");
    assert!(line(&text, "verdict").starts_with("ok"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_refuses_json_schema_passes_with_the_form_the_debate_will_use() {
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/v1/models" => Reply::error(200, r#"{"object":"list","data":[{"id":"smol","object":"model"}]}"#),
        "/v1/chat/completions" => match request.body["response_format"]["type"].as_str() {
            Some("json_schema") => Reply::error(
                500,
                r#"{"error":{"message":"response_format.type: Input should be 'text' or 'json_object'","type":"internal_server_error"}}"#,
            ),
            Some(_) => Reply::sse(&openai_stream("smol", &[VERDICT], Some("stop")), 64),
            None => Reply::sse(&openai_stream("smol", &["ready"], Some("stop")), 64),
        },
        _ => Reply::error(404, r#"{"detail":"Not Found"}"#),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env_remove("ANTHROPIC_API_KEY")
        .env("HEAT_PROVIDER", "openai")
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
    let (ok, text) = run(cmd).await;
    assert!(ok, "{text}");
    let verdict = line(&text, "verdict");
    assert!(verdict.starts_with("note") && verdict.contains("json_object") && verdict.contains("refused"), "{text}");
    assert!(line(&text, "advocate").contains("openai/smol"), "the model the server lists: {text}");
    assert!(text.ends_with("heat can run a debate.\n"), "{text}");
    let limits = line(&text, "limits");
    assert!(limits.starts_with("note") && limits.contains("states no context"), "no /props here: {text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_llama_cpp_server_s_slots_and_context_are_reported_from_its_props() {
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/props" => Reply::error(200, r#"{"default_generation_settings":{"n_ctx":4096},"total_slots":2}"#),
        "/v1/models" => Reply::error(200, r#"{"object":"list","data":[{"id":"smollm","object":"model"}]}"#),
        "/v1/chat/completions" if request.body.get("response_format").is_some() => {
            Reply::sse(&openai_stream("smollm", &[VERDICT], Some("stop")), 64)
        }
        "/v1/chat/completions" => Reply::sse(&openai_stream("smollm", &["ready"], Some("stop")), 64),
        _ => Reply::error(404, r#"{"error":{"message":"File Not Found","type":"not_found_error","code":404}}"#),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env_remove("ANTHROPIC_API_KEY")
        .env("HEAT_PROVIDER", "openai")
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
    let (ok, text) = run(cmd).await;
    assert!(ok, "{text}");
    let limits = line(&text, "limits");
    assert!(limits.starts_with("ok") && limits.contains("2 at once, 4,096 tokens of context each"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chat_path_that_is_not_there_fails_with_the_url_and_the_fix() {
    // The models list answers (the base URL is nearly right), the chat path does not.
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/models" => Reply::error(200, r#"{"data":[]}"#),
        _ => Reply::error(404, r#"{"detail":"Not Found"}"#),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env_remove("ANTHROPIC_API_KEY").env("HEAT_PROVIDER", "openai").env("OPENAI_BASE_URL", &server.base_url);
    let (ok, text) = run(cmd).await;
    assert!(!ok, "{text}");
    let chat = line(&text, "chat");
    assert!(chat.starts_with("FAIL") && chat.contains("/chat/completions") && chat.contains("has no /v1"), "{text}");
    assert!(text.contains("heat cannot run a debate"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_verdict_the_server_refuses_in_every_form_fails_the_doctor() {
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/v1/models" => Reply::error(200, r#"{"data":[]}"#),
        "/v1/messages" if request.body.get("output_config").is_some() => Reply::error(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"output_config: not supported"}}"#,
        ),
        "/v1/messages" => Reply::sse(&anthropic_sse(&["ready"], None), 64),
        _ => Reply::error(404, "{}"),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(data.path().join("heat")).unwrap();
    std::fs::write(data.path().join("heat/heat.toml"), "[providers.anthropic]\nstructured_output = \"schema\"\n")
        .unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(!ok, "{text}");
    let verdict = line(&text, "verdict");
    assert!(verdict.starts_with("FAIL") && verdict.contains("structured_output"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_key_fails_and_names_the_variable() {
    let server = MockLlm::with_handler(|_| Reply::refused_key()).await;
    let data = tempfile::tempdir().unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(!ok, "{text}");
    let anthropic = line(&text, "anthropic");
    assert!(anthropic.starts_with("FAIL"), "{text}");
    assert!(
        anthropic.contains("refused the key from ANTHROPIC_API_KEY") && anthropic.contains("check ANTHROPIC_API_KEY")
    );
    assert!(text.contains("fix the FAIL lines above"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_is_down_is_named() {
    let server = MockLlm::with_handler(|_| Reply::error(200, "{}")).await;
    let dead = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let data = tempfile::tempdir().unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env("ANTHROPIC_BASE_URL", &dead);
    let (ok, text) = run(cmd).await;
    assert!(!ok);
    assert!(line(&text, "anthropic").contains(&format!("cannot reach {dead}")), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_config_line_is_reported_with_its_line() {
    let server = MockLlm::with_handler(|_| Reply::error(200, "{}")).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(data.path().join("heat")).unwrap();
    std::fs::write(data.path().join("heat/heat.toml"), "[debate]\nmax_rounds = 3\ninitial_heat = 7\n").unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(!ok);
    let config = line(&text, "config");
    assert!(config.starts_with("FAIL") && config.contains("heat.toml line 3"), "{text}");
    assert!(config.contains("`debate.initial_heat` must be a number from 0.3 to 1"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_data_dir_that_cannot_be_written_says_how_to_move_it() {
    let server = MockLlm::with_handler(|_| Reply::error(200, "{}")).await;
    let data = tempfile::tempdir().unwrap();
    // A file where the data dir should be: not creatable even as root.
    let blocked = data.path().join("not-a-dir");
    std::fs::write(&blocked, "x").unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env("HEAT_DATA_DIR", &blocked);
    let (ok, text) = run(cmd).await;
    assert!(!ok);
    let line = line(&text, "data");
    assert!(line.starts_with("FAIL") && line.contains("HEAT_DATA_DIR"), "{text}");
    assert_eq!(line.matches("HEAT_DATA_DIR").count(), 1, "the advice is said once: {line}");
}

#[cfg(feature = "local")]
#[tokio::test(flavor = "multi_thread")]
async fn a_damaged_model_file_is_caught_by_its_hash() {
    let server = MockLlm::with_handler(|_| Reply::error(200, "{}")).await;
    let data = tempfile::tempdir().unwrap();
    let models = data.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(models.join(heat::model_store::DEFAULT_FILE), b"GGUF but not the model").unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(!ok);
    let offline = line(&text, "offline");
    assert!(offline.contains("is damaged") && offline.contains("heat model install"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_theme_or_key_map_fails_the_config_check_with_its_file_and_line() {
    let server = MockLlm::with_handler(anthropic_server).await;
    let cases = [
        ("[ui]\ntheme = \"dark\"\n", "heat.toml line 2: `ui.theme`: no theme named \"dark\""),
        ("[keys]\npause = \"banana\"\n", "heat.toml line 2: keys.pause:"),
        // The config takes any `[keys]` name; the keymap knows the actions.
        ("[keys]\npaws = \"p\"\n", "heat.toml line 2: unknown key `keys.paws`"),
        (
            "[debate]\nmax_rounds = 3\n\n[keys]\npause = \"q\"\n",
            "heat.toml line 5: keys.pause: it takes every key of keys.quit",
        ),
    ];
    for (file, expected) in cases {
        let data = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(data.path().join("heat")).unwrap();
        std::fs::write(data.path().join("heat/heat.toml"), file).unwrap();
        let (ok, text) = run(doctor(data.path(), &server)).await;
        assert!(!ok, "{text}");
        let config = line(&text, "config");
        assert!(config.starts_with("FAIL") && config.contains(expected), "{expected}:\n{text}");
        assert!(!text.contains("heat can run a debate."), "{text}");

        // `heat config show` refuses it the same way.
        let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
        cmd.args(["config", "show"]).env("XDG_CONFIG_HOME", data.path()).env_remove("HEAT_CONFIG");
        let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(expected), "{expected}:\n{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_format_in_force_is_named_and_a_broken_format_file_is_a_note_not_a_failure() {
    let server = MockLlm::with_handler(anthropic_server).await;
    let data = tempfile::tempdir().unwrap();
    let formats = data.path().join("heat").join("formats");
    std::fs::create_dir_all(&formats).unwrap();
    std::fs::write(formats.join("house.toml"), "summary = \"mine\"\nseats = 2\n").unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(ok, "a broken format file that is not in force does not stop a debate:\n{text}");
    assert!(line(&text, "format").starts_with("ok") && line(&text, "format").contains("duel (6 formats"), "{text}");
    let note = text.lines().find(|l| l.starts_with("note") && l.contains("house.toml")).unwrap_or_default();
    assert!(note.contains("not used:") && note.contains("house.toml line 2"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_check_is_printed_as_it_finishes_not_all_at_the_end() {
    use std::io::BufRead;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    // The server answers nothing until the test has read doctor's first
    // line. A doctor that prints only at the end shows none before its
    // provider check gives up (5 s), and then fails that check.
    let open = Arc::new(AtomicBool::new(false));
    let gate = Arc::clone(&open);
    let server = MockLlm::with_handler(move |request| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !gate.load(Ordering::SeqCst) && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        anthropic_server(request)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut child = doctor_command(data.path(), &server)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (first, rest) = tokio::task::spawn_blocking(move || {
        let mut lines = std::io::BufReader::new(stdout).lines();
        let first = lines.next().unwrap().unwrap();
        open.store(true, Ordering::SeqCst);
        (first, lines.map(Result::unwrap).collect::<Vec<String>>())
    })
    .await
    .unwrap();
    child.wait().unwrap();
    assert!(first.contains("config"), "{first}");
    assert!(
        rest.iter().any(|l| l.contains("heat can run a debate")),
        "the server was asked only after the end:\n{rest:#?}"
    );
}

// The probes' waits: a queue is not a stall, in the doctor as in a debate.

fn served(server: &MockLlm, first_byte: std::time::Duration) -> std::sync::Arc<dyn heat::provider::ChatModel> {
    use heat::provider::http::HttpConfig;
    std::sync::Arc::new(heat::provider::openai::OpenAiModel::new(HttpConfig {
        base_url: format!("{}/v1", server.base_url),
        api_key: None,
        connect_timeout: std::time::Duration::from_secs(2),
        idle_timeout: std::time::Duration::from_secs(10),
        first_byte_timeout: first_byte,
        max_concurrent: None,
        headers: Vec::new(),
    }))
}

const BUDGET: std::time::Duration = std::time::Duration::from_millis(400);

#[tokio::test]
async fn a_probe_held_in_the_servers_queue_longer_than_its_budget_still_passes() {
    use heat::cli::probe::{Probe, chat};
    let ready = Reply::sse(&openai_stream("smollm", &["ready"], Some("stop")), 4096);
    let server = MockLlm::scripted(vec![ready.queued(std::time::Duration::from_millis(1200))]).await;
    let probe = chat(served(&server, std::time::Duration::from_secs(5)), "smollm", BUDGET).await;
    assert!(matches!(probe, Probe::Ok(_)), "three budgets in the queue are waiting, not failing: {probe:?}");
}

#[tokio::test]
async fn a_probe_that_never_begins_says_the_server_may_be_busy_and_which_setting_waits_longer() {
    use heat::cli::probe::{Probe, chat};
    // Asked twice (one retry), neither begins.
    let server = MockLlm::scripted(vec![Reply::hang(), Reply::hang()]).await;
    let probe = chat(served(&server, std::time::Duration::from_millis(600)), "smollm", BUDGET).await;
    let Probe::Fail(line) = probe else { panic!("{probe:?}") };
    assert!(line.contains("nothing came within"), "{line}");
    assert!(line.contains("first_byte_timeout_secs"), "{line}");
}

#[tokio::test]
async fn a_probe_whose_answer_begins_and_then_stops_is_held_to_its_budget() {
    use heat::cli::probe::{Probe, chat};
    // Two words, then nothing more: no finish, no `[DONE]`, the connection left open.
    let words = String::from_utf8(openai_stream("smollm", &["rea", "dy"], None)).unwrap();
    let begun = Reply::sse(words.replace("data: [DONE]\n\n", "").as_bytes(), 4096).stalled();
    let server = MockLlm::scripted(vec![begun.clone(), begun]).await;
    let probe = chat(served(&server, std::time::Duration::from_secs(5)), "smollm", BUDGET).await;
    let Probe::Fail(line) = probe else { panic!("{probe:?}") };
    assert!(line.contains("not finished within 0.4 s of its first word"), "{line}");
}

#[tokio::test(flavor = "multi_thread")]
async fn what_earlier_debates_learnt_about_the_server_is_reported_with_the_settings_that_start_there() {
    use heat::debate::{DebateEvent, Role};
    use heat::provider::{Adaptation, StructuredOutput};
    let server = MockLlm::with_handler(anthropic_server).await;
    let data = tempfile::tempdir().unwrap();
    let endpoint = format!("anthropic {}", server.base_url);
    let adapted = |endpoint: &str, adaptation| DebateEvent::EndpointAdapted {
        endpoint: endpoint.to_string(),
        adaptation,
        message: String::new(),
    };
    let sessions = data.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let logs = [
        (
            "20261101-090000-aaaa",
            vec![
                adapted(&endpoint, Adaptation::StructuredOutput { form: StructuredOutput::Json }),
                adapted(&endpoint, Adaptation::ContextWindow { tokens: 8192 }),
            ],
        ),
        (
            "20261102-090000-bbbb",
            vec![
                adapted(&endpoint, Adaptation::ContextWindow { tokens: 4096 }),
                adapted(&endpoint, Adaptation::CappedStrings),
                // Another server's lesson is not this one's.
                adapted("anthropic http://127.0.0.1:9", Adaptation::OneAtATime),
            ],
        ),
    ];
    for (id, lessons) in logs {
        let log = support::log::Log::new("Tabs beat spaces", 3, 0.9)
            .seats(&Role::DUEL, "anthropic", "claude-haiku-4-5")
            .then_all(lessons);
        let mut text = format!("{{\"heat_session\":1,\"id\":\"{id}\",\"created_ms\":1793000000000}}\n");
        for event in log.events() {
            text.push_str(&serde_json::json!({ "ms": 0, "event": event }).to_string());
            text.push('\n');
        }
        std::fs::write(sessions.join(format!("{id}.jsonl")), text).unwrap();
    }
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(ok, "{text}");
    let learnt = line(&text, "learnt");
    assert!(learnt.starts_with("note"), "{learnt}");
    assert!(learnt.contains("from 2 earlier debates"), "{learnt}");
    assert!(learnt.contains(r#"verdicts as json (providers.anthropic.structured_output = "json")"#), "{learnt}");
    assert!(
        learnt.contains("4,096 tokens of context (providers.anthropic.max_context = 4096)"),
        "the smaller: {learnt}"
    );
    assert!(learnt.contains("verdict text capped"), "{learnt}");
    assert!(!learnt.contains("one request at a time"), "{learnt}");
}

/// `heat doctor --seat` checks the debate `heat run --seat` would run: a
/// seat on an endpoint heat.toml defines, reached with that endpoint's key
/// variable and headers.
#[tokio::test(flavor = "multi_thread")]
async fn a_seat_on_an_endpoint_of_ones_own_is_checked_with_its_key_and_headers() {
    let server = MockLlm::with_handler(anthropic_server).await;
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("lab.toml");
    let text = format!(
        "[providers.lab]\nkind = \"anthropic\"\nbase_url = \"{}\"\napi_key_env = \"LAB_KEY\"\n\n\
         [providers.lab.headers]\nx-portkey-provider = \"anthropic\"\n",
        server.base_url
    );
    std::fs::write(&config, text).unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.arg("--config").arg(&config).args(["--seat", "skeptic=lab:claude-lab"]).env("LAB_KEY", "lab-key-51");
    let (ok, text) = run(cmd).await;
    assert!(ok, "{text}");
    assert!(line(&text, "skeptic").contains("lab/claude-lab"), "{text}");
    assert!(line(&text, "lab").starts_with("ok") && line(&text, "lab").contains("key from LAB_KEY"), "{text}");
    assert!(!text.contains("lab-key-51"), "the key is never printed: {text}");
    let at_lab: Vec<_> =
        server.requests().into_iter().filter(|r| r.header("x-api-key") == Some("lab-key-51")).collect();
    assert!(at_lab.len() >= 2, "its model list and a chat, with its own key");
    assert!(at_lab.iter().all(|r| r.header("x-portkey-provider") == Some("anthropic")), "and its own headers");
    assert!(at_lab.iter().filter(|r| r.path == "/v1/messages").all(|r| r.body["model"] == "claude-lab"));
}

/// A gateway that drops the structured-output form on its way to the model
/// (`@musistudio/llms`'s route: llama.cpp never saw the schema): the model
/// writes prose around a fenced JSON object, which reads, but is not what a
/// schema or JSON mode gives. Not "ok": the doctor steps down to the form
/// that reaches the model and names its setting.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_a_gateway_drops_is_not_ok_and_the_setting_that_works_is_named() {
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/v1/models" => Reply::error(200, r#"{"object":"list","data":[{"id":"smollm","object":"model"}]}"#),
        "/v1/chat/completions" if request.body.get("response_format").is_some() => {
            let prose = format!("Sure! Here is the verdict:\n```json\n{VERDICT}\n```\nHope that helps.");
            Reply::sse(&openai_stream("smollm", &[prose.as_str()], Some("stop")), 64)
        }
        "/v1/chat/completions" if request.last_message().contains("\"resolved\"") => {
            Reply::sse(&openai_stream("smollm", &[VERDICT], Some("stop")), 64)
        }
        "/v1/chat/completions" => Reply::sse(&openai_stream("smollm", &["ready"], Some("stop")), 64),
        _ => Reply::error(404, r#"{"error":{"message":"File Not Found"}}"#),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = doctor(data.path(), &server);
    cmd.env_remove("ANTHROPIC_API_KEY")
        .env("HEAT_PROVIDER", "openai")
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
    let (_, text) = run(cmd).await;
    let verdict = line(&text, "verdict");
    assert!(!verdict.starts_with("ok"), "a dropped form is not ok: {text}");
    assert!(verdict.contains("but its answer was prose around the JSON"), "{text}");
    assert!(verdict.contains("structured_output = \"off\""), "the setting that works: {text}");
    let asked: Vec<bool> = server
        .requests()
        .iter()
        .filter(|r| r.last_message().contains("\"resolved\""))
        .map(|r| r.body.get("response_format").is_some())
        .collect();
    assert_eq!(asked, [true, true, false], "schema, then JSON mode, then the schema in the prompt: {asked:?}");
}
