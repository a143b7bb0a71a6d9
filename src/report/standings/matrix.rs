//! The standings page's head to head: up to [`MATRIX_MODELS`] models, a
//! matrix of each row model's wins over each column model, each cell
//! coloured by the row's share of their points (blue: the row won more,
//! orange: the column did); more models, a list of the pairs that met, as
//! `heat stats` prints it.

use std::collections::BTreeMap;

use plotters::style::RGBColor;

use super::super::palette::{ADVOCATE, SKEPTIC};
use super::cells::{name, percent};
use crate::tournament::stats::{HeadToHead as Pair, Summary};

/// The head to head is a matrix up to this many models, a list of pairs
/// beyond (as in `heat stats`).
pub const MATRIX_MODELS: usize = 7;

/// The matrix's rows or the list's pairs; both empty when no two models met.
pub struct HeadToHead {
    /// The matrix's models, in the ratings' order (its columns are numbered).
    pub models: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// Past [`MATRIX_MODELS`]: each pair that met, once.
    pub pairs: Vec<PairRow>,
}

/// One cell of the matrix.
pub struct Cell {
    /// `3–1–0`: the row's wins, the column's wins, their draws; `·` on the
    /// diagonal, `–` where they never met.
    pub score: String,
    /// The row's share of their decided points (`75 %`), or empty.
    pub share: String,
    /// The cell's words for a pointer or a reader: who beat whom how often.
    pub title: String,
    /// An inline `background-color`, or empty.
    pub style: String,
}

/// Two models that met, in the list past [`MATRIX_MODELS`].
pub struct PairRow {
    pub model: String,
    pub opponent: String,
    pub score: String,
    pub share: String,
}

/// The row's share of the points of their decided games (a draw half).
fn share(pair: &Pair) -> Option<f64> {
    let decided = pair.wins + pair.opponent_wins + pair.draws;
    (decided > 0).then(|| (pair.wins as f64 + pair.draws as f64 / 2.0) / decided as f64)
}

fn score(pair: &Pair) -> String {
    format!("{}–{}–{}", pair.wins, pair.opponent_wins, pair.draws)
}

/// A share's colour: blue past ½, orange below, the stronger the further
/// from ½; translucent, so the page's own background (light or dark) and
/// text colour show through.
pub fn background(share: f64) -> String {
    let lean = (share - 0.5) * 2.0;
    let RGBColor(r, g, b) = if lean >= 0.0 { ADVOCATE } else { SKEPTIC };
    let alpha = 0.08 + lean.abs() * 0.5;
    format!("background-color: rgba({r}, {g}, {b}, {alpha:.2})")
}

impl HeadToHead {
    pub fn build(summary: &Summary) -> Self {
        let pairs: BTreeMap<(&str, &str), &Pair> =
            summary.head_to_head.iter().map(|p| ((p.model.as_str(), p.opponent.as_str()), p)).collect();
        let models: Vec<&str> =
            summary.models.iter().filter(|m| m.overall.games > 0).map(|m| m.model.as_str()).collect();
        let mut head = HeadToHead { models: Vec::new(), rows: Vec::new(), pairs: Vec::new() };
        if models.len() > MATRIX_MODELS {
            for (i, model) in models.iter().enumerate() {
                for opponent in &models[i + 1..] {
                    if let Some(pair) = pairs.get(&(*model, *opponent)) {
                        head.pairs.push(PairRow {
                            model: name(model),
                            opponent: name(opponent),
                            score: score(pair),
                            share: share(pair).map(percent).unwrap_or_default(),
                        });
                    }
                }
            }
            return head;
        }
        head.models = models.iter().map(|m| name(m)).collect();
        head.rows = models
            .iter()
            .map(|model| models.iter().map(|opponent| cell(model, opponent, pairs.get(&(*model, *opponent)))).collect())
            .collect();
        head
    }
}

fn cell(model: &str, opponent: &str, pair: Option<&&Pair>) -> Cell {
    let blank =
        |score: &str, title: String| Cell { score: score.into(), share: String::new(), title, style: String::new() };
    if model == opponent {
        return blank("·", String::new());
    }
    let (row, column) = (name(model), name(opponent));
    let Some(pair) = pair else { return blank("–", format!("{row} never met {column}")) };
    let mut title =
        format!("{row} against {column}: {} won, {} lost, {} even", pair.wins, pair.opponent_wins, pair.draws);
    if pair.unjudged > 0 {
        title.push_str(&format!(", {} undecided", pair.unjudged));
    }
    let share = share(pair);
    Cell {
        score: score(pair),
        share: share.map(percent).unwrap_or_default(),
        title,
        style: share.map(background).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::tournament::stats::{Game, Pick, summarise_with_resamples};

    fn game(advocate: &str, skeptic: &str, winner: Pick) -> Game {
        Game {
            session: format!("{advocate}-{skeptic}"),
            advocate: advocate.into(),
            skeptic: skeptic.into(),
            judge: "j".into(),
            winner: Some(winner),
            words: [10, 10],
            swap_checks: 0,
            swap_flips: 0,
            person: None,
            room: None,
        }
    }

    #[test]
    fn each_cell_is_the_rows_wins_over_the_column_coloured_by_its_share() {
        let games = [
            game("a", "b", Pick::Advocate),
            game("b", "a", Pick::Skeptic),
            game("a", "b", Pick::Even),
            game("c", "a", Pick::Advocate),
        ];
        let head = HeadToHead::build(&summarise_with_resamples(&games, 1, 0));
        assert!(head.pairs.is_empty());
        let at = |row: &str, column: &str| {
            let i = head.models.iter().position(|m| m == row).unwrap();
            let j = head.models.iter().position(|m| m == column).unwrap();
            &head.rows[i][j]
        };
        assert_eq!((at("a", "b").score.as_str(), at("a", "b").share.as_str()), ("2–0–1", "83 %"));
        assert_eq!((at("b", "a").score.as_str(), at("b", "a").share.as_str()), ("0–2–1", "17 %"));
        assert!(at("a", "b").style.contains("47, 123, 216"), "blue: the row won more");
        assert!(at("b", "a").style.contains("224, 103, 42"), "orange: the column won more");
        assert_eq!(at("a", "a").score, "·");
        assert_eq!(at("b", "c").score, "–");
        assert_eq!(at("b", "c").title, "b never met c");
        assert_eq!(at("c", "a").title, "c against a: 1 won, 0 lost, 0 even");
    }

    #[test]
    fn past_seven_models_the_pairs_are_a_list() {
        let names: Vec<String> = (0..8).map(|i| format!("m{i}")).collect();
        let games: Vec<Game> = names.windows(2).map(|w| game(&w[0], &w[1], Pick::Advocate)).collect();
        let head = HeadToHead::build(&summarise_with_resamples(&games, 1, 0));
        assert!(head.rows.is_empty() && head.models.is_empty());
        assert_eq!(head.pairs.len(), 7, "each pair that met, once");
        assert!(head.pairs.iter().all(|p| p.score == "1–0–0" || p.score == "0–1–0"));
    }
}
