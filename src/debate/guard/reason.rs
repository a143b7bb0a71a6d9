//! The judge's verdict text: an assessment of the round in its own words,
//! not a placeholder, a copy of the prompt or an argument, or last round's
//! verdict again. A verdict that fails goes through the repair path as an
//! unparsable one does.

use super::Context;
use super::text;
use crate::debate::Role;

/// Fewest words of letters a verdict needs to give a reason.
pub const MIN_WORDS: usize = 3;

/// What small models put where the assessment belongs (compared in
/// lowercase, without surrounding punctuation).
const PLACEHOLDERS: [&str; 18] = [
    "n/a",
    "na",
    "none",
    "null",
    "nil",
    "undefined",
    "todo",
    "tbd",
    "string",
    "str",
    "reason",
    "verdict",
    "text",
    "placeholder",
    "your assessment",
    "assessment",
    "lorem ipsum",
    "xxx",
];

/// Why a verdict's text cannot stand. `Display` is the clause the repair
/// request sends back to the judge: "That answer could not be used: …".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VerdictFault {
    #[error("the field `verdict` is empty")]
    Empty,
    #[error("the field `verdict` holds a placeholder, not an assessment of the arguments")]
    Placeholder,
    #[error("the field `verdict` is too short to give a reason")]
    TooShort,
    #[error("the field `verdict` copies the {}'s argument instead of weighing it", .0.key())]
    CopiesArgument(Role),
    #[error("the field `verdict` repeats the prompt instead of assessing the round")]
    CopiesPrompt,
    #[error("the field `verdict` repeats last round's verdict word for word")]
    SameAsLastRound,
    #[error(
        "the field `verdict` only restates the proposition or the round's question instead of weighing the arguments"
    )]
    RestatesQuestion,
}

impl VerdictFault {
    /// The fault in words, a seat named as `state`'s format names it
    /// ("copies the logic critic's argument"); the duel's are its roles'.
    pub fn describe(self, state: &crate::debate::DebateState) -> String {
        match self {
            VerdictFault::CopiesArgument(role) => {
                format!("the field `verdict` copies the {}'s argument instead of weighing it", state.seat_name(role))
            }
            other => other.to_string(),
        }
    }
}

/// Checks a verdict's text; `last` is the verdict of the round before.
pub fn check(verdict: &str, last: Option<&str>, ctx: &Context<'_>) -> Result<(), VerdictFault> {
    let verdict = verdict.trim();
    if verdict.is_empty() {
        return Err(VerdictFault::Empty);
    }
    if is_placeholder(verdict) {
        return Err(VerdictFault::Placeholder);
    }
    if text::letter_words(verdict) < MIN_WORDS {
        return Err(VerdictFault::TooShort);
    }
    let allowed = ctx.allowed_texts();
    if own_words(verdict, &allowed) < MIN_WORDS {
        return Err(VerdictFault::RestatesQuestion);
    }
    for (role, argument) in ctx.arguments {
        if text::mostly_copied(verdict, &[argument], &allowed) {
            return Err(VerdictFault::CopiesArgument(*role));
        }
    }
    if text::mostly_copied(verdict, &ctx.prompt_texts(), &allowed) {
        return Err(VerdictFault::CopiesPrompt);
    }
    if last.is_some_and(|last| text::words(last) == text::words(verdict)) {
        return Err(VerdictFault::SameAsLastRound);
    }
    Ok(())
}

/// How many of the verdict's words of letters none of the `given` texts
/// (the proposition, the rounds' questions, the person's notes) has: what
/// it says of its own.
fn own_words(verdict: &str, given: &[&str]) -> usize {
    let known: std::collections::HashSet<String> = given.iter().flat_map(|t| text::words(t)).collect();
    text::words(verdict).iter().filter(|w| w.chars().any(char::is_alphabetic) && !known.contains(*w)).count()
}

fn is_placeholder(verdict: &str) -> bool {
    if !verdict.chars().any(char::is_alphanumeric) || verdict.parse::<f64>().is_ok() {
        return true;
    }
    let bare = verdict.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    PLACEHOLDERS.contains(&bare.as_str()) || bare.chars().all(|c| c.is_numeric() || c == '.' || c == ',')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::prompt::Prompts;

    const ADVOCATE: &str = "Tabs let every reader choose their own indentation width without touching the file.";
    const SKEPTIC: &str = "Spaces look the same everywhere, in every diff, review tool and terminal.";

    fn check_with(verdict: &str, last: Option<&str>) -> Result<(), VerdictFault> {
        let system = Prompts::default().system_for(Role::Judge);
        let user =
            vec![format!("Proposition: Tabs beat spaces\nRound 2 of 3.\n\nAnswer with the Verdict JSON object only.")];
        let arguments = [(Role::Advocate, ADVOCATE), (Role::Skeptic, SKEPTIC)];
        let ctx = Context {
            proposition: "Tabs beat spaces",
            system: &system,
            user: &user,
            own: &[],
            arguments: &arguments,
            allowed: &[],
        };
        check(verdict, last, &ctx)
    }

    #[test]
    fn placeholders_are_refused() {
        for bad in ["…", "...", "][", "1.2", "N/A", "TODO", "string", "\"reason\"", "Verdict.", "0", "--", "null"] {
            assert_eq!(check_with(bad, None), Err(VerdictFault::Placeholder), "{bad:?}");
        }
        assert_eq!(check_with("  ", None), Err(VerdictFault::Empty));
        for short in ["Tabs.", "Advocate wins.", "2019, yes"] {
            assert_eq!(check_with(short, None), Err(VerdictFault::TooShort), "{short:?}");
        }
    }

    #[test]
    fn the_proposition_said_back_is_no_verdict() {
        for restated in ["Tabs beat spaces.", "TABS BEAT SPACES", "Tabs beat spaces: tabs."] {
            assert_eq!(check_with(restated, None), Err(VerdictFault::RestatesQuestion), "{restated:?}");
        }
        assert_eq!(check_with("Tabs beat spaces: the skeptic never answered the width argument.", None), Ok(()));
    }

    #[test]
    fn copies_of_an_argument_or_the_prompt_are_refused() {
        assert_eq!(check_with(ADVOCATE, None), Err(VerdictFault::CopiesArgument(Role::Advocate)));
        let echo = "Judge the reasoning, not the rhetoric: is each claim supported, does each side answer the other?";
        assert_eq!(check_with(echo, None), Err(VerdictFault::CopiesPrompt));
    }

    #[test]
    fn last_rounds_verdict_again_is_refused() {
        let text = "The advocate answered the diff point; the skeptic did not.";
        assert_eq!(check_with(text, Some(text)), Err(VerdictFault::SameAsLastRound));
        assert_eq!(
            check_with(text, Some("the advocate answered the diff point -- the skeptic did NOT")),
            Err(VerdictFault::SameAsLastRound)
        );
        assert_eq!(check_with(text, Some("The skeptic answered nothing.")), Ok(()));
    }

    #[test]
    fn real_assessments_stand_even_when_they_quote_a_little() {
        let fair = "The advocate's point that tabs let every reader choose their own indentation width \
            was strong, but the skeptic showed that diffs and review tools render spaces more predictably, \
            and nobody answered it.";
        assert_eq!(check_with(fair, None), Ok(()));
        assert_eq!(check_with("Tabs win on accessibility.", None), Ok(()));
        assert_eq!(
            check_with("Both sides argued; Costs? is open.", Some("Both sides argued; Habits? is open.")),
            Ok(())
        );
    }
}
