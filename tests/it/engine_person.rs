//! A person in a seat (`--seat skeptic=human`): the engine asks the seat's
//! desk and waits however long the person takes; the other seats and the
//! judge read the person's text as they read a model's; a person's argument
//! stands as typed and a person judging gives the verdict that moves the
//! debate. The engine on scripted models and a person answered by the test.

use crate::engine_support;

use std::sync::Arc;
use std::time::Duration;

use engine_support::{drain, duel_spec as spec};
use heat::debate::engine::{self, Clock, RoleSetup};
use heat::debate::{DebateEvent, Role};
use heat::provider::ChatModel;
use heat::provider::person::{Ask, Desk, Person};
use heat::provider::scripted::{Reply, ScriptedModel};
use tokio::sync::mpsc::UnboundedReceiver;

fn seat(model: Arc<dyn ChatModel>) -> RoleSetup {
    RoleSetup::new(model, "m", 512)
}

fn verdict(resolved: bool, topic: &str) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": {resolved}, "verdict": "Both sides held on {topic}.", "topic": "{topic}", "heat": 0.6}}"#
    ))
}

/// Answers every ask after `think` with what `answer` gives for it.
fn at_the_keyboard(
    mut asks: UnboundedReceiver<Ask>,
    think: Duration,
    answer: impl Fn(usize, &Ask) -> String + Send + 'static,
) -> tokio::task::JoinHandle<Vec<String>> {
    tokio::spawn(async move {
        let mut seats = Vec::new();
        while let Some(ask) = asks.recv().await {
            tokio::time::sleep(think).await;
            let text = answer(seats.len(), &ask);
            seats.push(ask.seat.clone());
            let _ = ask.reply.send(text);
        }
        seats
    })
}

#[tokio::test(start_paused = true)]
async fn a_persons_argument_reaches_the_judge_and_the_other_seat_and_stands_as_typed() {
    let desk = Desk::new();
    let asks = desk.take_asks().expect("the desk's asks");
    let person: Arc<dyn ChatModel> = Arc::new(Person::new("skeptic", Arc::clone(&desk)));
    let a = Arc::new(ScriptedModel::new([], Reply::text("Tabs let each reader choose a width.")));
    let j = Arc::new(ScriptedModel::new([verdict(false, "diffs")], verdict(true, "end")));
    let setup = engine_support::duel(seat(a.clone()), seat(person), seat(j.clone()))
        // A person's turn is not held to the debaters' clock: this one takes five minutes.
        .clock(Clock { turn: Some(Duration::from_secs(30)), round: None })
        .build();
    assert!(setup.person_desk().is_some());
    // The same words both rounds: a model's would be a repeat to redo, a person's stands.
    let typing = at_the_keyboard(asks, Duration::from_secs(300), |_, _| "  Spaces survive every diff tool.\n".into());
    let (events, state) = drain(engine::start(setup, spec(2))).await;
    // The desk closes when the last seat on it goes: the person's task ends.
    drop(desk);
    assert_eq!(typing.await.unwrap(), ["skeptic", "skeptic"], "asked once a round, never again");
    assert!(state.seated_person(Role::Skeptic) && !state.seated_person(Role::Advocate));
    for round in &state.rounds {
        let turn = round.turn(Role::Skeptic).expect("the person's turn");
        assert_eq!(turn.text, "Spaces survive every diff tool.");
        assert_eq!(turn.out_of_time, None);
    }
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::TurnRetrying { .. } | DebateEvent::TurnTimedOut { .. })));
    let judged = j.requests()[0].messages.last().expect("asked").content.clone();
    assert!(judged.contains("Spaces survive every diff tool."), "{judged}");
    let advocate_round_2 = a.requests()[1].messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
    assert!(advocate_round_2.contains("Spaces survive every diff tool."), "{advocate_round_2}");
}

#[tokio::test(start_paused = true)]
async fn a_person_judging_sets_the_next_question_and_the_heat_and_ends_the_debate() {
    let desk = Desk::new();
    let asks = desk.take_asks().expect("the desk's asks");
    let person: Arc<dyn ChatModel> = Arc::new(Person::new("judge", Arc::clone(&desk)));
    let a = Arc::new(ScriptedModel::new([], Reply::text("For.")));
    let s = Arc::new(ScriptedModel::new([], Reply::text("Against.")));
    let setup = engine_support::duel(seat(a.clone()), seat(s), seat(person)).build();
    let typing = at_the_keyboard(asks, Duration::from_secs(40), |n, _| {
        match n {
        0 => r#"{"resolved": false, "verdict": "The skeptic's diff point stands.", "ahead": "skeptic", "topic": "Who pays for reformatting?", "heat": 0.9}"#.into(),
        _ => r#"{"resolved": true, "verdict": "Spaces, on cost.", "ahead": "skeptic", "topic": "Who pays for reformatting?", "heat": 0.4}"#.into(),
    }
    });
    let (_, state) = drain(engine::start(setup, spec(4))).await;
    drop(desk);
    assert_eq!(typing.await.unwrap(), ["judge", "judge"]);
    assert_eq!(state.rounds.len(), 2, "the person resolved it in round 2");
    assert_eq!(state.rounds[1].topic, "Who pays for reformatting?");
    assert!((state.rounds[1].heat.get() - 0.9).abs() < 1e-6, "the person's heat");
    let asked = a.requests()[1].messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
    assert!(asked.contains("Who pays for reformatting?"), "{asked}");
    assert!(state.finish.is_some_and(|f| f.synthesis.is_some_and(|s| s.contains("Spaces, on cost."))));
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_persons_turn_closes_its_ask() {
    let desk = Desk::new();
    let mut asks = desk.take_asks().expect("the desk's asks");
    let person: Arc<dyn ChatModel> = Arc::new(Person::new("skeptic", Arc::clone(&desk)));
    let a = Arc::new(ScriptedModel::new([], Reply::text("For.")));
    let j = Arc::new(ScriptedModel::new([], verdict(true, "end")));
    let setup = engine_support::duel(seat(a), seat(person), seat(j)).build();
    let handle = engine::start(setup, spec(1));
    let ask = asks.recv().await.expect("the person is asked");
    assert!(!ask.is_closed());
    handle.send(heat::debate::Command::CancelSeat(Role::Skeptic));
    let (events, _) = drain(handle).await;
    assert!(ask.is_closed(), "the studio sees the turn given up");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnCancelled { role: Role::Skeptic, .. })));
}

#[tokio::test(start_paused = true)]
async fn a_person_costs_nothing_and_a_dollar_budget_needs_no_price_for_them() {
    use heat::debate::cost::{Price, Prices};
    let desk = Desk::new();
    let asks = desk.take_asks().expect("the desk's asks");
    let person: Arc<dyn ChatModel> = Arc::new(Person::new("skeptic", Arc::clone(&desk)));
    let a = Arc::new(ScriptedModel::new([], Reply::text("Tabs let each reader choose a width.")));
    let j = Arc::new(ScriptedModel::new([], verdict(true, "end")));
    let price = Price { input: 1.0, output: 2.0, cached_input: None };
    let prices = Prices { seats: vec![(Role::Advocate, price), (Role::Judge, price)], judges: Vec::new() };
    let budget = engine::Budget { tokens: None, usd: Some(5.0), prices: prices.clone() };
    let setup = engine_support::duel(seat(a), seat(person), seat(j)).budget(budget).build();
    let typing = at_the_keyboard(asks, Duration::from_secs(5), |_, _| "Spaces survive every diff tool.".into());
    let (events, state) = drain(engine::start(setup, spec(1))).await;
    drop(desk);
    typing.await.unwrap();
    let unpriced: Vec<&DebateEvent> = events
        .iter()
        .filter(|e| matches!(e, DebateEvent::Notice { message } if message.contains("has no price")))
        .collect();
    assert!(unpriced.is_empty(), "the person's seat needs no price: {unpriced:?}");
    assert_eq!(state.rounds[0].turn(Role::Skeptic).and_then(|t| t.usage), None, "a person spends no tokens");
    assert!(heat::debate::cost::cost(&state, &prices).is_some(), "the models' calls are priced, the person's is free");
}
