//! The tug-of-war of a format that scores arguments (`scores = true`): each
//! round's scores (a panel's medians), the running pull toward one side
//! (what one side gains the other loses, so the totals always sum to zero),
//! how both are said, and the schema and instruction that ask the judge for
//! them. The scores a verdict carries are [`super::verdict::scores`].

use serde_json::Value;

use super::seat::{Role, Side};
use super::state::{DebateState, Round};
use super::verdict::scores::{MAX, MIN};
pub use super::verdict::scores::{Scores, signed};

/// A round's scores: the chair's; on a panel, each argument's median over
/// every judge that scored it (the two middle ones' mean, toward zero, for
/// an even count). `None` when no judge scored the round.
pub fn of_round(round: &Round) -> Option<Scores> {
    let given: Vec<&Scores> =
        super::panel::ballots(round).into_iter().filter_map(|(_, v)| v.scores.as_deref()).collect();
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

/// The tug-of-war so far: every scored round's pull toward the side for
/// (positive: the side for leads). The side for's total is this, the side
/// against's its negative, so the two always sum to zero.
pub fn tug(state: &DebateState) -> i32 {
    tug_through(state, u32::MAX)
}

/// [`tug`] as it stood once round `round` (from 0) was scored; 0 in a
/// format that does not score, whatever a judge sent unasked.
pub fn tug_through(state: &DebateState, round: u32) -> i32 {
    if !state.scored() {
        return 0;
    }
    let rounds = state.rounds.iter().filter(|r| r.number <= round);
    rounds.filter_map(of_round).map(|s| s.pull()).sum()
}

/// A side's running total in the tug-of-war; the judge has none.
pub fn total(state: &DebateState, role: Role) -> i32 {
    match state.side(role) {
        Side::For => tug(state),
        Side::Against => -tug(state),
        Side::Judge | Side::Free => 0,
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
        lead(state, tug_through(state, round))
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
        let side = |role: Role| format!("{} {}", state.label(role), signed(total(state, role)));
        let rounds = if scored == 1 { "1 scored round".to_string() } else { format!("{scored} scored rounds") };
        format!("{}, {} over {rounds}", side(Role::Advocate), side(Role::Skeptic))
    })
}

/// `schema` (the verdict's) asking for scores too: an integer list per side.
pub fn with_scores(schema: Value) -> Value {
    let list = serde_json::json!({ "type": "array", "items": { "type": "integer", "minimum": MIN, "maximum": MAX } });
    let scores = serde_json::json!({
        "type": "object",
        "properties": { "advocate": list, "skeptic": list },
        "required": ["advocate", "skeptic"],
        "additionalProperties": false
    });
    super::verdict::with_field(schema, "scores", scores)
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
            scores: Some(Box::new(Scores { advocate, skeptic })),
            ..Verdict::default()
        };
        let vote = |verdict| super::super::panel::vote::Vote::Voted { verdict, usage: None };
        let mut round: Round = serde_json::from_str(r#"{"number":0,"topic":"t","heat":0.5,"injected":[],"turns":[]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(of_round(&round), None);
        round.panel.insert(crate::debate::seat::PanelJudge(2), vote(scored(vec![3, -1], vec![0])));
        assert_eq!(
            of_round(&round),
            Some(Scores { advocate: vec![3, -1], skeptic: vec![0] }),
            "one judge's are its own"
        );
        round.panel.insert(crate::debate::seat::PanelJudge(3), vote(scored(vec![1, 2, 2], vec![-3])));
        round.panel.insert(crate::debate::seat::PanelJudge(4), vote(scored(vec![2, 1], vec![-2])));
        // Medians: [1,2,3] → 2; [-1,2,1] → 1; [2] → 2; and [0,-3,-2] → -2.
        assert_eq!(of_round(&round), Some(Scores { advocate: vec![2, 1, 2], skeptic: vec![-2] }));
        round.panel.remove(&crate::debate::seat::PanelJudge(4));
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
