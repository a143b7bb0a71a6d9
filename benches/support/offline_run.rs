//! Running the real `heat run --json` on the embedded model, in a data dir
//! of its own, and reading its events, wall time and peak resident memory
//! (the kernel's high-water mark, `VmHWM`, read until the process is gone).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use heat::debate::DebateEvent;

/// The installed model, or `HEAT_TEST_MODEL`.
pub fn model_path() -> Option<PathBuf> {
    std::env::var_os("HEAT_TEST_MODEL").map(PathBuf::from).or_else(|| {
        let path = heat::model_store::default_model_path(&heat::store::data_dir().ok()?);
        path.exists().then_some(path)
    })
}

/// What one `heat run` did.
pub struct Run {
    pub events: Vec<DebateEvent>,
    pub time: Duration,
    /// Peak resident memory, in MB.
    pub peak_mb: u64,
}

/// Runs `heat run ARGS --json` on `model` with `config` as heat.toml.
pub fn run(model: &Path, config: &str, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("a temp dir");
    let config_path = dir.path().join("heat.toml");
    std::fs::write(&config_path, config).expect("write the config");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_heat"))
        .arg("--config")
        .arg(&config_path)
        .arg("run")
        .args(args)
        .arg("--json")
        .current_dir(dir.path())
        .env("HEAT_DATA_DIR", dir.path())
        .env("HEAT_PROVIDER", "local")
        .env("HEAT_MODEL_PATH", model)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start heat");
    let status = format!("/proc/{}/status", child.id());
    let peak = Arc::new(AtomicU64::new(0));
    let watcher = {
        let peak = Arc::clone(&peak);
        std::thread::spawn(move || {
            while let Ok(text) = std::fs::read_to_string(&status) {
                let kb = text
                    .lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                peak.fetch_max(kb, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let stdout = child.stdout.take().expect("stdout");
    let events: Vec<DebateEvent> = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| heat::cli::json_lines::read_json_line(&l).ok())
        .collect();
    let _ = child.wait();
    let _ = watcher.join();
    Run { events, time: start.elapsed(), peak_mb: peak.load(Ordering::Relaxed) / 1024 }
}
