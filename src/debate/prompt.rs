//! Builds each role's messages from `prompts/` and the debate state. Every
//! history is derived from the state, so a resumed debate asks the same
//! questions as a live one.

use std::path::Path;

use anyhow::Context;

use super::event::{Role, TurnPurpose};
use super::state::{DebateState, Round, VerdictStatus};
use crate::provider::ChatMessage;

/// Prior rounds each role sees in full; older ones are left out to bound the
/// prompt (the seed kept eight messages).
pub const HISTORY_ROUNDS: usize = 3;

/// The prompt texts, built in and overridable file by file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompts {
    pub system: String,
    pub advocate: String,
    pub skeptic: String,
    pub judge: String,
}

impl Default for Prompts {
    fn default() -> Self {
        Self {
            system: include_str!("../../prompts/system.md").to_string(),
            advocate: include_str!("../../prompts/advocate.md").to_string(),
            skeptic: include_str!("../../prompts/skeptic.md").to_string(),
            judge: include_str!("../../prompts/judge.md").to_string(),
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
            advocate: include_str!("../../prompts/compact/advocate.md").to_string(),
            skeptic: include_str!("../../prompts/compact/skeptic.md").to_string(),
            judge: include_str!("../../prompts/compact/judge.md").to_string(),
        }
    }

    /// `base` with any `system.md`, `advocate.md`, `skeptic.md` or
    /// `judge.md` found in `dir` taking their place.
    pub fn load(base: Self, dir: Option<&Path>) -> anyhow::Result<Self> {
        let mut prompts = base;
        let Some(dir) = dir else { return Ok(prompts) };
        for (name, slot) in [
            ("system.md", &mut prompts.system),
            ("advocate.md", &mut prompts.advocate),
            ("skeptic.md", &mut prompts.skeptic),
            ("judge.md", &mut prompts.judge),
        ] {
            let path = dir.join(name);
            if path.exists() {
                *slot = std::fs::read_to_string(&path)
                    .with_context(|| format!("could not read the prompt file {}", path.display()))?;
            }
        }
        Ok(prompts)
    }

    /// The system prompt for a role: the shared rules, then the role's brief.
    pub fn system_for(&self, role: Role) -> String {
        let brief = match role {
            Role::Advocate => &self.advocate,
            Role::Skeptic => &self.skeptic,
            Role::Judge => &self.judge,
        };
        format!("{}\n\n{}", self.system.trim_end(), brief.trim_end())
    }
}

/// The control line the seed sends on its control channel.
pub fn control_line(heat: f32) -> String {
    format!("{{\"set_temp\": {heat:.2}}}")
}

/// The messages for a debater's turn in `round`.
pub fn debater_messages(state: &DebateState, role: Role, round: u32) -> Vec<ChatMessage> {
    let mut messages = Vec::new();
    for r in history(state, round) {
        let Some(argument) = r.argument(role) else {
            continue;
        };
        messages.push(ChatMessage::user(debater_prompt(state, role, r)));
        messages.push(ChatMessage::assistant(non_empty(argument)));
    }
    if let Some(r) = state.rounds.iter().find(|r| r.number == round) {
        messages.push(ChatMessage::user(debater_prompt(state, role, r)));
    }
    messages
}

fn debater_prompt(state: &DebateState, role: Role, round: &Round) -> String {
    let mut out = control_line(round.heat);
    out.push_str(&format!("\n\nProposition: {}\n", state.topic));
    let previous = round.number.checked_sub(1).and_then(|n| state.rounds.iter().find(|r| r.number == n));
    if let Some(prev) = previous {
        if let Some(verdict) = prev.verdict() {
            out.push_str(&format!("\nThe judge on round {}: {}\n", prev.number + 1, verdict.verdict));
        }
        if let Some(opponent) = role.opponent() {
            let said = read_argument(prev, opponent);
            out.push_str(&format!("\nThe {} argued last round:\n\"\"\"\n{said}\n\"\"\"\n", opponent.key()));
        }
    }
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!("\nThis round's question: {}\n", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("\nModerator's note: {note}\n"));
    }
    let side = match role {
        Role::Advocate => "Give reasons why this proposition is RIGHT.",
        _ => "Give reasons why this proposition is WRONG.",
    };
    let reply = if previous.is_some() { " Answer your opponent's points first." } else { "" };
    out.push_str(&format!("\nRound {} of {}. {side}{reply}", round.number + 1, state.max_rounds));
    out
}

/// The messages for a judge turn in `round` with the given purpose.
pub fn judge_messages(state: &DebateState, round: u32, purpose: TurnPurpose) -> Vec<ChatMessage> {
    let mut messages = Vec::new();
    for r in history(state, round) {
        let Some(verdict) = r.verdict() else { continue };
        messages.push(ChatMessage::user(judge_prompt(state, r, TurnPurpose::Judge)));
        let answer = serde_json::to_string(verdict).unwrap_or_default();
        messages.push(ChatMessage::assistant(answer));
    }
    let Some(current) = state.rounds.iter().find(|r| r.number == round) else {
        return messages;
    };
    messages.push(ChatMessage::user(judge_prompt(state, current, purpose)));
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
            messages.push(ChatMessage::user(format!(
                "That answer could not be used: {error}. Reply again with only the JSON object \
                 {{\"resolved\": …, \"verdict\": \"…\", \"topic\": \"…\", \"heat\": …}} and nothing else."
            )));
        }
    }
    messages
}

fn judge_prompt(state: &DebateState, round: &Round, purpose: TurnPurpose) -> String {
    let pair = serde_json::to_string(&[read_argument(round, Role::Advocate), read_argument(round, Role::Skeptic)])
        .unwrap_or_default();
    let mut out = format!("Proposition: {}\nRound {} of {}.", state.topic, round.number + 1, state.max_rounds);
    if round.topic.trim() != state.topic.trim() {
        out.push_str(&format!(" This round's question: {}", round.topic));
    }
    for note in &round.injected {
        out.push_str(&format!("\nThe person running the debate injected this topic: {note}"));
    }
    out.push_str(&format!("\n\n[advocate, skeptic]:\n{pair}\n\n"));
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

/// A settled argument as another role reads it, marked where it stopped at
/// the token limit (so the judge does not take a cut for a conclusion).
fn read_argument(round: &Round, role: Role) -> String {
    let Some(turn) = round.turn(role).filter(|t| t.is_settled()) else { return "(no argument)".into() };
    let text = non_empty_str(&turn.text).trim();
    match turn.truncated_at {
        Some(tokens) => format!("{text} [cut off here: the argument reached its limit of {tokens} tokens]"),
        None => text.to_string(),
    }
}

/// How much of an unusable verdict the repair prompt quotes back: enough to
/// show what went wrong, not a rambling answer that crowds out the round
/// (a small server's context is soon full).
const REPAIR_ECHO_CHARS: usize = 600;

/// The first `max` characters of `text`, marked `…` when cut.
fn head(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The rounds before `round` that a role still sees.
fn history(state: &DebateState, round: u32) -> impl Iterator<Item = &Round> {
    let before: Vec<&Round> = state.rounds.iter().filter(|r| r.number < round).collect();
    let skip = before.len().saturating_sub(HISTORY_ROUNDS);
    before.into_iter().skip(skip)
}

fn non_empty(text: &str) -> String {
    non_empty_str(text).to_string()
}

fn non_empty_str(text: &str) -> &str {
    if text.trim().is_empty() { "(no argument)" } else { text }
}
