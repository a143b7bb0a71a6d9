//! Text as the guards compare it: words, content words, chat-template
//! tokens, and the copy measure (the share of a text inside word runs it
//! shares with a source).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

/// A run of this many words or more found in a source counts as copied.
pub const COPY_RUN: usize = 6;

/// Chat-template tokens that never belong in an argument or a topic, besides
/// every `<|…|>` token.
const FIXED_TOKENS: [&str; 12] = [
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "<</SYS>>",
    "<start_of_turn>",
    "<end_of_turn>",
    "<bos>",
    "<eos>",
    "<unk>",
    "<pad>",
];

/// Tokens after which a chat template names the speaker (`<|im_start|>assistant`).
const TURN_OPENERS: [&str; 3] = ["<|im_start|>", "<start_of_turn>", "<|start_header_id|>"];

/// Speakers a chat template names.
const SPEAKERS: [&str; 4] = ["system", "user", "assistant", "model"];

/// Function words left out when asking whether two texts share a subject.
const STOP_WORDS: [&str; 64] = [
    "a", "about", "after", "all", "an", "and", "any", "are", "as", "at", "be", "been", "being", "but", "by", "can",
    "could", "did", "do", "does", "for", "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its",
    "more", "most", "no", "not", "of", "on", "or", "our", "over", "should", "so", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "what", "when", "which", "who", "why",
    "will", "with",
];

/// The lowercase alphanumeric words of a text; everything else separates.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// How many whitespace-separated words of `text` hold a letter.
pub fn letter_words(text: &str) -> usize {
    text.split_whitespace().filter(|w| w.chars().any(char::is_alphabetic)).count()
}

/// A word reduced for comparison: a plural `s` goes (`tabs` → `tab`).
pub fn stem(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

/// The stemmed words of a text that carry its subject: no stop words, no
/// single letters, no bare numbers.
pub fn content_words(text: &str) -> HashSet<String> {
    words(text)
        .iter()
        .filter(|w| w.chars().count() > 1 && w.chars().any(char::is_alphabetic))
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| stem(w).to_string())
        .collect()
}

/// The byte ranges of chat-template tokens in `text`; with `speakers`, a
/// speaker named right after a turn opener is part of its token.
pub fn template_spans(text: &str, speakers: bool) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let Some(len) = token_at(rest) else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let mut end = at + len;
        if speakers && TURN_OPENERS.iter().any(|o| rest.starts_with(o)) {
            end += speaker_after(&text[end..]);
        }
        spans.push(at..end);
        at = end;
    }
    spans
}

/// The length of the template token `text` starts with, if it starts with one.
fn token_at(text: &str) -> Option<usize> {
    if let Some(inner) = text.strip_prefix("<|") {
        let close = inner.find("|>")?;
        let name = &inner[..close];
        let plain = !name.is_empty() && name.len() <= 40;
        return (plain && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .then_some(close + 4);
    }
    FIXED_TOKENS.iter().find(|t| text.starts_with(**t)).map(|t| t.len())
}

/// The length of a speaker's name (with the blanks before it) at the start
/// of `text`, or 0.
fn speaker_after(text: &str) -> usize {
    let trimmed = text.trim_start_matches([' ', '\t']);
    let blanks = text.len() - trimmed.len();
    SPEAKERS
        .iter()
        .find(|s| trimmed.starts_with(**s) && trimmed[s.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric()))
        .map_or(0, |s| blanks + s.len())
}

/// Whether `text` carries any template token, whole or broken (`<|`, `|>`,
/// a `### ` instruction header, `{{`).
pub fn has_template_marks(text: &str) -> bool {
    !template_spans(text, false).is_empty() || ["<|", "|>", "### ", "{{", "}}"].iter().any(|m| text.contains(m))
}

fn window_hash(window: &[String]) -> u64 {
    let mut hasher = DefaultHasher::new();
    window.hash(&mut hasher);
    hasher.finish()
}

fn windows(texts: &[&str], run: usize) -> HashSet<u64> {
    texts.iter().flat_map(|t| words(t).windows(run).map(window_hash).collect::<Vec<_>>()).collect()
}

/// The share of `text`'s words that lie inside a run of at least `run`
/// words also found in one of `sources`. Runs wholly found in an `allowed`
/// text (the proposition, say) are quotes anyone may make and do not count.
pub fn copied_share(text: &str, sources: &[&str], allowed: &[&str], run: usize) -> f64 {
    let words = words(text);
    if run == 0 || words.len() < run {
        return 0.0;
    }
    let found = windows(sources, run);
    let free = windows(allowed, run);
    let mut covered = vec![false; words.len()];
    for (i, window) in words.windows(run).enumerate() {
        let hash = window_hash(window);
        if found.contains(&hash) && !free.contains(&hash) {
            covered[i..i + run].fill(true);
        }
    }
    covered.iter().filter(|c| **c).count() as f64 / words.len() as f64
}

/// Whether more than half of `text` is copied from `sources` in runs of
/// [`COPY_RUN`] words or more.
pub fn mostly_copied(text: &str, sources: &[&str], allowed: &[&str]) -> bool {
    copied_share(text, sources, allowed, COPY_RUN) > 0.5
}

/// Whether the words of `needle` occur as one run in `haystack`.
pub fn contains_run(haystack: &str, needle: &[String]) -> bool {
    needle.is_empty() || words(haystack).windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercase_and_split_on_anything_else() {
        assert_eq!(words("Four-day weeks, engineers' <|x|>"), ["four", "day", "weeks", "engineers", "x"]);
        assert_eq!(letter_words("2019, and 1.2 or"), 2);
    }

    #[test]
    fn stems_drop_a_plural_s_only() {
        assert_eq!(stem("tabs"), "tab");
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("is"), "is");
        let shared = content_words("Tabs beat spaces");
        assert!(shared.contains("tab") && shared.contains("space") && shared.contains("beat"));
        assert!(!content_words("Is it the 2019 one?").iter().any(|w| w == "is" || w == "2019"));
    }

    #[test]
    fn template_tokens_are_found_with_their_speaker() {
        let text = "<|im_start|>assistant\nHi</s> <|eot_id|> a <| b |>";
        let spans: Vec<&str> = template_spans(text, true).into_iter().map(|r| &text[r]).collect();
        assert_eq!(spans, ["<|im_start|>assistant", "</s>", "<|eot_id|>"]);
        assert!(has_template_marks("a <| b"));
        assert!(has_template_marks("### Response: x"));
        assert!(!has_template_marks("plain words, a < b and c > d"));
    }

    #[test]
    fn copies_are_measured_in_runs_and_quotes_of_allowed_text_are_free() {
        let source = "you are the judge and you answer with one json object and nothing else";
        assert!(
            (copied_share("you answer with one json object and nothing else", &[source], &[], 6) - 1.0).abs() < 1e-9
        );
        assert!(copied_share("you answer with one json thing", &[source], &[], 6) < 1e-9);
        let proposition = "Remote work raises productivity for most software teams";
        let argument = format!("{proposition} because there are fewer interruptions");
        let quoted = format!("{proposition} in startups");
        assert!(copied_share(&quoted, &[&argument], &[proposition], 6) < 1e-9, "the proposition is free to quote");
        assert!(mostly_copied(&argument, &[&argument], &[proposition]), "its own new words are still copied");
    }
}
