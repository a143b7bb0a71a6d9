//! Steering one seat of a live debate, read on the mock server's request
//! log: a note to one seat reaches that seat's next request and no other's,
//! a pin for one debater reaches only its `temperature` (from the next
//! round), and a note to the judge reaches the verdict it is about to write.

use crate::engine_support;
use crate::support;

use std::time::Duration;

use engine_support::{duel_spec as spec, wait_for};
use heat::debate::engine::{self, RoleSetup};
use heat::debate::{Command, DebateEvent, DebateState, Heat, Role};

/// The debate to its end, its state checked against the fold of its events.
async fn finish(handle: engine::DebateHandle, events: Vec<DebateEvent>) -> DebateState {
    engine_support::finish(handle, events).await.1
}
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};
use support::turns;

const TO_SKEPTIC: &str = "Name one team that switched and regretted it.";
const TO_JUDGE: &str = "Weigh accessibility above habit.";

/// Debaters answer after a short wait (so a command lands mid-round); the
/// judge never resolves, with a verdict of its own each round.
async fn server() -> MockLlm {
    MockLlm::with_handler(|request: &Recorded| {
        let (text, wait) = if request.system().contains("You are the JUDGE") {
            let message = request.last_message();
            let round = message.split("Round ").nth(1).and_then(|r| r.chars().next()).unwrap_or('?');
            let verdict = format!(
                r#"{{"resolved": false, "verdict": "Open after {round} looks: both sides hold.", "topic": "What about diffs?", "heat": 0.6}}"#
            );
            (verdict, 0)
        } else {
            // A new argument each round: one said again word for word is asked for again.
            let round = crate::support::duel::round_asked(request);
            let line = if request.system().contains("You are the ADVOCATE") {
                "Tabs let every reader choose a width"
            } else {
                "Spaces render the same everywhere"
            };
            (if round <= 1 { format!("{line}.") } else { format!("{line}, as round {round} shows.") }, 200)
        };
        Reply::sse(&anthropic_sse(&[&text], None), 64).with_delay(Duration::from_millis(wait))
    })
    .await
}

fn role(server: &MockLlm) -> RoleSetup {
    RoleSetup::new(turns::anthropic(server), "claude-haiku-4-5", 512)
}

/// The requests the seat playing `who` ("ADVOCATE", "SKEPTIC", "JUDGE") sent, in order.
fn sent_by(server: &MockLlm, who: &str) -> Vec<Recorded> {
    let marker = format!("You are the {who}");
    server.requests().into_iter().filter(|r| r.system().contains(&marker)).collect()
}

fn temperature(request: &Recorded) -> f64 {
    request.body["temperature"].as_f64().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_note_and_a_pin_for_one_seat_reach_that_seat_alone() {
    let server = server().await;
    let setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let mut handle = engine::start(setup, spec(3));
    let mut events = Vec::new();
    // Round 1's debaters are asked (their requests are built) before any of this is sent.
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, .. }))
        .await;
    handle.send(Command::NoteToSeats { text: TO_SKEPTIC.into(), seats: vec![Role::Skeptic] });
    handle.send(Command::PinSeat { role: Role::Skeptic, heat: Heat::new(0.35) });
    handle.send(Command::NoteToSeats { text: TO_JUDGE.into(), seats: vec![Role::Judge] });
    let state = finish(handle, events).await;
    assert_eq!(state.rounds.len(), 3);

    let (advocate, skeptic, judge) =
        (sent_by(&server, "ADVOCATE"), sent_by(&server, "SKEPTIC"), sent_by(&server, "JUDGE"));
    assert_eq!((advocate.len(), skeptic.len(), judge.len()), (3, 3, 3));
    // The skeptic's next request (round 2) carries its note; its round 1 request had gone, and round 3 asks anew.
    assert!(!skeptic[0].last_message().contains(TO_SKEPTIC));
    assert!(
        skeptic[1].last_message().contains(&format!("Moderator's note, to you only: {TO_SKEPTIC}")),
        "{}",
        skeptic[1].last_message()
    );
    assert!(!skeptic[2].last_message().contains(TO_SKEPTIC));
    // No other seat ever reads it.
    for request in advocate.iter().chain(&judge) {
        assert!(!request.body.to_string().contains("switched and regretted"), "{}", request.last_message());
    }
    // The judge's note reaches the verdict it was about to write (round 1's), and no debater.
    assert!(judge[0].last_message().contains(&format!("adds, to you only: {TO_JUDGE}")), "{}", judge[0].last_message());
    assert!(!judge[1].last_message().contains(TO_JUDGE));
    for request in advocate.iter().chain(&skeptic) {
        assert!(!request.body.to_string().contains("accessibility above habit"));
    }
    // The pin: the skeptic is asked at 0.35 from round 2 on, the advocate follows the judge's 0.6.
    let heats = |requests: &[Recorded]| requests.iter().map(temperature).collect::<Vec<_>>();
    let close = |got: Vec<f64>, want: [f64; 3]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-6);
    assert!(close(heats(&skeptic), [0.9, 0.35, 0.35]), "{:?}", heats(&skeptic));
    assert!(close(heats(&advocate), [0.9, 0.6, 0.6]), "{:?}", heats(&advocate));
    assert!(skeptic[1].last_message().contains(r#"{"set_temp": 0.35}"#), "{}", skeptic[1].last_message());
    // The log keeps who was steered: the notes delivered to the turns that carried them, the pin by round.
    assert_eq!(state.rounds[1].turn(Role::Skeptic).map(|t| t.notes.clone()), Some(vec![TO_SKEPTIC.to_string()]));
    assert_eq!(state.rounds[0].turn(Role::Judge).map(|t| t.notes.clone()), Some(vec![TO_JUDGE.to_string()]));
    assert!(state.seat_notes.is_empty(), "every note was delivered");
    assert_eq!(state.rounds[1].heat_for(Role::Skeptic), Heat::new(0.35));
    assert_eq!(state.rounds[1].heat_for(Role::Advocate), Heat::new(0.6));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_note_to_every_seat_is_an_injected_topic_and_a_released_seat_follows_the_round_again() {
    let server = server().await;
    let setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let mut handle = engine::start(setup, spec(3));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, .. }))
        .await;
    let every = vec![Role::Advocate, Role::Skeptic, Role::Judge];
    handle.send(Command::NoteToSeats { text: "Mind the diffs.".into(), seats: every });
    handle.send(Command::PinSeat { role: Role::Advocate, heat: Heat::new(1.0) });
    wait_for(&mut handle, &mut events, |e| {
        matches!(e, DebateEvent::TurnStarted { round: 1, role: Role::Advocate, .. })
    })
    .await;
    handle.send(Command::ReleaseSeat(Role::Advocate));
    let state = finish(handle, events.clone()).await;
    let advocate = sent_by(&server, "ADVOCATE");
    let heats: Vec<f64> = advocate.iter().map(temperature).collect();
    assert!((heats[1] - 1.0).abs() < 1e-6 && (heats[2] - 0.6).abs() < 1e-6, "{heats:?}");
    assert_eq!(state.rounds[1].injected, vec!["Mind the diffs.".to_string()]);
    assert!(state.seat_pins.is_empty());
}

/// The skeptic answers at once, the advocate after a while: the skeptic's
/// answer is in while the round is still argued.
async fn uneven_server() -> MockLlm {
    MockLlm::with_handler(|request: &Recorded| {
        let message = request.last_message();
        let (text, wait) = if request.system().contains("You are the JUDGE") {
            let round = message.split("Round ").nth(1).and_then(|r| r.chars().next()).unwrap_or('?');
            (format!(r#"{{"resolved": false, "verdict": "Round {round} stays open on both counts.", "topic": "What about diffs?", "heat": 0.6}}"#), 0)
        } else if request.system().contains("You are the ADVOCATE") {
            // A new argument each round: one said again word for word is asked for again.
            let asked = message.matches("Round").count();
            (format!("Tabs let every reader choose a width, and that matters ({asked})."), 250)
        } else {
            let asked = message.matches("Round").count();
            (format!("Spaces render the same everywhere ({asked})."), 20)
        };
        Reply::sse(&anthropic_sse(&text.split_inclusive(' ').collect::<Vec<_>>(), None), 64)
            .with_delay(Duration::from_millis(wait))
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn asking_one_seat_again_sends_one_new_request_and_keeps_the_first_answer_as_discarded() {
    let server = uneven_server().await;
    let setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let mut handle = engine::start(setup, spec(2));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| {
        matches!(e, DebateEvent::TurnCompleted { round: 0, role: Role::Skeptic, .. })
    })
    .await;
    handle.send(Command::Reroll(Role::Skeptic));
    let state = finish(handle, events).await;
    let skeptic = sent_by(&server, "SKEPTIC");
    let advocate = sent_by(&server, "ADVOCATE");
    // One more request for the skeptic (round 1 twice), none more for anyone else.
    assert_eq!((skeptic.len(), advocate.len(), sent_by(&server, "JUDGE").len()), (3, 2, 2));
    assert_eq!(skeptic[0].last_message(), skeptic[1].last_message(), "asked again with the same prompt");
    let round = &state.rounds[0];
    assert_eq!(round.discarded.len(), 1);
    assert_eq!(round.discarded[0].role, Role::Skeptic);
    assert!(round.discarded[0].text.starts_with("Spaces render the same everywhere"), "{}", round.discarded[0].text);
    assert!(round.argument(Role::Skeptic).is_some(), "the seat answered again");
    assert_eq!(round.turns.iter().filter(|t| t.role == Role::Skeptic).count(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn cancelling_one_seat_stops_its_turn_alone() {
    let server = uneven_server().await;
    let setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let mut handle = engine::start(setup, spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| {
        matches!(e, DebateEvent::TurnCompleted { round: 0, role: Role::Skeptic, .. })
    })
    .await;
    handle.send(Command::CancelSeat(Role::Advocate));
    let state = finish(handle, events.clone()).await;
    let round = &state.rounds[0];
    assert_eq!(round.turn(Role::Advocate).map(|t| t.status.clone()), Some(heat::debate::state::TurnStatus::Cancelled));
    assert_eq!(round.turn(Role::Skeptic).map(|t| t.status.clone()), Some(heat::debate::state::TurnStatus::Done));
    assert!(state.finish.is_some(), "the round went on to its judge");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_note_no_turn_of_its_seat_followed_is_said_at_the_end() {
    let server = server().await;
    let setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let mut handle = engine::start(setup, spec(1));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, .. }))
        .await;
    handle.send(Command::NoteToSeats { text: TO_SKEPTIC.into(), seats: vec![Role::Skeptic] });
    let (events, state) = engine_support::finish(handle, events).await;
    let said = events.iter().find_map(|e| match e {
        DebateEvent::Notice { message } if message.contains("never delivered") => Some(message.clone()),
        _ => None,
    });
    let said = said.expect("the undelivered note is said");
    assert!(said.contains(&format!("to the skeptic: \u{201c}{TO_SKEPTIC}\u{201d}")), "{said}");
    assert!(state.finish.is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_note_taken_back_reaches_no_seat_it_was_taken_from_and_a_changed_model_answers_from_the_next_turn() {
    use heat::debate::event::Waiting;
    use std::sync::Arc;
    let server = server().await;
    let mut setup = engine_support::duel(role(&server), role(&server), role(&server)).build();
    let model = turns::anthropic(&server);
    setup.judges = Some(Arc::new(move |provider: &str, name: Option<&str>| {
        anyhow::ensure!(provider == "anthropic", "the provider {provider:?} is not one of anthropic");
        Ok(RoleSetup::new(Arc::clone(&model), name.unwrap_or_default(), 2048))
    }));
    let mut handle = engine::start(setup, spec(3));
    let mut events = Vec::new();
    wait_for(&mut handle, &mut events, |e| matches!(e, DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, .. }))
        .await;
    handle.send(Command::NoteToSeats { text: TO_SKEPTIC.into(), seats: vec![Role::Skeptic, Role::Judge] });
    // Taken back from the skeptic alone: the judge's part still waits.
    handle.send(Command::TakeBack(Waiting::Note { text: TO_SKEPTIC.into(), seats: vec![Role::Skeptic] }));
    // Nothing of the kind waits: nothing is recorded.
    handle.send(Command::TakeBack(Waiting::Topic { text: "Never injected".into() }));
    handle.send(Command::ChangeModel {
        role: Role::Skeptic,
        provider: "anthropic".into(),
        model: "claude-opus-4-1".into(),
    });
    handle.send(Command::ChangeModel { role: Role::Advocate, provider: "nowhere".into(), model: "x".into() });
    let (log, state) = engine_support::finish(handle, events).await;

    let (skeptic, judge) = (sent_by(&server, "SKEPTIC"), sent_by(&server, "JUDGE"));
    assert!(
        skeptic.iter().all(|r| !r.body.to_string().contains("switched and regretted")),
        "taken back from the skeptic"
    );
    assert!(judge[0].last_message().contains(TO_SKEPTIC), "the judge's part still went: {}", judge[0].last_message());
    let models: Vec<&str> = skeptic.iter().map(|r| r.body["model"].as_str().unwrap_or_default()).collect();
    assert_eq!(models, ["claude-haiku-4-5", "claude-opus-4-1", "claude-opus-4-1"], "from the next turn on");
    assert!(skeptic.iter().all(|r| r.body["max_tokens"] == 512), "the seat's answer limit is kept");
    let advocate = sent_by(&server, "ADVOCATE");
    assert!(
        advocate.iter().all(|r| r.body["model"] == "claude-haiku-4-5"),
        "a model that cannot be set up changes nothing"
    );
    assert_eq!(state.participant(Role::Skeptic).map(|p| p.model.as_str()), Some("claude-opus-4-1"));
    let taken: Vec<&Waiting> = log
        .iter()
        .filter_map(|e| match e {
            DebateEvent::SteeringTakenBack { what } => Some(what),
            _ => None,
        })
        .collect();
    assert_eq!(taken, [&Waiting::Note { text: TO_SKEPTIC.into(), seats: vec![Role::Skeptic] }]);
    assert!(
        state.notices.iter().any(|n| n.starts_with(
            "the advocate's model stays as it was (anthropic/claude-haiku-4-5): the provider \"nowhere\""
        )),
        "{:?}",
        state.notices
    );
}
