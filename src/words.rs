//! How heat writes numbers, counts and spans inside its sentences, the same
//! in every command and view: `4,096`, `1 stored debate`, `2 stored
//! debates`, `1 day 12 hours`; and text cut to a width with an ellipsis.
//! It imports nothing from heat, so any floor may use it.

use std::time::Duration;

/// `4096` as `4,096`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A token count in a few characters: `840`, `12.3k`, `1.2M`.
pub fn compact(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// Dollars with cents, and below a cent with two significant digits, so
/// a small sum never reads as nothing: `$1.25`, `$0.0032`, `$0`.
pub fn dollars(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "$0".to_string();
    }
    if x.abs() >= 0.01 {
        return format!("${x:.2}");
    }
    // Two significant digits: as many decimals as the first digit is deep, plus one.
    let depth = (-x.abs().log10()).ceil() as usize;
    format!("${x:.prec$}", prec = depth + 1)
}

/// `n` (thousands grouped) and `noun`, the noun plural unless `n` is 1:
/// `es` after s, x, z, ch and sh; `ies` for a `y` after a consonant
/// (retry, retries); `s` after anything else.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let n = thousands(n as u64);
    if let Some(stem) = noun.strip_suffix('y')
        && stem.chars().last().is_some_and(|c| c.is_ascii_alphabetic() && !"aeiou".contains(c))
    {
        return format!("{n} {stem}ies");
    }
    let es = ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!("{n} {noun}{}", if es { "es" } else { "s" })
}

/// A span in words, largest units first: `30 days`, `1 day 12 hours`,
/// `1 hour 1 minute`, `10 milliseconds` (a span under a second).
pub fn span(span: Duration) -> String {
    let seconds = span.as_secs();
    if seconds == 0 {
        return count(span.subsec_millis() as usize, "millisecond");
    }
    let units = [(86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")];
    let mut left = seconds;
    let mut words = Vec::new();
    for (size, noun) in units {
        if left >= size {
            words.push(count(usize::try_from(left / size).unwrap_or(usize::MAX), noun));
            left %= size;
        }
    }
    words.join(" ")
}

/// A verdict's first sentence: up to its first `.`, `!` or `?` followed
/// by a space, or all of it.
pub fn first_sentence(text: &str) -> String {
    let end = text
        .char_indices()
        .find(|&(i, c)| matches!(c, '.' | '!' | '?') && text[i + c.len_utf8()..].starts_with(' '))
        .map_or(text.len(), |(i, c)| i + c.len_utf8());
    text[..end].trim().to_string()
}

/// Cuts text to `width` columns after a whole word, ending in `…` when
/// cut (a status line or a hint never ends in half a word); a first word
/// wider than `width` alone is cut where it must be.
pub fn cut_words(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for word in text.split(' ') {
        let next = if out.is_empty() { word.to_string() } else { format!("{out} {word}") };
        if next.trim_end().width() + 1 > width {
            break;
        }
        out = next;
    }
    let out = out.trim_end().trim_end_matches(['·', ',', ';', ':']).trim_end();
    if out.is_empty() {
        return truncate(text, width);
    }
    format!("{out}…")
}

/// Cuts text to `width` columns, ending in `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut used = 0;
    let mut out = String::new();
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return text.to_string();
    }
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_sentence_ends_at_its_stop_and_a_decimal_point_is_no_stop() {
        assert_eq!(first_sentence("The skeptic holds. The advocate drifts."), "The skeptic holds.");
        assert_eq!(first_sentence("Heat 0.70 suits it"), "Heat 0.70 suits it");
        assert_eq!(first_sentence("Why? Because."), "Why?");
    }

    #[test]
    fn dollars_keep_cents_and_small_sums_keep_two_digits() {
        assert_eq!(dollars(1.254), "$1.25");
        assert_eq!(dollars(0.4), "$0.40");
        assert_eq!(dollars(0.0032), "$0.0032");
        assert_eq!(dollars(0.000_040_3), "$0.000040");
        assert_eq!(dollars(0.0), "$0");
    }

    #[test]
    fn numbers_group_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(4096), "4,096");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "stored debate"), "1 stored debate");
        assert_eq!(count(0, "session"), "0 sessions");
        assert_eq!(count(2, "branch"), "2 branches");
        assert_eq!(count(2, "injected topic"), "2 injected topics");
        assert_eq!(count(12_000, "token"), "12,000 tokens");
        assert_eq!(count(2, "retry"), "2 retries");
        assert_eq!(count(3, "day"), "3 days");
    }

    #[test]
    fn a_span_is_said_in_words() {
        assert_eq!(span(Duration::from_secs(30 * 86_400)), "30 days");
        assert_eq!(span(Duration::from_secs(36 * 3600)), "1 day 12 hours");
        assert_eq!(span(Duration::from_secs(3661)), "1 hour 1 minute 1 second");
        assert_eq!(span(Duration::from_millis(10)), "10 milliseconds");
    }
}
