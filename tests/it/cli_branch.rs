//! `heat branch` from the binary: a stored debate taken up after one of its
//! finished rounds as a new session that reads the shared rounds from its
//! parent (never copied, never written), with the changes reaching the
//! providers; a branch of a branch; a resumed branch; a bad `--at`, one
//! sentence each.

// The shared mock server's helpers unwrap.
#![allow(clippy::unwrap_used)]

use crate::support;
use crate::support::log::{Log, participant};

use std::path::Path;

use heat::debate::Heat;
use heat::debate::{DebateEvent, DebateState, Outcome, Role, TurnPurpose, Verdict};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

fn heat(data: &Path) -> assert_cmd::Command {
    support::binary::heat(data, "")
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// One finished round: both arguments, then the judge's verdict.
fn round(number: u32, topic: &str, heat: f32, next: &str) -> Vec<DebateEvent> {
    let mut events =
        vec![DebateEvent::RoundStarted { round: number, topic: topic.into(), heat: Heat::new(heat), injected: vec![] }];
    for (role, text) in [(Role::Advocate, "For"), (Role::Skeptic, "Against")] {
        events.push(DebateEvent::TurnStarted { round: number, role, purpose: TurnPurpose::Argue, temperature: None });
        events.push(DebateEvent::TurnCompleted {
            round: number,
            role,
            text: format!("{text}, in round {}, as the parent argued.", number + 1),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
    }
    events.push(DebateEvent::TurnStarted {
        round: number,
        role: Role::Judge,
        purpose: TurnPurpose::Judge,
        temperature: None,
    });
    let verdict = Verdict {
        resolved: false,
        verdict: format!("Open after round {}.", number + 1),
        topic: next.into(),
        heat: Heat::new(0.6),
        ..Verdict::default()
    };
    events.push(DebateEvent::TurnCompleted {
        round: number,
        role: Role::Judge,
        text: serde_json::to_string(&verdict).unwrap(),
        usage: None,
        truncated_at: None,
        possibly_cut: false,
    });
    events.push(DebateEvent::VerdictReached { round: number, verdict });
    events
}

/// A stored debate of up to 4 rounds argued by three named Anthropic
/// models: rounds 1 and 2 finished, round 3 begun and stopped.
fn store_parent(data: &Path) -> String {
    let log = three_models()
        .then_all(round(0, "Tabs beat spaces", 0.9, "Do tabs help screen readers?"))
        .then_all(round(1, "Do tabs help screen readers?", 0.6, "Is alignment worth it?"))
        .round_on(2, "Is alignment worth it?", 0.6)
        .starts_at(2, Role::Advocate, TurnPurpose::Argue, None)
        .then(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    store(data, &log)
}

/// A debate of up to 4 rounds on "Tabs beat spaces", seated on three named Anthropic models.
fn three_models() -> Log {
    let seat = |role, model: &str| participant(role, "anthropic", model);
    Log::new("Tabs beat spaces", 4, 0.9).seated(vec![
        seat(Role::Advocate, "m-adv"),
        seat(Role::Skeptic, "m-skp"),
        seat(Role::Judge, "m-judge"),
    ])
}

/// Records `log` as a new stored session and returns its id.
fn store(data: &Path, log: &Log) -> String {
    let store = Store::open(data).expect("store opens");
    let mut recorder = store.create().expect("session created");
    for event in log.events() {
        recorder.record(event);
    }
    recorder.id().to_string()
}

/// A server playing the three seats; the judge never resolves, so only the
/// round limit ends a debate.
async fn server() -> MockLlm {
    MockLlm::with_handler(|request: &Recorded| {
        let text = if request.system().contains("You are the JUDGE") {
            r#"{"resolved": false, "verdict": "Still open.", "topic": "What next?", "heat": 0.5}"#.to_string()
        } else {
            // A new argument each round: one said again word for word is asked for again.
            let asked = crate::support::duel::round_asked(request);
            let line = if request.system().contains("You are the ADVOCATE") {
                "Tabs let every reader choose a width"
            } else {
                "Spaces render the same everywhere"
            };
            format!("{line} ({asked}).")
        };
        Reply::sse(&anthropic_sse(&[&text], None), 64)
    })
    .await
}

async fn run(mut cmd: assert_cmd::Command, server: &MockLlm) -> std::process::Output {
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test-5f3a9c1e").env("ANTHROPIC_BASE_URL", &server.base_url);
    tokio::task::spawn_blocking(move || cmd.output().expect("runs")).await.expect("joined")
}

fn state(store: &Store, id: &str) -> DebateState {
    let loaded = store.load(id).expect("loads");
    DebateState::from_events(loaded.records.iter().map(|r| &r.event))
}

/// The session that is not one of `known`.
fn newest(store: &Store, known: &[&str]) -> String {
    store.list().into_iter().find(|e| !known.contains(&e.id.as_str())).expect("a new session").id
}

#[tokio::test(flavor = "multi_thread")]
async fn a_branch_shares_the_rounds_before_and_goes_on_with_its_changes() {
    let server = server().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let parent = store_parent(dir.path());
    let store = Store::open(dir.path()).expect("store");
    let parent_bytes = std::fs::read(store.log_path(&parent)).expect("parent log");

    let mut cmd = heat(dir.path());
    cmd.args(["branch", &parent, "--at", "1", "--swap-sides", "--seat", "judge=m-arbiter"])
        .args(["--topic", "Should tabs be the default?", "--pin", "0.4", "--inject", "Count the cost of reformatting"])
        .args(["--max-rounds", "3"]);
    let out = run(cmd, &server).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("a branch of {parent} after round 1: sides swapped")), "{}", stdout(&out));
    // Said once each: the header, and how many rounds.
    assert_eq!(stdout(&out).matches("up to 3 rounds").count(), 1, "{}", stdout(&out));
    assert_eq!(stdout(&out).matches("heat · ").count(), 1, "{}", stdout(&out));

    // The parent is untouched, to the byte.
    assert_eq!(std::fs::read(store.log_path(&parent)).expect("parent log"), parent_bytes);
    let child = newest(&store, &[&parent]);
    // Nothing of the shared round is copied into the branch's own log.
    let own = std::fs::read_to_string(store.log_path(&child)).expect("branch log");
    // (What the branch's turns were sent quotes the shared round, as the models read it.)
    let events: String = own.lines().filter(|l| !l.contains("\"type\":\"request_sent\"")).collect();
    assert!(!events.contains("as the parent argued"), "the shared round was copied:\n{own}");
    assert!(own.lines().nth(1).is_some_and(|l| l.contains("\"type\":\"branched\"")), "{own}");

    // Up to the branch, the branch is its parent.
    let (before, after) = (state(&store, &parent), state(&store, &child));
    assert_eq!(after.rounds[..1], before.rounds[..1]);
    assert_eq!(after.topic, before.topic);
    assert_eq!(after.rounds.len(), 3, "rounds 2 and 3 were argued: {:?}", after.rounds.len());
    assert_eq!(after.rounds[1].topic, "Should tabs be the default?");
    assert_eq!(after.rounds[1].injected, vec!["Count the cost of reformatting".to_string()]);
    assert!((after.rounds[1].heat.get() - 0.4).abs() < 1e-6 && after.rounds[1].pinned, "{:?}", after.rounds[1].heat);
    assert_eq!(after.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
    let point = after.branch.as_ref().expect("the branch point is recorded");
    assert_eq!((point.from.as_str(), point.round), (parent.as_str(), 1));

    // The sides swapped reach the providers: the advocate's seat asks the skeptic's model.
    let requests = server.requests();
    let model_for = |who: &str| -> Vec<String> {
        requests
            .iter()
            .filter(|r| r.system().contains(who))
            .map(|r| r.body["model"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(model_for("You are the ADVOCATE"), vec!["m-skp", "m-skp"]);
    assert_eq!(model_for("You are the SKEPTIC"), vec!["m-adv", "m-adv"]);
    assert!(model_for("You are the JUDGE").iter().all(|m| m == "m-arbiter"));
    let first = requests.iter().find(|r| r.system().contains("You are the ADVOCATE")).expect("asked");
    let prompt = first.last_message();
    assert!(prompt.contains("Should tabs be the default?"), "{prompt}");
    assert!(prompt.contains("Count the cost of reformatting"), "{prompt}");
    assert!((first.body["temperature"].as_f64().unwrap_or_default() - 0.4).abs() < 1e-6, "{}", first.body);

    // Listed as a tree: the branch under its parent.
    let listed = stdout(&heat(dir.path()).arg("sessions").output().expect("runs"));
    let lines: Vec<&str> = listed.lines().collect();
    let at = lines.iter().position(|l| l.starts_with(&parent)).expect("parent listed");
    assert!(
        lines[at + 1].starts_with(&child)
            && lines[at + 1].contains(&format!("└ Tabs beat spaces ⑂ after round 1 of {parent}")),
        "{listed}"
    );

    // The export and the report say where it came from, and hold the shared round.
    let md = stdout(&heat(dir.path()).args(["export", &child]).output().expect("runs"));
    assert!(md.contains(&format!("- Branch of `{parent}` after round 1: sides swapped")), "{md}");
    assert!(md.contains("For, in round 1, as the parent argued."), "{md}");
    let page = dir.path().join("branch.html");
    let out = heat(dir.path()).args(["report", &child, "-o"]).arg(&page).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(
        html.contains(&format!("<dt>Branch of</dt><dd><code>{parent}</code> after round 1: sides swapped")),
        "the page says so"
    );

    // A branch of the branch reads through both: its parent's round 1, the branch's round 2.
    let mut cmd = heat(dir.path());
    cmd.args(["branch", &child, "--at", "2", "--heat", "0.7"]);
    let out = run(cmd, &server).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let grandchild = newest(&store, &[&parent, &child]);
    let deeper = state(&store, &grandchild);
    assert_eq!(deeper.rounds[..2], after.rounds[..2]);
    assert!((deeper.rounds[2].heat.get() - 0.7).abs() < 1e-6, "{}", deeper.rounds[2].heat);
    assert_eq!(std::fs::read(store.log_path(&parent)).expect("parent log"), parent_bytes);

    // A round that ended its debate leaves a branch nothing to go on with.
    let out = heat(dir.path()).args(["branch", &child, "--at", "3"]).output().expect("runs");
    assert!(
        stderr(&out).contains(&format!(
            "round 3 ended session {child} (ended at the round limit): a branch can be taken after round 1 to 2, or run it again"
        )),
        "{}",
        stderr(&out)
    );

    // The parent cannot be deleted from under its branch.
    let out = heat(dir.path()).args(["sessions", "rm", &parent, "--yes"]).output().expect("runs");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!(
            "{parent} not deleted: a branch reads its first rounds from it ({child}); delete it first"
        )),
        "{}",
        stderr(&out)
    );
    // The whole tree can, in one call.
    let out = heat(dir.path()).args(["sessions", "rm", &parent, &child, &grandchild, "--yes"]).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(store.list().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_branch_cut_short_is_resumed_through_its_parent() {
    let server = server().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let parent = store_parent(dir.path());
    let store = Store::open(dir.path()).expect("store");
    let loaded = store.load(&parent).expect("loads");
    let (end, folded) = heat::store::branch::round_end(&parent, &loaded.records, 2).expect("round 2 finished");
    let shared = &loaded.records[..end];
    let branched = DebateEvent::Branched {
        from: parent.clone(),
        round: 2,
        records: end as u64,
        how: "goes on as it was".into(),
        participants: folded.participants.clone(),
        changes: heat::debate::BranchChanges::default(),
    };
    let mut recorder = store.create_branch(shared, folded, &branched).expect("branch created");
    // Killed as its round 3 began.
    recorder.record(&DebateEvent::RoundStarted {
        round: 2,
        topic: "Is alignment worth it?".into(),
        heat: Heat::new(0.6),
        injected: vec![],
    });
    let child = recorder.id().to_string();
    drop(recorder);

    let mut cmd = heat(dir.path());
    cmd.args(["resume", &child]);
    let out = run(cmd, &server).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let resumed = state(&store, &child);
    assert_eq!(resumed.rounds.len(), 4, "rounds 3 and 4 were argued");
    assert_eq!(resumed.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
    assert_eq!(resumed.rounds[..2], state(&store, &parent).rounds[..2]);
    let own = std::fs::read_to_string(store.log_path(&child)).expect("branch log");
    let events: String = own.lines().filter(|l| !l.contains("\"type\":\"request_sent\"")).collect();
    assert!(!events.contains("as the parent argued"), "{own}");
}

#[test]
fn a_round_that_cannot_be_branched_gets_one_sentence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let parent = store_parent(dir.path());
    let cases = [
        // The range offered is the rounds that can be branched: not round 3, which has no verdict.
        ("0", "a branch can be taken after round 1 to 2, not 0"),
        (
            "7",
            &format!(
                "session {parent} has 3 rounds (round 3 has no verdict yet): a branch can be taken after round 1 to 2, not 7"
            ) as &str,
        ),
        (
            "3",
            &format!(
                "round 3 of session {parent} has not finished: its judge has given no verdict yet; a branch can be taken after round 1 to 2"
            ),
        ),
    ];
    for (at, said) in cases {
        let out = heat(dir.path()).args(["branch", &parent, "--at", at]).output().expect("runs");
        assert!(!out.status.success());
        assert!(stderr(&out).contains(said), "--at {at}: {}", stderr(&out));
    }
    let out = heat(dir.path()).args(["branch", &parent, "--at", "1", "--pin", "3"]).output().expect("runs");
    assert!(stderr(&out).contains("--pin takes a heat from 0.3 to 1.0; got 3"), "{}", stderr(&out));
    let out = heat(dir.path()).args(["branch", &parent, "--at", "2", "--max-rounds", "2"]).output().expect("runs");
    assert!(stderr(&out).contains("--max-rounds 2 leaves the branch no round after round 2"), "{}", stderr(&out));
    assert_eq!(Store::open(dir.path()).expect("store").list().len(), 1, "nothing was stored");
}

/// A stored debate whose person pinned the heat at 0.80 before round 2 and,
/// while round 2 was argued, injected a note no round has argued yet.
fn store_pinned_parent(data: &Path) -> String {
    let mut second = round(1, "Do tabs help screen readers?", 0.8, "Is alignment worth it?");
    second.insert(1, DebateEvent::TopicInjected { text: "Mind the diff tools".into() });
    let log = three_models()
        .then_all(round(0, "Tabs beat spaces", 0.9, "Do tabs help screen readers?"))
        .then(DebateEvent::TemperaturePinned { heat: Heat::new(0.8) })
        .then_all(second)
        .then(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    store(data, &log)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_branch_says_the_parents_pin_and_waiting_notes_it_keeps_and_runs_with_them() {
    let server = server().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let parent = store_pinned_parent(dir.path());
    let store = Store::open(dir.path()).expect("store");

    let mut cmd = heat(dir.path());
    cmd.args(["branch", &parent, "--at", "2", "--max-rounds", "3"]);
    let out = run(cmd, &server).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let said = "heat: the branch keeps the parent's heat pinned at 0.80 and the parent's note \u{201c}Mind the diff tools\u{201d} \
                (--heat H sets another heat and releases the pin)";
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    // What was said is what runs: round 3's debaters are asked at 0.80 with the note.
    let requests = server.requests();
    let debaters: Vec<&Recorded> = requests.iter().filter(|r| !r.system().contains("You are the JUDGE")).collect();
    assert_eq!(debaters.len(), 2);
    for request in &debaters {
        assert!((request.body["temperature"].as_f64().unwrap_or_default() - 0.8).abs() < 1e-6, "{}", request.body);
        assert!(request.last_message().contains("Mind the diff tools"), "{}", request.last_message());
    }
    // The record says it too: replay, the export and the report read it from there.
    let child = newest(&store, &[&parent]);
    let how = state(&store, &child).branch.expect("a branch").how;
    assert!(how.contains("keeps the parent's heat pinned at 0.80"), "{how}");

    // A heat given for the branch releases the pin, and nothing says the pin is kept.
    let before = server.requests().len();
    let mut cmd = heat(dir.path());
    cmd.args(["branch", &parent, "--at", "1", "--heat", "0.5", "--max-rounds", "2"]);
    let out = run(cmd, &server).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("pinned"), "{}", stderr(&out));
    let first = server.requests()[before..]
        .iter()
        .find(|r| r.system().contains("You are the ADVOCATE"))
        .cloned()
        .expect("asked");
    assert!((first.body["temperature"].as_f64().unwrap_or_default() - 0.5).abs() < 1e-6, "{}", first.body);
}

#[test]
fn a_branch_says_a_seat_pinned_to_its_own_heat_stays_at_it() {
    let log = three_models()
        .then_all(round(0, "Tabs beat spaces", 0.9, "Do tabs help screen readers?"))
        .then(DebateEvent::SeatHeatPinned { role: Role::Skeptic, heat: Heat::new(0.35) })
        .then_all(round(1, "Do tabs help screen readers?", 0.5, "Is alignment worth it?"));
    let state = DebateState::from_events(log.events());
    let kept = state.kept_after(1);
    assert_eq!(kept.seat_pins.get(&Role::Skeptic).map(|h| h.get()), Some(0.35));
    let said = kept.describe(&heat::debate::event::BranchChanges::default());
    assert_eq!(said, ["the skeptic's own heat pinned at 0.35"], "never kept without a word");
}
