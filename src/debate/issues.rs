//! Review issues: what a `review` debate's critics raise and what its
//! judge rules on them. A critic raises an issue with a line of its own,
//! `ISSUE L1 [high] the claim — evidence: what shows it`; the judge gives
//! every issue a status in its verdict (`"issues": [{"id": "L1", "status":
//! "addressed"}]`). The board is folded from the turns' text, so it needs
//! no event of its own: an issue is open from the round it is raised until
//! the judge says otherwise, and the judge's latest word on it stands. A
//! critic on the embedded model is held to its line by a grammar (`raising`).

pub mod raising;

use serde_json::Value;

use super::seat::Role;
use super::state::{DebateState, VerdictStatus};

/// How much an issue matters, as its critic rates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 4] = [Severity::Low, Severity::Medium, Severity::High, Severity::Critical];

    pub fn name(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    fn parse(word: &str) -> Option<Severity> {
        match word.trim().to_ascii_lowercase().as_str() {
            "low" | "minor" => Some(Severity::Low),
            "medium" | "med" | "moderate" => Some(Severity::Medium),
            "high" | "major" => Some(Severity::High),
            "critical" | "blocker" => Some(Severity::Critical),
            _ => None,
        }
    }
}

/// Where an issue stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Open,
    Addressed,
    Rejected,
    Deferred,
}

impl Status {
    pub const NAMES: [&'static str; 4] = ["open", "addressed", "rejected", "deferred"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn parse(word: &str) -> Option<Status> {
        match word.trim().to_ascii_lowercase().as_str() {
            "open" => Some(Status::Open),
            "addressed" | "resolved" | "fixed" => Some(Status::Addressed),
            "rejected" | "invalid" | "dismissed" => Some(Status::Rejected),
            "deferred" | "later" => Some(Status::Deferred),
            _ => None,
        }
    }
}

/// One issue as its critic raised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raised {
    pub id: String,
    pub severity: Severity,
    pub claim: String,
    pub evidence: Option<String>,
}

/// The longest issue id kept: `L1`, `OPS12`.
const ID_CHARS: usize = 8;

/// The issues a critic's argument raises, in order; a line that is not an
/// issue line is prose. An id raised twice in one argument counts once.
pub fn raised_in(text: &str) -> Vec<Raised> {
    let mut raised: Vec<Raised> = Vec::new();
    for issue in text.lines().filter_map(issue_line) {
        if !raised.iter().any(|r| r.id == issue.id) {
            raised.push(issue);
        }
    }
    raised
}

/// Whether `line` raises an issue (`ISSUE L1 [high] …`): the board holds
/// it, so it is no sentence of the argument's prose.
pub fn is_issue_line(line: &str) -> bool {
    issue_line(line).is_some()
}

/// `ISSUE L1 [high] claim — evidence: …` (any case; `**`, `-`, `#` marks
/// allowed; the severity in brackets or parentheses, `medium` when left out).
fn issue_line(line: &str) -> Option<Raised> {
    let line = line.trim().trim_start_matches(['*', '_', '#', '-', '>', ' ']);
    let rest = line.get(..5).filter(|head| head.eq_ignore_ascii_case("issue")).map(|_| &line[5..])?;
    let rest = rest.trim_start_matches(['*', '_', ' ']);
    let id_end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    let id = rest[..id_end].to_ascii_uppercase();
    if id.is_empty() || id.len() > ID_CHARS || !id.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut rest = rest[id_end..].trim_start_matches(['*', '_', ' ', ':']);
    let mut severity = Severity::Medium;
    if let Some(close) = rest.strip_prefix(['[', '(']).and_then(|r| r.find([']', ')']).map(|at| (r, at))) {
        let (inner, at) = close;
        severity = Severity::parse(&inner[..at]).unwrap_or(Severity::Medium);
        rest = inner[at + 1..].trim_start_matches(['*', '_', ' ', ':', '-', '–', '—']);
    }
    let lower = rest.to_ascii_lowercase();
    let (claim, evidence) = match lower.find("evidence:") {
        Some(at) => (&rest[..at], Some(rest[at + "evidence:".len()..].trim())),
        None => (rest, None),
    };
    let claim = claim.trim().trim_end_matches(['—', '–', '-', '|', ';', ' ']).trim();
    (!claim.is_empty()).then(|| Raised {
        id,
        severity,
        claim: crate::sanitize::clean(claim),
        evidence: evidence.filter(|e| !e.is_empty()).map(crate::sanitize::clean),
    })
}

/// The statuses a judge's answer gives (`"issues": [{"id", "status"}]`,
/// or `{"L1": "open"}`); with neither, what its verdict's prose says of an
/// issue ("L1 is addressed; O1 stays open": [`ruled_in_prose`]). Unknown
/// ids and statuses are left for the board to ignore.
pub fn ruled_in(answer: &str) -> Vec<(String, Status)> {
    let Ok(map) = super::verdict::parse_map(answer) else { return Vec::new() };
    let pair =
        |id: &Value, status: &Value| Some((id.as_str()?.trim().to_ascii_uppercase(), Status::parse(status.as_str()?)?));
    let structured: Vec<(String, Status)> = match map.get("issues") {
        Some(Value::Array(items)) => items.iter().filter_map(|i| pair(i.get("id")?, i.get("status")?)).collect(),
        Some(Value::Object(by_id)) => by_id.iter().filter_map(|(id, s)| pair(&Value::String(id.clone()), s)).collect(),
        _ => Vec::new(),
    };
    if !structured.is_empty() {
        return structured;
    }
    map.get("verdict").and_then(Value::as_str).map(ruled_in_prose).unwrap_or_default()
}

/// Rulings a verdict states in words: a clause (up to `.`, `;` or `,`)
/// that names one issue id and one status word, as in "L1 is addressed by
/// the backoff" or "O1 remains open". A clause naming two ids, or two
/// statuses, says nothing certain and is passed over.
pub fn ruled_in_prose(text: &str) -> Vec<(String, Status)> {
    let mut ruled: Vec<(String, Status)> = Vec::new();
    for clause in text.split(['.', ';', ',', '\n']) {
        let words: Vec<&str> = clause.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
        let ids: Vec<String> = words.iter().filter(|w| is_issue_id(w)).map(|w| w.to_ascii_uppercase()).collect();
        let statuses: Vec<Status> = words.iter().filter_map(|w| Status::parse(w)).collect();
        if let ([id], [status]) = (ids.as_slice(), statuses.as_slice())
            && !ruled.iter().any(|(known, _)| known == id)
        {
            ruled.push((id.clone(), *status));
        }
    }
    ruled
}

/// `L1`, `OPS12`: letters then digits, as a critic numbers its issues.
fn is_issue_id(word: &str) -> bool {
    let letters = word.chars().take_while(char::is_ascii_alphabetic).count();
    let digits = word.len() - letters;
    (1..=4).contains(&letters)
        && digits >= 1
        && word.len() <= ID_CHARS
        && word[letters..].chars().all(|c| c.is_ascii_digit())
        && word.chars().take(letters).all(|c| c.is_ascii_uppercase())
}

/// One row of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub issue: Raised,
    /// The critic who raised it, and in which round (from 0).
    pub by: Role,
    pub round: u32,
    pub status: Status,
    /// The round (from 0) of the judge's latest word on it, if any.
    pub ruled: Option<u32>,
}

/// Every issue raised so far, in the order raised, with its status.
pub fn board(state: &DebateState) -> Vec<Row> {
    board_through(state, u32::MAX)
}

/// The board as it stood at the end of round `last` (from 0): the issues
/// raised by then, each with the latest ruling of that round or before.
pub fn board_through(state: &DebateState, last: u32) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for round in state.rounds.iter().filter(|r| r.number <= last) {
        for &seat in state.debaters().iter().filter(|&&r| state.side(r) == super::seat::Side::Against) {
            let Some(turn) = round.turn(seat).filter(|t| t.is_settled()) else { continue };
            for issue in raised_in(&turn.text) {
                if !rows.iter().any(|r| r.issue.id == issue.id) {
                    rows.push(Row { issue, by: seat, round: round.number, status: Status::Open, ruled: None });
                }
            }
        }
        let ruled = round
            .turns
            .iter()
            .filter(|t| t.role == Role::Judge && matches!(t.verdict, Some(VerdictStatus::Parsed { .. })))
            .flat_map(|t| ruled_in(&t.text));
        for (id, status) in ruled {
            if let Some(row) = rows.iter_mut().find(|r| r.issue.id == id) {
                row.status = status;
                row.ruled = Some(round.number);
            }
        }
    }
    rows
}

/// The board as the judge is shown it, one issue a line; empty when none.
pub fn listed(rows: &[Row]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for r in rows {
        let evidence = r.issue.evidence.as_deref().map(|e| format!(" (evidence: {e})")).unwrap_or_default();
        let (id, severity, claim, status) = (&r.issue.id, r.issue.severity.name(), &r.issue.claim, r.status.name());
        let _ = writeln!(out, "- {id} [{severity}] {claim}{evidence}: {status}");
    }
    out
}

/// One issue for a person: `L1 [high] open · the claim (Logic critic, round 1)`.
pub fn row_line(state: &DebateState, row: &Row) -> String {
    format!(
        "{} [{}] {} · {} ({}, round {})",
        row.issue.id,
        row.issue.severity.name(),
        row.status.name(),
        row.issue.claim,
        crate::sanitize::clean(state.label(row.by)),
        row.round + 1
    )
}

/// `3 issues: 1 open, 1 addressed, 1 rejected`.
pub fn summary(rows: &[Row]) -> String {
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let parts: Vec<String> = [Status::Open, Status::Addressed, Status::Rejected, Status::Deferred]
        .into_iter()
        .filter(|&s| count(s) > 0)
        .map(|s| format!("{} {}", count(s), s.name()))
        .collect();
    let n = rows.len();
    format!("{n} issue{}: {}", if n == 1 { "" } else { "s" }, parts.join(", "))
}

/// The verdict schema with the judge's ruling on every issue.
pub fn with_issues(schema: Value) -> Value {
    let item = serde_json::json!({
        "type": "object",
        "properties": {
            "id": { "type": "string" },
            "status": { "type": "string", "enum": Status::NAMES }
        },
        "required": ["id", "status"],
        "additionalProperties": false
    });
    super::verdict::with_field(schema, "issues", serde_json::json!({ "type": "array", "items": item }))
}

#[cfg(test)]
mod tests;
