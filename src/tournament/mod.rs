//! Tournaments: many debates planned, run, resumed and counted.

pub mod stats;
