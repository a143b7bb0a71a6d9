//! Scores per argument, in a format that asks for them (`scores = true`):
//! the judge scores each argument each side made in a round from −3 (it
//! failed) to +3 (it decided the round). The running totals are a
//! tug-of-war: what one side gains the other loses, so they always sum to
//! zero. Read tolerantly from the judge's answer, asked for in its schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event::Role;
use super::state::{DebateState, Round};

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

/// A round's scores: the chair's; on a panel, each argument's median over
/// every judge that scored it (the two middle ones' mean, toward zero, for
/// an even count). `None` when no judge scored the round.
pub fn of_round(round: &Round) -> Option<Scores> {
    let given: Vec<&Scores> = super::panel::ballots(round).into_iter().filter_map(|(_, v)| v.scores.as_ref()).collect();
    match given.as_slice() {
        [] => None,
        [one] => Some((*one).clone()),
        many => {
            let side = |role: Role| {
                let arguments = many.iter().map(|s| s.of(role).len()).max().unwrap_or(0);
                (0..arguments).map(|i| median(many.iter().filter_map(|s| s.of(role).get(i).copied()))).collect()
            };
            Some(Scores { advocate: side(Role::Advocate), skeptic: side(Role::Skeptic) })
        }
    }
}

/// The middle score (the two middle ones' mean, toward zero).
fn median(scores: impl Iterator<Item = i8>) -> i8 {
    let mut all: Vec<i8> = scores.collect();
    all.sort_unstable();
    let n = all.len();
    match n {
        0 => 0,
        _ if n % 2 == 1 => all[n / 2],
        _ => i8::midpoint(all[n / 2 - 1], all[n / 2]),
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

/// One round's scores with the running total after it, the sides named as
/// the format names them: "scores: Proposition +2 +1 −1 · Opposition +1 0 ·
/// running Proposition +1". Model-given names are cleaned by the fold.
pub fn line(state: &DebateState, round: u32, scores: &Scores) -> String {
    let side = |role: Role| {
        let given = scores.of(role);
        let given = if given.is_empty() { "none".to_string() } else { Scores::describe(given) };
        format!("{} {given}", state.label(role))
    };
    format!(
        "scores: {} · {} · running {}",
        side(Role::Advocate),
        side(Role::Skeptic),
        lead(state, state.tug_through(round))
    )
}

/// The side a tug pulls toward: the side for when positive, the side
/// against when negative, `None` when even.
pub fn leader(tug: i32) -> Option<Role> {
    match tug.signum() {
        1 => Some(Role::Advocate),
        -1 => Some(Role::Skeptic),
        _ => None,
    }
}

/// Who leads a tug and by how much: "Opposition +4", or "even".
pub fn lead(state: &DebateState, tug: i32) -> String {
    leader(tug).map_or_else(|| "even".to_string(), |role| format!("{} {}", state.label(role), signed(tug.abs())))
}

/// The tug-of-war's totals once any round is scored: "Proposition +3,
/// Opposition −3 over 2 scored rounds". `None` when nothing was scored.
pub fn totals(state: &DebateState) -> Option<String> {
    let scored = state.rounds.iter().filter(|r| of_round(r).is_some()).count();
    (scored > 0 && state.scored()).then(|| {
        let side = |role: Role| format!("{} {}", state.label(role), signed(state.total(role)));
        let rounds = if scored == 1 { "1 scored round".to_string() } else { format!("{scored} scored rounds") };
        format!("{}, {} over {rounds}", side(Role::Advocate), side(Role::Skeptic))
    })
}

/// `schema` (the verdict's) asking for scores too: an integer list per side.
pub fn with_scores(mut schema: Value) -> Value {
    let list = serde_json::json!({ "type": "array", "items": { "type": "integer", "minimum": MIN, "maximum": MAX } });
    let scores = serde_json::json!({
        "type": "object",
        "properties": { "advocate": list, "skeptic": list },
        "required": ["advocate", "skeptic"],
        "additionalProperties": false
    });
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert("scores".into(), scores);
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        required.push("scores".into());
    }
    schema
}

/// What the judge is told about scoring, naming the sides as the format does.
pub fn instruction(pro: &str, con: &str) -> String {
    format!(
        "Score each argument each side made this round from {MIN} (it failed) to +{MAX} (it decided the round), \
         one whole number per argument in the order made, in \"scores\": {{\"advocate\": [...], \"skeptic\": [...]}} \
         (\"advocate\" is the {pro}, \"skeptic\" the {con})."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_tolerantly_and_held_to_the_range() {
        let read = |json: &str| Scores::read(serde_json::from_str::<Value>(json).ok().as_ref());
        assert_eq!(
            read(r#"{"advocate": [2, 7, -1.4, "x"], "skeptic": -5}"#),
            Some(Scores { advocate: vec![2, 3, -1], skeptic: vec![-3] })
        );
        assert_eq!(read(r#"{"advocate": [], "skeptic": []}"#), None);
        assert_eq!(read(r#""good""#), None);
        assert_eq!(read("null"), None);
        let long = read(r#"{"advocate": [1,1,1,1,1,1,1,1,1,1,1,1]}"#).map(|s| s.advocate.len());
        assert_eq!(long, Some(10));
    }

    #[test]
    fn the_pull_is_one_sides_sum_less_the_others() {
        let s = Scores { advocate: vec![2, 1, -1], skeptic: vec![1, 0] };
        assert_eq!(s.pull(), 1);
        assert_eq!(Scores::describe(&s.advocate), "+2 +1 \u{2212}1");
        assert_eq!(signed(0), "0");
    }

    #[test]
    fn a_panels_scores_are_each_arguments_median() {
        use super::super::state::Round;
        use super::super::verdict::Verdict;
        let scored = |advocate: Vec<i8>, skeptic: Vec<i8>| Verdict {
            scores: Some(Scores { advocate, skeptic }),
            ..Verdict::default()
        };
        let vote = |verdict| super::super::panel::Vote::Voted { verdict, usage: None };
        let mut round: Round = serde_json::from_str(r#"{"number":0,"topic":"t","heat":0.5,"injected":[],"turns":[]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(of_round(&round), None);
        round.panel.insert(2, vote(scored(vec![3, -1], vec![0])));
        assert_eq!(
            of_round(&round),
            Some(Scores { advocate: vec![3, -1], skeptic: vec![0] }),
            "one judge's are its own"
        );
        round.panel.insert(3, vote(scored(vec![1, 2, 2], vec![-3])));
        round.panel.insert(4, vote(scored(vec![2, 1], vec![-2])));
        // Medians: [1,2,3] → 2; [-1,2,1] → 1; [2] → 2; and [0,-3,-2] → -2.
        assert_eq!(of_round(&round), Some(Scores { advocate: vec![2, 1, 2], skeptic: vec![-2] }));
        round.panel.remove(&4);
        // Even counts: [3,1] → 2, [-1,2] → 0 (0.5 toward zero), [0,-3] → -1 (−1.5 toward zero).
        assert_eq!(of_round(&round), Some(Scores { advocate: vec![2, 0, 2], skeptic: vec![-1] }));
    }

    #[test]
    fn the_schema_requires_scores_with_integer_lists_in_range() {
        let schema = with_scores(super::super::verdict::schema());
        assert_eq!(schema["properties"]["scores"]["properties"]["skeptic"]["items"]["maximum"], 3);
        assert!(schema["required"].as_array().is_some_and(|r| r.iter().any(|k| k == "scores")));
        assert_eq!(schema["properties"]["scores"]["additionalProperties"], false);
    }
}
