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
