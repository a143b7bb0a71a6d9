#![allow(clippy::unwrap_used)]

use super::*;
use crate::debate::TurnPurpose;
use crate::debate::state::{Turn, TurnStatus};

fn round(texts: &[&str]) -> Round {
    let turn = |role, text: &str| Turn {
        status: TurnStatus::Done,
        text: text.into(),
        ..Turn::started(role, TurnPurpose::Argue, None)
    };
    Round {
        number: 0,
        topic: "t".into(),
        heat: Heat::new(0.9),
        pinned: false,
        injected: Vec::new(),
        asked_by_person: false,
        discarded: Vec::new(),
        seat_heats: std::collections::BTreeMap::new(),
        turns: Role::DEBATER_SEATS.iter().zip(texts).map(|(&r, t)| turn(r, t)).collect(),
        swap: None,
        panel: std::collections::BTreeMap::new(),
        readings: std::collections::BTreeMap::new(),
        briefs: std::collections::BTreeMap::new(),
    }
}

const THREE: [Role; 3] = [Role::Advocate, Role::Skeptic, Role::Third];

#[test]
fn the_final_answer_is_the_last_such_line_in_any_case_and_markup() {
    assert_eq!(final_answer("Reasons.\nFinal answer: Four days.").as_deref(), Some("Four days."));
    assert_eq!(final_answer("**Final Answer:** yes\n").as_deref(), Some("yes"));
    assert_eq!(final_answer("- FINAL ANSWER - no").as_deref(), Some("no"));
    assert_eq!(final_answer("Final answer: a\nmore\nfinal answer: b").as_deref(), Some("b"), "the last one counts");
    assert_eq!(final_answer("My final answers are below."), None, "a sentence is not the line");
    assert_eq!(final_answer("Final answer:   "), None, "an empty answer is none");
    assert_eq!(
        final_answer("Final answer: 4.5 days. Because rest matters.").as_deref(),
        Some("4.5 days."),
        "its first sentence"
    );
    assert_eq!(final_answer("No line at all."), None);
    let long = final_answer(&format!("Final answer: {}", "x".repeat(500))).expect("an answer");
    assert_eq!(long.chars().count(), ANSWER_CHARS + 1, "cut, and marked so: {long}");
    assert!(long.ends_with('…'));
    // A long answer is cut at a word's end, its Markdown gone.
    let words =
        final_answer(&format!("Final answer: **four days** with {}", "flexible hours ".repeat(20))).expect("one");
    assert!(words.starts_with("four days with flexible hours"), "{words}");
    assert!(words.ends_with("hours…") || words.ends_with("flexible…"), "never mid-word: {words}");
    assert!(!words.contains("**"), "{words}");
}

#[test]
fn answers_normalise_before_they_are_compared() {
    assert_eq!(normalise("Yes, four-day WEEKS."), "yes four day week");
    assert!(agree("Four days.", "four DAYS", 100));
    assert!(!agree("four days", "five days", 100));
    // "four day week" vs "four day work week": 3 of 4 words shared.
    assert!(
        agree("Four-day week", "a four day work week", 60)
            == (likeness("Four-day week", "a four day work week") >= 0.6)
    );
    assert!(agree("four day week", "four day work week", 70));
    assert!(!agree("four day week", "four day work week", 80));
}

#[test]
fn a_two_to_one_vote_keeps_the_minority() {
    let r = round(&["…\nFinal answer: Four days", "…\nFinal answer: five days", "…\nFinal answer: four days."]);
    let tally = Tally::of_round(&r, &THREE, 100).unwrap();
    let top = tally.majority().unwrap();
    assert_eq!((top.answer.as_str(), top.seats.clone()), ("Four days", vec![Role::Advocate, Role::Third]));
    assert_eq!(tally.count(), "2–1");
    assert!(!tally.converged());
    assert!((tally.agreement() - 0.5).abs() < 1e-9);
}

#[test]
fn a_three_way_tie_goes_to_the_answer_given_first() {
    let r = round(&["Final answer: red", "Final answer: green", "Final answer: blue"]);
    let tally = Tally::of_round(&r, &THREE, 100).unwrap();
    assert_eq!(tally.majority().unwrap().answer, "red");
    assert_eq!(tally.count(), "1–1–1");
    assert!(tally.agreement().abs() < 1e-9);
    // Two-two-one among five: the first pair given wins.
    let five = [Role::Advocate, Role::Skeptic, Role::Third, Role::Fourth, Role::Fifth];
    let r = round(&["Final answer: b", "Final answer: a", "Final answer: a", "Final answer: b", "Final answer: c"]);
    let tally = Tally::of_round(&r, &five, 100).unwrap();
    assert_eq!(tally.majority().unwrap().answer, "b");
    assert_eq!(tally.count(), "2–2–1");
}

#[test]
fn all_alike_converges_and_a_silent_debater_does_not() {
    let r = round(&["Final answer: yes", "Final answer: Yes.", "final answer: YES"]);
    let tally = Tally::of_round(&r, &THREE, 100).unwrap();
    assert!(tally.converged());
    assert_eq!(tally.count(), "3–0");
    let r = round(&["Final answer: yes", "Final answer: yes", "I will not say."]);
    let tally = Tally::of_round(&r, &THREE, 100).unwrap();
    assert!(!tally.converged(), "a debater with no final answer has not agreed");
    assert_eq!(tally.silent, vec![Role::Third]);
    assert_eq!(tally.count(), "2–1");
}

#[test]
fn identical_whole_answers_with_no_final_answer_line_converge_once_spacing_is_set_aside() {
    let r = round(&[
        "Four days.\nIt saves commutes.",
        "Four days. It saves  commutes.",
        " Four days.\n\nIt saves commutes.",
    ]);
    let tally = Tally::of_round(&r, &THREE, 100).unwrap();
    assert!(tally.converged(), "{tally:?}");
    assert_eq!(tally.count(), "3–0");
    assert_eq!(tally.majority().map(|g| g.answer.as_str()), Some("Four days. It saves commutes."));
    // One word apart is not the same answer, and a failed turn is no answer.
    let r = round(&["Four days.", "Four days.", "Five days."]);
    assert!(!Tally::of_round(&r, &THREE, 100).unwrap().converged());
    assert!(Tally::of_round(&r, &THREE, 100).unwrap().groups.is_empty(), "no final answers, no groups");
}

#[test]
fn a_near_miss_stays_apart_below_the_threshold() {
    let r = round(&["Final answer: a four day week", "Final answer: a four day week", "Final answer: a five day week"]);
    assert!(!Tally::of_round(&r, &THREE, 80).unwrap().converged(), "3 of 5 words shared is under 80%");
    assert!(Tally::of_round(&r, &THREE, 50).unwrap().converged(), "and over 50%");
}

#[test]
fn no_tally_until_every_debater_has_settled() {
    let mut r = round(&["Final answer: yes", "Final answer: yes", "Final answer: yes"]);
    r.turns[2].status = TurnStatus::Streaming;
    assert!(Tally::of_round(&r, &THREE, 100).is_none());
}

#[test]
fn heat_falls_as_agreement_rises() {
    let start = Heat::new(0.9);
    assert!((next_heat(start, 0.0).get() - 0.9).abs() < 1e-6, "all apart: the start heat");
    assert!((next_heat(start, 0.5).get() - 0.6).abs() < 1e-6, "2 of 3: halfway to the floor");
    assert!((next_heat(start, 1.0).get() - Heat::MIN.get()).abs() < 1e-6, "all agree: the floor");
    assert!(next_heat(start, 0.25) > next_heat(start, 0.75));
}
