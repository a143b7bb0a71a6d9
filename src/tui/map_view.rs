//! The argument map dialog's state and keys: which claim is chosen and how
//! far the map is scrolled. ↑/↓ (k/j) choose a claim, PgUp/PgDn and
//! Home/End scroll; Enter puts the chosen claim to the other side as the
//! next round's question, `n` sends the other side a note to answer it;
//! Esc (or `m`, `q`) closes it. Claims are chosen in the map's order: the
//! side for's, then the side against's (`argument_map::in_map_order`).

use crossterm::event::{KeyCode, KeyEvent};

use super::form::FormStep;
use super::keymap::{Action, KeyMap};

/// The map as the person reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MapView {
    /// The chosen claim, by its place in the map's order.
    pub chosen: usize,
    /// The first line shown, and how far it can go (from the last frame).
    pub top: usize,
    pub max: usize,
    /// How many lines show at once.
    pub page: usize,
}

/// What the person asks of the chosen claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapAsk {
    /// Put it to the other side as the next round's question.
    Question(usize),
    /// Ask the other side, in a note to it alone, to answer it.
    Note(usize),
}

impl MapView {
    pub fn key(&mut self, key: &KeyEvent, keymap: &KeyMap) -> FormStep<MapAsk> {
        let page = self.page.max(1);
        match (key.code, keymap.action(key)) {
            (KeyCode::Esc | KeyCode::Char('q'), _) | (_, Some(Action::Map)) => return FormStep::Close,
            (KeyCode::Enter, _) => return FormStep::Done(MapAsk::Question(self.chosen)),
            (KeyCode::Char('n'), _) => return FormStep::Done(MapAsk::Note(self.chosen)),
            (KeyCode::Up | KeyCode::Char('k'), _) => self.chosen = self.chosen.saturating_sub(1),
            (KeyCode::Down | KeyCode::Char('j'), _) => self.chosen += 1,
            (KeyCode::PageUp, _) | (_, Some(Action::PageUp)) => self.top = self.top.saturating_sub(page),
            (KeyCode::PageDown, _) | (_, Some(Action::PageDown)) => self.top = (self.top + page).min(self.max),
            (KeyCode::Home, _) => self.top = 0,
            (KeyCode::End, _) => self.top = self.max,
            _ => {}
        }
        FormStep::Stay
    }

    /// Fits the view to the last frame: `total` lines shown in `rows`, the
    /// map holding `claims` claims, the chosen one's lines at `chosen_at`
    /// (first and last), scrolled into view.
    pub fn fit(&mut self, total: usize, rows: usize, claims: usize, chosen_at: Option<(usize, usize)>) {
        self.chosen = self.chosen.min(claims.saturating_sub(1));
        self.max = total.saturating_sub(rows);
        self.page = rows;
        if let Some((first, last)) = chosen_at {
            if first < self.top {
                self.top = first;
            } else if last >= self.top + rows {
                self.top = (last + 1).saturating_sub(rows);
            }
        }
        self.top = self.top.min(self.max);
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::KeyModifiers;

    use super::*;

    fn press(view: &mut MapView, code: KeyCode) -> FormStep<MapAsk> {
        view.key(&KeyEvent::new(code, KeyModifiers::NONE), &KeyMap::default())
    }

    #[test]
    fn arrows_choose_a_claim_and_enter_or_n_ask_of_it() {
        let mut view = MapView::default();
        press(&mut view, KeyCode::Down);
        press(&mut view, KeyCode::Down);
        view.fit(40, 10, 2, Some((30, 32)));
        assert_eq!(view.chosen, 1, "held to the claims there are");
        assert_eq!(view.top, 23, "the chosen claim scrolled into view");
        assert_eq!(press(&mut view, KeyCode::Enter), FormStep::Done(MapAsk::Question(1)));
        assert_eq!(press(&mut view, KeyCode::Char('n')), FormStep::Done(MapAsk::Note(1)));
        press(&mut view, KeyCode::Up);
        view.fit(40, 10, 2, Some((2, 3)));
        assert_eq!((view.chosen, view.top), (0, 2));
        assert_eq!(press(&mut view, KeyCode::Esc), FormStep::Close);
        assert_eq!(press(&mut view, KeyCode::Char('m')), FormStep::Close, "the key that opened it closes it");
    }
}
