//! How the report writes one cell: a model's name fitted to its column, a
//! rate as `62 % (41–79 %)`, a rating as `1043 (987–1102)`.

use super::super::ratings::Rating;
use super::super::wilson::Rate;

/// The width of the name column in every table.
pub const NAME: usize = 28;

/// `name` as one cell of at most `width` characters: control characters
/// shown as `?`, a longer name cut with `…`.
pub fn fitted(name: &str, width: usize) -> String {
    let shown: String = name.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    if shown.chars().count() <= width {
        return shown;
    }
    let mut cut: String = shown.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `items` after `lead`, apart by commas, in lines of at most `width`
/// characters; the lines after the first indented by four spaces.
pub fn wrapped(lead: &str, items: &[String], width: usize) -> Vec<String> {
    let mut lines = vec![lead.to_string()];
    for (i, item) in items.iter().enumerate() {
        let item = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
        let last = lines.last_mut().expect("lines start with the lead");
        if last.chars().count() + 1 + item.chars().count() <= width {
            last.push(' ');
            last.push_str(&item);
        } else {
            lines.push(format!("    {item}"));
        }
    }
    lines
}

/// A share as a whole percentage.
fn percent(share: f64) -> String {
    format!("{:.0}", share * 100.0)
}

/// `62 % (41–79 %)`, or `none` without a rate.
pub fn rate(rate: Option<&Rate>) -> String {
    rate.map_or_else(
        || "none".to_string(),
        |r| format!("{} % ({}–{} %)", percent(r.share), percent(r.low), percent(r.high)),
    )
}

/// `62 % (41–79 %) of 10`, or `none` without a rate.
pub fn rate_of(rate: Option<&Rate>) -> String {
    rate.map_or_else(|| "none".to_string(), |r| format!("{} of {}", self::rate(Some(r)), r.trials))
}

/// `1043 (987–1102)`.
pub fn rating(rating: &Rating) -> String {
    format!("{:.0} ({:.0}–{:.0})", rating.rating, rating.low, rating.high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::wilson::wilson;

    #[test]
    fn cells() {
        assert_eq!(fitted("openai:gpt-4.1", 10), "openai:gp…");
        assert_eq!(fitted("a\u{1b}[31m", 10), "a?[31m");
        assert_eq!(rate(wilson(7.0, 10).as_ref()), "70 % (40–89 %)");
        assert_eq!(rate_of(wilson(10.0, 10).as_ref()), "100 % (72–100 %) of 10");
        assert_eq!(rate(None), "none");
        let r = Rating { model: "m".into(), rating: 1043.4, low: 987.0, high: 1101.6 };
        assert_eq!(rating(&r), "1043 (987–1102)");
        let names: Vec<String> = ["alpha", "beta", "gamma"].map(String::from).to_vec();
        assert_eq!(wrapped("  x:", &names, 16), ["  x: alpha,", "    beta, gamma"]);
    }
}
