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
        self.index.average = average(&self.index.lengths);
        self.index
    }
}

/// A run of passages' share of an index, with its terms numbered by the
/// whole index: what a kept library holds for each file.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    /// Each passage's length in terms.
    pub lengths: Vec<u32>,
    /// For each term it holds (by number): its passages (numbered from 0
    /// within the part) and how often.
    pub postings: Vec<(u32, Vec<(u32, u32)>)>,
}

/// The mean passage length.
fn average(lengths: &[u32]) -> f32 {
    let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
    if lengths.is_empty() { 0.0 } else { total as f32 / lengths.len() as f32 }
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
        self.grow(&later.lengths);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// An empty index that already numbers `terms`, in order: a kept
    /// file's parts ([`Index::append`]) name their terms by these numbers.
    pub fn with_terms(terms: impl IntoIterator<Item = String>) -> Index {
        let mut index = Index::default();
        for term in terms {
            index.term_id(&term);
        }
        index
    }

    /// Every term, by its number.
    pub fn terms(&self) -> Vec<&str> {
        let mut terms = vec![""; self.postings.len()];
        for (term, &id) in &self.ids {
            terms[id as usize] = term;
        }
        terms
    }

    /// Appends one part's passages, numbered after this index's: their
    /// lengths, and for each term (by this index's number) the passages
    /// (numbered within the part) holding it and how often.
    pub fn append(&mut self, part: &Part) {
        let offset = self.lengths.len() as u32;
        for (term, list) in &part.postings {
            if let Some(postings) = self.postings.get_mut(*term as usize) {
                postings.extend(list.iter().map(|&(p, times)| (p + offset, times)));
            }
        }
        self.grow(&part.lengths);
    }

    /// Adds passages' lengths, the mean kept without summing them all again.
    fn grow(&mut self, lengths: &[u32]) {
        let before = self.lengths.len() as f64;
        let added: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        self.lengths.extend(lengths);
        let after = self.lengths.len() as f64;
        self.average =
            if after == 0.0 { 0.0 } else { ((f64::from(self.average) * before + added as f64) / after) as f32 };
    }

    /// This index cut into parts at `ends` (each part's passages end where
    /// the next begins; the last at [`Index::len`]), in order: what
    /// [`Index::append`] puts back together.
    pub fn split(&self, ends: &[usize]) -> Vec<Part> {
        let mut owner = Vec::with_capacity(self.lengths.len());
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            owner.extend(std::iter::repeat_n(i as u32, end.saturating_sub(start)));
            start = start.max(end);
        }
        let starts: Vec<usize> = std::iter::once(0).chain(ends.iter().copied()).collect();
        let mut parts: Vec<Part> = ends
            .iter()
            .enumerate()
            .map(|(i, &end)| Part { lengths: self.lengths[starts[i]..end].to_vec(), postings: Vec::new() })
            .collect();
        for (term, list) in self.postings.iter().enumerate() {
            for &(p, times) in list {
                let Some(&part) = owner.get(p as usize) else { continue };
                let part_postings = &mut parts[part as usize].postings;
                let local = p - starts[part as usize] as u32;
                match part_postings.last_mut() {
                    Some((t, held)) if *t == term as u32 => held.push((local, times)),
                    _ => part_postings.push((term as u32, vec![(local, times)])),
                }
            }
        }
        parts
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
    fn an_index_split_into_parts_and_appended_again_ranks_the_same() {
        let texts = ["the queue runs on redis", "postgres gives transactions", "redis redis cache", "queue cache"];
        let whole = Index::build(texts);
        let parts = whole.split(&[1, 3, 4]);
        assert_eq!(parts.iter().map(|p| p.lengths.len()).collect::<Vec<_>>(), [1, 2, 1]);
        let mut again = Index::with_terms(whole.terms().into_iter().map(String::from));
        for part in &parts {
            again.append(part);
        }
        for query in ["which queue uses redis", "cache transactions"] {
            assert_eq!(again.search(&terms(query)), whole.search(&terms(query)), "{query}");
        }
        let fresh = again.merge(Index::build(["postgres queue"]));
        assert_eq!(fresh.search(&terms("postgres"))[0].0, 4, "a part built afresh is numbered after them");
    }

    #[test]
    fn the_common_words_are_sorted_for_their_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]));
    }
}
