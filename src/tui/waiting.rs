//! `u`: what the person's steering queued that no request has carried yet
//! (injected topics, notes to some seats, the next round's question),
//! listed to take one back before the round or request that would carry
//! it. ↑/↓ choose (the newest is chosen first); Enter, Delete or `u` take
//! the chosen one back; Esc closes.

use crossterm::event::{KeyCode, KeyEvent};

use super::form::FormStep;
use crate::debate::DebateState;
use crate::debate::event::Waiting;

/// What waited when the dialog opened, and the one chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct WaitingList {
    pub items: Vec<Waiting>,
    /// Index into `items`.
    pub at: usize,
}

impl WaitingList {
    /// The list of what waits on `debate`; why not, when nothing does.
    pub fn open(debate: &DebateState) -> Result<Self, &'static str> {
        let items = debate.waiting();
        match items.len() {
            0 => Err("Nothing waits to be taken back: no topic, note or question is queued for a request"),
            n => Ok(Self { items, at: n - 1 }),
        }
    }

    /// A key in the list: what to take back, once chosen.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Waiting> {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => FormStep::Close,
            KeyCode::Up | KeyCode::Char('k') => {
                self.at = self.at.saturating_sub(1);
                FormStep::Stay
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.at = (self.at + 1).min(self.items.len().saturating_sub(1));
                FormStep::Stay
            }
            KeyCode::Enter | KeyCode::Delete | KeyCode::Backspace | KeyCode::Char('u' | 'd') => {
                self.items.get(self.at).cloned().map_or(FormStep::Close, FormStep::Done)
            }
            _ => FormStep::Stay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{DebateEvent, Role};

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::from(code)
    }

    #[test]
    fn the_newest_is_chosen_first_and_the_arrows_move_within_the_list() {
        let mut state = DebateState::default();
        assert!(WaitingList::open(&state).is_err(), "nothing waits");
        state.apply(&DebateEvent::TopicInjected { text: "Juniors".into() });
        state.apply(&DebateEvent::NoteToSeats { text: "Cite a study".into(), seats: vec![Role::Skeptic] });
        let mut list = WaitingList::open(&state).expect("two wait");
        assert_eq!(list.at, 1);
        assert_eq!(list.key(key(KeyCode::Down)), FormStep::Stay);
        assert_eq!(list.at, 1, "never past the last");
        list.key(key(KeyCode::Up));
        list.key(key(KeyCode::Up));
        assert_eq!(list.at, 0, "never before the first");
        assert_eq!(list.key(key(KeyCode::Enter)), FormStep::Done(Waiting::Topic { text: "Juniors".into() }));
        assert_eq!(list.key(key(KeyCode::Esc)), FormStep::Close);
    }
}
