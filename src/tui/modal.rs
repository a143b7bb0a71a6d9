//! The dialogs that open over the studio (help, the session browser, a
//! question, an editor, the heat dialog, search, settings, the results) and the
//! editors they hold.

use ratatui::style::{Modifier, Style};
use ratatui_textarea::TextArea;

use super::effect::Effect;
use crate::debate::Heat;

/// A dialog over the panes.
pub enum Modal {
    Help(super::help::HelpView),
    Sessions(super::browser::Browser),
    Confirm(Confirm),
    Editor(Box<Editor>),
    Temperature(TempEditor),
    /// The search prompt, with what is typed so far.
    Search(String),
    /// The start screen's settings for the next debate.
    Settings(super::settings::SettingsForm),
    /// How the debate went: its outcome, heat and words per round.
    Results(Results),
    /// The person's own verdict, being given.
    Verdict(Box<super::verdict_form::VerdictForm>),
    /// A branch of the shown debate, being set up.
    Branch(Box<super::branch_form::BranchForm>),
}

/// The results view, the report written from it and the summary asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Results {
    /// Where the HTML report was written, once it was.
    pub report: Option<String>,
    /// The arbiter's summary as it streams in, while it is written.
    pub summary_draft: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Confirm {
    Force,
    Quit,
    /// Stop the running debate to start or open another: what comes next.
    Replace(Box<Effect>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorPurpose {
    Inject,
    NewTopic,
}

pub struct Editor {
    pub purpose: EditorPurpose,
    pub area: TextArea<'static>,
}

/// The heat being chosen: arrows step it, digits type it.
#[derive(Debug, Clone, PartialEq)]
pub struct TempEditor {
    pub value: Heat,
    pub typed: Option<String>,
    pub error: Option<String>,
}

/// A multi-line editor for a topic.
pub fn topic_area(placeholder: &str) -> TextArea<'static> {
    let mut area = TextArea::default();
    area.set_placeholder_text(placeholder);
    area.set_cursor_line_style(Style::new());
    area.set_placeholder_style(Style::new().add_modifier(Modifier::DIM));
    area
}
