//! How alike the two sides' arguments are in a round: the share of content
//! words they have in common (Jaccard over stemmed words, stop words out),
//! computed here with no model. A rough instrument: rising rounds show the
//! sides drawing together, and a collapse into agreement shows as a jump.

use super::guard::text::content_words;
use super::state::Round;
use super::{DebateState, Role};

/// At or above this, the sides are flagged as saying much the same.
pub const ALIKE: f64 = 0.5;

/// How alike a round's two settled arguments are, from 0 to 1; `None`
/// until both have spoken.
pub fn of_round(round: &Round) -> Option<f64> {
    let spoken = |role| round.argument(role).filter(|text| !text.trim().is_empty());
    let advocate = content_words(spoken(Role::Advocate)?);
    let skeptic = content_words(spoken(Role::Skeptic)?);
    let union = advocate.union(&skeptic).count();
    if union == 0 {
        return None;
    }
    Some(advocate.intersection(&skeptic).count() as f64 / union as f64)
}

/// Each round's (1-based) likeness, where both sides spoke.
pub fn per_round(state: &DebateState) -> Vec<(u32, f64)> {
    state.rounds.iter().filter_map(|r| Some((r.number + 1, of_round(r)?))).collect()
}

/// `12% → 18% → 41%`, or `None` before any round has both arguments.
pub fn path(state: &DebateState) -> Option<String> {
    let rounds = per_round(state);
    (!rounds.is_empty())
        .then(|| rounds.iter().map(|(_, x)| format!("{:.0}%", x * 100.0)).collect::<Vec<_>>().join(" → "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Heat;
    use crate::debate::TurnPurpose;
    use crate::debate::state::{Turn, TurnStatus};

    fn round(advocate: &str, skeptic: &str) -> Round {
        let turn = |role, text: &str| Turn {
            status: TurnStatus::Done,
            text: text.into(),
            ..Turn::started(role, TurnPurpose::Argue, None)
        };
        Round {
            number: 0,
            topic: "t".into(),
            heat: Heat::new(0.9),
            pinned: false,
            injected: Vec::new(),
            asked_by_person: false,
            discarded: Vec::new(),
            seat_heats: std::collections::BTreeMap::new(),
            turns: vec![turn(Role::Advocate, advocate), turn(Role::Skeptic, skeptic)],
            swap: None,
            panel: std::collections::BTreeMap::new(),
            readings: std::collections::BTreeMap::new(),
            briefs: std::collections::BTreeMap::new(),
        }
    }

    #[test]
    fn shared_words_count_and_function_words_do_not() {
        let same = round("Remote teams ship faster.", "Remote teams ship faster.");
        assert!((of_round(&same).expect("both spoke") - 1.0).abs() < 1e-9);
        let apart = round("Remote teams ship faster.", "Offices build trust between colleagues.");
        assert!(of_round(&apart).expect("both spoke") < 1e-9);
        // Stop words and plurals: "the" is not shared content, "teams" and "team" are one word.
        let half = round("The team ships.", "The teams argue.");
        assert!((of_round(&half).expect("both spoke") - 1.0 / 3.0).abs() < 1e-9, "{:?}", of_round(&half));
        assert!(of_round(&round("", "Offices.")).is_none(), "no likeness before both have spoken");
    }
}
