//! A debater's stance at the end of a turn, in a document debate: one line
//! such as `Stance: CONVERGING — the cost figures settle it`, read
//! tolerantly (any case, spaces or hyphens for underscores, Markdown bold,
//! a dash, colon or "because" before the reason). A change of stance from
//! the seat's previous turn without a reason on that line is flagged.

use serde::{Deserialize, Serialize};

/// Where a debater stands, in socratic-duel's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Stance {
    OpenToDebate,
    Converging,
    AcceptingConsensus,
    Dissenting,
    Revising,
}

impl Stance {
    pub const ALL: [Stance; 5] =
        [Stance::OpenToDebate, Stance::Converging, Stance::AcceptingConsensus, Stance::Dissenting, Stance::Revising];

    /// `OPEN_TO_DEBATE`, as debaters are asked to write it.
    pub fn name(self) -> &'static str {
        match self {
            Stance::OpenToDebate => "OPEN_TO_DEBATE",
            Stance::Converging => "CONVERGING",
            Stance::AcceptingConsensus => "ACCEPTING_CONSENSUS",
            Stance::Dissenting => "DISSENTING",
            Stance::Revising => "REVISING",
        }
    }

    /// A stance from a word a model wrote (`converging`, `Open to debate`,
    /// `DISSENT`).
    fn from_words(words: &str) -> Option<(Stance, usize)> {
        let upper: String =
            words.chars().map(|c| if c == ' ' || c == '-' { '_' } else { c.to_ascii_uppercase() }).collect();
        // Longest names first, so OPEN_TO_DEBATE wins over a bare OPEN.
        let names: [(&str, Stance); 10] = [
            ("ACCEPTING_CONSENSUS", Stance::AcceptingConsensus),
            ("OPEN_TO_DEBATE", Stance::OpenToDebate),
            ("CONVERGING", Stance::Converging),
            ("DISSENTING", Stance::Dissenting),
            ("REVISING", Stance::Revising),
            ("CONSENSUS", Stance::AcceptingConsensus),
            ("ACCEPTING", Stance::AcceptingConsensus),
            ("DISSENT", Stance::Dissenting),
            ("REVISE", Stance::Revising),
            ("OPEN", Stance::OpenToDebate),
        ];
        names.iter().find(|(name, _)| upper.starts_with(name)).map(|(name, stance)| (*stance, name.len()))
    }
}

/// The stance line a turn ended with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StanceLine {
    pub stance: Stance,
    /// Why, as written on that line (at least three words), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What debaters are asked to end each turn with.
pub fn instruction() -> String {
    let names: Vec<&str> = Stance::ALL.iter().map(|s| s.name()).collect();
    format!(
        "End your answer with one line: \"Stance: NAME — why\", NAME one of {}. If your stance changed since your \
         last turn, say why on that line.",
        names.join(", ")
    )
}

/// The stance line among the last lines of `text`, if there is one.
pub fn parse(text: &str) -> Option<StanceLine> {
    text.lines().rev().filter(|l| !l.trim().is_empty()).take(3).find_map(parse_line)
}

fn parse_line(line: &str) -> Option<StanceLine> {
    let plain: String = line.chars().filter(|c| !matches!(c, '*' | '_' | '`')).collect();
    // ASCII only: byte offsets in `lower` stay those of `plain`.
    let lower = plain.to_ascii_lowercase();
    let at = lower.find("stance")?;
    let rest = plain[at + "stance".len()..].trim_start_matches([':', ' ', '-', '—', '–']);
    let (stance, len) = Stance::from_words(rest)?;
    // `from_words` counted the name in its underscore form: the same length as written.
    let after = rest.get(len..).unwrap_or_default();
    let reason = after
        .trim_start_matches(|c: char| c.is_alphabetic() || c == '_')
        .trim_start_matches([' ', ':', '-', '—', '–', ',', '.', '('])
        .trim_start_matches("because ")
        .trim_end_matches([')', ' '])
        .trim();
    let reason = (reason.split_whitespace().count() >= 3).then(|| reason.to_string());
    Some(StanceLine { stance, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(Stance, Option<&'static str>)> {
        parse(text).map(|l| (l.stance, l.reason.map(|r| Box::leak(r.into_boxed_str()) as &str)))
    }

    #[test]
    fn stance_lines_are_read_in_the_forms_models_write() {
        assert_eq!(
            read("Argument.\n\nStance: CONVERGING — the cost figures on L12 settle it"),
            Some((Stance::Converging, Some("the cost figures on L12 settle it")))
        );
        assert_eq!(read("**Stance:** open to debate"), Some((Stance::OpenToDebate, None)));
        assert_eq!(
            read("stance - Dissenting, because the source never measures load"),
            Some((Stance::Dissenting, Some("the source never measures load")))
        );
        assert_eq!(
            read("Stance: accepting consensus (both sides agree on L3)"),
            Some((Stance::AcceptingConsensus, Some("both sides agree on L3")))
        );
        assert_eq!(read("Stance: REVISING"), Some((Stance::Revising, None)));
    }

    #[test]
    fn letters_that_change_length_when_lowercased_do_not_break_the_reading() {
        assert_eq!(
            read("İStance—CONVERGING — the costs on L4 decide"),
            Some((Stance::Converging, Some("the costs on L4 decide")))
        );
        assert_eq!(read("İİİİİİİİ stance"), None);
        assert_eq!(read("KKKK ẞ stance: dissenting"), Some((Stance::Dissenting, None)));
    }

    #[test]
    fn no_stance_line_is_none() {
        assert_eq!(read("An argument that takes no stance at all."), None);
        assert_eq!(read("Stance: undecided, really"), None, "not a known stance");
        assert_eq!(read("Stance: CONVERGING\nthen\nthree\nmore lines"), None, "only the last lines count");
    }

    #[test]
    fn the_instruction_names_every_stance() {
        let said = instruction();
        assert!(Stance::ALL.iter().all(|s| said.contains(s.name())), "{said}");
    }
}
