//! Exports: the Markdown record matches its golden file; the JSON record
//! carries the folded state and every event.
#![allow(clippy::unwrap_used)]

use crate::support::log::{Log, completed, participant};

use heat::debate::Heat;
use heat::debate::verdict::{Ahead, Conceded};
use heat::debate::{DebateEvent, Outcome, Role, TurnPurpose, Verdict};
use heat::report::export::{ExportKind, render};
use heat::store::log::{Header, Record};

fn records() -> Vec<Record> {
    let participants = vec![
        participant(Role::Advocate, "anthropic", "claude-haiku-4-5"),
        participant(Role::Skeptic, "openai", "gpt-4.1-mini"),
        participant(Role::Judge, "local", "SmolLM2-135M"),
    ];
    let turn = |round, role, text: &str| {
        vec![
            DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(0.9) },
            DebateEvent::Delta { round, role, text: text.into() },
            completed(round, role, text),
        ]
    };
    let judge = |round, verdict: Verdict| {
        let text = serde_json::to_string(&verdict).unwrap();
        vec![
            DebateEvent::TurnStarted { round, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: Some(0.2) },
            completed(round, Role::Judge, &text),
            DebateEvent::VerdictReached { round, verdict },
        ]
    };
    let mut events = Log::new("Remote work beats the office", 3, 0.9).seated(participants).round(0).into_events();
    events.extend(turn(0, Role::Advocate, "Focus time grows at home.\x1b]0;title\x07"));
    events.extend(turn(0, Role::Skeptic, "Mentoring suffers."));
    events.push(DebateEvent::TopicInjected { text: "What about juniors?".into() });
    events.extend(judge(
        0,
        Verdict {
            resolved: false,
            verdict: "Strong openings.".into(),
            ahead: Some(Ahead::Advocate),
            conceded: Some(Conceded::Skeptic),
            topic: "Weigh mentoring costs".into(),
            heat: Heat::new(0.7),
            scores: None,
            ..Verdict::default()
        },
    ));
    events.push(DebateEvent::SwapCheckStarted { round: 0 });
    events.push(DebateEvent::SwapChecked {
        round: 0,
        verdict: Verdict { ahead: Some(Ahead::Skeptic), ..Verdict::default() },
        flips: true,
        usage: None,
    });
    events.push(DebateEvent::RoundStarted {
        round: 1,
        topic: "Weigh mentoring costs".into(),
        heat: Heat::new(0.5),
        injected: vec!["What about juniors?".into()],
    });
    events.push(DebateEvent::TemperaturePinned { heat: Heat::new(0.5) });
    events.extend(turn(1, Role::Advocate, "Mentoring can be scheduled."));
    events.extend(turn(1, Role::Skeptic, "Osmosis cannot."));
    events.push(DebateEvent::ResolutionForced);
    events.extend(judge(
        1,
        Verdict {
            resolved: true,
            verdict: "Hybrid wins: remote for focus, office for juniors.".into(),
            topic: "t".into(),
            heat: Heat::new(0.3),
            ..Verdict::default()
        },
    ));
    events.push(DebateEvent::Finished {
        outcome: Outcome::Forced,
        synthesis: Some("Hybrid wins: remote for focus, office for juniors.".into()),
    });
    events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64 * 1500, event }).collect()
}

fn header() -> Header {
    Header { heat_session: 1, id: "20261122-101500-beef".into(), created_ms: 1_795_342_500_000 }
}

#[test]
fn markdown_matches_the_golden_record() {
    let md = render(ExportKind::Md, &header(), &records());
    let golden_path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/export.md");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(golden_path, &md).unwrap();
    }
    let golden = std::fs::read_to_string(golden_path).unwrap();
    assert_eq!(md, golden, "run with UPDATE_GOLDEN=1 to accept a deliberate change");
    assert!(!md.contains('\x1b'), "escape sequences never reach an export");
}

#[test]
fn json_export_is_the_full_structured_record() {
    let text = render(ExportKind::Json, &header(), &records());
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["format"], "heat-session-export");
    assert_eq!(value["version"], 1);
    assert_eq!(value["session"]["id"], "20261122-101500-beef");
    assert!(value["session"]["created"].as_str().unwrap().starts_with("2026-"));
    assert_eq!(value["events"].as_array().unwrap().len(), records().len());
    assert_eq!(value["events"][0]["event"]["type"], "started");
    let state = &value["state"];
    assert_eq!(state["topic"], "Remote work beats the office");
    assert_eq!(state["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(state["finish"]["outcome"]["kind"], "forced");
    assert_eq!(state["pinned_heat"], 0.5);
    // Heats read as written, not widened from f32 (0.8999999761581421).
    assert!(text.contains("\"initial_heat\": 0.9,") && !text.contains("0.89999"), "{text}");
    let events: Vec<Record> = serde_json::from_value(value["events"].clone()).unwrap();
    assert_eq!(events, records(), "the events round-trip exactly");
}

#[test]
fn a_round_run_at_a_pinned_heat_is_marked_in_the_export() {
    let events = Log::new("T", 3, 0.9).round(0).pins(0.4).round_on(1, "T", 0.4).into_events();
    let records: Vec<Record> =
        events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64, event }).collect();
    let md = render(ExportKind::Md, &header(), &records);
    assert!(md.contains("- Heat by round: 0.90 → 0.40 (pinned)"), "{md}");
    assert!(md.contains("## Round 2 · heat 0.40 (pinned)") && md.contains("## Round 1 · heat 0.90\n"), "{md}");
}

#[test]
fn a_models_own_headings_sit_under_its_seats_heading_in_the_markdown_outline() {
    let own = "# My case\n\nOsmosis cannot.\n\n## Evidence\n\nJuniors say so.\n\n```\n# a comment in code\n```";
    let records: Vec<Record> = records()
        .into_iter()
        .map(|mut record| {
            if let DebateEvent::TurnCompleted { round: 1, role: Role::Skeptic, text, .. } = &mut record.event {
                own.clone_into(text);
            }
            record
        })
        .collect();
    let md = render(ExportKind::Md, &header(), &records);
    assert!(md.contains("### Skeptic\n\n#### My case\n\nOsmosis cannot.\n\n##### Evidence\n\n"), "{md}");
    assert!(md.contains("```\n# a comment in code\n```"), "code is left as it is:\n{md}");
}

#[test]
fn a_verdict_given_while_round_four_streams_is_round_four_everywhere() {
    use heat::debate::{Command, DebateState, command};
    // Rounds 1 to 3 judged open, round 4 streaming when the person gives a verdict.
    let open = |topic: &str| Verdict {
        resolved: false,
        verdict: "Open.".into(),
        topic: topic.into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    let mut log = Log::new("Remote work beats the office", 5, 0.9).seats(&Role::DUEL, "openai", "m").round(0);
    for round in 0..3 {
        log = log.both_argue(round).judge_rules(round, TurnPurpose::Judge, open(&format!("Question {}", round + 2)));
        log = log.round_on(round + 1, &format!("Question {}", round + 2), 0.6);
    }
    let log = log.starts(3, Role::Advocate, TurnPurpose::Argue).streams(3, Role::Advocate, "Half an argu");
    let state = DebateState::from_events(log.events());
    let given =
        Command::HumanVerdict { ahead: Some(Role::Skeptic), confidence: 70, note: "sharper".into(), ends: false };
    let events = command::events(&state, &given);
    // The log counts rounds from 0, as every event does: round 4 is 3.
    assert!(matches!(events.as_slice(), [DebateEvent::HumanVerdict { round: 3, .. }]), "{events:?}");
    let log = log.then_all(events);
    assert_eq!(DebateState::from_events(log.events()).human[0].round, 4);
    let records: Vec<Record> = log.into_events().into_iter().map(|event| Record { ms: 0, event }).collect();
    let md = render(ExportKind::Md, &header(), &records);
    assert!(md.contains("## Your verdicts\n\n- Round 4: skeptic ahead, 70% sure: sharper"), "{md}");
}

#[test]
fn notices_are_listed_in_their_own_section_before_the_synthesis_cleaned_of_escapes() {
    let events = Log::new("T", 1, 0.9)
        .round(0)
        .then(DebateEvent::Notice { message: "the advocate's model takes no tools".into() })
        .then(DebateEvent::Notice { message: "a server said \u{1b}[31mred\u{1b}[0m".into() })
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: Some("Trains win.".into()) })
        .into_events();
    let records: Vec<Record> =
        events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64, event }).collect();
    let md = render(ExportKind::Md, &header(), &records);
    let section = md.find("## Notices\n\n- the advocate's model takes no tools\n- a server said red\n").expect(&md);
    let synthesis = md.find("## Final synthesis").expect("the synthesis");
    assert!(section < synthesis, "{md}");
    assert!(!md.contains('\u{1b}'), "no escape reaches the export");

    // A debate with no notices has no such section.
    let quiet = Log::new("T", 1, 0.9).round(0).into_events();
    let records: Vec<Record> = quiet.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64, event }).collect();
    assert!(!render(ExportKind::Md, &header(), &records).contains("## Notices"));
}
