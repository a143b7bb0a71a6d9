//! The vote among final answers, by property: for any answers from any
//! number of debaters (2 to 6), every debater is counted once, the
//! majority is the biggest group and the first of equals, convergence is
//! one group holding everyone, and the heat never rises as agreement does.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use heat::debate::state::{Round, Turn, TurnStatus};
use heat::debate::vote::{Tally, next_heat};
use heat::debate::{Heat, Role, TurnPurpose};
use proptest::prelude::*;

/// A round where seat `i` ends with `answers[i]` (`None`: no final answer
/// line, and words of its own: identical whole answers are one answer).
fn round(answers: &[Option<&str>]) -> Round {
    let turns = Role::DEBATER_SEATS
        .iter()
        .zip(answers)
        .map(|(&role, answer)| Turn {
            status: TurnStatus::Done,
            text: answer
                .map_or(format!("I, the {}, will not say.", role.key()), |a| format!("Reasons.\nFinal answer: {a}")),
            ..Turn::started(role, TurnPurpose::Argue, None)
        })
        .collect();
    Round {
        number: 0,
        topic: "t".into(),
        heat: Heat::new(0.9),
        pinned: false,
        injected: Vec::new(),
        asked_by_person: false,
        discarded: Vec::new(),
        seat_heats: BTreeMap::new(),
        turns,
        swap: None,
        panel: BTreeMap::new(),
        readings: BTreeMap::new(),
        briefs: BTreeMap::new(),
    }
}

const ANSWERS: [&str; 4] = ["four days", "Four days.", "five days", "three"];

proptest! {
    #[test]
    fn every_debater_counts_once_and_the_majority_is_the_first_biggest_group(
        picks in proptest::collection::vec(proptest::option::weighted(0.85, 0..ANSWERS.len()), 2..=6)
    ) {
        let answers: Vec<Option<&str>> = picks.iter().map(|p| p.map(|i| ANSWERS[i])).collect();
        let seats = &Role::DEBATER_SEATS[..answers.len()];
        let tally = Tally::of_round(&round(&answers), seats, 100).unwrap();
        let counted: usize = tally.groups.iter().map(|g| g.seats.len()).sum::<usize>() + tally.silent.len();
        prop_assert_eq!(counted, answers.len());
        // "four days" and "Four days." normalise alike: they are one group.
        let distinct: std::collections::BTreeSet<&str> =
            answers.iter().flatten().map(|a| if a.eq_ignore_ascii_case("four days.") { "four days" } else { a }).collect();
        prop_assert_eq!(tally.groups.len(), distinct.len());
        if let Some(top) = tally.majority() {
            let most = tally.groups.iter().map(|g| g.seats.len()).max().unwrap();
            prop_assert_eq!(top.seats.len(), most);
            let first = tally.groups.iter().position(|g| g.seats.len() == most).unwrap();
            prop_assert_eq!(&tally.groups[first], top);
        }
        prop_assert_eq!(tally.converged(), tally.groups.len() == 1 && tally.silent.is_empty());
        let agreement = tally.agreement();
        prop_assert!((0.0..=1.0).contains(&agreement));
        prop_assert_eq!(tally.converged(), (agreement - 1.0).abs() < 1e-9 && tally.silent.is_empty());
    }

    #[test]
    fn the_heat_never_rises_as_agreement_does(start in 0.3f32..=1.0, a in 0.0f64..=1.0, b in 0.0f64..=1.0) {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        let start = Heat::new(start);
        prop_assert!(next_heat(start, high) <= next_heat(start, low));
        prop_assert!(next_heat(start, low) <= start);
        prop_assert!(next_heat(start, 1.0) == Heat::MIN);
    }
}
