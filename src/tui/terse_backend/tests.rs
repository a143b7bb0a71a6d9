#![allow(clippy::unwrap_used)]

use std::num::NonZero;
use std::sync::{Arc, Mutex};

use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::buffer::Buffer;
use ratatui::layout::{Rect, Size};
use ratatui::style::{Color, Modifier, Style};
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::{Pen, TerseBackend};

/// A terminal's input, kept to be read back.
#[derive(Clone, Default)]
struct Tape(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Tape {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Draws `frames` one after another through `backend`; returns the screen a
/// terminal shows after each and the bytes each took.
fn play<B: Backend>(backend: B, tape: &Tape, frames: &[Buffer]) -> Vec<(vt100::Screen, usize)> {
    let area = frames[0].area;
    let mut terminal =
        Terminal::with_options(backend, TerminalOptions { viewport: Viewport::Fixed(area) }).ok().unwrap();
    let mut parser = vt100::Parser::new(NonZero::new(area.height).unwrap(), NonZero::new(area.width).unwrap(), 0);
    frames
        .iter()
        .map(|frame| {
            tape.0.lock().unwrap().clear();
            terminal.draw(|f| f.buffer_mut().content.clone_from_slice(&frame.content)).ok().unwrap();
            let bytes = tape.0.lock().unwrap().clone();
            parser.process(&bytes);
            (parser.screen().clone(), bytes.len())
        })
        .collect()
}

/// What a person sees in a cell: a blank's colour and weight do not show
/// (unless it is reversed).
fn seen(screen: &vt100::Screen, row: u16, col: u16) -> String {
    let cell = screen.cell(row, col).unwrap();
    let blank = matches!(cell.contents(), "" | " ");
    if blank && !cell.inverse() {
        return format!("blank bg {:?} underline {}", cell.bgcolor(), cell.underline());
    }
    format!(
        "{:?} fg {:?} bg {:?} bold {} dim {} italic {} underline {} inverse {}",
        cell.contents(),
        cell.fgcolor(),
        cell.bgcolor(),
        cell.bold(),
        cell.dim(),
        cell.italic(),
        cell.underline(),
        cell.inverse()
    )
}

/// Draws `frames` through ratatui's crossterm backend and this one; asserts
/// the two screens agree in every cell after every frame; returns the bytes
/// each took in all.
fn compare(frames: &[Buffer]) -> (usize, usize) {
    let size = frames[0].area.as_size();
    let (theirs_tape, ours_tape) = (Tape::default(), Tape::default());
    let theirs = play(CrosstermBackend::new(theirs_tape.clone()), &theirs_tape, frames);
    let ours = play(TerseBackend::sized(ours_tape.clone(), size), &ours_tape, frames);
    for (n, ((their_screen, _), (our_screen, _))) in theirs.iter().zip(&ours).enumerate() {
        for row in 0..size.height {
            for col in 0..size.width {
                assert_eq!(
                    seen(our_screen, row, col),
                    seen(their_screen, row, col),
                    "frame {n}, row {row}, column {col}:\n{}",
                    our_screen.contents()
                );
            }
        }
    }
    (theirs.iter().map(|(_, b)| b).sum(), ours.iter().map(|(_, b)| b).sum())
}

/// A small deterministic generator (xorshift).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())]
    }

    fn style(&mut self) -> Style {
        let fg = self.pick(&[Color::Reset, Color::Red, Color::Rgb(255, 135, 95), Color::Indexed(8), Color::Gray]);
        let bg = self.pick(&[Color::Reset, Color::Reset, Color::Reset, Color::Rgb(38, 38, 38), Color::Blue]);
        let mut modifier = Modifier::empty();
        // Bold and dim at once is where terminals differ (one intensity, or two), so never both.
        modifier |= self.pick(&[Modifier::empty(), Modifier::empty(), Modifier::BOLD, Modifier::DIM]);
        for flag in [Modifier::ITALIC, Modifier::UNDERLINED, Modifier::REVERSED, Modifier::CROSSED_OUT] {
            if self.below(5) == 0 {
                modifier |= flag;
            }
        }
        Style::default().fg(fg).bg(bg).add_modifier(modifier)
    }
}

#[test]
fn random_frames_look_the_same_as_through_ratatuis_own_backend_in_fewer_bytes() {
    let area = Rect::new(0, 0, 30, 8);
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut frame = Buffer::empty(area);
    let mut frames = Vec::new();
    for _ in 0..400 {
        for _ in 0..=dice.below(6) {
            let (x, y) = (dice.below(30) as u16, dice.below(8) as u16);
            let style = dice.style();
            match dice.below(3) {
                0 => {
                    let text: String = (0..=dice.below(12))
                        .map(|_| dice.pick(&['a', 'b', ' ', ' ', ' ', '世', '·', 'é', '🙂', 'x', '-']))
                        .collect();
                    frame.set_stringn(x, y, text, 30, style);
                }
                // A run of blanks, as a pane's cleared tail.
                1 => {
                    let width = dice.below(30) as u16;
                    frame.set_style(Rect::new(x, y, width.min(30 - x), 1), style);
                    for col in x..(x + width).min(30) {
                        frame[(col, y)].set_symbol(" ");
                    }
                }
                // The rows below move up one, as a pane that follows its text.
                _ => {
                    for row in y..7 {
                        for col in 0..30 {
                            let below = frame[(col, row + 1)].clone();
                            frame[(col, row)] = below;
                        }
                    }
                }
            }
        }
        // Patched styles add up: keep bold and dim apart here too.
        for cell in &mut frame.content {
            if cell.modifier.contains(Modifier::BOLD | Modifier::DIM) {
                cell.modifier.remove(Modifier::DIM);
            }
        }
        frames.push(frame.clone());
    }
    let (theirs, ours) = compare(&frames);
    assert!(ours < theirs, "{ours} bytes against ratatui's {theirs}");
}

/// Two panes side by side, each a word longer every frame, the view moving
/// by half a pane when the text reaches the bottom: as the studio streams.
#[test]
fn two_streaming_panes_take_far_fewer_bytes_than_through_ratatuis_own_backend() {
    let area = Rect::new(0, 0, 80, 20);
    // Each line's words, every fifth one bold.
    let mut lines: [Vec<Vec<(String, bool)>>; 2] = [vec![Vec::new()], vec![Vec::new()]];
    let mut frames = Vec::new();
    for n in 0..300 {
        let mut frame = Buffer::empty(area);
        for (pane, text) in lines.iter_mut().enumerate() {
            for word in 0..3 {
                let number = n * 3 + word;
                let word = format!("word{number} ");
                let width: usize = text.last().unwrap().iter().map(|(w, _)| w.len()).sum();
                if width + word.len() > 38 {
                    text.push(Vec::new());
                }
                text.last_mut().unwrap().push((word, number % 5 == 0));
            }
            let top = text.len().saturating_sub(20).div_ceil(10) * 10;
            let style =
                Style::default().fg(if pane == 0 { Color::Rgb(255, 135, 95) } else { Color::Rgb(95, 175, 255) });
            for (row, line) in text.iter().skip(top).take(20).enumerate() {
                let mut x = pane as u16 * 41;
                for (word, bold) in line {
                    let style = if *bold { style.add_modifier(Modifier::BOLD) } else { style };
                    frame.set_stringn(x, row as u16, word, 39, style);
                    x += word.len() as u16;
                }
            }
        }
        for row in 0..20 {
            frame[(40, row)].set_symbol("│");
        }
        frames.push(frame);
    }
    let (theirs, ours) = compare(&frames);
    assert!(ours * 5 < theirs * 4, "{ours} bytes against ratatui's {theirs}: not 20 % fewer");
}

#[test]
fn a_pen_changes_in_one_sequence_and_clears_only_what_it_drops() {
    let pen = |fg, modifier| Pen { fg, bg: Color::Reset, underline: Color::Reset, modifier };
    let change = |from: Pen, to: Pen| {
        let mut out = Vec::new();
        from.change_to(to, &mut out);
        String::from_utf8(out).unwrap()
    };
    let plain = Pen::PLAIN;
    assert_eq!(change(plain, pen(Color::Red, Modifier::BOLD)), "\x1b[1;38;5;1m");
    assert_eq!(
        change(pen(Color::Reset, Modifier::BOLD | Modifier::DIM), pen(Color::Reset, Modifier::DIM)),
        "\x1b[22;2m"
    );
    assert_eq!(change(pen(Color::Rgb(1, 2, 3), Modifier::ITALIC), plain), "\x1b[23;39m");
    assert_eq!(change(plain, plain), "", "no change, no bytes");
}

/// The bytes the second of two frames takes, each frame one row of text.
fn second_frame(before: &str, after: &str) -> String {
    let frame = |text: &str| {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 40, 1));
        buffer.set_string(0, 0, text, Style::default());
        buffer
    };
    let tape = Tape::default();
    play(TerseBackend::sized(tape.clone(), Size::new(40, 1)), &tape, &[frame(before), frame(after)]);
    String::from_utf8(tape.0.lock().unwrap().clone()).unwrap().replace("\x1b[?25l", "").replace("\x1b[?25h", "")
}

#[test]
fn a_short_unchanged_run_is_written_again_a_long_one_jumped_and_blanks_erased() {
    assert_eq!(second_frame("", "ab cd"), "\x1b[1;1Hab cd", "the space between costs one byte, not a cursor move");
    assert_eq!(
        second_frame("", "ab                  cd"),
        "\x1b[1;1Hab\x1b[21Gcd",
        "a long gap is jumped along the row"
    );
    assert_eq!(second_frame(&"x".repeat(30), ""), "\x1b[1;1H\x1b[30X", "thirty blanks in one erase");
    assert_eq!(second_frame("xxx", ""), "\x1b[1;1H   ", "three blanks are cheaper written");
    assert_eq!(
        second_frame("aa bb cc dd ee ff gg hh", ""),
        "\x1b[1;1H\x1b[23X",
        "a line's words erased at once, the blanks between them with them"
    );
}

/// One pane the width of the screen, framed, a few words longer every
/// frame, following its text by `lines` (1: line by line; 8: by half a
/// pane): as the studio streams at 80×24.
fn one_framed_pane(step: usize) -> Vec<Buffer> {
    let area = Rect::new(0, 0, 80, 24);
    let mut text: Vec<String> = vec![String::new()];
    let mut frames = Vec::new();
    for n in 0..400 {
        for word in 0..3 {
            let word = format!("word{} ", n * 3 + word);
            if text.last().unwrap().len() + word.len() > 76 {
                text.push(String::new());
            }
            text.last_mut().unwrap().push_str(&word);
        }
        let mut frame = Buffer::empty(area);
        frame.set_string(
            0,
            0,
            format!("┏ Advocate · streaming {}┓", "━".repeat(55)),
            Style::default().fg(Color::Yellow),
        );
        let top = text.len().saturating_sub(16).div_ceil(step) * step;
        for row in 0..16u16 {
            frame.set_string(0, row + 1, "┃", Style::default().fg(Color::Yellow));
            frame.set_string(79, row + 1, "┃", Style::default().fg(Color::Yellow));
            if let Some(line) = text.get(top + usize::from(row)) {
                frame.set_string(2, row + 1, line, Style::default().fg(Color::Rgb(255, 135, 95)));
            }
        }
        frame.set_string(0, 17, format!("┗{}┛", "━".repeat(78)), Style::default().fg(Color::Yellow));
        frame.set_string(0, 23, format!("tokens {}", n * 3), Style::default());
        frames.push(frame);
    }
    frames
}

#[test]
fn a_full_width_pane_that_follows_its_text_is_scrolled_by_the_terminal() {
    let (theirs, ours) = compare(&one_framed_pane(8));
    assert!(ours * 10 < theirs * 6, "by half a pane: {ours} bytes against ratatui's {theirs}: not 40 % fewer");
    let (theirs, ours) = compare(&one_framed_pane(1));
    assert!(ours * 4 < theirs, "line by line: {ours} bytes against ratatui's {theirs}: not a quarter");
}
