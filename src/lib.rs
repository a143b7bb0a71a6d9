//! heat: a terminal debate studio. An advocate and a skeptic argue a
//! proposition while a judge weighs each round and sets the heat.

pub mod cli;
pub mod config;
pub mod debate;
pub mod format;
pub mod logging;
pub mod model_store;
pub mod provider;
pub mod report;
pub mod sanitize;
pub mod setup;
pub mod store;
pub mod tui;
