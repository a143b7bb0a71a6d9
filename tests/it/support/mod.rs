//! Shared test support: a mock LLM server speaking the providers' wire
//! formats, the stream bodies it serves, helpers for running a turn, and
//! the builder of a debate's event log.
#![allow(dead_code)]

pub mod binary;
pub mod bodies;
pub mod duel;
pub mod log;
pub mod mock_llm;
pub mod turns;
