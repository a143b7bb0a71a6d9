//! The swap check (`debate.swap_check`): after a round's verdict the judge
//! is asked again with the debaters in reverse order under neutral labels,
//! the skeptic's argument first as Debater A and the advocate's as Debater
//! B, and nothing in the request saying which is which. When the two
//! answers disagree on who is ahead or on `resolved`, the verdict flips on
//! swap: order, not argument, decided it (Wang et al., ACL 2024). This
//! module owns the request's text and schema, reading its answer back into
//! sides, and the comparison; the engine asks, the reducer records.

pub mod check;

use serde_json::Value;

use super::heat::Heat;
use super::prompt::argument::read_argument;
use super::seat::Role;
use super::state::{DebateState, Round};
use super::verdict::{self, SideNames, Verdict, VerdictError};
use crate::provider::ChatMessage;
pub use check::{FAILED, FLIPS, SwapCheck};

/// What the swap check calls the sides.
pub const NAMES: SideNames = SideNames::SWAPPED;

/// The swap check's system prompt: the judge's brief with the sides named
/// A and B (the shared rules name the advocate and the skeptic, so they
/// are not sent).
pub fn system() -> String {
    include_str!("../../prompts/judge_swap.md").trim_end().to_string()
}

/// The schema the answer is held to: `ahead` and `conceded` as A, B.
pub fn schema() -> Value {
    verdict::schema_naming(NAMES)
}

/// The request's one message: this round alone (earlier verdicts name the
/// sides), the skeptic's argument first.
pub fn messages(state: &DebateState, round: &Round) -> Vec<ChatMessage> {
    let [first, second] = [Role::Skeptic, Role::Advocate].map(|role| read_argument(round, role));
    let pair = serde_json::to_string(&[first, second]).unwrap_or_default();
    let mut out = format!("Proposition: {}\nRound {} of {}.", state.topic, round.number + 1, state.max_rounds);
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!(" This round's question: {}", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("\nThe person running the debate injected this topic: {note}"));
    }
    out.push_str(&format!("\n\n[Debater A, Debater B]:\n{pair}\n\n"));
    if let Some(grounds) = state.grounds() {
        out.push_str(&format!("Citations and quotes, checked against {grounds}:\n"));
        for (label, role) in [("Debater A", Role::Skeptic), ("Debater B", Role::Advocate)] {
            let checks = round.turn(role).map(|t| t.checks.as_slice()).unwrap_or_default();
            let said =
                if checks.is_empty() { "nothing cited".to_string() } else { super::grounding::describe_all(checks) };
            out.push_str(&format!("- {label}: {said}\n"));
        }
        out.push_str(&format!(
            "✓ was found in {grounds}; ✗ was not found: an unverified quote counts for nothing.\n\n"
        ));
    }
    out.push_str("Answer with the Verdict JSON object only.");
    vec![ChatMessage::user(anonymise(&out))]
}

/// Reads the answer, its sides named again: A is the skeptic, B the advocate.
pub fn parse(text: &str, fallback_topic: &str, fallback_heat: Heat) -> Result<Verdict, VerdictError> {
    verdict::parse_naming(text, fallback_topic, fallback_heat, NAMES)
}

/// Whether the second answer disagrees with the round's verdict: on
/// `resolved`, or on who is ahead where both said.
pub fn flips(original: &Verdict, swapped: &Verdict) -> bool {
    let ahead_differs = matches!((original.ahead, swapped.ahead), (Some(a), Some(b)) if a != b);
    original.resolved != swapped.resolved || ahead_differs
}

/// The arguments' own words for the sides ("the skeptic's point fails…"),
/// as the labels the check uses.
fn anonymise(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < text.len() {
        let rest = &lower[at..];
        let hit = [("the advocate", "Debater B"), ("the skeptic", "Debater A")].into_iter().find(|(name, _)| {
            rest.starts_with(name) && !rest[name.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
        });
        if let Some((name, label)) = hit {
            out.push_str(label);
            at += name.len();
        } else {
            let ch = text[at..].chars().next().unwrap_or_default();
            out.push(ch);
            at += ch.len_utf8().max(1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::verdict::Ahead;

    fn said(resolved: bool, ahead: Option<Ahead>) -> Verdict {
        Verdict { resolved, ahead, ..Verdict::default() }
    }

    #[test]
    fn a_verdict_flips_when_ahead_or_resolved_differs() {
        assert!(flips(&said(false, Some(Ahead::Advocate)), &said(false, Some(Ahead::Skeptic))));
        assert!(flips(&said(true, Some(Ahead::Even)), &said(false, Some(Ahead::Even))));
        assert!(!flips(&said(false, Some(Ahead::Skeptic)), &said(false, Some(Ahead::Skeptic))));
        assert!(!flips(&said(false, None), &said(false, Some(Ahead::Skeptic))), "nothing to compare");
    }

    #[test]
    fn the_sides_own_words_for_each_other_become_the_labels() {
        assert_eq!(
            anonymise("The skeptic's point fails because the advocates of cars and the advocate… ok"),
            "Debater A's point fails because the advocates of cars and Debater B… ok"
        );
    }

    #[test]
    fn the_brief_names_no_role() {
        let text = system().to_lowercase();
        assert!(!text.contains("advocate") && !text.contains("skeptic"), "{text}");
    }

    #[test]
    fn marks_say_flips_or_failed() {
        let flipped = SwapCheck::Answered { verdict: Verdict::default(), flips: true, usage: None };
        assert_eq!(flipped.mark(), Some(FLIPS));
        assert_eq!(SwapCheck::Failed { error: "x".into(), usage: None }.mark(), Some(FAILED));
        assert_eq!(SwapCheck::Asking.mark(), None);
    }
}
