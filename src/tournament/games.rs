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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::debate::event::Participant;
    use crate::debate::format::FormatRecord;
    use crate::debate::verdict::Verdict;
    use crate::debate::{DebateEvent, Heat, TurnPurpose};

    fn verdict(ahead: Ahead) -> Verdict {
        Verdict {
            verdict: "v".into(),
            ahead: Some(ahead),
            topic: "t".into(),
            heat: Heat::new(0.5),
            ..Verdict::default()
        }
    }

    /// A one-round debate judged by `judges` (a panel of three when they
    /// are three: the chair's verdict first, then judge 2's and 3's votes),
    /// then the person's verdicts.
    fn debate(judges: &[Ahead], person: &[Option<Role>]) -> DebateState {
        let participants = vec![
            Participant::new(Role::Advocate, "openai", "a"),
            Participant::new(Role::Skeptic, "openai", "b"),
            Participant::new(Role::Judge, "openai", "j1"),
        ];
        let mut events =
            vec![DebateEvent::Started { topic: "T".into(), max_rounds: 1, initial_heat: Heat::new(0.7), participants }];
        if judges.len() > 1 {
            let format: FormatRecord = serde_json::from_value(serde_json::json!({
                "name": "trio", "labels": ["Advocate", "Skeptic", "Chair"], "judges": 3,
                "panel_providers": ["", "anthropic"], "panel_models": ["j2", "j3"],
            }))
            .unwrap();
            events.push(DebateEvent::Formatted { format: Box::new(format) });
        }
        events.push(DebateEvent::RoundStarted {
            round: 0,
            topic: "T".into(),
            heat: Heat::new(0.7),
            injected: Vec::new(),
        });
        for (role, text) in [(Role::Advocate, "one two three"), (Role::Skeptic, "one two"), (Role::Judge, "")] {
            let purpose = if role == Role::Judge { TurnPurpose::Judge } else { TurnPurpose::Argue };
            events.extend(DebateEvent::turn(0, role, purpose, text));
        }
        events.push(DebateEvent::VerdictReached { round: 0, verdict: verdict(judges[0]) });
        for (n, ahead) in judges.iter().enumerate().skip(1) {
            let judge = PanelJudge(u32::try_from(n).unwrap() + 1);
            events.push(DebateEvent::PanelVoted { round: 0, judge, verdict: verdict(*ahead), usage: None });
        }
        for ahead in person {
            events.push(DebateEvent::HumanVerdict {
                round: 1,
                ahead: *ahead,
                confidence: 70,
                note: String::new(),
                ends: false,
            });
        }
        DebateState::from_events(&events)
    }

    #[test]
    fn a_panels_ruling_is_the_winner_and_the_panel_the_judge() {
        let state = debate(&[Ahead::Advocate, Ahead::Skeptic, Ahead::Skeptic], &[]);
        let game = game("s", &state).unwrap();
        assert_eq!(game.winner, Some(Pick::Skeptic), "two votes to the chair's one");
        assert_eq!(game.judge, "openai:j1 + openai:j2 + anthropic:j3");
        assert_eq!(game.words, [3, 2]);
        let split = debate(&[Ahead::Advocate, Ahead::Skeptic, Ahead::Even], &[]);
        assert_eq!(ruling(&split), Some(Pick::Even), "a tie is even");
        let lone = debate(&[Ahead::Advocate], &[]);
        let game = super::game("s", &lone).unwrap();
        assert_eq!((game.winner, game.judge.as_str()), (Some(Pick::Advocate), "openai:j1"));
    }

    #[test]
    fn the_persons_last_verdict_is_their_pick_and_agreement_counts_it() {
        let none = game("s", &debate(&[Ahead::Advocate], &[])).unwrap();
        assert_eq!(none.person, None);
        let changed = game("s", &debate(&[Ahead::Advocate], &[Some(Role::Skeptic), Some(Role::Advocate)])).unwrap();
        assert_eq!(changed.person, Some(Pick::Advocate), "the last verdict given");
        let even = game("t", &debate(&[Ahead::Advocate, Ahead::Skeptic, Ahead::Skeptic], &[None])).unwrap();
        assert_eq!(even.person, Some(Pick::Even));
        let agreement = crate::tournament::stats::summarise_with_resamples(&[changed, even], 1, 0).agreement;
        let rate = agreement.judge_person.unwrap();
        assert_eq!((rate.successes, rate.trials), (1.0, 2), "{rate:?}");
    }
}
