//! The results view's state and keys: the HTML report written from it, the
//! arbiter's summary as it streams, and how far its synthesis is scrolled.
//! ↑/↓ (k/j), PgUp/PgDn and Home/End scroll; `w` asks for the report and `a`
//! for the summary; Esc, Enter and `q` close it; another key of the studio's
//! closes it and does what it does; a key that is none does nothing, so a
//! stray key never hides the results.

use crossterm::event::{KeyCode, KeyEvent};

use super::form::FormStep;
use super::keymap::{Action, KeyMap};

/// The results view, the report written from it and the summary asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Results {
    /// Where the HTML report was written, once it was.
    pub report: Option<String>,
    /// The arbiter's summary as it streams in, while it is written.
    pub summary_draft: Option<String>,
    /// How far the synthesis (or summary) is scrolled, in lines.
    pub scroll: u16,
    /// How far it can scroll, as the frame's layout found it (`fit`).
    pub scroll_max: u16,
}

/// What a key in the results view asks of the studio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultsAsk {
    /// The report written (the view stays open).
    Report,
    /// The arbiter asked for its summary (`true`: one is not being written
    /// already; the view stays open).
    Summarize(bool),
    /// The key's action of the studio's (the view closes).
    Act(Action),
}

impl Results {
    /// Fits the scroll to a synthesis of `total` lines shown in `rows` rows.
    pub fn fit(&mut self, total: usize, rows: usize) {
        self.scroll_max = u16::try_from(total.saturating_sub(rows)).unwrap_or(u16::MAX);
    }

    /// What `key` does here.
    pub fn key(&mut self, key: &KeyEvent, keymap: &KeyMap) -> FormStep<ResultsAsk> {
        if self.scroll_key(key) {
            return FormStep::Stay;
        }
        match key.code {
            KeyCode::Char('w') => FormStep::Ask(ResultsAsk::Report),
            KeyCode::Char('a') => FormStep::Ask(ResultsAsk::Summarize(self.summary_draft.is_none())),
            KeyCode::Esc | KeyCode::Enter => FormStep::Close,
            _ => match keymap.action(key) {
                Some(Action::Results | Action::Quit) => FormStep::Close,
                Some(action) => FormStep::Done(ResultsAsk::Act(action)),
                None => FormStep::Stay,
            },
        }
    }

    /// ↑/↓ (k/j) a line, PgUp/PgDn a page, Home/End the ends; false for any
    /// other key.
    fn scroll_key(&mut self, key: &KeyEvent) -> bool {
        let max = self.scroll_max;
        let page = 8;
        self.scroll = match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.scroll.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => (self.scroll + 1).min(max),
            KeyCode::PageUp => self.scroll.saturating_sub(page),
            KeyCode::PageDown => (self.scroll + page).min(max),
            KeyCode::Home | KeyCode::Char('g') => 0,
            KeyCode::End | KeyCode::Char('G') => max,
            _ => return false,
        };
        true
    }
}
