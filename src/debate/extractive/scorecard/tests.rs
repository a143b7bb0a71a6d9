#![allow(clippy::unwrap_used)]

use super::*;
use crate::debate::event::{DebateEvent, Participant, TurnPurpose};
use crate::debate::format::Criterion;
use crate::debate::heat::Heat;

fn owned(sentences: &[&str]) -> Vec<String> {
    sentences.iter().map(|s| (*s).to_string()).collect()
}

const PROPOSITION: &str = "Cities should ban cars from their centres";
/// Twelve words, nine content words ("home" once).
const TWELVE: &str = "Night buses carry workers home after midnight when the trains have stopped.";
/// Twelve other words ("home" once more).
const OTHER_TWELVE: &str = "Shops near the station stay open later because people can get home.";

#[test]
fn evidence_is_the_share_of_sentences_carrying_a_particular_full_at_one_in_two() {
    let half = owned(&[
        "Oslo cut traffic deaths to zero in 2019.",
        "According to the city, shops did well.",
        "Streets feel calmer now.",
        "Children like it.",
    ]);
    assert_eq!(evidence(&half), 10, "2 of 4 reaches full marks");
    // 1 of 5: 1 + 9 × 0.2 / 0.5 = 4.6.
    let one_in_five = owned(&["In 2019 Oslo closed its centre.", "A.", "B.", "C.", "D."]);
    assert_eq!(evidence(&one_in_five), 5);
    // Said again, a particular counts once: 1 of 3, 1 + 9 × (1/3) / 0.5 = 7.
    let again = owned(&[
        "In 2019 Oslo removed 700 parking spaces.",
        "In 2019 Oslo removed 700 parking spaces.",
        "Shops kept their customers.",
    ]);
    assert_eq!(evidence(&again), 7);
    assert_eq!(evidence(&owned(&["Streets feel calmer.", "Children play."])), 1);
    assert_eq!(evidence(&[]), 1, "nothing said, nothing shown");
}

#[test]
fn a_particular_is_a_number_a_quotation_a_source_or_a_name() {
    assert!(particular("The mayor said \"fewer cars, more life\" on opening day."));
    assert!(particular("The mayor said \u{201c}fewer cars, more life\u{201d} on opening day."));
    assert!(particular("Data came from the World Health Organization."));
    assert!(particular("Traffic fell by a third, according to the council."));
    assert!(particular("Traffic fell 30% in a year."));
    assert!(!particular("The Proposition is wrong about streets."), "one capitalised word is no name");
    assert!(!particular("I Think streets are calmer."), "nor is \"I\" with the next");
    assert!(!particular("The mayor said \"no\" on opening day."), "a quoted word is no quotation");
}

#[test]
fn rebuttal_is_the_share_of_the_other_sides_words_taken_up_in_sentences_that_answer() {
    // Past the opening: street, become, safer, young, children (the proposition's words are left out).
    let answered = "I agree that cities should ban cars. My first reason is that streets become safer for \
                    young children.";
    let all = "I disagree that cities should ban cars. Streets do not become safer for young children when \
               buses replace cars. Parks are nice.";
    assert_eq!(rebuttal(all, answered, PROPOSITION), Some(10), "5 of 5");
    // 1 of 5: 1 + 9 × 0.2 / 0.3 = 7.
    assert_eq!(rebuttal("Streets are not the point: buses are.", answered, PROPOSITION), Some(7));
    // The same words said back without setting anything against them answer nothing.
    let echo = "Streets become safer for young children, and parks too.";
    assert_eq!(rebuttal(echo, answered, PROPOSITION), Some(1));
    // Nothing of the other side's own to answer: not scored.
    assert_eq!(rebuttal(all, "I agree that cities should ban cars.", PROPOSITION), None);
    assert_eq!(rebuttal(all, "Cities should ban cars.", PROPOSITION), None);
}

#[test]
fn clarity_is_the_mean_fit_less_what_is_said_again() {
    assert!((fit(12) - 1.0).abs() < f32::EPSILON && (fit(22) - 1.0).abs() < f32::EPSILON);
    assert!((fit(6) - 0.5).abs() < 1e-6 && (fit(44) - 0.5).abs() < 1e-6);
    assert_eq!(clarity(&owned(&[TWELVE])), 10);
    // Eight words: 8 / 12, 1 + 9 × 2/3 = 7.
    assert_eq!(clarity(&owned(&["Night buses carry workers home after midnight daily."])), 7);
    // A sentence said twice of three: 1 × (1 − 1/3) × (1 − 0) → 7 ("home" is used three times, not past).
    assert_eq!(clarity(&owned(&[TWELVE, TWELVE, OTHER_TWELVE])), 7);
    // One word twelve times: nine uses past the third of twelve, 1 × 1 × 0.25 → 1 + 2.25 = 3.
    assert_eq!(clarity(&owned(&["Cars cars cars cars cars cars cars cars cars cars cars cars."])), 3);
    assert_eq!(clarity(&[]), 1);
}

#[test]
fn logic_is_the_share_of_sentences_that_give_a_reason_full_at_one_in_two() {
    let five = owned(&[
        "Buses fill the gap because trains stop at midnight.",
        "So much traffic clogs the ring road.",
        "If the centre closes, shops lose drivers.",
        "Parks are green.",
        "Trams are quiet.",
    ]);
    // Two of five ("so much" gives none): 1 + 9 × 0.4 / 0.5 = 8.2.
    assert_eq!(logic(&five), 8);
    let again = owned(&[
        "Buses fill the gap because trains stop at midnight.",
        "Buses fill the gap because trains stop at midnight.",
        "Parks are green.",
    ]);
    assert_eq!(logic(&again), 7, "a reason said again counts once: 1 of 3");
    assert!(gives_reason("Fewer cars, which means cleaner air."));
    assert!(gives_reason("So the shops lose."));
    assert!(!gives_reason("Parks are so far away."));
}

#[test]
fn every_share_scales_into_one_to_ten() {
    assert_eq!((scale(0.0, 0.5), scale(0.5, 0.5), scale(0.2, 0.5)), (1, 10, 5));
    assert_eq!((scale(-1.0, 0.5), scale(f32::NAN, 0.5), scale(3.0, 1.0), scale(0.5, 0.0)), (1, 1, 10, 1));
    let mut share = -1.0_f32;
    while share < 3.0 {
        for full in [0.3, 0.5, 1.0] {
            assert!((LOW..=HIGH).contains(&scale(share, full)), "{share} / {full}");
        }
        share += 0.01;
    }
}

/// An Oxford debate (which keeps a map) whose rounds the sides argued `turns`.
fn oxford(turns: &[(&str, &str)]) -> DebateState {
    let catalog = crate::format::Catalog::load(None);
    let format = catalog.find("oxford").unwrap_or_else(|e| panic!("{e}"));
    let mut state = DebateState::default();
    state.apply(&DebateEvent::Started {
        topic: PROPOSITION.into(),
        max_rounds: 3,
        initial_heat: Heat::new(0.9),
        participants: format.seats().iter().map(|&r| Participant::new(r, "local", "embedded")).collect(),
    });
    state.apply(&DebateEvent::Formatted { format: Box::new(format.log_record().unwrap()) });
    for (round, (advocate, skeptic)) in (0u32..).zip(turns) {
        state.apply(&DebateEvent::RoundStarted { round, topic: "t".into(), heat: Heat::new(0.9), injected: vec![] });
        for (role, text) in [(Role::Advocate, advocate), (Role::Skeptic, skeptic)] {
            for event in DebateEvent::turn(round, role, TurnPurpose::Argue, text) {
                state.apply(&event);
            }
        }
    }
    state
}

#[test]
fn each_round_is_carded_on_the_criteria_the_rules_know_rebuttal_from_the_second() {
    let state = oxford(&[
        ("I agree that cities should ban cars. Streets become safer for young children.", "Vans need a way in."),
        (
            "Vans may still come in before ten, so shops are not cut off from their deliveries.",
            "Streets are not safer for young children if buses speed through them instead.",
        ),
    ]);
    let first = card(&state, 0).unwrap();
    assert_eq!(first.advocate.keys().collect::<Vec<_>>(), ["clarity", "evidence", "logic"], "nothing to answer yet");
    let second = card(&state, 1).unwrap();
    for side in [&second.advocate, &second.skeptic] {
        assert_eq!(side.len(), 4, "{second:?}");
        assert!(side.values().all(|s| (LOW..=HIGH).contains(s)), "{second:?}");
    }
    // The skeptic takes up street, safer, young, children of "streets become safer for young children": 4 of 5.
    assert_eq!(second.skeptic["rebuttal"], 10);
    // The advocate takes up "vans" of vans, need, way (in a sentence with "not"): 1 of 3, past 0.3.
    assert_eq!(second.advocate["rebuttal"], 10);
    let spec = state.map().unwrap();
    assert_eq!(said(&first, spec), "Scores are counted by rule (logic, evidence, clarity), not judged.");
    assert_eq!(said(&second, spec), "Scores are counted by rule (logic, evidence, rebuttal, clarity), not judged.");
    assert_eq!(card(&state, 5), None, "no such round");
}

#[test]
fn a_criterion_the_rules_do_not_know_is_left_off_the_card() {
    let spec = MapSpec {
        criteria: vec![Criterion { name: "Evidence".into(), weight: 2 }, Criterion { name: "flair".into(), weight: 1 }],
        consensus: false,
    };
    let mut state = oxford(&[("Oslo closed its centre in 2019 and traffic fell.", "Vans need a way in.")]);
    if let Some(format) = state.format.as_mut() {
        format.map = Some(spec.clone());
    }
    let card = card(&state, 0).unwrap();
    assert_eq!(card.advocate.keys().collect::<Vec<_>>(), ["Evidence"]);
    assert_eq!(card.advocate["Evidence"], 10, "one sentence of one carries a year");
    assert_eq!(said(&card, &spec), "Scores are counted by rule (Evidence), not judged.");
}

#[test]
fn a_lists_numbers_are_no_figures() {
    let listed = "Two reasons:\n\n1. Trams run late at night.\n2. Vans wait outside the gates.";
    let state = oxford(&[(listed, "In 2019 Oslo closed its centre to cars.")]);
    let card = card(&state, 0).unwrap();
    assert_eq!((card.advocate["evidence"], card.skeptic["evidence"]), (1, 10), "{card:?}");
}
