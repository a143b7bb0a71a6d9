//! `heat doctor` end to end: the real binary against the mock server. Each
//! broken thing gets one line naming the cause and the fix, and the exit
//! code says whether a debate could run; the key is never printed.
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use support::mock_llm::{MockLlm, Reply};

const KEY: &str = "sk-ant-doctor-7c41";

fn doctor(data: &Path, server: &MockLlm) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.arg("doctor")
        // The platform's config file, as a user has it: here not there yet.
        .env("XDG_CONFIG_HOME", data)
        .env_remove("HEAT_CONFIG")
        .env("HEAT_DATA_DIR", data)
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base_url)
        .env_remove("OPENAI_API_KEY")
        .env_remove("HEAT_PROVIDER")
        .env_remove("HEAT_MODEL_PATH")
        .timeout(std::time::Duration::from_secs(30));
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

#[tokio::test(flavor = "multi_thread")]
async fn a_working_setup_passes_and_the_key_is_checked_live() {
    let server = MockLlm::with_handler(|request| match request.path.as_str() {
        "/v1/models" => Reply::error(200, r#"{"data":[{"id":"claude-haiku-4-5"}]}"#),
        _ => Reply::error(404, r#"{"error":{"message":"no route"}}"#),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let (ok, text) = run(doctor(data.path(), &server)).await;
    assert!(ok, "{text}");
    assert!(line(&text, "config").contains("not present; built-in defaults"), "{text}");
    assert!(line(&text, "data").contains("writable; 0 stored debates"), "{text}");
    assert!(line(&text, "advocate").contains("anthropic/claude-haiku-4-5"), "{text}");
    assert!(
        line(&text, "anthropic").starts_with("ok") && line(&text, "anthropic").contains("key from ANTHROPIC_API_KEY")
    );
    assert!(text.ends_with("heat can run a debate.\n"), "{text}");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "one model-list request, no tokens spent");
    assert_eq!(requests[0].header("x-api-key"), Some(KEY));
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
