//! How a studio opens: what `App` takes from heat.toml, the command line
//! and the session store, gathered into one value the studio is built
//! from (`App::new`), so no part of it is set from outside afterwards.

use std::time::Duration;

use super::follow::Follow;
use super::install::InstallState;
use super::keymap::KeyMap;
use super::roster::RosterEntry;
use super::settings::FormatChoices;
use super::theme::Theme;
use crate::config::studio::FIELDS;
use crate::debate::PanelJudge;
use crate::debate::cost::Price;

/// What a studio is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Debates are started, continued and shown (`heat`, `heat resume`).
    Debates,
    /// Stored debates are played back or opened; none is started (`heat replay`).
    Replays,
    /// Another heat's debate followed read-only as its log grows (`heat
    /// watch`): nothing is started, steered or written.
    Watch,
}

/// How a studio opens; [`StudioOptions::new`] gives a debates studio with
/// heat's defaults.
pub struct StudioOptions {
    pub theme: Theme,
    pub keymap: KeyMap,
    pub mode: Mode,
    /// Who can sit in the seats (the settings' and the start screen's choices).
    pub roster: Vec<RosterEntry>,
    /// The prices of a panel's judges 2 to 5 that have their own.
    pub judge_prices: Vec<(PanelJudge, Price)>,
    /// The turn limit the panes count a debater's turn down under.
    pub turn_limit: Option<Duration>,
    /// The settings in force (the form's fields), when this studio offers them.
    pub settings: Option<[String; FIELDS]>,
    /// The formats the settings form offers.
    pub formats: FormatChoices,
    /// The offline model's install, when the start screen offers it.
    pub install: Option<InstallState>,
    /// Recent sessions: (id, one-line description).
    pub recent: Vec<(String, String)>,
    /// What the status line opens with.
    pub notice: Option<String>,
    /// Each turn's statistics under it (`ui.turn_stats`).
    pub show_stats: bool,
    /// How the panes follow a debate (`ui.follow`).
    pub follow_by: Follow,
    /// Each side's words this round in the header (`ui.length_parity`).
    pub show_parity: bool,
    /// Presenter mode (`ui.present`). A watch, the projector's screen,
    /// shows each round's verdict as a card as presenter mode does.
    pub present: bool,
    /// How long a verdict card stays (`ui.card_seconds`).
    pub card_for: Duration,
}

impl StudioOptions {
    /// A debates studio in `theme` with `keymap`, every other option as
    /// heat.toml's defaults leave it.
    pub fn new(theme: Theme, keymap: KeyMap) -> Self {
        Self {
            theme,
            keymap,
            mode: Mode::Debates,
            roster: Vec::new(),
            judge_prices: Vec::new(),
            turn_limit: None,
            settings: None,
            formats: FormatChoices::default(),
            install: None,
            recent: Vec::new(),
            notice: None,
            show_stats: false,
            follow_by: Follow::default(),
            show_parity: true,
            present: false,
            card_for: Duration::ZERO,
        }
    }
}
