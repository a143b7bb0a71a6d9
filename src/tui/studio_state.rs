//! What the studio shows and knows: the folded debate and the parts of the
//! screen it is shown on. Anyone reads it (`App` derefs to it); only `App`'s
//! own methods change it, so every change to the studio is made in one of
//! its module (`app`: its fold, its keys in `input`, what its tasks
//! report in `tasks`).

use super::clocks::Clocks;
use super::flash::StatusLine;
use super::keymap::KeyMap;
use super::modal::Modal;
use super::options::Mode;
use super::panes::Panes;
use super::person_turn::PersonTurn;
use super::replay::{Replay, ReplayClock};
use super::roster::RosterEntry;
use super::stage::Stage;
use super::start::StartScreen;
use super::theme::Theme;
use super::{likeness::Likeness, word_counts::WordCounts};
use crate::debate::cost::Price;
use crate::debate::{DebateState, PanelJudge};

/// The studio's state; see the module's doc.
pub struct StudioState {
    pub debate: DebateState,
    pub session: Option<String>,
    pub panes: Panes,
    pub modal: Option<Modal>,
    pub start: StartScreen,
    pub status: StatusLine,
    pub clocks: Clocks,
    pub keymap: KeyMap,
    pub theme: Theme,
    pub roster: Vec<RosterEntry>,
    /// The prices of a panel's judges 2 to 5 that have their own.
    pub judge_prices: Vec<(PanelJudge, Price)>,
    /// What this studio is for: `heat replay` opens one that starts no debate.
    pub mode: Mode,
    /// Where a stored debate being played back stands.
    pub replay: Option<Replay>,
    /// How far a replay has got, and at what speed.
    pub replay_clock: Option<ReplayClock>,
    /// A pause or resume sent but not yet confirmed by the engine.
    pub pause_requested: Option<bool>,
    pub interrupts: u8,
    /// Whether the header shows each side's words this round (`ui.length_parity`).
    pub show_parity: bool,
    /// Each turn's words, counted as it streams (the header reads them every frame).
    pub word_counts: WordCounts,
    /// How alike the current round's two arguments are, measured when they change.
    pub likeness: Likeness,
    /// In a watch: whether another heat was running the debate when it
    /// opened (a debate stopped unfinished is shown as not running).
    pub watched_live: bool,
    /// In a watch: whether the heat running the debate takes steering from
    /// a watch (`heat run`, a tournament, `heat mcp`; not a studio, whose
    /// operator steers at its own keyboard).
    pub watched_steers: bool,
    /// The turn the debate waits on the person for, in a seat they take.
    pub person: Option<PersonTurn>,
    /// Presenter mode, a zoomed pane, the verdict card.
    pub stage: Stage,
}
