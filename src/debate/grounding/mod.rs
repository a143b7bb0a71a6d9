//! Grounding a debate in the world: a source document every role reads
//! with line numbers, the checks of what debaters cite from it, and today's
//! date. What reaches the prompts is built in [`preamble`].

pub mod date;
pub mod library_checks;
pub mod lookup;
pub mod quotes;
pub mod reading;
pub mod source;

pub use quotes::{Cited, Mark, QuoteCheck, SourceIndex, Tally, describe_all};
pub use reading::Reading;

use crate::library::LibraryRecord;
pub use source::{Source, SourceError};

/// On resume: what a person should know about the recorded source when
/// the file it came from has changed or gone (the debate goes on with the
/// recorded text either way).
pub fn resume_notice(source: &Source) -> Option<String> {
    match source.matches_file(source.file()) {
        Some(true) => None,
        Some(false) => Some(format!(
            "the source {} has changed since this debate began; it goes on with the text recorded then",
            source.name
        )),
        None if source.name == "stdin" => None,
        None => Some(format!(
            "the source {} can no longer be read; the debate goes on with the text recorded when it began",
            source.name
        )),
    }
}

/// The block every system prompt starts with, the same for every request
/// of a debate (so a provider can cache it): the date line, then the source
/// with line numbers and how to cite it. `None` when there is neither.
pub fn preamble(date: Option<&str>, source: Option<&Source>, library: Option<&LibraryRecord>) -> Option<String> {
    let mut out = String::new();
    if let Some(date) = date {
        out.push_str(&date::line(date));
        out.push('\n');
    }
    if let Some(source) = source {
        if !out.is_empty() {
            out.push('\n');
        }
        let what = if source.section.is_empty() {
            format!("this source document, {} ({} lines)", source.name, source.line_count())
        } else {
            let last = source.first_line + source.line_count() - 1;
            format!(
                "this section of the source document {}: {} (lines {}–{last})",
                source.name,
                source.section.join(" › "),
                source.first_line
            )
        };
        out.push_str(&format!(
            "The debate is about {what}. Cite it by line, as [L12] or [L12–L18], or quote its exact words in \
             double quotes. Every citation and quote is checked against the source; one that is not found counts \
             for nothing.\n\n<source>\n{}</source>\n",
            source.numbered()
        ));
    }
    if let Some(library) = library {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&library_line(library));
    }
    (!out.is_empty()).then_some(out)
}

/// The most files the preamble names; the rest are counted.
const FILES_NAMED: usize = 24;

/// What every role is told of the library: its files and how to cite them.
fn library_line(library: &LibraryRecord) -> String {
    let names: Vec<&str> = library.files.iter().take(FILES_NAMED).map(|f| f.name.as_str()).collect();
    let more = library.files.len().saturating_sub(FILES_NAMED);
    let listed = if more == 0 { names.join(", ") } else { format!("{}, and {more} more", names.join(", ")) };
    format!(
        "The debate draws on a library of {} files: {listed}. Each debater's turn brings the passages of it that bear \
         on the round, each headed by its file and lines. Cite a passage by file and line, as [docs/notes.md:L12] or \
         [docs/notes.md:L12–L18], or quote its exact words in double quotes. Every citation and quote is checked \
         against the library; one that is not found counts for nothing.\n",
        library.files.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preamble_starts_with_the_date_then_the_numbered_source() {
        let source = Source::from_bytes("plan.md".into(), b"# Plan\nShip it.\n").expect("source");
        let text = preamble(Some("2026-11-23"), Some(&source), None).expect("a preamble");
        assert!(text.starts_with("Today is 2026-11-23 (November 23, 2026).\n\nThe debate is about this source document, plan.md (2 lines)."), "{text}");
        assert!(text.contains("<source>\nL1: # Plan\nL2: Ship it.\n</source>"), "{text}");
        assert_eq!(preamble(None, None, None), None);
        let doc = Source::from_bytes("d.md".into(), b"# Design\n## Queue\njobs\n## Net\nhttp\n").expect("source");
        let queue = doc.section("Queue").expect("section");
        let text = preamble(None, Some(&queue), None).expect("a preamble");
        assert!(
            text.starts_with(
                "The debate is about this section of the source document d.md: Design › Queue (lines 2–3)."
            ),
            "{text}"
        );
        assert!(text.contains("<source>\nL2: ## Queue\nL3: jobs\n</source>"), "{text}");
        let checks = SourceIndex::for_source(&queue).check("See [L3] and [L1], \"jobs\" is too short to check.", &[]);
        let marks: Vec<Mark> = checks.iter().map(|c| c.mark).collect();
        assert_eq!(marks, [Mark::Verified, Mark::Unverified], "lines outside the section are not the source's");
        assert_eq!(
            preamble(Some("2026-11-23"), None, None).as_deref(),
            Some("Today is 2026-11-23 (November 23, 2026).\n")
        );
    }
}
