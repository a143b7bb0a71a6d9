//! Puts copied text on the clipboard of the terminal the studio runs in, by
//! OSC 52 (`ESC ] 52 ; c ; <base64> BEL`), which works over SSH, and says
//! what was copied, or where the terminal may refuse it (inside tmux or GNU
//! screen, or text past what terminals take) and how else to get the text.

use std::io::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::app::Tone;
use super::effect::Clip;

/// The most encoded bytes sent: terminals refuse or cut longer OSC 52
/// strings (xterm's default limit is about 100 kB).
pub const MOST_ENCODED: usize = 100_000;

/// What sits between the studio and the terminal that holds the clipboard.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Host {
    /// Inside tmux: OSC 52 passes only with `set-clipboard on`.
    pub tmux: bool,
    /// Inside GNU screen, which does not pass OSC 52 on.
    pub screen: bool,
}

impl Host {
    pub fn from_env() -> Host {
        let set = |var| std::env::var_os(var).is_some_and(|v| !v.is_empty());
        Host { tmux: set("TMUX"), screen: set("STY") }
    }
}

/// The escape sequence that sets the clipboard to `text`.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", STANDARD.encode(text))
}

/// Writes `clip` to the terminal's clipboard through `out`; returns the
/// sentence for the status line. `session` is the stored debate shown, for
/// the way out (`heat export ID`).
pub fn copy(out: &mut impl Write, clip: &Clip, host: Host, session: Option<&str>) -> (Tone, String) {
    let elsewhere = match session {
        Some(id) => format!("`heat export {id}` writes the debate out"),
        None => "e exports the debate as Markdown".to_string(),
    };
    let characters = clip.text.chars().count();
    let sequence = osc52(&clip.text);
    if sequence.len() > MOST_ENCODED {
        let size = clip.text.len().div_ceil(1000);
        let what = capitalised(&clip.what);
        return (Tone::Warn, format!("{what} is {size} kB, more than a terminal takes to copy; {elsewhere}"));
    }
    let written = out.write_all(sequence.as_bytes()).and_then(|()| out.flush());
    if let Err(e) = written {
        return (Tone::Error, format!("Could not copy: {e}; {elsewhere}"));
    }
    let copied = format!("Copied {}, {}", clip.what, crate::words::count(characters, "character"));
    if host.tmux {
        let note = "if tmux passes it on (`set -g set-clipboard on`)";
        return (Tone::Info, format!("{copied}, {note}; else {elsewhere}"));
    }
    if host.screen {
        return (Tone::Info, format!("{copied}, but GNU screen may keep it from the clipboard; {elsewhere}"));
    }
    (Tone::Good, copied)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(text: &str) -> Clip {
        Clip { text: text.into(), what: "the skeptic's round 2 argument".into() }
    }

    #[test]
    fn the_bytes_are_osc_52_with_the_text_in_base64() {
        let mut out = Vec::new();
        let (tone, said) = copy(&mut out, &clip("Offices build trust. ✓"), Host::default(), Some("20261123-abcd"));
        let encoded = STANDARD.encode("Offices build trust. ✓");
        assert_eq!(out, format!("\x1b]52;c;{encoded}\x07").into_bytes());
        assert_eq!(tone, Tone::Good);
        assert_eq!(said, "Copied the skeptic's round 2 argument, 22 characters");
    }

    #[test]
    fn tmux_and_screen_are_warned_of_and_too_much_text_is_not_sent() {
        let mut out = Vec::new();
        let tmux = Host { tmux: true, screen: false };
        let (_, said) = copy(&mut out, &clip("x"), tmux, Some("20261123-abcd"));
        assert!(said.contains("set -g set-clipboard on") && said.contains("`heat export 20261123-abcd`"), "{said}");
        assert!(!out.is_empty(), "it is still sent: tmux may pass it on");
        let (_, said) = copy(&mut Vec::new(), &clip("x"), Host { tmux: false, screen: true }, None);
        assert!(said.contains("GNU screen") && said.contains("e exports the debate"), "{said}");

        let mut out = Vec::new();
        let big = "word ".repeat(20_000);
        let (tone, said) = copy(&mut out, &clip(&big), Host::default(), Some("20261123-abcd"));
        assert!(out.is_empty(), "nothing is sent past the limit");
        assert_eq!(tone, Tone::Warn);
        assert!(said.starts_with("The skeptic's round 2 argument is 100 kB") && said.contains("heat export"), "{said}");
    }
}
