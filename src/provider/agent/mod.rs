//! Agent CLIs in the seats: Claude Code, Codex, Gemini CLI, or any command
//! heat.toml names, run as a process for each turn with the prompt on its
//! standard input, its tools off, in a fresh working directory, its answer
//! read from its standard output in the CLI's own stream dialect.

mod dialect;
pub mod guard;
mod model;
mod preset;
mod process;
mod prompt;
mod spec;

pub use dialect::{Decoder, Dialect, Ending};
pub use model::AgentModel;
pub use preset::{CLAUDE_SYSTEM, PRESETS, Preset, named as preset, reading};
pub use prompt::render;
pub use spec::{AgentSpec, CLI_DEFAULT, SchemaArg};
