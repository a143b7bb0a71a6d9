//! Which formats exist: the built-in ones (`assets/formats/`, compiled in)
//! and the user's (`formats/*.toml` in the config dir), where a user file
//! adds a format or replaces a built-in one of the same name. A user file
//! that does not parse is kept as a problem to show, and never hides the
//! others.

use std::path::{Path, PathBuf};

use super::briefs::Origin;
use super::file::Format;
use crate::debate::format::DUEL;

/// The built-in formats, by name, in the order `heat formats` lists them.
pub const BUILT_IN: [(&str, &str); 6] = [
    (DUEL, include_str!("../../assets/formats/duel.toml")),
    ("oxford", include_str!("../../assets/formats/oxford.toml")),
    ("vote", include_str!("../../assets/formats/vote.toml")),
    ("panel", include_str!("../../assets/formats/panel.toml")),
    ("review", include_str!("../../assets/formats/review.toml")),
    ("socratic", include_str!("../../assets/formats/socratic.toml")),
];

/// The formats that exist, and the user files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub formats: Vec<Format>,
    /// One sentence each: a user's format file that is not used, and why.
    pub problems: Vec<String>,
    /// The names of the files those problems are about, in the same order
    /// (`None` for a built-in format's).
    problem_names: Vec<Option<String>>,
}

impl Catalog {
    /// The built-in formats and those in `user_dir` (which win by name).
    pub fn load(user_dir: Option<&Path>) -> Catalog {
        let mut catalog = Catalog::default();
        for (name, text) in BUILT_IN {
            match Format::parse(name, text, &Origin::BuiltIn) {
                Ok(format) => catalog.formats.push(format),
                Err(e) => {
                    catalog.problems.push(format!("{e:#}"));
                    catalog.problem_names.push(None);
                }
            }
        }
        for path in user_files(user_dir) {
            let Some(name) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
            // A file saved with a byte-order mark (some Windows editors) reads as without.
            let parsed = std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("{}: could not read it: {e}", path.display()))
                .and_then(|text| {
                    Format::parse(&name, text.trim_start_matches('\u{feff}'), &Origin::File(path.clone()))
                });
            match parsed {
                Ok(format) => match catalog.formats.iter_mut().find(|f| f.name.eq_ignore_ascii_case(&name)) {
                    Some(slot) => *slot = format,
                    None => catalog.formats.push(format),
                },
                Err(e) => {
                    catalog.problems.push(format!("{e:#}"));
                    catalog.problem_names.push(Some(name));
                }
            }
        }
        catalog
    }

    /// A format's file as written: a built-in one's text, or the user's
    /// file read again. An unknown name lists the formats there are.
    pub fn text_of(&self, name: &str) -> anyhow::Result<String> {
        let format = self.find(name)?;
        match &format.origin {
            Origin::BuiltIn => BUILT_IN
                .iter()
                .find(|(n, _)| *n == format.name)
                .map(|(_, text)| (*text).to_string())
                .ok_or_else(|| anyhow::anyhow!("the built-in format {} has no file", format.name)),
            Origin::File(path) => {
                std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("could not read {}: {e}", path.display()))
            }
        }
    }

    /// The user's format dir: `formats/` beside heat.toml.
    pub fn user_dir(config_file: Option<&Path>) -> Option<PathBuf> {
        config_file.and_then(Path::parent).map(|dir| dir.join("formats"))
    }

    /// A format by name (any case). An unknown name is an error listing
    /// the formats that exist, and why a user file of that name is not used.
    pub fn find(&self, name: &str) -> anyhow::Result<&Format> {
        let name = name.trim();
        if let Some(format) = self.formats.iter().find(|f| f.name.eq_ignore_ascii_case(name)) {
            return Ok(format);
        }
        let broken = self.problem_names.iter().position(|n| n.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(name)));
        if let Some(problem) = broken.map(|i| &self.problems[i]) {
            anyhow::bail!("the format {name:?} is not used: {problem}");
        }
        let names: Vec<&str> = self.formats.iter().map(|f| f.name.as_str()).collect();
        anyhow::bail!("no format named {name:?}; the formats are {} (`heat formats` describes them)", names.join(", "))
    }
}

/// The `.toml` files in `dir`, by name; none when it does not exist.
fn user_files(dir: Option<&Path>) -> Vec<PathBuf> {
    let Some(entries) = dir.and_then(|d| std::fs::read_dir(d).ok()) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("toml")) && p.is_file())
        .collect();
    files.sort();
    files
}
