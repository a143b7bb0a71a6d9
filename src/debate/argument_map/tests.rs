#![allow(clippy::unwrap_used)]

use super::*;
use crate::debate::event::{DebateEvent, Participant, TurnPurpose};
use crate::debate::heat::Heat;
use crate::debate::verdict::{Ahead, Verdict};

/// An Oxford debate (which keeps a map) whose rounds the judge gave `verdicts`.
fn judged(verdicts: &[Verdict]) -> DebateState {
    let catalog = crate::format::Catalog::load(None);
    let format = catalog.find("oxford").unwrap_or_else(|e| panic!("{e}"));
    let mut state = DebateState::default();
    state.apply(&DebateEvent::Started {
        topic: "Night trains beat short-haul flights".into(),
        max_rounds: 5,
        initial_heat: Heat::new(0.9),
        participants: format.seats().iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
    });
    if let Some(record) = format.log_record() {
        state.apply(&DebateEvent::Formatted { format: Box::new(record) });
    }
    for (round, verdict) in (0u32..).zip(verdicts) {
        let heat = Heat::new(0.9);
        state.apply(&DebateEvent::RoundStarted { round, topic: "t".into(), heat, injected: Vec::new() });
        let purpose = TurnPurpose::Judge;
        state.apply(&DebateEvent::TurnStarted { round, role: Role::Judge, purpose, temperature: None });
        state.apply(&DebateEvent::VerdictReached { round, verdict: verdict.clone() });
    }
    state
}

fn claim(id: &str, by: Role, status: ClaimStatus, answers: Option<&str>) -> NamedClaim {
    NamedClaim {
        id: id.into(),
        by,
        claim: format!("claim {id}"),
        status,
        answers: answers.map(String::from),
        evidence: None,
    }
}

fn verdict(ahead: Ahead, claims: Vec<NamedClaim>) -> Verdict {
    Verdict { verdict: "v".into(), ahead: Some(ahead), claims, ..Verdict::default() }
}

/// Five rounds: A1 made in round 1, attacked by S1 in round 2, defended
/// in round 3, conceded in round 4; the skeptic's S1 stands until round 5.
fn five_rounds() -> DebateState {
    use ClaimStatus::{Conceded, Defended, Standing};
    use Role::{Advocate, Skeptic};
    judged(&[
        verdict(Ahead::Advocate, vec![claim("A1", Advocate, Standing, None)]),
        verdict(Ahead::Advocate, vec![claim("S1", Skeptic, Standing, Some("A1"))]),
        verdict(Ahead::Advocate, vec![claim("A1", Advocate, Defended, None), claim("A2", Advocate, Standing, None)]),
        verdict(
            Ahead::Skeptic,
            vec![claim("A1", Advocate, Conceded, None), claim("S2", Skeptic, Standing, Some("A2"))],
        ),
        verdict(Ahead::Skeptic, vec![claim("S3", Skeptic, Standing, Some("A9"))]),
    ])
}

#[test]
fn a_claims_standing_follows_the_rounds_attacked_defended_then_conceded() {
    let state = five_rounds();
    let status = |round, id: &str| ledger_through(&state, round).get(id).map(|c| c.status);
    assert_eq!(status(0, "A1"), Some(ClaimStatus::Standing));
    assert_eq!(status(1, "A1"), Some(ClaimStatus::Attacked), "S1 answers A1 in round 2");
    assert_eq!(status(2, "A1"), Some(ClaimStatus::Defended));
    assert_eq!(status(3, "A1"), Some(ClaimStatus::Conceded));
    assert_eq!(status(0, "S1"), None, "not made yet");
    let now = ledger(&state);
    let a1 = now.get("A1").unwrap();
    assert_eq!(a1.round, 0);
    assert_eq!(
        a1.history,
        [
            (0, ClaimStatus::Standing),
            (1, ClaimStatus::Attacked),
            (2, ClaimStatus::Defended),
            (3, ClaimStatus::Conceded)
        ]
    );
    assert_eq!(now.answers_to("A1").map(|c| c.id.as_str()).collect::<Vec<_>>(), ["S1"]);
    assert_eq!(now.get("A2").map(|c| c.status), Some(ClaimStatus::Attacked), "S2 answered it and it was not named");
    assert_eq!(now.by(Role::Skeptic).count(), 3);
}

#[test]
fn a_link_to_a_claim_never_named_is_dropped_and_said() {
    let now = ledger(&five_rounds());
    assert_eq!(now.dropped, [DroppedLink { round: 4, from: "S3".into(), to: "A9".into() }]);
    assert_eq!(now.get("S3").and_then(|c| c.answers.clone()), None, "kept without the link");
    let own = judged(&[verdict(
        Ahead::Even,
        vec![
            claim("A1", Role::Advocate, ClaimStatus::Standing, None),
            claim("A2", Role::Advocate, ClaimStatus::Standing, Some("A1")),
        ],
    )]);
    assert_eq!(ledger(&own).dropped.len(), 1, "a side does not attack its own claim");
}

#[test]
fn turning_points_are_the_rounds_where_who_is_ahead_changed_with_the_claim_that_turned_it() {
    let points = turning_points(&five_rounds());
    assert_eq!(
        points,
        [TurningPoint { round: 3, was: Some(Role::Advocate), now: Some(Role::Skeptic), claim: Some("S2".into()) }]
    );
}

#[test]
fn weighted_totals_count_each_criterion_by_its_weight() {
    use std::collections::BTreeMap;
    let spec = MapSpec {
        criteria: vec![
            crate::debate::format::Criterion { name: "logic".into(), weight: 3 },
            crate::debate::format::Criterion { name: "clarity".into(), weight: 1 },
        ],
        consensus: false,
    };
    let card = Scorecard {
        advocate: BTreeMap::from([("logic".into(), 8), ("clarity".into(), 4), ("flair".into(), 1)]),
        skeptic: BTreeMap::new(),
    };
    assert_eq!(weighted(&card, Role::Advocate, &spec), Some(7.0), "(8×3 + 4×1) / 4; flair is not a criterion");
    assert_eq!(weighted(&card, Role::Skeptic, &spec), None);
}

#[test]
fn the_schema_asks_for_claims_and_a_scorecard_on_the_formats_criteria() {
    let schema = with_map(crate::debate::verdict::schema(), &MapSpec::standard());
    let required = schema["required"].as_array().unwrap();
    assert!(required.iter().any(|k| k == "claims") && required.iter().any(|k| k == "scorecard"));
    assert_eq!(schema["properties"]["claims"]["items"]["properties"]["status"]["enum"][1], "attacked");
    let side = &schema["properties"]["scorecard"]["properties"]["skeptic"];
    assert_eq!(side["required"], serde_json::json!(["logic", "evidence", "rebuttal", "clarity"]));
    assert_eq!(side["properties"]["logic"]["enum"][9], 10);
}

#[test]
fn the_judge_is_told_the_ledger_so_far_by_id() {
    let state = five_rounds();
    let told = instruction(&state, 2, state.map().unwrap());
    assert!(told.contains("- A1 (advocate, round 1): claim A1 [attacked]"), "{told}");
    assert!(told.contains("- S1 (skeptic, round 2): claim S1 [standing, answers A1]"), "{told}");
    assert!(!told.contains("- A2"), "not made before round 3: {told}");
    assert!(told.contains("from 1 to 10 on logic, evidence, rebuttal, clarity"), "{told}");
    assert!(!instruction(&state, 0, state.map().unwrap()).contains("so far"));
}

#[test]
fn the_embedded_judges_chosen_sentences_are_its_claims_each_new_one_numbered() {
    let state = judged(&[verdict(Ahead::Even, vec![claim("A1", Role::Advocate, ClaimStatus::Standing, None)])]);
    let mut state = state;
    state.apply(&DebateEvent::RoundStarted { round: 1, topic: "t".into(), heat: Heat::new(0.8), injected: Vec::new() });
    let sleepers = "Sleepers cost more than a flight and a hotel together.";
    let answer = format!(r#"{{"advocate_best": "claim A1", "skeptic_best": "{sleepers}", "next_question": "Why?"}}"#);
    let claims = chosen_claims(&state, 1, &answer);
    let named: Vec<(&str, Role, &str)> = claims.iter().map(|c| (c.id.as_str(), c.by, c.claim.as_str())).collect();
    assert_eq!(named, [("S1", Role::Skeptic, sleepers)], "the advocate's sentence is its claim A1 already");
    assert!(claims.iter().all(|c| c.status == ClaimStatus::Standing && c.answers.is_none()));
    assert!(chosen_claims(&state, 1, "no object").is_empty());
}

#[test]
fn the_embedded_judge_keeps_no_fragment_restatement_question_or_near_duplicate_as_a_claim() {
    let state = judged(&[verdict(Ahead::Even, Vec::new())]);
    let said = "A night train saves the hotel bill for every traveller.";
    let first = format!(r#"{{"advocate_best": "{said}", "skeptic_best": "Sleepers cost more."}}"#);
    let claims = chosen_claims(&state, 0, &first);
    assert_eq!(claims.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["A1"], "three words are a fragment");
    let state = judged(&[verdict(Ahead::Even, claims)]);
    let chosen = |advocate: &str, skeptic: &str| {
        let answer = serde_json::json!({ "advocate_best": advocate, "skeptic_best": skeptic }).to_string();
        chosen_claims(&state, 1, &answer).into_iter().map(|c| (c.id, c.claim)).collect::<Vec<_>>()
    };
    let fresh = "Sleeper fares rise every winter while flights get cheaper.";
    // A1 again in other order (all seven of its content words): the advocate has no new claim.
    let again = "A night train saves every traveller the hotel bill.";
    assert_eq!(chosen(again, fresh), [("S1".to_string(), fresh.to_string())]);
    // Most of its words are the proposition's; a question; ends on "of"; no verb: none of them is kept.
    assert!(
        chosen("Night trains beat short-haul flights, I think.", "Who pays for the sleeper cars at night?").is_empty()
    );
    assert!(
        chosen("The fares on the night trains are a matter of", "The comfort of a bed on a long journey.").is_empty()
    );
    // A claim that reads as one is kept.
    let new = "Trains run from city centre to city centre without a transfer.";
    assert_eq!(chosen(new, fresh).len(), 2);
}

#[test]
fn a_link_to_no_claim_or_to_its_own_side_is_asked_about() {
    let state = five_rounds();
    let named = |answers: &str| vec![claim("S9", Role::Skeptic, ClaimStatus::Standing, Some(answers))];
    assert_eq!(unknown_link(&state, 2, &named("A1")), None, "A1 is the proposition's");
    let missing = unknown_link(&state, 2, &named("A9")).unwrap();
    assert!(missing.contains("S9 answers A9, which the argument map does not have"), "{missing}");
    let own = unknown_link(&state, 2, &named("S1")).unwrap();
    assert!(own.contains("a claim of its own side"), "{own}");
    let both = vec![
        claim("A7", Role::Advocate, ClaimStatus::Standing, None),
        claim("S9", Role::Skeptic, ClaimStatus::Standing, Some("A7")),
    ];
    assert_eq!(unknown_link(&state, 2, &both), None, "a claim the same verdict names");
}

#[test]
fn a_claim_section_the_judge_left_out_is_kept_as_its_sides_claim() {
    let catalog = crate::format::Catalog::load(None);
    let socratic = catalog.find("socratic").unwrap_or_else(|e| panic!("{e}"));
    let mut state = DebateState::default();
    state.apply(&DebateEvent::Started {
        topic: "Night trains beat short-haul flights".into(),
        max_rounds: 4,
        initial_heat: Heat::new(0.9),
        participants: socratic.seats().iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
    });
    state.apply(&DebateEvent::Formatted { format: Box::new(socratic.log_record().unwrap()) });
    state.apply(&DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.9), injected: Vec::new() });
    for (role, text) in [
        (Role::Advocate, "Claim: A sleeper saves a hotel night.\nEvidence: fares.\nRebuttal: none.\nQuestion: why?"),
        (Role::Skeptic, "Claim: Fares are higher.\nEvidence: prices.\nRebuttal: no.\nQuestion: how?"),
    ] {
        for event in DebateEvent::turn(0, role, TurnPurpose::Argue, text) {
            state.apply(&event);
        }
    }
    // The judge named the skeptic's claim only: the advocate's Claim section is kept as A1.
    let mut named = vec![claim("S1", Role::Skeptic, ClaimStatus::Standing, None)];
    add_section_claims(&state, 0, &mut named);
    let said: Vec<(&str, &str)> = named.iter().map(|c| (c.id.as_str(), c.claim.as_str())).collect();
    assert_eq!(said, [("S1", "claim S1"), ("A1", "A sleeper saves a hotel night.")]);
    // A side the judge named a new claim for keeps the judge's; the same words are not claimed twice.
    let mut again = vec![claim("A1", Role::Advocate, ClaimStatus::Standing, None)];
    add_section_claims(&state, 0, &mut again);
    assert_eq!(again.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["A1", "S1"]);
    // In a format without a Claim section (oxford), nothing is added.
    let mut none = Vec::new();
    add_section_claims(&five_rounds(), 0, &mut none);
    assert!(none.is_empty(), "oxford's turns have no Claim section");
}
