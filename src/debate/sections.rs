//! Structured turns, in a format that asks for them (`sections = [...]`):
//! each debater's turn is written in named sections, each under its name
//! on a line of its own (`Claim: …`, `**Evidence:**`, `## Rebuttal`). The
//! debaters are told the sections (`instruction`); a turn that lacks one is
//! asked once more, then kept and flagged (`guard::turn`); a section's text
//! can be read back (`section`), as the argument map reads a turn's claim.

/// The sections `text` lacks of `sections`, in the format's order.
pub fn missing(text: &str, sections: &[String]) -> Vec<String> {
    sections.iter().filter(|name| starts(text, name).is_none()).cloned().collect()
}

/// The notice on a turn kept without every section: `▦ The skeptic's
/// argument in round 2 lacks its Evidence and Question sections: kept, as
/// it came`.
pub fn flag(seat: &str, round: u32, missing: &[String]) -> String {
    let names = crate::debate::extractive::listed(missing);
    let noun = if missing.len() == 1 { "section" } else { "sections" };
    format!("▦ The {seat}'s argument in round {} lacks its {names} {noun}: kept, as it came", round + 1)
}

/// What the debaters are told of the sections.
pub fn instruction(sections: &[String]) -> String {
    let named: Vec<String> = sections.iter().map(|s| format!("{s}:")).collect();
    format!(
        "\nWrite your turn in {} sections, in this order, each starting on a line of its own with its name: {}.",
        sections.len(),
        named.join(" ")
    )
}

/// The text of section `name` in `text`: from its heading to the next
/// section's (any line that names a section of the same form), trimmed;
/// `None` when it has none.
pub fn section(text: &str, name: &str, sections: &[String]) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (at, rest) = starts(text, name)?;
    let mut out = vec![rest.to_string()];
    for line in lines.iter().skip(at + 1) {
        if sections.iter().any(|other| heading(line, other).is_some()) {
            break;
        }
        out.push((*line).to_string());
    }
    let joined = out.join("\n").trim().to_string();
    (!joined.is_empty()).then_some(joined)
}

/// The line section `name` starts on, and what follows its name there.
fn starts<'t>(text: &'t str, name: &str) -> Option<(usize, &'t str)> {
    text.lines().enumerate().find_map(|(i, line)| heading(line, name).map(|rest| (i, rest)))
}

/// What follows `name` when `line` starts the section: its name (in any
/// case, bold or as a heading, numbered or listed) then a colon, or the
/// name alone as a heading.
fn heading<'t>(line: &'t str, name: &str) -> Option<&'t str> {
    let line = line.trim_start().trim_start_matches(['#', '*', '_', '-', '>', ' ']);
    let line = line.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ')').trim_start();
    let head = line.get(..name.len()).filter(|h| h.eq_ignore_ascii_case(name))?;
    let rest = line[head.len()..].trim_start_matches(['*', '_']);
    if let Some(after) = rest.strip_prefix(':') {
        return Some(after.trim_start_matches(['*', '_']).trim());
    }
    rest.trim().is_empty().then_some("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn socratic() -> Vec<String> {
        ["Claim", "Evidence", "Rebuttal", "Question"].map(String::from).to_vec()
    }

    #[test]
    fn a_section_is_found_however_it_is_marked() {
        let text = "**Claim:** Night trains save a hotel night.\n## Evidence\nFares on the Vienna sleeper.\nand more\n- rebuttal: Flights need transfers.\n4. Question: Who pays?";
        assert!(missing(text, &socratic()).is_empty(), "{:?}", missing(text, &socratic()));
        assert_eq!(section(text, "Claim", &socratic()).as_deref(), Some("Night trains save a hotel night."));
        assert_eq!(section(text, "evidence", &socratic()).as_deref(), Some("Fares on the Vienna sleeper.\nand more"));
        assert_eq!(section(text, "Question", &socratic()).as_deref(), Some("Who pays?"));
    }

    #[test]
    fn a_missing_section_is_named_and_a_word_in_prose_is_no_heading() {
        let text = "Claim: trains win.\nThe evidence is clear: fares fell.\nQuestion: why fly?";
        assert_eq!(missing(text, &socratic()), ["Evidence", "Rebuttal"]);
        assert!(instruction(&socratic()).contains("4 sections, in this order, each starting on a line of its own with its name: Claim: Evidence: Rebuttal: Question:"));
    }
}
