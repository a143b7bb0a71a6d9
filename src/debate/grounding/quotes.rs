//! Checking what a debater cites against the source: line citations
//! (`[L12–L18]`) must name lines that exist, and quoted passages must be
//! found in the source's words.
//!
//! The rules:
//! - a **citation** is `[L12]` or `[L12–L18]` (an en dash, a hyphen or an em
//!   dash; the second `L` may be left out); it is verified when its lines
//!   exist, and unverified otherwise;
//! - a **quote** is a passage of at least [`MIN_QUOTE_WORDS`] words between
//!   double quotes (straight or curly); shorter ones are phrases, not quotes.
//!   Both sides are normalised (case, punctuation and whitespace dropped, so
//!   smart quotes and a passage split across lines match); a quote is
//!   verified only when the normalised passage occurs in the normalised
//!   source word for word. A quote not in the source that is found word for
//!   word in an earlier turn of the debate quotes that turn (marked as such,
//!   neither verified nor not: it is not a claim about the source).
//!   Otherwise it is near when at least half of its runs of three words
//!   occur in the source, and unverified when not.
//!
//! The source is indexed once ([`SourceIndex::new`]); a check costs a search
//! of the normalised text per quote.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

/// Fewest words a quoted passage needs to be checked as a quote.
pub const MIN_QUOTE_WORDS: usize = 4;
/// Share of a quote's three-word runs found in the source for a near match.
const NEAR_SHARE: f64 = 0.5;

/// What a debater cited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Cited {
    Lines {
        start: usize,
        end: usize,
    },
    /// Lines of a library's file: `[docs/studio.md:L12–L18]`.
    Passage {
        file: String,
        start: usize,
        end: usize,
    },
    Quote {
        text: String,
    },
}

/// How a citation held up against the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Verified,
    /// A quote not found word for word, though much of it is there.
    Near,
    Unverified,
    /// Not the source's words but an earlier turn's, quoted.
    PriorTurn,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Verified => "✓",
            Mark::Near => "≈",
            Mark::Unverified => "✗",
            Mark::PriorTurn => "↩",
        }
    }
}

/// One citation or quote of a turn, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteCheck {
    pub cited: Cited,
    pub mark: Mark,
    /// The source lines it was found on (a quote's match, or the lines cited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<(usize, usize)>,
    /// Whose earlier turn a quote came from ("the skeptic, round 1").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The library's file a quote was found in (`lines` are its lines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Checked against a library, not one source.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub library: bool,
}

impl QuoteCheck {
    /// `✓ [L12–L18]`, `≈ “the queue is slow” (near L14)`, `✗ “…” (not in the source)`.
    pub fn describe(&self) -> String {
        let what = match &self.cited {
            Cited::Lines { start, end } => lines_label(*start, *end),
            Cited::Passage { file, start, end } => {
                format!("[{file}:{}]", lines_label(*start, *end).trim_matches(['[', ']']))
            }
            Cited::Quote { text } => format!("\u{201c}{}\u{201d}", shorten(text, 60)),
        };
        let at = self.lines.map(|(a, b)| {
            let lines = lines_label(a, b).trim_matches(['[', ']']).to_string();
            self.file.as_ref().map_or(lines.clone(), |file| format!("{file}:{lines}"))
        });
        let nowhere = if self.library { "the library" } else { "the source" };
        let note = match (&self.cited, self.mark, at) {
            (Cited::Quote { .. }, Mark::Verified, Some(at)) => format!(" ({at})"),
            (Cited::Quote { .. }, Mark::Near, Some(at)) => format!(" (near {at}, not word for word)"),
            (Cited::Quote { .. }, Mark::Unverified, _) => format!(" (not in {nowhere})"),
            (Cited::Passage { .. }, Mark::Unverified, _) => " (no such file or lines in the library)".into(),
            (Cited::Quote { .. }, Mark::PriorTurn, _) => {
                format!(" (quotes {}, not the source)", self.from.as_deref().unwrap_or("an earlier turn"))
            }
            (Cited::Lines { .. }, Mark::Unverified, _) if self.library => " (names no file of the library)".into(),
            (Cited::Lines { .. }, Mark::Unverified, _) => " (no such lines)".into(),
            _ => String::new(),
        };
        format!("{} {what}{note}", self.mark.symbol())
    }
}

/// A turn's checks on one line: `✓ [L2] · ✗ “…” (not in the source)`.
pub fn describe_all(checks: &[QuoteCheck]) -> String {
    checks.iter().map(QuoteCheck::describe).collect::<Vec<_>>().join(" · ")
}

/// Per-seat totals of checks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub verified: usize,
    pub near: usize,
    pub unverified: usize,
}

impl Tally {
    pub fn add(&mut self, checks: &[QuoteCheck]) {
        for check in checks {
            match check.mark {
                Mark::Verified => self.verified += 1,
                Mark::Near => self.near += 1,
                Mark::Unverified => self.unverified += 1,
                Mark::PriorTurn => {}
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.verified + self.near + self.unverified == 0
    }

    /// `✓3 ≈1 ✗2`
    pub fn describe(&self) -> String {
        format!("✓{} ≈{} ✗{}", self.verified, self.near, self.unverified)
    }
}

fn lines_label(start: usize, end: usize) -> String {
    if start == end { format!("[L{start}]") } else { format!("[L{start}–L{end}]") }
}

fn shorten(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let cut: String = text.chars().take(most - 1).collect();
    format!("{}…", cut.trim_end())
}

/// The source, normalised once for checking.
pub struct SourceIndex {
    /// Normalised words joined by single spaces, with a space at each end.
    normal: String,
    /// Where each source line starts in `normal`.
    line_starts: Vec<usize>,
    trigrams: HashSet<u64>,
    line_count: usize,
    /// The number of the text's first line (a section's starts further down).
    first_line: usize,
}

impl SourceIndex {
    pub fn new(text: &str) -> Self {
        let mut normal = String::with_capacity(text.len() + 2);
        normal.push(' ');
        let mut line_starts = Vec::new();
        let mut words: Vec<String> = Vec::new();
        for line in text.lines() {
            line_starts.push(normal.len());
            for word in normal_words(line) {
                normal.push_str(&word);
                normal.push(' ');
                words.push(word);
            }
        }
        let trigrams = words.windows(3).map(|w| trigram(&w[0], &w[1], &w[2])).collect();
        SourceIndex { normal, line_starts, trigrams, line_count: text.lines().count(), first_line: 1 }
    }

    /// The index of a source, numbered as its file is (a section keeps its
    /// lines' numbers).
    pub fn for_source(source: &super::Source) -> Self {
        SourceIndex { first_line: source.first_line, ..Self::new(&source.text) }
    }

    /// Every citation and quote in `argument`, checked, in order of
    /// appearance. `earlier` holds the debate's earlier turns in the order
    /// they were said, each with who said it ("the skeptic, round 1"; empty
    /// for the seat's own), so a quote of another seat's turn is told apart
    /// from a quote the source does not hold. A quote is credited to the
    /// first turn that has it: when that is the seat's own, its mark stands
    /// (quoting its own invention back does not make it the other side's).
    pub fn check(&self, argument: &str, earlier: &[(String, &str)]) -> Vec<QuoteCheck> {
        check_argument(&mut &*self, argument, earlier)
    }

    pub(super) fn check_quote(&self, text: &str) -> QuoteCheck {
        // A passage copied from the numbered view keeps its `L12:` marks: not the source's words.
        let words: Vec<String> = normal_words(text).into_iter().filter(|w| !is_line_mark(w)).collect();
        let cited = Cited::Quote { text: text.split_whitespace().collect::<Vec<_>>().join(" ") };
        let needle = padded(&words);
        if let Some(at) = memchr::memmem::find(self.normal.as_bytes(), needle.as_bytes()) {
            let lines = (self.line_at(at + 1), self.line_at(at + needle.len() - 1));
            return QuoteCheck {
                cited,
                mark: Mark::Verified,
                lines: Some(lines),
                from: None,
                file: None,
                library: false,
            };
        }
        let runs: Vec<u64> = words.windows(3).map(|w| trigram(&w[0], &w[1], &w[2])).collect();
        let present = runs.iter().filter(|t| self.trigrams.contains(t)).count();
        let near = !runs.is_empty() && present as f64 / runs.len() as f64 >= NEAR_SHARE;
        if near {
            let lines = self.first_run_line(&words).map(|l| (l, l));
            return QuoteCheck { cited, mark: Mark::Near, lines, from: None, file: None, library: false };
        }
        QuoteCheck { cited, mark: Mark::Unverified, lines: None, from: None, file: None, library: false }
    }

    /// The line of the first three-word run of `words` found in the source.
    fn first_run_line(&self, words: &[String]) -> Option<usize> {
        words.windows(3).find_map(|w| {
            let needle = padded(w);
            memchr::memmem::find(self.normal.as_bytes(), needle.as_bytes()).map(|at| self.line_at(at + 1))
        })
    }

    /// The 1-based source line holding byte `at` of `normal`.
    fn line_at(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= at).max(1) + self.first_line - 1
    }
}

/// What an argument's citations and quotes are checked against: one
/// source ([`SourceIndex`]) or a library (`library_checks`).
pub(super) trait Checker {
    /// A line citation, `file` named or not; `None` when this kind of
    /// citation is not checked here (a file named in a one-source debate).
    fn lines(&mut self, file: Option<&str>, start: usize, end: usize) -> Option<QuoteCheck>;
    /// A quoted passage.
    fn quote(&mut self, text: &str) -> QuoteCheck;
}

impl Checker for &SourceIndex {
    fn lines(&mut self, file: Option<&str>, start: usize, end: usize) -> Option<QuoteCheck> {
        if file.is_some() {
            return None;
        }
        let exists = start >= self.first_line && start <= end && end < self.first_line + self.line_count;
        let mark = if exists { Mark::Verified } else { Mark::Unverified };
        let lines = exists.then_some((start, end));
        Some(QuoteCheck { cited: Cited::Lines { start, end }, mark, lines, from: None, file: None, library: false })
    }

    fn quote(&mut self, text: &str) -> QuoteCheck {
        self.check_quote(text)
    }
}

/// Every citation and quote in `argument`, checked by `checker`, in order
/// of appearance; a quote not found that an earlier turn holds is credited
/// to that turn (see [`SourceIndex::check`]).
pub(super) fn check_argument(
    checker: &mut impl Checker,
    argument: &str,
    earlier: &[(String, &str)],
) -> Vec<QuoteCheck> {
    let mut found: Vec<(usize, QuoteCheck)> = citations(argument)
        .into_iter()
        .filter_map(|(at, file, start, end)| checker.lines(file, start, end).map(|check| (at, check)))
        .collect();
    // The earlier turns normalised once, and only when a quote needs them.
    let mut earlier_normal: Option<Vec<(&String, String)>> = None;
    for (at, text) in quotes(argument) {
        let mut check = checker.quote(text);
        if check.mark != Mark::Verified {
            let needle = padded(&normal_words(text));
            let turns = earlier_normal
                .get_or_insert_with(|| earlier.iter().map(|(who, turn)| (who, padded(&normal_words(turn)))).collect());
            let first = turns.iter().find(|(_, turn)| turn.contains(&needle));
            if let Some((who, _)) = first.filter(|(who, _)| !who.is_empty()) {
                check =
                    QuoteCheck { mark: Mark::PriorTurn, lines: None, from: Some((*who).clone()), file: None, ..check };
            }
        }
        found.push((at, check));
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, check)| check).collect()
}

/// Normalised words as `normal` holds them: one space between and one at
/// each end, so a search matches whole words only.
pub(super) fn padded(words: &[String]) -> String {
    format!(" {} ", words.join(" "))
}

/// `l12`: a line number as the numbered view shows it, normalised.
fn is_line_mark(word: &str) -> bool {
    word.len() > 1 && word.starts_with('l') && word[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Lowercased runs of letters and digits (apostrophes inside a word are
/// dropped, so "don't" and "dont" match).
pub(super) fn normal_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if matches!(c, '\'' | '\u{2019}') && !word.is_empty() {
            // Part of the word: skip it.
        } else if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn trigram(a: &str, b: &str, c: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    (a, b, c).hash(&mut hasher);
    hasher.finish()
}

/// `(byte offset, file, start, end)` of each `[L12]` / `[L12–L18]` in
/// `text`, and of each `[docs/a.md:L12–L18]` (a library's file, named).
pub(super) fn citations(text: &str) -> Vec<(usize, Option<&str>, usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices('[') {
        let inside = &text[at + 1..];
        let Some(close) = inside.find(']').filter(|&c| c <= 300) else { continue };
        let inside = &inside[..close];
        let (file, range) = match inside.rsplit_once(":L") {
            Some((file, range)) if !file.is_empty() && !file.contains(char::is_whitespace) => (Some(file), range),
            _ => match inside.strip_prefix('L') {
                Some(range) => (None, range),
                None => continue,
            },
        };
        let Some((start, rest)) = number(range) else { continue };
        let (end, rest) = match rest.strip_prefix(['–', '-', '—']) {
            Some(after) => match number(after.strip_prefix('L').unwrap_or(after)) {
                Some((end, rest)) => (end, rest),
                None => continue,
            },
            None => (start, rest),
        };
        if rest.is_empty() {
            out.push((at, file, start, end));
        }
    }
    out
}

pub(super) fn number(text: &str) -> Option<(usize, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let n = text[..digits].parse().ok()?;
    Some((n, &text[digits..]))
}

/// `(byte offset, passage)` of each double-quoted passage of at least
/// [`MIN_QUOTE_WORDS`] words.
pub(super) fn quotes(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (at, c) in text.char_indices() {
        match (open, c) {
            // A curly opener met again starts over from it.
            (None, '"' | '\u{201c}') | (Some(_), '\u{201c}') => open = Some((at + c.len_utf8(), c)),
            (Some((start, opener)), '"' | '\u{201d}') if opener == '"' || c == '\u{201d}' => {
                let passage = &text[start..at];
                if normal_words(passage).len() >= MIN_QUOTE_WORDS {
                    out.push((start, passage.trim()));
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "# Move the job queue to Postgres\n\
        The current queue runs on Redis and loses jobs\n\
        when a node restarts during a deploy.\n\
        Postgres gives us transactions, so a job is enqueued\n\
        in the same commit as the row that caused it.\n\
        Throughput stays above 2,000 jobs per second in our tests.\n";

    fn checks(argument: &str) -> Vec<QuoteCheck> {
        SourceIndex::new(SOURCE).check(argument, &[])
    }

    fn marks(argument: &str) -> Vec<Mark> {
        checks(argument).into_iter().map(|c| c.mark).collect()
    }

    #[test]
    fn an_exact_quote_is_verified_with_its_line() {
        let found = checks("The doc says \"a job is enqueued in the same commit\" and that settles it.");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].mark, Mark::Verified);
        assert_eq!(found[0].lines, Some((4, 5)), "the passage runs from line 4 into line 5");
    }

    #[test]
    fn case_whitespace_punctuation_and_smart_quotes_do_not_matter() {
        assert_eq!(marks("“THROUGHPUT stays above 2,000   jobs”"), [Mark::Verified]);
        assert_eq!(marks("\"loses jobs when a node restarts\""), [Mark::Verified], "split across lines");
        assert_eq!(marks("“the queue runs on Redis”"), [Mark::Near], "\"the queue\" is not the source's words");
        assert_eq!(marks("“current queue runs on Redis”"), [Mark::Verified]);
    }

    #[test]
    fn a_near_miss_is_near_and_a_fabrication_is_unverified() {
        let near = checks("\"Postgres gives us transactions, so every job is enqueued\"");
        assert_eq!(near[0].mark, Mark::Near);
        assert_eq!(near[0].lines, Some((4, 4)));
        assert_eq!(marks("\"Redis is faster and never loses anything\""), [Mark::Unverified]);
    }

    #[test]
    fn a_quote_of_an_earlier_turn_is_marked_as_such_not_as_missing() {
        let earlier = [("the skeptic, round 1".to_string(), "The proposal has too many assumptions, all of them.")];
        let found =
            SourceIndex::new(SOURCE).check("They said \"the proposal has too many assumptions\" [L2].", &earlier);
        assert_eq!(found[0].mark, Mark::PriorTurn);
        assert_eq!(
            found[0].describe(),
            "↩ “the proposal has too many assumptions” (quotes the skeptic, round 1, not the source)"
        );
        let mut tally = Tally::default();
        tally.add(&found);
        assert_eq!(tally.describe(), "✓1 ≈0 ✗0", "a quoted turn is not counted for or against");
        let source_first = SourceIndex::new(SOURCE)
            .check("\"current queue runs on Redis\"", &[("x".into(), "the current queue runs on Redis")]);
        assert_eq!(source_first[0].mark, Mark::Verified, "the source wins when both hold it");
    }

    #[test]
    fn a_passage_copied_with_its_line_marks_is_still_verified() {
        assert_eq!(marks("\"L2: The current queue runs on Redis\""), [Mark::Verified]);
        assert_eq!(marks("\"loses jobs L3: when a node restarts\""), [Mark::Verified]);
    }

    #[test]
    fn short_quotes_are_phrases_and_are_not_checked() {
        assert!(checks("a \"safe\" choice, a \"very safe choice\"").is_empty());
    }

    #[test]
    fn line_citations_must_exist() {
        let found = checks("See [L2–L3] and [L4-5], [L6], but [L9–L12] and [L0] are wrong.");
        let got: Vec<_> = found.iter().map(|c| (c.cited.clone(), c.mark)).collect();
        assert_eq!(
            got,
            [
                (Cited::Lines { start: 2, end: 3 }, Mark::Verified),
                (Cited::Lines { start: 4, end: 5 }, Mark::Verified),
                (Cited::Lines { start: 6, end: 6 }, Mark::Verified),
                (Cited::Lines { start: 9, end: 12 }, Mark::Unverified),
                (Cited::Lines { start: 0, end: 0 }, Mark::Unverified),
            ]
        );
    }

    #[test]
    fn checks_come_in_the_order_they_were_made() {
        let found = checks("\"current queue runs on Redis\" [L2] then \"made up words for a test\"");
        assert_eq!(
            found.iter().map(|c| c.mark).collect::<Vec<_>>(),
            [Mark::Verified, Mark::Verified, Mark::Unverified]
        );
        assert!(matches!(found[1].cited, Cited::Lines { .. }));
    }

    #[test]
    fn descriptions_say_what_was_found() {
        let found = checks("\"current queue runs on Redis\" [L9] \"made up words for a test\"");
        let said: Vec<_> = found.iter().map(QuoteCheck::describe).collect();
        assert_eq!(
            said,
            [
                "✓ “current queue runs on Redis” (L2)",
                "✗ [L9] (no such lines)",
                "✗ “made up words for a test” (not in the source)"
            ]
        );
        let mut tally = Tally::default();
        tally.add(&found);
        assert_eq!(tally.describe(), "✓1 ≈0 ✗2");
    }
}
