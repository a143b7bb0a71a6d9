//! Full-text search over passages: words folded to lowercase, common words
//! dropped and English endings trimmed ([`terms`]), ranked by BM25 (the
//! ranking Lucene and `SQLite`'s `FTS5` use), with a passage's headings and its
//! file's name counted as its words too.

use std::collections::HashMap;

/// BM25's term-frequency saturation and length normalisation.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Words too common to tell passages apart.
const STOP: &[&str] = &[
    "a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "so", "than", "that", "the", "their", "them",
    "then", "there", "these", "they", "this", "to", "was", "we", "what", "when", "where", "which", "who", "why",
    "will", "with", "would", "you", "your",
];

/// An inverted index: for each term, the passages holding it and how often.
#[derive(Debug, Default)]
pub struct Index {
    postings: HashMap<String, Vec<(u32, u32)>>,
    lengths: Vec<u32>,
    average: f32,
}

impl Index {
    /// Indexes passages given as their terms, in order (a passage's number
    /// is its position).
    pub fn build(passages: impl IntoIterator<Item = Vec<String>>) -> Index {
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut lengths = Vec::new();
        for (id, words) in passages.into_iter().enumerate() {
            lengths.push(words.len() as u32);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for word in words {
                *counts.entry(word).or_default() += 1;
            }
            for (word, count) in counts {
                postings.entry(word).or_default().push((id as u32, count));
            }
        }
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let average = if lengths.is_empty() { 0.0 } else { total as f32 / lengths.len() as f32 };
        Index { postings, lengths, average }
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Passages scored against `query`'s terms, best first (ties: the
    /// earlier passage), those sharing no term left out. A term the query
    /// repeats weighs more, by the log of its count.
    pub fn search(&self, query: &[String]) -> Vec<(u32, f32)> {
        let mut asked: HashMap<&str, u32> = HashMap::new();
        for term in query {
            *asked.entry(term.as_str()).or_default() += 1;
        }
        let n = self.lengths.len() as f32;
        let mut scores: HashMap<u32, f32> = HashMap::new();
        for (term, times) in asked {
            let Some(list) = self.postings.get(term) else { continue };
            let df = list.len() as f32;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            let weight = 1.0 + (times as f32).ln();
            for &(id, tf) in list {
                let tf = tf as f32;
                let length = self.lengths[id as usize] as f32 / self.average.max(1.0);
                let part = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length));
                *scores.entry(id).or_default() += weight * idf * part;
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
    let mut word = String::new();
    let mut last_lower = false;
    let mut push = |word: &mut String| {
        if word.chars().count() > 1 && !STOP.contains(&word.as_str()) {
            out.push(stem(word));
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && last_lower {
                push(&mut word);
            }
            last_lower = c.is_lowercase();
            word.extend(c.to_lowercase());
        } else if matches!(c, '\'' | '\u{2019}') && !word.is_empty() {
            // "don't" is one word.
        } else {
            last_lower = false;
            push(&mut word);
        }
    }
    push(&mut word);
    out
}

/// A light English stemmer: plurals and the commonest verb endings, so
/// "retries", "retried" and "retry" meet, and "streaming" finds "stream".
fn stem(word: &str) -> String {
    let w = word;
    let n = w.len();
    if n <= 3 || !w.is_ascii() {
        return w.to_string();
    }
    if let Some(base) = w.strip_suffix("ies").filter(|b| b.len() >= 2) {
        return format!("{base}y");
    }
    if let Some(base) = w.strip_suffix("ied").filter(|b| b.len() >= 2) {
        return format!("{base}y");
    }
    for suffix in ["ing", "ed"] {
        if let Some(base) = w.strip_suffix(suffix).filter(|b| b.len() >= 3) {
            return undouble(base);
        }
    }
    if let Some(base) =
        w.strip_suffix("es").filter(|b| b.ends_with(['s', 'x', 'z']) || b.ends_with("ch") || b.ends_with("sh"))
    {
        return base.to_string();
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return w[..n - 1].to_string();
    }
    w.to_string()
}

/// "stopp" → "stop", "runn" → "run"; "fall" stays.
fn undouble(base: &str) -> String {
    let b = base.as_bytes();
    let n = b.len();
    if n >= 2 && b[n - 1] == b[n - 2] && !matches!(b[n - 1], b'l' | b's' | b'z') {
        return base[..n - 1].to_string();
    }
    base.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_fold_case_split_identifiers_drop_common_words_and_trim_endings() {
        assert_eq!(terms("The retries of turnSeconds"), ["retry", "turn", "second"]);
        assert_eq!(terms("turn_seconds, streaming, stopped, boxes"), ["turn", "second", "stream", "stop", "box"]);
        assert_eq!(terms("Don't retry"), ["dont", "retry"]);
        assert_eq!(stem("process"), "process");
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn the_passage_that_holds_the_rarer_words_ranks_first() {
        let index = Index::build([
            terms("the queue runs on redis"),
            terms("postgres gives transactions"),
            terms("redis redis cache"),
        ]);
        let ranked = index.search(&terms("which queue uses redis"));
        assert_eq!(ranked.iter().map(|(id, _)| *id).collect::<Vec<_>>(), [0, 2]);
        assert!(index.search(&terms("nothing matches")).is_empty());
    }
}
