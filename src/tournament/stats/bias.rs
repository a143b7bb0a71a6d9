//! Whether verdicts lean to a side or to length: the advocate's share of
//! the decisive verdicts (½ is no lean), over all judges and judge by
//! judge, and the share won by the side that wrote more words.

use std::collections::BTreeMap;

use serde::Serialize;

use super::game::{Game, Pick};
use super::wilson::{Rate, wilson};

/// The advocate's share of decisive verdicts (draws and undecided games
/// left out), overall and by judge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideBias {
    pub overall: Option<Rate>,
    /// Every judge, by name.
    pub by_judge: Vec<JudgeSideBias>,
}

/// One judge's lean: the advocate's share of its decisive verdicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeSideBias {
    pub judge: String,
    pub advocate_wins: Option<Rate>,
}

/// The side bias of `games`, mirrors included: a model against itself is
/// the cleanest test of a side's pull.
pub fn side_bias(games: &[Game]) -> SideBias {
    let mut by_judge: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut overall = (0, 0);
    for game in games {
        let tally = by_judge.entry(&game.judge).or_default();
        if let Some(winner) = game.decisive_winner() {
            let advocate = u64::from(winner == Pick::Advocate);
            for (wins, decided) in [&mut overall, tally] {
                *wins += advocate;
                *decided += 1;
            }
        }
    }
    SideBias {
        overall: wilson(overall.0 as f64, overall.1),
        by_judge: by_judge
            .into_iter()
            .map(|(judge, (wins, decided))| JudgeSideBias {
                judge: judge.to_string(),
                advocate_wins: wilson(wins as f64, decided),
            })
            .collect(),
    }
}

/// The share of decisive verdicts won by the side that wrote more words,
/// among games whose sides wrote different amounts; `None` without any.
pub fn length_bias(games: &[Game]) -> Option<Rate> {
    let (mut longer_won, mut counted) = (0, 0);
    for game in games {
        let [advocate, skeptic] = game.words;
        let (Some(winner), false) = (game.decisive_winner(), advocate == skeptic) else { continue };
        let longer = if advocate > skeptic { Pick::Advocate } else { Pick::Skeptic };
        longer_won += u64::from(winner == longer);
        counted += 1;
    }
    wilson(longer_won as f64, counted)
}
