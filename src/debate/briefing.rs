//! Old rounds put in brief by the debaters' own models, when the person
//! asks (`debate.summaries = "model"`): which arguments are due (those the
//! next round's prompts give in brief, not yet put so), what a model is
//! asked, and how its answer is read. Each brief is recorded (`Briefed`),
//! so a resumed debate does not pay for it again; one that fails
//! (`BriefFailed`) leaves the argument's first sentence standing for it.
//! Pure: the planner asks, the engine performs.

use super::call::Call;
use super::prompt::HISTORY_ROUNDS;
use super::seat::Role;
use super::state::{DebateState, Round, TurnStatus};
use crate::provider::ChatMessage;

/// The most words a brief keeps of what a model wrote.
const MOST_WORDS: usize = 60;

/// What the model is told it is for.
pub fn system() -> &'static str {
    include_str!("../../prompts/in_brief.md")
}

/// The briefs due before `round`'s debaters are asked, as (round, seat):
/// each argument the round's prompts give in brief, not yet put so and not
/// being put so now. `None` when none is due or under way (the round goes
/// on); `Some` of none while those under way finish. Only before the
/// round's first turn: a round under way goes on as it began.
pub fn due(state: &DebateState, round: &Round, calls: &[Call]) -> Option<Vec<(u32, Role)>> {
    if state.debaters().iter().any(|&role| round.turn(role).is_some()) {
        return None;
    }
    let under_way = calls.iter().any(|c| matches!(c, Call::Brief { .. }));
    let due: Vec<(u32, Role)> = state
        .rounds
        .iter()
        .filter(|r| (r.number as usize) + HISTORY_ROUNDS < round.number as usize)
        .flat_map(|r| state.debaters().iter().map(move |&role| (r, role)))
        .filter(|(r, role)| argued(r, *role).is_some() && !r.briefs.contains_key(role))
        .filter(|(r, role)| !calls.contains(&Call::Brief { round: r.number, role: *role }))
        .map(|(r, role)| (r.number, role))
        .collect();
    (under_way || !due.is_empty()).then_some(due)
}

/// What `role` argued in `r`, when its turn was answered in full.
fn argued(r: &Round, role: Role) -> Option<&str> {
    let turn = r.turn(role).filter(|t| t.status == TurnStatus::Done)?;
    Some(turn.text.trim()).filter(|t| !t.is_empty())
}

/// What `role`'s model is asked about its argument in `round`; `None`
/// when it made none.
pub fn messages(state: &DebateState, round: u32, role: Role) -> Option<Vec<ChatMessage>> {
    let r = state.rounds.iter().find(|r| r.number == round)?;
    let argument = argued(r, role)?;
    let seat = state.seat_name(role);
    let mut asked = format!("Proposition: {}\n", state.topic);
    if r.topic.trim() != state.topic.trim() {
        asked.push_str(&format!("Round {}'s question: {}\n", round + 1, r.topic));
    }
    asked.push_str(&format!("\nThe {seat} argued:\n\"\"\"\n{argument}\n\"\"\"\n\nThe {seat}'s argument in brief:"));
    Some(vec![ChatMessage::user(asked)])
}

/// The brief a model wrote, cleaned: control characters out, one line, no
/// quotes or label around it, at most [`MOST_WORDS`] words. Why not, when
/// it wrote nothing usable.
pub fn read(text: &str) -> Result<String, String> {
    let one_line = crate::sanitize::one_line(&crate::sanitize::clean(text));
    let mut brief = one_line.trim();
    for label in ["In brief:", "Brief:", "Summary:"] {
        if let Some(rest) = brief.strip_prefix(label) {
            brief = rest.trim_start();
        }
    }
    let brief = brief.trim_matches(['"', '\u{201c}', '\u{201d}', ' ']);
    let words: Vec<&str> = brief.split_whitespace().collect();
    if words.len() < 3 {
        return Err("its answer was not a brief".to_string());
    }
    if words.len() <= MOST_WORDS {
        return Ok(words.join(" "));
    }
    Ok(format!("{}…", words[..MOST_WORDS].join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brief_is_read_as_one_clean_line_without_its_label_or_quotes() {
        assert_eq!(
            read("In brief: \"Sleeper trains\u{1b}[31m carry\n a tenth of the carbon.\""),
            Ok("Sleeper trains carry a tenth of the carbon.".to_string())
        );
        assert_eq!(read("  ok  "), Err("its answer was not a brief".to_string()));
        let long = "word ".repeat(80);
        assert_eq!(read(&long).map(|b| b.split_whitespace().count()), Ok(60));
    }
}
