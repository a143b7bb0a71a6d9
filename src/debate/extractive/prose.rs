//! A debater's prose as the embedded judge reads it: what a side argued
//! past the opening heat gave it ([`argued`]), without its list marks
//! ([`unlisted`]), and split into sentences ([`sentences`],
//! [`sentences_and_tail`]).

/// The openings heat gives the debaters (see `prompt::opening`): not part
/// of what a side argued.
const GIVEN_LEADS: [&str; 2] = ["My first reason is that", "My first objection is that"];
/// The opening heat gives a reply, after the other seat's name as the
/// format calls it: "The skeptic's point fails because", "The
/// opposition's point fails because".
const GIVEN_REPLY: &str = "'s point fails because";

/// What a side argued: its text after the opening heat gave it (its
/// claim about the proposition and the words that lead into its reason).
pub fn argued(argument: &str) -> &str {
    let mut rest = argument.trim_start();
    if ["I agree that", "I disagree that", "Yes.", "No."].iter().any(|claim| rest.starts_with(claim)) {
        rest = rest.split_once(['.', '?']).map_or("", |(_, after)| after).trim_start();
    }
    let reply = rest
        .strip_prefix("The ")
        .and_then(|r| r.split_once(GIVEN_REPLY))
        .filter(|(seat, _)| seat.split_whitespace().count() <= 3 && !seat.contains(['.', '!', '?']))
        .map(|(_, after)| after);
    reply.or_else(|| GIVEN_LEADS.iter().find_map(|lead| rest.strip_prefix(lead))).unwrap_or(rest)
}

/// Prose without its list marks: a line's leading `-`, `*`, `•` or `1.`
/// and `1)` go, so a list's numbers are not read as figures.
pub fn unlisted(text: &str) -> String {
    let lines = text.lines().map(|line| {
        let line = line.trim_start();
        let bullet = line.strip_prefix(['-', '*', '\u{2022}']).filter(|rest| rest.starts_with(' '));
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        let numbered = (digits > 0 && digits <= 2)
            .then(|| line[digits..].strip_prefix(['.', ')']))
            .flatten()
            .filter(|rest| rest.starts_with(' '));
        bullet.or(numbered).unwrap_or(line).trim_start()
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Splits prose into sentences at `.`, `!` or `?` followed by a space or a
/// line end, and at blank lines; whitespace inside a sentence becomes one
/// space. A sentence cut off at the end (no closing mark) is left out.
pub fn sentences(text: &str) -> Vec<String> {
    split(text).0
}

/// [`sentences`], and the sentence cut off at the end as the last, where
/// there is one: what a turn said, whole or not.
pub fn sentences_and_tail(text: &str) -> Vec<String> {
    let (mut out, tail) = split(text);
    out.extend(tail);
    out
}

/// The whole sentences of `text`, and the words after its last closing mark.
fn split(text: &str) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            if !current.is_empty() && !current.ends_with(' ') {
                current.push(' ');
            }
        } else if !c.is_control() {
            current.push(c);
        }
        let ends = matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace());
        if ends {
            let sentence = current.trim().to_string();
            if !sentence.is_empty() {
                out.push(sentence);
            }
            current.clear();
        }
    }
    let tail = current.trim().to_string();
    (out, (!tail.is_empty()).then_some(tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_splits_at_closing_marks_and_the_tail_is_kept_only_when_asked() {
        let text = "Buses run late.  Trams\nrun on time!\n\nWho pays? Shops see more people on foot and";
        assert_eq!(sentences(text), ["Buses run late.", "Trams run on time!", "Who pays?"]);
        assert_eq!(sentences_and_tail(text).last().map(String::as_str), Some("Shops see more people on foot and"));
        assert_eq!(sentences_and_tail("Done.").len(), 1);
    }

    #[test]
    fn what_a_side_argued_leaves_out_the_opening_heat_gave_it() {
        assert_eq!(argued("I agree that cars go. My first reason is that streets calm."), " streets calm.");
        assert_eq!(argued("I agree that cars go. The opposition's point fails because vans adapt."), " vans adapt.");
        assert_eq!(argued("The logic critic's point fails because it names no one."), " it names no one.");
        assert_eq!(argued("Trams run. The city's point fails because"), "Trams run. The city's point fails because");
        assert_eq!(argued("Trams run."), "Trams run.");
    }

    #[test]
    fn list_marks_go_and_the_items_stay() {
        let listed = "Two things:\n\n1. Cars kill.\n  2) Vans wait.\n- Buses run.\n2019 was calm.\n-5 degrees.";
        assert_eq!(unlisted(listed), "Two things:\n\nCars kill.\nVans wait.\nBuses run.\n2019 was calm.\n-5 degrees.");
    }
}
