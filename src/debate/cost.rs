//! What a debate used and cost: tokens summed over its turns, and a price in
//! US dollars from per-role prices (per million tokens), never guessed.

use super::panel;
use super::seat::PanelJudge;
use super::swap::check::SwapCheck;
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

/// Who a model call is priced as: a seat, or a panel's judge 2, 3, ….
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payer {
    Seat(Role),
    PanelJudge(PanelJudge),
}

/// The prices configured: each seat's, and those of a panel's judges 2 to
/// 5 that have their own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prices {
    pub seats: Vec<(Role, Price)>,
    pub judges: Vec<(PanelJudge, Price)>,
}

impl Prices {
    /// What `payer`'s calls cost in `state`: a panel judge's own price, or,
    /// for a judge asked on the chair's provider and model, the chair's;
    /// `None` for a judge on a model of its own with no price.
    pub fn of(&self, state: &DebateState, payer: Payer) -> Option<Price> {
        let seat = |role: Role| self.seats.iter().find(|(r, _)| *r == role).map(|(_, p)| *p);
        match payer {
            Payer::Seat(role) => seat(role),
            Payer::PanelJudge(judge) => {
                let own = self.judges.iter().find(|(j, _)| *j == judge).map(|(_, p)| *p);
                let as_chair = panel::model_of(state, judge).is_none() && panel::provider_of(state, judge).is_none();
                own.or_else(|| as_chair.then(|| seat(Role::Judge)).flatten())
            }
        }
    }
}

/// Every model call's usage with who it is priced as: each turn's (its
/// seat), each swap check's (the chair's model answers it) and each panel
/// vote's (its judge).
pub fn usages(state: &DebateState) -> impl Iterator<Item = (Payer, Usage)> + '_ {
    state.rounds.iter().flat_map(|r| {
        let turns = r.turns.iter().filter_map(|t| Some((Payer::Seat(t.role), t.usage?)));
        let swap = r.swap.as_ref().and_then(SwapCheck::usage).map(|u| (Payer::Seat(Role::Judge), u));
        let votes = r.panel.iter().filter_map(|(&judge, vote)| Some((Payer::PanelJudge(judge), vote.usage()?)));
        turns.chain(swap).chain(votes)
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

/// What the debate cost: only when every call that reported usage has a
/// price (no guessing), else `None`.
pub fn cost(state: &DebateState, prices: &Prices) -> Option<f64> {
    let mut total = 0.0;
    let mut seen = false;
    for (payer, usage) in usages(state) {
        let price = prices.of(state, payer)?;
        let cached = usage.cached_input_tokens.min(usage.input_tokens);
        let fresh = usage.input_tokens - cached;
        let cached_cost = cached as f64 * price.cached_input.unwrap_or(price.input);
        total += (fresh as f64 * price.input + cached_cost + usage.output_tokens as f64 * price.output) / 1e6;
        seen = true;
    }
    seen.then_some(total)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::debate::{DebateEvent, Heat, Verdict};

    /// A one-round Oxford debate whose judge 2 voted with 1,000,000 output
    /// tokens; `models` names the panel's other judges' models.
    fn voted(models: &[&str]) -> DebateState {
        let mut format = crate::format::Catalog::load(None).find("oxford").unwrap().record.clone();
        format.panel_models = models.iter().map(|m| (*m).to_string()).collect();
        let usage = Usage { output_tokens: 1_000_000, ..Usage::default() };
        DebateState::from_events(&[
            DebateEvent::Started {
                topic: "t".into(),
                max_rounds: 1,
                initial_heat: Heat::new(0.9),
                participants: Vec::new(),
            },
            DebateEvent::Formatted { format: Box::new(format) },
            DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.9), injected: Vec::new() },
            DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) },
            DebateEvent::PanelVoted { round: 0, judge: PanelJudge(2), verdict: Verdict::default(), usage: Some(usage) },
        ])
    }

    #[test]
    fn a_panel_judge_on_the_chairs_model_costs_the_chairs_price_and_one_on_its_own_its_own() {
        let chair = Price { input: 0.0, output: 2.0, cached_input: None };
        let own = Price { input: 0.0, output: 5.0, cached_input: None };
        let prices = Prices { seats: vec![(Role::Judge, chair)], judges: Vec::new() };
        assert_eq!(cost(&voted(&[]), &prices), Some(2.0), "judge 2 sits on the chair's model");
        assert_eq!(cost(&voted(&["claude-opus-4-1"]), &prices), None, "a model of its own with no price: unknown");
        let with_own = Prices { judges: vec![(PanelJudge(2), own)], ..prices };
        assert_eq!(cost(&voted(&["claude-opus-4-1"]), &with_own), Some(5.0));
        assert_eq!(cost(&voted(&[]), &with_own), Some(5.0), "its own price wins over the chair's");
    }
}
