//! A parameter a seat's model refused, across `heat resume`: the binary
//! against the mock server speaking Anthropic's wire, whose advocate model
//! refuses any temperature. The first run pays one refused request, says
//! one notice and records the refusal; stopped at its budget and resumed,
//! the debate reads the refusal back from its log, so the advocate's
//! requests carry no temperature, the server refuses nothing more, and the
//! notice is not said again.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::event::Refusal;
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply};

/// Anthropic's refusal of a temperature, as a model that takes none sends it.
const REFUSED: &str = r#"{"type":"error","error":{"type":"invalid_request_error","message":"temperature is not supported for this model"}}"#;

fn advocates(request: &Recorded) -> bool {
    request.system().contains("You are the ADVOCATE")
}

/// The advocate's model refuses a temperature; the judge never resolves.
fn reply(request: &Recorded) -> Reply {
    if advocates(request) && request.body.get("temperature").is_some() {
        return Reply::error(400, REFUSED);
    }
    support::duel::reply(request, |_| {
        r#"{"resolved": false, "verdict": "Both held.", "topic": "What about diffs?", "heat": 0.6}"#.into()
    })
}

fn heat(data: &Path, server: &MockLlm, args: &[&str]) -> assert_cmd::Command {
    let config = "[network]\nmax_retries = 0\n[debate]\nbudget_tokens = 180\n";
    let mut cmd = support::binary::heat(data, config);
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url).args(args);
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

/// The advocate's requests the server took, and how many carried a temperature (each refused).
fn advocate_asked(server: &MockLlm) -> (usize, usize) {
    let asked: Vec<Recorded> = server.requests().into_iter().filter(advocates).collect();
    (asked.len(), asked.iter().filter(|r| r.body.get("temperature").is_some()).count())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_temperature_is_not_sent_again_nor_said_again_after_a_resume() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let run = output(heat(data.path(), &server, &["run", "Tabs beat spaces", "--max-rounds", "4"])).await;
    assert_eq!(run.status.code(), Some(3), "stopped at its budget: {}", support::binary::stderr(&run));
    let (asked, refused) = advocate_asked(&server);
    assert_eq!(refused, 1, "the first request met the refusal, and no later one ({asked} asked)");
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let stopped = DebateState::from_events(store.load(&id).unwrap().records.iter().map(|r| &r.event));
    assert!(stopped.budget_reached && stopped.rounds.len() < 4, "it stopped short of its end");
    assert!(stopped.refuses(Role::Advocate, Refusal::Temperature), "the log holds the refusal");

    let resumed = output(heat(data.path(), &server, &["resume", &id])).await;
    assert!(resumed.status.success(), "{}", support::binary::stderr(&resumed));
    let (asked_after, refused_after) = advocate_asked(&server);
    assert!(asked_after > asked, "the resumed debate asked the advocate again");
    assert_eq!(refused_after, 1, "no resumed request carried a temperature, so none was refused");
    let skeptic = server.requests().into_iter().rfind(|r| r.system().contains("You are the SKEPTIC")).unwrap();
    assert!(skeptic.body.get("temperature").is_some(), "the skeptic's model took one: {}", skeptic.body);

    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let state = DebateState::from_events(&events);
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::MaxRounds));
    let recorded = events.iter().filter(|e| matches!(e, DebateEvent::ParameterRefused { .. })).count();
    assert_eq!(recorded, 1, "recorded once");
    let said: Vec<&String> = state.notices.iter().filter(|n| n.contains("temperature not accepted")).collect();
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert!(
        !support::binary::stdout(&resumed).contains("temperature not accepted"),
        "{}",
        support::binary::stdout(&resumed)
    );
}
