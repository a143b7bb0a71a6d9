#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn an_issue_line_gives_its_id_severity_claim_and_evidence() {
    let text = "Prose first.\n**ISSUE L1 [high]** The retry loop never ends — evidence: `while true` in step 3\n- issue o2 (critical): keys are logged\nIssue L1 [low] said twice\nIssues are many.";
    let raised = raised_in(text);
    assert_eq!(raised.len(), 2, "{raised:?}");
    assert_eq!(raised[0].id, "L1");
    assert_eq!(raised[0].severity, Severity::High);
    assert_eq!(raised[0].claim, "The retry loop never ends");
    assert_eq!(raised[0].evidence.as_deref(), Some("`while true` in step 3"));
    assert_eq!(
        (raised[1].id.as_str(), raised[1].severity, raised[1].evidence.clone()),
        ("O2", Severity::Critical, None)
    );
    assert!(raised_in("ISSUE 7 [high] x").len() == 1, "a bare number is an id");
    assert!(raised_in("ISSUE abc [high] no digit").is_empty(), "an id holds a digit");
    assert!(raised_in("ISSUE L3 [high]").is_empty(), "an issue needs its claim");
    assert_eq!(
        raised_in("ISSUE L4 the claim").first().map(|r| r.severity),
        Some(Severity::Medium),
        "medium by default"
    );
}

#[test]
fn a_judges_rulings_read_from_a_list_or_a_map() {
    let list = r#"{"verdict": "v", "issues": [{"id": "l1", "status": "addressed"}, {"id": "O2", "status": "maybe"}]}"#;
    assert_eq!(ruled_in(list), [("L1".to_string(), Status::Addressed)]);
    let map = r#"```json
{"verdict": "v", "issues": {"O2": "rejected", "L1": "deferred"}}
```"#;
    let mut ruled = ruled_in(map);
    ruled.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(ruled, [("L1".to_string(), Status::Deferred), ("O2".to_string(), Status::Rejected)]);
    assert!(ruled_in("no json").is_empty());
}

#[test]
fn rulings_said_in_the_verdicts_words_are_read_when_no_list_is_given() {
    let prose =
        r#"{"verdict": "L1 is addressed by the backoff; O1 remains open. OPS12 was rejected, and the rest can wait."}"#;
    let ruled = ruled_in(prose);
    assert_eq!(
        ruled,
        [
            ("L1".to_string(), Status::Addressed),
            ("O1".to_string(), Status::Open),
            ("OPS12".to_string(), Status::Rejected)
        ]
    );
    // Two ids in one clause, or no status word: nothing certain is said.
    assert!(ruled_in(r#"{"verdict": "L1 and O1 are addressed. The 2FA plan stands."}"#).is_empty());
    // A list given wins over the prose.
    let both = r#"{"verdict": "L1 is addressed.", "issues": [{"id": "L1", "status": "deferred"}]}"#;
    assert_eq!(ruled_in(both), [("L1".to_string(), Status::Deferred)]);
}

#[test]
fn the_schema_asks_a_status_for_every_issue() {
    let schema = with_issues(crate::debate::verdict::schema());
    assert_eq!(schema["properties"]["issues"]["items"]["properties"]["status"]["enum"][3], "deferred");
    assert!(schema["required"].as_array().unwrap().iter().any(|r| r == "issues"));
}

#[test]
fn the_summary_counts_each_status() {
    let row = |id: &str, status| Row {
        issue: Raised { id: id.into(), severity: Severity::High, claim: "c".into(), evidence: None },
        by: Role::Skeptic,
        round: 0,
        status,
        ruled: None,
    };
    let rows = [row("L1", Status::Open), row("L2", Status::Addressed), row("O1", Status::Open)];
    assert_eq!(summary(&rows), "3 issues: 2 open, 1 addressed");
    assert_eq!(listed(&rows[..1]), "- L1 [high] c: open\n");
}
