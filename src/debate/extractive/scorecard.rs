//! The embedded judge's scorecard, counted by rule: a judge that only
//! chooses cannot score, so heat measures each side's turn on the
//! criteria its rules know ([`KNOWN`]), each a share turned into 1–10 by
//! [`scale`], each rule a watcher can follow with a pencil:
//!
//! - [`evidence`]: the share of sentences that carry a particular someone
//!   could check (a number or year, a quotation, a cited source, a name of
//!   two capitalised words); full marks at one sentence in two.
//! - [`rebuttal`]: the share of the other side's words from the round
//!   before (past the proposition's) that this turn takes up in sentences
//!   that set something against them ("not", "but", "however"…); full
//!   marks at three in ten. The sides argue a round side by side, neither
//!   seeing the other's turn, so the opening round has nothing to answer
//!   and is not scored on it.
//! - [`clarity`]: how near its sentences are to 12–22 words, less the share
//!   of sentences said twice and of words said more than three times.
//! - [`logic`]: the share of sentences that give a reason ("because",
//!   "therefore", "so", "if", "since", "which means"…); full marks at one
//!   sentence in two.
//!
//! A turn is read past the opening heat gave it and without its list
//! marks (a list's "1." is no figure). A sentence that says an earlier one
//! of the turn again counts for no particular and no reason. A criterion the rules do not know (a format's
//! own) is left off the card.

use std::collections::HashMap;

use crate::debate::format::MapSpec;
use crate::debate::guard::text::content_words;
use crate::debate::seat::Role;
use crate::debate::state::DebateState;
use crate::debate::verdict::Scorecard;
use crate::debate::verdict::scorecard::{HIGH, LOW};

use super::claim::{near_duplicate, plain_words};
use super::prose::{argued, sentences_and_tail, unlisted};

/// The criteria the rules know.
pub const KNOWN: [&str; 4] = ["logic", "evidence", "rebuttal", "clarity"];

/// The shares that earn full marks.
const EVIDENCE_FULL: f32 = 0.5;
const REBUTTAL_FULL: f32 = 0.3;
const LOGIC_FULL: f32 = 0.5;
/// A sentence of this many words reads best.
const CLEAR_WORDS: std::ops::RangeInclusive<usize> = 12..=22;
/// A content word's uses past this many count as repeats.
const WORD_USES: usize = 3;

/// Words that cite where a particular comes from.
const SOURCES: [&str; 8] =
    ["according to", "et al", "published", "reported by", "data from", "figures from", "a study by", "a survey by"];
/// Words that set something against what the other side said.
const ANSWERING: [&str; 16] = [
    "not", "no", "never", "nor", "but", "however", "although", "though", "yet", "instead", "rather", "wrong", "false",
    "fails", "ignores", "unless",
];
/// Words that give a reason; "so" counts unless "so much", "so many"…
const REASONS: [&str; 8] = ["because", "therefore", "so", "since", "thus", "hence", "consequently", "if"];
const REASON_PHRASES: [&str; 7] =
    ["which means", "this means", "that means", "as a result", "leads to", "given that", "due to"];
const NOT_A_REASON_AFTER_SO: [&str; 5] = ["much", "many", "far", "long", "called"];

/// The card for `round` (from 0) of a debate that keeps a map: each
/// side's turn scored on the format's criteria the rules know. `None` when
/// the format keeps no map, or no side has a turn or a criterion to score.
pub fn card(state: &DebateState, round: u32) -> Option<Scorecard> {
    let spec = state.map()?;
    let current = state.rounds.iter().find(|r| r.number == round)?;
    let previous = round.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n));
    let mut card = Scorecard::default();
    for role in [Role::Advocate, Role::Skeptic] {
        let Some(own) = current.argument(role).filter(|t| !t.trim().is_empty()) else { continue };
        let answered = role.opponent().and_then(|other| previous?.argument(other));
        let sentences = sentences_and_tail(&unlisted(argued(own)));
        let mut scores = std::collections::BTreeMap::new();
        for criterion in &spec.criteria {
            let score = match criterion.name.to_ascii_lowercase().as_str() {
                "logic" => Some(logic(&sentences)),
                "evidence" => Some(evidence(&sentences)),
                "rebuttal" => answered.and_then(|other| rebuttal(own, other, &state.topic)),
                "clarity" => Some(clarity(&sentences)),
                _ => None,
            };
            if let Some(score) = score {
                scores.insert(criterion.name.clone(), score);
            }
        }
        if role == Role::Advocate { card.advocate = scores } else { card.skeptic = scores }
    }
    (!card.advocate.is_empty() || !card.skeptic.is_empty()).then_some(card)
}

/// What the verdict says of a card counted by rule: `Scores are counted by
/// rule (logic, evidence, clarity), not judged.`, naming the criteria it
/// scores in the format's order.
pub fn said(card: &Scorecard, spec: &MapSpec) -> String {
    let counted: Vec<&str> = spec
        .criteria
        .iter()
        .map(|c| c.name.as_str())
        .filter(|name| card.advocate.contains_key(*name) || card.skeptic.contains_key(*name))
        .collect();
    format!("Scores are counted by rule ({}), not judged.", counted.join(", "))
}

/// Evidence: the share of `sentences` that carry a particular someone
/// could check ([`particular`]), a sentence said again counting for none;
/// full marks at [`EVIDENCE_FULL`].
pub fn evidence(sentences: &[String]) -> u8 {
    let fresh = fresh(sentences);
    let carrying = sentences.iter().zip(&fresh).filter(|(s, fresh)| **fresh && particular(s)).count();
    scale(share(carrying, sentences.len()), EVIDENCE_FULL)
}

/// Whether a sentence carries a particular someone could check: a digit (a
/// number, a year, a percentage), a quotation of two words or more, a
/// cited source ("according to", "et al"…), or a name of two capitalised
/// words or more after its first word ("World Health Organization").
pub fn particular(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let quoted = ['"', '\u{201c}'].iter().any(|open| {
        let close = if *open == '"' { '"' } else { '\u{201d}' };
        sentence
            .split_once(*open)
            .and_then(|(_, rest)| rest.split_once(close))
            .is_some_and(|(inside, _)| inside.split_whitespace().count() >= 2)
    });
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let capital = |w: &&str| w.chars().next().is_some_and(char::is_uppercase) && *w != "I";
    let named = words.windows(2).skip(1).any(|pair| pair.iter().all(capital));
    sentence.chars().any(|c| c.is_ascii_digit()) || quoted || SOURCES.iter().any(|s| lower.contains(s)) || named
}

/// Rebuttal: the share of the content words of `answered` (the other
/// side's turn the round before, past the opening heat gave it) that are
/// not the proposition's, taken up by `own` in its sentences that set
/// something against them ([`ANSWERING`]); full marks at
/// [`REBUTTAL_FULL`]. `None` when `answered` has no word of its own.
pub fn rebuttal(own: &str, answered: &str, proposition: &str) -> Option<u8> {
    let given = content_words(proposition);
    let theirs: Vec<String> = content_words(argued(answered)).into_iter().filter(|w| !given.contains(w)).collect();
    if theirs.is_empty() {
        return None;
    }
    let answering: Vec<String> = sentences_and_tail(&unlisted(argued(own)))
        .into_iter()
        .filter(|s| plain_words(s).iter().any(|w| ANSWERING.contains(&w.as_str()) || w.ends_with("n't")))
        .collect();
    let taken_up = content_words(&answering.join(" "));
    let taken = theirs.iter().filter(|w| taken_up.contains(*w)).count();
    Some(scale(share(taken, theirs.len()), REBUTTAL_FULL))
}

/// Clarity: the mean of each sentence's fit ([`fit`]), times the share of
/// sentences not said again and the share of content words not past their
/// third use: `mean fit × (1 − repeated sentences) × (1 − repeated words)`.
pub fn clarity(sentences: &[String]) -> u8 {
    if sentences.is_empty() {
        return LOW;
    }
    let mean_fit = sentences.iter().map(|s| fit(s.split_whitespace().count())).sum::<f32>() / sentences.len() as f32;
    let repeated = fresh(sentences).iter().filter(|f| !**f).count();
    let mut uses: HashMap<String, usize> = HashMap::new();
    for word in sentences.iter().flat_map(|s| s.split_whitespace()).flat_map(content_words) {
        *uses.entry(word).or_default() += 1;
    }
    let total: usize = uses.values().sum();
    let past: usize = uses.values().map(|n| n.saturating_sub(WORD_USES)).sum();
    let clear = mean_fit * (1.0 - share(repeated, sentences.len())) * (1.0 - share(past, total));
    scale(clear, 1.0)
}

/// How well a sentence of `words` words reads: 1 inside [`CLEAR_WORDS`],
/// `words / 12` below it, `22 / words` above it.
pub fn fit(words: usize) -> f32 {
    let (shortest, longest) = (*CLEAR_WORDS.start(), *CLEAR_WORDS.end());
    if words < shortest {
        words as f32 / shortest as f32
    } else if words > longest {
        longest as f32 / words as f32
    } else {
        1.0
    }
}

/// Logic: the share of `sentences` that give a reason ([`gives_reason`]),
/// a sentence said again counting for none; full marks at [`LOGIC_FULL`].
pub fn logic(sentences: &[String]) -> u8 {
    let fresh = fresh(sentences);
    let reasoned = sentences.iter().zip(&fresh).filter(|(s, fresh)| **fresh && gives_reason(s)).count();
    scale(share(reasoned, sentences.len()), LOGIC_FULL)
}

/// Whether a sentence gives a reason: a word of [`REASONS`] ("so" not
/// before "much", "many"…) or a phrase of [`REASON_PHRASES`].
pub fn gives_reason(sentence: &str) -> bool {
    let words = plain_words(sentence);
    let word = words.iter().enumerate().any(|(i, w)| {
        REASONS.contains(&w.as_str())
            && !(w == "so" && words.get(i + 1).is_some_and(|next| NOT_A_REASON_AFTER_SO.contains(&next.as_str())))
    });
    let joined = words.join(" ");
    word || REASON_PHRASES.iter().any(|p| joined.contains(p))
}

/// Whether each sentence is new to the turn: not nearly one before it.
fn fresh(sentences: &[String]) -> Vec<bool> {
    (0..sentences.len()).map(|i| !sentences[..i].iter().any(|earlier| near_duplicate(earlier, &sentences[i]))).collect()
}

/// `part` of `whole` (0 of nothing).
fn share(part: usize, whole: usize) -> f32 {
    if whole == 0 { 0.0 } else { part as f32 / whole as f32 }
}

/// A share as a score: `1 + 9 × share / full`, rounded, full marks (10)
/// at `full` or above; never outside 1–10.
pub fn scale(share: f32, full: f32) -> u8 {
    let reached = if share.is_nan() || full <= 0.0 { 0.0 } else { (share / full).clamp(0.0, 1.0) };
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 1.0..=10.0, rounded
    let score = (f32::from(LOW) + f32::from(HIGH - LOW) * reached).round() as u8;
    debug_assert!((LOW..=HIGH).contains(&score), "{score}");
    score.clamp(LOW, HIGH)
}

#[cfg(test)]
mod tests;
