//! The start screen's keys: the proposition editor (Enter starts the
//! debate), the recent debates (Tab, or ↓ past the proposition's last line,
//! reaches them; ↑/↓ choose, Enter opens one and continues it when it can go
//! on), help (F1, or `?` while there is no proposition to type it into), the
//! settings for the next debate (F2), and the offline model's install
//! (Ctrl-O) when the screen offers it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Tone};
use super::effect::Effect;
use super::help::HelpView;
use super::input::{EditorKey, editor_key};
use super::install::InstallState;
use super::keymap::Action;
use super::modal::Modal;

impl App {
    pub(super) fn start_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let ctrl_o = key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('o');
        if ctrl_o && self.install.as_ref().is_some_and(InstallState::can_start) {
            return vec![Effect::InstallModel];
        }
        if key.code == KeyCode::F(2) {
            self.open_settings();
            return Vec::new();
        }
        if self.asks_for_help(&key) {
            self.modal = Some(Modal::Help(HelpView::default()));
            return Vec::new();
        }
        if matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
            self.recent_chosen = match self.recent_chosen {
                Some(_) => None,
                None => (!self.recent.is_empty()).then_some(0),
            };
            return Vec::new();
        }
        match self.recent_chosen {
            Some(chosen) => self.recent_key(chosen, key),
            None => self.topic_key(key),
        }
    }

    /// Whether a key opens help: F1 always; a help key that is a character
    /// (`?`) only where it would not be typed into the proposition.
    fn asks_for_help(&self, key: &KeyEvent) -> bool {
        if self.keymap.action(key) != Some(Action::Help) {
            return false;
        }
        let typed = matches!(key.code, KeyCode::Char(_))
            && !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let nothing_typed = self.start.as_ref().is_none_or(|area| area.lines().iter().all(String::is_empty));
        !typed || self.recent_chosen.is_some() || nothing_typed
    }

    /// A key while the recent debates have the keys.
    fn recent_key(&mut self, chosen: usize, key: KeyEvent) -> Vec<Effect> {
        let plain = !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match key.code {
            KeyCode::Up => self.recent_chosen = chosen.checked_sub(1),
            KeyCode::Down => self.recent_chosen = Some((chosen + 1).min(self.recent.len().saturating_sub(1))),
            KeyCode::Enter => {
                if let Some((id, _)) = self.recent.get(chosen) {
                    return vec![Effect::Open(id.clone())];
                }
            }
            KeyCode::Esc => return vec![Effect::Quit],
            // Typing goes back to the proposition.
            KeyCode::Char(_) if plain => {
                self.recent_chosen = None;
                return self.topic_key(key);
            }
            _ => {}
        }
        Vec::new()
    }

    /// A key while the proposition has the keys.
    fn topic_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let has_recent = !self.recent.is_empty();
        // With a document set, an empty proposition debates its own topic.
        let has_source = self.settings.as_ref().is_some_and(|f| !f[super::settings::SOURCE_FIELD].trim().is_empty());
        let Some(area) = &mut self.start else { return Vec::new() };
        match editor_key(&key) {
            EditorKey::Submit => {
                let topic = area.lines().join("\n").trim().to_string();
                if topic.is_empty() && !has_source {
                    let or = if has_recent { ", or Tab to open a recent debate" } else { "" };
                    self.say(
                        Tone::Warn,
                        format!("Type a proposition first, e.g. \"Remote work beats the office\"{or}"),
                    );
                    return Vec::new();
                }
                vec![Effect::Start(topic)]
            }
            EditorKey::Cancel => vec![Effect::Quit],
            EditorKey::Newline => {
                area.insert_newline();
                Vec::new()
            }
            EditorKey::Edit => {
                // ↓ on the last line goes on to the recent debates.
                let last_line = area.cursor().0 + 1 >= area.lines().len();
                if key.code == KeyCode::Down && last_line && has_recent {
                    self.recent_chosen = Some(0);
                } else {
                    area.input(key);
                }
                Vec::new()
            }
        }
    }
}
