//! Where in a format file an error is: the file (a user's path, or the
//! built-in format's name) and the line a span starts on, said as one
//! sentence's start.

use std::ops::Range;

use super::briefs::Origin;

/// Which file an error is in, to name it and find its lines.
pub(super) struct Place<'a> {
    pub(super) name: &'a str,
    pub(super) text: &'a str,
    pub(super) origin: &'a Origin,
}

impl Place<'_> {
    pub(super) fn error(&self, span: Option<Range<usize>>, what: &str) -> anyhow::Error {
        let file = match self.origin {
            Origin::File(path) => path.display().to_string(),
            Origin::BuiltIn => format!("the built-in format {}", self.name),
        };
        let line = span
            .filter(|s| s.end > 0)
            .map(|s| format!(" line {}", self.text[..s.start.min(self.text.len())].matches('\n').count() + 1))
            .unwrap_or_default();
        anyhow::anyhow!("{file}{line}: {what}")
    }
}
