//! The argument map from the binary: an Oxford debate on the mock
//! Anthropic server whose chair names each round's claims and scores each
//! side. The chair is asked for them (schema and instruction), is told the
//! ledger so far, and is asked once more when a score is off the scale; the
//! printer, the Markdown and JSON exports and the HTML report all show the
//! same ledger: a claim attacked in round 2, defended in round 3.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cli_formats::{heat, output, text};
use crate::support;
use heat::debate::argument_map::{self, ClaimStatus};
use heat::debate::{DebateState, Role};
use heat::store::Store;
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

/// The chair's claims and scorecard for round `round` (from 1); its first
/// answer scores logic 11, off the scale, and its first in round 2 links to
/// a claim the map does not have.
fn chair(round: usize, first_answer: bool) -> String {
    let claims = match round {
        1 => {
            r#"[{"id": "A1", "by": "proposition", "claim": "Tabs let every reader choose a width", "status": "standing", "answers": ""}]"#
        }
        2 if first_answer => {
            r#"[{"id": "S1", "by": "opposition", "claim": "Widths differ between editors", "status": "standing", "answers": "A7"}]"#
        }
        2 => {
            r#"[{"id": "S1", "by": "opposition", "claim": "Widths differ between editors", "status": "standing", "answers": "A1"}]"#
        }
        _ => {
            r#"[{"id": "A1", "by": "advocate", "claim": "Tabs let every reader choose a width", "status": "defended", "answers": ""}]"#
        }
    };
    let logic = if round == 1 && first_answer { 11 } else { 7 };
    format!(
        r#"{{"resolved": false, "verdict": "After round {round} the proposition's point on reading widths stands and the opposition has only begun to answer it.", "ahead": "advocate", "conceded": "none", "topic": "Answer round {round}.", "heat": 0.6, "scores": {{"advocate": [1], "skeptic": [0]}}, "claims": {claims}, "scorecard": {{"advocate": {{"logic": {logic}, "evidence": 6, "rebuttal": 5, "clarity": 8}}, "skeptic": {{"logic": 5, "evidence": 5, "rebuttal": 6, "clarity": 6}}}}}}"#
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oxford_debate_keeps_a_ledger_and_scorecards_that_every_presenter_shows_alike() {
    let asked = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&asked);
    let server = MockLlm::with_handler(move |request: &Recorded| {
        let system = request.system();
        // The round asked about: the latest the messages name (a repair's last message names none).
        let messages = request.body["messages"].to_string();
        let round = (1..=3).rev().find(|n| messages.contains(&format!("Round {n} of"))).unwrap_or(1);
        let answer = if system.contains("You are the CHAIR") {
            // The chair's first answer scores off the scale; the panel's other judges' never do.
            let repair = request.last_message().contains("could not be used");
            let panel = request.last_message().contains("of a panel of");
            let first = match round {
                1 => !repair && !panel && count.fetch_add(1, Ordering::SeqCst) == 0,
                2 => !repair && !panel,
                _ => false,
            };
            chair(round, first)
        } else if system.contains("PROPOSITION") {
            format!("{round}. Tabs let every reader choose a width, and round {round} shows it again with fresh cases.")
        } else {
            format!("{round}. Widths differ between editors, and round {round} brings style guides that say spaces.")
        };
        let words: Vec<&str> = answer.split_inclusive(' ').collect();
        Reply::sse(&anthropic_sse(&words, None), 97)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), Some(&server));
    cmd.args(["run", "This house prefers tabs", "--format", "oxford"]);
    let out = output(cmd).await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // The chair is asked for the map, and told the ledger so far.
    let chair_requests: Vec<Recorded> = server
        .requests()
        .into_iter()
        .filter(|r| r.system().contains("You are the CHAIR") && !r.last_message().contains("of a panel of"))
        .collect();
    let body = chair_requests[0].body.to_string();
    assert!(body.contains("\"scorecard\"") && body.contains("\"claims\""), "{body}");
    assert!(
        chair_requests.iter().any(|r| r.body["messages"].to_string().contains("scorecard")
            && r.body["messages"].to_string().contains("could not be used")),
        "the off-scale score is sent back once"
    );
    let repair = |fault: &str| chair_requests.iter().any(|r| r.last_message().contains(fault));
    let repairs: Vec<String> =
        chair_requests.iter().map(Recorded::last_message).filter(|m| m.contains("could not be used")).collect();
    assert!(
        repair("the claim S1 answers A7, which the argument map does not have"),
        "the unknown link is asked about once: {repairs:?}\n{stdout}"
    );
    let told = chair_requests.iter().map(Recorded::last_message).find(|m| m.contains("Round 3 of")).unwrap();
    assert!(
        told.contains("- A1 (advocate, round 1): Tabs let every reader choose a width [attacked]"),
        "{told}\n{stdout}"
    );

    // The log folds to the ledger: A1 standing, attacked in round 2, defended in round 3.
    let store = Store::open(data.path()).unwrap();
    let id = store.resolve(None).unwrap();
    let loaded = store.load(&id).unwrap();
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    let ledger = argument_map::ledger(&state);
    let a1 = ledger.get("A1").unwrap();
    assert_eq!(a1.history, [(0, ClaimStatus::Standing), (1, ClaimStatus::Attacked), (2, ClaimStatus::Defended)]);
    assert_eq!(ledger.get("S1").map(|c| (c.by, c.answers.clone())), Some((Role::Skeptic, Some("A1".into()))));
    assert_eq!(argument_map::scorecards(&state).len(), 3);
    let round_one = &argument_map::scorecards(&state)[0].1;
    assert_eq!(round_one.advocate.get("logic"), Some(&7), "the repaired answer's score is kept, not a clamp of 11");

    // Each presenter says the same line.
    let attacked = "S1 Opposition: Widths differ between editors — standing · answers A1";
    assert!(stdout.contains(&format!("◆ {attacked}")), "{stdout}");
    assert!(
        stdout.contains("scorecard: Proposition 6.5 (logic 7, evidence 6, rebuttal 5, clarity 8) · Opposition 5.5"),
        "{stdout}"
    );
    let mut cmd = heat(data.path(), None);
    cmd.args(["export", "--format", "md"]);
    let markdown = text(&output(cmd).await.stdout);
    assert!(markdown.contains("**The argument map:**") && markdown.contains(&format!("- ◆ {attacked}")), "{markdown}");
    let mut cmd = heat(data.path(), None);
    cmd.args(["export", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output(cmd).await.stdout).unwrap();
    let claims = json["map"]["ledger"]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 2);
    assert_eq!(claims[0]["status"], "defended");
    assert_eq!(json["map"]["averages"][0], 6.5);
    let mut cmd = heat(data.path(), None);
    cmd.args(["report", "-o"]).arg(data.path().join("report.html"));
    assert!(output(cmd).await.status.success());
    let html = std::fs::read_to_string(data.path().join("report.html")).unwrap();
    assert!(
        html.contains("<ul class=\"map\">") && html.contains("◆ S1 Opposition: Widths differ between editors"),
        "no map in the report"
    );
}

/// A socratic turn: its four sections, or without `missing`.
fn socratic_turn(side: &str, round: usize, missing: &str) -> String {
    let sections = [
        ("Claim", format!("{side} holds that night trains change the trip, round {round}.")),
        ("Evidence", format!("The {side} cites the Vienna sleeper's fares from round {round}.")),
        ("Rebuttal", format!("The other side's numbers leave out the hotel night, says the {side}.")),
        ("Question", format!("What does the other side make of the booking data, round {round}?")),
    ];
    sections
        .iter()
        .filter(|(name, _)| *name != missing)
        .map(|(name, text)| format!("{name}: {text}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_socratic_debate_asks_for_missing_sections_once_and_resolves_only_on_agreed_evidence() {
    let advocate_asked = Arc::new(AtomicUsize::new(0));
    let asked = Arc::clone(&advocate_asked);
    let server = MockLlm::with_handler(move |request: &Recorded| {
        let system = request.system();
        let messages = request.body["messages"].to_string();
        let round = (1..=4).rev().find(|n| messages.contains(&format!("Round {n} of"))).unwrap_or(1);
        let answer = if system.contains("JUDGE of a structured debate") {
            let claims = if round == 1 {
                r#"[{"id": "A1", "by": "advocate", "claim": "Night trains change the trip", "status": "standing", "answers": "", "evidence": ""}]"#
            } else {
                r#"[{"id": "A1", "by": "advocate", "claim": "Night trains change the trip", "status": "agreed", "answers": "", "evidence": "the Vienna sleeper's fares"}]"#
            };
            format!(
                r#"{{"resolved": true, "verdict": "Round {round}: both sides now weigh the Vienna sleeper's fares, and the hotel night is the point that is still argued.", "ahead": "even", "conceded": "none", "topic": "Does the hotel night settle round {round}?", "heat": 0.5, "claims": {claims}, "scorecard": {{"advocate": {{"logic": 7, "evidence": 7, "rebuttal": 6, "clarity": 7}}, "skeptic": {{"logic": 6, "evidence": 6, "rebuttal": 7, "clarity": 7}}}}}}"#
            )
        } else if system.contains("ADVOCATE") {
            // Round 1's first answer lacks its evidence; the one more try has it.
            let first = round == 1 && asked.fetch_add(1, Ordering::SeqCst) == 0;
            socratic_turn("advocate", round, if first { "Evidence" } else { "" })
        } else {
            socratic_turn("skeptic", round, "Question")
        };
        let words: Vec<&str> = answer.split_inclusive(' ').collect();
        Reply::sse(&anthropic_sse(&words, None), 97)
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), Some(&server));
    cmd.args(["run", "Night trains beat short-haul flights", "--format", "socratic"]);
    let out = output(cmd).await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{stdout}", text(&out.stderr));

    // Each debater is told the sections, and the judge the rule it ends on.
    let requests = server.requests();
    let debater = requests.iter().find(|r| r.system().contains("ADVOCATE")).unwrap();
    assert!(
        debater
            .last_message()
            .contains("each starting on a line of its own with its name: Claim: Evidence: Rebuttal: Question:")
    );
    let judge = requests.iter().find(|r| r.system().contains("JUDGE of a structured debate")).unwrap();
    assert!(judge.last_message().contains("This debate resolves on consensus"), "{}", judge.last_message());
    assert!(judge.last_message().contains("Each side's Claim section states its claim"));

    // A missing section is asked for once, then the turn is kept and flagged.
    assert!(stdout.contains("↻ advocate: the answer lacks sections its format asks for"), "{stdout}");
    assert_eq!(advocate_asked.load(Ordering::SeqCst), 2, "round 1 asked twice: once more for its missing section");
    assert!(
        stdout.contains("▦ The skeptic's argument in round 1 lacks its Question section: kept, as it came"),
        "{stdout}"
    );

    // Round 1's "resolved" names no agreed claim: the debate goes on; round 2's does, and ends it.
    assert!(
        stdout.contains(
            "the judge resolved without naming a claim both sides accept, with its evidence: the debate goes on"
        ),
        "{stdout}"
    );
    let store = Store::open(data.path()).unwrap();
    let loaded = store.load(&store.resolve(None).unwrap()).unwrap();
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(state.rounds.len(), 2, "{stdout}");
    assert!(state.finish.as_ref().is_some_and(|f| f.outcome.concluded()), "{:?}", state.finish);
    let a1 = argument_map::ledger(&state).get("A1").cloned().unwrap();
    assert_eq!(a1.status, ClaimStatus::Agreed);
    // The judge named no claim of the skeptic's: its own Claim section is its claim.
    let s1 = argument_map::ledger(&state).get("S1").cloned().unwrap();
    assert_eq!(
        (s1.by, s1.claim.as_str()),
        (Role::Skeptic, "skeptic holds that night trains change the trip, round 1.")
    );
    assert!(stdout.contains("◆ A1 Advocate: Night trains change the trip — agreed"), "{stdout}");
}
