//! The claims a verdict names, in a format that keeps an argument map
//! (`map = true`): each a short claim in its debater's words, by id (`A1`,
//! `S2`), with where it stands after the round and the other side's claim
//! it answers. Read tolerantly: an entry without an id, a side or a claim is
//! passed over, a status it does not know reads as standing. The ledger
//! they fold into is [`crate::debate::argument_map`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sides::SideNames;
use crate::debate::seat::Role;

/// Where a claim stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimStatus {
    /// Made, and not answered yet.
    Standing,
    /// The other side answered it, and its side has not yet.
    Attacked,
    /// Its side answered the attack.
    Defended,
    /// Its side gave it up to the other.
    Conceded,
    /// Its side dropped it without conceding it.
    Withdrawn,
    /// Both sides accept it, on its evidence (a format that resolves on
    /// consensus ends only on such claims).
    Agreed,
}

impl ClaimStatus {
    pub const ALL: [ClaimStatus; 6] = [
        ClaimStatus::Standing,
        ClaimStatus::Attacked,
        ClaimStatus::Defended,
        ClaimStatus::Conceded,
        ClaimStatus::Withdrawn,
        ClaimStatus::Agreed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ClaimStatus::Standing => "standing",
            ClaimStatus::Attacked => "attacked",
            ClaimStatus::Defended => "defended",
            ClaimStatus::Conceded => "conceded",
            ClaimStatus::Withdrawn => "withdrawn",
            ClaimStatus::Agreed => "agreed",
        }
    }

    /// Whether the claim still counts (for its side, or for both).
    pub fn holds(self) -> bool {
        matches!(self, ClaimStatus::Standing | ClaimStatus::Defended | ClaimStatus::Agreed)
    }

    fn parse(word: &str) -> Option<ClaimStatus> {
        match word.trim().to_ascii_lowercase().as_str() {
            "standing" | "stands" | "open" | "made" | "new" | "unanswered" => Some(ClaimStatus::Standing),
            "attacked" | "challenged" | "rebutted" | "refuted" | "answered" => Some(ClaimStatus::Attacked),
            "defended" | "upheld" | "reinforced" => Some(ClaimStatus::Defended),
            "conceded" | "given up" | "granted" => Some(ClaimStatus::Conceded),
            "withdrawn" | "dropped" | "abandoned" => Some(ClaimStatus::Withdrawn),
            "agreed" | "accepted" | "shared" | "common ground" => Some(ClaimStatus::Agreed),
            _ => None,
        }
    }
}

/// The longest claim id kept: `A1`, `S12`.
const ID_CHARS: usize = 6;
/// The longest claim kept, in characters: a claim is a line, not a speech.
pub const CLAIM_CHARS: usize = 160;
/// The most claims one verdict names.
const MOST_CLAIMS: usize = 16;

/// One claim as a verdict names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedClaim {
    pub id: String,
    /// The debater who made it.
    pub by: Role,
    /// The claim, short, in its debater's words.
    pub claim: String,
    pub status: ClaimStatus,
    /// The other side's claim this one answers, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<String>,
    /// What it rests on, where the judge says (an agreed claim's evidence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

/// Reads a verdict's `claims`: a list of `{"id", "by", "claim", "status",
/// "answers"}`, the sides called by `names`. Nothing usable reads as none.
pub fn read(value: Option<&Value>, names: SideNames) -> Vec<NamedClaim> {
    let Some(Value::Array(items)) = value else { return Vec::new() };
    let mut claims: Vec<NamedClaim> = Vec::new();
    for item in items {
        let Some(claim) = one(item, names) else { continue };
        if !claims.iter().any(|c| c.id == claim.id) && claims.len() < MOST_CLAIMS {
            claims.push(claim);
        }
    }
    claims
}

fn one(item: &Value, names: SideNames) -> Option<NamedClaim> {
    let own = id(item.get("id")?.as_str()?)?;
    let by = names.side(item.get("by")?.as_str()?)?;
    let claim = crate::sanitize::clean(item.get("claim")?.as_str()?.trim());
    if claim.is_empty() {
        return None;
    }
    let claim = crate::words::truncate(&claim, CLAIM_CHARS);
    let status =
        item.get("status").and_then(Value::as_str).and_then(ClaimStatus::parse).unwrap_or(ClaimStatus::Standing);
    let answers = item.get("answers").and_then(Value::as_str).and_then(id).filter(|target| *target != own);
    let evidence = item
        .get("evidence")
        .and_then(Value::as_str)
        .map(|e| crate::words::truncate(&crate::sanitize::clean(e.trim()), CLAIM_CHARS))
        .filter(|e| !e.is_empty());
    Some(NamedClaim { id: own, by, claim, status, answers, evidence })
}

/// A claim id as the ledger keeps it (`a1` → `A1`): letters then digits.
pub fn id(text: &str) -> Option<String> {
    let id = text.trim().to_ascii_uppercase();
    let letters = id.chars().take_while(char::is_ascii_alphabetic).count();
    let ok = (1..=3).contains(&letters)
        && id.len() > letters
        && id.len() <= ID_CHARS
        && id[letters..].chars().all(|c| c.is_ascii_digit());
    ok.then_some(id)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn claims_read_tolerantly_and_entries_without_an_id_side_or_claim_are_passed_over() {
        let value = json!([
            {"id": "a1", "by": "advocate", "claim": "Night trains save a hotel night", "status": "standing"},
            {"id": "S1", "by": "The Skeptic", "claim": "Sleepers cost more than flights", "status": "rebutted", "answers": "A1"},
            {"id": "S2", "by": "judge", "claim": "no side"},
            {"id": "", "by": "advocate", "claim": "no id"},
            {"id": "A2", "by": "advocate", "claim": "  "},
            {"id": "A3", "by": "advocate", "claim": "Unknown status", "status": "sort of", "answers": "A3"},
            {"id": "A1", "by": "advocate", "claim": "a second A1"}
        ]);
        let read = read(Some(&value), SideNames::PLAIN);
        let ids: Vec<&str> = read.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["A1", "S1", "A3"]);
        assert_eq!(read[1].by, Role::Skeptic);
        assert_eq!(read[1].status, ClaimStatus::Attacked);
        assert_eq!(read[1].answers.as_deref(), Some("A1"));
        assert_eq!(read[2].status, ClaimStatus::Standing, "an unknown status reads as standing");
        assert_eq!(read[2].answers, None, "a claim does not answer itself");
        assert!(super::read(Some(&json!("A1 stands")), SideNames::PLAIN).is_empty());
    }

    #[test]
    fn ids_are_letters_then_digits() {
        assert_eq!(id(" s12 ").as_deref(), Some("S12"));
        for bad in ["12", "A", "ABCD1", "A1B", "A1234567"] {
            assert_eq!(id(bad), None, "{bad}");
        }
    }
}
