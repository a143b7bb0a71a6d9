//! What the terminal shows, cell by cell, as far as the backend knows, and
//! whether a frame is mostly what it shows moved up some rows (a pane that
//! follows its text): then the terminal scrolls those rows itself and only
//! what differs after the scroll is written.

use std::hash::{Hash, Hasher};

use ratatui::buffer;
use ratatui::layout::Size;
use unicode_width::UnicodeWidthStr;

/// A cell the backend cannot vouch for (the right half of a wide
/// character, anything after a clear it did not see): its symbol is empty,
/// and it is never written again from here.
const UNKNOWN: buffer::Cell = buffer::Cell::new("");

/// What the terminal shows.
pub(super) struct Shown {
    pub size: Size,
    cells: Vec<buffer::Cell>,
}

/// Rows `top..bottom` of the screen moved up `lines`: what the terminal
/// does with a scroll region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shift {
    pub top: u16,
    pub bottom: u16,
    pub lines: u16,
}

/// The fewest rows' worth of changed cells a shift must bring into place
/// to be worth its bytes.
const WORTH_SHIFTING: usize = 2;

impl Shown {
    pub fn blank(size: Size) -> Shown {
        Shown { size, cells: vec![buffer::Cell::EMPTY; usize::from(size.width) * usize::from(size.height)] }
    }

    pub fn forget(&mut self) {
        self.cells.fill(UNKNOWN);
    }

    pub fn index(&self, x: u16, y: u16) -> Option<usize> {
        (x < self.size.width && y < self.size.height)
            .then(|| usize::from(y) * usize::from(self.size.width) + usize::from(x))
    }

    pub fn get(&self, x: u16, y: u16) -> Option<&buffer::Cell> {
        self.index(x, y).map(|at| &self.cells[at])
    }

    /// `cell` now shows at (`x`, `y`), `width` columns wide.
    pub fn set(&mut self, x: u16, y: u16, cell: &buffer::Cell, width: u16) {
        let Some(at) = self.index(x, y) else { return };
        self.cells[at].clone_from(cell);
        let covered = usize::from(width.min(self.size.width - x));
        for right in &mut self.cells[at + 1..at + covered.max(1)] {
            *right = UNKNOWN;
        }
    }

    /// The cells from `from` to `to` on row `y`, when each is `like`.
    pub fn run_matching(
        &self,
        from: u16,
        to: u16,
        y: u16,
        like: impl Fn(&buffer::Cell) -> bool,
    ) -> Option<&[buffer::Cell]> {
        let (start, end) = (self.index(from, y)?, self.index(to - 1, y)? + 1);
        let cells = &self.cells[start..end];
        cells.iter().all(like).then_some(cells)
    }

    fn row(&self, y: u16) -> &[buffer::Cell] {
        let width = usize::from(self.size.width);
        &self.cells[usize::from(y) * width..(usize::from(y) + 1) * width]
    }

    /// The terminal scrolled `shift`: its rows moved up, blank rows below.
    pub fn scroll(&mut self, shift: Shift) {
        let width = usize::from(self.size.width);
        let (top, bottom, lines) = (usize::from(shift.top), usize::from(shift.bottom), usize::from(shift.lines));
        self.cells[top * width..bottom * width].rotate_left(lines * width);
        self.cells[(bottom - lines) * width..bottom * width].fill(buffer::Cell::EMPTY);
    }

    /// The rows `updates` change, each whole: what is shown with the
    /// frame's cells put in (`None` for a row the frame leaves as it is),
    /// and how many cells each changes.
    fn rows_after(&self, updates: &[(u16, u16, &buffer::Cell)]) -> (Vec<Option<Vec<buffer::Cell>>>, Vec<usize>) {
        let height = usize::from(self.size.height);
        let (mut rows, mut changed) = (vec![None; height], vec![0; height]);
        for &(x, y, cell) in updates {
            let Some(row) = rows.get_mut(usize::from(y)) else { continue };
            let row = row.get_or_insert_with(|| self.row(y).to_vec());
            if let Some(at) = row.get_mut(usize::from(x)) {
                at.clone_from(cell);
                changed[usize::from(y)] += 1;
            }
        }
        (rows, changed)
    }

    /// Whether the frame `updates` make is mostly what is shown moved up
    /// some rows: the shift, with the rows it spans as the frame has them,
    /// when the rows it puts in place hold at least two rows' worth of the
    /// frame's changes and every cell it would move is known.
    pub fn shifted(&self, updates: &[(u16, u16, &buffer::Cell)]) -> Option<(Shift, Vec<Vec<buffer::Cell>>)> {
        let (rows, changed) = self.rows_after(updates);
        let shift = self.shift_to(&rows, &changed)?;
        let region = (shift.top..shift.bottom)
            .map(|y| {
                let row = rows[usize::from(y)].clone().unwrap_or_else(|| self.row(y).to_vec());
                known(&row).then_some(row)
            })
            .collect::<Option<Vec<_>>>()?;
        Some((shift, region))
    }

    /// The shift that puts the most of the frame's changed cells in place.
    fn shift_to(&self, rows: &[Option<Vec<buffer::Cell>>], changed: &[usize]) -> Option<Shift> {
        let hash = |cells: &[buffer::Cell]| {
            let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
            cells.hash(&mut hasher);
            hasher.finish()
        };
        let height = rows.len();
        let shown: Vec<u64> = (0..self.size.height).map(|y| hash(self.row(y))).collect();
        let wanted: Vec<Option<u64>> = rows.iter().map(|r| r.as_deref().map(hash)).collect();
        let (shown, wanted) = (&shown, &wanted);
        // For each distance, the changed rows a shift by it puts in place.
        let placed =
            |lines: usize| (0..height - lines).filter(move |&y| wanted[y].is_some_and(|h| h == shown[y + lines]));
        let worth = |lines: usize| placed(lines).map(|y| changed[y]).sum::<usize>();
        let lines = (1..height).max_by_key(|&lines| worth(lines))?;
        if worth(lines) < WORTH_SHIFTING * usize::from(self.size.width) {
            return None;
        }
        let first = placed(lines).next()?;
        let last = placed(lines).next_back()?;
        // Hashes can collide: the rows are compared before anything moves.
        let exact = placed(lines).all(|y| rows[y].as_deref() == Some(self.row((y + lines) as u16)));
        exact.then_some(Shift { top: first as u16, bottom: (last + lines + 1) as u16, lines: lines as u16 })
    }
}

/// Whether a row holds no cell the backend cannot vouch for, but for the
/// right halves of its wide characters.
fn known(row: &[buffer::Cell]) -> bool {
    let mut covered = 0;
    row.iter().all(|cell| {
        let right_half = covered > 0;
        covered = if right_half { covered - 1 } else { cell.symbol().width().saturating_sub(1) };
        right_half || *cell != UNKNOWN
    })
}

/// FNV-1a: a row's hash only finds candidates (the rows are compared
/// before anything moves), so a quick one does; the standard library's is
/// several times slower over a screen's cells.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
