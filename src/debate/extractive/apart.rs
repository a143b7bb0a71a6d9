//! How far apart the sides' arguments are, from the words they share
//! ([`distance`], [`spread`]), and the heat the offline judge sets by a
//! rule a watcher can follow ([`next_heat`]): it never rises; it cools a
//! step a round, three when the sides came closer.

use std::collections::HashSet;

use crate::debate::guard::text::content_words;
use crate::debate::heat::Heat;

use super::prose::argued;

/// How far the heat cools a round, and how far when the sides came closer.
const COOL: f32 = 0.05;
const COOL_CONVERGING: f32 = 0.15;
/// How much closer (in [`distance`]) the sides must come to count as converging.
const CLOSER_BY: f32 = 0.01;

/// How far apart the seats' arguments are: the mean of [`distance`] over
/// every pair (for two, their distance).
pub fn spread(proposition: &str, arguments: &[&str]) -> f32 {
    let mut total = 0.0;
    let mut pairs = 0_u16;
    for (i, a) in arguments.iter().enumerate() {
        for b in &arguments[i + 1..] {
            total += distance(proposition, a, b);
            pairs += 1;
        }
    }
    if pairs == 0 { 0.0 } else { total / f32::from(pairs) }
}

/// How far apart two arguments are, from 0 (they say the same) to 1
/// (they share no word): one minus the share of their content words they
/// have in common, leaving out the proposition's own words and the
/// openings heat gave them.
pub fn distance(proposition: &str, advocate: &str, skeptic: &str) -> f32 {
    let given = content_words(proposition);
    let words = |argument: &str| -> HashSet<String> {
        content_words(argued(argument)).into_iter().filter(|w| !given.contains(w)).collect()
    };
    let (a, b) = (words(advocate), words(skeptic));
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    1.0 - a.intersection(&b).count() as f32 / union as f32
}

/// The next round's heat, by a rule a watcher can follow: it never rises.
/// From the heat the round was argued at, it cools a step (0.05), or three
/// (0.15) when the sides came closer than the round before (`apart`, their
/// [`spread`], below `apart_before` by a hundredth or more); never below 0.3.
pub fn next_heat(argued_at: Heat, apart: f32, apart_before: Option<f32>) -> Heat {
    let closer = apart_before.is_some_and(|before| apart <= before - CLOSER_BY);
    let step = if closer { COOL_CONVERGING } else { COOL };
    Heat::on_grid((argued_at.get() - step).max(Heat::MIN.get()))
}
