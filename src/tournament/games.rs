//! A stored debate read as the statistics read it ([`Game`]): who argued
//! each side on which model, who judged, whom the judge last named ahead,
//! how many words each side wrote, the swap checks and their flips, and
//! the room's last majority.

use super::stats::{Game, Pick};
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::sides::Ahead;
use crate::debate::{DebateState, Role};

/// A seat's model as `--seat` names it: `openai:gpt-4.1`.
fn model_of(state: &DebateState, role: Role) -> Option<String> {
    state.participant(role).map(|p| format!("{}:{}", p.provider, p.model))
}

fn pick(side: Option<Role>) -> Pick {
    match side {
        Some(Role::Advocate) => Pick::Advocate,
        Some(Role::Skeptic) => Pick::Skeptic,
        _ => Pick::Even,
    }
}

/// `state` (session `session`) as a game; `None` when it has no advocate
/// and skeptic (not a debate the statistics can count).
pub fn game(session: &str, state: &DebateState) -> Option<Game> {
    let advocate = model_of(state, Role::Advocate)?;
    let skeptic = model_of(state, Role::Skeptic)?;
    let judge = model_of(state, Role::Judge).unwrap_or_default();
    let winner = state.rounds.iter().rev().find_map(|r| r.verdict()?.ahead).map(|a| match a {
        Ahead::Advocate => Pick::Advocate,
        Ahead::Skeptic => Pick::Skeptic,
        Ahead::Even => Pick::Even,
    });
    let words = |role: Role| -> u64 {
        let count =
            state.rounds.iter().filter_map(|r| r.argument(role)).map(|t| t.split_whitespace().count()).sum::<usize>();
        u64::try_from(count).unwrap_or(u64::MAX)
    };
    let answered = state.rounds.iter().filter_map(|r| match &r.swap {
        Some(SwapCheck::Answered { flips, .. }) => Some(*flips),
        _ => None,
    });
    let (mut swap_checks, mut swap_flips) = (0, 0);
    for flips in answered {
        swap_checks += 1;
        swap_flips += u32::from(flips);
    }
    let room = state.audience.values().rev().find_map(|t| t.ahead(&[Role::Advocate, Role::Skeptic])).map(pick);
    Some(Game {
        session: session.to_string(),
        advocate,
        skeptic,
        judge,
        winner,
        words: [words(Role::Advocate), words(Role::Skeptic)],
        swap_checks,
        swap_flips,
        person: None,
        room,
    })
}
