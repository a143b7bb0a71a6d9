//! What a debate used and cost: tokens summed over its turns, and a price in
//! US dollars from per-role prices (per million tokens), or the cost a call's
//! runner reported (an agent CLI's), never guessed.

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

impl Payer {
    /// Its name in a table: the seat's label, or the panel judge's name
    /// ("Judge 2 (gpt-4.1-mini)"); not cleaned.
    pub fn name(self, state: &DebateState) -> String {
        match self {
            Payer::Seat(role) => state.label(role).to_string(),
            Payer::PanelJudge(judge) => panel::judge_name(state, judge),
        }
    }
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
/// seat), each swap check's (the chair's model answers it), each panel
/// vote's (its judge) and each brief's (its debater).
pub fn usages(state: &DebateState) -> impl Iterator<Item = (Payer, Usage)> + '_ {
    calls(state).map(|(_, payer, usage)| (payer, usage))
}

/// [`usages`], each with the round (from 0) its call was in.
pub fn calls(state: &DebateState) -> impl Iterator<Item = (u32, Payer, Usage)> + '_ {
    state.rounds.iter().flat_map(|r| {
        let turns = r.turns.iter().filter_map(|t| Some((Payer::Seat(t.role), t.usage?)));
        let swap = r.swap.as_ref().and_then(SwapCheck::usage).map(|u| (Payer::Seat(Role::Judge), u));
        let votes = r.panel.iter().filter_map(|(&judge, vote)| Some((Payer::PanelJudge(judge), vote.usage()?)));
        let briefs = r.briefs.iter().filter_map(|(&role, brief)| Some((Payer::Seat(role), brief.usage()?)));
        turns.chain(swap).chain(votes).chain(briefs).map(|(payer, usage)| (r.number, payer, usage))
    })
}

/// What some calls used and cost.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spent {
    pub calls: u32,
    pub input: u64,
    /// Of `input`, read from the provider's prompt cache.
    pub cached: u64,
    pub output: u64,
    /// In US dollars; `None` when a call among them has no price (never guessed).
    pub cost: Option<f64>,
}

impl Spent {
    /// Both together; a cost only where both have one.
    #[must_use]
    pub fn plus(self, other: &Spent) -> Spent {
        let cost = match (self.calls, self.cost, other.cost) {
            (0, _, cost) => cost,
            (_, Some(x), Some(y)) => Some(x + y),
            _ => None,
        };
        Spent {
            calls: self.calls + other.calls,
            input: self.input + other.input,
            cached: self.cached + other.cached,
            output: self.output + other.output,
            cost,
        }
    }

    /// Adds one call, priced at `price` if it has one.
    pub fn add(&mut self, usage: &Usage, price: Option<Price>) {
        let call = Spent {
            calls: 1,
            input: usage.input_tokens,
            cached: usage.cached_input_tokens.min(usage.input_tokens),
            output: usage.output_tokens,
            cost: usage.reported_usd().or_else(|| price.map(|price| dollars(usage, price))),
        };
        *self = self.plus(&call);
    }
}

/// Each payer's calls, seats in screen order then a panel's judges by
/// number; only those that reported usage.
pub fn by_payer(state: &DebateState, prices: &Prices) -> Vec<(Payer, Spent)> {
    let mut spent: Vec<(Payer, Spent)> = Vec::new();
    for (_, payer, usage) in calls(state) {
        if !spent.iter().any(|(p, _)| *p == payer) {
            spent.push((payer, Spent::default()));
        }
        if let Some((_, s)) = spent.iter_mut().find(|(p, _)| *p == payer) {
            s.add(&usage, prices.of(state, payer));
        }
    }
    spent.sort_by_key(|(payer, _)| match payer {
        Payer::Seat(role) => (0, role.position() as u32),
        Payer::PanelJudge(judge) => (1, judge.number()),
    });
    spent
}

/// Each round's calls (round from 0), in order; only rounds that reported usage.
pub fn by_round(state: &DebateState, prices: &Prices) -> Vec<(u32, Spent)> {
    let mut spent: Vec<(u32, Spent)> = Vec::new();
    for (round, payer, usage) in calls(state) {
        if spent.last().is_none_or(|(r, _)| *r != round) {
            spent.push((round, Spent::default()));
        }
        if let Some((_, s)) = spent.last_mut() {
            s.add(&usage, prices.of(state, payer));
        }
    }
    spent
}

/// One call's cost at `price` (per million tokens; cached input at its own price).
fn dollars(usage: &Usage, price: Price) -> f64 {
    let cached = usage.cached_input_tokens.min(usage.input_tokens);
    let fresh = usage.input_tokens - cached;
    let cached_cost = cached as f64 * price.cached_input.unwrap_or(price.input);
    (fresh as f64 * price.input + cached_cost + usage.output_tokens as f64 * price.output) / 1e6
}

/// The payers any of whose calls cost what its runner reported (an agent
/// CLI's own reckoning), in the order [`by_payer`] lists them.
pub fn reported(state: &DebateState) -> Vec<Payer> {
    let mut payers: Vec<Payer> = Vec::new();
    for (payer, usage) in usages(state) {
        if usage.reported_micro_usd.is_some() && !payers.contains(&payer) {
            payers.push(payer);
        }
    }
    payers
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
        // What a CLI reported it cost wins over a price heat would apply.
        total += match usage.reported_usd() {
            Some(reported) => reported,
            None => dollars(&usage, prices.of(state, payer)?),
        };
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
        voted_with(models, Usage { output_tokens: 1_000_000, ..Usage::default() })
    }

    /// [`voted`], judge 2's vote having used `usage`.
    fn voted_with(models: &[&str], usage: Usage) -> DebateState {
        let mut format = crate::format::Catalog::load(None).find("oxford").unwrap().record.clone();
        format.panel_models = models.iter().map(|m| (*m).to_string()).collect();
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
    fn spending_is_split_by_payer_and_by_round_and_an_unpriced_payer_stays_unknown() {
        let chair = Price { input: 0.0, output: 2.0, cached_input: None };
        let state = voted(&["claude-opus-4-1"]);
        let prices = Prices { seats: vec![(Role::Judge, chair)], judges: Vec::new() };
        let payers = by_payer(&state, &prices);
        assert_eq!(payers.len(), 1);
        assert_eq!(payers[0].0, Payer::PanelJudge(PanelJudge(2)));
        assert_eq!(
            (payers[0].1.calls, payers[0].1.output, payers[0].1.cost),
            (1, 1_000_000, None),
            "no price: unknown"
        );
        let on_chair = by_payer(&voted(&[]), &prices);
        assert_eq!(on_chair[0].1.cost, Some(2.0), "on the chair's model, at the chair's price");
        let rounds = by_round(&voted(&[]), &prices);
        assert_eq!(rounds.iter().map(|(r, s)| (*r, s.calls)).collect::<Vec<_>>(), [(0, 1)]);
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

    #[test]
    fn a_cost_the_cli_reported_wins_over_a_price_and_is_known_without_one() {
        let reckoned = Usage { output_tokens: 1_000_000, reported_micro_usd: Some(12_500), ..Usage::default() };
        let state = voted_with(&["claude-opus-4-1"], reckoned);
        let none = Prices::default();
        assert_eq!(cost(&state, &none), Some(0.0125), "reported: known though no price is set");
        let priced =
            Prices { judges: vec![(PanelJudge(2), Price { input: 0.0, output: 5.0, cached_input: None })], ..none };
        assert_eq!(cost(&state, &priced), Some(0.0125), "the reported cost wins over the price");
        assert_eq!(by_payer(&state, &priced)[0].1.cost, Some(0.0125));
        assert_eq!(reported(&state), [Payer::PanelJudge(PanelJudge(2))], "said as the CLI's reckoning");
        assert!(reported(&voted(&[])).is_empty());
    }
}
