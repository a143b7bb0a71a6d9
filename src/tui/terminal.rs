//! Entering and leaving the full-screen terminal: raw mode, the alternate
//! screen, mouse and bracketed paste, restored on every exit path (normal
//! return, error, panic, signal) by a guard and a panic hook.

use std::io::{self, Write, stdout};

use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use ratatui::DefaultTerminal;

/// Restores the terminal when dropped.
pub struct Guard {
    pub terminal: DefaultTerminal,
}

impl Guard {
    /// Takes over the terminal; with `mouse`, also its mouse events.
    pub fn enter(mouse: bool) -> io::Result<Guard> {
        // ratatui's hook restores raw mode and the screen; ours also turns
        // the mouse and paste modes off first.
        let terminal = ratatui::try_init()?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
            previous(info);
        }));
        if mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        execute!(stdout(), EnableBracketedPaste)?;
        Ok(Guard { terminal })
    }

    /// Draws one frame inside a synchronized update, so the terminal shows
    /// it whole.
    pub fn draw(&mut self, render: impl FnOnce(&mut ratatui::Frame<'_>)) -> io::Result<()> {
        execute!(stdout(), BeginSynchronizedUpdate)?;
        let drawn = self.terminal.draw(render).map(|_| ());
        execute!(stdout(), EndSynchronizedUpdate)?;
        drawn
    }
}

/// Puts the terminal back as the shell had it.
pub fn leave() {
    let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste, crossterm::cursor::Show);
    ratatui::restore();
    let _ = stdout().flush();
}

impl Drop for Guard {
    fn drop(&mut self) {
        leave();
    }
}
