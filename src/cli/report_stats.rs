//! `heat report`'s arguments sent where they go, and `heat report
//! --tournament [ID]` and `heat report --tag TAG`: the debates `heat stats`
//! counts (the same games, seed and [`stats::summarise`]) as one offline
//! HTML page (`report::standings`), written where a session's report goes
//! and opened when asked.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::Commands;
use crate::report::standings::{self, Input};
use crate::tournament::stats;

/// `heat report` as the command line gave it: with `--tournament` or
/// `--tag`, the statistics' page; without, a session's (`super::report`).
pub async fn from_args(config_file: Option<&PathBuf>, command: Commands) -> anyhow::Result<ExitCode> {
    let Commands::Report { id, demo, output, force, open, summary, debate, tournament, tag } = command else {
        anyhow::bail!("heat report was given another command's arguments");
    };
    if tournament.is_some() || tag.is_some() {
        // `--tournament` alone is the newest tournament.
        let tournament = tournament.as_deref().filter(|id| !id.is_empty());
        let asked = Asked { tournament, tag: tag.as_deref(), output: output.as_deref(), force, open };
        report(&asked)?;
    } else {
        let request = super::report::Request { id: id.as_deref(), demo, output: output.as_deref(), force, open };
        super::report::run(config_file, &debate.flag_values(), request, summary).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `heat report --tournament` or `--tag` was asked for.
pub struct Asked<'a> {
    /// The tournament's id, or the start of one (`None` with no tag: the newest tournament).
    pub tournament: Option<&'a str>,
    pub tag: Option<&'a str>,
    pub output: Option<&'a Path>,
    pub force: bool,
    pub open: bool,
}

/// Counts the debates as `heat stats` does, writes the page and says where.
pub fn report(asked: &Asked<'_>) -> anyhow::Result<PathBuf> {
    let gathered = super::stats::gather(asked.tournament, asked.tag)?;
    let summary = stats::summarise(&gathered.games, gathered.seed);
    let input =
        Input { what: &gathered.what, summary: &summary, games: &gathered.games, propositions: &gathered.propositions };
    let html = standings::html(&input)?;
    let name = match (&gathered.tournament, asked.tag) {
        (Some(id), _) => format!("tournament-{id}"),
        (None, Some(tag)) => format!("tag-{}", file_stem(tag)),
        (None, None) => "tournament".to_string(),
    };
    super::report::place(&html, &name, asked.output, asked.force, asked.open)
}

/// A tag as part of a file's name: letters, digits, `-` and `_` kept, any
/// other character a `-`.
fn file_stem(tag: &str) -> String {
    let stem: String = tag.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    if stem.is_empty() { "tag".to_string() } else { stem }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_names_a_file_with_nothing_a_path_reads() {
        assert_eq!(file_stem("work"), "work");
        assert_eq!(file_stem("../etc/passwd"), "---etc-passwd");
        assert_eq!(file_stem("a b"), "a-b");
        assert_eq!(file_stem(""), "tag");
    }
}
