//! `heat run`'s text printer: concurrent debaters never interleave, retries
//! and failures read as sentences, model text is sanitised.
#![allow(clippy::unwrap_used)]

use heat::cli::json_lines::{json_line, read_json_line};
use heat::cli::print::{Style, TextPrinter};
use heat::debate::Heat;
use heat::debate::{DebateEvent, Outcome, Role, TurnPurpose, Verdict};

use crate::support::log::{self, Log};

fn delta(role: Role, text: &str) -> DebateEvent {
    DebateEvent::Delta { round: 0, role, text: text.into() }
}

fn started(role: Role) -> DebateEvent {
    DebateEvent::TurnStarted { round: 0, role, purpose: TurnPurpose::Argue, temperature: Some(0.9) }
}

fn completed(role: Role, text: &str) -> DebateEvent {
    log::completed(0, role, text)
}

fn opening() -> Vec<DebateEvent> {
    Log::new("Tabs beat spaces", 2, 0.9)
        .seats(&Role::DUEL, "p", "m")
        .round(0)
        .then(started(Role::Advocate))
        .then(started(Role::Skeptic))
        .into_events()
}

fn print(events: &[DebateEvent]) -> String {
    let mut printer = TextPrinter::new(Vec::new(), Style { color: false, width: None });
    for e in events {
        printer.event(e).unwrap();
    }
    String::from_utf8(printer.into_inner()).unwrap()
}

#[test]
fn interleaved_streams_print_as_two_whole_arguments() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "Tabs "),
        delta(Role::Skeptic, "Spaces "),
        delta(Role::Advocate, "are flexible."),
        delta(Role::Skeptic, "are stable."),
        completed(Role::Skeptic, "Spaces are stable."),
        completed(Role::Advocate, "Tabs are flexible."),
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
        delta(Role::Judge, "{\"resolved\""),
        DebateEvent::VerdictReached {
            round: 0,
            verdict: Verdict {
                resolved: false,
                verdict: "Close call.".into(),
                topic: "Costs?".into(),
                heat: Heat::new(0.7),
                ..Verdict::default()
            },
        },
        DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: Some("Tabs, narrowly.".into()) },
    ]);
    let out = print(&events);
    assert!(out.contains("▌ Advocate\nTabs are flexible.\n"), "{out}");
    assert!(out.contains("▌ Skeptic\nSpaces are stable.\n"), "{out}");
    assert!(out.find("▌ Advocate").unwrap() < out.find("▌ Skeptic").unwrap());
    assert!(out.contains("not resolved: Close call.\nnext: Costs? · heat 0.70"), "{out}");
    assert!(!out.contains("{\"resolved\""), "raw judge JSON is not printed: {out}");
    assert!(out.contains("══ ended at the round limit after 1 round ══\nTabs, narrowly."), "{out}");
    assert!(out.contains("── Round 1 of 2 · heat 0.90"), "{out}");
}

#[test]
fn a_verdict_that_closes_the_debate_says_so_under_the_judges_heading() {
    let mut events = opening();
    events.extend([
        completed(Role::Skeptic, "Spaces are stable."),
        completed(Role::Advocate, "Tabs are flexible."),
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
        DebateEvent::VerdictReached {
            round: 0,
            verdict: Verdict {
                resolved: true,
                verdict: "Tabs, on accessibility.".into(),
                topic: "Tabs beat spaces".into(),
                heat: Heat::new(0.3),
                ..Verdict::default()
            },
        },
        DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: Some("Tabs, on accessibility.".into()) },
    ]);
    let out = print(&events);
    assert!(
        out.contains(
            "▌ Judge
resolved: the synthesis follows, with the outcome
"
        ),
        "{out}"
    );
    assert_eq!(out.matches("Tabs, on accessibility.").count(), 1, "the synthesis is said once: {out}");
}

#[test]
fn a_seat_pinned_to_its_own_heat_is_named_in_the_rounds_heading() {
    let mut events = opening();
    events.extend([
        DebateEvent::SeatHeatPinned { role: Role::Skeptic, heat: Heat::new(0.35) },
        DebateEvent::RoundStarted { round: 1, topic: "Costs?".into(), heat: Heat::new(0.6), injected: Vec::new() },
    ]);
    let out = print(&events);
    assert!(out.contains("── Round 2 of 2 · heat 0.60 · skeptic 0.35 ─"), "the skeptic is asked at its pin: {out}");
    assert!(out.contains("── Round 1 of 2 · heat 0.90 ──"), "no pin, nothing more: {out}");
}

#[test]
fn a_model_served_by_another_name_is_said_once_for_every_seat_on_it() {
    let mut events = opening();
    events.extend([
        DebateEvent::ModelReported { role: Role::Advocate, model: "qwen".into() },
        DebateEvent::ModelReported { role: Role::Skeptic, model: "qwen".into() },
        DebateEvent::ModelReported { role: Role::Judge, model: "qwen".into() },
    ]);
    let out = print(&events);
    assert_eq!(out.matches("says qwen answered").count(), 1, "once, not once a seat: {out}");
    assert!(out.contains("says qwen answered for p/m (every seat on it)"), "{out}");
}

#[test]
fn a_retry_says_why_and_discards_the_partial_answer() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "half an"),
        DebateEvent::TurnRetrying {
            round: 0,
            role: Role::Advocate,
            attempt: 1,
            max_retries: 4,
            delay_ms: 2000,
            reason: "the provider is overloaded: busy".into(),
        },
        delta(Role::Advocate, "Whole answer."),
    ]);
    let out = print(&events);
    assert!(
        out.contains("↻ advocate: the provider is overloaded: busy; retrying in 2.0 s (attempt 1 of 4) — the partial answer above is discarded"),
        "{out}"
    );
    assert!(out.ends_with("▌ Advocate\nWhole answer."), "{out}");
}

#[test]
fn escape_sequences_from_models_never_reach_the_output() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "ok \x1b]0;pwned\x07 \x1b[2Jfine\x1b]52;c;Zm9v"),
        delta(Role::Advocate, "\x07 done\u{202E}"),
    ]);
    let out = print(&events);
    assert!(!out.contains('\x1b') && !out.contains('\x07') && !out.contains('\u{202E}'), "{out:?}");
    assert!(out.ends_with("ok  fine done"), "{out:?}");
}

#[test]
fn failures_and_outcomes_read_as_sentences() {
    let mut events = opening();
    events.extend([
        DebateEvent::TurnFailed {
            round: 0,
            role: Role::Skeptic,
            error: "authentication failed (401): invalid x-api-key".into(),
        },
        DebateEvent::Finished { outcome: Outcome::Failed("the skeptic could not answer".into()), synthesis: None },
    ]);
    let out = print(&events);
    assert!(out.contains("✗ skeptic failed: authentication failed (401): invalid x-api-key"), "{out}");
    // The reason is said once, by the turn that failed; the headline says where.
    assert!(out.contains("══ failed in round 1 ══"), "{out}");
    assert_eq!(out.matches("invalid x-api-key").count(), 1, "{out}");
}

#[test]
fn json_lines_round_trip() {
    let events = opening();
    let mut out = Vec::new();
    for e in &events {
        json_line(&mut out, e).unwrap();
    }
    let text = String::from_utf8(out).unwrap();
    let parsed: Vec<DebateEvent> = text.lines().map(|l| read_json_line(l).unwrap()).collect();
    assert_eq!(parsed, events);
    assert!(text.lines().next().unwrap().starts_with(r#"{"type":"started""#));
    // Rounds are numbered for people: the first is round 1, as on screen.
    assert!(events.iter().any(|e| matches!(e, DebateEvent::RoundStarted { round: 0, .. })));
    let first_round = text.lines().find(|l| l.contains(r#""type":"round_started""#)).unwrap();
    let value: serde_json::Value = serde_json::from_str(first_round).unwrap();
    assert_eq!(value["round"], 1, "{first_round}");
    assert!(text.lines().all(|l| !l.contains(r#""round":0"#)), "{text}");
}

#[test]
fn with_a_width_arguments_wrap_at_word_boundaries() {
    let mut events = opening();
    let words = "Remote work removes the commute, widens the hiring pool and gives people long blocks of focus.";
    for piece in words.split_inclusive(' ') {
        events.push(delta(Role::Advocate, piece));
    }
    events.push(completed(Role::Advocate, words));
    let mut printer = TextPrinter::new(Vec::new(), Style { color: false, width: Some(24) });
    for e in &events {
        printer.event(e).unwrap();
    }
    let out = String::from_utf8(printer.into_inner()).unwrap();
    let body: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("▌ Advocate")).skip(1).take_while(|l| !l.is_empty()).collect();
    assert!(body.len() > 3, "{out}");
    assert!(body.iter().all(|l| l.chars().count() <= 24 && !l.ends_with(' ')), "{body:?}");
    assert_eq!(body.join(" "), words, "no word is split or lost");
}

#[test]
fn a_debate_the_person_stopped_is_called_stopped_as_the_quit_dialog_says() {
    let mut events = opening();
    events.push(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    let out = print(&events);
    assert!(out.contains("══ stopped in round 1 ══"), "{out}");
    assert!(!out.contains("cancelled"), "{out}");
}

#[test]
fn a_note_that_comes_mid_argument_waits_for_the_argument_to_end() {
    let mut events = opening();
    events.extend([
        DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, purpose: TurnPurpose::Argue, temperature: None },
        DebateEvent::Delta { round: 0, role: Role::Skeptic, text: "Spaces render the same".into() },
        DebateEvent::ModelReported { role: Role::Advocate, model: "m".into() },
        DebateEvent::Delta { round: 0, role: Role::Skeptic, text: " everywhere.".into() },
        DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Skeptic,
            text: "Spaces render the same everywhere.".into(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        },
    ]);
    let out = print(&events);
    assert!(out.contains("Spaces render the same everywhere.\nnote: the server says m answered"), "{out}");
}

#[test]
fn steering_while_a_debater_streams_waits_for_the_end_of_its_text() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "Tabs are "),
        DebateEvent::TopicInjected { text: "What about diffs?".into() },
        DebateEvent::TemperaturePinned { heat: Heat::new(0.5) },
        delta(Role::Advocate, "flexible."),
        completed(Role::Advocate, "Tabs are flexible."),
    ]);
    let out = print(&events);
    assert!(
        out.contains("▌ Advocate\nTabs are flexible.\n[topic injected: What about diffs?]\n[heat pinned at 0.50]\n"),
        "{out}"
    );
}

#[test]
fn a_scripted_debate_says_so_under_its_participants() {
    let started = Log::new("Tabs beat spaces", 2, 0.9).seats(&Role::DUEL, "scripted", "demo").round(0);
    let out = print(started.events());
    assert!(out.contains("judge     scripted/demo\n  a scripted demo: written in advance"), "{out}");
    assert!(!print(&opening()).contains("scripted"), "a debate of models is not labelled");
}

#[test]
fn who_is_ahead_a_concession_and_the_swap_checks_mark_are_said() {
    use heat::debate::verdict::{Ahead, Conceded};
    let mut events = opening();
    let verdict = Verdict {
        verdict: "Close call.".into(),
        ahead: Some(Ahead::Skeptic),
        conceded: Some(Conceded::Both),
        topic: "Costs?".into(),
        heat: Heat::new(0.7),
        ..Verdict::default()
    };
    let swapped = Verdict { ahead: Some(Ahead::Advocate), ..verdict.clone() };
    events.extend([
        completed(Role::Advocate, "Tabs."),
        completed(Role::Skeptic, "Spaces."),
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
        DebateEvent::VerdictReached { round: 0, verdict },
        DebateEvent::SwapCheckStarted { round: 0 },
        DebateEvent::SwapChecked { round: 0, verdict: swapped, flips: true, usage: None },
    ]);
    let out = print(&events);
    assert!(out.contains("skeptic ahead · ⚑ advocate conceded a point · ⚑ skeptic conceded a point"), "{out}");
    assert!(
        out.contains(
            "⇄ verdict flips on swap: read with the skeptic first, the judge said advocate ahead, not resolved"
        ),
        "{out}"
    );
    let failed = [DebateEvent::SwapCheckFailed { round: 0, error: "HTTP 500\x1b[31m".into(), usage: None }];
    let out = print(&failed);
    assert!(out.contains("⇄ swap check failed: HTTP 500") && !out.contains('\x1b'), "{out}");
}

#[test]
fn a_retry_or_failure_of_one_seat_never_breaks_another_seats_streaming_line() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "Tabs let every reader "),
        DebateEvent::TurnRetrying {
            round: 0,
            role: Role::Skeptic,
            attempt: 1,
            max_retries: 4,
            delay_ms: 500,
            reason: "the stream ended before the answer was complete".into(),
        },
        DebateEvent::TurnFailed { round: 0, role: Role::Skeptic, error: "the server refused the key".into() },
        delta(Role::Advocate, "choose a width."),
        completed(Role::Advocate, "Tabs let every reader choose a width."),
    ]);
    let out = print(&events);
    assert!(out.contains("Tabs let every reader choose a width.\n"), "the line is whole:\n{out}");
    let argument = out.find("choose a width.").unwrap();
    let retry = out.find("↻ skeptic").unwrap_or_else(|| panic!("the retry is said:\n{out}"));
    let failed = out.find("✗ skeptic failed").unwrap_or_else(|| panic!("the failure is said:\n{out}"));
    assert!(argument < retry && retry < failed, "both wait for the line's end, in order:\n{out}");
}

#[test]
fn a_pause_mid_sentence_is_said_on_its_own_line_after_the_paragraph() {
    let mut events = opening();
    events.extend([
        delta(Role::Advocate, "Tabs let every "),
        DebateEvent::Paused,
        DebateEvent::Resumed,
        delta(Role::Advocate, "reader choose a width."),
        completed(Role::Advocate, "Tabs let every reader choose a width."),
    ]);
    let out = print(&events);
    assert!(out.contains("Tabs let every reader choose a width."), "the sentence is whole:\n{out}");
    let lines: Vec<&str> = out.lines().collect();
    let paused =
        lines.iter().position(|l| *l == "[paused]").unwrap_or_else(|| panic!("[paused] alone on a line:\n{out}"));
    let sentence = lines.iter().position(|l| l.contains("reader choose a width.")).unwrap();
    assert!(paused > sentence && lines[paused + 1] == "[resumed]", "{out}");
}
