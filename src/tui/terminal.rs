//! Entering and leaving the full-screen terminal: raw mode, the alternate
//! screen, mouse and bracketed paste, restored on every exit path (normal
//! return, error, panic, signal) by a guard and a panic hook.

use std::io::{self, BufWriter, Stdout, Write, stdout};

use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen};
use crossterm::{execute, queue};
use ratatui::Terminal;

use super::terse_backend::TerseBackend;

/// The studio's screen: a frame goes out in few bytes (`TerseBackend`), and
/// its escape sequences gather in one buffer and reach the terminal in one
/// write when it is flushed (through `Stdout` alone, every cursor move was
/// a call of its own, and every newline a write: with six panes streaming,
/// more CPU than drawing the frame).
pub type Screen = Terminal<TerseBackend<BufWriter<Stdout>>>;

/// A frame's output fits here in one write at 200×50.
const FRAME_BUFFER: usize = 1 << 16;

/// Restores the terminal when dropped.
pub struct Guard {
    pub terminal: Screen,
}

impl Guard {
    /// Takes over the terminal; with `mouse`, also its mouse events.
    pub fn enter(mouse: bool) -> io::Result<Guard> {
        // Restored by the hook on a panic: the mouse and paste modes off,
        // then raw mode and the alternate screen (ratatui's restore).
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture, DisableBracketedPaste);
            ratatui::restore();
            previous(info);
        }));
        crossterm::terminal::enable_raw_mode()?;
        let screen = execute!(stdout(), EnterAlternateScreen)
            .and_then(|()| Terminal::new(TerseBackend::new(BufWriter::with_capacity(FRAME_BUFFER, stdout()))));
        let guard = match screen {
            Ok(terminal) => Guard { terminal },
            Err(e) => {
                leave();
                return Err(e);
            }
        };
        // From here the guard restores the terminal, whatever fails.
        if mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        execute!(stdout(), EnableBracketedPaste)?;
        Ok(guard)
    }

    /// Draws one frame inside a synchronized update, so the terminal shows
    /// it whole; the frame goes out in one write.
    pub fn draw(&mut self, render: impl FnOnce(&mut ratatui::Frame<'_>)) -> io::Result<()> {
        queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)?;
        let drawn = self.terminal.draw(render).map(|_| ());
        execute!(self.terminal.backend_mut(), EndSynchronizedUpdate)?;
        drawn
    }
}

impl Guard {
    /// Hands the terminal to another program (the person's `$EDITOR`),
    /// as the shell had it, and takes it back once `run` returns.
    pub fn lend<T>(&mut self, mouse: bool, run: impl FnOnce() -> T) -> io::Result<T> {
        leave();
        let out = run();
        crossterm::terminal::enable_raw_mode()?;
        let blank = crossterm::terminal::Clear(crossterm::terminal::ClearType::All);
        execute!(stdout(), EnterAlternateScreen, blank, EnableBracketedPaste)?;
        if mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        // A screen of its own, as blank as the one just cleared: the next frame is drawn whole.
        self.terminal = Terminal::new(TerseBackend::new(BufWriter::with_capacity(FRAME_BUFFER, stdout())))?;
        Ok(out)
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
