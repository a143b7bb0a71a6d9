//! What a streamed item means, `heard::heard`, pinned case by case as the
//! planner and the answer step are: each test folds a log, hands it one item
//! a call streamed, and states exactly what the engine is to do with it.

use heat::debate::PanelJudge;
use std::time::Duration;

use heat::debate::call::Call;
use heat::debate::event::Refusal;
use heat::debate::heard::{self, Answering, Heard};
use heat::debate::{DebateEvent, DebateState, Role, TurnPurpose};
use heat::provider::retry::TurnItem;
use heat::provider::{Adaptation, Chunk, FinishReason, ProviderError, StructuredOutput, Usage};

use crate::support::log::Log;

/// Everything `item` means, in order.
fn heard(state: &DebateState, call: Call, answering: Answering<'_>, item: TurnItem) -> Vec<Heard> {
    heard::heard(state, call, answering, item).collect()
}

const ENDPOINT: &str = "openai http://127.0.0.1:9/v1";

fn answering() -> Answering<'static> {
    Answering { endpoint: Some(ENDPOINT), provider: "openai", model: "gpt-test" }
}

/// A duel's first round with the advocate's turn under way.
fn arguing() -> DebateState {
    Log::new("Cities should ban cars.", 3, 0.9)
        .seats(&Role::DUEL, "openai", "gpt-test")
        .round(0)
        .starts(0, Role::Advocate, TurnPurpose::Argue)
        .state()
}

const TURN: Call = Call::Turn { round: 0, role: Role::Advocate };
const VOTE: Call = Call::Vote { round: 0, judge: PanelJudge(2) };

#[test]
fn a_turns_text_is_shown_as_it_comes_and_a_votes_is_collected_unseen() {
    let state = arguing();
    let text = |s: &str| TurnItem::Chunk(Chunk::Text(s.into()));
    assert_eq!(
        heard(&state, TURN, answering(), text("Cars")),
        vec![Heard::Emit(DebateEvent::Delta { round: 0, role: Role::Advocate, text: "Cars".into() })]
    );
    assert_eq!(heard(&state, TURN, answering(), text("")), vec![], "an empty piece shows nothing");
    assert_eq!(heard(&state, VOTE, answering(), text("{\"resolved\"")), vec![Heard::Text("{\"resolved\"".into())]);
    let usage = Usage { input_tokens: 5, output_tokens: 2, cached_input_tokens: 0, ..Usage::default() };
    assert_eq!(heard(&state, VOTE, answering(), TurnItem::Chunk(Chunk::Usage(usage))), vec![Heard::Usage(usage)]);
    assert_eq!(
        heard(&state, TURN, answering(), TurnItem::Chunk(Chunk::Finish(FinishReason::Length))),
        vec![Heard::Finish(FinishReason::Length)]
    );
    assert_eq!(
        heard(&state, VOTE, answering(), TurnItem::Chunk(Chunk::Finish(FinishReason::Stop))),
        vec![],
        "a side call's finish is not kept"
    );
}

#[test]
fn a_retry_discards_the_attempt_and_only_a_turns_is_shown() {
    let state = arguing();
    let retrying = || TurnItem::Retrying {
        attempt: 2,
        max_retries: 3,
        delay: Duration::from_millis(1500),
        error: ProviderError::Overloaded { retry_after: None, message: "busy".into() },
    };
    match heard(&state, TURN, answering(), retrying()).as_slice() {
        [
            Heard::Restart,
            Heard::Emit(DebateEvent::TurnRetrying {
                round: 0,
                role: Role::Advocate,
                attempt: 2,
                max_retries: 3,
                delay_ms: 1500,
                reason,
            }),
        ] => assert!(reason.contains("busy"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(heard(&state, VOTE, answering(), retrying()), vec![Heard::Restart]);
}

#[test]
fn a_refused_temperature_is_recorded_for_the_seat_once_and_said_each_time() {
    let state = arguing();
    let dropped = |param: &str| TurnItem::ParameterDropped { param: param.into(), message: "unsupported".into() };
    let refused = |what| Heard::Emit(DebateEvent::ParameterRefused { role: Role::Advocate, what });
    match heard(&state, TURN, answering(), dropped("temperature")).as_slice() {
        [first, Heard::Emit(DebateEvent::Notice { message })] if *first == refused(Refusal::Temperature) => {
            assert_eq!(message, "gpt-test: temperature not accepted; heat reaches it by prompt only");
        }
        other => panic!("{other:?}"),
    }
    match heard(&state, TURN, answering(), dropped("max_tokens")).as_slice() {
        [first, Heard::Emit(DebateEvent::Notice { message })] if *first == refused(Refusal::MaxTokens) => {
            assert!(message.contains("goes as max_completion_tokens"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    match heard(&state, TURN, answering(), dropped("seed")).as_slice() {
        [Heard::Emit(DebateEvent::Notice { message })] => assert!(message.contains("`seed` not accepted"), "{message}"),
        other => panic!("another parameter is only said: {other:?}"),
    }
    // Another call of the seat met it too (a vote under way): the state knows it, so it is only said.
    let known = Log::new("Cities should ban cars.", 3, 0.9)
        .seats(&Role::DUEL, "openai", "gpt-test")
        .then(DebateEvent::ParameterRefused { role: Role::Judge, what: Refusal::Temperature })
        .round(0)
        .state();
    match heard(&known, VOTE, answering(), dropped("temperature")).as_slice() {
        [Heard::Emit(DebateEvent::Notice { .. })] => {}
        other => panic!("recorded once: {other:?}"),
    }
    assert_eq!(
        heard(&known, TURN, answering(), dropped("temperature"))[0],
        refused(Refusal::Temperature),
        "each seat its own"
    );
}

#[test]
fn a_served_model_is_reported_only_when_it_is_another() {
    let state = arguing();
    let served = |name: &str| TurnItem::Chunk(Chunk::Model(name.into()));
    assert_eq!(heard(&state, TURN, answering(), served("gpt-test")), vec![], "the one asked for");
    assert_eq!(
        heard(&state, TURN, answering(), served("gpt-test-2025")),
        vec![Heard::Emit(DebateEvent::ModelReported { role: Role::Advocate, model: "gpt-test-2025".into() })]
    );
}

#[test]
fn a_gateway_that_routes_provider_comma_model_may_name_either_part_back() {
    let state = Log::new("Cities should ban cars.", 3, 0.9).seats(&Role::DUEL, "openai", "mock,qwen").round(0).state();
    let served = |name: &str| TurnItem::Chunk(Chunk::Model(name.into()));
    assert_eq!(heard(&state, TURN, answering(), served("qwen")), vec![], "the model part");
    assert_eq!(heard(&state, TURN, answering(), served("mock")), vec![], "the provider part");
    assert_eq!(heard(&state, TURN, answering(), served("llama")).len(), 1, "another model is said");
}

#[test]
fn what_an_endpoint_teaches_is_recorded_once_whichever_call_taught_it() {
    let state = arguing();
    let stepped = || TurnItem::StructuredSteppedDown {
        from: StructuredOutput::Schema,
        to: StructuredOutput::Json,
        message: "response_format not supported".into(),
    };
    match heard(&state, VOTE, answering(), stepped()).as_slice() {
        [Heard::Emit(DebateEvent::EndpointAdapted { endpoint, adaptation, .. })] => {
            assert_eq!(endpoint, ENDPOINT);
            assert_eq!(*adaptation, Adaptation::StructuredOutput { form: StructuredOutput::Json });
        }
        other => panic!("{other:?}"),
    }
    let learnt = Log::new("Cities should ban cars.", 3, 0.9)
        .then(DebateEvent::EndpointAdapted {
            endpoint: ENDPOINT.into(),
            adaptation: Adaptation::StructuredOutput { form: StructuredOutput::Json },
            message: String::new(),
        })
        .state();
    assert_eq!(heard(&learnt, TURN, answering(), stepped()), vec![], "another call learnt it first");
    let in_process = Answering { endpoint: None, ..answering() };
    let one_at_a_time = TurnItem::Chunk(Chunk::Adapted(Adaptation::OneAtATime));
    assert_eq!(heard(&state, TURN, in_process, one_at_a_time), vec![], "nothing to teach about no endpoint");
}
