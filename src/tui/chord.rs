//! One key as the studio's keymap matches it: a code and the Ctrl/Alt
//! modifiers, parsed from a `[keys]` line of heat.toml (`ctrl-d`, `f1`,
//! `space`) and written back as the help and the key bar show it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key as the keymap matches it: a code and the Ctrl/Alt modifiers.
/// Shift is folded into the character (`T`, `?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chord {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Chord {
    pub fn from_event(key: &KeyEvent) -> Self {
        let code = match key.code {
            KeyCode::BackTab => KeyCode::BackTab,
            KeyCode::Tab if key.modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            other => other,
        };
        Chord {
            code,
            ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
            alt: key.modifiers.contains(KeyModifiers::ALT),
        }
    }

    /// Parses `q`, `T`, `space`, `ctrl-d`, `alt-x`, `f1`, `pageup`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut rest = spec.trim();
        let (mut ctrl, mut alt) = (false, false);
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(tail) = lower.strip_prefix("ctrl-").or_else(|| lower.strip_prefix("ctrl+")) {
                ctrl = true;
                rest = &rest[rest.len() - tail.len()..];
            } else if let Some(tail) = lower.strip_prefix("alt-").or_else(|| lower.strip_prefix("alt+")) {
                alt = true;
                rest = &rest[rest.len() - tail.len()..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
            _ => named(&rest.to_ascii_lowercase()).ok_or_else(|| format!("unknown key {spec:?}"))?,
        };
        Ok(Chord { code, ctrl, alt })
    }

    /// How the help overlay and status bar write the key.
    pub fn label(&self) -> String {
        let key = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::BackTab => "shift-tab".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            other => format!("{other}").to_lowercase(),
        };
        let ctrl = if self.ctrl { "ctrl-" } else { "" };
        let alt = if self.alt { "alt-" } else { "" };
        format!("{ctrl}{alt}{key}")
    }
}

fn named(name: &str) -> Option<KeyCode> {
    Some(match name {
        "space" => KeyCode::Char(' '),
        "tab" => KeyCode::Tab,
        "backtab" | "shift-tab" => KeyCode::BackTab,
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "backspace" => KeyCode::Backspace,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "pageup" | "pgup" => KeyCode::PageUp,
        "pagedown" | "pgdn" => KeyCode::PageDown,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "delete" | "del" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        f if f.starts_with('f') => KeyCode::F(f[1..].parse().ok().filter(|n| (1..=12).contains(n))?),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_parse_and_label() {
        assert_eq!(Chord::parse("ctrl-S").expect("ok"), Chord { code: KeyCode::Char('s'), ctrl: true, alt: false });
        assert_eq!(Chord::parse("F12").expect("ok").code, KeyCode::F(12));
        assert!(Chord::parse("f13").is_err());
        assert_eq!(Chord::parse("space").expect("ok").label(), "space");
        assert_eq!(Chord::parse("alt-enter").expect("ok").label(), "alt-enter");
    }
}
