//! The report's sections on the judges: their leans to a side and to
//! length, their swap-check flips, their self-preference, and how they
//! agreed with the person and the room.

use super::super::Summary;
use super::cells::{NAME, fitted, rate, rate_of};

pub fn side_bias(summary: &Summary) -> Vec<String> {
    let bias = &summary.side_bias;
    let mut lines = vec!["Side bias: the advocate's share of decisive verdicts (50 % is none)".to_string()];
    if bias.overall.is_none() {
        lines.push("  no decisive verdicts".to_string());
        return lines;
    }
    lines.push(format!("  {:<NAME$}  {}", "all judges", rate_of(bias.overall.as_ref())));
    if bias.by_judge.len() > 1 {
        for judge in &bias.by_judge {
            lines.push(format!("  {:<NAME$}  {}", fitted(&judge.judge, NAME), rate_of(judge.advocate_wins.as_ref())));
        }
    }
    lines
}

pub fn swap_checks(summary: &Summary) -> Vec<String> {
    let mut lines = vec!["Swap checks: verdicts judged again with the sides swapped".to_string()];
    if summary.swap_flips.iter().all(|j| j.checks == 0) {
        lines.push("  no swap checks recorded".to_string());
        return lines;
    }
    lines.push(format!("  {:<NAME$}  {:>6} {:>6}  flip rate", "judge", "checks", "flips"));
    for judge in &summary.swap_flips {
        lines.push(format!(
            "  {:<NAME$}  {:>6} {:>6}  {}",
            fitted(&judge.judge, NAME),
            judge.checks,
            judge.flips,
            judge.rate.as_ref().map_or_else(|| "no checks".to_string(), |flips| rate(Some(flips)))
        ));
    }
    lines
}

pub fn length_bias(summary: &Summary) -> Vec<String> {
    let heading = "Length bias: decisive verdicts where one side wrote more words".to_string();
    let line = match &summary.length_bias {
        Some(bias) => format!("  the side that wrote more won {}", rate_of(Some(bias))),
        None => "  no decisive verdict between sides that wrote different amounts".to_string(),
    };
    vec![heading, line]
}

pub fn self_preference(summary: &Summary) -> Vec<String> {
    let mut lines = vec!["Self-preference: a judge's own model's win rate, judged by itself and by others".to_string()];
    if summary.self_preference.is_empty() {
        lines.push("  no judge's model also debated".to_string());
        return lines;
    }
    lines.push(format!("  {:<NAME$}  {:<27}by other judges", "model", "by itself"));
    for model in &summary.self_preference {
        lines.push(format!(
            "  {:<NAME$}  {:<27}{}",
            fitted(&model.model, NAME),
            rate_of(model.by_itself.as_ref()),
            rate_of(model.by_others.as_ref())
        ));
    }
    lines
}

pub fn agreement(summary: &Summary) -> Vec<String> {
    let agreement = &summary.agreement;
    let mut lines = vec!["Agreement: the same pick, where both gave one".to_string()];
    let rows = [
        ("judge and person", &agreement.judge_person),
        ("judge and room", &agreement.judge_room),
        ("person and room", &agreement.person_room),
    ];
    if rows.iter().all(|(_, rate)| rate.is_none()) {
        lines.push("  no verdict of a person or of the room recorded".to_string());
        return lines;
    }
    for (pair, agreed) in rows {
        lines.push(format!("  {pair:<NAME$}  {}", rate_of(agreed.as_ref())));
    }
    lines
}
