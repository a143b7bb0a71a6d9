//! Taking steering back and changing a seat's model, from the real binary
//! in a pseudo-terminal against the mock Anthropic server: `u` takes back
//! an injected topic before any request carries it, `M` puts the skeptic
//! on another model from its next turn; the server's request log shows
//! both, and the session log records both.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use std::time::{Duration, Instant};

use heat::debate::DebateEvent;
use heat::debate::event::Waiting;
use heat::store::Store;
use studio_support::pty::spawn_heat;
use support::mock_llm::{MockLlm, Recorded};

const TAKEN_BACK: &str = "What about junior staff?";

fn debater_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| !r.system().contains("You are the JUDGE")).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn u_takes_back_a_topic_and_m_moves_the_skeptic_to_another_model_from_its_next_turn() {
    let server = MockLlm::with_handler(|r| studio_support::remote_work_duel(r, Duration::from_millis(120))).await;
    let data = tempfile::tempdir().unwrap();
    let args = ["--max-rounds", "3", "Remote work beats the office"];
    let mut studio = spawn_heat(data.path(), data.path(), Some((&server.base_url, "sk-ant-test-steer")), &args, &[]);
    studio.wait_for("both debaters to stream", |s| s.contains("Remote work gives") && s.contains("Offices")).await;
    studio.keys(" ");
    studio.wait_for("the pause", |s| s.contains("PAUSED")).await;

    // Nothing waits yet: `u` says so.
    studio.keys("u");
    studio.wait_for("nothing to take back", |s| s.contains("Nothing waits to be taken back")).await;
    studio.keys("i");
    studio.wait_for("the inject dialog", |s| s.contains("Inject a topic")).await;
    studio.keys(TAKEN_BACK);
    studio.keys("\r");
    studio
        .wait_for("the injection to wait", |s| s.contains("1 injected topic waiting") && s.contains("u take back"))
        .await;
    studio.keys("u");
    studio
        .wait_for("the list", |s| {
            s.contains("Take back before it is sent") && s.contains("round 2's prompts would carry it")
        })
        .await;
    studio.keys("\r");
    studio
        .wait_for("the topic taken back", |s| {
            s.contains("Taken back: the topic") && !s.contains("injected topic waiting")
        })
        .await;

    // The skeptic's pane, then its model.
    studio.keys("\t");
    studio.keys("M");
    studio.wait_for("the model dialog", |s| s.contains("The skeptic's model, from its next turn")).await;
    studio.keys("anthropic:claude-opus-4-1\r");
    studio.wait_for("the change said", |s| s.contains("The skeptic is asked on anthropic/claude-opus-4-1")).await;
    studio.wait_for("the pane titled with it", |s| s.contains("anthropic/claude-opus-4-1")).await;

    studio.keys(" ");
    let deadline = Instant::now() + Duration::from_secs(30);
    while debater_requests(&server).len() < 4 {
        assert!(Instant::now() < deadline, "round 2's debaters never called the server");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let requests = debater_requests(&server);
    let model_of = |who: &str, round: usize| {
        let asked: Vec<&Recorded> = requests.iter().filter(|r| r.system().contains(who)).collect();
        asked[round].body["model"].as_str().unwrap().to_string()
    };
    let first = model_of("You are the SKEPTIC", 0);
    assert_ne!(first, "claude-opus-4-1", "round 1 was asked on the model the debate began with");
    assert_eq!(model_of("You are the SKEPTIC", 1), "claude-opus-4-1", "round 2's skeptic is on the new model");
    assert_eq!(model_of("You are the ADVOCATE", 1), first, "the advocate's seat is left as it was");
    for request in &requests {
        assert!(!request.body.to_string().contains(TAKEN_BACK), "a request carried the topic taken back");
    }

    studio.keys(" ");
    studio.wait_for("the pause", |s| s.contains("PAUSED")).await;
    studio.keys("q");
    studio.wait_for("the quit question", |s| s.contains("Quit while the debate is paused?")).await;
    studio.keys("y");
    studio.wait_exit().await;
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let mut state = heat::debate::DebateState::default();
    for event in &events {
        state.apply(event);
    }
    assert!(events.iter().any(|e| matches!(
        e,
        DebateEvent::SteeringTakenBack { what: Waiting::Topic { text } } if text == TAKEN_BACK
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        DebateEvent::SeatModelChanged { role: heat::debate::Role::Skeptic, participant } if participant.model == "claude-opus-4-1"
    )));
    assert_eq!(
        state.participant(heat::debate::Role::Skeptic).unwrap().model,
        "claude-opus-4-1",
        "resume goes on with it"
    );
    studio.wait_restored().await;
}
