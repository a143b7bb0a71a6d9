//! The studio: a ratatui front end that streams the three roles side by
//! side and steers the debate through the engine's commands. It talks to
//! the engine only through `DebateHandle`.

pub mod app;
mod event_loop;
pub mod input;
pub mod judge_text;
pub mod keymap;
pub mod markdown;
pub mod pane;
mod terminal;
pub mod theme;
pub mod view;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::debate::engine::{DebateSpec, EngineSetup};
use crate::store::Store;

pub use app::{App, RosterEntry};

/// Everything the studio needs to run debates.
pub struct Studio {
    pub setup: EngineSetup,
    pub store: Store,
    /// Rounds and starting heat; the topic comes from the person.
    pub spec: DebateSpec,
    /// Start on this topic at once instead of showing the start screen.
    pub topic: Option<String>,
    /// Where `e` writes exports.
    pub export_dir: PathBuf,
}

/// Runs the studio until the person quits.
pub async fn run(studio: Studio, app: App) -> anyhow::Result<ExitCode> {
    event_loop::run(studio, app).await
}
