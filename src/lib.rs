//! heat: a terminal debate studio. Debaters argue a proposition in a
//! format (a duel's advocate and skeptic, Oxford's sides, a vote's or a
//! panel's free seats, a review's critics) while a judge, or a panel of
//! judges, weighs each round and sets the heat: the next round's sampling
//! temperature. The floors, from the ground up, are in docs/architecture.md.

pub mod cli;
pub mod config;
pub mod debate;
pub mod format;
pub mod library;
pub mod logging;
pub mod mcp;
pub mod model_store;
pub mod provider;
pub mod report;
pub mod sanitize;
pub mod secrets;
pub mod setup;
pub mod store;
pub mod tournament;
pub mod tui;
pub mod web;
pub mod words;
