//! The embedded judge's round prompt in the chosen form: the arguments
//! laid out plainly (quoted up to an equal share each where the model's
//! context is small), the board of issues, then the fields to choose.

use super::argument::read_argument;
use crate::debate::event::TurnPurpose;
use crate::debate::extractive;
use crate::debate::seat::Role;
use crate::debate::state::{DebateState, Round};

/// The fields of the chosen form, as the judge is told them: each seat's
/// strongest sentence, the next question (not in the final synthesis) and,
/// in a review, each issue's status.
pub(super) fn chosen_fields(state: &DebateState, round: &Round, is_final: bool) -> String {
    let mut fields: Vec<String> = extractive::seats(state, round)
        .into_iter()
        .map(|seat| format!("{} (the {}'s strongest sentence)", seat.field, seat.name))
        .collect();
    if !is_final {
        fields
            .push("next_question (one short question about the proposition that the next round should answer)".into());
    }
    if !extractive::issue_ids(state).is_empty() {
        fields.push("issues (each issue's status: open, addressed, rejected or deferred)".into());
    }
    format!("with {}", extractive::listed(&fields))
}

/// The judge's round prompt in the chosen form: the arguments laid out
/// plainly, then what to choose.
pub(super) fn chosen_judge_prompt(
    state: &DebateState,
    round: &Round,
    purpose: TurnPurpose,
    room: Option<usize>,
) -> String {
    let arguments: Vec<(Role, String)> =
        state.debaters().iter().map(|&role| (role, read_argument(round, role))).collect();
    let whole = chosen_judge_prompt_quoting(state, round, purpose, &arguments);
    let Some(room) = room.filter(|&room| whole.chars().count() > room) else { return whole };
    // What is left once the rest is said, shared equally; never less than a few sentences each.
    let rest = chosen_judge_prompt_quoting(state, round, purpose, &[]).chars().count();
    let quoting = QUOTE_FRAME_CHARS * arguments.len();
    let share = (room.saturating_sub(rest + quoting) / arguments.len().max(1)).max(MIN_QUOTED_CHARS);
    let cut: Vec<(Role, String)> = arguments
        .into_iter()
        .map(|(role, text)| match text.char_indices().nth(share) {
            Some((at, _)) => {
                (role, format!("{} […the rest left out to fit the model's context]", text[..at].trim_end()))
            }
            None => (role, text),
        })
        .collect();
    chosen_judge_prompt_quoting(state, round, purpose, &cut)
}

/// The fewest characters of an argument the chosen prompt quotes when it
/// must cut: a few sentences.
const MIN_QUOTED_CHARS: usize = 300;
/// What quoting one argument adds: "The logic critic argued:", the quote
/// marks, and the mark where it was cut.
const QUOTE_FRAME_CHARS: usize = 100;

/// The chosen form's round prompt quoting `arguments` (each seat's as read).
fn chosen_judge_prompt_quoting(
    state: &DebateState,
    round: &Round,
    purpose: TurnPurpose,
    arguments: &[(Role, String)],
) -> String {
    let mut out = format!("Proposition: {}\nRound {} of {}.", state.topic, round.number + 1, state.max_rounds);
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!(" This round's question: {}", round.topic));
    }
    for note in
        round.injected.iter().chain(purpose.is_final().then_some(&state.pending_injections).into_iter().flatten())
    {
        out.push_str(&format!("\nThe person running the debate asks you to consider: {note}"));
    }
    for (role, argument) in arguments {
        out.push_str(&format!("\n\nThe {} argued:\n\"\"\"\n{argument}\n\"\"\"", state.seat_name(*role)));
    }
    let issues = extractive::issue_ids(state);
    if !issues.is_empty() {
        let rows: Vec<crate::debate::issues::Row> =
            crate::debate::issues::board(state).into_iter().filter(|r| issues.contains(&r.issue.id)).collect();
        out.push_str(&format!(
            "\n\nThe issues raised, with their status so far:\n{}",
            crate::debate::issues::listed(&rows)
        ));
    }
    let fields = chosen_fields(state, round, purpose.is_final());
    if purpose.is_final() {
        let why =
            if state.force_requested { " The person running the debate has asked for a resolution now." } else { "" };
        out.push_str(&format!("\n\nThis is the final synthesis.{why} Answer with the JSON object {fields}."));
    } else {
        out.push_str(&format!("\n\nAnswer with the JSON object {fields}."));
    }
    out
}
