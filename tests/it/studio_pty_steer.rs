//! Taking steering back and changing a seat's model, from the real binary
//! in a pseudo-terminal against the mock Anthropic server: `u` takes back
//! an injected topic before any request carries it, `M` puts the skeptic
//! on another model from its next turn; the server's request log shows
//! both, and the session log records both. `w` and `heat export
//! --requests` show what a turn was sent, a key typed by mistake redacted.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use std::time::{Duration, Instant};

use heat::debate::DebateEvent;
use heat::debate::event::Waiting;
use heat::store::Store;
use studio_support::pty::spawn_heat;
use support::mock_llm::{Gate, MockLlm, Recorded};

const TAKEN_BACK: &str = "What about junior staff?";
/// The API key heat runs with, pasted into a topic by mistake.
const PASTED_KEY: &str = "sk-ant-test-steer-5f1c";
const KEPT: &str = "Mind the commute, see sk-ant-test-steer-5f1c";

fn debater_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| !r.system().contains("You are the JUDGE")).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn u_takes_back_a_topic_and_m_moves_the_skeptic_to_another_model_from_its_next_turn() {
    // Each round's verdict waits to be let go: the first pause lands in round 1, the second in round 2.
    let verdicts = Gate::default();
    let server = MockLlm::with_handler(studio_support::held_duel(Duration::from_millis(120), &verdicts)).await;
    let data = tempfile::tempdir().unwrap();
    let args = ["--max-rounds", "8", "Remote work beats the office"];
    let mut studio = spawn_heat(data.path(), data.path(), Some((&server.base_url, PASTED_KEY)), &args, &[]);
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

    // A topic that carries a key by mistake: the server gets it as typed, the session never keeps it.
    studio.keys("i");
    studio.wait_for("the inject dialog", |s| s.contains("Inject a topic")).await;
    studio.keys(KEPT);
    studio.keys("\r");
    studio.wait_for("the injection to wait", |s| s.contains("1 injected topic waiting")).await;

    // The skeptic's pane, then its model.
    studio.keys("\t");
    studio.keys("M");
    studio.wait_for("the model dialog", |s| s.contains("The skeptic's model, from its next turn")).await;
    studio.keys("anthropic:claude-opus-4-1\r");
    studio.wait_for("the change said", |s| s.contains("The skeptic is asked on anthropic/claude-opus-4-1")).await;
    studio.wait_for("the pane titled with it", |s| s.contains("anthropic/claude-opus-4-1")).await;

    verdicts.let_go(1);
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
    assert!(requests[2].body.to_string().contains(PASTED_KEY), "the server gets what was typed");

    studio.keys(" ");
    studio.wait_for("the pause", |s| s.contains("PAUSED")).await;

    // `w` shows what the skeptic's turn was sent: its model, its heat, the topic in place with the key redacted.
    studio.keys("w");
    studio
        .wait_for("what was sent", |s| {
            s.contains("What the skeptic's round 2 argument was sent")
                && s.contains("model claude-opus-4-1 · temperature 0.60")
        })
        .await;
    studio.keys("G");
    studio
        .wait_for("its last message", |s| s.contains("Mind the commute, see [redacted]") && !s.contains(PASTED_KEY))
        .await;
    studio.keys("\u{1b}");
    studio.wait_for("the dialog to close", |s| !s.contains("was sent")).await;
    studio.keys("q");
    studio.wait_for("the quit question", |s| s.contains("Quit while the debate is paused?")).await;
    studio.keys("y");
    studio.wait_exit().await;
    the_log_and_the_export_keep_both_and_no_key(data.path());
    studio.wait_restored().await;
}

/// The session records the topic taken back and the model changed, resume
/// goes on with the new model, the export's requests show what round 2's
/// skeptic was sent, and no file heat wrote keeps the key.
fn the_log_and_the_export_keep_both_and_no_key(data: &std::path::Path) {
    let store = Store::open(data).unwrap();
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
    // The export's requests say the same; no file heat wrote keeps the key.
    let exported = std::process::Command::new(env!("CARGO_BIN_EXE_heat"))
        .args(["export", &id, "--requests"])
        .env("HEAT_DATA_DIR", data)
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&exported.stdout);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let skeptic_two = md.split("### Round 2 · Skeptic").nth(1).expect("round 2's skeptic request");
    assert!(skeptic_two.contains("*model claude-opus-4-1 · temperature 0.60"), "{md}");
    assert!(skeptic_two.contains("Mind the commute, see [redacted]"), "{md}");
    assert!(!md.contains(PASTED_KEY));
    for entry in std::fs::read_dir(data.join("sessions")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        assert!(!text.contains(PASTED_KEY), "a session file keeps the key");
    }
}
