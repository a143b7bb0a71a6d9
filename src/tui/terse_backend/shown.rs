//! What the terminal shows, cell by cell, as far as the backend knows, and
//! whether a frame is mostly what it shows moved up some rows (a pane that
//! follows its text): then the terminal scrolls those rows itself and only
//! what differs after the scroll is written.

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

    /// Row `y` as the frame has it: what is shown there with the frame's
    /// cells for the row (`row_updates`, in column order) put in.
    fn merged<'b>(
        &'b self,
        y: u16,
        row_updates: &'b [(u16, u16, &'b buffer::Cell)],
    ) -> impl Iterator<Item = &'b buffer::Cell> {
        let mut next = row_updates.iter().peekable();
        self.row(y).iter().zip(0u16..).map(move |(shown, x)| match next.peek() {
            Some(&&(ux, _, cell)) if ux == x => {
                next.next();
                cell
            }
            _ => shown,
        })
    }

    /// Whether the frame `updates` make (in row order, as ratatui's diff
    /// gives them) is mostly what is shown moved up some rows: the shift,
    /// with the rows it spans as the frame has them, when the rows it puts
    /// in place hold at least two rows' worth of the frame's changes and
    /// every cell it would move is known.
    pub fn shifted(&self, updates: &[(u16, u16, &buffer::Cell)]) -> Option<(Shift, Vec<Vec<buffer::Cell>>)> {
        let height = usize::from(self.size.height);
        let mut rows: Vec<&[(u16, u16, &buffer::Cell)]> = vec![&[]; height];
        for run in updates.chunk_by(|a, b| a.1 == b.1) {
            if let Some(row) = rows.get_mut(usize::from(run[0].1)) {
                *row = run;
            }
        }
        let frame_row = |y: usize| self.merged(y as u16, rows[y]);
        let shown: Vec<u64> = (0..self.size.height).map(|y| fingerprint(self.row(y).iter())).collect();
        let wanted: Vec<Option<u64>> =
            (0..height).map(|y| (!rows[y].is_empty()).then(|| fingerprint(frame_row(y)))).collect();
        let (shown, wanted) = (&shown, &wanted);
        // For each distance, the changed rows a shift by it puts in place.
        let placed =
            |lines: usize| (0..height - lines).filter(move |&y| wanted[y].is_some_and(|h| h == shown[y + lines]));
        let worth = |lines: usize| placed(lines).map(|y| rows[y].len()).sum::<usize>();
        let lines = (1..height).max_by_key(|&lines| worth(lines))?;
        if worth(lines) < WORTH_SHIFTING * usize::from(self.size.width) {
            return None;
        }
        let (first, last) = (placed(lines).next()?, placed(lines).next_back()?);
        // Fingerprints can collide: the rows are compared before anything moves.
        if !placed(lines).all(|y| frame_row(y).eq(self.row((y + lines) as u16))) {
            return None;
        }
        let shift = Shift { top: first as u16, bottom: (last + lines + 1) as u16, lines: lines as u16 };
        let region = (usize::from(shift.top)..usize::from(shift.bottom))
            .map(|y| {
                let row: Vec<buffer::Cell> = frame_row(y).cloned().collect();
                known(&row).then_some(row)
            })
            .collect::<Option<Vec<_>>>()?;
        Some((shift, region))
    }
}

/// A row's fingerprint, to find rows that may be equal (they are compared
/// before anything moves): each cell's first byte, length and attributes,
/// one multiply a cell.
fn fingerprint<'c>(cells: impl Iterator<Item = &'c buffer::Cell>) -> u64 {
    cells.fold(0xcbf2_9ce4_8422_2325, |hash, cell| {
        let symbol = cell.symbol().as_bytes();
        let key = u64::from(symbol.first().copied().unwrap_or(0))
            | (symbol.len() as u64) << 8
            | u64::from(cell.modifier.bits()) << 16;
        (hash ^ key).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether a row holds no cell the backend cannot vouch for, but for the
/// right halves of its wide characters.
fn known(row: &[buffer::Cell]) -> bool {
    lead_cells(row).all(|(_, cell)| *cell != UNKNOWN)
}

/// A row's cells with their columns, but for the right halves of its wide
/// characters (which the character before them covers).
pub(super) fn lead_cells(row: &[buffer::Cell]) -> impl Iterator<Item = (u16, &buffer::Cell)> {
    let mut covered = 0;
    row.iter()
        .zip(0u16..)
        .filter(move |(cell, _)| {
            let right_half = covered > 0;
            covered = if right_half { covered - 1 } else { cell.symbol().width().saturating_sub(1) };
            !right_half
        })
        .map(|(cell, x)| (x, cell))
}
