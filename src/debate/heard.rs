//! What one item a call streams means, as a pure function of the folded
//! state, the call and what its model is: a turn's text and reasoning shown
//! as they come, and its wait in heat's own queue for one of a server's
//! slots; a vote's or a swap check's answer collected unseen; the usage and
//! the finish kept for the answer step; a retried attempt's answer
//! discarded; and what the endpoint taught (one request at a time, a weaker
//! form of structured output) or the seat's model refused (a parameter)
//! recorded once, whichever call taught it. The engine applies what this
//! returns.

use super::call::Call;
use super::event::{DebateEvent, Refusal};
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
            // Recorded the first time, whichever of the seat's calls met it: no later request carries it.
            let role = call.role();
            let refused = Refusal::of(&param)
                .filter(|&what| !state.refuses(role, what))
                .map(|what| Heard::Emit(DebateEvent::ParameterRefused { role, what }));
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
