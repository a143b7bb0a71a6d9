//! The start screen: the proposition editor (Enter starts the debate), the
//! recent debates (Tab, or ↓ past the proposition's last line, reaches them;
//! ↑/↓ choose, Enter opens one and continues it when it can go on), help
//! (F1, or `?` while there is no proposition to type it into), the settings
//! for the next debate (F2), and the offline model's install (Ctrl-O) when
//! the screen offers it. It owns its state and its keys; what a key asks of
//! the studio is a `StartStep`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::effect::Effect;
use super::flash::{Flash, Tone, Until};
use super::form::{EditorKey, editor_key, topic_area};
use super::install::InstallState;
use super::keymap::{Action, KeyMap};
use super::settings::{FormatChoices, SOURCE_FIELD, SettingsForm};
use crate::config::studio::FIELDS;

#[derive(Default)]
pub struct StartScreen {
    /// The proposition being typed, while the screen is open.
    pub editor: Option<TextArea<'static>>,
    /// Recent sessions: (id, one-line description).
    pub recent: Vec<(String, String)>,
    /// The chosen recent debate, while the list has the keys (`None`: the
    /// proposition has them).
    pub recent_chosen: Option<usize>,
    /// The settings in force (the form's fields), when this studio offers
    /// them.
    pub settings: Option<[String; FIELDS]>,
    /// The formats the settings form offers (`heat formats`).
    pub formats: FormatChoices,
    /// Settings sent to be applied, until the loop says how it went.
    pub configuring: Option<SettingsForm>,
    /// The offline model's install, when the screen offers it.
    pub install: Option<InstallState>,
    /// A proposition waiting for the install to finish.
    pub queued_topic: Option<String>,
}

/// What a key on the start screen asks of the studio.
#[derive(Debug, PartialEq)]
pub enum StartStep {
    /// These effects (none: the key only changed the screen).
    Effects(Vec<Effect>),
    /// Open help.
    Help,
    /// Open the settings form.
    Settings,
    /// Say this in the status line.
    Warn(String),
}

impl StartScreen {
    /// `topic` starts once what is being set up (the offline model's
    /// install, settings being applied) is ready.
    pub fn wait_with(&mut self, topic: String) {
        self.queued_topic = Some(topic);
    }

    /// How far the offline model's install has got.
    pub fn install_progress(&mut self, progress: crate::model_store::Progress) {
        self.install = Some(InstallState::Running(progress));
    }

    /// The install failed (`why`, shown on the screen): a proposition
    /// waiting for it is let go.
    pub fn install_failed(&mut self, why: String) {
        self.install = Some(InstallState::Failed(why));
        self.queued_topic = None;
    }

    /// The offline model is in, or the settings are applied (`offer_install`:
    /// the new set-up still needs the model): the proposition that waited,
    /// to start now.
    pub fn ready(&mut self, offer_install: bool) -> Option<String> {
        self.install = offer_install.then_some(InstallState::Offered);
        self.queued_topic.take()
    }

    /// What was being set up failed: a proposition waiting for it is let go.
    pub fn let_go(&mut self) {
        self.queued_topic = None;
    }

    /// The loop applied the settings (or could not): the settings in force
    /// and what the screen says of them, or the form back with why.
    pub fn configured(&mut self, result: &Result<[String; FIELDS], String>) -> Result<Flash, Box<SettingsForm>> {
        let form = self.configuring.take();
        match result {
            Ok(fields) => {
                self.settings = Some(fields.clone());
                let (rounds, format) = super::settings::next_debate(fields);
                let kind = format.map(|f| format!(" ({f})")).unwrap_or_default();
                let text = format!(
                    "Settings saved and remembered: the next debate{kind} has {rounds} from heat {}",
                    fields[1]
                );
                Ok(Flash { text, tone: Tone::Good, until: Until::NextRound })
            }
            Err(why) => {
                let settings = self.settings.clone().unwrap_or_default();
                let mut form = form.unwrap_or_else(|| SettingsForm::new(settings));
                form.error = Some((None, why.clone()));
                Err(Box::new(form))
            }
        }
    }

    /// Opens the screen with an empty proposition.
    pub fn open(&mut self) {
        self.editor = Some(topic_area("Type the proposition to debate, then press Enter"));
        self.recent_chosen = None;
    }

    /// Closes it: a debate is shown.
    pub fn close(&mut self) {
        self.editor = None;
        self.recent_chosen = None;
    }

    pub fn is_open(&self) -> bool {
        self.editor.is_some()
    }

    /// Pasted text is a proposition, wherever the keys were.
    pub fn paste(&mut self, text: &str) {
        if let Some(area) = &mut self.editor {
            self.recent_chosen = None;
            area.insert_str(text);
        }
    }

    /// The settings form for the next debate, or why it cannot open.
    pub fn settings_form(&self) -> Result<SettingsForm, &'static str> {
        if self.install.as_ref().is_some_and(|i| !i.can_start()) {
            return Err("The settings can change once the install has finished");
        }
        match &self.settings {
            Some(fields) => Ok(SettingsForm::new(fields.clone()).with_formats(self.formats.clone())),
            None => Err("This studio has no settings to change"),
        }
    }

    pub fn key(&mut self, key: KeyEvent, keymap: &KeyMap) -> StartStep {
        let ctrl_o = key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('o');
        if ctrl_o && self.install.as_ref().is_some_and(InstallState::can_start) {
            return StartStep::Effects(vec![Effect::InstallModel]);
        }
        if key.code == KeyCode::F(2) {
            return StartStep::Settings;
        }
        if self.asks_for_help(&key, keymap) {
            return StartStep::Help;
        }
        if matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
            self.recent_chosen = match self.recent_chosen {
                Some(_) => None,
                None => (!self.recent.is_empty()).then_some(0),
            };
            return StartStep::Effects(Vec::new());
        }
        match self.recent_chosen {
            Some(chosen) => self.recent_key(chosen, key),
            None => self.topic_key(key),
        }
    }

    /// Whether a key opens help: F1 always; a help key that is a character
    /// (`?`) only where it would not be typed into the proposition.
    fn asks_for_help(&self, key: &KeyEvent, keymap: &KeyMap) -> bool {
        if keymap.action(key) != Some(Action::Help) {
            return false;
        }
        let typed = matches!(key.code, KeyCode::Char(_))
            && !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let nothing_typed = self.editor.as_ref().is_none_or(|area| area.lines().iter().all(String::is_empty));
        !typed || self.recent_chosen.is_some() || nothing_typed
    }

    /// A key while the recent debates have the keys.
    fn recent_key(&mut self, chosen: usize, key: KeyEvent) -> StartStep {
        let plain = !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Up => self.recent_chosen = chosen.checked_sub(1),
            KeyCode::Down => self.recent_chosen = Some((chosen + 1).min(self.recent.len().saturating_sub(1))),
            KeyCode::Enter => {
                if let Some((id, _)) = self.recent.get(chosen) {
                    return StartStep::Effects(vec![Effect::Open(id.clone())]);
                }
            }
            KeyCode::Esc => return StartStep::Effects(vec![Effect::Quit]),
            // Typing goes back to the proposition.
            KeyCode::Char(_) if plain => {
                self.recent_chosen = None;
                return self.topic_key(key);
            }
            _ => {}
        }
        StartStep::Effects(Vec::new())
    }

    /// A key while the proposition has the keys.
    fn topic_key(&mut self, key: KeyEvent) -> StartStep {
        let has_recent = !self.recent.is_empty();
        // With a document set, an empty proposition debates its own topic (a folder, a library, has none).
        let has_source = self.settings.as_ref().is_some_and(|f| {
            let source = f[SOURCE_FIELD].trim();
            !source.is_empty() && !std::path::Path::new(source).is_dir()
        });
        let Some(area) = &mut self.editor else { return StartStep::Effects(Vec::new()) };
        match editor_key(&key) {
            EditorKey::Submit => {
                let topic = area.lines().join("\n").trim().to_string();
                if topic.is_empty() && !has_source {
                    let or = if has_recent { ", or Tab to open a recent debate" } else { "" };
                    return StartStep::Warn(format!(
                        "Type a proposition first, e.g. \"Remote work beats the office\"{or}"
                    ));
                }
                StartStep::Effects(vec![Effect::Start(topic)])
            }
            EditorKey::Cancel => StartStep::Effects(vec![Effect::Quit]),
            EditorKey::Newline => {
                area.insert_newline();
                StartStep::Effects(Vec::new())
            }
            EditorKey::Edit => {
                // ↓ on the last line goes on to the recent debates.
                let last_line = area.cursor().0 + 1 >= area.lines().len();
                if key.code == KeyCode::Down && last_line && has_recent {
                    self.recent_chosen = Some(0);
                } else {
                    area.input(key);
                }
                StartStep::Effects(Vec::new())
            }
        }
    }
}
