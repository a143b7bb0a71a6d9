//! The diagnostic log: `tracing` records written to a daily file in the data
//! dir (`logs/heat.YYYY-MM-DD.log`, the newest seven kept, the directory
//! private to the user), never to the terminal, so the studio's screen stays
//! whole. A debate is logged from its events (`debate::trace`: turns, retries, verdicts,
//! steering, endings), never its streamed text; API keys never reach a record
//! (`HttpConfig`'s `Debug` redacts them and nothing logs a header).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context;
use tracing::level_filters::LevelFilter;
use tracing_appender::rolling::{RollingFileAppender, Rotation};

/// How much goes to the log file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogLevel(pub LevelFilter);

impl Default for LogLevel {
    fn default() -> Self {
        Self(LevelFilter::INFO)
    }
}

impl FromStr for LogLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let level = match s.trim().to_ascii_lowercase().as_str() {
            "off" => LevelFilter::OFF,
            "error" => LevelFilter::ERROR,
            "warn" => LevelFilter::WARN,
            "info" => LevelFilter::INFO,
            "debug" => LevelFilter::DEBUG,
            "trace" => LevelFilter::TRACE,
            other => return Err(format!("`{other}` is not a log level (off, error, warn, info, debug, trace)")),
        };
        Ok(Self(level))
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.to_string().to_ascii_lowercase())
    }
}

/// Where the log files go under a data dir.
pub fn log_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("logs")
}

/// Starts logging into `data_dir/logs`. Returns the directory. Fails (and
/// logs nothing) when the directory cannot be made or written.
pub fn init(data_dir: &Path, level: LogLevel) -> anyhow::Result<PathBuf> {
    let dir = log_dir(data_dir);
    if level.0 == LevelFilter::OFF {
        return Ok(dir);
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir).with_context(|| format!("could not create the log directory {}", dir.display()))?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix("heat")
        .filename_suffix("log")
        .max_log_files(7)
        .build(&dir)
        .with_context(|| format!("could not open a log file in {}", dir.display()))?;
    tracing_subscriber::fmt()
        .with_writer(appender)
        .with_ansi(false)
        .with_target(false)
        .with_max_level(level.0)
        .try_init()
        .map_err(|e| anyhow::anyhow!("logging was already set up: {e}"))?;
    tracing::info!(version = env!("CARGO_PKG_VERSION"), pid = std::process::id(), "heat started");
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_in_any_case_and_bad_ones_say_which_exist() {
        assert_eq!("DEBUG".parse::<LogLevel>(), Ok(LogLevel(LevelFilter::DEBUG)));
        assert_eq!(" off ".parse::<LogLevel>(), Ok(LogLevel(LevelFilter::OFF)));
        let err = "loud".parse::<LogLevel>().expect_err("not a level");
        assert!(err.contains("`loud`") && err.contains("trace"), "{err}");
        assert_eq!(LogLevel::default().to_string(), "info");
    }
}
