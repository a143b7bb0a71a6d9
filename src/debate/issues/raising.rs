//! How a critic on the embedded model is held to raising an issue: a model
//! of 135M parameters never writes the `ISSUE L1 [high] …` line its brief
//! asks for, so its answer is held by a grammar to open with one, under the
//! next free id, with a severity from the closed list and its own words for
//! the claim and the evidence; its prose follows, led as any embedded
//! debater's is. A critic on a server is asked in words only.

use super::{Severity, board};
use crate::debate::seat::Role;
use crate::debate::state::DebateState;

/// A word of a claim: letters (an apostrophe or hyphen inside), at most
/// 16, a comma after. Words, not characters: a tiny model let write any
/// character fills the line with timestamps and hashes.
const WORD: &str = r"[A-Za-z][A-Za-z'’-]{0,15}[,;:]?";
/// A claim's first word: a capital first.
const FIRST_WORD: &str = r"[A-Z][A-Za-z'’-]{0,15}[,;:]?";
/// A word of evidence: digits too (`24 hours`).
const EVIDENCE_WORD: &str = r"[A-Za-z0-9][A-Za-z0-9'’-]{0,15}[,;:]?";
/// The word that ends a claim or its evidence: a full stop after it, so
/// both are whole sentences (the model ends them when it will, by the
/// 17th or 25th word at the latest).
const LAST_WORD: &str = r"[A-Za-z0-9][A-Za-z0-9'’-]{0,15}[.]";

/// The letters a seat's issue ids start with: those of the `ISSUE L1` its
/// brief shows, else its label's first letter (`Ops critic`: `O`).
pub fn id_prefix(brief: Option<&str>, label: &str) -> String {
    let shown = brief.and_then(|brief| {
        brief.split("ISSUE ").skip(1).find_map(|after| {
            let letters: String = after.chars().take_while(char::is_ascii_uppercase).collect();
            let digit = after[letters.len()..].starts_with(|c: char| c.is_ascii_digit());
            (!letters.is_empty() && letters.len() < 6 && digit).then_some(letters)
        })
    });
    shown.unwrap_or_else(|| label.chars().find(char::is_ascii_alphabetic).unwrap_or('I').to_ascii_uppercase().into())
}

/// The id `seat`'s next issue takes: one past the highest number raised
/// under its prefix so far (by any seat, so two seats sharing a prefix
/// never share an id).
pub fn next_id(state: &DebateState, seat: Role) -> String {
    let brief = state.format.as_ref().and_then(|f| f.brief(seat));
    let prefix = id_prefix(brief, state.label(seat));
    let highest = board(state)
        .iter()
        .filter_map(|row| row.issue.id.strip_prefix(prefix.as_str()).and_then(|n| n.parse::<u32>().ok()))
        .max()
        .unwrap_or(0);
    format!("{prefix}{}", highest + 1)
}

/// The Lark grammar of a critic's answer: one issue line under `id`, then
/// prose that starts with `lead` when there is one.
pub fn grammar(id: &str, lead: Option<&str>) -> String {
    let severities: Vec<String> = Severity::ALL.iter().map(|s| format!("\"{}\"", s.name())).collect();
    let lead = lead.map_or(String::new(), |lead| format!(" {}", literal(&format!("{} ", lead.trim_end()))));
    // The claim ends in a space, so the dash after it cannot be read as more claim.
    format!(
        "start: {} severity \"] \" claim \"— evidence: \" evidence \"\\n\"{lead} prose\n\
         severity: {}\n\
         claim: /{FIRST_WORD}( {WORD}){{2,15}} {LAST_WORD} /\n\
         evidence: /{EVIDENCE_WORD}( {EVIDENCE_WORD}){{1,23}} {LAST_WORD}/\n\
         prose: /(.|\\n)*/\n",
        literal(&format!("ISSUE {id} [")),
        severities.join(" | "),
    )
}

/// `text` as a Lark string literal (a JSON string's escapes).
fn literal(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_is_the_one_the_brief_shows_else_the_labels_initial() {
        let logic = "Raise each issue on a line of its own:\n  ISSUE L1 [high] the claim — evidence: …";
        assert_eq!(id_prefix(Some(logic), "Logic critic"), "L");
        assert_eq!(id_prefix(Some("ISSUE OPS1 [low] …"), "Ops critic"), "OPS");
        assert_eq!(id_prefix(Some("Raise an ISSUE when you see one."), "Ops critic"), "O");
        assert_eq!(id_prefix(None, "  security"), "S");
    }

    #[test]
    fn the_grammar_opens_with_the_issue_line_and_escapes_the_lead() {
        let lark = grammar("L2", Some("I disagree that \"tabs\" win.\\"));
        assert!(lark.starts_with("start: \"ISSUE L2 [\" severity \"] \" claim \"— evidence: \" evidence \"\\n\""));
        assert!(lark.contains(r#" "I disagree that \"tabs\" win.\\ " prose"#), "{lark}");
        assert!(lark.contains("severity: \"low\" | \"medium\" | \"high\" | \"critical\""), "{lark}");
        let claim = "claim: /[A-Z][A-Za-z'’-]{0,15}[,;:]?( [A-Za-z][A-Za-z'’-]{0,15}[,;:]?){2,15} \
                     [A-Za-z0-9][A-Za-z0-9'’-]{0,15}[.] /";
        assert!(lark.contains(claim), "a sentence of 4 to 17 words: {lark}");
        assert!(grammar("O1", None).contains("evidence \"\\n\" prose\n"), "no lead: prose right after the line");
    }
}
