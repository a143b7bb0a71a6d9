//! Text fitted to a width: wrapped into styled lines or a number of rows,
//! or cut with an ellipsis. Widths are display columns.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

pub use crate::words::{cut_words, truncate};

/// Plain text wrapped to `width`, one style.
pub fn wrap_plain(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    textwrap::wrap(text, usize::from(width.max(1)))
        .into_iter()
        .map(|l| Line::from(Span::styled(l.into_owned(), style)))
        .collect()
}

/// `text` wrapped to `width` columns in at most `rows` rows; when more was
/// left out, the last row ends in `…` within `fit` columns, after a whole
/// word.
pub fn wrap_rows(text: &str, width: usize, rows: usize, fit: usize) -> Vec<String> {
    let lines = textwrap::wrap(text, whole_words(width));
    let cut = lines.len() > rows;
    let mut kept: Vec<String> = lines.into_iter().take(rows.max(1)).map(std::borrow::Cow::into_owned).collect();
    if cut && let Some(last) = kept.last_mut() {
        use unicode_width::UnicodeWidthStr;
        // Room for the `…` after whole words: a row that fills its width
        // gives up its last word (or, one word alone, its last letters).
        let mut words: Vec<&str> = last.split(' ').collect();
        while words.len() > 1 && words.join(" ").trim_end().width() + 1 > fit {
            words.pop();
        }
        let kept_words = words.join(" ");
        let kept_words = kept_words.trim_end();
        *last = if kept_words.width() < fit { format!("{kept_words}…") } else { truncate(kept_words, fit) };
    }
    kept
}

/// Wrapping at spaces only: `set-clipboard` or `tokens/s` never breaks at
/// its hyphen (a word is broken only when it is wider than a row).
pub fn whole_words(width: usize) -> textwrap::Options<'static> {
    textwrap::Options::new(width.max(1)).word_splitter(textwrap::WordSplitter::NoHyphenation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_comes_after_a_whole_word() {
        assert_eq!(cut_words("Type the topic to inject first", 20), "Type the topic to…");
        assert_eq!(cut_words("short", 20), "short");
        assert_eq!(cut_words("Supercalifragilistic", 8), "Superca…");
        let rows = wrap_rows("This is a replay: a verdict is given in a live or stored debate", 48, 1, 48);
        assert_eq!(rows, ["This is a replay: a verdict is given in a live…"]);
        let rows = wrap_rows("This is a replay: a verdict is given in a liveliness or stored debate", 48, 1, 48);
        assert_eq!(rows, ["This is a replay: a verdict is given in a…"]);
        // A kept row that fills its width exactly still says more was left out.
        let rows = wrap_rows("alpha beta gamma delta", 10, 1, 10);
        assert_eq!(rows, ["alpha…"]);
        let rows = wrap_rows("if tmux passes it on (`set -g set-clipboard on`); else", 40, 2, 40);
        assert_eq!(rows, ["if tmux passes it on (`set -g", "set-clipboard on`); else"]);
    }
}
