//! The plain-text report of a [`Summary`]: a few aligned tables a person
//! reads in a terminal, no colours, no line over 100 characters, the same
//! text for the same summary. Each section says so when it has nothing.

mod cells;
mod judging;

use std::collections::BTreeMap;

use super::Summary;
use super::head_to_head::HeadToHead;
use cells::{NAME, fitted, rate, rating, wrapped};

/// No line of the report is longer.
pub const WIDTH: usize = 100;

/// The head to head is a matrix up to this many models, a list of pairs beyond.
const MATRIX_MODELS: usize = 7;

/// The report of `summary`, sections apart by a blank line, ending in a newline.
pub fn text(summary: &Summary) -> String {
    let sections = [
        overview(summary),
        ratings(summary),
        win_rates(summary),
        head_to_head(summary),
        judging::side_bias(summary),
        judging::swap_checks(summary),
        judging::length_bias(summary),
        judging::self_preference(summary),
        judging::agreement(summary),
    ];
    let mut out = sections.map(|lines| lines.join("\n")).join("\n\n");
    out.push('\n');
    out
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn overview(summary: &Summary) -> Vec<String> {
    let undecided = summary.games - summary.judged;
    let mirrors: u64 = summary.models.iter().map(|m| m.mirrors).sum();
    let mut lines = vec![format!(
        "Tournament: {}, {}, {}; {} decided ({} even), {} undecided",
        plural(summary.games, "game", "games"),
        plural(summary.models.len() as u64, "model", "models"),
        plural(summary.swap_flips.len() as u64, "judge", "judges"),
        summary.judged,
        summary.draws,
        undecided
    )];
    if mirrors > 0 {
        let games = plural(mirrors, "game", "games");
        lines.push(format!("{games} of a model against itself, counted only for the side and length biases"));
    }
    lines
}

fn ratings(summary: &Summary) -> Vec<String> {
    let ratings = &summary.ratings;
    let mut lines = vec![
        "Ratings: Bradley–Terry on an Elo-like scale (1000 is the geometric mean)".to_string(),
        format!("  95 % bootstrap intervals from {} resamples, seed {}", ratings.resamples, ratings.seed),
    ];
    if ratings.models.is_empty() {
        lines.push("  no decided game between two models".to_string());
        return lines;
    }
    lines.push(format!(
        "  {:<NAME$}  {:<18} {:>6} {:>5} {:>5} {:>6} {:>9}",
        "model", "rating", "games", "won", "lost", "even", "undecided"
    ));
    for rated in &ratings.models {
        let Some(record) = summary.models.iter().find(|m| m.model == rated.model) else { continue };
        let all = &record.overall;
        lines.push(format!(
            "  {:<NAME$}  {:<18} {:>6} {:>5} {:>5} {:>6} {:>9}",
            fitted(&rated.model, NAME),
            rating(rated),
            all.games,
            all.wins,
            all.losses,
            all.draws,
            all.unjudged
        ));
    }
    if ratings.prior {
        lines.push("  (a model won or lost every game, or some never met: one virtual draw".to_string());
        lines.push("  between each pair was added to keep the ratings finite)".to_string());
    }
    if !ratings.unrated.is_empty() {
        let names: Vec<String> = ratings.unrated.iter().map(|m| fitted(m, NAME)).collect();
        lines.extend(wrapped("  not rated, no decided game against another model:", &names, WIDTH));
    }
    lines
}

fn win_rates(summary: &Summary) -> Vec<String> {
    let mut lines = vec!["Win rates: a draw counts half; 95 % Wilson intervals".to_string()];
    let played: Vec<_> = summary.models.iter().filter(|m| m.overall.games > 0).collect();
    if played.is_empty() {
        lines.push("  no game between two models".to_string());
        return lines;
    }
    lines.push(format!("  {:<NAME$}  {:<20}{:<20}{}", "model", "overall", "as advocate", "as skeptic"));
    for record in played {
        lines.push(format!(
            "  {:<NAME$}  {:<20}{:<20}{}",
            fitted(&record.model, NAME),
            rate(record.overall.win_rate.as_ref()),
            rate(record.as_advocate.win_rate.as_ref()),
            rate(record.as_skeptic.win_rate.as_ref())
        ));
    }
    lines
}

/// `3–1–0`: the first's wins, the second's wins, their draws.
fn score(pair: &HeadToHead) -> String {
    format!("{}–{}–{}", pair.wins, pair.opponent_wins, pair.draws)
}

/// The pairs by their models' names.
type Pairs<'a> = BTreeMap<(&'a str, &'a str), &'a HeadToHead>;

fn head_to_head(summary: &Summary) -> Vec<String> {
    let pairs: Pairs = summary.head_to_head.iter().map(|p| ((p.model.as_str(), p.opponent.as_str()), p)).collect();
    let models: Vec<&str> = summary.models.iter().filter(|m| m.overall.games > 0).map(|m| m.model.as_str()).collect();
    if models.is_empty() {
        vec!["Head to head".to_string(), "  no game between two models".to_string()]
    } else if models.len() > MATRIX_MODELS {
        head_to_head_list(&models, &pairs)
    } else {
        head_to_head_matrix(&models, &pairs)
    }
}

/// Each pair of models that met, once, in the models' order.
fn head_to_head_list(models: &[&str], pairs: &Pairs) -> Vec<String> {
    let mut lines = vec!["Head to head: the first's wins–the second's wins–draws".to_string()];
    for (i, model) in models.iter().enumerate() {
        for opponent in &models[i + 1..] {
            if let Some(pair) = pairs.get(&(*model, *opponent)) {
                let (a, b) = (fitted(model, NAME), fitted(opponent, NAME));
                lines.push(format!("  {a:<NAME$}  vs  {b:<NAME$}  {}", score(pair)));
            }
        }
    }
    lines
}

/// A row and a numbered column for each model.
fn head_to_head_matrix(models: &[&str], pairs: &Pairs) -> Vec<String> {
    let mut lines = vec!["Head to head: the row's wins–the column's wins–draws".to_string()];
    let mut numbers = String::new();
    for n in 1..=models.len() {
        numbers.push_str(&format!("{n:>9}"));
    }
    lines.push(format!("  {:<3}{:<NAME$}{numbers}", "", ""));
    for (i, model) in models.iter().enumerate() {
        let mut row = format!("  {:<3}{:<NAME$}", i + 1, fitted(model, NAME));
        for opponent in models {
            let cell = match pairs.get(&(*model, *opponent)) {
                _ if opponent == model => "·".to_string(),
                Some(pair) => score(pair),
                None => "–".to_string(),
            };
            row.push_str(&format!("{cell:>9}"));
        }
        lines.push(row);
    }
    lines
}
