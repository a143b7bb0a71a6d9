//! Full-text search over passages: words folded to lowercase, common words
//! dropped and English endings trimmed ([`terms`]), ranked by BM25 (the
//! ranking Lucene and `SQLite`'s `FTS5` use), with a passage's headings and its
//! file's name counted as its words too.

use std::collections::HashMap;

/// BM25's term-frequency saturation and length normalisation.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words too common to tell passages apart.
/// (Sorted, for a binary search.)
const STOP: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "so", "than", "that", "the", "their", "them",
    "then", "there", "these", "they", "this", "to", "was", "we", "what", "when", "where", "which", "who", "why",
    "will", "with", "would", "you", "your",
];

type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// An inverted index: for each term, the passages holding it and how often.
#[derive(Debug, Default)]
pub struct Index {
    /// Each term's number.
    ids: Map<Box<str>, u32>,
    /// By term number: (passage, times).
    postings: Vec<Vec<(u32, u32)>>,
    lengths: Vec<u32>,
    average: f32,
}

/// Builds an [`Index`] a passage at a time.
#[derive(Default)]
pub struct Builder {
    index: Index,
    /// The passage being added: term number → times.
    counts: Map<u32, u32>,
    length: u32,
}

impl Builder {
    /// Counts `text`'s terms in the passage being added.
    pub fn add_text(&mut self, text: &str) {
        let Builder { index, counts, length } = self;
        for_each_term(text, |term| {
            let id = index.term_id(term);
            *counts.entry(id).or_default() += 1;
            *length += 1;
        });
    }

    /// Ends the passage being added: it takes the next number.
    pub fn end_passage(&mut self) {
        let passage = self.index.lengths.len() as u32;
        for (&id, &times) in &self.counts {
            self.index.postings[id as usize].push((passage, times));
        }
        self.counts.clear();
        self.index.lengths.push(std::mem::take(&mut self.length));
    }

    pub fn finish(mut self) -> Index {
        let total: u64 = self.index.lengths.iter().map(|&l| u64::from(l)).sum();
        let n = self.index.lengths.len();
        self.index.average = if n == 0 { 0.0 } else { total as f32 / n as f32 };
        self.index
    }
}

impl Index {
    /// Indexes passages given as their texts, in order (a passage's number
    /// is its position).
    pub fn build<'a>(passages: impl IntoIterator<Item = &'a str>) -> Index {
        let mut builder = Builder::default();
        for text in passages {
            builder.add_text(text);
            builder.end_passage();
        }
        builder.finish()
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// `term`'s number, given it when it is new.
    fn term_id(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = self.postings.len() as u32;
        self.ids.insert(term.into(), id);
        self.postings.push(Vec::new());
        id
    }

    /// This index and `later`'s, `later`'s passages numbered after this one's.
    #[must_use]
    pub fn merge(mut self, later: Index) -> Index {
        let offset = self.lengths.len() as u32;
        let mut by_id: Vec<(Box<str>, u32)> = later.ids.into_iter().collect();
        by_id.sort_by_key(|(_, id)| *id);
        for ((term, _), list) in by_id.into_iter().zip(later.postings) {
            let id = self.term_id(&term);
            self.postings[id as usize].extend(list.into_iter().map(|(p, times)| (p + offset, times)));
        }
        self.lengths.extend(later.lengths);
        let total: u64 = self.lengths.iter().map(|&l| u64::from(l)).sum();
        self.average = if self.lengths.is_empty() { 0.0 } else { total as f32 / self.lengths.len() as f32 };
        self
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Passages scored against `query`'s terms, best first (ties: the
    /// earlier passage), those sharing no term left out. A term the query
    /// repeats weighs more, by the log of its count.
    pub fn search(&self, query: &[String]) -> Vec<(u32, f32)> {
        let mut asked: Map<&str, u32> = Map::default();
        for term in query {
            *asked.entry(term.as_str()).or_default() += 1;
        }
        let n = self.lengths.len() as f32;
        let mut scores: Map<u32, f32> = Map::default();
        for (term, times) in asked {
            let Some(&id) = self.ids.get(term) else { continue };
            let list = &self.postings[id as usize];
            let df = list.len() as f32;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            let weight = 1.0 + (times as f32).ln();
            for &(passage, tf) in list {
                let tf = tf as f32;
                let length = self.lengths[passage as usize] as f32 / self.average.max(1.0);
                let part = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length));
                *scores.entry(passage).or_default() += weight * idf * part;
            }
        }
        let mut ranked: Vec<(u32, f32)> = scores.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }
}

/// The terms of `text`: runs of letters and digits (split at `_` and at a
/// lower-to-upper change, so `turnSeconds` and `turn_seconds` are two
/// words), lowercased, common words and single letters dropped, endings
/// trimmed.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |term| out.push(term.to_string()));
    out
}

/// Calls `f` with each of `text`'s terms (see [`terms`]), in order, without
/// allocating for each.
pub fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let mut last_lower = false;
    let mut push = |word: &mut String| {
        if word.len() > 1 && STOP.binary_search(&word.as_str()).is_err() {
            let kept = stem(word);
            word.truncate(kept.0);
            if let Some(y) = kept.1 {
                word.push(y);
            }
            f(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && last_lower {
                push(&mut word);
            }
            last_lower = c.is_lowercase();
            if c.is_ascii() {
                word.push(c.to_ascii_lowercase());
            } else {
                word.extend(c.to_lowercase());
            }
        } else if matches!(c, '\'' | '\u{2019}') && !word.is_empty() {
            // "don't" is one word.
        } else {
            last_lower = false;
            push(&mut word);
        }
    }
    push(&mut word);
}

/// A light English stemmer: plurals and the commonest verb endings, so
/// "retries", "retried" and "retry" meet, and "streaming" finds "stream".
/// Says how many bytes of `word` to keep, and a letter to add.
fn stem(word: &str) -> (usize, Option<char>) {
    let w = word;
    let n = w.len();
    let keep = (n, None);
    if n <= 3 || !w.is_ascii() {
        return keep;
    }
    if (w.ends_with("ies") || w.ends_with("ied")) && n >= 5 {
        return (n - 3, Some('y'));
    }
    for suffix in ["ing", "ed"] {
        if w.ends_with(suffix) && n - suffix.len() >= 3 {
            return (undouble(&w[..n - suffix.len()]), None);
        }
    }
    if let Some(base) =
        w.strip_suffix("es").filter(|b| b.ends_with(['s', 'x', 'z']) || b.ends_with("ch") || b.ends_with("sh"))
    {
        return (base.len(), None);
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return (n - 1, None);
    }
    keep
}

/// How much of `base` to keep: "stopp" → "stop", "runn" → "run"; "fall" stays.
fn undouble(base: &str) -> usize {
    let b = base.as_bytes();
    let n = b.len();
    if n >= 2 && b[n - 1] == b[n - 2] && !matches!(b[n - 1], b'l' | b's' | b'z') {
        return n - 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_fold_case_split_identifiers_drop_common_words_and_trim_endings() {
        assert_eq!(terms("The retries of turnSeconds"), ["retry", "turn", "second"]);
        assert_eq!(terms("turn_seconds, streaming, stopped, boxes"), ["turn", "second", "stream", "stop", "box"]);
        assert_eq!(terms("Don't retry"), ["dont", "retry"]);
        assert_eq!(terms("process status"), ["process", "status"]);
    }

    #[test]
    fn the_passage_that_holds_the_rarer_words_ranks_first() {
        let index = Index::build(["the queue runs on redis", "postgres gives transactions", "redis redis cache"]);
        let ranked = index.search(&terms("which queue uses redis"));
        assert_eq!(ranked.iter().map(|(id, _)| *id).collect::<Vec<_>>(), [0, 2]);
        assert!(index.search(&terms("nothing matches")).is_empty());
        let halves = Index::build(["the queue runs on redis"])
            .merge(Index::build(["postgres gives transactions", "redis redis cache"]));
        assert_eq!(halves.search(&terms("which queue uses redis")), ranked, "built in halves, ranked the same");
    }

    #[test]
    fn the_common_words_are_sorted_for_their_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]));
    }
}
