//! A dialog read by scrolling (help, what a turn was sent): it scrolls
//! when the screen is too short for every line (↑/↓, PgUp/PgDn, Home/End
//! and the keys bound to scrolling); any other key closes it.

use crossterm::event::{KeyCode, KeyEvent};

use super::keymap::{Action, KeyMap};

/// How a dialog read by scrolling lays out at the frame's size, as the
/// view measured it: its lines in all and how many show at once; for a
/// dialog whose items are chosen (the argument map), how many there are
/// and the chosen one's first and last line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fit {
    pub total: usize,
    pub rows: usize,
    pub items: usize,
    pub chosen_at: Option<(usize, usize)>,
}

impl Fit {
    /// A dialog whose lines are only scrolled.
    pub fn lines(total: usize, rows: usize) -> Self {
        Fit { total, rows, items: 0, chosen_at: None }
    }
}

/// Where a dialog read by scrolling is scrolled. `max` and `page` come from the last
/// frame (how many lines did not fit, how many show at once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paged {
    pub top: usize,
    pub max: usize,
    pub page: usize,
}

impl Paged {
    /// Handles a key: `true` when it scrolled, `false` when it closes the
    /// overlay (every key closes help that fits on the screen).
    pub fn key(&mut self, key: &KeyEvent, keymap: &KeyMap) -> bool {
        if self.max == 0 {
            return false;
        }
        let page = self.page.max(1);
        let action = keymap.action(key);
        match (key.code, action) {
            (KeyCode::Up, _) | (_, Some(Action::ScrollUp)) => self.top = self.top.saturating_sub(1),
            (KeyCode::Down, _) | (_, Some(Action::ScrollDown)) => self.top += 1,
            (KeyCode::PageUp, _) | (_, Some(Action::PageUp)) => self.top = self.top.saturating_sub(page),
            (KeyCode::PageDown, _) | (_, Some(Action::PageDown)) => self.top += page,
            (KeyCode::Home, _) | (_, Some(Action::Top)) => self.top = 0,
            (KeyCode::End, _) | (_, Some(Action::Follow)) => self.top = self.max,
            _ => return false,
        }
        self.top = self.top.min(self.max);
        true
    }

    /// Keeps the scroll within what the last frame could show.
    pub fn fit(&mut self, total: usize, rows: usize) {
        self.max = total.saturating_sub(rows);
        self.page = rows;
        self.top = self.top.min(self.max);
    }
}
