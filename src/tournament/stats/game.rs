//! One finished debate as the statistics read it ([`Game`]), the side a
//! verdict went to ([`Pick`]), and the few facts of a game every count
//! asks for (who won it, in points; whether a model met itself).

use serde::{Deserialize, Serialize};

/// Which side a verdict or a vote went to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    Advocate,
    Skeptic,
    Even,
}

/// One finished debate, as the statistics read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// The debate's session id.
    pub session: String,
    /// The model that argued for (`openai:gpt-4.1`).
    pub advocate: String,
    /// The model that argued against.
    pub skeptic: String,
    /// The judge's model.
    pub judge: String,
    /// The judge's last `ahead` (`None`: it never said).
    pub winner: Option<Pick>,
    /// Words written by `[advocate, skeptic]`.
    pub words: [u64; 2],
    /// Verdicts re-judged with the sides' order swapped.
    pub swap_checks: u32,
    /// Of those, how many flipped.
    pub swap_flips: u32,
    /// The person's own verdict, if they gave one.
    pub person: Option<Pick>,
    /// The audience's majority, if it voted.
    pub room: Option<Pick>,
}

impl Game {
    /// A game of session `session`: `advocate` against `skeptic`, judged by
    /// `judge` with `winner`, each side 100 words, nothing else recorded.
    #[cfg(test)]
    pub fn between(session: &str, (advocate, skeptic): (&str, &str), judge: &str, winner: Option<Pick>) -> Game {
        Game {
            session: session.into(),
            advocate: advocate.into(),
            skeptic: skeptic.into(),
            judge: judge.into(),
            winner,
            words: [100, 100],
            swap_checks: 0,
            swap_flips: 0,
            person: None,
            room: None,
        }
    }

    /// Whether one model argued both sides: such a game says nothing of
    /// how models compare, so the records, the ratings and the head to
    /// head leave it out (the side and length counts keep it).
    pub fn is_mirror(&self) -> bool {
        self.advocate == self.skeptic
    }

    /// The advocate's points from the verdict: 1 for a win, ½ for a draw,
    /// 0 for a loss; `None` when the judge never said.
    pub fn advocate_points(&self) -> Option<f64> {
        self.winner.map(|pick| match pick {
            Pick::Advocate => 1.0,
            Pick::Even => 0.5,
            Pick::Skeptic => 0.0,
        })
    }

    /// The side that won outright: `None` for a draw or no verdict.
    pub fn decisive_winner(&self) -> Option<Pick> {
        self.winner.filter(|pick| *pick != Pick::Even)
    }

    /// The swap checks' flips, never more than the checks made.
    pub fn flips_within_checks(&self) -> u32 {
        self.swap_flips.min(self.swap_checks)
    }
}
