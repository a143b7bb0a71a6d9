//! `debate.summaries = "model"` through `heat run` against the mock
//! Anthropic server: from round 5 each debater's model is asked once to put
//! its round 1 argument in brief; the output says so, the session records
//! it, and the next round's prompts carry it.
#![allow(clippy::unwrap_used)]

use crate::support;

use heat::debate::{DebateEvent, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

fn reply(request: &Recorded) -> Reply {
    let system = request.system();
    let asked = request.last_message();
    let round = (1..=9).rev().find(|n| asked.contains(&format!("Round {n} of"))).unwrap_or(1);
    let text = if system.starts_with("You keep the record of a debate.") {
        if asked.contains("The advocate argued") {
            "Night trains win: rested travellers, a tenth of the carbon.".to_string()
        } else {
            "Flights win: half the fare, a third of the time.".to_string()
        }
    } else if system.contains("You are the JUDGE") {
        format!(
            r#"{{"resolved": false, "verdict": "Round {round} is close.", "topic": "What of reason {round}?", "heat": 0.6}}"#
        )
    } else if system.contains("You are the ADVOCATE") {
        format!("Night trains carry line {round} travellers rested. They arrive ready for work.")
    } else {
        format!("Flights on route {round} cost half as much. Time matters more than rest.")
    };
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    Reply::sse(&anthropic_sse(&words, None), 97)
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_run_asks_each_debaters_model_for_its_old_rounds_in_brief_and_records_them() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = support::binary::heat(data.path(), "[network]\nmax_retries = 1\n[debate]\nsummaries = \"model\"\n");
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url).args([
        "run",
        "--max-rounds",
        "5",
        "Night trains should replace short flights",
    ]);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    let (stdout, stderr) = (support::binary::stdout(&out), support::binary::stderr(&out));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("the advocate's round 1 argument, in brief from now on: Night trains win: rested travellers, a tenth of the carbon."),
        "{stdout}"
    );
    assert!(stdout.contains("the skeptic's round 1 argument, in brief from now on: Flights win"), "{stdout}");

    let briefs: Vec<_> =
        server.requests().into_iter().filter(|r| r.system().starts_with("You keep the record")).collect();
    assert_eq!(briefs.len(), 2, "one brief a side, of round 1");
    let fifth = server
        .requests()
        .into_iter()
        .find(|r| r.system().contains("You are the ADVOCATE") && r.last_message().contains("Round 5 of"))
        .unwrap();
    let all = fifth.body.to_string();
    assert!(all.contains("the advocate: “Night trains win: rested travellers, a tenth of the carbon.”"), "{all}");

    let store = Store::open(data.path()).unwrap();
    let id = store.list()[0].id.clone();
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let recorded = events.iter().filter(|e| matches!(e, DebateEvent::Briefed { round: 0, role: Role::Advocate, .. }));
    assert_eq!(recorded.count(), 1, "recorded once");
}
