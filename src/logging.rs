//! The diagnostic log: `tracing` records written to a daily file in the data
//! dir (`logs/heat.YYYY-MM-DD.log`, the newest seven kept, the directory
//! private to the user), never to the terminal, so the studio's screen stays
//! whole. A debate is logged from its events (turns, retries, verdicts,
//! steering, endings), never its streamed text; API keys never reach a record
//! (`HttpConfig`'s `Debug` redacts them and nothing logs a header).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context;
use tracing::level_filters::LevelFilter;
use tracing_appender::rolling::{RollingFileAppender, Rotation};

use crate::debate::DebateEvent;

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

/// Logs one debate event at the level it deserves. Streamed text (deltas,
/// reasoning) is left out: it is in the session log, and it is large.
pub fn event(event: &DebateEvent) {
    match event {
        DebateEvent::Started { max_rounds, initial_heat, participants, .. } => {
            let who: Vec<String> =
                participants.iter().map(|p| format!("{}={}/{}", p.role.key(), p.provider, p.model)).collect();
            tracing::info!(max_rounds, initial_heat = initial_heat.get(), participants = %who.join(" "), "debate started");
        }
        DebateEvent::Grounded { date, source } => {
            let source = source.as_ref().map(|s| format!("{} ({} lines, sha256 {})", s.name, s.line_count(), s.sha256));
            tracing::info!(?date, ?source, "debate grounded");
        }
        DebateEvent::Formatted { format } => {
            tracing::info!(format = %format.name, phases = format.phases.len(), "debate formatted");
        }
        DebateEvent::QuotesChecked { round, role, checks } => {
            let mut tally = crate::debate::grounding::Tally::default();
            tally.add(checks);
            tracing::info!(round = round + 1, role = role.key(), checks = %tally.describe(), "quotes checked");
        }
        DebateEvent::RoundStarted { round, heat, injected, .. } => {
            tracing::info!(round = round + 1, heat = heat.get(), injected = injected.len(), "round started");
        }
        DebateEvent::TurnStarted { round, role, purpose, temperature } => {
            tracing::debug!(round = round + 1, role = role.key(), ?purpose, ?temperature, "turn started");
        }
        DebateEvent::Delta { .. } | DebateEvent::Reasoning { .. } => {}
        DebateEvent::TurnRetrying { round, role, attempt, max_retries, delay_ms, reason } => {
            tracing::warn!(round = round + 1, role = role.key(), attempt, max_retries, delay_ms, %reason, "turn retrying");
        }
        DebateEvent::TurnCompleted { round, role, text, usage, truncated_at } => {
            tracing::info!(
                round = round + 1,
                role = role.key(),
                chars = text.chars().count(),
                input_tokens = usage.as_ref().map(|u| u.input_tokens),
                output_tokens = usage.as_ref().map(|u| u.output_tokens),
                truncated_at,
                "turn completed"
            );
        }
        DebateEvent::TurnCancelled { round, role } => {
            tracing::info!(round = round + 1, role = role.key(), "turn cancelled");
        }
        DebateEvent::TurnFailed { round, role, error } => {
            tracing::error!(round = round + 1, role = role.key(), %error, "turn failed");
        }
        DebateEvent::VerdictReached { round, verdict } => {
            tracing::info!(round = round + 1, resolved = verdict.resolved, heat = verdict.heat.get(), "verdict");
        }
        DebateEvent::VerdictInvalid { round, error, will_retry } => {
            tracing::warn!(round = round + 1, %error, will_retry, "verdict unreadable");
        }
        DebateEvent::SwapCheckStarted { round } => tracing::debug!(round = round + 1, "swap check started"),
        DebateEvent::SwapChecked { round, flips, usage, .. } => {
            let (input, output) = (usage.map(|u| u.input_tokens), usage.map(|u| u.output_tokens));
            tracing::info!(round = round + 1, flips, input_tokens = input, output_tokens = output, "swap checked");
        }
        DebateEvent::SwapCheckFailed { round, error, .. } => {
            tracing::warn!(round = round + 1, %error, "swap check failed");
        }
        DebateEvent::PanelVoteStarted { round, judge } => {
            tracing::debug!(round = round + 1, judge, "panel vote asked");
        }
        DebateEvent::PanelVoted { round, judge, verdict, .. } => {
            tracing::info!(
                round = round + 1,
                judge,
                resolved = verdict.resolved,
                heat = verdict.heat.get(),
                "panel voted"
            );
        }
        DebateEvent::PanelVoteFailed { round, judge, error, .. } => {
            tracing::warn!(round = round + 1, judge, %error, "panel vote failed");
        }
        DebateEvent::Paused => tracing::info!("paused"),
        DebateEvent::Resumed => tracing::info!("resumed"),
        DebateEvent::TopicInjected { text } => tracing::info!(chars = text.chars().count(), "topic injected"),
        DebateEvent::TemperaturePinned { heat } => tracing::info!(heat = heat.get(), "heat pinned"),
        DebateEvent::TemperatureReleased => tracing::info!("heat released"),
        DebateEvent::ResolutionForced => tracing::info!("resolution forced"),
        DebateEvent::Notice { message } => tracing::warn!(%message, "notice"),
        DebateEvent::EndpointAdapted { endpoint, adaptation, message } => {
            tracing::warn!(%endpoint, ?adaptation, %message, "endpoint adapted");
        }
        DebateEvent::ModelReported { role, model } => tracing::info!(role = role.key(), %model, "served model"),
        DebateEvent::Reopened => tracing::info!("debate reopened"),
        DebateEvent::Finished { outcome, .. } => tracing::info!(outcome = %outcome.describe(), "debate finished"),
        DebateEvent::HumanVerdict { round, ahead, confidence, ends, .. } => {
            tracing::info!(round = round + 1, ahead = ?ahead, confidence, ends, "human verdict");
        }
        DebateEvent::Derived { from, how } => tracing::info!(%from, %how, "derived from another debate"),
        DebateEvent::Branched { from, round, records, how, .. } => {
            tracing::info!(%from, round, records, %how, "branched from another debate");
        }
        DebateEvent::Summarized { model, text, .. } => {
            tracing::info!(%model, chars = text.chars().count(), "summary written");
        }
    }
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
