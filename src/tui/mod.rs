//! The studio: a ratatui front end that streams the seats that sit side
//! by side (the duel's three, a vote's debaters, more in two rows) and
//! steers the debate through the engine's commands. It talks to the engine
//! only through `DebateHandle`.

pub mod app;
pub mod board;
pub mod branch_form;
pub mod browser;
pub mod chord;
pub mod clipboard;
pub mod clocks;
pub mod copy;
pub mod effect;
mod event_loop;
mod export;
pub mod flash;
pub mod follow;
pub mod form;
mod frame;
pub mod install;
pub mod judge_text;
pub mod keymap;
pub mod label_edit;
mod likeness;
pub mod map_view;
pub mod markdown;
pub mod modal;
pub mod model_pick;
pub mod offers;
pub mod options;
pub mod paged;
pub mod pane;
mod pane_notes;
pub mod panes;
pub mod person_turn;
pub mod replay;
pub mod results;
pub mod roster;
pub mod search;
pub mod seat_target;
pub mod sent;
pub mod settings;
mod signals;
pub mod stage;
pub mod start;
pub mod steer;
pub mod streaming_text;
mod studio;
mod studio_state;
mod summarize;
mod terminal;
mod terse_backend;
pub mod theme;
pub mod turn_stats;
pub mod verdict_form;
mod verdict_marks;
pub mod view;
pub mod wait;
pub mod waiting;
mod word_counts;
pub mod wrap;

use std::process::ExitCode;

pub use app::App;
pub use frame::render;
pub use roster::RosterEntry;
pub use studio::{ModelLister, Opening, Studio};

/// Runs the studio until the person quits.
pub async fn run(studio: Studio, app: App) -> anyhow::Result<ExitCode> {
    Box::pin(event_loop::run(studio, app)).await
}
