//! Properties of the scores' tug-of-war, over arbitrary scored debates: the
//! two sides' totals always sum to zero; they equal the sum of the scores
//! the judge gave (held to −3..+3), folded from the events; and folding the
//! log in two pieces split anywhere (a resume) gives the same totals as
//! folding it whole. Debates in a format without scores count nothing.
#![allow(clippy::unwrap_used)]

use heat::debate::format::FormatRecord;
use heat::debate::scores::{self, Scores};
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Heat, Role, TurnPurpose};
use proptest::prelude::*;

use crate::support::log::Log;

fn format(scores: bool) -> FormatRecord {
    FormatRecord {
        name: "scored".into(),
        labels: ["Proposition", "Opposition", "Chair"].map(String::from).to_vec(),
        debaters: 2,
        sides: Vec::new(),
        convergence: None,
        opening_arguments: 1,
        resolve_early: false,
        phases: Vec::new(),
        briefs: None,
        scores,
        judges: 1,
        panel_models: Vec::new(),
        panel_providers: Vec::new(),
        issues: false,
        map: None,
        sections: Vec::new(),
    }
}

/// A debate of as many rounds as there are score lists, each round's
/// verdict carrying its scores (some rounds' verdicts with none).
fn events(rounds: &[Option<(Vec<i8>, Vec<i8>)>], scored: bool) -> Vec<DebateEvent> {
    let mut log = Log::new("t", u32::try_from(rounds.len()).unwrap() + 1, 0.9)
        .seats(&Role::DUEL, "scripted", "m")
        .formatted(format(scored));
    for (n, scores) in rounds.iter().enumerate() {
        let round = u32::try_from(n).unwrap();
        log = log.round(round);
        for role in Role::DUEL {
            let purpose = if role.is_judge() { TurnPurpose::Judge } else { TurnPurpose::Argue };
            log = log.starts_at(round, role, purpose, None).completes(round, role, &format!("{role:?} {n}"));
        }
        let given = scores.clone().map(|(advocate, skeptic)| Scores { advocate, skeptic });
        let verdict = Verdict {
            verdict: format!("round {n}"),
            topic: "t".into(),
            scores: given.map(Box::new),
            ..Verdict::default()
        };
        log = log.then(DebateEvent::VerdictReached { round, verdict });
    }
    log.into_events()
}

fn side() -> impl Strategy<Value = Vec<i8>> {
    proptest::collection::vec(-3i8..=3, 0..5)
}

fn rounds() -> impl Strategy<Value = Vec<Option<(Vec<i8>, Vec<i8>)>>> {
    proptest::collection::vec(proptest::option::of((side(), side())), 0..8)
}

fn sum(scores: &[i8]) -> i32 {
    scores.iter().map(|&n| i32::from(n)).sum()
}

proptest! {
    #[test]
    fn totals_are_zero_sum_equal_the_scores_given_and_fold_the_same_in_any_split(
        rounds in rounds(),
        split in any::<prop::sample::Index>(),
    ) {
        let events = events(&rounds, true);
        let whole = DebateState::from_events(&events);
        let given: i32 = rounds.iter().flatten().map(|(a, s)| sum(a) - sum(s)).sum();
        prop_assert_eq!(scores::total(&whole, Role::Advocate) + scores::total(&whole, Role::Skeptic), 0);
        prop_assert_eq!(scores::total(&whole, Role::Advocate), given);
        prop_assert_eq!(scores::total(&whole, Role::Judge), 0);

        let at = split.index(events.len() + 1);
        let mut pieces = DebateState::from_events(&events[..at]);
        // A resumed process starts from the stored state, read back.
        pieces = serde_json::from_str(&serde_json::to_string(&pieces).unwrap()).unwrap();
        for event in &events[at..] {
            pieces.apply(event);
        }
        prop_assert_eq!(scores::tug(&pieces), scores::tug(&whole));
        // Each round's running total is the sum of its own and earlier rounds' pulls.
        let mut running = 0;
        for (n, scores) in rounds.iter().enumerate() {
            running += scores.as_ref().map_or(0, |(a, s)| sum(a) - sum(s));
            prop_assert_eq!(scores::tug_through(&whole, u32::try_from(n).unwrap()), running);
        }
    }

    #[test]
    fn a_format_without_scores_counts_none(rounds in rounds()) {
        let state = DebateState::from_events(&events(&rounds, false));
        prop_assert!(!state.scored());
        // Whatever a judge sent unasked, a format that does not score has no tug.
        prop_assert_eq!(scores::tug(&state), 0);
        prop_assert_eq!(heat::debate::scores::totals(&state), None);
    }
}

#[test]
fn a_judges_out_of_range_scores_are_held_to_the_range_when_read() {
    let verdict = heat::debate::verdict::parse(
        r#"{"resolved": false, "verdict": "v", "topic": "t", "heat": 0.5, "scores": {"advocate": [9, -9], "skeptic": [0]}}"#,
        "t",
        Heat::new(0.5),
    )
    .unwrap();
    assert_eq!(verdict.scores, Some(Box::new(Scores { advocate: vec![3, -3], skeptic: vec![0] })));
    let none = heat::debate::verdict::parse(r#"{"verdict": "v"}"#, "t", Heat::new(0.5)).unwrap();
    assert_eq!(none.scores, None, "an answer without scores still reads");
}
