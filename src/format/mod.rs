//! Debate formats as data. A format file (TOML) names a debate's seats (id,
//! label, side, brief, optional `provider`/`model`/`max_tokens`), its judge, how
//! many arguments the opening asks for, whether the judge may end it early,
//! its phases and its rounds. This module reads and checks one file;
//! [`catalog`] finds the built-in ones and the user's.

pub mod catalog;
mod file;
pub mod layer;

use std::path::PathBuf;

pub use catalog::Catalog;

use crate::debate::event::Role;
use crate::debate::format::FormatRecord;

/// Where a format came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    File(PathBuf),
}

/// A seat's own model settings, which win over heat.toml's `roles.*` (a
/// command-line flag still wins over them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatModel {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub max_tokens: Option<u32>,
}

/// A checked format, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    pub name: String,
    /// One line for `heat formats`.
    pub summary: String,
    pub origin: Origin,
    /// The format's own number of rounds; `debate.max_rounds` otherwise.
    pub max_rounds: Option<u32>,
    /// Each seat's id in the file (`proposition`), by position in
    /// [`crate::debate::seat::SEATS`]; `--seat ID=MODEL` names these.
    pub seat_ids: Vec<String>,
    /// Each seat's brief: the file name and its text (empty for a seat
    /// the format does not fill).
    pub briefs: Vec<(String, String)>,
    pub models: Vec<SeatModel>,
    /// What the log keeps.
    pub record: FormatRecord,
}

impl Format {
    /// Reads and checks a format file's text; `label` names the file in
    /// errors (`~/.config/heat/formats/x.toml`) and `brief_dir` is where
    /// its brief files are looked for before the built-in prompts.
    pub fn parse(name: &str, text: &str, origin: &Origin) -> anyhow::Result<Format> {
        file::parse(name, text, origin)
    }

    /// The built-in duel, as heat runs it when no format is named (a user's
    /// own `duel.toml` is a format like any other, and is recorded).
    pub fn is_duel(&self) -> bool {
        self.name == crate::debate::format::DUEL && self.origin == Origin::BuiltIn
    }

    /// The record the log keeps; `None` for the duel, whose log is what it
    /// always was.
    pub fn log_record(&self) -> Option<FormatRecord> {
        (!self.is_duel()).then(|| self.record.clone())
    }

    /// The seats that sit: the debaters, then the judge if one sits.
    pub fn seats(&self) -> Vec<Role> {
        self.record.seats()
    }

    /// The seat a `--seat` name means: the format's seat id or label, or
    /// the role's own name (advocate, skeptic, judge), in any case.
    pub fn seat_named(&self, name: &str) -> Option<Role> {
        let name = name.trim();
        self.seats().into_iter().find(|&role| {
            self.seat_ids[role.position()].eq_ignore_ascii_case(name)
                || self.record.label(role).eq_ignore_ascii_case(name)
                || role.key().eq_ignore_ascii_case(name)
        })
    }

    /// One line for `heat formats`.
    pub fn line(&self) -> String {
        let rounds = self.max_rounds.map(|n| format!(", {n} rounds")).unwrap_or_default();
        format!("{}, {}{rounds}: {}", self.record.lineup(), self.record.judging(), self.summary)
    }
}

#[cfg(test)]
mod tests;
