//! The start screen's settings end to end, in the real binary: rounds, the
//! first heat and a role's model set with F2 reach the debate started next
//! (its Started event, the requests the server gets), are remembered in
//! studio.toml without the key, and the next start shows them.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use heat::debate::DebateEvent;
use heat::store::Store;
use studio_support::pty::{Studio, spawn_heat};
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const API_KEY: &str = "sk-ant-test-settings-4b1c";
const F2: &str = "\x1bOQ";
const DOWN: &str = "\x1b[B";
const RIGHT: &str = "\x1b[C";
const BACKSPACE: &str = "\x7f";

fn reply(request: &Recorded) -> Reply {
    if request.system().contains("You are the JUDGE") {
        let text = r#"{"resolved": true, "verdict": "Both hold ground.", "topic": "Go on", "heat": 0.6}"#;
        return Reply::sse(&anthropic_sse(&[text], None), 64);
    }
    let text = if request.system().contains("You are the ADVOCATE") {
        "Trains let people work on the way and skip the airport queues."
    } else {
        "Planes cross an ocean in hours where trains cannot go at all."
    };
    Reply::sse(&anthropic_sse(&[text], None), 64)
}

fn open(data: &std::path::Path, server: &MockLlm) -> Studio {
    spawn_heat(data, data, Some((&server.base_url, API_KEY)), &[], &[])
}

#[tokio::test(flavor = "multi_thread")]
async fn settings_chosen_on_the_start_screen_start_the_next_debate_and_are_remembered() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open(data.path(), &server);
    studio.wait_for("the start screen", |s| s.contains("4 rounds from heat 0.90") && s.contains("F2 settings")).await;

    studio.keys(F2);
    studio.wait_for("the settings", |s| s.contains("Settings for the next debate")).await;
    studio.keys(&format!("{BACKSPACE}2{DOWN}{}0.55", BACKSPACE.repeat(4)));
    // The advocate on anthropic by name, with a model of its own.
    studio.keys(&format!("{DOWN}{RIGHT}{DOWN}claude-settings-test"));
    studio.wait_for("the typed model", |s| s.contains("claude-settings-test")).await;
    studio.keys("\r");
    studio
        .wait_for("the settings applied", |s| s.contains("Settings saved") && s.contains("2 rounds from heat 0.55"))
        .await;
    assert!(studio.text().contains("anthropic · claude-settings-test"), "the roster shows it:\n{}", studio.text());

    studio.keys("Trains beat planes\r");
    studio.wait_for("the debate", |s| s.contains("of 2") && s.contains("Round 1 · heat 0.55")).await;
    studio.wait_for("the verdict", |s| s.contains("Both hold ground") && s.contains("Debate over")).await;
    studio.keys("qq");
    assert!(studio.wait_exit().await.success());
    studio.wait_restored().await;

    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let Some(DebateEvent::Started { max_rounds, initial_heat, participants, .. }) = events.first() else {
        panic!("the log opens with {:?}", events.first());
    };
    assert_eq!(*max_rounds, 2);
    assert!((initial_heat.get() - 0.55).abs() < 1e-6, "initial heat {initial_heat}");
    assert_eq!(participants[0].model, "claude-settings-test");
    let advocate = server.requests().into_iter().find(|r| r.system().contains("You are the ADVOCATE")).unwrap();
    assert_eq!(advocate.body["model"], "claude-settings-test", "the chosen model reached the provider");
    assert!((advocate.body["temperature"].as_f64().unwrap() - 0.55).abs() < 1e-6);

    let remembered = std::fs::read_to_string(data.path().join("studio.toml")).unwrap();
    assert!(remembered.contains("max_rounds = 2") && remembered.contains("initial_heat = 0.55"), "{remembered}");
    assert!(remembered.contains("claude-settings-test"), "{remembered}");
    assert!(!remembered.contains(API_KEY) && !remembered.contains("api_key"), "{remembered}");
    assert!(!remembered.contains("[roles.judge]"), "what was left as it was is not written:\n{remembered}");

    // The next start opens on them.
    let mut studio = open(data.path(), &server);
    studio.wait_for("the remembered settings", |s| s.contains("2 rounds from heat 0.55")).await;
    assert!(studio.text().contains("anthropic · claude-settings-test"), "{}", studio.text());
    studio.keys(F2);
    studio.wait_for("the form", |s| s.contains("Settings for the next debate")).await;
    let form = studio.text();
    assert!(form.contains("Rounds      2") && form.contains("First heat  0.55"), "{form}");
    studio.keys("\x1b");
    studio.wait_for("the form to close", |s| !s.contains("Settings for the next debate")).await;
    studio.keys("\x1b");
    studio.wait_exit().await;
    studio.wait_restored().await;
}

/// An Oxford chair, its two speakers; the verdict differs each round so the
/// guard keeps it.
fn oxford_reply(request: &Recorded) -> Reply {
    let system = request.system();
    if system.contains("You are the CHAIR") {
        let round = (1..=3).find(|n| request.last_message().contains(&format!("Round {n} of"))).unwrap_or(0);
        let text = format!(
            r#"{{"resolved": false, "verdict": "Round {round}: the motion holds.", "ahead": "advocate", "topic": "Go on", "heat": 0.6, "scores": {{"advocate": [1], "skeptic": [0]}}}}"#
        );
        return Reply::sse(&anthropic_sse(&[&text], None), 64);
    }
    let text = if system.contains("PROPOSITION") { "1. Trains are calm." } else { "1. Planes are fast." };
    Reply::sse(&anthropic_sse(&[text], None), 64)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_format_chosen_on_the_start_screen_runs_with_its_rounds_and_is_remembered_alone() {
    let server = MockLlm::with_handler(oxford_reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio = open(data.path(), &server);
    studio.wait_for("the start screen", |s| s.contains("4 rounds from heat 0.90") && s.contains("F2 settings")).await;
    studio.keys(F2);
    studio.wait_for("the settings", |s| s.contains("Settings for the next debate")).await;
    studio.keys(&format!("{}{RIGHT}", DOWN.repeat(9)));
    studio.wait_for("oxford chosen", |s| s.contains("‹ oxford ›") && s.contains("Rounds      3")).await;
    studio.keys("\r");
    studio.wait_for("the settings applied", |s| s.contains("oxford · 3 rounds from heat 0.90")).await;
    assert!(studio.text().contains("Proposition"), "the roster names the seats:\n{}", studio.text());

    studio.keys("Trains beat planes\r");
    studio.wait_for("the end", |s| s.contains("ENDED") && s.contains("Round 3 of 3 · Closing")).await;
    // The results open with the ending (a frame later on a busy machine): three rounds of +1 against 0 pull
    // the rope toward the proposition, and Oxford's panel of three decided who won.
    studio
        .wait_for("the results", |s| {
            s.contains("scores: Proposition +3, Opposition \u{2212}3")
                && s.contains("⚖ the panel's decision: proposition wins 3–0")
        })
        .await;
    let asked = server.requests().iter().filter(|r| r.last_message().contains("of a panel of 3")).count();
    assert_eq!(asked, 6, "judges 2 and 3 were asked in each of three rounds");
    studio.keys("qq");
    assert!(studio.wait_exit().await.success());
    studio.wait_restored().await;

    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    assert!(matches!(events.first(), Some(DebateEvent::Started { max_rounds: 3, .. })), "{:?}", events.first());
    assert!(events.iter().any(|e| matches!(e, DebateEvent::Formatted { format } if format.name == "oxford")));
    let remembered = std::fs::read_to_string(data.path().join("studio.toml")).unwrap();
    assert!(remembered.contains("format = \"oxford\""), "{remembered}");
    assert!(!remembered.contains("max_rounds"), "the format's own rounds are not pinned:\n{remembered}");

    // The next start opens on the format, with its rounds.
    let mut studio = open(data.path(), &server);
    studio.wait_for("the remembered format", |s| s.contains("oxford · 3 rounds from heat 0.90")).await;
    studio.keys("\x1b");
    studio.wait_exit().await;
    studio.wait_restored().await;
}
