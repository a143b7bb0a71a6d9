//! A person redirecting a stored debate from the command line, end to end:
//! `heat resume ID --more N` goes on with a debate that ended, and
//! `--question TEXT` sets the next round's question; the real binary as a
//! subprocess against the local mock server speaking Anthropic's wire format,
//! read back from the server's request log and the stored session.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::{DebateEvent, DebateState, Outcome, TurnPurpose};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply};

const KEY: &str = "sk-ant-test-5f3a9c1e";
const PERSONS_QUESTION: &str = "Do tabs survive copy and paste into a chat?";

/// The judge resolves round 2 and leaves every other round open; its final
/// synthesis (asked in the last round) says something new.
fn debate_reply(request: &Recorded) -> Reply {
    support::duel::reply(request, |request| {
        let message = request.last_message();
        let verdict = if message.contains("final synthesis") {
            r#"{"resolved": true, "verdict": "Accessibility outweighs rendering consistency, so the advocate carries it.", "topic": "Tabs beat spaces", "heat": 0.3}"#
        } else if message.contains("Round 2 of") {
            r#"{"resolved": true, "verdict": "Tabs win on accessibility.", "topic": "Tabs beat spaces", "heat": 0.3}"#
        } else {
            r#"{"resolved": false, "verdict": "Both sides opened well.", "topic": "What about onboarding?", "heat": 0.6}"#
        };
        verdict.to_string()
    })
}

fn heat(data: &Path, server: &MockLlm, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 1\n");
    cmd.env("ANTHROPIC_API_KEY", KEY).env("ANTHROPIC_BASE_URL", &server.base_url).args(args);
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

fn stored(data: &Path) -> (String, Vec<DebateEvent>, DebateState) {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let state = DebateState::from_events(&events);
    (id, events, state)
}

/// A debate of up to 4 rounds that the judge resolves in round 2, run and stored.
async fn resolved_in_round_two(data: &Path, server: &MockLlm) -> String {
    let run = output(heat(data, server, &["run", "Tabs beat spaces", "--max-rounds", "4"])).await;
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let (id, _, state) = stored(data);
    assert_eq!((state.rounds.len(), state.finish.unwrap().outcome), (2, Outcome::Resolved));
    id
}

#[tokio::test(flavor = "multi_thread")]
async fn more_rounds_go_on_with_a_resolved_debate_and_ask_a_new_synthesis() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let id = resolved_in_round_two(data.path(), &server).await;
    let before = server.requests().len();

    // Without --more, an ended debate is refused, and the refusal says how to go on.
    let refused = output(heat(data.path(), &server, &["resume", &id])).await;
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("already ended") && stderr.contains(&format!("heat resume {id} --more 2")), "{stderr}");
    assert_eq!(server.requests().len(), before, "a refused resume sends nothing");

    let more = output(heat(data.path(), &server, &["resume", &id, "--more", "2"])).await;
    let stdout = String::from_utf8_lossy(&more.stdout);
    assert!(more.status.success(), "{}", String::from_utf8_lossy(&more.stderr));
    assert!(stdout.contains("[2 more rounds added: up to 4 rounds]"), "{stdout}");
    let sent = &server.requests()[before..];
    let judges: Vec<&Recorded> = sent.iter().filter(|r| r.system().contains("You are the JUDGE")).collect();
    let debaters = sent.len() - judges.len();
    // Rounds 3 and 4: two debaters each, a verdict in round 3 and the new synthesis in round 4.
    assert_eq!((debaters, judges.len()), (4, 2), "{sent:?}");
    assert!(judges[0].last_message().contains("Round 3 of 4") && !judges[0].last_message().contains("final synthesis"));
    assert!(judges[1].last_message().contains("Round 4 of 4") && judges[1].last_message().contains("final synthesis"));
    // Round 3 asks the question of the verdict that had resolved the debate.
    let round_three = sent.iter().filter(|r| r.last_message().contains("Round 3 of 4")).count();
    assert_eq!(round_three, 3);

    let (_, events, state) = stored(data.path());
    assert_eq!(state.rounds.len(), 4);
    let finish = state.finish.unwrap();
    assert_eq!(finish.outcome, Outcome::MaxRounds);
    assert_eq!(
        finish.synthesis.as_deref(),
        Some("Accessibility outweighs rendering consistency, so the advocate carries it.")
    );
    let judge_purposes: Vec<TurnPurpose> =
        state.rounds.iter().filter_map(|r| r.turn(heat::debate::Role::Judge).map(|t| t.purpose)).collect();
    assert_eq!(judge_purposes, [TurnPurpose::Judge, TurnPurpose::Judge, TurnPurpose::Judge, TurnPurpose::Synthesis]);
    // The log says who reopened it: the first ending, then the rounds added, then the second ending.
    let added = events.iter().position(|e| matches!(e, DebateEvent::RoundsAdded { rounds: 2 })).unwrap();
    let endings: Vec<usize> =
        events.iter().enumerate().filter(|(_, e)| matches!(e, DebateEvent::Finished { .. })).map(|(i, _)| i).collect();
    assert_eq!(endings.len(), 2);
    assert!(endings[0] < added && added < endings[1]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_given_on_resume_is_the_next_rounds_question_for_every_seat_and_the_judge() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let id = resolved_in_round_two(data.path(), &server).await;
    let before = server.requests().len();

    let args = ["resume", &id, "--more", "1", "--question", PERSONS_QUESTION];
    let more = output(heat(data.path(), &server, &args)).await;
    let stdout = String::from_utf8_lossy(&more.stdout);
    assert!(more.status.success(), "{}", String::from_utf8_lossy(&more.stderr));
    assert!(stdout.contains(&format!("[next question set: {PERSONS_QUESTION}]")), "{stdout}");
    let sent = &server.requests()[before..];
    let seen: Vec<String> = sent.iter().map(Recorded::last_message).collect();
    assert_eq!(sent.len(), 3, "two debaters and the judge's synthesis: {seen:#?}");
    for request in sent {
        let message = request.last_message();
        assert!(message.contains(&format!("This round's question: {PERSONS_QUESTION}")), "{message}");
    }
    let (_, _, state) = stored(data.path());
    assert_eq!(state.rounds.len(), 3);
    assert!(state.rounds[2].asked_by_person && state.rounds[2].topic == PERSONS_QUESTION);
    assert!(!state.rounds[1].asked_by_person);
}

#[tokio::test(flavor = "multi_thread")]
async fn more_is_refused_out_of_range_and_an_invalid_id_is_named() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let zero = output(heat(data.path(), &server, &["resume", "--more", "0"])).await;
    let stderr = String::from_utf8_lossy(&zero.stderr);
    assert_eq!(zero.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--more") && stderr.contains("1..=50"), "{stderr}");
    let none = output(heat(data.path(), &server, &["resume", "--more", "2"])).await;
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert_eq!(none.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no sessions"), "{stderr}");
    assert!(server.requests().is_empty());
}

/// A stored debate that holds every kind of steering this issue added: a
/// note to one seat, a seat's pin, a question set, a seat asked again, a
/// turn cut by time, a budget reached, rounds added after the end; a topic
/// taken back, a seat put on another model.
fn store_steered(data: &Path) -> String {
    use crate::support::log::Log;
    use heat::debate::{Heat, Role, TurnPurpose};
    let store = Store::open(data).unwrap();
    let mut recorder = store.create().unwrap();
    let verdict = |resolved: bool, text: &str| heat::debate::Verdict {
        resolved,
        verdict: text.into(),
        topic: "What about diffs?".into(),
        heat: Heat::new(0.6),
        ..heat::debate::Verdict::default()
    };
    let log = Log::new("Tabs beat spaces", 1, 0.9)
        .seats(&Role::DUEL, "anthropic", "m")
        .round(0)
        .then(DebateEvent::NoteToSeats { text: "Name a team".into(), seats: vec![Role::Skeptic] })
        .then(DebateEvent::SeatHeatPinned { role: Role::Skeptic, heat: Heat::new(0.35) })
        .then(DebateEvent::QuestionSet { question: PERSONS_QUESTION.into() })
        .then(DebateEvent::TopicInjected { text: "Mind the diffs".into() })
        .then(DebateEvent::SteeringTakenBack {
            what: heat::debate::event::Waiting::Topic { text: "Mind the diffs".into() },
        })
        .then(DebateEvent::SeatModelChanged {
            role: Role::Skeptic,
            participant: heat::debate::Participant::new(Role::Skeptic, "openai", "gpt-4.1"),
        })
        .argues(0, Role::Advocate)
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .streams(0, Role::Skeptic, "Spaces are ")
        .then(DebateEvent::TurnDiscarded { round: 0, role: Role::Skeptic })
        .starts(0, Role::Skeptic, TurnPurpose::Argue)
        .streams(0, Role::Skeptic, "Spaces render ")
        .then(DebateEvent::TurnTimedOut { round: 0, role: Role::Skeptic, seconds: 60 })
        .completes(0, Role::Skeptic, "Spaces render ")
        .then(DebateEvent::BudgetReached { spent: "1,200 tokens of the 1,000 budgeted (debate.budget_tokens)".into() })
        .judge_rules(0, TurnPurpose::Synthesis, verdict(true, "The advocate carried the round on access."))
        .then(DebateEvent::Finished { outcome: Outcome::MaxRounds, synthesis: Some("The advocate carried it.".into()) })
        .then(DebateEvent::Reopened)
        .then(DebateEvent::RoundsAdded { rounds: 1 });
    for event in log.events() {
        recorder.record(event);
    }
    recorder.id().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_and_the_export_show_each_kind_of_steering() {
    let server = MockLlm::with_handler(debate_reply).await;
    let data = tempfile::tempdir().unwrap();
    let id = store_steered(data.path());
    let replayed = output(heat(data.path(), &server, &["replay", &id, "--speed", "1000"])).await;
    let text = String::from_utf8_lossy(&replayed.stdout);
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    for said in [
        "[note to the skeptic only: Name a team]",
        "[the skeptic's heat pinned at 0.35]",
        &format!("[next question set: {PERSONS_QUESTION}]"),
        "[skeptic's answer above discarded: asked again]",
        "✂ time: cut at its 60 s limit",
        "! budget reached: 1,200 tokens of the 1,000 budgeted",
        "[1 more round added: up to 2 rounds]",
        "[taken back before any request carried it: the topic “Mind the diffs”]",
        "[the skeptic is asked on openai/gpt-4.1 from its next turn]",
    ] {
        assert!(text.contains(said), "{said:?} missing from the replay:\n{text}");
    }
    let md = String::from_utf8_lossy(&output(heat(data.path(), &server, &["export", &id])).await.stdout).into_owned();
    for said in [
        "sent the skeptic alone a note: Name a team",
        "pinned the skeptic's heat at 0.35",
        &format!("set the next question: {PERSONS_QUESTION}"),
        "asked the skeptic again in round 1 (its answer kept as discarded)",
        "asked for 1 more round",
        "✂ time: cut at its 60 s limit",
        "took back the topic “Mind the diffs”",
        "put the skeptic on openai/gpt-4.1",
    ] {
        assert!(md.contains(said), "{said:?} missing from the export:\n{md}");
    }
    assert!(server.requests().is_empty(), "a replay and an export call no model");
}
