//! A stored debate read as the statistics read it ([`Game`]): who argued
//! each side on which model, who judged (a panel named by all its judges),
//! whom the judge last named ahead (a panel: its ruling), how many words
//! each side wrote, the swap checks and their flips, the person's own last
//! verdict and the room's last majority.

use super::stats::{Game, Pick};
use crate::debate::panel;
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::sides::Ahead;
use crate::debate::{DebateState, PanelJudge, Role};

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
    let judge = judge_of(state);
    let winner = ruling(state);
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
        person: state.human.last().map(|verdict| pick(verdict.ahead)),
        room,
    })
}

/// Who judged: the judge's model, or a panel's, the chair's first, each
/// judge on the chair's provider or model where the format names none
/// (`openai:j1 + anthropic:j2 + openai:j3`).
fn judge_of(state: &DebateState) -> String {
    let chair = state.participant(Role::Judge);
    let mut judges = vec![model_of(state, Role::Judge).unwrap_or_default()];
    for judge in PanelJudge::members(state.judges()) {
        let provider = panel::provider_of(state, judge).or(chair.map(|p| p.provider.as_str())).unwrap_or("");
        let model = panel::model_of(state, judge).or(chair.map(|p| p.model.as_str())).unwrap_or("");
        judges.push(format!("{provider}:{model}"));
    }
    judges.join(" + ")
}

/// The side the debate's judging last put ahead: a lone judge's last
/// verdict that said, or a panel's ruling, by majority, on the last round
/// it decided where a judge said who is ahead (a tie is even). `None`: no
/// judge ever said.
pub fn ruling(state: &DebateState) -> Option<Pick> {
    if state.judges() < 2 {
        return state.rounds.iter().rev().find_map(|r| r.verdict()?.ahead).map(|a| match a {
            Ahead::Advocate => Pick::Advocate,
            Ahead::Skeptic => Pick::Skeptic,
            Ahead::Even => Pick::Even,
        });
    }
    state.rounds.iter().rev().find_map(|round| {
        let said = panel::ballots(round).iter().any(|(_, verdict)| verdict.ahead.is_some());
        let decision = panel::decision(state, round.number).filter(|_| said)?;
        Some(pick(decision.ahead))
    })
}
