//! How the standings page writes one value, as `heat stats` writes it: a
//! model's name cleaned to one line, a rate as `62 % (41–79 %)`, a rating
//! as a whole number. Every value the page shows passes through here.

use crate::tournament::stats::Rate;

/// The longest name a chart draws before cutting it with `…` (the tables
/// show it whole).
const CHART_NAME: usize = 34;

/// A model's or judge's name, or a proposition, from the store (written by
/// whoever ran the debate, or by a model): cleaned of control and escape
/// sequences, on one line.
pub fn name(raw: &str) -> String {
    crate::sanitize::one_line(raw)
}

/// [`name`] cut to fit a chart's label column.
pub fn chart_name(raw: &str) -> String {
    crate::words::truncate(&name(raw), CHART_NAME)
}

/// A share as a whole percentage: `62 %`.
pub fn percent(share: f64) -> String {
    format!("{:.0} %", share * 100.0)
}

/// `62 % (41–79 %)`, or `none` without a rate.
pub fn rate(rate: Option<&Rate>) -> String {
    rate.map_or_else(
        || "none".to_string(),
        |r| format!("{:.0} % ({:.0}–{:.0} %)", r.share * 100.0, r.low * 100.0, r.high * 100.0),
    )
}

/// `62 % (41–79 %) of 10`, or `none` without a rate.
pub fn rate_of(rate: Option<&Rate>) -> String {
    rate.map_or_else(|| "none".to_string(), |r| format!("{} of {}", self::rate(Some(r)), r.trials))
}

/// A rating or an interval's end as the page prints it: `1043`.
pub fn rating(value: f64) -> String {
    format!("{value:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::wilson;

    #[test]
    fn cells_read_as_the_text_report_writes_them() {
        assert_eq!(rate(wilson(7.0, 10).as_ref()), "70 % (40–89 %)");
        assert_eq!(rate_of(wilson(10.0, 10).as_ref()), "100 % (72–100 %) of 10");
        assert_eq!(rate(None), "none");
        assert_eq!(rating(1101.6), "1102");
        assert_eq!(percent(0.5), "50 %");
    }

    #[test]
    fn a_name_is_cleaned_and_a_chart_cuts_it() {
        assert_eq!(name("openai:\u{1b}[31mgpt\u{1b}[0m\nfour"), "openai:gpt four");
        let long = "x".repeat(60);
        assert_eq!(chart_name(&long).chars().count(), CHART_NAME);
        assert!(chart_name(&long).ends_with('…'));
    }
}
