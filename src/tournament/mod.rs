//! Tournaments: many debates planned, run, resumed and counted.

pub mod file;
pub mod games;
pub mod plan;
