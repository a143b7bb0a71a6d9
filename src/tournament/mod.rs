//! Tournaments: many debates planned, run, resumed, counted and exported.
//! The file and its checks (`file`), its line-ups (`lineup`), the debates
//! it plans (`plan`), a stored
//! debate read as a game (`games`), the statistics over games (`stats`,
//! which knows nothing of debates) and the analysis export of its debates,
//! rounds and turns as CSV or Parquet (`export`). Running one is the CLI's
//! (`cli/tournament/`), keeping its journal the store's
//! (`store/tournaments.rs`).

pub mod export;
pub mod file;
pub mod games;
pub mod lineup;
pub mod placed;
pub mod plan;
pub mod progress;
pub mod stats;
