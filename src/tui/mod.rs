//! The studio: a ratatui front end that streams the seats that sit side
//! by side (the duel's three, a vote's debaters, more in two rows) and
//! steers the debate through the engine's commands. It talks to the engine
//! only through `DebateHandle`.

pub mod app;
pub mod branch_form;
pub mod browser;
pub mod clipboard;
pub mod copy;
pub mod effect;
mod event_loop;
mod export;
pub mod flash;
pub mod help;
pub mod input;
pub mod install;
pub mod judge_text;
pub mod keymap;
mod likeness;
pub mod markdown;
pub mod modal;
pub mod pane;
mod pane_notes;
pub mod replay;
pub mod search;
pub mod settings;
mod start;
mod steer;
pub mod streaming_text;
mod summarize;
mod terminal;
pub mod theme;
pub mod turn_stats;
pub mod verdict_form;
mod verdict_marks;
pub mod view;
mod word_counts;
pub mod wrap;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::debate::engine::{DebateSpec, EngineSetup};
use crate::store::log::Loaded;
use crate::store::{Recorder, Store};

pub use app::{App, RosterEntry};

/// Everything the studio needs to run debates.
pub struct Studio {
    /// How debates are run; `None` for a replay-only studio.
    pub setup: Option<EngineSetup>,
    pub store: Store,
    /// Rounds and starting heat; the topic comes from the person.
    pub spec: DebateSpec,
    pub opening: Opening,
    /// Where `e` writes exports.
    pub export_dir: PathBuf,
    /// Installs the offline model and makes `setup`, when the start screen
    /// offers that (the model is the provider and is not on disk yet).
    pub installer: Option<install::Installer>,
    /// Whether the studio takes the mouse (wheel scrolling); without it the
    /// terminal's own text selection works without Shift.
    pub mouse: bool,
    /// Applies the start screen's settings, when it offers them.
    pub configure: Option<settings::Configurer>,
}

/// What the studio shows first.
pub enum Opening {
    /// The start screen's topic editor.
    StartScreen,
    /// A new debate on this topic.
    Topic(String),
    /// A stored debate, shown as it stood and continued.
    Resume { recorder: Box<Recorder>, loaded: Loaded },
    /// A stored debate played back at its recorded pace times `speed`.
    Replay { loaded: Loaded, speed: f64, id: Option<String> },
    /// Another heat's debate, shown as it stands and followed read-only
    /// while `live` (a running debate holds its log).
    Watch { loaded: Loaded, id: String, live: bool },
}

/// Runs the studio until the person quits.
pub async fn run(studio: Studio, app: App) -> anyhow::Result<ExitCode> {
    event_loop::run(studio, app).await
}
