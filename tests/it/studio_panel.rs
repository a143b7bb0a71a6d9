//! A panel of three judges as a person reads it: the judge's pane lists
//! each other judge's vote under the chair's verdict (waiting, voted, or
//! outvoted for want of an answer) and the majority's decision with its
//! dissent; the results, the Markdown export and the HTML report say the
//! same.
#![allow(clippy::unwrap_used)]

use crate::studio_support;
use crate::support::log::completed;
use heat::debate::PanelJudge;

use heat::debate::format::FormatRecord;
use heat::debate::verdict::Ahead;
use heat::debate::{DebateEvent, Heat, Outcome, Role, TurnPurpose, Verdict};
use heat::report::export::{ExportKind, render};
use heat::report::{self, Context};
use heat::store::log::{Header, Record};
use studio_support::{ADVOCATE, SKEPTIC, feed, new_app, screen, started_events};

fn panel_format() -> FormatRecord {
    FormatRecord {
        name: "oxford".into(),
        labels: ["Proposition", "Opposition", "Chair"].map(String::from).to_vec(),
        debaters: 2,
        sides: Vec::new(),
        convergence: None,
        opening_arguments: 1,
        resolve_early: false,
        phases: Vec::new(),
        briefs: None,
        scores: false,
        judges: 3,
        panel_models: Vec::new(),
        panel_providers: Vec::new(),
        issues: false,
        map: None,
        sections: Vec::new(),
    }
}

fn verdict(text: &str, heat: f32, ahead: Ahead) -> Verdict {
    Verdict {
        resolved: false,
        verdict: text.into(),
        ahead: Some(ahead),
        topic: "Does remote work hurt juniors?".into(),
        heat: Heat::new(heat),
        ..Verdict::default()
    }
}

/// Round 1 argued; judge 2 has voted, judge 3 is weighing, the chair streams.
fn voting() -> Vec<DebateEvent> {
    let mut events = started_events(2);
    events.insert(1, DebateEvent::Formatted { format: Box::new(panel_format()) });
    let done = |role, text: &str| completed(0, role, text);
    events.extend([
        done(Role::Advocate, ADVOCATE),
        done(Role::Skeptic, SKEPTIC),
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: Some(0.2) },
        DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) },
        DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(3) },
        DebateEvent::PanelVoted {
            round: 0,
            judge: PanelJudge(2),
            verdict: verdict("Hallway trust outweighs quiet hours.", 0.5, Ahead::Skeptic),
            usage: None,
        },
        DebateEvent::Delta { round: 0, role: Role::Judge, text: r#"{"resolved": false, "verdict": "Focus"#.into() },
    ]);
    events
}

/// The round decided: the chair puts the proposition ahead, judge 2 the
/// opposition, and judge 3 gives no vote.
fn decided() -> Vec<DebateEvent> {
    let mut events = voting();
    let chair = verdict("Focus and time outweigh hallway chance.", 0.7, Ahead::Advocate);
    let text = serde_json::to_string(&chair).unwrap();
    events.extend([
        DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Judge,
            text,
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        },
        DebateEvent::VerdictReached { round: 0, verdict: chair },
        DebateEvent::PanelVoteFailed {
            round: 0,
            judge: PanelJudge(3),
            error: "the server answered 503".into(),
            usage: None,
        },
    ]);
    events
}

#[test]
fn the_judge_pane_lists_each_vote_and_the_decision() {
    let mut app = new_app();
    feed(&mut app, &voting());
    let text = screen(&mut app, 160, 45);
    assert!(text.contains("▪ Judge 2: not resolved · opposition ahead · heat"), "{text}");
    assert!(text.contains("▪ Judge 3: weighing the round…"), "{text}");
    assert!(!text.contains("the panel:"), "no decision before every judge spoke:\n{text}");
    insta::assert_snapshot!("panel_voting_120x40", screen(&mut app, 120, 40));
    insta::assert_snapshot!("panel_voting_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("panel_voting_200x50", screen(&mut app, 200, 50));

    let mut app = new_app();
    feed(&mut app, &decided());
    let text = screen(&mut app, 160, 45);
    assert!(text.contains("▪ Judge 3: no vote (the server answered 503)"), "{text}");
    // Two answered of three: a majority; 1–1 on who is ahead, so neither side leads.
    assert!(text.contains("the panel: not resolved 2–0 · neither side ahead ·"), "{text}");
    assert!(text.contains("heat 0.60 (median) · 2 of 3 judges answered"), "{text}");
    assert!(text.contains("Chair: not resolved · heat → 0.70"), "the chair's own verdict is named: {text}");
}

#[test]
fn the_export_and_the_report_keep_every_vote_and_the_dissent() {
    let mut events = decided();
    events.push(DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
    let records: Vec<Record> =
        events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64 * 1000, event }).collect();
    let header = Header { heat_session: 1, id: "20261124-120000-pane".into(), created_ms: 1_795_342_500_000 };
    let md = render(ExportKind::Md, &header, &records);
    assert!(
        md.contains("- Judge 2: not resolved · opposition ahead · heat 0.50: Hallway trust outweighs quiet hours.\n"),
        "{md}"
    );
    assert!(md.contains("- Judge 3: no vote (the server answered 503)\n"), "{md}");
    assert!(md.contains("**the panel: not resolved 2–0 · neither side ahead · heat 0.60 (median)"), "{md}");
    let html = report::html(&header, &records, &Context::default()).unwrap();
    assert!(html.contains("<li>Judge 2: not resolved · opposition ahead · heat 0.50</li>"), "{html}");
    assert!(html.contains("<p class=\"decision\">the panel: not resolved 2–0"), "{html}");
}
