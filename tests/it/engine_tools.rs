//! A debater that looks things up: its answer stops to call the library's
//! tools, heat answers them and asks the turn on with what they found;
//! bounded per turn, recorded in the log and the state, held by a pause and
//! ended by a cancel.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::engine_support::{self, drain, finish, seat, wait_for};
use heat::debate::command::Command;
use heat::debate::engine::{self, EngineSetup};
use heat::debate::{DebateEvent, Role};
use heat::library::{Document, Library};
use heat::provider::scripted::{Reply, ScriptedModel, Step};
use heat::provider::{ChatModel, ChatRole, Chunk, FinishReason, ToolCall, Usage};

const VERDICT: &str = r#"{"resolved": true, "verdict": "The advocate looked it up.", "topic": "t", "heat": 0.3}"#;
const ARGUMENT: &str = "Night trains save a hotel night [docs/trains.md:L2].";

fn library() -> Arc<Library> {
    let doc = |name: &str, text: &str| Document::from_bytes(name.into(), PathBuf::from(name), text.as_bytes()).unwrap();
    Arc::new(Library::from_docs(
        vec![PathBuf::from("docs")],
        vec![
            doc("docs/trains.md", "# Night trains\nNight trains save a hotel night.\nThey run at 120 km/h.\n"),
            doc("docs/planes.md", "# Planes\nA short-haul flight takes an hour in the air.\n"),
        ],
        Vec::new(),
    ))
}

struct Seats {
    advocate: Arc<ScriptedModel>,
    skeptic: Arc<ScriptedModel>,
    judge: Arc<ScriptedModel>,
}

fn seats(advocate: Vec<Reply>) -> Seats {
    Seats {
        advocate: Arc::new(ScriptedModel::new(advocate, Reply::text(ARGUMENT)).taking_tools()),
        skeptic: Arc::new(ScriptedModel::new([], Reply::text("Planes are faster door to door."))),
        judge: Arc::new(ScriptedModel::new([], Reply::text(VERDICT)).taking_tools()),
    }
}

fn setup(seats: &Seats, tool_calls: u32) -> EngineSetup {
    let on = |m: &Arc<ScriptedModel>| seat(Arc::clone(m) as Arc<dyn ChatModel>);
    engine_support::duel(on(&seats.advocate), on(&seats.skeptic), on(&seats.judge))
        .retries(0)
        .library(library(), tool_calls)
        .build()
}

fn answered(events: &[DebateEvent]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::ToolAnswered { id, text, failed, .. } => Some((id.clone(), text.clone(), *failed)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn calls_are_answered_from_the_library_and_the_turn_goes_on_with_what_they_found() {
    let calls = [("search", r#"{"query": "hotel night"}"#), ("read", r#"{"path": "docs/planes.md", "start": 2}"#)];
    let seats = seats(vec![Reply::calling("Let me look. ", &calls)]);
    let (events, state) = drain(engine::start(setup(&seats, 4), engine_support::duel_spec(1))).await;

    let called = events.iter().find_map(|e| match e {
        DebateEvent::ToolsCalled { role: Role::Advocate, calls, usage, .. } => Some((calls.clone(), *usage)),
        _ => None,
    });
    let (called, usage) = called.expect("the calls are recorded");
    assert_eq!(called.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["search", "read"]);
    assert_eq!(usage.map(|u| u.input_tokens), Some(10), "the step's usage is recorded with it");
    let answers = answered(&events);
    assert_eq!(answers.len(), 2);
    assert!(answers[0].1.starts_with("[docs/trains.md:L1–L3]\nL1: # Night trains"), "{}", answers[0].1);
    assert_eq!(answers[1].1, "[docs/planes.md:L2–L2] of 2 lines\nL2: A short-haul flight takes an hour in the air.\n");
    assert!(!answers[0].2 && !answers[1].2);

    // The turn was asked on with the calls and their answers; it may still call tools.
    let asked = seats.advocate.requests();
    assert_eq!(asked.len(), 2, "one request per step");
    let first = asked[0].tools.as_ref().expect("a debater with a library is offered its tools");
    assert_eq!(first.specs.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["search", "read"]);
    assert!(asked[0].system.contains("look things up in the library"), "{}", asked[0].system);
    let next = &asked[1];
    assert!(next.tools.as_ref().is_some_and(|t| t.may_call), "2 calls of 4: it may call more");
    let [.., calling, results] = next.messages.as_slice() else { panic!("{:?}", next.messages) };
    assert_eq!((calling.role, calling.content.as_str()), (ChatRole::Assistant, "Let me look. "));
    assert_eq!(calling.tool_calls, called);
    assert_eq!(results.tool_results.iter().map(|r| r.call_id.as_str()).collect::<Vec<_>>(), ["call_1", "call_2"]);
    assert_eq!(results.tool_results[1].content, answers[1].1);
    // Only debaters look things up: the skeptic's model takes no tools (said once), the judge's seat is no debater's.
    assert!(seats.skeptic.requests().iter().all(|r| r.tools.is_none()));
    let said: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } if message.starts_with("Tools:") => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(said, ["Tools: the skeptic takes none and argues from the library's passages it is given"]);
    assert!(seats.judge.requests().iter().all(|r| r.tools.is_none()));

    let turn = state.rounds[0].turn(Role::Advocate).unwrap();
    assert_eq!(turn.text.trim(), ARGUMENT, "the argument is what it said after its calls");
    assert_eq!(turn.tools.len(), 1);
    assert_eq!(turn.tools[0].said, "Let me look. ", "what it said before them stays with the step");
    assert!(turn.tools[0].calls.iter().all(|u| u.answer.as_ref().is_some_and(|a| !a.failed)));
    assert_eq!(turn.usage.map(|u| u.input_tokens), Some(20), "both steps are counted");
}

#[tokio::test]
async fn calls_past_the_turns_bound_are_refused_and_the_tools_closed() {
    let calls = [("search", r#"{"query": "trains"}"#), ("search", r#"{"query": "planes"}"#)];
    let again = Reply::calling("Trains win, I say.", &[("search", r#"{"query": "more"}"#)]);
    let seats = seats(vec![Reply::calling("", &calls), again]);
    let (events, state) = drain(engine::start(setup(&seats, 1), engine_support::duel_spec(1))).await;

    let answers = answered(&events);
    assert_eq!(answers.len(), 2, "a call made once the tools are closed is not answered");
    assert!(!answers[0].2);
    assert!(answers[1].2 && answers[1].1.contains("past this turn's bound of 1 tool calls"), "{:?}", answers[1]);
    let asked = seats.advocate.requests();
    assert_eq!(asked.len(), 2);
    assert!(asked[1].tools.as_ref().is_some_and(|t| !t.may_call), "the tools go closed");
    assert_eq!(state.rounds[0].turn(Role::Advocate).unwrap().text, "Trains win, I say.");
}

/// A step that waits at `gate`, then calls a search.
fn gated_call(gate: &Arc<Semaphore>) -> Reply {
    let call = ToolCall { id: "call_1".into(), name: "search".into(), arguments: r#"{"query": "trains"}"#.into() };
    Reply(vec![
        Step::Gate(Arc::clone(gate)),
        Step::Chunk(Chunk::ToolCall(call)),
        Step::Chunk(Chunk::Usage(Usage { input_tokens: 7, output_tokens: 3, ..Usage::default() })),
        Step::Chunk(Chunk::Finish(FinishReason::ToolCalls)),
    ])
}

/// A debate whose advocate's step, held at a gate, ends while the debate
/// is paused: its handle and events once that step's call is answered.
async fn answered_while_paused(seats: &Seats, gate: &Arc<Semaphore>) -> (engine::DebateHandle, Vec<DebateEvent>) {
    let mut handle = engine::start(setup(seats, 4), engine_support::duel_spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnStarted { role: Role::Advocate, .. })).await;
    handle.send(Command::Pause);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::Paused)).await;
    gate.add_permits(1);
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ToolAnswered { .. })).await;
    (handle, events)
}

#[tokio::test]
async fn a_pause_holds_the_next_step_and_a_resume_asks_it() {
    let gate = Arc::new(Semaphore::new(0));
    let seats = seats(vec![gated_call(&gate)]);
    let (handle, events) = answered_while_paused(&seats, &gate).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(seats.advocate.requests().len(), 1, "nothing new is asked while paused");
    handle.send(Command::Resume);
    let (events, state) = finish(handle, events).await;
    assert_eq!(seats.advocate.requests().len(), 2, "the resume asks the turn on");
    assert_eq!(state.rounds[0].turn(Role::Advocate).unwrap().text.trim(), ARGUMENT);
    assert!(events.iter().any(|e| matches!(e, DebateEvent::Finished { .. })));
}

#[tokio::test]
async fn a_cancel_between_steps_ends_the_turn_and_nothing_more_is_asked() {
    let gate = Arc::new(Semaphore::new(0));
    let seats = seats(vec![gated_call(&gate)]);
    let (mut handle, mut events) = answered_while_paused(&seats, &gate).await;
    handle.send(Command::CancelSeat(Role::Advocate));
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnCancelled { role: Role::Advocate, .. })).await;
    handle.send(Command::Resume);
    let (_, state) = finish(handle, events).await;
    assert_eq!(seats.advocate.requests().len(), 1, "a cancelled turn is not asked on");
    let turn = state.rounds[0].turn(Role::Advocate).unwrap();
    assert_eq!(turn.tools.len(), 1, "what it looked up stays recorded");
    assert!(state.finish.is_some());
}

#[tokio::test]
async fn arguments_run_together_by_a_gateway_are_said_as_such() {
    let merged = Reply::calling("", &[("search", r#"{"query": "trains"}{"path": "docs/trains.md"}"#)]);
    let seats = seats(vec![merged]);
    let (events, _) = drain(engine::start(setup(&seats, 4), engine_support::duel_spec(1))).await;
    let answers = answered(&events);
    assert_eq!(answers.len(), 1);
    assert!(answers[0].2, "failed");
    assert!(
        answers[0].1.starts_with("this call's arguments arrived as 2 JSON objects run together (a gateway between heat and the model merged 2 calls into one)"),
        "not a missing query: {}",
        answers[0].1
    );
}

#[tokio::test]
async fn a_turn_a_stopped_process_left_after_its_look_up_goes_on_from_the_answers() {
    // The first process: the advocate's step is answered, then the process stops before it is asked on.
    let gate = Arc::new(Semaphore::new(0));
    let calling = Reply::calling("Let me look. ", &[("search", r#"{"query": "hotel"}"#)]);
    let first = seats(vec![calling, Reply::gated("", &gate, "never")]);
    let mut handle = engine::start(setup(&first, 4), engine_support::duel_spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::ToolAnswered { .. })).await;
    drop(handle);
    // Stopped after the answer was recorded, or between the call and its answer.
    let called = events.iter().position(|e| matches!(e, DebateEvent::ToolsCalled { .. })).unwrap();
    for kept in [events.len(), called + 1] {
        let state = heat::debate::DebateState::from_events(&events[..kept]);
        assert_eq!(state.rounds[0].turn(Role::Advocate).unwrap().tools.len(), 1);

        // The second goes on from the answer: nothing is paid for again.
        let second = seats(Vec::new());
        let handle = engine::resume(setup(&second, 4), state);
        let (log, state) = finish(handle, events[..kept].to_vec()).await;
        let resumed = &log[kept..];
        let answered_again = resumed.iter().filter(|e| matches!(e, DebateEvent::ToolAnswered { .. })).count();
        assert_eq!(answered_again, usize::from(kept == called + 1), "only an unanswered call is answered");
        let asked = second.advocate.requests();
        assert_eq!(asked.len(), 1, "asked on once, not from the start");
        let [.., calling, results] = asked[0].messages.as_slice() else { panic!("{:?}", asked[0].messages) };
        assert_eq!(calling.tool_calls[0].name, "search");
        let answer = &results.tool_results[0].content;
        assert!(answer.starts_with("[docs/trains.md:L1–L3]"), "{answer}");
        let turn = state.rounds[0].turn(Role::Advocate).unwrap();
        assert_eq!(turn.text.trim(), ARGUMENT);
        assert_eq!((turn.tools.len(), turn.tools[0].said.as_str()), (1, "Let me look. "), "the step is kept");
    }
}

/// The embedded model searches the library once a turn: it is offered
/// `search` alone, told how in one sentence, given no opening while it may
/// call, its answer cut to a passage or two, and asked on with the tools
/// closed.
#[tokio::test]
async fn the_embedded_model_is_offered_one_search_a_turn_and_its_answer_is_kept_small() {
    let advocate = Arc::new(
        ScriptedModel::new([Reply::calling("", &[("search", r#"{"query": "hotel night"}"#)])], Reply::text(ARGUMENT))
            .playing_embedded()
            .taking_tools(),
    );
    let seats = Seats {
        advocate,
        skeptic: Arc::new(ScriptedModel::new([], Reply::text("Planes are faster door to door."))),
        judge: Arc::new(ScriptedModel::new([], Reply::text(VERDICT))),
    };
    let (events, state) = drain(engine::start(setup(&seats, 4), engine_support::duel_spec(1))).await;

    let asked = seats.advocate.requests();
    assert_eq!(asked.len(), 2, "a search, then the argument");
    let tools = asked[0].tools.as_ref().expect("tools offered");
    assert_eq!(tools.specs.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["search"]);
    assert!(tools.may_call);
    assert!(asked[0].system.contains("Your answer opens with one search of the library"), "{}", asked[0].system);
    assert!(asked[0].messages.iter().all(|m| m.role != ChatRole::Assistant), "no opening while it may call");
    assert_eq!(asked[1].tools.as_ref().map(|t| t.may_call), Some(false), "one search a turn");
    let found = answered(&events);
    assert_eq!(found.len(), 1);
    assert!(found[0].1.len() <= 1_300, "a passage or two: {} bytes", found[0].1.len());
    assert!(found[0].1.contains("docs/trains.md"), "{}", found[0].1);
    let turn = state.rounds[0].turn(Role::Advocate).unwrap();
    assert_eq!(turn.text, ARGUMENT);
    assert_eq!(turn.tools.len(), 1);
}

/// A model offered tools that never calls one is said once, after two
/// rounds; one that called a tool is not named.
#[tokio::test]
async fn a_seat_that_never_calls_the_tools_it_is_offered_is_said_once() {
    let skeptic = Arc::new(ScriptedModel::new([], Reply::text("Planes are faster door to door.")).taking_tools());
    let seats = Seats {
        advocate: Arc::new(
            ScriptedModel::new([Reply::calling("", &[("search", r#"{"query": "hotel"}"#)])], Reply::text(ARGUMENT))
                .taking_tools(),
        ),
        skeptic,
        judge: Arc::new(ScriptedModel::new(
            [],
            Reply::text(r#"{"resolved": false, "verdict": "Close.", "topic": "And the cost?", "heat": 0.6}"#),
        )),
    };
    let (events, _) = drain(engine::start(setup(&seats, 4), engine_support::duel_spec(4))).await;
    let said: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } if message.starts_with("Tools unused:") => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            "Tools unused: the skeptic's model has called none of the tools offered in 2 rounds; it argues from the library's passages it is given"
        ]
    );
    let third = events.iter().position(|e| matches!(e, DebateEvent::RoundStarted { round: 2, .. })).unwrap();
    let notice = events
        .iter()
        .position(|e| matches!(e, DebateEvent::Notice { message } if message.starts_with("Tools unused:")))
        .unwrap();
    assert!(notice < third, "said as round 3 starts");
}
