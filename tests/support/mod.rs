//! Shared test support: a mock LLM server speaking the providers' wire formats.
#![allow(dead_code)]

pub mod mock_llm;
