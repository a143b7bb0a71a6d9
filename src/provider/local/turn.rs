//! Answering one request on one lane: the prompt templated and fitted to
//! the context, the lane's cache cut back to the prefix the prompt shares
//! with what it last read (the role's system prompt, or a whole earlier
//! prompt) and the rest read, then tokens sampled and streamed until the
//! end of the turn, the token cap, or the consumer going away (a turn that
//! may still look something up writes its one search, sent as a call:
//! `look_up`). The
//! consumer's channel holds one piece, so a consumer that stops reading (a
//! paused debate) stops generation between two tokens, and reading again
//! continues exactly where it stopped.

use super::grammar::Grammar;
use super::llama::KvCache;
use super::look_up;
use super::sampler::{Sampler, Sampling};
use super::shared::{Reply, Shared};
use crate::provider::{ChatRequest, ChatRole, Chunk, FinishReason, ProviderError, Usage};

/// Prompt tokens decoded in one forward pass.
const BATCH: usize = 256;
/// No run of this many tokens appears twice in a prose answer.
const NO_REPEAT_NGRAM: usize = 4;

/// One lane's model state: what it has read.
#[derive(Default)]
pub struct LaneState {
    cache: KvCache,
}

fn local(e: impl std::fmt::Display) -> ProviderError {
    ProviderError::Local(e.to_string())
}

/// Answers `request`, sending its pieces to `reply`.
pub fn answer(
    shared: &Shared,
    lane: &mut LaneState,
    request: &ChatRequest,
    reply: &Reply,
) -> Result<(), ProviderError> {
    let max_tokens = request.max_tokens.max(1) as usize;
    let prompt = prompt_tokens(shared, request, max_tokens)?;
    // A turn that may still look something up opens with its one search (`look_up`), sent as a call.
    let looking_up = look_up::calls(request);
    let mut grammar = match (&request.response_schema, &request.grammar) {
        (Some(schema), _) => Some(shared.grammars.for_schema(&schema.schema).map_err(local)?),
        (None, Some(lark)) => Some(shared.grammars.for_lark(lark).map_err(local)?),
        (None, None) if looking_up => Some(shared.grammars.for_lark(&look_up::grammar(request)).map_err(local)?),
        (None, None) => None,
    };
    let prefilling = shared.prefill.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if reply.is_closed() {
        return Ok(()); // cancelled while another lane held the prompt step
    }
    let mut logits = shared.reading(|| read_prompt(shared, lane, &prompt))?;
    drop(prefilling);
    let _writing = shared.writing();
    // The answer's given start is the answer's first piece.
    if let Some(start) = answer_start(request)
        && reply.blocking_send(Ok(Chunk::Text(start.to_string()))).is_err()
    {
        return Ok(());
    }
    let seed = request.seed.unwrap_or(u64::from(shared.options.seed));
    let mut sampler = Sampler::new(Sampling {
        temperature: request.temperature.unwrap_or(0.7).max(0.0),
        top_k: 40,
        top_p: 0.95,
        repeat_penalty: shared.options.repeat_penalty,
        penalty_window: 64,
        // Prose only: a JSON answer may have to repeat (a quoted sentence, a closing brace); a
        // Lark grammar's prose is prose, its fixed text taken even when it repeats.
        no_repeat_ngram: if request.response_schema.is_some() { 0 } else { NO_REPEAT_NGRAM },
        seed,
    });
    let mut generated: Vec<u32> = Vec::new();
    let mut pending = Vec::new();
    let mut answer = String::new();
    let finish = loop {
        if generated.len() >= max_tokens {
            break FinishReason::Length;
        }
        if reply.is_closed() {
            return Ok(());
        }
        let mask = grammar.as_mut().map(Grammar::mask).transpose().map_err(local)?;
        let Some(token) = sampler.sample(&mut logits, mask.as_ref(), &generated) else {
            return Err(local("the grammar allowed no token"));
        };
        if shared.vocab.ends_turn(token) {
            break FinishReason::Stop;
        }
        if let Some(grammar) = grammar.as_mut() {
            grammar.accept(token).map_err(local)?;
        }
        generated.push(token);
        pending.extend_from_slice(shared.vocab.piece(token));
        let text = take_valid_utf8(&mut pending);
        if !text.is_empty() {
            answer.push_str(&text);
            if !looking_up && reply.blocking_send(Ok(Chunk::Text(text))).is_err() {
                return Ok(());
            }
        }
        if grammar.as_ref().is_some_and(Grammar::is_done) {
            break FinishReason::Stop;
        }
        // Prose ends at a sentence once most of its tokens are spent, not
        // mid-word at the cap: a tiny model seldom ends a turn by itself.
        if grammar.is_none() && generated.len() * 4 >= max_tokens * 3 && ends_sentence(&answer) {
            break FinishReason::Stop;
        }
        logits = forward(shared, lane, &[token])?;
    };
    let tail = String::from_utf8_lossy(&pending).into_owned();
    answer.push_str(&tail);
    let call = looking_up.then(|| look_up::call_of(&answer, look_up::made(request) + 1)).flatten();
    let finish = if call.is_some() { FinishReason::ToolCalls } else { finish };
    if let Some(call) = call {
        if reply.blocking_send(Ok(Chunk::ToolCall(call))).is_err() {
            return Ok(());
        }
    } else if !tail.is_empty() && reply.blocking_send(Ok(Chunk::Text(tail))).is_err() {
        return Ok(());
    }
    let usage = Usage {
        input_tokens: prompt.len() as u64,
        output_tokens: generated.len() as u64,
        cached_input_tokens: 0,
        ..Usage::default()
    };
    let _ = reply.blocking_send(Ok(Chunk::Usage(usage)));
    let _ = reply.blocking_send(Ok(Chunk::Finish(finish)));
    Ok(())
}

/// Reads the prompt after the longest prefix the lane's cache shares with
/// it (at least its last token is read, for the logits) and returns the
/// logits for the first answer token.
fn read_prompt(shared: &Shared, lane: &mut LaneState, prompt: &[u32]) -> Result<Vec<f32>, ProviderError> {
    let shared_prefix = lane.cache.tokens().iter().zip(prompt).take_while(|(a, b)| a == b).count();
    lane.cache.truncate(shared_prefix.min(prompt.len() - 1));
    let mut logits = Vec::new();
    let mut position = lane.cache.tokens().len();
    while position < prompt.len() {
        let stop = (position + BATCH).min(prompt.len());
        logits = forward(shared, lane, &prompt[position..stop])?;
        position = stop;
    }
    Ok(logits)
}

/// Reads `tokens` after what the lane holds; the logits after the last one.
/// A pass that fails leaves the lane empty, never half read.
fn forward(shared: &Shared, lane: &mut LaneState, tokens: &[u32]) -> Result<Vec<f32>, ProviderError> {
    shared.model.forward(&mut lane.cache, tokens, shared.team()).map_err(|e| {
        lane.cache = KvCache::default();
        ran(&e)
    })
}

fn ran(e: &candle_core::Error) -> ProviderError {
    local(format!("the model could not run: {e}"))
}

/// Templates and tokenizes the request, dropping the oldest history until
/// the prompt and the answer fit the context window.
fn prompt_tokens(shared: &Shared, request: &ChatRequest, max_tokens: usize) -> Result<Vec<u32>, ProviderError> {
    let n_ctx = shared.options.n_ctx as usize;
    let budget = n_ctx.saturating_sub(max_tokens);
    let system = request.full_system_prompt();
    let start = answer_start(request);
    let messages = &request.messages[..request.messages.len() - usize::from(start.is_some())];
    let mut skip = 0;
    loop {
        let history = &messages[skip..];
        let mut text = shared.template.render(&system, history).map_err(local)?;
        text.push_str(start.unwrap_or_default());
        let tokens = shared.vocab.encode(&text).map_err(local)?;
        if tokens.is_empty() {
            return Err(local("the prompt is empty"));
        }
        if tokens.len() <= budget {
            return Ok(tokens);
        }
        if history.len() <= 1 {
            return Err(local(format!(
                "the prompt needs {} tokens but the context holds {n_ctx} with {max_tokens} for the answer; raise providers.local.context",
                tokens.len()
            )));
        }
        // Drop the oldest exchange (a user message and its answer).
        skip += 2.min(history.len() - 1);
    }
}

/// Whether prose ends a sentence here: `.`, `!` or `?` after a letter (or
/// a closing quote or bracket), not an ellipsis or a number like `3.`.
fn ends_sentence(text: &str) -> bool {
    let mut tail = text.trim_end_matches([' ', '\n']).chars().rev();
    let (Some(mark), Some(before)) = (tail.next(), tail.next()) else { return false };
    matches!(mark, '.' | '!' | '?') && (before.is_alphabetic() || matches!(before, '"' | ')' | '\u{201d}' | '\''))
}

/// A trailing assistant message: the start of the answer, which the model
/// continues (see `ChatModel::continues_answer`).
fn answer_start(request: &ChatRequest) -> Option<&str> {
    request.messages.last().filter(|m| m.role == ChatRole::Assistant).map(|m| m.content.as_str())
}

/// Takes the longest valid UTF-8 prefix out of `bytes` (a character may be
/// split across two tokens; its first bytes wait for the rest).
fn take_valid_utf8(bytes: &mut Vec<u8>) -> String {
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        // Bytes that can never become valid: replace them rather than stall.
        Err(_) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            bytes.clear();
            return text;
        }
    };
    let rest = bytes.split_off(valid);
    String::from_utf8(std::mem::replace(bytes, rest)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_at_a_mark_after_a_word_not_in_an_ellipsis_or_a_number() {
        assert!(ends_sentence("Cars pollute."));
        assert!(ends_sentence("Is that fair? "));
        assert!(ends_sentence("He said \"no\"."));
        assert!(!ends_sentence("and so..."));
        assert!(!ends_sentence("In 2019 there were 3."));
        assert!(!ends_sentence("Cars pollute"));
    }

    #[test]
    fn utf8_split_across_tokens_waits_for_the_rest() {
        let mut bytes = "a€".as_bytes()[..2].to_vec();
        assert_eq!(take_valid_utf8(&mut bytes), "a");
        bytes.extend(&"€".as_bytes()[1..]);
        assert_eq!(take_valid_utf8(&mut bytes), "€");
        assert!(bytes.is_empty());
    }
}
