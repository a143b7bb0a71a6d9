//! How `heat run`'s text is painted on this terminal: colour unless
//! `NO_COLOR` or not a terminal, and the width arguments wrap at.

use std::io::IsTerminal;

/// Text styling, off when the output is not a terminal or `NO_COLOR` is set;
/// `width` wraps arguments at word boundaries (`None`: no wrapping, for pipes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    pub width: Option<usize>,
}

impl Style {
    pub(super) fn paint(self, code: &str, text: &str) -> String {
        if self.color { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
    }
}

/// How to print on stdout: colour unless `NO_COLOR` or not a terminal;
/// arguments wrapped to the terminal's width (at most 100 columns: prose
/// past that is hard to read), and not wrapped at all when piped.
pub fn stdout_style() -> Style {
    let terminal = std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let width =
        terminal.then(|| crossterm::terminal::size().ok().map(|(cols, _)| usize::from(cols).min(100))).flatten();
    Style { color, width }
}
