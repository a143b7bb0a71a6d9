//! Scores per argument, as a verdict carries them (`scores = true` formats):
//! each argument each side made in a round, from −3 (it failed) to +3 (it
//! decided the round), read tolerantly from the judge's answer.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::debate::seat::Role;

/// The lowest and highest score an argument can get.
pub const MIN: i8 = -3;
pub const MAX: i8 = 3;

/// The most arguments a side is scored for in one round.
const MOST_ARGUMENTS: usize = 10;

/// One round's scores, by side, one per argument in the order made.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    #[serde(default)]
    pub advocate: Vec<i8>,
    #[serde(default)]
    pub skeptic: Vec<i8>,
}

impl Scores {
    /// A side's scores.
    pub fn of(&self, role: Role) -> &[i8] {
        match role {
            Role::Advocate => &self.advocate,
            Role::Skeptic => &self.skeptic,
            _ => &[],
        }
    }

    /// How far this round pulls the rope toward the side for: its scores'
    /// sum less the side against's.
    pub fn pull(&self) -> i32 {
        let sum = |s: &[i8]| s.iter().map(|&n| i32::from(n)).sum::<i32>();
        sum(&self.advocate) - sum(&self.skeptic)
    }

    /// Reads the `scores` field of a judge's answer: an object with a list
    /// (or a single number) per side. Numbers are rounded and held to −3..+3;
    /// anything else in a list is skipped. `None` when there is no usable
    /// object, so an answer without scores still reads.
    pub fn read(value: Option<&Value>) -> Option<Scores> {
        let Value::Object(map) = value? else { return None };
        let side = |key: &str| -> Vec<i8> {
            let one = |v: &Value| v.as_f64().map(|n| n.round().clamp(f64::from(MIN), f64::from(MAX)) as i8);
            match map.get(key) {
                Some(Value::Array(items)) => items.iter().filter_map(one).take(MOST_ARGUMENTS).collect(),
                Some(v) => one(v).into_iter().collect(),
                None => Vec::new(),
            }
        };
        let scores = Scores { advocate: side("advocate"), skeptic: side("skeptic") };
        (!scores.advocate.is_empty() || !scores.skeptic.is_empty()).then_some(scores)
    }

    /// One side's scores as a person reads them: "+2 +1 −1".
    pub fn describe(scores: &[i8]) -> String {
        scores.iter().map(|&n| signed(i32::from(n))).collect::<Vec<_>>().join(" ")
    }
}

/// A number with its sign, the minus a real one: "+2", "0", "−1".
pub fn signed(n: i32) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{n}"),
        n => format!("\u{2212}{}", n.unsigned_abs()),
    }
}
