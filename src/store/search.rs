//! Stored debates searched by their words: every word of a query (any
//! case) in one piece of a debate (an argument, a verdict, a round's
//! question, the synthesis), and where the first such piece is, with the
//! words around them, for `heat sessions --search` to show.

use serde::Serialize;

use crate::debate::DebateState;
use crate::debate::state::VerdictStatus;

/// Where a debate holds every word searched for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The round (from 1); `None` for the synthesis.
    pub round: Option<u32>,
    /// Whose words: `the skeptic`, `the judge`, `the question`, `the synthesis`.
    pub who: String,
    /// The words around the first one found, on one line.
    pub excerpt: String,
}

/// The characters of an excerpt before and after the first word found.
const AROUND: usize = 36;

/// The first piece of `state`'s debate that holds all of `words` (lowercase), if any.
pub fn find(state: &DebateState, words: &[String]) -> Option<Found> {
    if words.is_empty() {
        return None;
    }
    pieces(state).into_iter().find_map(|(round, who, text)| {
        let lower = text.to_lowercase();
        let first = words.iter().map(|w| lower.find(w.as_str())).collect::<Option<Vec<usize>>>()?;
        let at = first.into_iter().min().unwrap_or_default();
        Some(Found { round, who, excerpt: excerpt(text, &lower, at) })
    })
}

/// Everything the debate said, lowercase, its pieces a line each: what a
/// browser filters on as it is typed.
pub fn said(state: &DebateState) -> String {
    pieces(state).into_iter().map(|(_, _, text)| text.to_lowercase()).collect::<Vec<_>>().join("\n")
}

/// The pieces of a debate in order, each with its round (from 1) and whose words they are.
fn pieces(state: &DebateState) -> Vec<(Option<u32>, String, &str)> {
    let mut pieces: Vec<(Option<u32>, String, &str)> = Vec::new();
    for round in &state.rounds {
        let number = Some(round.number + 1);
        pieces.push((number, "the question".into(), round.topic.as_str()));
        for turn in &round.turns {
            let said = match &turn.verdict {
                Some(VerdictStatus::Parsed { verdict }) => verdict.verdict.as_str(),
                _ => turn.text.as_str(),
            };
            pieces.push((number, format!("the {}", state.seat_name(turn.role)), said));
        }
    }
    if let Some(synthesis) = state.finish.as_ref().and_then(|f| f.synthesis.as_deref()) {
        pieces.push((None, "the synthesis".into(), synthesis));
    }
    pieces
}

/// The words of `text` around byte `at` of its lowercase form, on one line.
fn excerpt(text: &str, lower: &str, at: usize) -> String {
    // Lowercasing may change lengths: count in characters, which it keeps for the text people write.
    let before = lower[..at].chars().count();
    let chars: Vec<char> = text.chars().collect();
    let start = before.saturating_sub(AROUND);
    let end = (before + AROUND * 2).min(chars.len());
    let piece: String = chars[start.min(end)..end].iter().collect();
    let lead = if start > 0 { "…" } else { "" };
    let tail = if end < chars.len() { "…" } else { "" };
    format!("{lead}{}{tail}", crate::sanitize::one_line(piece.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::event::{DebateEvent, TurnPurpose};
    use crate::debate::{Heat, Role};

    fn debate() -> DebateState {
        let mut state = DebateState::default();
        let (round, heat) = (0, Heat::new(0.9));
        state.apply(&DebateEvent::Started {
            topic: "Trains".into(),
            max_rounds: 1,
            initial_heat: heat,
            participants: Vec::new(),
        });
        state.apply(&DebateEvent::RoundStarted {
            round,
            topic: "Are night trains worth it?".into(),
            heat,
            injected: Vec::new(),
        });
        for (role, text) in [
            (Role::Advocate, "A sleeper saves a hotel night and arrives at 07:15 in the centre of Vienna."),
            (Role::Skeptic, "Budget airlines undercut the fare by a wide margin."),
        ] {
            for event in DebateEvent::turn(round, role, TurnPurpose::Argue, text) {
                state.apply(&event);
            }
        }
        state
    }

    fn words(query: &str) -> Vec<String> {
        query.split_whitespace().map(str::to_lowercase).collect()
    }

    #[test]
    fn every_word_in_one_piece_is_found_with_the_words_around_it() {
        let found = find(&debate(), &words("HOTEL vienna")).expect("found");
        assert_eq!((found.round, found.who.as_str()), (Some(1), "the advocate"));
        assert_eq!(found.excerpt, "A sleeper saves a hotel night and arrives at 07:15 in the centre of Vienna.");
        assert_eq!(
            find(&debate(), &words("night")).map(|f| f.who),
            Some("the question".into()),
            "the question comes first"
        );
        assert_eq!(find(&debate(), &words("hotel airlines")), None, "in two pieces is not found");
        assert_eq!(find(&debate(), &[]), None);
    }
}
