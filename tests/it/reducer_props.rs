//! Properties of the one reducer and the log that feeds it, over arbitrary
//! event sequences (in any order, valid or not, as a damaged log could hold):
//! folding never panics; folding a sequence split at any point equals folding
//! it whole; every event survives JSON; a log written in two sittings (a
//! resume) replays to the same state; a log cut at any byte loads a prefix of
//! its events, never an error past the header, never an event that was not
//! written.
#![allow(clippy::unwrap_used)]

use heat::debate::Heat;
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Outcome, Participant, Role, TurnPurpose};
use heat::provider::Usage;
use heat::store::log::{self, Header, SessionLog};
use proptest::prelude::*;

fn role() -> impl Strategy<Value = Role> {
    prop_oneof![Just(Role::Advocate), Just(Role::Skeptic), Just(Role::Judge)]
}

fn purpose() -> impl Strategy<Value = TurnPurpose> {
    prop_oneof![
        Just(TurnPurpose::Argue),
        Just(TurnPurpose::Judge),
        Just(TurnPurpose::RepairVerdict),
        Just(TurnPurpose::Synthesis),
        Just(TurnPurpose::RepairSynthesis),
    ]
}

/// Heats on the wire are finite; include the edges and a little outside them.
fn heat() -> impl Strategy<Value = f32> {
    (-4i32..=44).prop_map(|n| n as f32 / 20.0)
}

/// Short text with the characters that break naive code: quotes, newlines,
/// escapes, multi-byte and wide characters.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("word ".to_string()),
            Just("\"".to_string()),
            Just("\n".to_string()),
            Just("\\".to_string()),
            Just("\u{1b}[2J".to_string()),
            Just("ünï".to_string()),
            Just("\u{1F525}".to_string()),
            Just("\u{4e2d}".to_string()),
            Just("**".to_string()),
        ],
        0..6,
    )
    .prop_map(|parts| parts.concat())
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        Just(Outcome::Resolved),
        Just(Outcome::Forced),
        Just(Outcome::MaxRounds),
        Just(Outcome::Cancelled),
        text().prop_map(Outcome::Failed),
    ]
}

fn event() -> impl Strategy<Value = DebateEvent> {
    let round = 0u32..4;
    prop_oneof![
        (text(), 1u32..5, heat()).prop_map(|(topic, max_rounds, initial_heat)| DebateEvent::Started {
            topic,
            max_rounds,
            initial_heat: Heat::new(initial_heat),
            participants: Role::DUEL
                .into_iter()
                .map(|role| Participant { role, provider: "openai".into(), model: "m".into(), served: None })
                .collect(),
        }),
        (round.clone(), text(), heat(), proptest::collection::vec(text(), 0..2)).prop_map(
            |(round, topic, heat, injected)| DebateEvent::RoundStarted {
                round,
                topic,
                heat: Heat::new(heat),
                injected
            }
        ),
        (round.clone(), role(), purpose(), proptest::option::of(heat())).prop_map(
            |(round, role, purpose, temperature)| DebateEvent::TurnStarted { round, role, purpose, temperature }
        ),
        (round.clone(), role(), text()).prop_map(|(round, role, text)| DebateEvent::Delta { round, role, text }),
        (round.clone(), role(), text()).prop_map(|(round, role, text)| DebateEvent::Reasoning { round, role, text }),
        (round.clone(), role(), 1u32..4, text()).prop_map(|(round, role, attempt, reason)| {
            DebateEvent::TurnRetrying { round, role, attempt, max_retries: 3, delay_ms: 500, reason }
        }),
        (round.clone(), role(), text(), proptest::option::of((0u64..9999, 0u64..9999))).prop_map(
            |(round, role, text, usage)| DebateEvent::TurnCompleted {
                round,
                role,
                text,
                usage: usage.map(|(input_tokens, output_tokens)| Usage {
                    input_tokens,
                    output_tokens,
                    cached_input_tokens: 0
                }),
                truncated_at: None,
            }
        ),
        (round.clone(), role()).prop_map(|(round, role)| DebateEvent::TurnCancelled { round, role }),
        (round.clone(), role(), text()).prop_map(|(round, role, error)| DebateEvent::TurnFailed { round, role, error }),
        (round.clone(), any::<bool>(), text(), text(), heat()).prop_map(|(round, resolved, verdict, topic, heat)| {
            DebateEvent::VerdictReached {
                round,
                verdict: Verdict { resolved, verdict, topic, heat: Heat::new(heat), ..Verdict::default() },
            }
        }),
        (round.clone(), text(), any::<bool>()).prop_map(|(round, error, will_retry)| DebateEvent::VerdictInvalid {
            round,
            error,
            will_retry
        }),
        round.clone().prop_map(|round| DebateEvent::SwapCheckStarted { round }),
        (round.clone(), any::<bool>(), any::<bool>(), 0u64..9999).prop_map(
            |(round, resolved, flips, output_tokens)| {
                DebateEvent::SwapChecked {
                    round,
                    verdict: Verdict { resolved, ..Verdict::default() },
                    flips,
                    usage: Some(Usage { input_tokens: 1, output_tokens, cached_input_tokens: 0 }),
                }
            }
        ),
        (round, text()).prop_map(|(round, error)| DebateEvent::SwapCheckFailed { round, error, usage: None }),
        Just(DebateEvent::Paused),
        Just(DebateEvent::Resumed),
        text().prop_map(|text| DebateEvent::TopicInjected { text }),
        heat().prop_map(|heat| DebateEvent::TemperaturePinned { heat: Heat::new(heat) }),
        Just(DebateEvent::TemperatureReleased),
        Just(DebateEvent::ResolutionForced),
        text().prop_map(|message| DebateEvent::Notice { message }),
        Just(DebateEvent::Reopened),
        (outcome(), proptest::option::of(text()))
            .prop_map(|(outcome, synthesis)| DebateEvent::Finished { outcome, synthesis }),
    ]
}

/// A sequence that usually starts like a real debate, then anything.
fn events() -> impl Strategy<Value = Vec<DebateEvent>> {
    (event(), proptest::collection::vec(event(), 0..60)).prop_map(|(first, rest)| {
        let mut all = vec![first];
        all.extend(rest);
        all
    })
}

fn header() -> Header {
    Header { heat_session: 1, id: "20261123-000000-prop".into(), created_ms: 0 }
}

/// The bytes of a log holding `events`, written by the real writer.
fn written(dir: &std::path::Path, events: &[DebateEvent]) -> Vec<u8> {
    let path = dir.join("whole.jsonl");
    let mut log = SessionLog::create(&path, &header()).unwrap();
    for event in events {
        log.append(event).unwrap();
    }
    log.sync().unwrap();
    drop(log);
    std::fs::read(&path).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn folding_split_at_any_point_equals_folding_whole(events in events(), cut in any::<prop::sample::Index>()) {
        let whole = DebateState::from_events(&events);
        let at = cut.index(events.len() + 1);
        let mut split = DebateState::from_events(&events[..at]);
        // The state between the halves also survives a trip through JSON, as a
        // snapshot would.
        split = serde_json::from_str(&serde_json::to_string(&split).unwrap()).unwrap();
        for event in &events[at..] {
            split.apply(event);
        }
        prop_assert_eq!(split, whole);
    }

    #[test]
    fn every_event_survives_json(event in event()) {
        let json = serde_json::to_string(&event).unwrap();
        let back: DebateEvent = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, event);
    }

    #[test]
    fn a_log_written_in_two_sittings_replays_to_the_live_state(
        events in events(),
        cut in any::<prop::sample::Index>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let at = cut.index(events.len() + 1);
        let mut first = SessionLog::create(&path, &header()).unwrap();
        for event in &events[..at] {
            first.append(event).unwrap();
        }
        first.sync().unwrap();
        drop(first);
        let (mut second, loaded) = SessionLog::reopen(&path).unwrap();
        prop_assert_eq!(loaded.records.len(), at);
        for event in &events[at..] {
            second.append(event).unwrap();
        }
        second.sync().unwrap();
        drop(second);

        let replayed = log::load(&path).unwrap();
        prop_assert!(replayed.notices.is_empty(), "notices: {:?}", replayed.notices);
        let stored: Vec<DebateEvent> = replayed.records.into_iter().map(|r| r.event).collect();
        prop_assert_eq!(&stored, &events);
        prop_assert_eq!(DebateState::from_events(&stored), DebateState::from_events(&events));
    }

    #[test]
    fn a_log_cut_at_any_byte_loads_a_prefix_of_its_events(
        events in events(),
        cut in any::<prop::sample::Index>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let bytes = written(dir.path(), &events);
        let header_len = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let at = cut.index(bytes.len() + 1);
        let result = log::parse(&bytes[..at]);
        if at + 1 < header_len {
            // Without a whole header there is nothing to trust: a clear error.
            let error = format!("{:#}", result.unwrap_err());
            prop_assert!(!error.is_empty());
            return Ok(());
        }
        if at + 1 == header_len {
            // The header whole but for its newline: read, and the repair said.
            let loaded = result.unwrap();
            prop_assert!(loaded.records.is_empty());
            prop_assert_eq!(loaded.notices.len(), 1);
            return Ok(());
        }
        let loaded = result.unwrap();
        let kept: Vec<DebateEvent> = loaded.records.iter().map(|r| r.event.clone()).collect();
        let whole_lines = memchr::memchr_iter(b'\n', &bytes[header_len..at]).count();
        prop_assert!(kept.len() >= whole_lines && kept.len() <= whole_lines + 1, "kept {} of {} whole lines", kept.len(), whole_lines);
        prop_assert_eq!(&kept[..], &events[..kept.len()]);
        // A torn tail is reported, never silently folded.
        let torn = at < bytes.len() && bytes[at - 1] != b'\n' && kept.len() == whole_lines;
        prop_assert_eq!(torn, !loaded.notices.is_empty(), "notices {:?}", loaded.notices);
    }
}
