//! Each model's record: games, wins, losses, draws and games the judge
//! never decided, with its win rate (a draw half a win), overall and by
//! the side it argued. A game a model played against itself is counted
//! apart, as a mirror, and not in its record.

use std::collections::BTreeMap;

use serde::Serialize;

use super::game::{Game, Pick};
use super::wilson::{Rate, wilson};

/// A model's games on one side, or on both.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Record {
    /// Games played, decided or not.
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    /// Games the judge called even: half a win each.
    pub draws: u64,
    /// Games the judge never decided: in `games`, in nothing else.
    pub unjudged: u64,
    /// `(wins + draws / 2) / (wins + losses + draws)`; `None` with no verdicts.
    pub win_rate: Option<Rate>,
}

impl Record {
    /// Games with a verdict: wins, losses and draws.
    pub fn judged(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    fn count(&mut self, result: Option<Outcome>) {
        self.games += 1;
        match result {
            Some(Outcome::Won) => self.wins += 1,
            Some(Outcome::Lost) => self.losses += 1,
            Some(Outcome::Drew) => self.draws += 1,
            None => self.unjudged += 1,
        }
    }

    fn rate(&mut self) {
        self.win_rate = wilson(self.wins as f64 + self.draws as f64 / 2.0, self.judged());
    }
}

/// One model's records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelRecord {
    pub model: String,
    /// Against other models, on either side.
    pub overall: Record,
    pub as_advocate: Record,
    pub as_skeptic: Record,
    /// Games it argued against itself, left out of its records.
    pub mirrors: u64,
}

/// How a game went for one of its debaters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Drew,
}

/// How `game` went for the side `side` (`Advocate` or `Skeptic`); `None`
/// when the judge never said.
pub fn outcome_for(game: &Game, side: Pick) -> Option<Outcome> {
    game.winner.map(|winner| match winner {
        Pick::Even => Outcome::Drew,
        won if won == side => Outcome::Won,
        _ => Outcome::Lost,
    })
}

/// Every model's records, by name.
pub fn model_records(games: &[Game]) -> Vec<ModelRecord> {
    let mut records: BTreeMap<&str, ModelRecord> = BTreeMap::new();
    for game in games {
        for (model, side) in [(&game.advocate, Pick::Advocate), (&game.skeptic, Pick::Skeptic)] {
            let record = records.entry(model).or_insert_with(|| ModelRecord {
                model: model.clone(),
                overall: Record::default(),
                as_advocate: Record::default(),
                as_skeptic: Record::default(),
                mirrors: 0,
            });
            if game.is_mirror() {
                // Counted once, not once a side.
                record.mirrors += u64::from(side == Pick::Advocate);
                continue;
            }
            let result = outcome_for(game, side);
            record.overall.count(result);
            if side == Pick::Advocate {
                record.as_advocate.count(result);
            } else {
                record.as_skeptic.count(result);
            }
        }
    }
    records
        .into_values()
        .map(|mut record| {
            for side in [&mut record.overall, &mut record.as_advocate, &mut record.as_skeptic] {
                side.rate();
            }
            record
        })
        .collect()
}
