//! Today's date, told to every role so it judges relevance against the
//! present: recorded in the session when a debate starts, so a resumed
//! debate sees the same date.

/// Today's date on this machine's clock and time zone, as `2026-11-23`.
pub fn today() -> String {
    jiff::Zoned::now().date().to_string()
}

/// The line every system prompt starts with:
/// `Today is 2026-11-23 (November 23, 2026).` A recorded date that does not
/// parse is told as it is.
pub fn line(date: &str) -> String {
    match date.parse::<jiff::civil::Date>() {
        Ok(d) => format!("Today is {date} ({}).", d.strftime("%B %-d, %Y")),
        Err(_) => format!("Today is {date}."),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_line_has_both_forms() {
        assert_eq!(super::line("2026-11-23"), "Today is 2026-11-23 (November 23, 2026).");
        assert_eq!(super::line("2026-03-05"), "Today is 2026-03-05 (March 5, 2026).");
        assert_eq!(super::line("soon"), "Today is soon.");
    }

    #[test]
    fn today_is_an_iso_date() {
        let today = super::today();
        assert!(today.parse::<jiff::civil::Date>().is_ok(), "{today}");
    }
}
