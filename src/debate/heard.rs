//! What one item a call streams means, as a pure function of the folded
//! state, the call and what its model is: a turn's text and reasoning shown
//! as they come, and its wait in heat's own queue for one of a server's
//! slots; a vote's or a swap check's answer collected unseen; the usage and
//! the finish kept for the answer step; a retried attempt's answer
//! discarded; and what the endpoint taught (one request at a time, a weaker
//! form of structured output, a parameter it refuses) recorded whichever
//! call taught it. The engine applies what this returns.

use super::call::Call;
use super::event::DebateEvent;
use super::notices::{self, served_name};
use super::state::DebateState;
use crate::provider::retry::TurnItem;
use crate::provider::{Adaptation, Chunk, FinishReason, StructuredOutput, Usage};

/// What the answering model is, as far as the stream's meaning goes.
#[derive(Debug, Clone, Copy)]
pub struct Answering<'a> {
    /// The endpoint its requests go to; `None` in-process.
    pub endpoint: Option<&'a str>,
    /// Its provider's name, as messages say it.
    pub provider: &'a str,
    /// The model it was asked for.
    pub model: &'a str,
}

/// What the engine does with one streamed item.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// Record (and show) this event.
    Emit(DebateEvent),
    /// Add to a vote's or a swap check's answer.
    Text(String),
    Usage(Usage),
    Finish(FinishReason),
    /// A tool call a debater's answer made, whole.
    ToolCall(crate::provider::ToolCall),
    /// A retried attempt: what the call answered so far is discarded.
    Restart,
    /// The seat's model refused a parameter: it is not sent again, or is
    /// sent in the form the model takes.
    Refused(Refusal),
}

/// A parameter a seat's model refused, learnt once a debate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// No temperature is sent (a reasoning model; extended thinking).
    Temperature,
    /// The answer's room goes as `max_completion_tokens`, not `max_tokens`
    /// (OpenAI's reasoning models).
    MaxTokens,
    /// No `reasoning_effort` is sent.
    ReasoningEffort,
    /// No tools are offered: the seat argues from the passages it is given.
    Tools,
}

impl Refusal {
    /// The refusal a dropped parameter (as `retry` names it) teaches.
    pub fn of(param: &str) -> Option<Self> {
        match param {
            "temperature" => Some(Self::Temperature),
            "max_tokens" => Some(Self::MaxTokens),
            "reasoning_effort" => Some(Self::ReasoningEffort),
            "tools" => Some(Self::Tools),
            _ => None,
        }
    }
}

/// What `item`, streamed by `call`'s model (`answering`), means: at most
/// two things, in order (nothing is allocated for them: this runs for every
/// streamed piece).
pub fn heard(
    state: &DebateState,
    call: Call,
    answering: Answering<'_>,
    item: TurnItem,
) -> impl Iterator<Item = Heard> + use<> {
    let (first, then) = match item {
        TurnItem::Chunk(chunk) => (chunk_heard(state, call, answering, chunk), None),
        TurnItem::Retrying { attempt, max_retries, delay, error } => {
            let shown = match call {
                Call::Turn { round, role } => Some(Heard::Emit(DebateEvent::TurnRetrying {
                    round,
                    role,
                    attempt,
                    max_retries,
                    delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                    reason: error.to_string(),
                })),
                Call::Vote { .. } | Call::SwapCheck { .. } | Call::Brief { .. } => None,
            };
            (Some(Heard::Restart), shown)
        }
        TurnItem::ParameterDropped { param, message } => {
            let note = notices::parameter_dropped(answering.model, &param, &message);
            let refused = Refusal::of(&param).map(Heard::Refused);
            (refused, Some(Heard::Emit(DebateEvent::Notice { message: note })))
        }
        TurnItem::StructuredSteppedDown { from, to, message } => {
            (stepped_down(state, answering, from, to, &message), None)
        }
    };
    first.into_iter().chain(then)
}

/// The endpoint took a weaker form of structured output than it was sent:
/// recorded, unless another call learnt it first.
fn stepped_down(
    state: &DebateState,
    answering: Answering<'_>,
    from: StructuredOutput,
    to: StructuredOutput,
    message: &str,
) -> Option<Heard> {
    let endpoint = answering.endpoint?;
    let said = notices::stepped_down(answering.provider, endpoint, from, to);
    let learnt = learnt(state, endpoint, Adaptation::StructuredOutput { form: to }, said)?;
    tracing::warn!(%endpoint, %message, "structured output refused");
    Some(Heard::Emit(learnt))
}

/// What `endpoint` taught, recorded with the sentence that says it, unless
/// the state knows it already (another call learnt it first).
pub fn learnt(state: &DebateState, endpoint: &str, adaptation: Adaptation, message: String) -> Option<DebateEvent> {
    if state.knows(endpoint, &adaptation) {
        return None;
    }
    Some(DebateEvent::EndpointAdapted { endpoint: endpoint.to_string(), adaptation, message })
}

fn chunk_heard(state: &DebateState, call: Call, answering: Answering<'_>, chunk: Chunk) -> Option<Heard> {
    Some(match (call, chunk) {
        (_, Chunk::Usage(usage)) => Heard::Usage(usage),
        (Call::Turn { .. }, Chunk::Finish(reason)) => Heard::Finish(reason),
        (Call::Turn { round, role }, Chunk::Text(text)) if !text.is_empty() => {
            Heard::Emit(DebateEvent::Delta { round, role, text })
        }
        (Call::Turn { round, role }, Chunk::Reasoning(text)) if !text.is_empty() => {
            Heard::Emit(DebateEvent::Reasoning { round, role, text })
        }
        (Call::Turn { role, .. }, Chunk::Model(model)) => {
            let model = served_name(&model);
            // A gateway that routes `provider,model` may name either part back: still the model asked for.
            let routed =
                |asked: &str| asked.split_once(',').is_some_and(|(provider, name)| model == name || model == provider);
            let known = state.participant(role).is_some_and(|p| {
                served_name(&p.model) == model || p.served.as_ref() == Some(&model) || routed(&p.model)
            });
            if known {
                return None;
            }
            Heard::Emit(DebateEvent::ModelReported { role, model })
        }
        (_, Chunk::Adapted(adaptation)) => {
            let endpoint = answering.endpoint?.to_string();
            let message = notices::adapted(&endpoint, &adaptation);
            Heard::Emit(DebateEvent::EndpointAdapted { endpoint, adaptation, message })
        }
        (Call::Turn { .. }, Chunk::ToolCall(call)) => Heard::ToolCall(call),
        (Call::Turn { round, role }, Chunk::Queued) => Heard::Emit(DebateEvent::TurnQueued { round, role }),
        (Call::Turn { round, role }, Chunk::Sent) => Heard::Emit(DebateEvent::TurnSent { round, role }),
        (Call::Vote { .. } | Call::SwapCheck { .. } | Call::Brief { .. }, Chunk::Text(text)) => Heard::Text(text),
        _ => return None,
    })
}
