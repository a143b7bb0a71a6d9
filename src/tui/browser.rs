//! The session browser (`s`): stored debates, newest first, filtered by what
//! is typed; Enter opens one (continuing it if it can go on), Ctrl-E exports
//! it, Ctrl-D deletes it after a yes.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::Effect;
use crate::store::index::IndexEntry;

/// The browser's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Browser {
    pub entries: Vec<IndexEntry>,
    pub query: String,
    /// Index into `matches()`.
    pub selected: usize,
    /// The id waiting for a yes before it is deleted.
    pub deleting: Option<String>,
}

impl Browser {
    pub fn new(entries: Vec<IndexEntry>) -> Self {
        Browser { entries, query: String::new(), selected: 0, deleting: None }
    }

    /// The entries whose topic or id contains every word typed (any case).
    pub fn matches(&self) -> Vec<&IndexEntry> {
        let words: Vec<String> = self.query.split_whitespace().map(str::to_lowercase).collect();
        self.entries
            .iter()
            .filter(|e| {
                let hay = format!("{} {}", e.topic, e.id).to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    pub fn selected_id(&self) -> Option<String> {
        self.matches().get(self.selected).map(|e| e.id.clone())
    }

    /// Handles a key; `None` closes the browser.
    pub fn key(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if let Some(id) = self.deleting.take() {
            return Some(match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => vec![Effect::Delete(id)],
                _ => Vec::new(),
            });
        }
        let count = self.matches().len();
        match key.code {
            KeyCode::Esc => return None,
            KeyCode::Enter => return self.selected_id().map(|id| vec![Effect::Open(id)]).or(Some(Vec::new())),
            KeyCode::Char('e') if ctrl => {
                return Some(self.selected_id().map(|id| vec![Effect::ExportSession(id)]).unwrap_or_default());
            }
            KeyCode::Char('d') if ctrl => self.deleting = self.selected_id(),
            KeyCode::Delete => self.deleting = self.selected_id(),
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => self.selected = (self.selected + 1).min(count.saturating_sub(1)),
            KeyCode::Backspace => {
                self.query.pop();
                self.selected = 0;
            }
            KeyCode::Char(c) if !ctrl => {
                self.query.push(c);
                self.selected = 0;
            }
            _ => {}
        }
        Some(Vec::new())
    }

    /// After a delete: drop the entry and keep the selection in range.
    pub fn remove(&mut self, id: &str) {
        self.entries.retain(|e| e.id != id);
        self.selected = self.selected.min(self.matches().len().saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, topic: &str) -> IndexEntry {
        IndexEntry {
            id: id.into(),
            topic: topic.into(),
            created_ms: 0,
            updated_ms: 0,
            rounds: 1,
            outcome: None,
            models: vec![],
        }
    }

    fn press(b: &mut Browser, code: KeyCode, modifiers: KeyModifiers) -> Option<Vec<Effect>> {
        b.key(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn typing_filters_and_enter_opens_the_selection() {
        let mut b = Browser::new(vec![
            entry("a1", "Tabs beat spaces"),
            entry("b2", "Remote work wins"),
            entry("c3", "Tabs or not"),
        ]);
        for c in "tabs".chars() {
            press(&mut b, KeyCode::Char(c), KeyModifiers::NONE);
        }
        assert_eq!(b.matches().len(), 2);
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(press(&mut b, KeyCode::Enter, KeyModifiers::NONE), Some(vec![Effect::Open("c3".into())]));
        assert_eq!(press(&mut b, KeyCode::Esc, KeyModifiers::NONE), None);
    }

    #[test]
    fn delete_asks_first_and_export_names_the_session() {
        let mut b = Browser::new(vec![entry("a1", "Tabs"), entry("b2", "Cats")]);
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(
            press(&mut b, KeyCode::Char('e'), KeyModifiers::CONTROL),
            Some(vec![Effect::ExportSession("b2".into())])
        );
        assert_eq!(press(&mut b, KeyCode::Char('d'), KeyModifiers::CONTROL), Some(vec![]));
        assert_eq!(b.deleting.as_deref(), Some("b2"));
        assert_eq!(press(&mut b, KeyCode::Char('n'), KeyModifiers::NONE), Some(vec![]));
        assert_eq!(b.deleting, None);
        press(&mut b, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(press(&mut b, KeyCode::Char('y'), KeyModifiers::NONE), Some(vec![Effect::Delete("b2".into())]));
        b.remove("b2");
        assert_eq!(b.selected, 0);
        assert_eq!(b.matches().len(), 1);
    }
}
