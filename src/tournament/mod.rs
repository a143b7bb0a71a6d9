//! Tournaments: many debates planned, run, resumed and counted. The file
//! and its checks (`file`), the debates it plans (`plan`), a stored debate
//! read as a game (`games`) and the statistics over games (`stats`, which
//! knows nothing of debates). Running one is the CLI's
//! (`cli/tournament/`), keeping its journal the store's
//! (`store/tournaments.rs`).

pub mod file;
pub mod games;
pub mod plan;
pub mod stats;
