//! Debate formats as data. A format file (TOML) names a debate's seats (id,
//! label, side, brief, optional `provider`/`model`/`max_tokens`), its judge, how
//! many arguments the opening asks for, whether the judge may end it early,
//! its phases and its rounds. This module reads and checks one file;
//! [`catalog`] finds the built-in ones and the user's.

mod briefs;
pub mod catalog;
mod file;
pub mod layer;
mod map_keys;
mod place;

pub use briefs::Origin;
pub use catalog::Catalog;
pub use file::{Format, SeatModel};

#[cfg(test)]
mod tests;
