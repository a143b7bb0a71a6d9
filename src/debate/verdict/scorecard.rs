//! A round's scorecard, in a format that keeps an argument map: each side
//! scored on named criteria (logic, evidence, rebuttal and clarity unless
//! the format names its own) from 1 to 10. A score outside the scale is
//! refused, not clamped: the judge is asked once more, as for any answer
//! that cannot be read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sides::SideNames;
use crate::debate::seat::Role;

/// The lowest and highest score on a criterion.
pub const LOW: u8 = 1;
pub const HIGH: u8 = 10;

/// The most criteria a scorecard keeps.
const MOST_CRITERIA: usize = 8;

/// Each side's score on each criterion, by the criterion's name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scorecard {
    #[serde(default)]
    pub advocate: BTreeMap<String, u8>,
    #[serde(default)]
    pub skeptic: BTreeMap<String, u8>,
}

impl Scorecard {
    /// A side's scores.
    pub fn of(&self, role: Role) -> Option<&BTreeMap<String, u8>> {
        match role {
            Role::Advocate => Some(&self.advocate),
            Role::Skeptic => Some(&self.skeptic),
            _ => None,
        }
    }
}

/// Reads a verdict's `scorecard`: `{"advocate": {"logic": 7, …}, "skeptic":
/// {…}}`, the sides called by `names`. `None` when there is none to read;
/// an error (what was wrong, as the judge is told it) when a score is not a
/// whole number from 1 to 10.
pub fn read(value: Option<&Value>, names: SideNames) -> Result<Option<Scorecard>, String> {
    let Some(Value::Object(sides)) = value else { return Ok(None) };
    let mut card = Scorecard::default();
    for (side, scores) in sides {
        let Some(role) = names.side(side) else { continue };
        let Value::Object(scores) = scores else { continue };
        let mut read = BTreeMap::new();
        for (criterion, score) in scores.iter().take(MOST_CRITERIA) {
            let criterion = criterion.trim().to_ascii_lowercase();
            let whole = score.as_f64().filter(|n| n.fract() == 0.0 && (f64::from(LOW)..=f64::from(HIGH)).contains(n));
            let Some(whole) = whole else {
                return Err(format!("expected whole numbers from {LOW} to {HIGH}, got {criterion} {score}"));
            };
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked to lie in 1..=10
            read.insert(criterion, whole as u8);
        }
        if role == Role::Advocate { card.advocate = read } else { card.skeptic = read }
    }
    Ok((!card.advocate.is_empty() || !card.skeptic.is_empty()).then_some(card))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    #[test]
    fn a_scorecard_reads_by_side_and_criterion() {
        let value = json!({"advocate": {"Logic": 7, "evidence": 5}, "skeptic": {"logic": 6.0}, "judge": {"logic": 1}});
        let card = read(Some(&value), SideNames::PLAIN).unwrap().unwrap();
        assert_eq!(card.advocate, BTreeMap::from([("evidence".into(), 5), ("logic".into(), 7)]));
        assert_eq!(card.skeptic, BTreeMap::from([("logic".into(), 6)]));
        assert_eq!(read(None, SideNames::PLAIN).unwrap(), None);
        assert_eq!(read(Some(&json!({})), SideNames::PLAIN).unwrap(), None);
    }

    #[test]
    fn a_score_outside_the_scale_is_refused_not_clamped() {
        for bad in [json!(11), json!(0), json!(7.5), json!("7")] {
            let value = json!({"advocate": {"logic": bad}});
            let error = read(Some(&value), SideNames::PLAIN).unwrap_err();
            assert!(error.contains("from 1 to 10") && error.contains("logic"), "{error}");
        }
    }
}
