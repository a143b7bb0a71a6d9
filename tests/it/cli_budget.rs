//! A debate's budget from the binary (`debate.budget_tokens`): told at 80 %,
//! stopped at the limit with what was spent and how to go on, and `heat
//! resume` going on past it; against the mock server speaking Anthropic's
//! wire format, whose every answer reports its tokens.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use heat::debate::{DebateEvent, DebateState, Outcome};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply};

/// The judge never resolves; every answer is a few words, each its own delta
/// (the mock reports one output token a delta, 25 input tokens a call).
fn reply(request: &Recorded) -> Reply {
    support::duel::reply(request, |request| {
        let message = request.last_message();
        let round = message.split("Round ").nth(1).and_then(|r| r.chars().next()).unwrap_or('?');
        format!(
            r#"{{"resolved": false, "verdict": "Round {round} leaves the cost of tabs open.", "topic": "What about diffs?", "heat": 0.6}}"#
        )
    })
}

fn heat(data: &Path, server: &MockLlm, config: &str, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = support::binary::heat(data, config);
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url).args(args);
    cmd
}

async fn output(mut cmd: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_debate_stops_at_its_budget_says_what_it_spent_and_resume_goes_on_past_it() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let config = "[network]\nmax_retries = 1\n[debate]\nbudget_tokens = 180\n";
    let run = output(heat(data.path(), &server, config, &["run", "Tabs beat spaces", "--max-rounds", "4"])).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(
        stdout.contains("% of the budget spent:") && stdout.contains("budgeted (debate.budget_tokens)"),
        "{stdout}"
    );
    assert!(stdout.contains("! budget reached: "), "{stdout}");
    assert!(stderr.contains("heat: stopped at its budget: ") && stderr.contains("of the 180 budgeted"), "{stderr}");
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    assert!(stderr.contains(&format!("`heat resume {id}` goes on past it")), "{stderr}");
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let state = DebateState::from_events(&events);
    assert!(state.budget_reached);
    let (input, output_tokens) = heat::debate::cost::tokens(&state).unwrap();
    assert!(input + output_tokens >= 180, "it stopped at the limit, not before: {}", input + output_tokens);
    assert!(state.rounds.len() < 4, "it stopped short of the round limit");
    let sent = server.requests().len();

    // Resumed, it goes on past the budget to the end, and is not stopped again.
    let resumed = output(heat(data.path(), &server, config, &["resume", &id])).await;
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(server.requests().len() > sent);
    let events: Vec<DebateEvent> = store.load(&id).unwrap().records.into_iter().map(|r| r.event).collect();
    let state = DebateState::from_events(&events);
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::MaxRounds));
    assert_eq!(events.iter().filter(|e| matches!(e, DebateEvent::BudgetReached { .. })).count(), 1);
}
