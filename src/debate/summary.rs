//! The arbiter's summary of an ended debate, for a person who must decide:
//! the request (the proposition, each round's question and verdict, the last
//! round's arguments and the ending, under `prompts/summary.md`) and the
//! call that streams it, with the debate's retry rules, into a `Summarized`
//! event.

use futures::StreamExt;

use super::prompt::Prompts;
use super::setup::RoleSetup;
use super::state::VerdictStatus;
use super::temperature::{self, Purpose};
use super::{DebateEvent, DebateState};
use crate::provider::retry::{RetryPolicy, TurnItem, with_retry};
use crate::provider::{ChatMessage, ChatRequest, Chunk, Usage};

/// A summary needs room for five short sections.
const LEAST_TOKENS: u32 = 1024;
/// The least answer asked for when the context is tight.
const MOST_SHORT: u32 = 256;
/// The last round's arguments are cut to this many characters each.
const ARGUMENT_CHARS: usize = 4000;

/// What the arbiter is asked: the debate in brief. A model with a small
/// context (the offline one) gets the verdicts without the last round's
/// arguments, and an answer sized to what is left.
pub fn request(state: &DebateState, prompts: &Prompts, judge: &RoleSetup) -> ChatRequest {
    let wanted = judge.max_tokens.max(LEAST_TOKENS);
    let mut brief = debate_brief(state, true);
    let context = judge.context_tokens();
    if let Some(context) = context
        && estimate(&prompts.summary, &brief) + wanted > context
    {
        brief = debate_brief(state, false);
    }
    let max_tokens = match context {
        // Never less than a short answer: a context too small for that is the provider's to say.
        Some(context) => context.saturating_sub(estimate(&prompts.summary, &brief)).min(wanted).max(MOST_SHORT),
        None => wanted,
    };
    ChatRequest {
        model: judge.model_name.clone(),
        system: prompts.summary.clone(),
        messages: vec![ChatMessage::user(brief)],
        temperature: temperature::sent(Purpose::Summary, false, false),
        max_tokens,
        ..ChatRequest::default()
    }
}

/// A rough count of a request's tokens (three characters a token, and a
/// margin for the chat template).
fn estimate(system: &str, brief: &str) -> u32 {
    ((system.chars().count() + brief.chars().count()) / 3 + 64) as u32
}

/// The proposition, each round's question and verdict, the last round's
/// arguments when `arguments`, and how it ended.
fn debate_brief(state: &DebateState, arguments: bool) -> String {
    let mut brief = format!("Proposition: {}\n", state.topic.trim());
    for round in &state.rounds {
        brief.push_str(&format!("\nRound {} question: {}\n", round.number + 1, round.topic.trim()));
        for note in &round.injected {
            brief.push_str(&format!("The person running the debate asked: {}\n", note.trim()));
        }
        match round.turns.iter().rev().find_map(|t| match &t.verdict {
            Some(VerdictStatus::Parsed { verdict }) => Some(verdict),
            _ => None,
        }) {
            Some(verdict) => brief.push_str(&format!("Judge: {}\n", verdict.verdict.trim())),
            None => brief.push_str("Judge: (no verdict)\n"),
        }
    }
    if let Some(last) = state.rounds.last().filter(|_| arguments) {
        brief.push_str("\nThe last round's arguments:\n");
        for &role in state.debaters() {
            let text = last.argument(role).unwrap_or("(no argument)");
            brief.push_str(&format!(
                "\n{}:\n{}\n",
                state.label(role),
                super::prompt::head(text.trim(), ARGUMENT_CHARS)
            ));
        }
    }
    if let Some(finish) = &state.finish {
        brief.push_str(&format!("\nHow it ended: {}\n", finish.outcome.describe()));
    }
    brief
}

/// Streams the summary, handing each piece of text to `on_text` (a retry
/// starts the text again: `on_text` gets `None`), and returns the event that
/// records it.
pub async fn write(
    judge: &RoleSetup,
    request: ChatRequest,
    retry: RetryPolicy,
    mut on_text: impl FnMut(Option<&str>),
) -> anyhow::Result<DebateEvent> {
    let model = request.model.clone();
    let mut stream = with_retry(judge.model.clone(), request, retry);
    let mut text = String::new();
    let mut usage: Option<Usage> = None;
    while let Some(item) = stream.next().await {
        match item.map_err(|e| anyhow::anyhow!("the arbiter's summary failed: {e}"))? {
            TurnItem::Chunk(Chunk::Text(piece)) => {
                on_text(Some(&piece));
                text.push_str(&piece);
            }
            TurnItem::Chunk(Chunk::Usage(u)) => usage = Some(u),
            TurnItem::Retrying { .. } => {
                text.clear();
                on_text(None);
            }
            _ => {}
        }
    }
    anyhow::ensure!(!text.trim().is_empty(), "the arbiter's summary came back empty");
    Ok(DebateEvent::Summarized { model, text: text.trim().to_string(), usage })
}
