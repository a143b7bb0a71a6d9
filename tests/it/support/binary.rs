//! The heat binary as a test runs it: its own data folder and config file,
//! no colour, a time limit, and none of the environment that would reach a
//! real provider or change a setting behind the test's back.

use std::path::Path;
use std::time::Duration;

use heat::config::keys;
use heat::provider::kind::PROVIDERS;

/// `heat --config <data>/heat.toml` with `HEAT_DATA_DIR=<data>`; the config
/// file is written with `config` unless the test wrote one already. Every
/// variable a setting or a provider reads is removed: a test sets the ones
/// it means.
pub fn heat(data: &Path, config: &str) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(process(data, config));
    cmd.timeout(Duration::from_secs(60));
    cmd
}

/// [`heat`] as a process to talk to (no time limit: the test keeps its own).
pub fn process(data: &Path, config: &str) -> std::process::Command {
    let path = data.join("heat.toml");
    if !path.exists() {
        std::fs::write(&path, config).expect("config written");
    }
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("heat"));
    cmd.arg("--config").arg(&path).env("HEAT_DATA_DIR", data).env("NO_COLOR", "1");
    let settings = keys::all().into_iter().filter_map(|spec| spec.env);
    let providers = PROVIDERS.iter().flat_map(|row| [row.key_env, row.url_env]).flatten();
    for name in settings.chain(providers) {
        cmd.env_remove(name);
    }
    cmd
}

/// What a run printed on standard output, as text.
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What a run printed on standard error, as text.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
