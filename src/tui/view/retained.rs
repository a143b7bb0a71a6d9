//! Leaving a pane's text where the terminal already shows it.
//!
//! ratatui clears its buffer each frame, so every widget is drawn again and
//! every cell compared with the last frame. While a debate streams, one pane
//! changes at a time: drawing and comparing the other two again is two
//! thirds of a frame spent on nothing. A pane whose text area would draw
//! exactly what it drew in the frame before (the same lines with the same
//! styles, in the same place, on a screen of the same size) has its cells
//! marked `CellDiffOption::Skip` instead: the diff passes over them and the
//! terminal keeps what it shows.
//!
//! That frame before must be the one just before on the same terminal
//! (`Frame::count` follows on; a draw that fails does not advance it), and
//! nothing may have been drawn over the panes in it (a dialog): otherwise
//! the pane is drawn in full. Anything that clears the screen behind
//! ratatui's back must call [`Retained::forget`]; ratatui's own clear on a
//! resize is covered, since the screen size is part of the key.

use std::hash::BuildHasher;

use foldhash::fast::RandomState;

use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

/// What each pane's text area showed, and in which frame.
#[derive(Debug, Default)]
pub struct Retained {
    /// Seeded per process, so model text cannot be chosen to collide (and
    /// fast: the key is taken for every pane in every frame).
    hasher: RandomState,
    shown: [Option<Shown>; 3],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shown {
    frame: usize,
    key: u64,
}

impl Retained {
    /// A digest of everything that decides what a pane's text area draws.
    pub fn key(&self, screen: Rect, inner: Rect, base: Style, lines: &[&Line<'_>]) -> u64 {
        self.hasher.hash_one((screen, inner, base, lines))
    }

    /// Whether pane `index` showed `key` in the frame just before `frame`.
    pub fn unchanged(&self, index: usize, frame: usize, key: u64) -> bool {
        self.shown[index] == Some(Shown { frame: frame.wrapping_sub(1), key })
    }

    /// Records what each pane's text area shows in `frame` (`None`: a pane
    /// not shown, or drawn over).
    pub fn record(&mut self, frame: usize, keys: [Option<u64>; 3]) {
        self.shown = keys.map(|key| key.map(|key| Shown { frame, key }));
    }

    /// Draws every pane in full at the next frame.
    pub fn forget(&mut self) {
        self.shown = [None; 3];
    }
}

/// Marks `area`'s cells as left to what the terminal shows.
pub fn keep(buffer: &mut Buffer, area: Rect) {
    let area = area.intersection(buffer.area);
    for y in area.top()..area.bottom() {
        let start = buffer.index_of(area.x, y);
        for cell in &mut buffer.content[start..start + usize::from(area.width)] {
            cell.set_diff_option(CellDiffOption::Skip);
        }
    }
}
