//! What every dialog shares: `FormStep`, what a key did to it (each dialog
//! handles its own keys and answers in this one shape; `App` applies it),
//! and the text editor
//! its typed fields use, with the keys that send or break a line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Modifier, Style};
use ratatui_textarea::TextArea;

/// What a key did to an open dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum FormStep<T> {
    /// It stays open.
    Stay,
    /// It stays open, and the status line says why what was asked for
    /// cannot be done yet.
    Refuse(&'static str),
    /// It closes; nothing is done.
    Close,
    /// It closes with what the person asked for.
    Done(T),
    /// It stays open, and asks for `T` (a report written, a list fetched).
    Ask(T),
}

impl<T> FormStep<T> {
    /// The same step, asking for what `f` makes of what it asked.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> FormStep<U> {
        match self {
            FormStep::Stay => FormStep::Stay,
            FormStep::Refuse(why) => FormStep::Refuse(why),
            FormStep::Close => FormStep::Close,
            FormStep::Done(asked) => FormStep::Done(f(asked)),
            FormStep::Ask(asked) => FormStep::Ask(f(asked)),
        }
    }
}

/// What a key does in a text editor.
pub enum EditorKey {
    Submit,
    Cancel,
    Newline,
    Edit,
}

/// Enter or Ctrl-S sends, Alt/Shift-Enter breaks the line, Esc cancels.
pub fn editor_key(key: &KeyEvent) -> EditorKey {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => EditorKey::Cancel,
        KeyCode::Enter if key.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::SHIFT) => EditorKey::Newline,
        KeyCode::Enter => EditorKey::Submit,
        KeyCode::Char('s') if ctrl => EditorKey::Submit,
        _ => EditorKey::Edit,
    }
}

/// A multi-line editor for a topic.
pub fn topic_area(placeholder: &str) -> TextArea<'static> {
    let mut area = TextArea::default();
    area.set_placeholder_text(placeholder);
    area.set_cursor_line_style(Style::new());
    area.set_placeholder_style(Style::new().add_modifier(Modifier::DIM));
    area
}
