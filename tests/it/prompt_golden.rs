//! Golden text of every prompt heat sends, pinned before the protocol is
//! generalised: the debaters' messages (full and brief, first round and a
//! later one), the openings a continuing model is given, the judge's
//! messages for each purpose (Verdict JSON and the chosen form), the system
//! prompts (full and compact) and the control line. Snapshots (insta) under
//! `tests/snapshots/`; each is built from a fixed debate log, so nothing in
//! them changes from run to run.

use heat::debate::Heat;
use heat::debate::prompt::{Prompts, control_line, debater_messages, judge_messages, opening};
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Role, TurnPurpose};
use heat::provider::{ChatMessage, ChatRole};

use crate::support::log::Log;

const PROPOSITION: &str = "Cities should ban cars from their centres.";
const NEXT_TOPIC: &str = "Would deliveries cost small shops more without cars?";
const INJECTED: &str = "What about people who use wheelchairs?";
const LATE_INJECTION: &str = "Does the answer change for a town of 50,000 people?";

const ADVOCATE_0: &str = "I agree that cities should ban cars from their centres. My first reason is that \
    streets become safer for children. Air quality improves when traffic falls.";
const SKEPTIC_0: &str = "I disagree that cities should ban cars from their centres. My first objection is that \
    deliveries would cost more for small shops. People who cannot walk far rely on cars.";
const VERDICT_0: &str = "The advocate's safety case stands; the skeptic's point about deliveries is unanswered.";
const ADVOCATE_1: &str = "The skeptic's point fails because cargo bikes and night deliveries already serve \
    car-free streets. Shops on pedestrian streets sell more, not less.";
const SKEPTIC_1: &str =
    "The advocate's point fails because a cargo bike cannot carry a fridge. Small shops would pay twice for";
const GARBLED: &str = "Both sides made good points, and I would lean towards the advocate overall.";
const PARSE_ERROR: &str = "the answer contains no JSON object";

/// A duel of `max_rounds` rounds on `proposition` from heat 0.7.
fn debate_on(proposition: &str, max_rounds: u32) -> Log {
    Log::new(proposition, max_rounds, 0.7).seats(&Role::DUEL, "openai", "gpt-test")
}

fn start(max_rounds: u32) -> Vec<DebateEvent> {
    debate_on(PROPOSITION, max_rounds).into_events()
}

fn argue(events: &mut Vec<DebateEvent>, round: u32, role: Role, text: &str, truncated_at: Option<u32>) {
    events.push(DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(0.7) });
    events.push(DebateEvent::TurnCompleted {
        round,
        role,
        text: text.into(),
        usage: None,
        truncated_at,
        possibly_cut: false,
    });
}

/// Round 1 argued and judged (open, a new question, heat 0.8), a topic
/// injected for round 2, which has started at 0.8 on the judge's question
/// and whose debaters have argued (the skeptic cut at its token limit).
fn two_rounds_argued(max_rounds: u32) -> Vec<DebateEvent> {
    let mut events = start(max_rounds);
    events.push(DebateEvent::RoundStarted {
        round: 0,
        topic: PROPOSITION.into(),
        heat: Heat::new(0.7),
        injected: vec![],
    });
    argue(&mut events, 0, Role::Advocate, ADVOCATE_0, None);
    argue(&mut events, 0, Role::Skeptic, SKEPTIC_0, None);
    let verdict = Verdict {
        resolved: false,
        verdict: VERDICT_0.into(),
        topic: NEXT_TOPIC.into(),
        heat: Heat::new(0.8),
        ..Verdict::default()
    };
    events.push(DebateEvent::TurnStarted {
        round: 0,
        role: Role::Judge,
        purpose: TurnPurpose::Judge,
        temperature: None,
    });
    events.push(DebateEvent::TurnCompleted {
        round: 0,
        role: Role::Judge,
        text: serde_json::to_string(&verdict).expect("a verdict serialises"),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    events.push(DebateEvent::VerdictReached { round: 0, verdict });
    events.push(DebateEvent::TopicInjected { text: INJECTED.into() });
    events.push(DebateEvent::RoundStarted {
        round: 1,
        topic: NEXT_TOPIC.into(),
        heat: Heat::new(0.8),
        injected: vec![INJECTED.into()],
    });
    argue(&mut events, 1, Role::Advocate, ADVOCATE_1, None);
    argue(&mut events, 1, Role::Skeptic, SKEPTIC_1, Some(256));
    events
}

/// The judge's answer in round 2 with `purpose` did not parse; it will be asked again.
fn judge_garbled(mut events: Vec<DebateEvent>, purpose: TurnPurpose) -> Vec<DebateEvent> {
    events.push(DebateEvent::TurnStarted { round: 1, role: Role::Judge, purpose, temperature: None });
    events.push(DebateEvent::TurnCompleted {
        round: 1,
        role: Role::Judge,
        text: GARBLED.into(),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    events.push(DebateEvent::VerdictInvalid { round: 1, error: PARSE_ERROR.into(), will_retry: true });
    events
}

/// The last round of two, argued, with a topic injected too late for any round.
fn last_round_argued() -> Vec<DebateEvent> {
    let mut events = two_rounds_argued(2);
    events.push(DebateEvent::TopicInjected { text: LATE_INJECTION.into() });
    events
}

fn state(events: &[DebateEvent]) -> DebateState {
    DebateState::from_events(events)
}

/// A message list as a person reads it: each message headed by its number and role.
fn render(messages: &[ChatMessage]) -> String {
    let mut out = String::new();
    for (i, message) in messages.iter().enumerate() {
        let role = match message.role {
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        };
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("===== {} {role} =====\n{}\n", i + 1, message.content));
    }
    out
}

// ---- the debaters ----

fn check_debater(role: Role, round: u32) {
    let state = state(&two_rounds_argued(3));
    for (brief, form) in [(false, "full"), (true, "brief")] {
        let text = render(&debater_messages(&state, role, round, brief));
        let heat = if round == 0 { 0.7 } else { 0.8 };
        // The full form carries the control line; the brief one (a tiny model's) does not.
        assert!(text.contains(PROPOSITION) && text.contains(&control_line(heat)) != brief, "{text}");
        insta::assert_snapshot!(format!("debater_{}_round{}_{form}", role.key(), round + 1), text);
    }
}

#[test]
fn advocate_round_1() {
    check_debater(Role::Advocate, 0);
}

#[test]
fn skeptic_round_1() {
    check_debater(Role::Skeptic, 0);
}

#[test]
fn advocate_round_2() {
    check_debater(Role::Advocate, 1);
}

#[test]
fn skeptic_round_2() {
    check_debater(Role::Skeptic, 1);
}

#[test]
fn later_rounds_carry_the_heat_the_judge_set_and_the_opponents_argument() {
    let state = state(&two_rounds_argued(3));
    let full = render(&debater_messages(&state, Role::Advocate, 1, false));
    assert!(full.contains(&control_line(0.8)) && full.contains(SKEPTIC_0) && full.contains(VERDICT_0), "{full}");
    let brief = render(&debater_messages(&state, Role::Skeptic, 1, true));
    assert!(brief.contains("The advocate's main point: \u{201c}Streets become safer for children.\u{201d}"), "{brief}");
}

/// A tiny model (the embedded one, given brief prompts and the compact
/// system prompt) writes about what it is shown: it is shown no control
/// channel to write about. The heat reaches it as its sampling temperature.
#[test]
fn a_tiny_model_is_shown_no_control_line_to_write_about() {
    let state = state(&two_rounds_argued(3));
    for role in Role::DEBATERS {
        for round in [0, 1] {
            let brief = render(&debater_messages(&state, role, round, true));
            assert!(!brief.contains("set_temp") && !brief.contains('{'), "{role:?} round {round}: {brief}");
        }
        let system = Prompts::compact().system_for(role);
        assert!(!system.contains("set_temp") && !system.contains("control"), "{system}");
    }
}

// ---- openings for a model that continues a given start ----

#[test]
fn openings() {
    let mut text = String::new();
    for proposition in [
        PROPOSITION,
        "Should cities ban cars?",
        "NASA should return to the Moon!",
        "Paris should ban cars.",
        "I should learn Rust.",
        "Store API keys in environment variables",
        "Use of tabs is rising.",
        "   ",
    ] {
        let state = debate_on(proposition, 3).state();
        text.push_str(&format!("proposition: {proposition:?}\n"));
        for role in Role::DUEL {
            for round in [0, 1] {
                text.push_str(&format!("  {} round {}: {:?}\n", role.key(), round + 1, opening(&state, role, round)));
            }
        }
    }
    insta::assert_snapshot!("openings", text);
}

// ---- the judge ----

fn check_judge(name: &str, events: &[DebateEvent], purpose: TurnPurpose, must: &[&str]) {
    let state = state(events);
    for (chosen, form) in [(false, "json"), (true, "chosen")] {
        let text = render(&judge_messages(&state, 1, purpose, chosen));
        assert!(text.contains(PROPOSITION) && text.contains(ADVOCATE_1), "{text}");
        for needle in must {
            assert!(text.contains(needle), "{name} ({form}) lacks {needle:?}:\n{text}");
        }
        insta::assert_snapshot!(format!("judge_{name}_{form}"), text);
    }
}

#[test]
fn judge_verdict() {
    check_judge("verdict", &two_rounds_argued(3), TurnPurpose::Judge, &[NEXT_TOPIC, INJECTED, "256 tokens"]);
}

#[test]
fn judge_repair_verdict() {
    let events = judge_garbled(two_rounds_argued(3), TurnPurpose::Judge);
    check_judge("repair_verdict", &events, TurnPurpose::RepairVerdict, &[GARBLED, PARSE_ERROR]);
}

#[test]
fn judge_synthesis() {
    check_judge("synthesis", &last_round_argued(), TurnPurpose::Synthesis, &[LATE_INJECTION]);
}

#[test]
fn judge_repair_synthesis() {
    let events = judge_garbled(last_round_argued(), TurnPurpose::Synthesis);
    check_judge("repair_synthesis", &events, TurnPurpose::RepairSynthesis, &[GARBLED, PARSE_ERROR]);
}

#[test]
fn judge_forced_synthesis() {
    let mut events = two_rounds_argued(3);
    events.push(DebateEvent::ResolutionForced);
    check_judge("forced_synthesis", &events, TurnPurpose::Synthesis, &[]);
}

// ---- system prompts and the control line ----

#[test]
fn system_prompts() {
    for (prompts, form) in [(Prompts::default(), "full"), (Prompts::compact(), "compact")] {
        for role in Role::DUEL {
            // What a served debater is sent: the rules with what its control line means.
            let text = if form == "full" && role.is_debater() {
                prompts.system_with_control(role, None)
            } else {
                prompts.system_for(role)
            };
            assert!(text.starts_with(prompts.system.trim_end()), "{form} {role:?}: {text}");
            insta::assert_snapshot!(format!("system_{form}_{}", role.key()), text);
        }
    }
}

#[test]
fn control_lines() {
    let mut text = String::new();
    for heat in [0.3_f32, 0.5, 0.7, 0.75, 0.8, 1.0, 0.333, 0.005] {
        text.push_str(&format!("{heat} -> {}\n", control_line(heat)));
    }
    assert_eq!(control_line(0.7), "{\"set_temp\": 0.70}");
    insta::assert_snapshot!("control_lines", text);
}
