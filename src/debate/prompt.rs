//! Builds each role's messages from `prompts/` and the debate state. Every
//! history is derived from the state, so a resumed debate asks the same
//! questions as a live one.

use super::seat::PanelJudge;
use std::path::Path;

use anyhow::Context;

use super::event::TurnPurpose;
use super::extractive;
use super::seat::Role;
use super::seat::SEATS;
use super::state::{DebateState, Round, VerdictStatus};
use crate::provider::ChatMessage;

pub mod argument;
mod chosen;
pub mod earlier;
mod opening;

use argument::{ANSWER_THAT_POINT, WEIGH_THOSE_POINTS, read_argument};
use argument::{non_empty, non_empty_str};
use chosen::{chosen_fields, chosen_judge_prompt};
pub use opening::opening;

/// Prior rounds each role sees in full; older ones are left out to bound the
/// prompt (the seed kept eight messages).
pub const HISTORY_ROUNDS: usize = 3;

/// The brief of a debater's seat past the duel's two, when its format
/// brings none of its own.
const DEBATER: &str = include_str!("../../prompts/debater.md");

/// The prompt texts, built in and overridable file by file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompts {
    pub system: String,
    /// Each seat's brief, by its position in [`super::seat::SEATS`].
    pub briefs: [String; Role::COUNT],
    /// The arbiter's summary of an ended debate (`heat report --summary`).
    pub summary: String,
}

impl Prompts {
    /// Every prompt's text, in a fixed order: the system prompt, each seat's
    /// brief, the arbiter's summary.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.system.as_str())
            .chain(self.briefs.iter().map(String::as_str))
            .chain(std::iter::once(self.summary.as_str()))
    }
}

impl Default for Prompts {
    fn default() -> Self {
        Self {
            system: include_str!("../../prompts/system.md").to_string(),
            briefs: [
                include_str!("../../prompts/advocate.md"),
                include_str!("../../prompts/skeptic.md"),
                include_str!("../../prompts/judge.md"),
                DEBATER,
                DEBATER,
                DEBATER,
                DEBATER,
            ]
            .map(str::to_string),
            summary: include_str!("../../prompts/summary.md").to_string(),
        }
    }
}

impl Prompts {
    /// Short prompts for small offline models (`prompts/compact/`): a third
    /// of the words, so the first token comes sooner and more of a 2k
    /// context is left for the debate.
    pub fn compact() -> Self {
        Self {
            system: include_str!("../../prompts/compact/system.md").to_string(),
            briefs: [
                include_str!("../../prompts/compact/advocate.md"),
                include_str!("../../prompts/compact/skeptic.md"),
                include_str!("../../prompts/compact/judge.md"),
                DEBATER,
                DEBATER,
                DEBATER,
                DEBATER,
            ]
            .map(str::to_string),
            summary: include_str!("../../prompts/summary.md").to_string(),
        }
    }

    /// `base` with any `system.md` or seat brief (`advocate.md`,
    /// `skeptic.md`, `judge.md`) found in `dir` taking their place.
    pub fn load(base: Self, dir: Option<&Path>) -> anyhow::Result<Self> {
        let mut prompts = base;
        let Some(dir) = dir else { return Ok(prompts) };
        let read = |name: &str, slot: &mut String| -> anyhow::Result<()> {
            let path = dir.join(name);
            if path.exists() {
                *slot = std::fs::read_to_string(&path)
                    .with_context(|| format!("could not read the prompt file {}", path.display()))?;
            }
            Ok(())
        };
        read("system.md", &mut prompts.system)?;
        read("summary.md", &mut prompts.summary)?;
        for seat in &SEATS {
            let mut brief = prompts.briefs[seat.position].clone();
            read(seat.brief_file, &mut brief)?;
            prompts.briefs[seat.position] = brief;
        }
        Ok(prompts)
    }

    /// A seat's brief.
    pub fn brief(&self, role: Role) -> &str {
        &self.briefs[role.position()]
    }

    /// The system prompt for a role: the shared rules, then the role's brief.
    pub fn system_for(&self, role: Role) -> String {
        self.system_with(role, None)
    }

    /// [`Self::system_for`], with the brief a debate's format brings
    /// (recorded in its log) in place of the role's own.
    pub fn system_with(&self, role: Role, format_brief: Option<&str>) -> String {
        let brief = format_brief.unwrap_or_else(|| self.brief(role));
        format!("{}\n\n{}", self.system.trim_end(), brief.trim_end())
    }

    /// A debater's system prompt when its messages carry the control line:
    /// the shared rules end with what that line means. Only a seat shown
    /// the line is told of it (a tiny model writes about what it is told).
    pub fn system_with_control(&self, role: Role, format_brief: Option<&str>) -> String {
        let brief = format_brief.unwrap_or_else(|| self.brief(role));
        format!("{}\n{CONTROL_RULE}\n\n{}", self.system.trim_end(), brief.trim_end())
    }
}

/// What the control line means, said to a seat whose messages carry it.
pub const CONTROL_RULE: &str = "- A line of the form {\"set_temp\": 0.7} is a control message from the debate
  runner, not part of the argument. Low heat (0.3–0.5) asks for focus:
  fewer, sharper, carefully qualified points. High heat (0.8–1.0) asks for
  range: bolder framings, new angles, vivid examples. Never mention it.";

/// The control line the seed sends on its control channel.
pub fn control_line(heat: f32) -> String {
    format!("{{\"set_temp\": {heat:.2}}}")
}

/// The messages for a debater's turn in `round`. `brief`: for a tiny model
/// (the embedded one), which copies whatever it is shown: this round's
/// prompt alone, with the other side's main point in one sentence instead
/// of the earlier rounds and the whole argument.
pub fn debater_messages(state: &DebateState, role: Role, round: u32, brief: bool) -> Vec<ChatMessage> {
    debater_messages_keeping(state, role, round, brief, HISTORY_ROUNDS)
}

/// [`debater_messages`] with at most `kept` earlier rounds shown in full
/// (fewer than [`HISTORY_ROUNDS`] to fit a server's context).
pub fn debater_messages_keeping(
    state: &DebateState,
    role: Role,
    round: u32,
    brief: bool,
    kept: usize,
) -> Vec<ChatMessage> {
    if brief {
        let current = state.rounds.iter().find(|r| r.number == round);
        return current
            .map(|r| vec![ChatMessage::user(with_readings(r, role, brief_debater_prompt(state, role, r)))])
            .unwrap_or_default();
    }
    let mut messages = Vec::new();
    for r in history(state, round, kept) {
        let Some(argument) = r.argument(role) else {
            continue;
        };
        messages.push(ChatMessage::user(debater_prompt(state, role, r)));
        messages.push(ChatMessage::assistant(non_empty(argument)));
    }
    if let Some(r) = state.rounds.iter().find(|r| r.number == round) {
        messages.push(ChatMessage::user(with_readings(r, role, debater_prompt(state, role, r))));
    }
    open_with_earlier(state, round, kept, messages)
}

/// `messages` with the rounds before those shown in full given in brief
/// ([`earlier::brief`]) at the start of the first.
fn open_with_earlier(state: &DebateState, round: u32, kept: usize, mut messages: Vec<ChatMessage>) -> Vec<ChatMessage> {
    let before = left_out(state, round, kept);
    if let (Some(brief), Some(first)) = (earlier::brief(state, &before), messages.first_mut()) {
        first.content = format!("{brief}{}", first.content);
    }
    messages
}

/// A round's prompt, opened by the library's passages `role` reads in it
/// (earlier rounds' prompts go without theirs: what was argued from them stays).
fn with_readings(round: &Round, role: Role, prompt: String) -> String {
    match round.readings.get(&role) {
        Some(readings) => format!("{}{prompt}", super::grounding::reading::block(readings)),
        None => prompt,
    }
}

/// A tiny model writes about whatever it is shown, so its prompt carries no
/// control line: the heat reaches it as its sampling temperature alone.
fn brief_debater_prompt(state: &DebateState, role: Role, round: &Round) -> String {
    let mut out = format!("Proposition: {}\n", state.topic);
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!("This round's question: {}\n", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("Moderator's note: {note}\n"));
    }
    for note in seat_notes(state, round, role) {
        out.push_str(&format!("Moderator's note, to you only: {note}\n"));
    }
    let previous = round.number.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n));
    let points: Vec<(Role, String)> = previous
        .map(|prev| {
            others(state, role)
                .into_iter()
                .filter_map(|other| {
                    let said = prev.turn(other).filter(|t| t.is_settled())?;
                    let answer = state.final_answers().then(|| super::vote::final_answer(&said.text)).flatten();
                    let point = answer.or_else(|| extractive::main_point(&said.text));
                    point.map(|point| (other, point))
                })
                .collect()
        })
        .unwrap_or_default();
    for (other, point) in &points {
        out.push_str(&format!("The {}'s main point: \u{201c}{point}\u{201d}\n", state.seat_name(*other)));
    }
    let side = state.side(role).instruction().unwrap_or_default();
    let reply = match points.len() {
        0 => String::new(),
        1 => format!(" {ANSWER_THAT_POINT}"),
        _ => format!(" {WEIGH_THOSE_POINTS}"),
    };
    out.push_str(&format!("Round {} of {}. {side}{reply}", round.number + 1, state.max_rounds));
    out.push_str(&format_instructions(state, round.number));
    out
}

/// The issues a review's debater is shown before round `round`: the
/// defender answers those still open by id; a critic sees them all and
/// raises new ones with ids of its own.
fn issues_for(state: &DebateState, role: Role, round: u32) -> String {
    let rows: Vec<super::issues::Row> = super::issues::board(state).into_iter().filter(|r| r.round < round).collect();
    let defends = state.side(role) == super::seat::Side::For;
    if rows.is_empty() {
        return String::new();
    }
    let open: Vec<super::issues::Row> =
        rows.iter().filter(|r| r.status == super::issues::Status::Open).cloned().collect();
    if defends {
        if open.is_empty() {
            return "\nNo issue is open.\n".into();
        }
        return format!("\nOpen issues, to answer each by its id:\n{}", super::issues::listed(&open));
    }
    format!("\nThe issues raised so far, with the judge's status:\n{}", super::issues::listed(&rows))
}

/// The seats whose last arguments a debater answers: its opponent in a
/// two-sided debate, every other debater when it argues a position of its own.
fn others(state: &DebateState, role: Role) -> Vec<Role> {
    let side = state.side(role);
    let answered = |r: &Role| *r != role && (side == super::seat::Side::Free || state.side(*r) != side);
    state.debaters().iter().copied().filter(answered).collect()
}

/// What a format adds to a debater's round: its phase's name and
/// instruction, and in the first round how many separate arguments to make.
/// Empty for the duel.
fn format_instructions(state: &DebateState, round: u32) -> String {
    let Some(format) = &state.format else { return String::new() };
    let mut out = String::new();
    if let Some(phase) = state.phase(round) {
        out.push_str(&format!("\nPhase: {}. {}", phase.name, phase.instruction));
    }
    if round == 0 && format.opening_arguments > 1 {
        let n = format.opening_arguments;
        out.push_str(&format!("\nMake {n} separate, independent arguments, numbered 1 to {n}."));
    }
    if format.final_answers() {
        out.push_str(&format!("\n{FINAL_ANSWER_ASK}"));
    }
    if !format.sections.is_empty() {
        out.push_str(&super::sections::instruction(&format.sections));
    }
    out
}

/// How heat starts a free debater's answer on a model that continues a
/// given start (the embedded one): a tiny model told to end with its final
/// answer forgets to; one that has begun with it has given it.
pub const FINAL_ANSWER_LEAD: &str = "Final answer:";

/// What a debater whose final answer is compared is asked to end with.
pub const FINAL_ANSWER_ASK: &str = "End with one line of the form `Final answer: <your answer in a few words>`.";

fn debater_prompt(state: &DebateState, role: Role, round: &Round) -> String {
    let mut out = control_line(round.heat_for(role).get());
    out.push_str(&format!("\n\nProposition: {}\n", state.topic));
    let previous = round.number.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n));
    if let Some(prev) = previous {
        if let Some(verdict) = prev.verdict() {
            out.push_str(&format!("\nThe judge on round {}: {}\n", prev.number + 1, verdict.verdict));
        }
        for other in others(state, role) {
            let said = read_argument(prev, other);
            let name = state.seat_name(other);
            out.push_str(&format!("\nThe {name} argued last round:\n\"\"\"\n{said}\n\"\"\"\n"));
        }
    }
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!("\nThis round's question: {}\n", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("\nModerator's note: {note}\n"));
    }
    for note in seat_notes(state, round, role) {
        out.push_str(&format!("\nModerator's note, to you only: {note}\n"));
    }
    if state.tracks_issues() {
        out.push_str(&issues_for(state, role, round.number));
    }
    let side = state.side(role).instruction().unwrap_or_default();
    let reply = match (previous, state.side(role)) {
        (None, _) => "",
        (Some(_), super::seat::Side::Free) => {
            " Weigh the other debaters' answers first: keep yours or change it, and say why."
        }
        (Some(_), _) => " Answer your opponent's points first.",
    };
    out.push_str(&format!("\nRound {} of {}. {side}{reply}", round.number + 1, state.max_rounds));
    out.push_str(&format_instructions(state, round.number));
    if state.source.is_some() {
        // A document debate: where each side stands, turn by turn.
        out.push_str(&format!("\n{}", super::stance::instruction()));
    }
    out
}

/// The messages for a judge turn in `round` with the given purpose.
/// `chosen`: the judge answers in the chosen form (`extractive`), each
/// round on its own: a tiny model copies whatever history it is shown.
pub fn judge_messages(state: &DebateState, round: u32, purpose: TurnPurpose, chosen: bool) -> Vec<ChatMessage> {
    judge_messages_as(state, round, purpose, chosen, PanelJudge::CHAIR)
}

/// [`judge_messages`] for judge `judge` of a panel: the rounds before are
/// told with its own answers (a round it gave none is left out), so no
/// judge is anchored to the chair's.
pub fn judge_messages_as(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    chosen: bool,
    judge: PanelJudge,
) -> Vec<ChatMessage> {
    judge_messages_within(state, round, purpose, chosen, judge, None)
}

/// [`judge_messages_as`] with the chosen form's round prompt held to
/// `room` characters where given (the embedded judge's context is small):
/// each argument is quoted up to an equal share of what the rest leaves.
pub fn judge_messages_within(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    chosen: bool,
    judge: PanelJudge,
    room: Option<usize>,
) -> Vec<ChatMessage> {
    judge_messages_keeping(state, round, purpose, (chosen, judge), room, HISTORY_ROUNDS)
}

/// [`judge_messages_within`] (`asked`: the chosen form, and which judge)
/// with at most `kept` earlier rounds shown (fewer than [`HISTORY_ROUNDS`]
/// to fit a server's context).
pub fn judge_messages_keeping(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    asked: (bool, PanelJudge),
    room: Option<usize>,
    kept: usize,
) -> Vec<ChatMessage> {
    let (chosen, judge) = asked;
    let mut messages = Vec::new();
    for r in history(state, round, kept).filter(|_| !chosen) {
        let own = match r.panel.get(&judge) {
            Some(super::panel::vote::Vote::Voted { verdict, .. }) => Some(verdict),
            _ => None,
        };
        let Some(verdict) = (if judge.is_chair() { r.verdict() } else { own }) else { continue };
        messages.push(ChatMessage::user(judge_prompt(state, r, TurnPurpose::Judge)));
        let answer = serde_json::to_string(verdict).unwrap_or_default();
        messages.push(ChatMessage::assistant(answer));
    }
    let Some(current) = state.rounds.iter().find(|r| r.number == round) else {
        return messages;
    };
    // The earlier rounds' brief opens the prompt: a chosen judge's brief
    // takes at most half its room, and the round's arguments what it leaves.
    let most_brief = room.filter(|_| chosen).map(|r| r / 2);
    let brief = earlier::brief_within(state, &left_out(state, round, kept), most_brief);
    let room = room.map(|r| r.saturating_sub(brief.as_ref().map_or(0, |b| b.chars().count())));
    let asked =
        if chosen { chosen_judge_prompt(state, current, purpose, room) } else { judge_prompt(state, current, purpose) };
    messages.push(ChatMessage::user(asked));
    if purpose.is_repair() {
        // The failed attempt and why it failed, so the judge can fix it.
        let failed = current
            .turns
            .iter()
            .rev()
            .find(|t| t.role == Role::Judge && matches!(t.verdict, Some(VerdictStatus::Invalid { .. })));
        if let Some(t) = failed {
            let error = match &t.verdict {
                Some(VerdictStatus::Invalid { error, .. }) => error.as_str(),
                _ => "",
            };
            messages.push(ChatMessage::assistant(head(non_empty_str(&t.text), REPAIR_ECHO_CHARS)));
            let fields = chosen.then(|| chosen_fields(state, current, purpose.is_final()));
            let form = if let Some(fields) = fields.as_deref() {
                fields
            } else if state.scored() && state.map().is_some() {
                "{\"resolved\": …, \"verdict\": \"…\", \"ahead\": \"…\", \"conceded\": \"…\", \"topic\": \"…\", \"heat\": …, \"scores\": {\"advocate\": […], \"skeptic\": […]}, \"claims\": […], \"scorecard\": {\"advocate\": {…}, \"skeptic\": {…}}}"
            } else if state.scored() {
                "{\"resolved\": …, \"verdict\": \"…\", \"ahead\": \"…\", \"conceded\": \"…\", \"topic\": \"…\", \"heat\": …, \"scores\": {\"advocate\": […], \"skeptic\": […]}}"
            } else if state.map().is_some() {
                "{\"resolved\": …, \"verdict\": \"…\", \"ahead\": \"…\", \"conceded\": \"…\", \"topic\": \"…\", \"heat\": …, \"claims\": […], \"scorecard\": {\"advocate\": {…}, \"skeptic\": {…}}}"
            } else {
                "{\"resolved\": …, \"verdict\": \"…\", \"ahead\": \"…\", \"conceded\": \"…\", \"topic\": \"…\", \"heat\": …}"
            };
            messages.push(ChatMessage::user(format!(
                "That answer could not be used: {error}. Reply again with only the JSON object {form} and nothing else."
            )));
        }
    }
    if let (Some(brief), Some(first)) = (brief, messages.first_mut()) {
        first.content = format!("{brief}{}", first.content);
    }
    messages
}

/// The notes a person sent `role` alone for its request in `round`: those
/// its turns there carried, and while `round` is the current one, those
/// still waiting for its next request.
fn seat_notes(state: &DebateState, round: &Round, role: Role) -> Vec<String> {
    let mut notes: Vec<String> = round.notes_for(role).into_iter().map(str::to_string).collect();
    if state.current_round().is_some_and(|r| r.number == round.number) {
        let waiting = state.seat_notes.iter().filter(|n| n.seats.contains(&role)).map(|n| n.text.clone());
        notes.extend(waiting.filter(|w| !notes.contains(w)).collect::<Vec<_>>());
    }
    notes
}

fn judge_prompt(state: &DebateState, round: &Round, purpose: TurnPurpose) -> String {
    let mut out = format!("Proposition: {}\nRound {} of {}.", state.topic, round.number + 1, state.max_rounds);
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!(" This round's question: {}", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("\nThe person running the debate injected this topic: {note}"));
    }
    for note in seat_notes(state, round, Role::Judge) {
        out.push_str(&format!("\nThe person running the debate adds, to you only: {note}"));
    }
    let names = state.side_names();
    if state.free() || state.debaters().len() > 2 {
        out.push_str(&named_arguments(state, round));
    } else {
        let pair = serde_json::to_string(&[read_argument(round, Role::Advocate), read_argument(round, Role::Skeptic)])
            .unwrap_or_default();
        out.push_str(&format!("\n\n[{}, {}]:\n{pair}\n\n", names[0], names[1]));
    }
    if let Some(phase) = state.phase(round.number) {
        out.push_str(&format!("This round's phase: {}.\n", phase.name));
    }
    if state.scored() {
        out.push_str(&format!("{}\n", super::scores::instruction(&names[0], &names[1])));
    }
    if let Some(spec) = state.map() {
        out.push_str(&super::argument_map::instruction(state, round.number, spec));
    }
    if let Some(grounds) = state.grounds() {
        out.push_str(&source_checks(state, round, grounds));
    }
    if purpose.is_final() {
        // Injected during the last round: no round is left to carry it, so the synthesis does.
        for note in &state.pending_injections {
            out.push_str(&format!("The person running the debate asks the final synthesis to consider: {note}\n"));
        }
        let why = if state.force_requested {
            "The person running the debate has asked for a resolution now."
        } else {
            "This is the final round."
        };
        out.push_str(&format!(
            "{why} Set \"resolved\" to true and write the final synthesis in \"verdict\". Answer with the JSON object only."
        ));
    } else {
        out.push_str("Answer with the Verdict JSON object only.");
    }
    out
}

/// More than two debaters' arguments, or free ones', as their judge reads
/// them: each by name, then the final answers and how far they agree, or
/// the issues raised and where each stands.
fn named_arguments(state: &DebateState, round: &Round) -> String {
    let mut out = String::new();
    for &role in state.debaters() {
        let name = state.seat_name(role);
        out.push_str(&format!("\n\nThe {name} argued:\n\"\"\"\n{}\n\"\"\"", read_argument(round, role)));
    }
    out.push_str("\n\n");
    if state.format.as_ref().is_some_and(|f| f.issues) {
        let rows = super::issues::board(state);
        if rows.is_empty() {
            out.push_str("No issue has been raised yet.\n");
        } else {
            out.push_str(&format!(
                "The issues raised so far, with their status before this round:\n{}",
                super::issues::listed(&rows)
            ));
        }
        out.push_str(
            "Rule on every issue in \"issues\": [{\"id\": \"L1\", \"status\": \"open\"}, …]: \"addressed\" when the defender's answer settles it, \"rejected\" when the issue does not hold, \"deferred\" when it is real but can wait, \"open\" otherwise.\n",
        );
    }
    if let Some(tally) = super::vote::of_round(state, round.number).filter(|_| state.final_answers()) {
        out.push_str(&format!(
            "Their final answers: {}. {}\n",
            super::vote::describe(state, &tally),
            if tally.converged() { "They agree." } else { "They do not agree yet." }
        ));
    }
    out
}

/// What each side cited from the source, as checked, and how the judge is
/// to weigh it.
fn source_checks(state: &DebateState, round: &Round, grounds: &str) -> String {
    let mut out = format!("Citations and quotes, checked against {grounds}:\n");
    for &role in state.debaters() {
        let checks = round.turn(role).map(|t| t.checks.as_slice()).unwrap_or_default();
        let said = if checks.is_empty() {
            "nothing cited".to_string()
        } else {
            checks.iter().map(super::grounding::QuoteCheck::describe).collect::<Vec<_>>().join("; ")
        };
        out.push_str(&format!("- the {}: {said}\n", state.seat_name(role)));
    }
    out.push_str(&format!(
        "✓ was found in {grounds}. ≈ is close to {grounds} but not its words. ↩ quotes an earlier turn, not \
         {grounds}. ✗ was not found: an unverified quote or citation counts for nothing.\n\n",
    ));
    out.push_str(&super::grounding::reading::cited(state, round));
    out
}

/// How much of an unusable verdict the repair prompt quotes back: enough to
/// show what went wrong, not a rambling answer that crowds out the round
/// (a small server's context is soon full).
const REPAIR_ECHO_CHARS: usize = 600;

/// The first `max` characters of `text`, marked `…` when cut.
pub(super) fn head(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The rounds before `round` that a role still sees: the latest `kept`
/// (at most [`HISTORY_ROUNDS`]).
fn history(state: &DebateState, round: u32, kept: usize) -> impl Iterator<Item = &Round> {
    let before: Vec<&Round> = state.rounds.iter().filter(|r| r.number < round).collect();
    let skip = before.len().saturating_sub(kept.min(HISTORY_ROUNDS));
    before.into_iter().skip(skip)
}

/// The rounds before `round` that [`history`] leaves out, oldest first.
fn left_out(state: &DebateState, round: u32, kept: usize) -> Vec<&Round> {
    let before: Vec<&Round> = state.rounds.iter().filter(|r| r.number < round).collect();
    let skip = before.len().saturating_sub(kept.min(HISTORY_ROUNDS));
    before.into_iter().take(skip).collect()
}
