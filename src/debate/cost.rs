//! What a debate used and cost: tokens summed over its turns, and a price in
//! US dollars from per-role prices (per million tokens), never guessed.

use super::panel::Vote;
use super::swap::SwapCheck;
use super::{DebateState, Role};
use crate::provider::Usage;

/// One role's prices, in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    /// Input read from the provider's prompt cache; unset: the input price.
    pub cached_input: Option<f64>,
}

/// Every model call's usage with the role it was asked of: each turn's,
/// each swap check's and each panel vote's (the judge's model answers them).
pub fn usages(state: &DebateState) -> impl Iterator<Item = (Role, Usage)> + '_ {
    state.rounds.iter().flat_map(|r| {
        let turns = r.turns.iter().filter_map(|t| Some((t.role, t.usage?)));
        let swap = r.swap.as_ref().and_then(SwapCheck::usage);
        let votes = r.panel.values().filter_map(Vote::usage);
        turns.chain(swap.into_iter().chain(votes).map(|u| (Role::Judge, u)))
    })
}

/// Input and output tokens over every call that reported usage, or `None`
/// when none did.
pub fn tokens(state: &DebateState) -> Option<(u64, u64)> {
    let mut seen = false;
    let (mut input, mut output) = (0, 0);
    for (_, usage) in usages(state) {
        seen = true;
        input += usage.input_tokens;
        output += usage.output_tokens;
    }
    seen.then_some((input, output))
}

/// Of the input tokens, how many the providers read from their prompt cache.
pub fn cached_input(state: &DebateState) -> u64 {
    usages(state).map(|(_, u)| u.cached_input_tokens).sum()
}

/// What the debate cost: only when every role that reported usage has a
/// price (no guessing), else `None`.
pub fn cost(state: &DebateState, price: impl Fn(Role) -> Option<Price>) -> Option<f64> {
    let mut total = 0.0;
    let mut seen = false;
    for (role, usage) in usages(state) {
        let price = price(role)?;
        let cached = usage.cached_input_tokens.min(usage.input_tokens);
        let fresh = usage.input_tokens - cached;
        let cached_cost = cached as f64 * price.cached_input.unwrap_or(price.input);
        total += (fresh as f64 * price.input + cached_cost + usage.output_tokens as f64 * price.output) / 1e6;
        seen = true;
    }
    seen.then_some(total)
}
