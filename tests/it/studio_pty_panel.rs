//! A `panel` debate end to end in the real binary, in a pty, against the
//! mock Anthropic server: three panelists in panes of their own, each
//! round's final answers, the judge's heat and its synthesis once the
//! panel converges, and the log's outcome.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use heat::debate::{DebateEvent, Outcome, Role};
use heat::store::Store;
use studio_support::pty::spawn_heat;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const API_KEY: &str = "sk-ant-test-panel-7d2e";

/// Panelists who split in round 1 and agree on "fewer cars" in round 2; a
/// judge who goes on after round 1 and writes the synthesis after round 2.
fn reply(request: &Recorded) -> Reply {
    let system = request.system();
    let last = request.last_message();
    let round = (1..=4).find(|n| last.contains(&format!("Round {n} of"))).unwrap_or(0);
    let text = if system.contains("You are the JUDGE of a panel") {
        if last.contains("final synthesis") {
            r#"{"resolved": true, "verdict": "Synthesis: the panel agrees on fewer cars, with deliveries kept at night.", "ahead": "even", "conceded": "none", "topic": "t", "heat": 0.3}"#.to_string()
        } else {
            r#"{"resolved": false, "verdict": "The panel splits on an outright ban against fewer cars.", "ahead": "even", "conceded": "none", "topic": "What about deliveries?", "heat": 0.5}"#.to_string()
        }
    } else {
        let (who, first) = if system.contains("OPTIMIST") {
            ("Quieter streets fill with cafes", "fewer cars")
        } else if system.contains("REALIST") {
            ("Shops need their vans at dawn", "a ban")
        } else {
            ("Buses stall when lanes close", "no ban")
        };
        let answer = if round >= 2 { "Fewer cars." } else { first };
        format!("{who} in round {round}.\nFinal answer: {answer}")
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 64)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_panel_debate_runs_in_the_studio_until_the_panel_converges() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut studio =
        spawn_heat(data.path(), data.path(), Some((&server.base_url, API_KEY)), &["--format", "panel"], &[]);
    studio.wait_for("the start screen", |s| s.contains("panel") && s.contains("F2 settings")).await;
    studio.keys("Should cities ban cars from their centres?\r");
    studio
        .wait_for("three panelists' panes", |s| s.contains("Optimist") && s.contains("Realist") && s.contains("Critic"))
        .await;
    studio.wait_for("the synthesis", |s| s.contains("Synthesis: the panel agrees") && s.contains("CONVERGED")).await;
    let screen = studio.text();
    assert!(!screen.contains("Third") && !screen.contains("Fourth"), "only the seats that sit:\n{screen}");
    studio.keys("qq");
    assert!(studio.wait_exit().await.success());
    studio.wait_restored().await;

    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let started = events.iter().filter(|e| matches!(e, DebateEvent::TurnStarted { role: Role::Third, .. })).count();
    assert_eq!(started, 2, "the third panelist argued both rounds");
    let Some(DebateEvent::Finished { outcome, .. }) =
        events.iter().rev().find(|e| matches!(e, DebateEvent::Finished { .. }))
    else {
        panic!("the debate finished")
    };
    assert_eq!(*outcome, Outcome::Converged);
    let rounds: Vec<f32> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::RoundStarted { heat, .. } => Some(heat.get()),
            _ => None,
        })
        .collect();
    assert_eq!(rounds.len(), 2);
    assert!((rounds[1] - 0.5).abs() < 1e-6, "the judge's heat: {rounds:?}");
}
