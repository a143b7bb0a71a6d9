//! What the standings page shows, built from a [`Summary`] and the games
//! it counted: every value cleaned and written as text here ([`cells`]),
//! so the template only lays it out. The head to head is `matrix`'s, the
//! judges' sections `judging`'s.

use super::cells::{self, name, rate_of, rating};
use super::judging::Judging;
use super::matrix::HeadToHead;
use crate::tournament::stats::{Game, Pick, Summary};

/// What the page is made of: the summary `heat stats` prints, the games it
/// counted, and each game's proposition (`propositions[i]` is `games[i]`'s).
pub struct Input<'a> {
    /// What was counted, in words: "tournament ID", "the debates tagged #work".
    pub what: &'a str,
    pub summary: &'a Summary,
    pub games: &'a [Game],
    pub propositions: &'a [String],
}

/// The page's content, as text.
pub struct Standings {
    /// What was counted, cleaned.
    pub what: String,
    /// The overview's facts: (what, how many).
    pub facts: Vec<(&'static str, String)>,
    /// Sentences under the overview (games of a model against itself).
    pub notes: Vec<String>,
    pub ratings: Vec<RatingRow>,
    /// How the ratings were made: the resamples and the seed.
    pub method: String,
    /// Whether the fit needed one virtual draw between each pair.
    pub prior: bool,
    /// Models with no decided game against another, by name.
    pub unrated: Vec<String>,
    pub win_rates: Vec<WinRow>,
    pub head_to_head: HeadToHead,
    pub judging: Judging,
    pub debates: Vec<DebateRow>,
    /// `12 debates`.
    pub counted: String,
    /// Whether the debates had more than one judge (each row names its own).
    pub several_judges: bool,
    /// The one judge of them all, cleaned, when there is one.
    pub judge: String,
}

/// A rated model: its rating, the interval's ends and its record.
pub struct RatingRow {
    pub model: String,
    pub rating: String,
    pub low: String,
    pub high: String,
    pub games: u64,
    pub won: u64,
    pub lost: u64,
    pub even: u64,
    pub undecided: u64,
}

/// A model's win rate overall and on each side.
pub struct WinRow {
    pub model: String,
    pub overall: String,
    pub advocate: String,
    pub skeptic: String,
}

/// One debate counted.
pub struct DebateRow {
    pub session: String,
    pub proposition: String,
    pub advocate: String,
    pub skeptic: String,
    pub judge: String,
    /// Who won: a model and its side, "even", or "undecided".
    pub winner: String,
    /// The winning side's class (`advocate`, `skeptic`), or empty.
    pub side: &'static str,
}

impl Standings {
    pub fn build(input: &Input<'_>) -> Self {
        let summary = input.summary;
        let ratings = &summary.ratings;
        Standings {
            what: name(input.what),
            facts: facts(summary),
            notes: notes(summary),
            ratings: rating_rows(summary),
            method: format!(
                "Bradley–Terry on an Elo-like scale (1000 is the geometric mean); 95 % bootstrap intervals from {} resamples, seed {}.",
                ratings.resamples, ratings.seed
            ),
            prior: ratings.prior,
            unrated: ratings.unrated.iter().map(|m| name(m)).collect(),
            win_rates: win_rows(summary),
            head_to_head: HeadToHead::build(summary),
            judging: Judging::build(summary),
            debates: input
                .games
                .iter()
                .enumerate()
                .map(|(i, game)| debate_row(game, input.propositions.get(i).map_or("", String::as_str)))
                .collect(),
            counted: crate::words::count(input.games.len(), "debate"),
            several_judges: summary.swap_flips.len() > 1,
            judge: summary.swap_flips.first().map_or_else(String::new, |j| name(&j.judge)),
        }
    }
}

/// The debates, how they were decided (the three add up to them), the
/// models and the judges.
fn facts(summary: &Summary) -> Vec<(&'static str, String)> {
    vec![
        ("Debates counted", summary.games.to_string()),
        ("Decided", format!("{} (a side won)", summary.judged - summary.draws)),
        ("Even", format!("{} (the judge called it even)", summary.draws)),
        ("Undecided", format!("{} (the judge never said)", summary.games - summary.judged)),
        ("Models", summary.models.len().to_string()),
        ("Judges", summary.swap_flips.len().to_string()),
    ]
}

fn notes(summary: &Summary) -> Vec<String> {
    let mirrors: u64 = summary.models.iter().map(|m| m.mirrors).sum();
    if mirrors == 0 {
        return Vec::new();
    }
    let games = crate::words::count(usize::try_from(mirrors).unwrap_or(usize::MAX), "game");
    vec![format!("{games} of a model against itself, counted only for the side and length biases.")]
}

fn rating_rows(summary: &Summary) -> Vec<RatingRow> {
    summary
        .ratings
        .models
        .iter()
        .filter_map(|rated| {
            let record = &summary.models.iter().find(|m| m.model == rated.model)?.overall;
            Some(RatingRow {
                model: name(&rated.model),
                rating: rating(rated.rating),
                low: rating(rated.low),
                high: rating(rated.high),
                games: record.games,
                won: record.wins,
                lost: record.losses,
                even: record.draws,
                undecided: record.unjudged,
            })
        })
        .collect()
}

fn win_rows(summary: &Summary) -> Vec<WinRow> {
    summary
        .models
        .iter()
        .filter(|m| m.overall.games > 0)
        .map(|record| WinRow {
            model: name(&record.model),
            overall: rate_of(record.overall.win_rate.as_ref()),
            advocate: rate_of(record.as_advocate.win_rate.as_ref()),
            skeptic: rate_of(record.as_skeptic.win_rate.as_ref()),
        })
        .collect()
}

fn debate_row(game: &Game, proposition: &str) -> DebateRow {
    let (winner, side) = match game.winner {
        None => ("undecided".to_string(), ""),
        Some(Pick::Even) => ("even".to_string(), ""),
        Some(Pick::Advocate) => (format!("{} (for)", name(&game.advocate)), "advocate"),
        Some(Pick::Skeptic) => (format!("{} (against)", name(&game.skeptic)), "skeptic"),
    };
    DebateRow {
        session: name(&game.session),
        proposition: cells::name(proposition),
        advocate: name(&game.advocate),
        skeptic: name(&game.skeptic),
        judge: if game.judge.is_empty() { "–".to_string() } else { name(&game.judge) },
        winner,
        side,
    }
}
