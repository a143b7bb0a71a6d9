//! A person in a seat in the real binary, in a terminal (`heat --seat
//! skeptic=human`): the skeptic's pane opens as an editor when its turn
//! comes, Ctrl-G hands the draft to `$EDITOR` and takes back what it left,
//! Enter sends it, and what the person wrote reaches the judge's request and
//! the advocate's next one; no model is asked for the skeptic.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support;

use studio_support::pty::spawn_heat;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const API_KEY: &str = "sk-ant-test-person-7d2e";

fn reply(request: &Recorded) -> Reply {
    let text = if request.system().contains("You are the JUDGE") {
        r#"{"resolved": false, "verdict": "Both hold ground.", "topic": "What about onboarding?", "heat": 0.6}"#
    } else {
        "Trains let people work on the way and skip the airport queues."
    };
    Reply::sse(&anthropic_sse(&[text], None), 64)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_writes_the_skeptics_turns_in_its_pane_and_the_judge_and_the_advocate_read_them() {
    let server = MockLlm::with_handler(reply).await;
    let data = tempfile::tempdir().unwrap();
    // An editor that adds a paragraph to what it is given.
    let editor = data.path().join("editor.sh");
    std::fs::write(&editor, "#!/bin/sh\nprintf '%s\\n\\nPlanes win on distance.\\n' \"$(cat \"$1\")\" > \"$1.new\" && mv \"$1.new\" \"$1\"\n")
        .unwrap();
    std::process::Command::new("chmod").arg("+x").arg(&editor).status().unwrap();
    let args = ["--seat", "skeptic=human", "--max-rounds", "2", "Trains beat planes"];
    let env = [("EDITOR", editor.to_str().unwrap()), ("VISUAL", "")];
    let mut studio = spawn_heat(data.path(), data.path(), Some((&server.base_url, API_KEY)), &args, &env);
    studio.wait_for("the skeptic's editor", |s| s.contains("Your turn as the skeptic · round 1")).await;
    studio.keys("Flights are faster.");
    studio.keys("\x07");
    studio.wait_for("the editor's paragraph", |s| s.contains("Planes win on distance.")).await;
    studio.keys("\r");
    studio.wait_for("round 2's editor", |s| s.contains("Your turn as the skeptic · round 2")).await;
    assert!(studio.text().contains("Question: What about onboarding?"), "{}", studio.text());
    studio.keys("Onboarding happens at the gate.\r");
    studio.wait_for("the end", |s| s.contains("Ended at the round limit")).await;
    studio.keys("\x1b");
    studio.wait_for("the results closed", |s| !s.contains("Ended at the round limit")).await;
    studio.keys("q");
    assert!(studio.wait_exit().await.success());
    studio.wait_restored().await;

    let requests = server.requests();
    let judge = requests.iter().find(|r| r.system().contains("You are the JUDGE")).unwrap();
    // The judge reads the arguments as JSON strings: the paragraphs as `\n\n`.
    assert!(
        judge.last_message().contains(r"Flights are faster.\n\nPlanes win on distance."),
        "{}",
        judge.last_message()
    );
    let advocate = requests.iter().filter(|r| r.system().contains("You are the ADVOCATE")).nth(1).unwrap();
    let body = advocate.body.to_string();
    assert!(body.contains("Planes win on distance."), "{body}");
    assert!(!requests.iter().any(|r| r.system().contains("You are the SKEPTIC")), "no model sat in the person's seat");
}
