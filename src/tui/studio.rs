//! What the studio is given to run: how debates are run (the engine's
//! set-up, the store, the spec), what it opens on, and the set-up steps the
//! start screen can take (installing the offline model, applying settings).

use std::path::PathBuf;

use crate::debate::engine::{DebateSpec, EngineSetup};
use crate::store::log::Loaded;
use crate::store::{Recorder, Store};

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
    pub installer: Option<super::install::Installer>,
    /// Whether the studio takes the mouse (wheel scrolling); without it the
    /// terminal's own text selection works without Shift.
    pub mouse: bool,
    /// Where `A` serves the audience page (`ui.audience`).
    pub audience: String,
    /// Applies the start screen's settings, when it offers them.
    pub configure: Option<super::settings::Configurer>,
    /// Asks a provider's server which models it serves, for the settings'
    /// model picker, when the studio offers settings.
    pub list_models: Option<ModelLister>,
}

/// Asks the provider named by the string which models its server serves.
pub type ModelLister =
    std::sync::Arc<dyn Fn(String) -> futures::future::BoxFuture<'static, Result<Vec<String>, String>> + Send + Sync>;

/// What the studio shows first.
pub enum Opening {
    /// The start screen's topic editor.
    StartScreen,
    /// A new debate on this topic.
    Topic(String),
    /// A stored debate, shown as it stood and continued.
    Resume { recorder: Box<Recorder>, loaded: Loaded, reopening: crate::debate::engine::Reopening },
    /// A stored debate played back at its recorded pace times `speed`.
    Replay { loaded: Loaded, speed: f64, id: Option<String> },
    /// Another heat's debate, shown as it stands and followed read-only
    /// while `live` (a running debate holds its log).
    Watch { loaded: Loaded, id: String, live: bool },
}
