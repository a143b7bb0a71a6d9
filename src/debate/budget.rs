//! What a debate has spent against its budget (`debate.budget_tokens`,
//! `debate.budget_usd`): under it, past 80 % of it (said once), or at it
//! (the debate pauses, once; resumed, it goes on past it).

use super::DebateState;
use super::cost;
use super::setup::Budget;
use crate::words::thousands;

/// Where the debate stands against its budget.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    Under,
    /// Past 80 % of a limit: the sentence that says so.
    Near(String),
    /// At or past a limit: what was spent against which limit.
    Reached(String),
}

/// The share of a limit past which the person is told.
const WARN_AT: f64 = 0.8;

/// What the warning says after its share: "85 % of the budget spent: …".
const WARNING: &str = " % of the budget spent: ";

/// Whether the notice `message` is the budget's warning.
pub fn is_warning(message: &str) -> bool {
    message.split_once(WARNING).is_some_and(|(share, _)| share.parse::<u32>().is_ok())
}

/// Where `state` stands against `budget`. A debate that already reached
/// it and went on stands under it from then on.
pub fn standing(state: &DebateState, budget: &Budget) -> Standing {
    // The engine asks after every event: with no budget, nothing is summed.
    if state.budget_reached || (budget.tokens.is_none() && budget.usd.is_none()) {
        return Standing::Under;
    }
    let tokens = cost::tokens(state).map_or(0, |(input, output)| input + output);
    let usd = budget.usd.and_then(|_| cost::cost(state, &budget.prices));
    let mut shares = Vec::new();
    if let Some(limit) = budget.tokens {
        let said = format!("{} tokens of the {} budgeted (debate.budget_tokens)", thousands(tokens), thousands(limit));
        shares.push((tokens as f64 / limit as f64, said));
    }
    if let (Some(limit), Some(spent)) = (budget.usd, usd) {
        let (spent_said, limit_said) = (crate::words::dollars(spent), crate::words::dollars(limit));
        shares.push((spent / limit, format!("{spent_said} of the {limit_said} budgeted (debate.budget_usd)")));
    }
    let Some((share, said)) = shares.into_iter().max_by(|a, b| a.0.total_cmp(&b.0)) else { return Standing::Under };
    if share >= 1.0 {
        Standing::Reached(said)
    } else if share >= WARN_AT {
        Standing::Near(format!("{:.0}{WARNING}{said}", share * 100.0))
    } else {
        Standing::Under
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::cost::{Price, Prices};
    use crate::debate::event::Participant;
    use crate::debate::{DebateEvent, Heat, Role, TurnPurpose};
    use crate::provider::Usage;

    /// A debate whose advocate used `input` and `output` tokens.
    fn spent(input: u64, output: u64) -> DebateState {
        let participants = Role::DUEL.iter().map(|&role| Participant::new(role, "openai", "m")).collect();
        DebateState::from_events(&[
            DebateEvent::Started { topic: "T".into(), max_rounds: 3, initial_heat: Heat::new(0.7), participants },
            DebateEvent::RoundStarted { round: 0, topic: "T".into(), heat: Heat::new(0.7), injected: vec![] },
            DebateEvent::TurnStarted { round: 0, role: Role::Advocate, purpose: TurnPurpose::Argue, temperature: None },
            DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text: "For.".into(),
                usage: Some(Usage {
                    input_tokens: input,
                    output_tokens: output,
                    cached_input_tokens: 0,
                    ..Usage::default()
                }),
                truncated_at: None,
                possibly_cut: false,
            },
        ])
    }

    fn tokens(limit: u64) -> Budget {
        Budget { tokens: Some(limit), ..Budget::default() }
    }

    #[test]
    fn tokens_under_near_and_at_the_limit() {
        assert_eq!(standing(&spent(500, 200), &tokens(1000)), Standing::Under);
        let Standing::Near(said) = standing(&spent(600, 250), &tokens(1000)) else { panic!("near") };
        assert_eq!(said, "85 % of the budget spent: 850 tokens of the 1,000 budgeted (debate.budget_tokens)");
        let Standing::Reached(said) = standing(&spent(900, 200), &tokens(1000)) else { panic!("reached") };
        assert_eq!(said, "1,100 tokens of the 1,000 budgeted (debate.budget_tokens)");
    }

    #[test]
    fn dollars_count_only_with_prices_and_the_nearer_limit_speaks() {
        let price = Price { input: 3.0, output: 15.0, cached_input: None };
        let priced = Prices { seats: Role::DUEL.iter().map(|&r| (r, price)).collect(), judges: vec![] };
        let budget = Budget { tokens: Some(1_000_000), usd: Some(0.01), prices: priced };
        // 1,000 in at $3/M and 500 out at $15/M: $0.0105, past $0.01; tokens are far from theirs.
        let Standing::Reached(said) = standing(&spent(1000, 500), &budget) else { panic!("reached") };
        assert!(said.contains("$0.01 of the $0.01 budgeted (debate.budget_usd)"), "{said}");
        // No prices: dollars cannot be counted, and nothing is guessed.
        let unpriced = Budget { usd: Some(0.01), ..Budget::default() };
        assert_eq!(standing(&spent(1000, 500), &unpriced), Standing::Under);
    }

    #[test]
    fn a_debate_that_went_on_past_its_budget_is_not_stopped_again() {
        let mut state = spent(5000, 5000);
        state.apply(&DebateEvent::BudgetReached { spent: "…".into() });
        assert_eq!(standing(&state, &tokens(1000)), Standing::Under);
    }
}
