//! Naming or tagging the debate chosen in the session browser (Ctrl-R,
//! Ctrl-T): one line of text, begun with the name or tags it has, checked
//! as `heat sessions rename` and `tag` check them. Enter gives the whole new
//! label (an emptied line removes the name, or every tag), Esc goes back to
//! the list, and what cannot be a name or a tag is said under the line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::form::FormStep;
use crate::store::index::IndexEntry;
use crate::store::label::{self, Change};

/// What is being changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labelling {
    Name,
    Tags,
}

/// A name or tags being typed for one stored debate.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelEdit {
    pub id: String,
    pub what: Labelling,
    pub text: String,
    /// Why Enter did not take the text, until the next key.
    pub error: Option<String>,
}

impl LabelEdit {
    /// Begins with what `entry` has now.
    pub fn new(entry: &IndexEntry, what: Labelling) -> Self {
        let text = match what {
            Labelling::Name => entry.name.clone().unwrap_or_default(),
            Labelling::Tags => entry.tags.join(" "),
        };
        Self { id: entry.id.clone(), what, text, error: None }
    }

    /// Handles a key; `Done` carries the change to the part edited.
    pub fn key(&mut self, key: KeyEvent) -> FormStep<Change> {
        self.error = None;
        match key.code {
            KeyCode::Esc => return FormStep::Close,
            KeyCode::Enter => match self.label() {
                Ok(label) => return FormStep::Done(label),
                Err(e) => self.error = Some(format!("{e:#}")),
            },
            KeyCode::Backspace => {
                self.text.pop();
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => self.text.clear(),
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => self.text.push(c),
            _ => {}
        }
        FormStep::Stay
    }

    /// The change the text makes: the name or the tags, whichever is edited.
    fn label(&self) -> anyhow::Result<Change> {
        Ok(match self.what {
            Labelling::Name if self.text.trim().is_empty() => Change::Name(None),
            Labelling::Name => Change::Name(Some(label::name(&self.text)?)),
            Labelling::Tags => Change::Tags(label::tags(&self.text)?),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn press(edit: &mut LabelEdit, code: KeyCode) -> FormStep<Change> {
        edit.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn typed(edit: &mut LabelEdit, text: &str) {
        for c in text.chars() {
            press(edit, KeyCode::Char(c));
        }
    }

    fn entry() -> IndexEntry {
        IndexEntry { id: "a1".into(), name: Some("Old".into()), tags: vec!["x".into()], ..IndexEntry::default() }
    }

    #[test]
    fn a_name_replaces_the_old_one_and_keeps_the_tags() {
        let mut edit = LabelEdit::new(&entry(), Labelling::Name);
        assert_eq!(edit.text, "Old");
        typed(&mut edit, "er title");
        let done = press(&mut edit, KeyCode::Enter);
        assert_eq!(done, FormStep::Done(Change::Name(Some("Older title".into()))));
        let mut edit = LabelEdit::new(&entry(), Labelling::Name);
        edit.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(press(&mut edit, KeyCode::Enter), FormStep::Done(Change::Name(None)));
    }

    #[test]
    fn tags_are_words_and_a_bad_one_is_said_until_the_next_key() {
        let mut edit = LabelEdit::new(&entry(), Labelling::Tags);
        typed(&mut edit, " #later, ok");
        let done = press(&mut edit, KeyCode::Enter);
        assert_eq!(done, FormStep::Done(Change::Tags(vec!["x".into(), "later".into(), "ok".into()])));
        typed(&mut edit, &format!(" {}", "y".repeat(40)));
        assert_eq!(press(&mut edit, KeyCode::Enter), FormStep::Stay);
        assert!(edit.error.as_deref().unwrap().contains("at most 32"), "{:?}", edit.error);
        press(&mut edit, KeyCode::Backspace);
        assert_eq!(edit.error, None);
        assert_eq!(press(&mut edit, KeyCode::Esc), FormStep::Close);
    }
}
