//! A person in a seat from the binary (`--seat skeptic=human`, `--seat
//! judge=human`): `heat run` asks the person on standard error and reads
//! the turn from standard input; what the person typed reaches the judge's
//! request and the other seat's next one, and a person judging sets the
//! next question and the heat. Against the mock server speaking
//! Anthropic's wire format.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;
use std::process::Output;

use heat::debate::{DebateState, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply};

fn reply(request: &Recorded) -> Reply {
    support::duel::reply(request, |_| {
        r#"{"resolved": false, "verdict": "Both held their ground.", "topic": "What about diffs?", "heat": 0.6}"#.into()
    })
}

/// Runs `heat` with `typed` on its standard input.
async fn run(data: &Path, server: &MockLlm, args: &[&str], typed: &str) -> Output {
    let mut cmd = support::binary::heat(data, "[network]\nmax_retries = 1\n");
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url).args(args);
    cmd.write_stdin(typed.to_string());
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

fn stored(data: &Path) -> DebateState {
    let store = Store::open(data).unwrap();
    let id = store.resolve(None).unwrap();
    DebateState::from_events(store.load(&id).unwrap().records.iter().map(|r| &r.event))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_argues_from_standard_input_and_the_judge_and_the_other_seat_read_it() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let typed = "\nSpaces render the same in every diff.\nNobody is surprised.\n\nEditorconfig ends the mixing.\n\n";
    let args = ["run", "Tabs beat spaces", "--max-rounds", "2", "--seat", "skeptic=human"];
    let out = run(data.path(), &server, &args, typed).await;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("your turn as the skeptic").count(), 2, "{stderr}");
    assert!(stdout.contains("skeptic   human/you"), "{stdout}");
    let state = stored(data.path());
    assert!(state.seated_person(Role::Skeptic));
    let said: Vec<&str> = state.rounds.iter().filter_map(|r| r.turn(Role::Skeptic)).map(|t| t.text.as_str()).collect();
    assert_eq!(said, ["Spaces render the same in every diff.\nNobody is surprised.", "Editorconfig ends the mixing."]);
    let requests = server.requests();
    let judged = requests.iter().find(|r| r.system().contains("You are the JUDGE")).unwrap();
    assert!(judged.last_message().contains("Nobody is surprised."), "{}", judged.last_message());
    let advocate_round_2 = requests.iter().filter(|r| r.system().contains("You are the ADVOCATE")).nth(1).unwrap();
    let body = advocate_round_2.body.to_string();
    assert!(body.contains("Nobody is surprised."), "{body}");
    assert!(!requests.iter().any(|r| r.system().contains("You are the SKEPTIC")), "no model was asked for the person");
    // The export says who argued the seat.
    let mut export = support::binary::heat(data.path(), "");
    export.args(["export", "--format", "md"]);
    let md = String::from_utf8_lossy(&export.output().unwrap().stdout).to_string();
    assert!(md.contains("- Skeptic: a person at the keyboard"), "{md}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_judges_from_standard_input_with_a_question_and_a_heat() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    // Round 1: not resolved, the skeptic ahead, a question, a heat out of range then 0.8.
    // Round 2: resolved, the advocate ahead, the heat kept.
    let typed = "n\ns\nThe diff point stands.\nWho pays for reformatting?\n7\n0.8\ny\na\nTabs win on access.\n\n";
    let args = ["run", "Tabs beat spaces", "--max-rounds", "3", "--seat", "judge=human"];
    let out = run(data.path(), &server, &args, typed).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("\"7\" is not a heat between 0.3 and 1.0"), "{stderr}");
    let state = stored(data.path());
    assert_eq!(state.rounds.len(), 2, "resolved by the person in round 2");
    assert_eq!(state.rounds[1].topic, "Who pays for reformatting?");
    assert!((state.rounds[1].heat.get() - 0.8).abs() < 1e-6);
    let first = state.rounds[0].verdict().unwrap();
    assert_eq!(first.ahead.and_then(heat::debate::standing::Ahead::side), Some(Role::Skeptic));
    assert!(state.finish.unwrap().synthesis.unwrap().contains("Tabs win on access."));
    assert!(!server.requests().iter().any(|r| r.system().contains("You are the JUDGE")), "no model judged");
}

/// In the last round the judge's answer is the final synthesis: it ends
/// the debate whatever it says, so the person is asked who is ahead and
/// what it says, not whether it is resolved, nor a question or a heat.
#[tokio::test(flavor = "multi_thread")]
async fn a_person_judging_the_last_round_is_asked_for_the_synthesis_alone() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    // Round 1: not resolved, the skeptic ahead, a question, the heat kept. Round 2: the synthesis.
    let typed = "n\ns\nThe diff point stands.\nWho pays for reformatting?\n\na\nTabs win on access, narrowly.\n";
    let args = ["run", "Tabs beat spaces", "--max-rounds", "2", "--seat", "judge=human"];
    let out = run(data.path(), &server, &args, typed).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("Resolved? y/N").count(), 1, "asked in round 1 only: {stderr}");
    assert!(stderr.contains("your final synthesis, as the judge: the debate ends with it"), "{stderr}");
    assert_eq!(stderr.matches("The heat, ").count(), 1, "no heat is asked of the last word: {stderr}");
    let state = stored(data.path());
    assert_eq!(state.rounds.len(), 2);
    let finish = state.finish.unwrap();
    assert!(finish.synthesis.unwrap().contains("Tabs win on access, narrowly."));
    assert_eq!(
        state.rounds[1].verdict().unwrap().ahead.and_then(heat::debate::standing::Ahead::side),
        Some(Role::Advocate)
    );
}

/// A person chairing a panel whose other judges sit on the chair's seat
/// would be asked for their votes too: refused before anything starts,
/// naming the judges and how to seat them.
#[tokio::test(flavor = "multi_thread")]
async fn a_person_chairs_a_panel_only_with_its_other_judges_seated_elsewhere() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    let args = ["run", "This house prefers tabs", "--format", "oxford", "--seat", "judge=human"];
    let out = run(data.path(), &server, &args, "").await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("you take the judge's seat, which chairs a panel of 3: judge2, judge3"), "{stderr}");
    assert!(stderr.contains("--seat judge2=PROVIDER:MODEL --seat judge3=PROVIDER:MODEL"), "{stderr}");
    assert!(server.requests().is_empty(), "nothing was asked");
}
