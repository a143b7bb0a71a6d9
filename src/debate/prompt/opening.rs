//! The start a continuing model (the embedded one) is given for a
//! debater's answer: its side's claim about the proposition, put as a
//! clause after "I agree that" (an instruction after "we should"), then
//! the words that lead into its first reason or its reply.

use super::FINAL_ANSWER_LEAD;
use crate::debate::seat::Role;
use crate::debate::state::DebateState;

/// The start of a debater's answer, for a model that continues a given
/// start (the embedded model): its side's claim about the proposition in
/// its own first words, then the first reason (round 1) or the reply to the
/// other side. A tiny model that is told its side in the prompt still
/// argues the other one; one that has already said "I disagree that…"
/// goes on disagreeing.
pub fn opening(state: &DebateState, role: Role, round: u32) -> Option<String> {
    let proposition = state.topic.trim().trim_end_matches(['.', '!']).trim();
    let is_question = proposition.ends_with('?');
    if state.side(role) == crate::debate::seat::Side::Free {
        // A debater with no side is led straight into the line its vote is read from.
        return state.final_answers().then(|| FINAL_ANSWER_LEAD.to_string());
    }
    let words = state.side(role).opening_words()?;
    let opponent = role.opponent()?;
    let claim = if is_question {
        words.answer.to_string()
    } else {
        format!("I {} that {}.", words.verb, as_clause(proposition))
    };
    let reply = format!("The {}'s point fails because", state.seat_name(opponent));
    if proposition.is_empty() {
        return None;
    }
    Some(format!("{claim} {}", if round == 0 { words.first } else { &reply }))
}

/// A proposition as a clause after "that": an instruction gets "we
/// should" before it; otherwise its first letter is lowercased
/// unless the first word is a name or an acronym (`NASA`, `Paris`… keep
/// theirs; only a capital followed by lowercase letters of a common word
/// is lowered, which is right for "Cities should…" and wrong only for a
/// proposition that starts with a proper name).
fn as_clause(proposition: &str) -> String {
    if is_imperative(proposition) {
        // "Store API keys in environment variables": "… that we should store API keys …".
        let mut it = proposition.chars();
        return it.next().map(|c| format!("we should {}{}", c.to_ascii_lowercase(), it.as_str())).unwrap_or_default();
    }
    let first_word = proposition.split_whitespace().next().unwrap_or_default();
    let mut chars = first_word.chars();
    let lower_rest = chars.next().is_some_and(char::is_uppercase) && chars.all(char::is_lowercase);
    if lower_rest && first_word != "I" {
        let mut clause = String::with_capacity(proposition.len());
        let mut it = proposition.chars();
        clause.extend(it.next().map(|c| c.to_ascii_lowercase()));
        clause.extend(it);
        clause
    } else {
        proposition.to_string()
    }
}

/// Verbs a motion starts with when it is put as an instruction ("Ban cars
/// from the centre", "Store API keys in environment variables").
const IMPERATIVE_VERBS: &[&str] = &[
    "abolish",
    "add",
    "adopt",
    "allow",
    "ban",
    "build",
    "cancel",
    "close",
    "cut",
    "deploy",
    "drop",
    "end",
    "fund",
    "give",
    "hire",
    "introduce",
    "keep",
    "legalise",
    "legalize",
    "let",
    "limit",
    "lower",
    "make",
    "mandate",
    "merge",
    "migrate",
    "move",
    "pay",
    "prohibit",
    "raise",
    "reduce",
    "remove",
    "replace",
    "require",
    "rewrite",
    "scrap",
    "ship",
    "split",
    "stop",
    "store",
    "switch",
    "tax",
    "use",
];

/// Words that show a proposition already has its own verb ("Use of tabs
/// is rising"), so its first word is no instruction.
const FINITE_VERBS: &[&str] =
    &["is", "are", "was", "were", "should", "must", "will", "would", "can", "could", "has", "have", "does", "do"];

/// Whether `proposition` is put as an instruction: it starts with a verb
/// of [`IMPERATIVE_VERBS`] and has none of [`FINITE_VERBS`].
fn is_imperative(proposition: &str) -> bool {
    let mut words =
        proposition.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase());
    let starts_with_verb = words.next().is_some_and(|first| IMPERATIVE_VERBS.contains(&first.as_str()));
    starts_with_verb && !words.any(|w| FINITE_VERBS.contains(&w.as_str()))
}
