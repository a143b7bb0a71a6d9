//! Text fitted to a width: wrapped into styled lines or a number of rows,
//! or cut with an ellipsis. Widths are display columns.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Plain text wrapped to `width`, one style.
pub fn wrap_plain(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    textwrap::wrap(text, usize::from(width.max(1)))
        .into_iter()
        .map(|l| Line::from(Span::styled(l.into_owned(), style)))
        .collect()
}

/// `text` wrapped to `width` columns in at most `rows` rows; when more was
/// left out, the last row is cut to `fit` columns and ends in `…`.
pub fn wrap_rows(text: &str, width: usize, rows: usize, fit: usize) -> Vec<String> {
    let lines = textwrap::wrap(text, width.max(1));
    let cut = lines.len() > rows;
    let mut kept: Vec<String> = lines.into_iter().take(rows.max(1)).map(std::borrow::Cow::into_owned).collect();
    if cut && let Some(last) = kept.last_mut() {
        *last = format!("{}…", truncate(last, fit.saturating_sub(1)).trim_end_matches('…').trim_end());
    }
    kept
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

/// Cuts text to `width` columns at a word boundary, ending in `…` when cut
/// (a first word wider than that is cut inside it, with [`truncate`]).
pub fn ellipsis(text: &str, width: usize) -> String {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    if text.width() <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let (mut used, mut cut) = (0, None);
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            cut = Some(at);
        }
        used += c.width().unwrap_or(0);
        if used > room {
            break;
        }
    }
    match cut.map(|at| text[..at].trim_end()).filter(|kept| !kept.is_empty()) {
        Some(kept) => format!("{kept}…"),
        None => truncate(text, width),
    }
}

/// Text wrapped at word boundaries to `width` columns; a word wider than
/// a line is cut inside it, with [`truncate`].
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let width = width.max(1);
    let (mut lines, mut line) = (Vec::new(), String::new());
    for word in text.split_whitespace() {
        if !line.is_empty() && line.width() + 1 + word.width() <= width {
            line.push(' ');
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        line = truncate(word, width);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ellipsis_falls_between_words_by_display_width() {
        assert_eq!(ellipsis("Tabs beat spaces", 16), "Tabs beat spaces");
        assert_eq!(ellipsis("Tabs beat spaces", 15), "Tabs beat…");
        assert_eq!(ellipsis("Tabs beat spaces", 10), "Tabs beat…");
        assert_eq!(ellipsis("Tabs beat spaces", 9), "Tabs…");
        assert_eq!(ellipsis("Internationalisation", 8), "Interna…");
        // Wide characters count two columns each.
        assert_eq!(ellipsis("東京 大阪 名古屋", 10), "東京 大阪…");
        assert_eq!(ellipsis("東京 大阪 名古屋", 9), "東京…");
    }

    #[test]
    fn words_wrap_by_display_width() {
        assert_eq!(wrap_words("alpha beta gamma delta", 10), ["alpha beta", "gamma", "delta"]);
        assert_eq!(wrap_words("東京 大阪 名古屋", 10), ["東京 大阪", "名古屋"]);
        assert_eq!(wrap_words("abcdefghijkl", 6), ["abcde…"]);
    }
}
