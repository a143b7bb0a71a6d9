//! The printer's one column of text: one debater's argument shown live as
//! it streams while the others' are held back and shown when the live one
//! ends, so their words never interleave; notes that come mid-line wait
//! for the line's end.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::super::style::Style;
use super::super::wrap::Wrapper;
use crate::debate::Role;
use crate::debate::state::DebateState;

/// A role's text that is not shown yet.
#[derive(Default)]
pub(super) struct Held {
    pub(super) text: String,
    pub(super) done: bool,
}

/// The column the printer writes to; see the module docs.
pub(super) struct Stage<W: Write> {
    pub(super) out: W,
    pub(super) style: Style,
    /// The debater whose text is shown as it comes.
    pub(super) live: Option<Role>,
    pub(super) held: BTreeMap<Role, Held>,
    wrapper: Option<Wrapper>,
    /// Notes that came while a debater's text was mid-line, shown when it
    /// ends, each with its colour.
    pending_notes: Vec<(&'static str, String)>,
}

impl<W: Write> Stage<W> {
    pub(super) fn new(out: W, style: Style) -> Self {
        Self {
            out,
            style,
            live: None,
            held: BTreeMap::new(),
            wrapper: style.width.map(Wrapper::new),
            pending_notes: Vec::new(),
        }
    }

    /// A whole line in the colour `code`, after `gap`.
    pub(super) fn painted(&mut self, gap: &str, code: &str, text: &str) -> io::Result<()> {
        writeln!(self.out, "{gap}{}", self.style.paint(code, text))
    }

    pub(super) fn heading(&self, state: &DebateState, role: Role) -> String {
        self.style.paint(role.seat().ansi, &format!("▌ {}", state.label(role)))
    }

    /// Writes a whole line of prose, wrapped like the arguments.
    pub(super) fn line(&mut self, text: &str) -> io::Result<()> {
        if let Some(w) = &mut self.wrapper {
            w.reset();
        }
        self.write_text(text)?;
        self.end_text()
    }

    /// Writes a role's heading and starts wrapping on a fresh line.
    pub(super) fn start_text(&mut self, state: &DebateState, role: Role, gap: &str) -> io::Result<()> {
        if let Some(w) = &mut self.wrapper {
            w.reset();
        }
        writeln!(self.out, "{gap}{}", self.heading(state, role))
    }

    /// Writes argument text, wrapped when a width is set.
    pub(super) fn write_text(&mut self, text: &str) -> io::Result<()> {
        match &mut self.wrapper {
            Some(w) => {
                let wrapped = w.push(text);
                write!(self.out, "{wrapped}")
            }
            None => write!(self.out, "{text}"),
        }
    }

    /// Ends the text being written with a newline.
    pub(super) fn end_text(&mut self) -> io::Result<()> {
        let rest = self.wrapper.as_mut().map(Wrapper::finish).unwrap_or_default();
        writeln!(self.out, "{rest}")
    }

    /// A note line (a retry, a failure, a notice: every line said beside the
    /// arguments); while a debater's text is mid-line it waits for the text
    /// to end, so no notice ever breaks a streaming line.
    pub(super) fn note(&mut self, line: &str) -> io::Result<()> {
        self.note_in("33", line)
    }

    /// A note line in the colour `code` (31: a failure), waiting as [`Self::note`] does.
    pub(super) fn note_in(&mut self, code: &'static str, line: &str) -> io::Result<()> {
        if self.live.is_some() {
            self.pending_notes.push((code, line.to_string()));
            return Ok(());
        }
        writeln!(self.out, "{}", self.style.paint(code, line))
    }

    /// Shows the notes that waited for a debater's text to end.
    pub(super) fn flush_notes(&mut self) -> io::Result<()> {
        for (code, line) in std::mem::take(&mut self.pending_notes) {
            writeln!(self.out, "{}", self.style.paint(code, &line))?;
        }
        Ok(())
    }

    pub(super) fn debater_text(&mut self, state: &DebateState, role: Role, text: &str) -> io::Result<()> {
        if self.live.is_none() {
            self.live = Some(role);
            self.start_text(state, role, "\n")?;
        }
        if self.live == Some(role) {
            self.write_text(text)
        } else {
            self.held.entry(role).or_default().text.push_str(text);
            Ok(())
        }
    }

    pub(super) fn debater_done(&mut self, state: &DebateState, role: Role) -> io::Result<()> {
        if self.live != Some(role) {
            self.held.entry(role).or_default().done = true;
            return Ok(());
        }
        self.end_text()?;
        self.live = None;
        self.flush_notes()?;
        // Hand the stage to a debater that was held back.
        let Some((&next, _)) = self.held.iter().find(|(_, h)| !h.text.is_empty() || h.done) else {
            return Ok(());
        };
        let held = self.held.remove(&next).unwrap_or_default();
        self.live = Some(next);
        self.start_text(state, next, "\n")?;
        self.write_text(&held.text)?;
        if held.done { self.debater_done(state, next) } else { Ok(()) }
    }

    /// Shows anything still held (before the judge speaks or at the end).
    pub(super) fn settle_debaters(&mut self, state: &DebateState) -> io::Result<()> {
        if let Some(live) = self.live.take() {
            self.end_text()?;
            self.held.remove(&live);
        }
        self.flush_notes()?;
        let held = std::mem::take(&mut self.held);
        for (role, h) in held {
            if !h.text.is_empty() {
                self.start_text(state, role, "\n")?;
                self.write_text(&h.text)?;
                self.end_text()?;
            }
        }
        Ok(())
    }
}
