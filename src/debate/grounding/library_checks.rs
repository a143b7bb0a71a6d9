//! Checking what a debater cites against a library: a citation names a
//! file and its lines (`[docs/studio.md:L12–L18]`) and is verified when the
//! file is in the library and the lines exist; a quote is looked for in the
//! files a search of its words finds, and marked as a one-source quote is
//! (verified, near, not found: see `quotes`). A citation of lines with no
//! file (`[L12]`) cannot be told apart between files and is not verified.

use std::collections::HashMap;
use std::sync::Arc;

use super::quotes::{self, Checker, Cited, Mark, QuoteCheck, SourceIndex};
use crate::library::Library;

/// How many of the passages a quote's words find are looked in.
const CANDIDATES: usize = 12;

/// A library, with each file normalised for quote checks once it is needed.
pub struct LibraryChecks {
    library: Arc<Library>,
    indexes: HashMap<usize, SourceIndex>,
}

impl LibraryChecks {
    pub fn new(library: Arc<Library>) -> Self {
        LibraryChecks { library, indexes: HashMap::new() }
    }

    /// Every citation and quote of `argument`, checked against the library
    /// (`earlier`: as [`SourceIndex::check`] takes it).
    pub fn check(&mut self, argument: &str, earlier: &[(String, &str)]) -> Vec<QuoteCheck> {
        quotes::check_argument(self, argument, earlier)
    }
}

impl Checker for LibraryChecks {
    fn lines(&mut self, file: Option<&str>, start: usize, end: usize) -> Option<QuoteCheck> {
        let Some(file) = file else {
            let cited = Cited::Lines { start, end };
            return Some(QuoteCheck {
                cited,
                mark: Mark::Unverified,
                lines: None,
                from: None,
                file: None,
                library: true,
            });
        };
        let doc = self.library.doc(file);
        let exists = doc.is_some_and(|d| d.lines(start, end).is_some());
        let name = doc.map_or_else(|| file.to_string(), |d| d.name.clone());
        let mark = if exists { Mark::Verified } else { Mark::Unverified };
        let lines = exists.then_some((start, end));
        Some(QuoteCheck {
            cited: Cited::Passage { file: name, start, end },
            mark,
            lines,
            from: None,
            file: None,
            library: true,
        })
    }

    fn quote(&mut self, text: &str) -> QuoteCheck {
        let mut docs: Vec<usize> = Vec::new();
        for hit in self.library.search(text, CANDIDATES * 4) {
            let doc = self.library.passages[hit.passage].doc;
            if !docs.contains(&doc) {
                docs.push(doc);
            }
            if docs.len() == CANDIDATES {
                break;
            }
        }
        let mut best: Option<QuoteCheck> = None;
        for doc in docs {
            let library = &self.library;
            let index = self.indexes.entry(doc).or_insert_with(|| SourceIndex::new(&library.docs[doc].text));
            let check =
                QuoteCheck { file: Some(library.docs[doc].name.clone()), library: true, ..index.check_quote(text) };
            match check.mark {
                Mark::Verified => return check,
                Mark::Near if best.is_none() => best = Some(check),
                _ => {}
            }
        }
        best.unwrap_or_else(|| {
            let cited = Cited::Quote { text: text.split_whitespace().collect::<Vec<_>>().join(" ") };
            QuoteCheck { cited, mark: Mark::Unverified, lines: None, from: None, file: None, library: true }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::Document;
    use std::path::PathBuf;

    fn library() -> Arc<Library> {
        let doc = |name: &str, text: &str| {
            Document::from_bytes(name.into(), PathBuf::from(name), text.as_bytes()).expect("doc")
        };
        Arc::new(Library::from_docs(
            Vec::new(),
            vec![
                doc("docs/queue.md", "# Queue\nJobs wait in Postgres until a worker takes them.\n"),
                doc("docs/retry.md", "# Retries\nA failed job is tried three more times.\n"),
            ],
            Vec::new(),
        ))
    }

    #[test]
    fn a_citation_names_a_file_and_lines_that_exist() {
        let mut checks = LibraryChecks::new(library());
        let said: Vec<String> = checks
            .check("See [docs/retry.md:L2], [queue.md:L1–L2], [docs/retry.md:L9], [nope.md:L1] and [L2].", &[])
            .iter()
            .map(QuoteCheck::describe)
            .collect();
        assert_eq!(
            said,
            [
                "✓ [docs/retry.md:L2]",
                "✓ [docs/queue.md:L1–L2]",
                "✗ [docs/retry.md:L9] (no such file or lines in the library)",
                "✗ [nope.md:L1] (no such file or lines in the library)",
                "✗ [L2] (names no file of the library)",
            ]
        );
    }

    #[test]
    fn a_quote_is_found_in_whichever_file_holds_it() {
        let mut checks = LibraryChecks::new(library());
        let found = checks.check(
            "\"a failed job is tried three more times\" and \"jobs wait in Postgres until the worker takes them\"",
            &[],
        );
        let said: Vec<String> = found.iter().map(QuoteCheck::describe).collect();
        assert_eq!(
            said,
            [
                "✓ “a failed job is tried three more times” (docs/retry.md:L2)",
                "≈ “jobs wait in Postgres until the worker takes them” (near docs/queue.md:L2, not word for word)",
            ]
        );
        let made_up = checks.check("\"the queue never loses a single job\"", &[]);
        assert_eq!(made_up[0].describe(), "✗ “the queue never loses a single job” (not in the library)");
    }
}
