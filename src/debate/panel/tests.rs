#![allow(clippy::unwrap_used)]

use super::*;
use crate::debate::standing::Ahead;
use crate::debate::{DebateEvent, TurnPurpose};

fn verdict(resolved: bool, heat: f32, ahead: Ahead) -> Verdict {
    Verdict {
        resolved,
        verdict: "v".into(),
        ahead: Some(ahead),
        conceded: None,
        topic: "t".into(),
        heat: Heat::new(heat),
        ..Verdict::default()
    }
}

/// A round whose chair judged (with `chair`'s verdict, if any) and whose
/// other judges' votes are `votes`.
fn round(chair: Option<Verdict>, votes: Vec<(PanelJudge, Vote)>) -> Round {
    let mut state = DebateState::default();
    let heat = Heat::new(0.9);
    state.apply(&DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat, injected: Vec::new() });
    let purpose = TurnPurpose::Judge;
    for event in DebateEvent::turn(0, Role::Judge, purpose, "") {
        state.apply(&event);
    }
    if let Some(verdict) = chair {
        state.apply(&DebateEvent::VerdictReached { round: 0, verdict });
    }
    let mut r = state.rounds.remove(0);
    r.panel = votes.into_iter().collect();
    r
}

fn voted(v: Verdict) -> Vote {
    Vote::Voted { verdict: v, usage: None }
}

fn failed() -> Vote {
    Vote::Failed { error: "down".into(), usage: None }
}

#[test]
fn the_majority_decides_and_the_median_sets_the_heat() {
    let r = round(
        Some(verdict(true, 0.9, Ahead::Advocate)),
        vec![
            (PanelJudge(2), voted(verdict(false, 0.3, Ahead::Skeptic))),
            (PanelJudge(3), voted(verdict(true, 0.5, Ahead::Advocate))),
        ],
    );
    let d = decide(&r, 3).unwrap();
    assert!(d.resolved);
    assert_eq!((d.resolved_votes, d.ahead, d.ahead_votes), (2, Some(Role::Advocate), 2));
    assert!((d.heat.get() - 0.5).abs() < 1e-6);
    assert_eq!(d.dissent, [PanelJudge(2)]);
}

#[test]
fn an_even_split_goes_on_and_names_no_side() {
    let r = round(
        Some(verdict(true, 0.4, Ahead::Advocate)),
        vec![(PanelJudge(2), voted(verdict(false, 0.8, Ahead::Skeptic))), (PanelJudge(3), failed())],
    );
    let d = decide(&r, 3).unwrap();
    assert!(!d.resolved, "a tie on resolved goes on");
    assert_eq!(d.ahead, None);
    assert!((d.heat.get() - 0.6).abs() < 1e-6);
    assert_eq!(
        d.dissent,
        [PanelJudge(1)],
        "only the judge against the decision on resolved dissents when no side leads"
    );
}

#[test]
fn no_majority_of_answers_is_no_decision() {
    let r = round(None, vec![(PanelJudge(2), voted(verdict(false, 0.8, Ahead::Skeptic))), (PanelJudge(3), failed())]);
    assert_eq!(decide(&r, 3).unwrap_err(), "only 1 of the panel's 3 judges gave a verdict, not a majority");
    let five =
        round(Some(verdict(false, 0.5, Ahead::Even)), vec![(PanelJudge(2), voted(verdict(false, 0.8, Ahead::Even)))]);
    assert!(decide(&five, 5).is_err(), "2 of 5 is not a majority");
}

#[test]
fn a_panel_is_settled_when_every_judge_has_spoken() {
    let open =
        round(Some(verdict(false, 0.5, Ahead::Even)), vec![(PanelJudge(2), Vote::Asking), (PanelJudge(3), failed())]);
    assert!(!settled(&open, 3));
    assert_eq!(unasked(&open, 3, &[]), [PanelJudge(2)], "asked by a process that stopped: ask again");
    assert!(unasked(&open, 3, &[PanelJudge(2)]).is_empty(), "in flight: wait");
    let done =
        round(Some(verdict(false, 0.5, Ahead::Even)), vec![(PanelJudge(2), failed()), (PanelJudge(3), failed())]);
    assert!(settled(&done, 3));
    assert_eq!(unasked(&round(None, Vec::new()), 4, &[]), [PanelJudge(2), PanelJudge(3), PanelJudge(4)]);
}

#[test]
fn judges_who_name_no_side_are_counted_apart() {
    let state = DebateState::default();
    let r = round(
        Some(verdict(false, 0.5, Ahead::Advocate)),
        vec![
            (PanelJudge(2), voted(verdict(false, 0.5, Ahead::Even))),
            (PanelJudge(3), voted(verdict(false, 0.5, Ahead::Even))),
        ],
    );
    let d = decide(&r, 3).unwrap();
    let said = describe(&state, &d);
    assert!(said.contains("advocate ahead 1–0 (2 even)"), "{said}");
    assert!(!said.contains("1–2"), "{said}");
}
