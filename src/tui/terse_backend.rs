//! The studio's ratatui backend: ratatui's crossterm backend for everything
//! but writing a frame's changed cells, which it does in fewer bytes. It
//! keeps what the terminal shows, so a short run of unchanged cells between
//! two changed ones is written again instead of jumped over (the space
//! between two streamed words costs one byte, not a cursor move of eight);
//! it erases a long run of blanks with one `ECH`; it moves along a row with
//! `CHA`; it sets a cell's attributes and colours in one SGR sequence; and
//! a frame that is mostly the screen moved up is scrolled by the terminal.
//! What the terminal shows is the same as through ratatui's own backend
//! (its tests compare the two screens cell by cell).

use std::io::{self, Write};

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

use shown::{Shift, Shown, lead_cells};

/// Writes frames in few bytes; hands the rest to ratatui's crossterm backend.
pub struct TerseBackend<W: Write> {
    inner: CrosstermBackend<W>,
    shown: Shown,
    /// A frame's bytes, gathered before the one write.
    out: Vec<u8>,
}

impl<W: Write> TerseBackend<W> {
    /// A backend for the terminal `writer` draws on, blank as ratatui
    /// assumes a new screen to be.
    pub fn new(writer: W) -> Self {
        let size = crossterm::terminal::size().map(Size::from).unwrap_or_default();
        Self::sized(writer, size)
    }

    /// A backend for a screen of `size`, blank.
    fn sized(writer: W, size: Size) -> Self {
        TerseBackend { inner: CrosstermBackend::new(writer), shown: Shown::blank(size), out: Vec::new() }
    }
}

impl<W: Write> Write for TerseBackend<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

/// The attributes and colours text is written with.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    underline: Color,
    modifier: Modifier,
}

/// Each attribute's SGR code to set it and to clear it (bold and dim share
/// one, as do the two blinks).
const ATTRIBUTES: [(Modifier, u8, u8); 9] = [
    (Modifier::BOLD, 1, 22),
    (Modifier::DIM, 2, 22),
    (Modifier::ITALIC, 3, 23),
    (Modifier::UNDERLINED, 4, 24),
    (Modifier::SLOW_BLINK, 5, 25),
    (Modifier::RAPID_BLINK, 6, 25),
    (Modifier::REVERSED, 7, 27),
    (Modifier::HIDDEN, 8, 28),
    (Modifier::CROSSED_OUT, 9, 29),
];

impl Pen {
    /// What a terminal writes with after a reset.
    const PLAIN: Pen = Pen { fg: Color::Reset, bg: Color::Reset, underline: Color::Reset, modifier: Modifier::empty() };

    fn of(cell: &buffer::Cell) -> Pen {
        Pen { fg: cell.fg, bg: cell.bg, underline: cell.underline_color, modifier: cell.modifier }
    }

    /// Whether a blank in this pen looks like an erased cell: no background
    /// of its own and nothing drawn across a blank.
    fn erases(self) -> bool {
        self.bg == Color::Reset
            && !self.modifier.intersects(Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT)
    }

    /// The one SGR sequence that changes the pen from `self` to `to`.
    fn change_to(self, to: Pen, out: &mut Vec<u8>) {
        if self == to {
            return;
        }
        let mut params = Params::default();
        let removed = self.modifier - to.modifier;
        let mut cleared = Modifier::empty();
        for (flag, _, off) in ATTRIBUTES {
            if removed.contains(flag) && !cleared.contains(flag) {
                params.num(off);
                // The same code clears the attribute it shares.
                for (other, _, other_off) in ATTRIBUTES {
                    if other_off == off {
                        cleared |= other;
                    }
                }
            }
        }
        let kept = self.modifier - cleared;
        for (flag, on, _) in ATTRIBUTES {
            if to.modifier.contains(flag) && !kept.contains(flag) {
                params.num(on);
            }
        }
        for (from, into, base) in [(self.fg, to.fg, 30), (self.bg, to.bg, 40), (self.underline, to.underline, 50)] {
            if from != into {
                params.color(into, base);
            }
        }
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(&params.0);
        out.push(b'm');
    }
}

/// An SGR sequence's parameters, `;` between them.
#[derive(Default)]
struct Params(Vec<u8>);

impl Params {
    fn num(&mut self, n: impl Into<u32>) {
        if !self.0.is_empty() {
            self.0.push(b';');
        }
        push_decimal(&mut self.0, n.into());
    }

    /// `color` as the foreground (`base` 30), background (40) or underline
    /// (50) colour: named colours by their 256-colour index, as crossterm
    /// writes them.
    fn color(&mut self, color: Color, base: u8) {
        let index = match color {
            Color::Reset => return self.num(base + 9),
            Color::Rgb(r, g, b) => {
                for n in [base + 8, 2, r, g, b] {
                    self.num(n);
                }
                return;
            }
            Color::Indexed(i) => i,
            Color::Black => 0,
            Color::Red => 1,
            Color::Green => 2,
            Color::Yellow => 3,
            Color::Blue => 4,
            Color::Magenta => 5,
            Color::Cyan => 6,
            Color::Gray => 7,
            Color::DarkGray => 8,
            Color::LightRed => 9,
            Color::LightGreen => 10,
            Color::LightYellow => 11,
            Color::LightBlue => 12,
            Color::LightMagenta => 13,
            Color::LightCyan => 14,
            Color::White => 15,
        };
        for n in [base + 8, 5, index] {
            self.num(n);
        }
    }
}

/// A control sequence: `ESC [`, the `params` with `;` between them, then
/// `last`.
fn csi(out: &mut Vec<u8>, params: &[u32], last: u8) {
    out.extend_from_slice(b"\x1b[");
    for (i, &n) in params.iter().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        push_decimal(out, n);
    }
    out.push(last);
}

fn push_decimal(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

fn decimal_len(n: u16) -> usize {
    match n {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        1000..=9999 => 4,
        _ => 5,
    }
}

/// The bytes of `CHA` to column `x`.
fn cha_len(x: u16) -> usize {
    3 + decimal_len(x.saturating_add(1))
}

/// One frame being written: the bytes, the pen and where the cursor is
/// (unknown at first, and after a character that is not one column wide).
struct Writing<'a> {
    out: &'a mut Vec<u8>,
    pen: Pen,
    cursor: Option<Position>,
}

impl Writing<'_> {
    /// Puts the cursor at (`x`, `y`) in as few bytes as it can: where it
    /// is, by writing again the cells between, along the row, or anywhere.
    fn move_to(&mut self, x: u16, y: u16, shown: &Shown) {
        let at = Position { x, y };
        match self.cursor {
            Some(c) if c == at => return,
            Some(c) if c.y == y && c.x < x => {
                let short = usize::from(x - c.x) <= cha_len(x);
                match short.then(|| shown.run_matching(c.x, x, y, |s| writes_again(s, self.pen))).flatten() {
                    Some(cells) => {
                        for cell in cells {
                            self.out.extend_from_slice(cell.symbol().as_bytes());
                        }
                    }
                    None => self.cha(x),
                }
            }
            Some(c) if c.y == y => self.cha(x),
            _ => csi(self.out, &[u32::from(y) + 1, u32::from(x) + 1], b'H'),
        }
        self.cursor = Some(at);
    }

    fn cha(&mut self, x: u16) {
        csi(self.out, &[u32::from(x) + 1], b'G');
    }

    fn pen(&mut self, to: Pen) {
        self.pen.change_to(to, self.out);
        self.pen = to;
    }
}

/// Whether writing `cell` again, in `pen`, shows it as it is: one printable
/// ASCII character in that pen.
fn writes_again(cell: &buffer::Cell, pen: Pen) -> bool {
    matches!(cell.symbol().as_bytes(), [b' '..=b'~']) && Pen::of(cell) == pen
}

/// A run of blanks to erase at once: how many of the frame's updates it
/// takes, and the columns it spans (an unchanged cell between two of them
/// counts when it shows a blank that erasing draws alike).
struct Blanks {
    updates: usize,
    end: u16,
}

/// The run of blanks at the start of `updates`, in the first one's pen,
/// where erasing draws them alike; `None` when the first is not one.
fn blanks(updates: &[(u16, u16, &buffer::Cell)], shown: &Shown) -> Option<Blanks> {
    let &(x, y, first) = updates.first()?;
    let pen = Pen::of(first);
    if first.symbol() != " " || !pen.erases() {
        return None;
    }
    let mut run = Blanks { updates: 0, end: x };
    for &(ux, uy, cell) in updates {
        let between_blank =
            ux > run.end && shown.run_matching(run.end, ux, uy, |c| c.symbol() == " " && Pen::of(c).erases()).is_some();
        let joins = uy == y && (ux == run.end || between_blank);
        if !joins || cell.symbol() != " " || Pen::of(cell) != pen {
            break;
        }
        run = Blanks { updates: run.updates + 1, end: ux + 1 };
    }
    Some(run)
}

/// Whether erasing the run from `x` to `end` on row `y` costs fewer bytes
/// than writing it, counting the cursor move to `next` that erasing needs.
fn erasing_pays(x: u16, end: u16, y: u16, next: Option<&(u16, u16, &buffer::Cell)>) -> bool {
    let back = match next {
        Some(&(nx, ny, _)) if ny == y => cha_len(nx),
        _ => 0,
    };
    3 + decimal_len(end - x) + back < usize::from(end - x)
}

/// Scrolls rows `shift.top..shift.bottom` up `shift.lines` with a scroll
/// region, blank rows coming in below in the plain pen.
fn scroll(out: &mut Vec<u8>, shift: Shift) {
    csi(out, &[u32::from(shift.top) + 1, u32::from(shift.bottom)], b'r');
    csi(out, &[u32::from(shift.lines)], b'S');
    csi(out, &[], b'r');
}

/// What is left to write once the terminal has scrolled `shift`: the
/// frame's cells outside it, and inside it each cell the scroll did not
/// put in place (`region`: the rows it spans, as the frame has them).
fn after_scroll<'a>(
    updates: &[(u16, u16, &'a buffer::Cell)],
    shift: Shift,
    region: &'a [Vec<buffer::Cell>],
    shown: &Shown,
) -> Vec<(u16, u16, &'a buffer::Cell)> {
    let mut left = Vec::with_capacity(updates.len());
    left.extend(updates.iter().filter(|u| u.1 < shift.top).copied());
    for (row, y) in region.iter().zip(shift.top..) {
        left.extend(lead_cells(row).filter(|&(x, cell)| shown.get(x, y) != Some(cell)).map(|(x, cell)| (x, y, cell)));
    }
    left.extend(updates.iter().filter(|u| u.1 >= shift.bottom).copied());
    left
}

impl<W: Write> Backend for TerseBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a buffer::Cell)>,
    {
        let updates: Vec<(u16, u16, &buffer::Cell)> = content.collect();
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        // A change of several rows' worth may be rows moved up: the
        // terminal moves them (looked for only then: it hashes the screen).
        let shifted =
            (updates.len() >= 4 * usize::from(self.shown.size.width)).then(|| self.shown.shifted(&updates)).flatten();
        let updates = match &shifted {
            Some((shift, region)) => {
                scroll(&mut out, *shift);
                self.shown.scroll(*shift);
                after_scroll(&updates, *shift, region, &self.shown)
            }
            None => updates,
        };
        let mut writing = Writing { out: &mut out, pen: Pen::PLAIN, cursor: None };
        let mut i = 0;
        while let Some(&(x, y, cell)) = updates.get(i) {
            if let Some(run) = blanks(&updates[i..], &self.shown)
                && erasing_pays(x, run.end, y, updates.get(i + run.updates))
            {
                writing.move_to(x, y, &self.shown);
                writing.pen(Pen::of(cell));
                csi(writing.out, &[u32::from(run.end - x)], b'X');
                for bx in x..run.end {
                    self.shown.set(bx, y, cell, 1);
                }
                i += run.updates;
                continue;
            }
            writing.move_to(x, y, &self.shown);
            writing.pen(Pen::of(cell));
            writing.out.extend_from_slice(cell.symbol().as_bytes());
            let width = u16::try_from(cell.symbol().width()).unwrap_or(u16::MAX);
            self.shown.set(x, y, cell, width);
            // Past the last column the terminal waits to wrap; wider
            // characters are where terminals disagree: move explicitly.
            writing.cursor = (width == 1 && x + 1 < self.shown.size.width).then_some(Position { x: x + 1, y });
            i += 1;
        }
        if writing.pen != Pen::PLAIN {
            csi(&mut out, &[0], b'm');
        }
        let written = self.inner.write_all(&out);
        self.out = out;
        written
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.shown.forget();
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)?;
        match clear_type {
            ClearType::All => {
                let size = self.inner.size().unwrap_or(self.shown.size);
                self.shown = Shown::blank(size);
            }
            _ => self.shown.forget(),
        }
        Ok(())
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

mod shown;
#[cfg(test)]
mod tests;
