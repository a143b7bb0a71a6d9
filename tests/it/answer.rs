//! The answer step, `answer::on_done`, pinned case by case as the planner
//! is in `plan.rs`: each test folds a real event log into a `DebateState`,
//! hands it what a call answered, and states exactly what the engine is to
//! record and do next. No engine, no tokio.

use heat::debate::PanelJudge;
use heat::debate::answer::{self, Act, Answered};
use heat::debate::call::Call;
use heat::debate::guard::turn::SentPrompt;
use heat::debate::panel;
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Heat, Role, TurnPurpose};
use heat::provider::{FinishReason, Usage};

use crate::support::log::{Log, built_in};

const TOPIC: &str = "Cities should ban cars from their centres.";
const ADVOCATE: &str = "Cars crowd out people: a centre without them gives the street back to walking, \
                        trade and air that children can breathe.";
const SKEPTIC: &str = "Deliveries, disabled visitors and night workers still need to reach the centre, \
                       and a ban pushes the traffic onto the ring roads instead.";
const NEXT: &str = "Would deliveries cost small shops more without cars?";

/// A duel's first round, argued by both sides.
fn argued() -> Log {
    Log::new(TOPIC, 3, 0.9)
        .seats(&Role::DUEL, "openai", "gpt-test")
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .completes(0, Role::Advocate, ADVOCATE)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .completes(0, Role::Skeptic, SKEPTIC)
}

/// Nothing sent that a guard would compare an answer with.
static SENT: SentPrompt = SentPrompt { system: String::new(), user: Vec::new(), own: Vec::new() };

/// What a call answered (`text`: a vote's or a swap check's; a turn's is
/// in the state).
fn answered(call: Call, purpose: TurnPurpose, text: &str) -> Answered<'_> {
    Answered {
        call,
        purpose,
        sent: &SENT,
        guard_retry: false,
        text,
        usage: None,
        finish: None,
        max_tokens: 512,
        form: None,
    }
}

fn written_verdict(resolved: bool, heat: f32) -> String {
    format!(
        r#"{{"resolved": {resolved}, "verdict": "The advocate showed what streets gain; the skeptic named who loses access, and neither answered the other.", "topic": "{NEXT}", "heat": {heat}}}"#
    )
}

fn emitted(acts: &[Act]) -> Vec<&DebateEvent> {
    acts.iter()
        .filter_map(|act| match act {
            Act::Emit(event) => Some(event),
            _ => None,
        })
        .collect()
}

#[test]
fn an_argument_that_stands_is_completed_then_its_citations_checked() {
    let state = Log::new(TOPIC, 3, 0.9)
        .seats(&Role::DUEL, "openai", "gpt-test")
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .streams(0, Role::Advocate, ADVOCATE)
        .state();
    let mut done = answered(Call::Turn { round: 0, role: Role::Advocate }, TurnPurpose::Argue, "");
    done.usage = Some(Usage { input_tokens: 300, output_tokens: 40, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(
        answer::on_done(&state, &done),
        vec![
            Act::Emit(DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text: ADVOCATE.into(),
                usage: done.usage,
                truncated_at: None,
                possibly_cut: false
            }),
            Act::CheckQuotes { round: 0, role: Role::Advocate, text: ADVOCATE.into() },
        ]
    );
}

#[test]
fn an_argument_cut_at_its_token_limit_says_where_it_stopped() {
    let state = Log::new(TOPIC, 3, 0.9)
        .round(0)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .streams(0, Role::Skeptic, SKEPTIC)
        .state();
    let mut cut = answered(Call::Turn { round: 0, role: Role::Skeptic }, TurnPurpose::Argue, "");
    cut.finish = Some(FinishReason::Length);
    cut.usage = Some(Usage { input_tokens: 200, output_tokens: 57, cached_input_tokens: 0, ..Usage::default() });
    let truncated = |acts: Vec<Act>| match acts.first() {
        Some(Act::Emit(DebateEvent::TurnCompleted { truncated_at, .. })) => *truncated_at,
        other => panic!("expected the turn completed first, got {other:?}"),
    };
    assert_eq!(truncated(answer::on_done(&state, &cut)), Some(57), "the count the provider gave");
    cut.usage = None;
    assert_eq!(truncated(answer::on_done(&state, &cut)), Some(512), "no count: the model's limit");
    // A gateway that reports every stop as a clean one: the count fills the limit sent.
    cut.finish = Some(FinishReason::Stop);
    cut.usage = Some(Usage { input_tokens: 200, output_tokens: 512, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(truncated(answer::on_done(&state, &cut)), Some(512), "a clean stop at the limit is a cut");
    cut.usage = Some(Usage { input_tokens: 200, output_tokens: 300, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(truncated(answer::on_done(&state, &cut)), None, "below the limit it ended as it said");
}

#[test]
fn a_clean_stop_mid_sentence_is_marked_possibly_cut_however_much_of_the_limit_it_used() {
    let possibly_cut = |provider: &str, text: &str, out: u64| {
        let state = Log::new(TOPIC, 3, 0.9)
            .seats(&Role::DUEL, provider, "m")
            .round(0)
            .starts(0, Role::Advocate, TurnPurpose::Argue)
            .streams(0, Role::Advocate, text)
            .state();
        let mut done = answered(Call::Turn { round: 0, role: Role::Advocate }, TurnPurpose::Argue, "");
        done.finish = Some(FinishReason::Stop);
        done.usage = Some(Usage { input_tokens: 300, output_tokens: out, cached_input_tokens: 0, ..Usage::default() });
        match answer::on_done(&state, &done).first() {
            Some(Act::Emit(DebateEvent::TurnCompleted { possibly_cut, .. })) => *possibly_cut,
            other => panic!("{other:?}"),
        }
    };
    // A gateway whose upstream died mid-answer: a clean end_turn after half a sentence.
    let half = "Cars crowd out people. The evidence you've provided";
    assert!(possibly_cut("anthropic", half, 12));
    assert!(possibly_cut("openai", "Cars crowd out people, and", 9));
    assert!(!possibly_cut("anthropic", "Cars crowd out people.", 6), "a whole sentence");
    assert!(!possibly_cut("anthropic", "Three reasons:\n- air\n- trade", 9), "a list item may end bare");
    assert!(possibly_cut("anthropic", half, 500), "near its limit too: one rule, whatever it used");
    assert!(
        possibly_cut("anthropic", "Three reasons:\n- air\n- trade, because the", 9),
        "a list item cut on a joining word"
    );
    assert!(!possibly_cut("local", half, 12), "the embedded model is not a gateway");
}

#[test]
fn usage_of_nothing_in_and_nothing_out_is_unknown_not_zero() {
    let state = Log::new(TOPIC, 3, 0.9)
        .round(0)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .streams(0, Role::Skeptic, SKEPTIC)
        .state();
    let completed = |acts: Vec<Act>| match acts.first() {
        Some(Act::Emit(DebateEvent::TurnCompleted { usage, truncated_at, .. })) => (*usage, *truncated_at),
        other => panic!("expected the turn completed first, got {other:?}"),
    };
    let mut done = answered(Call::Turn { round: 0, role: Role::Skeptic }, TurnPurpose::Argue, "");
    // A gateway that reports 0 in / 0 out for every call.
    done.usage = Some(Usage::default());
    assert_eq!(completed(answer::on_done(&state, &done)), (None, None), "not a measurement");
    // Output counted but no prompt: no request has an empty prompt.
    done.usage = Some(Usage { input_tokens: 0, output_tokens: 31, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(completed(answer::on_done(&state, &done)).0, None);
    // A prompt counted but nothing out, for an answer with text.
    done.usage = Some(Usage { input_tokens: 200, output_tokens: 0, cached_input_tokens: 0, ..Usage::default() });
    done.finish = Some(FinishReason::Length);
    assert_eq!(
        completed(answer::on_done(&state, &done)),
        (None, Some(512)),
        "cut where the model's limit says, never `cut at 1 tokens`"
    );
}

#[test]
fn an_argument_that_is_only_its_control_line_is_asked_once_more_then_fails() {
    let state = Log::new(TOPIC, 3, 0.9)
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .streams(0, Role::Advocate, r#"{"set_temp": 0.9}"#)
        .state();
    let mut first = answered(Call::Turn { round: 0, role: Role::Advocate }, TurnPurpose::Argue, "");
    let acts = answer::on_done(&state, &first);
    assert!(
        matches!(
            acts.as_slice(),
            [
                Act::Emit(DebateEvent::TurnRetrying { round: 0, role: Role::Advocate, attempt: 1, max_retries: 1, delay_ms: 0, reason }),
                Act::AskAgain { round: 0, role: Role::Advocate, purpose: TurnPurpose::Argue },
            ] if reason.contains("control line")
        ),
        "{acts:?}"
    );
    first.guard_retry = true;
    let acts = answer::on_done(&state, &first);
    assert!(
        matches!(acts.as_slice(), [Act::Emit(DebateEvent::TurnFailed { round: 0, role: Role::Advocate, error })] if error.ends_with("on both tries")),
        "{acts:?}"
    );
}

/// A duel on `provider` in round 2, the advocate saying its round 1 argument again.
fn repeating_in_round_two(provider: &str) -> DebateState {
    Log::new(TOPIC, 3, 0.9)
        .seats(&Role::DUEL, provider, "m")
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .completes(0, Role::Advocate, ADVOCATE)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .completes(0, Role::Skeptic, SKEPTIC)
        .round(1)
        .starts(1, Role::Advocate, TurnPurpose::Argue)
        .streams(1, Role::Advocate, ADVOCATE)
        .state()
}

#[test]
fn a_served_model_repeating_its_own_turn_as_a_duel_sends_it_is_asked_again_and_said() {
    // A real duel's round 2: the seat's round 1 argument travels as an assistant message.
    let request = heat::provider::ChatRequest {
        messages: vec![
            heat::provider::ChatMessage::user(format!("Round 1 of 3. {TOPIC}")),
            heat::provider::ChatMessage::assistant(ADVOCATE),
            heat::provider::ChatMessage::user(NEXT),
        ],
        ..Default::default()
    };
    let sent = SentPrompt::of(&request);
    let state = repeating_in_round_two("openai");
    let mut again = answered(Call::Turn { round: 1, role: Role::Advocate }, TurnPurpose::Argue, "");
    again.sent = &sent;
    let first = answer::on_done(&state, &again);
    assert!(matches!(first.last(), Some(Act::AskAgain { round: 1, .. })), "asked once more first: {first:?}");
    again.guard_retry = true;
    let acts = answer::on_done(&state, &again);
    let said = acts.iter().find_map(|a| match a {
        Act::Emit(DebateEvent::Notice { message }) => Some(message.as_str()),
        _ => None,
    });
    assert_eq!(
        said,
        Some("⟳ The advocate's argument in round 2 repeats its round 1 argument: kept, as it came"),
        "{acts:#?}"
    );
    // The embedded model's opening, a trailing assistant message, is the answer's start, not its history.
    let mut opened = request.clone();
    opened.messages.push(heat::provider::ChatMessage::assistant("Tabs"));
    assert_eq!(SentPrompt::of(&opened).user, sent.user);
}

#[test]
fn a_served_model_that_repeats_its_last_argument_twice_is_kept_and_said_the_embedded_ones_fails() {
    let repeat = repeating_in_round_two;
    // Its prompt quotes its round 1 argument, which it says again word for word.
    let sent = SentPrompt {
        system: String::new(),
        user: vec![format!("Your last argument: {ADVOCATE}\n{NEXT}")],
        own: Vec::new(),
    };
    let mut again = answered(Call::Turn { round: 1, role: Role::Advocate }, TurnPurpose::Argue, "");
    again.sent = &sent;
    let first = answer::on_done(&repeat("openai"), &again);
    assert!(matches!(first.last(), Some(Act::AskAgain { round: 1, .. })), "asked once more first: {first:?}");
    again.guard_retry = true;
    let acts = answer::on_done(&repeat("openai"), &again);
    match acts.as_slice() {
        [
            Act::Emit(DebateEvent::TurnCompleted { round: 1, role: Role::Advocate, text, .. }),
            Act::Emit(DebateEvent::Notice { message }),
            Act::CheckQuotes { round: 1, role: Role::Advocate, .. },
        ] => {
            assert_eq!(text, ADVOCATE, "kept as it came");
            assert_eq!(message, "⟳ The advocate's argument in round 2 repeats its round 1 argument: kept, as it came");
        }
        other => panic!("expected the argument kept and said, got {other:#?}"),
    }
    // The embedded model's echo of its prompt is still a failed turn.
    let acts = answer::on_done(&repeat("local"), &again);
    assert!(
        matches!(acts.as_slice(), [Act::Emit(DebateEvent::TurnFailed { error, .. })] if error.contains("copied its prompt")),
        "{acts:?}"
    );
}

#[test]
fn an_answer_of_braces_or_a_word_is_no_argument_from_any_model() {
    for (answer, provider) in [("{...}", "openai"), ("OK.", "anthropic"), ("42", "local")] {
        let state = Log::new(TOPIC, 3, 0.9)
            .seats(&Role::DUEL, provider, "m")
            .round(0)
            .starts(0, Role::Skeptic, TurnPurpose::Argue)
            .streams(0, Role::Skeptic, answer)
            .state();
        let mut done = answered(Call::Turn { round: 0, role: Role::Skeptic }, TurnPurpose::Argue, "");
        let acts = answer::on_done(&state, &done);
        assert!(
            matches!(acts.as_slice(), [Act::Emit(DebateEvent::TurnRetrying { reason, .. }), Act::AskAgain { .. }] if reason.contains("too few words")),
            "{answer:?} from {provider}: {acts:?}"
        );
        done.guard_retry = true;
        let acts = answer::on_done(&state, &done);
        assert!(matches!(acts.as_slice(), [Act::Emit(DebateEvent::TurnFailed { .. })]), "never judged: {acts:?}");
    }
}

#[test]
fn prose_where_a_json_form_was_asked_steps_the_form_down_once_and_the_verdict_is_asked_again() {
    use heat::debate::answer::AskedForm;
    use heat::provider::{Adaptation, StructuredOutput};
    const ENDPOINT: &str = "anthropic http://127.0.0.1:4000";
    let prose = "The advocate argued better; the skeptic never answered the point about width.";
    let state = argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, prose).state();
    let mut done = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, "");
    let asked = AskedForm {
        endpoint: ENDPOINT,
        provider: "anthropic",
        form: StructuredOutput::Schema,
        may_step_down: true,
        capped: false,
    };
    done.form = Some(asked);
    let acts = answer::on_done(&state, &done);
    let events = emitted(&acts);
    assert!(
        matches!(
            events[..],
            [
                DebateEvent::TurnCompleted { .. },
                DebateEvent::EndpointAdapted { endpoint, adaptation: Adaptation::StructuredOutput { form: StructuredOutput::Json }, message },
                DebateEvent::VerdictInvalid { will_retry: true, .. },
            ] if endpoint == ENDPOINT && message.contains("answered in prose")
        ),
        "{events:#?}"
    );
    // Learnt once: the same again on that endpoint records nothing new.
    let learnt = Log::new(TOPIC, 3, 0.9)
        .then(DebateEvent::EndpointAdapted {
            endpoint: ENDPOINT.into(),
            adaptation: Adaptation::StructuredOutput { form: StructuredOutput::Json },
            message: String::new(),
        })
        .then_all(argued().into_events().into_iter().skip(1))
        .starts(0, Role::Judge, TurnPurpose::Judge)
        .streams(0, Role::Judge, prose)
        .state();
    let again = answer::on_done(&learnt, &done);
    assert!(!emitted(&again).iter().any(|e| matches!(e, DebateEvent::EndpointAdapted { .. })), "{again:#?}");
    // A form set by hand is not stepped down; JSON that fails to read is no sign the form was ignored.
    done.form = Some(AskedForm { may_step_down: false, ..asked });
    assert!(!emitted(&answer::on_done(&state, &done)).iter().any(|e| matches!(e, DebateEvent::EndpointAdapted { .. })));
    let broken =
        argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, r#"{"resolved": tru"#).state();
    done.form = Some(asked);
    assert!(
        !emitted(&answer::on_done(&broken, &done)).iter().any(|e| matches!(e, DebateEvent::EndpointAdapted { .. }))
    );
}

#[test]
fn a_form_learnt_on_the_synthesis_repair_earns_one_more_request_in_it() {
    use heat::debate::answer::AskedForm;
    use heat::provider::{Adaptation, StructuredOutput};
    const ENDPOINT: &str = "anthropic http://127.0.0.1:4000";
    // The synthesis was asked again (its first answer unreadable) and came back as prose: the gateway drops the form.
    let prose = "On balance the advocate carried it; the skeptic never answered the width point.";
    let state = argued()
        .starts(0, Role::Judge, TurnPurpose::Synthesis)
        .streams(0, Role::Judge, "not json")
        .completes(0, Role::Judge, "not json")
        .then(DebateEvent::VerdictInvalid { round: 0, error: "not JSON".into(), will_retry: true })
        .starts(0, Role::Judge, TurnPurpose::RepairSynthesis)
        .streams(0, Role::Judge, prose)
        .state();
    let mut done = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::RepairSynthesis, "");
    let asked = AskedForm {
        endpoint: ENDPOINT,
        provider: "anthropic",
        form: StructuredOutput::Json,
        may_step_down: true,
        capped: false,
    };
    done.form = Some(asked);
    let events = emitted(&answer::on_done(&state, &done)).into_iter().cloned().collect::<Vec<_>>();
    assert!(
        events.iter().any(|e| matches!(
            e,
            DebateEvent::EndpointAdapted {
                adaptation: Adaptation::StructuredOutput { form: StructuredOutput::Off },
                ..
            }
        )),
        "{events:#?}"
    );
    assert!(
        events.iter().any(|e| matches!(e, DebateEvent::VerdictInvalid { will_retry: true, .. })),
        "asked once more in the form learnt, not given up: {events:#?}"
    );
    // In the weakest form there is nothing left to learn: a repair that fails there is the last.
    done.form = Some(AskedForm { form: StructuredOutput::Off, ..asked });
    let last = emitted(&answer::on_done(&state, &done)).into_iter().cloned().collect::<Vec<_>>();
    assert!(last.iter().any(|e| matches!(e, DebateEvent::VerdictInvalid { will_retry: false, .. })), "{last:#?}");
}

#[test]
fn a_verdict_cut_at_its_limit_asks_again_for_a_shorter_one() {
    let cut =
        r#"{"resolved": false, "verdict": "The advocate argued that the streets, the air and the trade of the centre"#;
    let state = argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, cut).state();
    let mut done = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, "");
    done.finish = Some(FinishReason::Length);
    let acts = answer::on_done(&state, &done);
    let invalid = emitted(&acts).into_iter().find_map(|e| match e {
        DebateEvent::VerdictInvalid { error, will_retry: true, .. } => Some(error.clone()),
        _ => None,
    });
    let error = invalid.unwrap_or_else(|| panic!("{acts:#?}"));
    assert!(error.starts_with("it ran into its limit of 512 tokens") && error.ends_with("three sentences"), "{error}");
    // The same JSON ended with a stop a gateway called clean: still unclosed.
    done.finish = Some(FinishReason::Stop);
    let acts = answer::on_done(&state, &done);
    let error = emitted(&acts).into_iter().find_map(|e| match e {
        DebateEvent::VerdictInvalid { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert!(error.as_deref().is_some_and(|e| e.starts_with("it ended before the JSON object closed")), "{error:?}");
    // A closed object that fails for another reason says only that reason.
    let closed = r#"{"resolved": "maybe", "verdict": "x", "topic": "y", "heat": 0.5}"#;
    let state = argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, closed).state();
    let acts = answer::on_done(&state, &done);
    let error = emitted(&acts).into_iter().find_map(|e| match e {
        DebateEvent::VerdictInvalid { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert!(error.as_deref().is_some_and(|e| !e.contains("closed")), "{error:?}");
}

#[test]
fn a_verdict_held_to_its_schema_that_runs_to_its_limit_inside_a_string_caps_the_strings_from_then_on() {
    use heat::debate::answer::AskedForm;
    use heat::provider::{Adaptation, StructuredOutput};
    const ENDPOINT: &str = "openai http://127.0.0.1:18080/v1";
    let cut =
        r#"{"resolved": false, "verdict": "The advocate argued that the streets, the air and the trade of the centre"#;
    let judged = |text: &str| argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, text).state();
    let state = judged(cut);
    let mut done = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, "");
    done.finish = Some(FinishReason::Length);
    let held = AskedForm {
        endpoint: ENDPOINT,
        provider: "openai",
        form: StructuredOutput::Schema,
        may_step_down: true,
        capped: false,
    };
    done.form = Some(held);
    let capped = |acts: &[Act]| {
        emitted(acts)
            .into_iter()
            .filter(|e| {
                matches!(e, DebateEvent::EndpointAdapted { endpoint, adaptation: Adaptation::CappedStrings, .. }
                    if endpoint == ENDPOINT)
            })
            .count()
    };
    let acts = answer::on_done(&state, &done);
    assert_eq!(capped(&acts), 1, "{acts:#?}");
    assert!(
        matches!(emitted(&acts).last(), Some(DebateEvent::VerdictInvalid { will_retry: true, .. })),
        "the verdict is still asked again: {acts:#?}"
    );
    // A stop a gateway called clean, where the answer's length filled its limit, is the same.
    done.finish = Some(FinishReason::Stop);
    done.usage = Some(Usage { input_tokens: 900, output_tokens: 512, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(capped(&answer::on_done(&state, &done)), 1);
    // Left open well short of its limit is another fault (a cut stream, a clean stop mid-answer).
    done.usage = Some(Usage { input_tokens: 900, output_tokens: 40, cached_input_tokens: 0, ..Usage::default() });
    assert_eq!(capped(&answer::on_done(&state, &done)), 0);
    done.usage = None;
    done.finish = Some(FinishReason::Length);
    // Asked as plain text, no server held the shape: caps would change nothing.
    done.form = Some(AskedForm { form: StructuredOutput::Off, ..held });
    assert_eq!(capped(&answer::on_done(&state, &done)), 0);
    // A closed object that fails for another reason, and prose, are not this.
    done.form = Some(held);
    let closed = r#"{"resolved": "maybe", "verdict": "x", "topic": "y", "heat": 0.5}"#;
    assert_eq!(capped(&answer::on_done(&judged(closed), &done)), 0);
    // Learnt once per endpoint.
    let learnt = Log::new(TOPIC, 3, 0.9)
        .then(DebateEvent::EndpointAdapted {
            endpoint: ENDPOINT.into(),
            adaptation: Adaptation::CappedStrings,
            message: String::new(),
        })
        .then_all(argued().into_events().into_iter().skip(1))
        .starts(0, Role::Judge, TurnPurpose::Judge)
        .streams(0, Role::Judge, cut)
        .state();
    assert_eq!(capped(&answer::on_done(&learnt, &done)), 0);
    // A panel judge's vote cut the same way teaches it too.
    let oxford = Log::new(TOPIC, 3, 0.9)
        .formatted(built_in("oxford"))
        .round(0)
        .both_argue(0)
        .then(DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) })
        .state();
    let mut vote = answered(Call::Vote { round: 0, judge: PanelJudge(2) }, TurnPurpose::Judge, cut);
    vote.finish = Some(FinishReason::Length);
    vote.form = Some(held);
    let acts = answer::on_done(&oxford, &vote);
    assert_eq!(capped(&acts), 1, "{acts:#?}");
    assert!(matches!(emitted(&acts).last(), Some(DebateEvent::PanelVoteFailed { .. })), "{acts:#?}");
}

#[test]
fn a_repair_refused_for_its_words_on_a_server_holding_schemas_turns_the_judge_to_choosing() {
    use heat::debate::answer::AskedForm;
    use heat::provider::{Adaptation, StructuredOutput};
    const ENDPOINT: &str = "openai http://127.0.0.1:18080/v1";
    // Closed JSON whose verdict only copies the advocate's argument.
    let copy = format!(r#"{{"resolved": false, "verdict": "{ADVOCATE}", "topic": "{NEXT}", "heat": 0.6}}"#);
    let judged = |purpose| argued().starts(0, Role::Judge, purpose).streams(0, Role::Judge, &copy).state();
    let asked = AskedForm {
        endpoint: ENDPOINT,
        provider: "openai",
        form: StructuredOutput::Schema,
        may_step_down: true,
        capped: true,
    };
    let chooses = |acts: &[Act]| {
        emitted(acts)
            .iter()
            .any(|e| matches!(e, DebateEvent::EndpointAdapted { adaptation: Adaptation::ChosenVerdicts, .. }))
    };
    let mut repair = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::RepairVerdict, "");
    repair.form = Some(asked);
    assert!(chooses(&answer::on_done(&judged(TurnPurpose::RepairVerdict), &repair)), "the repair failed too");
    // The first refusal is asked again as written; a server not known to hold schemas is not asked to choose.
    let mut first = answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, "");
    first.form = Some(asked);
    assert!(!chooses(&answer::on_done(&judged(TurnPurpose::Judge), &first)));
    repair.form = Some(AskedForm { capped: false, ..asked });
    assert!(!chooses(&answer::on_done(&judged(TurnPurpose::RepairVerdict), &repair)));
}

#[test]
fn a_judges_written_verdict_is_completed_and_read() {
    let verdict = written_verdict(false, 0.6);
    let state = argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, &verdict).state();
    let acts = answer::on_done(&state, &answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, ""));
    let events = emitted(&acts);
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(matches!(events[0], DebateEvent::TurnCompleted { role: Role::Judge, text, .. } if *text == verdict));
    match events[1] {
        DebateEvent::VerdictReached { round: 0, verdict } => {
            assert!(!verdict.resolved);
            assert_eq!(verdict.heat, Heat::new(0.6));
            assert_eq!(verdict.topic, NEXT);
        }
        other => panic!("expected the verdict, got {other:?}"),
    }
    assert!(!acts.iter().any(|a| matches!(a, Act::CheckQuotes { .. })), "a verdict cites nothing to check");
}

#[test]
fn an_unreadable_verdict_is_asked_again_unless_it_was_the_repair() {
    let garbled = "I think the advocate did well overall.";
    let state = argued().starts(0, Role::Judge, TurnPurpose::Judge).streams(0, Role::Judge, garbled).state();
    let first = answer::on_done(&state, &answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::Judge, ""));
    assert!(
        matches!(
            emitted(&first).as_slice(),
            [DebateEvent::TurnCompleted { .. }, DebateEvent::VerdictInvalid { round: 0, will_retry: true, .. }]
        ),
        "{first:?}"
    );
    let repair = argued().starts(0, Role::Judge, TurnPurpose::RepairVerdict).streams(0, Role::Judge, garbled).state();
    let again =
        answer::on_done(&repair, &answered(Call::Turn { round: 0, role: Role::Judge }, TurnPurpose::RepairVerdict, ""));
    assert!(
        matches!(
            emitted(&again).as_slice(),
            [DebateEvent::TurnCompleted { .. }, DebateEvent::VerdictInvalid { will_retry: false, .. }]
        ),
        "{again:?}"
    );
}

#[test]
fn a_panel_judges_answer_is_its_vote_and_an_unreadable_one_is_none() {
    let state = Log::new(TOPIC, 3, 0.9)
        .formatted(built_in("oxford"))
        .round(0)
        .both_argue(0)
        .then(DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) })
        .state();
    let call = Call::Vote { round: 0, judge: PanelJudge(2) };
    let usage = Some(Usage { input_tokens: 900, output_tokens: 80, cached_input_tokens: 0, ..Usage::default() });
    let written = written_verdict(true, 0.4);
    let mut vote = answered(call, TurnPurpose::Judge, &written);
    vote.usage = usage;
    match answer::on_done(&state, &vote).as_slice() {
        [Act::Emit(DebateEvent::PanelVoted { round: 0, judge: PanelJudge(2), verdict, usage: u })] => {
            assert!(!verdict.resolved, "Oxford argues every round: an early `resolved` reads as not yet");
            assert_eq!(verdict.heat, Heat::new(0.4));
            assert_eq!(*u, usage);
        }
        other => panic!("expected the vote, got {other:?}"),
    }
    let mut garbled = answered(call, TurnPurpose::Judge, "no idea");
    garbled.usage = usage;
    match answer::on_done(&state, &garbled).as_slice() {
        [Act::Emit(DebateEvent::PanelVoteFailed { round: 0, judge: PanelJudge(2), error, usage: u })] => {
            assert!(error.starts_with("its answer could not be read: "), "{error}");
            assert_eq!(*u, usage, "what the call used is kept");
        }
        other => panic!("expected no vote, got {other:?}"),
    }
}

#[test]
fn a_swap_checks_answer_is_compared_with_the_rounds_verdict() {
    let judged = argued().judge_rules(
        0,
        TurnPurpose::Judge,
        Verdict {
            resolved: false,
            verdict: "Open.".into(),
            topic: NEXT.into(),
            heat: Heat::new(0.6),
            ..Verdict::default()
        },
    );
    let state = judged.clone().then(DebateEvent::SwapCheckStarted { round: 0 }).state();
    let resolves = r#"{"resolved": true, "verdict": "Debater A carried it.", "topic": "-", "heat": 0.5, "ahead": "A"}"#;
    match answer::on_done(&state, &answered(Call::SwapCheck { round: 0 }, TurnPurpose::Judge, resolves)).as_slice() {
        [Act::Emit(DebateEvent::SwapChecked { round: 0, flips: true, .. })] => {}
        other => panic!("a swapped verdict that resolves where the first did not flips: {other:?}"),
    }
    let unjudged = argued().then(DebateEvent::SwapCheckStarted { round: 0 }).state();
    match answer::on_done(&unjudged, &answered(Call::SwapCheck { round: 0 }, TurnPurpose::Judge, resolves)).as_slice() {
        [Act::Emit(DebateEvent::SwapCheckFailed { error, .. })] => {
            assert_eq!(error, "the round has no verdict to compare with");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_failed_or_cancelled_call_records_what_each_kind_of_call_leaves() {
    let usage = Some(Usage { input_tokens: 10, output_tokens: 1, cached_input_tokens: 0, ..Usage::default() });
    let turn = Call::Turn { round: 1, role: Role::Skeptic };
    let vote = Call::Vote { round: 1, judge: PanelJudge(3) };
    let swap = Call::SwapCheck { round: 1 };
    assert_eq!(
        answer::on_failed(turn, "timed out".into(), usage),
        DebateEvent::TurnFailed { round: 1, role: Role::Skeptic, error: "timed out".into() }
    );
    assert_eq!(
        answer::on_failed(vote, "timed out".into(), usage),
        DebateEvent::PanelVoteFailed { round: 1, judge: PanelJudge(3), error: "timed out".into(), usage }
    );
    assert_eq!(
        answer::on_failed(swap, "timed out".into(), usage),
        DebateEvent::SwapCheckFailed { round: 1, error: "timed out".into(), usage }
    );
    assert_eq!(answer::on_cancelled(turn, usage), DebateEvent::TurnCancelled { round: 1, role: Role::Skeptic });
    assert_eq!(
        answer::on_cancelled(vote, usage),
        DebateEvent::PanelVoteFailed { round: 1, judge: PanelJudge(3), error: panel::CANCELLED.into(), usage }
    );
    assert_eq!(
        answer::on_cancelled(swap, None),
        DebateEvent::SwapCheckFailed { round: 1, error: "it was cancelled".into(), usage: None }
    );
}

#[test]
fn a_panel_judge_is_asked_for_the_last_word_when_the_chair_gives_it() {
    let asked = |purpose| {
        let state: DebateState = argued().starts(0, Role::Judge, purpose).state();
        answer::vote_purpose(&state, 0)
    };
    assert_eq!(asked(TurnPurpose::Judge), TurnPurpose::Judge);
    assert_eq!(asked(TurnPurpose::Synthesis), TurnPurpose::Synthesis);
}

/// Two rounds of an Oxford debate (which keeps a map) on the embedded
/// judge: the first judged with the advocate's claim A1, the second argued
/// and its judge's chosen answer streamed.
fn oxford_on_the_embedded_judge(chosen: &str) -> DebateState {
    use heat::debate::verdict::{ClaimStatus, NamedClaim};
    let a1 = NamedClaim {
        id: "A1".into(),
        by: Role::Advocate,
        claim: "Streets become safer for young children because traffic falls.".into(),
        status: ClaimStatus::Standing,
        answers: None,
        evidence: None,
    };
    let first = Verdict {
        verdict: "v".into(),
        topic: TOPIC.into(),
        heat: Heat::new(0.85),
        claims: vec![a1],
        ..Verdict::default()
    };
    Log::new(TOPIC, 3, 0.9)
        .formatted(built_in("oxford"))
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .completes(
            0,
            Role::Advocate,
            "I agree that cities should ban cars. Streets become safer for young children because traffic falls. \
             In 2019 Oslo removed 700 parking spaces.",
        )
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .completes(
            0,
            Role::Skeptic,
            "I disagree that cities should ban cars. Deliveries would cost more for small shops in the old town.",
        )
        .judge_rules(0, TurnPurpose::Judge, first)
        .round(1)
        .starts(1, Role::Advocate, TurnPurpose::Argue)
        .completes(
            1,
            Role::Advocate,
            "Streets become much safer for young children because traffic falls. Vans may still come in before \
             ten, so shops are not cut off from deliveries.",
        )
        .starts(1, Role::Skeptic, TurnPurpose::Argue)
        .completes(
            1,
            Role::Skeptic,
            "Streets are not safer for young children if buses speed through them instead. Cities should ban cars \
             from their centres.",
        )
        .starts(1, Role::Judge, TurnPurpose::Judge)
        .streams(1, Role::Judge, chosen)
        .state()
}

#[test]
fn an_embedded_verdict_in_a_format_with_a_map_carries_a_scorecard_counted_by_rule_and_says_so() {
    let chosen = format!(
        r#"{{"advocate_best": "Streets become much safer for young children because traffic falls.", "skeptic_best": "Streets are not safer for young children if buses speed through them instead.", "next_question": "{NEXT}"}}"#
    );
    let state = oxford_on_the_embedded_judge(&chosen);
    let acts = answer::on_done(&state, &answered(Call::Turn { round: 1, role: Role::Judge }, TurnPurpose::Judge, ""));
    let verdict = emitted(&acts)
        .into_iter()
        .find_map(|e| match e {
            DebateEvent::VerdictReached { round: 1, verdict } => Some(verdict.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no verdict: {acts:#?}"));
    let card = verdict.scorecard.as_deref().expect("a scorecard counted by rule");
    for side in [&card.advocate, &card.skeptic] {
        let names: Vec<&str> = side.keys().map(String::as_str).collect();
        assert_eq!(names, ["clarity", "evidence", "logic", "rebuttal"], "{card:?}");
        assert!(side.values().all(|score| (1..=10).contains(score)), "{card:?}");
    }
    // The skeptic takes up street, safer, young, children of the advocate's twelve words of round 1: past 0.3.
    assert_eq!(card.skeptic["rebuttal"], 10, "{card:?}");
    // No sentence of the advocate's round carries a number, a quotation, a source or a name.
    assert_eq!(card.advocate["evidence"], 1, "{card:?}");
    assert!(
        verdict.verdict.ends_with(". Scores are counted by rule (logic, evidence, rebuttal, clarity), not judged."),
        "{}",
        verdict.verdict
    );
    // The advocate's chosen sentence is nearly its claim A1 again: only the skeptic's is a new claim.
    let claims: Vec<(&str, &str)> = verdict.claims.iter().map(|c| (c.id.as_str(), c.claim.as_str())).collect();
    assert_eq!(claims, [("S1", "Streets are not safer for young children if buses speed through them instead.")]);
}

#[test]
fn an_embedded_verdict_keeps_no_restatement_of_the_proposition_as_a_claim() {
    let chosen = r#"{"advocate_best": "Vans may still come in before ten, so shops are not cut off from deliveries.", "skeptic_best": "Cities should ban cars from their centres."}"#;
    let state = oxford_on_the_embedded_judge(chosen);
    let acts = answer::on_done(&state, &answered(Call::Turn { round: 1, role: Role::Judge }, TurnPurpose::Judge, ""));
    let claims: Vec<(String, Role)> = emitted(&acts)
        .into_iter()
        .find_map(|e| match e {
            DebateEvent::VerdictReached { verdict, .. } => {
                Some(verdict.claims.iter().map(|c| (c.id.clone(), c.by)).collect())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no verdict: {acts:#?}"));
    assert_eq!(claims, [("A2".to_string(), Role::Advocate)], "the skeptic only said the proposition again");
}
