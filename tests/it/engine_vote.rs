//! The `vote` format against scripted debaters: three free seats and no
//! judge. Round 1 is blind, later rounds carry every other seat's last
//! argument, the final answers decide by majority (ties to the answer
//! given first), a round where all agree ends the debate, the heat falls as
//! the answers agree, and pin, inject, force and pause work as in a duel.
#![allow(clippy::unwrap_used)]
// Heats are copied through the planner from one formula; exact comparison is right.
#![allow(clippy::float_cmp)]

use std::sync::Arc;
use std::time::Duration;

use crate::engine_support;

use engine_support::{drain, finish};
use heat::debate::engine::{self, DebateSpec, EngineSetup, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::debate::{Command, DebateEvent, DebateState, Heat, Outcome, Role, vote};
use heat::format::{Format, Origin};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::report::export::{ExportKind, render};
use heat::report::{self, Context};
use heat::store::log::{Header, Record};

/// The built-in `vote` format's record, or one with `n` free seats whose
/// answers must match once normalised.
fn format(n: usize) -> FormatRecord {
    let text = include_str!("../../assets/formats/vote.toml");
    if n == 3 {
        return Format::parse("vote", text, &Origin::BuiltIn).unwrap().record;
    }
    exact(n)
}

fn exact(n: usize) -> FormatRecord {
    let seats = "[[seats]]\nid = \"dN\"\nside = \"free\"\nbrief = \"debater.md\"\n\n";
    let seats: String = (0..n).map(|i| seats.replace('N', &i.to_string())).collect();
    let file = format!("summary = \"{n} debaters\"\n{seats}[judges]\ncount = 0\n[convergence]\nthreshold = 1.0\n");
    Format::parse("many", &file, &Origin::BuiltIn).unwrap().record
}

/// Words a scripted debater's reasons are drawn from.
const WORDS: [&str; 13] = [
    "payroll",
    "evidence",
    "rotas",
    "trials",
    "commutes",
    "childcare",
    "output",
    "burnout",
    "clients",
    "weekends",
    "overtime",
    "focus",
    "handovers",
];

/// What seat `seat` argues in round `round` (from 0), ending with `answer`.
fn argument(name: &str, seat: usize, round: usize, answer: &str) -> String {
    // Each reason word marked with its seat and round ("payroll03"): no run is shared.
    let reasons: Vec<String> =
        (0..5).map(|k| format!("{}{seat}{round}", WORDS[(seat + k * 3) % WORDS.len()])).collect();
    format!("{name} in round {}: {}.\nFinal answer: {answer}", round + 1, reasons.join(" "))
}

/// One debater that says `answers[round]` as its final answer each round.
fn debater(name: &str, seat: usize, answers: &[&str], delay: Duration) -> Arc<ScriptedModel> {
    let replies: Vec<Reply> = answers
        .iter()
        .enumerate()
        .map(|(round, answer)| Reply::after(delay, &argument(name, seat, round, answer)))
        .collect();
    let last = replies.last().cloned().unwrap();
    Arc::new(ScriptedModel::new(replies, last))
}

fn setup(debaters: &[Arc<ScriptedModel>]) -> EngineSetup {
    let seat = |m: &Arc<ScriptedModel>| engine_support::seat(Arc::clone(m) as Arc<dyn heat::provider::ChatModel>);
    let setups: Vec<RoleSetup> = debaters.iter().map(seat).collect();
    engine_support::setup(&setups, &setups[0]).retries(0).build()
}

fn spec(format: FormatRecord, max_rounds: u32) -> DebateSpec {
    engine_support::spec("How many days should a working week have?", format, max_rounds)
}

fn three(answers: [&[&str]; 3]) -> Vec<Arc<ScriptedModel>> {
    three_after(answers, Duration::ZERO)
}

fn three_after(answers: [&[&str]; 3], delay: Duration) -> Vec<Arc<ScriptedModel>> {
    let names = ["Analyst", "Pragmatist", "Contrarian"];
    names.iter().zip(answers).enumerate().map(|(seat, (name, a))| debater(name, seat, a, delay)).collect()
}

#[tokio::test]
async fn round_one_is_blind_and_later_rounds_carry_every_other_seat() {
    let models = three([&["four days", "four days"], &["five days", "five days"], &["three days", "four days"]]);
    let (_, state) = drain(engine::start(setup(&models), spec(format(3), 2))).await;
    assert_eq!(state.rounds.len(), 2);
    let last_user = |m: &ScriptedModel, call: usize| {
        let request = &m.requests()[call];
        request.messages.last().unwrap().content.clone()
    };
    for (i, model) in models.iter().enumerate() {
        let first = last_user(model, 0);
        for (j, other) in ["Analyst", "Pragmatist", "Contrarian"].iter().enumerate() {
            assert!(!first.contains(&format!("{other} in round")), "round 1 is blind: seat {i} saw {other}");
            let second = last_user(model, 1);
            // Every other seat's round-1 argument, and never its own as another's.
            assert_eq!(second.contains(&format!("{other} in round 1")), i != j, "seat {i}, {other}: {second}");
        }
        assert!(first.contains("Final answer:"), "the debater is asked for its final answer");
    }
    assert!(last_user(&models[0], 1).contains("The pragmatist argued last round"), "others are named by their labels");
}

#[tokio::test]
async fn the_vote_after_the_last_round_is_the_majority_with_the_minority_kept() {
    let models = three([&["four days", "four days"], &["five days", "Five days."], &["three days", "Four days"]]);
    let (_, state) = drain(engine::start(setup(&models), spec(format(3), 2))).await;
    let finish = state.finish.clone().unwrap();
    assert_eq!(finish.outcome, Outcome::MaxRounds);
    let tally = vote::of_round(&state, 1).unwrap();
    assert_eq!(tally.count(), "2–1");
    assert_eq!(tally.majority().unwrap().seats, vec![Role::Advocate, Role::Third]);
    assert_eq!(
        vote::describe(&state, &tally),
        "\"four days\" 2–1 (Analyst, Contrarian); minority: Pragmatist \"Five days.\""
    );
    assert_eq!(finish.synthesis.as_deref(), Some(format!("The vote: {}.", vote::describe(&state, &tally)).as_str()));
    // Round 2's heat fell from round 1's agreement: all apart, so the start heat.
    assert_eq!(state.rounds[1].heat, vote::next_heat(Heat::new(0.9), 0.0));
}

#[tokio::test]
async fn all_agreeing_ends_the_debate_as_converged_and_the_heat_fell_on_the_way() {
    let models = three([&["four days", "four days"], &["five days", "four days"], &["four days", "four days"]]);
    let (_, state) = drain(engine::start(setup(&models), spec(format(3), 5))).await;
    assert_eq!(state.finish.as_ref().map(|f| f.outcome.clone()), Some(Outcome::Converged));
    assert_eq!(state.rounds.len(), 2, "converged in round 2 of 5");
    assert_eq!(state.rounds[1].heat, Heat::new(0.6), "two of three agreed in round 1: halfway to the floor");
    assert_eq!(state.effective_heat(), Heat::new(0.6), "with no judge, the heat in force is the round's");
}

#[tokio::test]
async fn a_near_miss_does_not_converge() {
    // "four days" and "four long days" share 2 of 3 words (67%): alike at the built-in 60%, apart at an exact match.
    let models = three([&["four days"], &["four long days"], &["four days"]]);
    let (_, state) = drain(engine::start(setup(&models), spec(format(3), 1))).await;
    assert_eq!(state.finish.as_ref().map(|f| f.outcome.clone()), Some(Outcome::Converged), "67% ≥ 60%");
    let models =
        three([&["four days", "four days"], &["four long days", "four long days"], &["four days", "four days"]]);
    let (_, state) = drain(engine::start(setup(&models), spec(exact(3), 2))).await;
    assert_eq!(state.finish.as_ref().map(|f| f.outcome.clone()), Some(Outcome::MaxRounds), "not the same words");
    assert_eq!(state.rounds.len(), 2);
}

#[tokio::test]
async fn six_debaters_argue_at_once_and_a_three_way_tie_goes_to_the_first_answer() {
    let gate = Duration::from_millis(30);
    let models: Vec<Arc<ScriptedModel>> = ["red", "green", "blue", "green", "red", "blue"]
        .iter()
        .enumerate()
        .map(|(i, answer)| {
            Arc::new(ScriptedModel::new([], Reply::after(gate, &argument(&format!("Seat {i}"), i, 0, answer))))
        })
        .collect();
    let (events, state) = drain(engine::start(setup(&models), spec(format(6), 1))).await;
    let first_done = events.iter().position(|e| matches!(e, DebateEvent::TurnCompleted { .. })).unwrap();
    let started = events[..first_done].iter().filter(|e| matches!(e, DebateEvent::TurnStarted { .. })).count();
    assert_eq!(started, 6, "all six debaters are in flight before any answers");
    assert_eq!(state.participants.len(), 6, "six seats sit, and no judge");
    let tally = vote::of_round(&state, 0).unwrap();
    assert_eq!(tally.count(), "2–2–2");
    assert_eq!(tally.majority().unwrap().answer, "red", "a tie goes to the answer given first");
}

#[tokio::test]
async fn pin_inject_and_force_steer_a_vote() {
    let models = three_after([&["four days"; 3], &["five days"; 3], &["three days"; 3]], Duration::from_millis(40));
    let handle = engine::start(setup(&models), spec(format(3), 3));
    handle.send(Command::PinTemperature(Heat::new(0.45)));
    handle.send(Command::InjectTopic("What about shift workers?".into()));
    let (events, _) = {
        let mut handle = handle;
        let mut events = Vec::new();
        let mut forced = false;
        while let Some(e) = handle.next_event().await {
            if !forced && matches!(e, DebateEvent::RoundStarted { round: 1, .. }) {
                handle.send(Command::ForceResolution);
                forced = true;
            }
            events.push(e);
        }
        let state = handle.join().await;
        (events, state)
    };
    let state = DebateState::from_events(&events);
    assert_eq!(state.rounds[1].heat, Heat::new(0.45), "the pinned heat wins over the vote's");
    assert!(
        models.iter().all(|m| m.requests().iter().any(|r| r
            .messages
            .last()
            .unwrap()
            .content
            .contains("shift workers"))),
        "every debater hears the injected topic"
    );
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::Forced));
    assert_eq!(state.rounds.len(), 2, "forced in round 2: it ends when that round's answers are in");
}

#[tokio::test]
async fn the_export_and_the_report_keep_every_seat_and_each_rounds_vote() {
    let models = three([&["four days", "four days"], &["five days", "Five days."], &["three days", "Four days"]]);
    let (events, _) = drain(engine::start(setup(&models), spec(format(3), 2))).await;
    let records: Vec<Record> =
        events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64 * 1000, event }).collect();
    let header = Header { heat_session: 1, id: "20261125-020000-vote".into(), created_ms: 1_795_342_500_000 };
    let md = render(ExportKind::Md, &header, &records);
    for seat in ["### Analyst", "### Pragmatist", "### Contrarian"] {
        assert_eq!(md.matches(seat).count(), 2, "{seat} argues both rounds: {md}");
    }
    assert!(
        md.contains(
            "**The vote:** \"four days\" 1–1–1 (Analyst); minority: Pragmatist \"five days\"; Contrarian \"three days\""
        ),
        "{md}"
    );
    assert!(
        md.contains("**The vote:** \"four days\" 2–1 (Analyst, Contrarian); minority: Pragmatist \"Five days.\""),
        "{md}"
    );
    assert!(md.contains("## The outcome\n\nThe vote: \"four days\" 2–1"), "{md}");
    assert!(!md.contains("### Judge"), "no judge sat: {md}");
    let html = report::html(&header, &records, &Context::default()).unwrap();
    assert!(html.contains("Contrarian"), "the report names the third seat");
    assert!(html.contains("2–1 (Analyst, Contrarian)"), "the report gives the vote");
    assert!(html.contains("The vote: ") && html.contains("1–1–1 (Analyst)"), "and each round's, under its verdict");
}

/// The built-in `panel` format: three free panelists and one judge.
fn panel() -> FormatRecord {
    Format::parse("panel", include_str!("../../assets/formats/panel.toml"), &Origin::BuiltIn).unwrap().record
}

#[tokio::test]
async fn a_panels_judge_reads_every_seat_sets_the_heat_and_writes_the_synthesis_once_they_converge() {
    let names = ["Optimist", "Realist", "Critic"];
    let answers: [&[&str]; 3] =
        [&["four days", "four days"], &["five days", "four days"], &["three days", "Four days."]];
    let debaters: Vec<Arc<ScriptedModel>> =
        names.iter().zip(answers).enumerate().map(|(seat, (name, a))| debater(name, seat, a, Duration::ZERO)).collect();
    let verdict = r#"{"resolved": false, "verdict": "The panel splits three ways on the length of the week.", "ahead": "even", "conceded": "none", "topic": "What would a four-day week cost a hospital?", "heat": 0.5}"#;
    let synthesis = r#"{"resolved": true, "verdict": "The panel agrees on four days: output held in every trial.", "ahead": "even", "conceded": "none", "topic": "t", "heat": 0.3}"#;
    let judge = Arc::new(ScriptedModel::new([Reply::text(verdict), Reply::text(synthesis)], Reply::text(synthesis)));
    let mut setup = setup(&debaters);
    setup.roles[Role::Judge.position()] =
        RoleSetup::new(Arc::clone(&judge) as Arc<dyn heat::provider::ChatModel>, "j", 512);
    let (_, state) = drain(engine::start(setup, spec(panel(), 4))).await;
    let asked = judge.requests();
    assert_eq!(asked.len(), 2, "a verdict on round 1, the synthesis on round 2");
    let first = asked[0].messages.last().unwrap().content.clone();
    for name in ["optimist", "realist", "critic"] {
        assert!(first.contains(&format!("The {name} argued:")), "{first}");
    }
    assert!(first.contains("Their final answers: \"four days\" 1–1–1"), "{first}");
    assert!(asked[0].system.contains("You are the JUDGE of a panel"));
    assert!(
        asked[1].messages.last().unwrap().content.contains("write the final synthesis"),
        "converged: the last word"
    );
    assert_eq!(state.rounds[1].heat, Heat::new(0.5), "the judge sets the heat, as in a duel");
    assert_eq!(state.rounds[1].topic, "What would a four-day week cost a hospital?");
    let finish = state.finish.unwrap();
    assert_eq!(finish.outcome, Outcome::Converged);
    assert_eq!(finish.synthesis.as_deref(), Some("The panel agrees on four days: output held in every trial."));
}

#[tokio::test]
async fn a_vote_cut_mid_round_resumes_asking_only_the_open_seats() {
    let models = three([&["four days", "four days"], &["five days", "four days"], &["three days", "four days"]]);
    let (events, _) = drain(engine::start(setup(&models), spec(format(3), 2))).await;
    // Cut the log as a killed process leaves it: after the analyst's round-2 answer, before the others'.
    let cut = events
        .iter()
        .position(|e| matches!(e, DebateEvent::TurnCompleted { round: 1, role: Role::Advocate, .. }))
        .unwrap();
    let kept: Vec<DebateEvent> = events[..=cut]
        .iter()
        .filter(|e| !matches!(e, DebateEvent::TurnCompleted { round: 1, role, .. } if *role != Role::Advocate))
        .cloned()
        .collect();
    let state = DebateState::from_events(&kept);
    let again = three([&["x"], &["four days"], &["four days"]]);
    let handle = engine::resume(setup(&again), state);
    let (log, state) = finish(handle, kept.clone()).await;
    let after = &log[kept.len()..];
    assert!(again[0].requests().is_empty(), "the analyst's settled answer is not asked again");
    assert_eq!((again[1].requests().len(), again[2].requests().len()), (1, 1), "the open seats are asked once each");
    assert!(after.iter().any(|e| matches!(e, DebateEvent::Reopened)));
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::Converged));
}

#[tokio::test]
async fn pause_records_each_seat_of_a_four_seat_vote_as_it_ends_and_ends_the_debate_only_once_resumed() {
    let models: Vec<Arc<ScriptedModel>> = ["A", "B", "C", "D"]
        .iter()
        .enumerate()
        // Two and two: no round converges.
        .map(|(seat, name)| {
            let answer = if seat < 2 { "four days" } else { "five days" };
            debater(name, seat, &[answer, answer], Duration::from_millis(60))
        })
        .collect();
    let mut handle = engine::start(setup(&models), spec(exact(4), 2));
    let mut seen = Vec::new();
    while let Some(e) = handle.next_event().await {
        let round_two = matches!(e, DebateEvent::RoundStarted { round: 1, .. });
        seen.push(e);
        if round_two {
            break;
        }
    }
    handle.send(Command::Pause);
    // While paused, each seat's answer is recorded when it ends (kept if the
    // person quits now), and the debate does not end, however long it waits.
    let mut while_paused = Vec::new();
    let quiet = tokio::time::timeout(Duration::from_millis(300), async {
        while let Some(e) = handle.next_event().await {
            while_paused.push(e);
        }
    })
    .await;
    assert!(quiet.is_err(), "the debate did not end while paused: {while_paused:?}");
    let done = while_paused.iter().filter(|e| matches!(e, DebateEvent::TurnCompleted { round: 1, .. })).count();
    assert_eq!(done, 4, "all four seats' round 2 answers are recorded while paused: {while_paused:?}");
    handle.send(Command::Resume);
    let mut read = seen;
    read.extend(while_paused);
    let before = read.len();
    let (events, state) = finish(handle, read).await;
    let rest = &events[before..];
    assert!(rest.iter().any(|e| matches!(e, DebateEvent::Finished { .. })), "it ends after the resume: {rest:?}");
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::MaxRounds));
}

#[tokio::test]
async fn a_debater_that_fails_for_good_sits_the_round_out_and_is_asked_again_the_next() {
    let mut models = three([&["four days", "four days"], &["four days", "four days"], &["-", "four days"]]);
    let failure = || Reply::fail(heat::provider::ProviderError::Auth { status: 401, message: "revoked key".into() });
    let last = Reply::text(&argument("Contrarian", 2, 1, "four days"));
    models[2] = Arc::new(ScriptedModel::new([failure(), last.clone()], last));
    let (events, state) = drain(engine::start(setup(&models), spec(format(3), 3))).await;
    let notices: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(notices, ["the contrarian sits round 1 out; the other debaters go on"]);
    let first = vote::of_round(&state, 0).unwrap();
    assert_eq!(first.silent, [Role::Third], "the failed seat is silent in the tally");
    assert!(!first.converged(), "two of three agreeing is not all agreeing");
    assert_eq!(models[2].requests().len(), 2, "asked again in round 2");
    assert_eq!(state.rounds[1].heat, vote::next_heat(Heat::new(0.9), 0.5), "two of three agreed");
    let finish = state.finish.unwrap();
    assert_eq!(finish.outcome, Outcome::Converged, "all three agree in round 2");
}
