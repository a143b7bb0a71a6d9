//! Shared test support: a mock LLM server speaking the providers' wire
//! formats, the stream bodies it serves, and helpers for running a turn.
#![allow(dead_code)]

pub mod bodies;
pub mod mock_llm;
pub mod turns;
