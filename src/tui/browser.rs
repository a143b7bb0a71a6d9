//! The session browser (`s`): stored debates, newest first, filtered by what
//! is typed (each word in the topic, id, name or tags, or anywhere in what
//! the debate said); Enter opens one (continuing it
//! if it can go on), Ctrl-E exports it, Ctrl-R names it and Ctrl-T tags it
//! (`label_edit.rs`), Ctrl-D deletes it after a yes (the debate on screen is
//! refused at once, with the reason, without asking).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::effect::Effect;
use super::form::FormStep;
use super::label_edit::{LabelEdit, Labelling};
use crate::store::index::IndexEntry;
use crate::store::label::Label;

/// Why the debate on screen cannot be deleted.
pub const ON_SCREEN: &str = "That debate is on screen; open another before deleting it";

/// The browser's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Browser {
    /// As a tree: each debate followed by its branches.
    pub entries: Vec<IndexEntry>,
    /// How deep each entry sits in the tree.
    depths: Vec<usize>,
    pub query: String,
    /// Index into `matches()`.
    pub selected: usize,
    /// The id waiting for a yes before it is deleted.
    pub deleting: Option<String>,
    /// The debate on screen, which cannot be deleted.
    pub shown: Option<String>,
    /// Why the last key did nothing, until the next key.
    pub note: Option<&'static str>,
    /// The selection's name or tags, being typed.
    pub labelling: Option<LabelEdit>,
    /// What each debate said, lowercase, by id (`store::search::said`).
    said: std::collections::HashMap<String, String>,
}

impl Browser {
    pub fn new(entries: Vec<IndexEntry>) -> Self {
        let order = crate::store::index::tree(&entries);
        let depths = order.iter().map(|(d, _)| *d).collect();
        let mut slots: Vec<Option<IndexEntry>> = entries.into_iter().map(Some).collect();
        let entries = order.iter().filter_map(|(_, i)| slots[*i].take()).collect();
        Browser {
            entries,
            depths,
            query: String::new(),
            selected: 0,
            deleting: None,
            shown: None,
            note: None,
            labelling: None,
            said: std::collections::HashMap::new(),
        }
    }

    /// The browser, searching what each debate said too (`said`: by id, lowercase).
    #[must_use]
    pub fn with_said(mut self, said: std::collections::HashMap<String, String>) -> Self {
        self.said = said;
        self
    }

    /// How an entry is set in under the debate it branches: only while
    /// nothing is typed (a search shows what matches, parents or not).
    pub fn indent(&self, id: &str) -> String {
        let depth = self.entries.iter().position(|e| e.id == id).map_or(0, |i| self.depths[i]);
        if self.query.is_empty() { crate::store::index::indent(depth) } else { String::new() }
    }

    /// The browser over the debate `shown` on screen.
    #[must_use]
    pub fn showing(mut self, shown: Option<String>) -> Self {
        self.shown = shown;
        self
    }

    /// The entries that hold every word typed (any case), each in the
    /// topic, id, name or tags, or in what the debate said.
    pub fn matches(&self) -> Vec<&IndexEntry> {
        let words: Vec<String> = self.query.split_whitespace().map(str::to_lowercase).collect();
        let said = |e: &IndexEntry, w: &str| self.said.get(&e.id).is_some_and(|text| text.contains(w));
        self.entries.iter().filter(|e| words.iter().all(|w| e.mentions(w) || said(e, w))).collect()
    }

    /// The chosen entry.
    pub fn selection(&self) -> Option<&IndexEntry> {
        self.matches().get(self.selected).copied()
    }

    pub fn selected_id(&self) -> Option<String> {
        self.selection().map(|e| e.id.clone())
    }

    /// Handles a key: Enter opens the selection (`Done`); exporting,
    /// deleting and labelling are asked for while the browser stays open.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Effect> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        self.note = None;
        if let Some(mut edit) = self.labelling.take() {
            return match edit.key(key) {
                FormStep::Done(label) => FormStep::Ask(Effect::Label(edit.id, label)),
                FormStep::Close => FormStep::Stay,
                FormStep::Stay | FormStep::Refuse(_) | FormStep::Ask(_) => {
                    self.labelling = Some(edit);
                    FormStep::Stay
                }
            };
        }
        if let Some(id) = self.deleting.take() {
            return match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => FormStep::Ask(Effect::Delete(id)),
                _ => FormStep::Stay,
            };
        }
        let count = self.matches().len();
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Enter => return self.selected_id().map_or(FormStep::Stay, |id| FormStep::Done(Effect::Open(id))),
            KeyCode::Char('e') if ctrl => {
                return self.selected_id().map_or(FormStep::Stay, |id| FormStep::Ask(Effect::ExportSession(id)));
            }
            KeyCode::Char('d') if ctrl => self.ask_to_delete(),
            KeyCode::Char('r') if ctrl => self.begin_labelling(Labelling::Name),
            KeyCode::Char('t') if ctrl => self.begin_labelling(Labelling::Tags),
            KeyCode::Delete => self.ask_to_delete(),
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
        FormStep::Stay
    }

    /// Asks before deleting the selection; the debate on screen is refused
    /// at once instead.
    fn ask_to_delete(&mut self) {
        let Some(id) = self.selected_id() else { return };
        if self.shown.as_deref() == Some(id.as_str()) {
            self.note = Some(ON_SCREEN);
        } else {
            self.deleting = Some(id);
        }
    }

    /// Begins naming or tagging the selection.
    fn begin_labelling(&mut self, what: Labelling) {
        self.labelling = self.selection().map(|entry| LabelEdit::new(entry, what));
    }

    /// After a label was stored: the entry shows it.
    pub fn relabel(&mut self, id: &str, label: Label) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            *entry = std::mem::take(entry).labelled(label);
        }
    }

    /// After a delete: drop the entry and keep the selection in range.
    pub fn remove(&mut self, id: &str) {
        if let Some(at) = self.entries.iter().position(|e| e.id == id) {
            self.entries.remove(at);
            self.depths.remove(at);
        }
        self.selected = self.selected.min(self.matches().len().saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::label::Change;

    fn entry(id: &str, topic: &str) -> IndexEntry {
        IndexEntry {
            id: id.into(),
            topic: topic.into(),
            created_ms: 0,
            updated_ms: 0,
            rounds: 1,
            outcome: None,
            models: vec![],
            rematch_of: None,
            branch_of: None,
            branch_round: None,
            format: None,
            ..Default::default()
        }
    }

    fn press(b: &mut Browser, code: KeyCode, modifiers: KeyModifiers) -> FormStep<Effect> {
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
        assert_eq!(press(&mut b, KeyCode::Enter, KeyModifiers::NONE), FormStep::Done(Effect::Open("c3".into())));
        assert_eq!(press(&mut b, KeyCode::Esc, KeyModifiers::NONE), FormStep::Close);
    }

    #[test]
    fn typing_finds_a_debate_by_what_it_said_too() {
        let said = [("b2".to_string(), "the sleeper arrives at 07:15\nbudget airlines".to_string())];
        let mut b = Browser::new(vec![entry("a1", "Tabs beat spaces"), entry("b2", "Night trains")])
            .with_said(said.into_iter().collect());
        for c in "SLEEPER night".chars() {
            press(&mut b, KeyCode::Char(c), KeyModifiers::NONE);
        }
        let found: Vec<&str> = b.matches().iter().map(|e| e.id.as_str()).collect();
        assert_eq!(found, ["b2"], "one word from what it said, one from its topic");
    }

    #[test]
    fn delete_asks_first_and_export_names_the_session() {
        let mut b = Browser::new(vec![entry("a1", "Tabs"), entry("b2", "Cats")]);
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(
            press(&mut b, KeyCode::Char('e'), KeyModifiers::CONTROL),
            FormStep::Ask(Effect::ExportSession("b2".into()))
        );
        assert_eq!(press(&mut b, KeyCode::Char('d'), KeyModifiers::CONTROL), FormStep::Stay);
        assert_eq!(b.deleting.as_deref(), Some("b2"));
        assert_eq!(press(&mut b, KeyCode::Char('n'), KeyModifiers::NONE), FormStep::Stay);
        assert_eq!(b.deleting, None);
        press(&mut b, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(press(&mut b, KeyCode::Char('y'), KeyModifiers::NONE), FormStep::Ask(Effect::Delete("b2".into())));
        b.remove("b2");
        assert_eq!(b.selected, 0);
        assert_eq!(b.matches().len(), 1);
    }

    #[test]
    fn the_debate_on_screen_is_refused_before_any_question() {
        let mut b = Browser::new(vec![entry("a1", "Tabs"), entry("b2", "Cats")]).showing(Some("a1".into()));
        assert_eq!(press(&mut b, KeyCode::Char('d'), KeyModifiers::CONTROL), FormStep::Stay);
        assert_eq!(b.deleting, None, "no question is asked");
        assert_eq!(b.note, Some(ON_SCREEN));
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(b.note, None, "the reason goes with the next key");
        press(&mut b, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(b.deleting.as_deref(), Some("b2"), "another debate is asked about");
    }

    #[test]
    fn ctrl_r_and_ctrl_t_label_the_selection_and_typing_finds_it() {
        let mut b = Browser::new(vec![entry("a1", "Tabs"), entry("b2", "Cats")]);
        press(&mut b, KeyCode::Down, KeyModifiers::NONE);
        press(&mut b, KeyCode::Char('r'), KeyModifiers::CONTROL);
        for c in "Pets".chars() {
            press(&mut b, KeyCode::Char(c), KeyModifiers::NONE);
        }
        assert!(b.query.is_empty(), "typing names, it does not search");
        let named = Label { name: Some("Pets".into()), tags: vec![] };
        assert_eq!(
            press(&mut b, KeyCode::Enter, KeyModifiers::NONE),
            FormStep::Ask(Effect::Label("b2".into(), Change::Name(Some("Pets".into()))))
        );
        assert_eq!(b.labelling, None);
        b.relabel("b2", named);
        press(&mut b, KeyCode::Char('t'), KeyModifiers::CONTROL);
        for c in "home".chars() {
            press(&mut b, KeyCode::Char(c), KeyModifiers::NONE);
        }
        let tagged = Label { name: Some("Pets".into()), tags: vec!["home".into()] };
        assert_eq!(
            press(&mut b, KeyCode::Enter, KeyModifiers::NONE),
            FormStep::Ask(Effect::Label("b2".into(), Change::Tags(vec!["home".into()])))
        );
        b.relabel("b2", tagged);
        for c in "pets home".chars() {
            press(&mut b, KeyCode::Char(c), KeyModifiers::NONE);
        }
        assert_eq!(b.selected_id().as_deref(), Some("b2"));
        assert_eq!(b.matches().len(), 1);
    }
}
