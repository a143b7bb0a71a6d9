//! Shared test support: a mock LLM server speaking the providers' wire
//! formats, the stream bodies it serves, helpers for running a turn, the
//! builder of a debate's event log, and the headless-Chromium harness.
#![allow(dead_code)]

pub mod agents;
pub mod binary;
pub mod bodies;
pub mod browser;
pub mod cli_bodies;
pub mod duel;
pub mod log;
pub mod mock_llm;
pub mod turns;
