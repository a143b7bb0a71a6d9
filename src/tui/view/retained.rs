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

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::fast::RandomState;

use crate::debate::Role;
use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// What each pane's text area showed, and in which frame.
#[derive(Debug, Default)]
pub struct Retained {
    /// Seeded per process, so model text cannot be chosen to collide (and
    /// fast: the key is taken for every pane in every frame).
    hasher: RandomState,
    shown: [Option<Shown>; Role::COUNT],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shown {
    frame: usize,
    key: u64,
}

impl Retained {
    /// A digest of everything that decides what a pane's text area draws.
    pub fn key(&self, screen: Rect, inner: Rect, base: Style, lines: &[&Line<'_>]) -> u64 {
        let mut hasher = self.hasher.build_hasher();
        (screen, inner).hash(&mut hasher);
        hasher.write_u128(style_bits(base));
        for line in lines {
            hasher.write_u128(style_bits(line.style));
            for span in &line.spans {
                hasher.write_u128(style_bits(span.style));
                hasher.write(span.content.as_bytes());
                // Never in UTF-8 text: a span's end cannot be mistaken.
                hasher.write_u8(0xff);
            }
            hasher.write_u8(0xfe);
        }
        hasher.finish()
    }

    /// A key with something more that changes what is drawn (the search's
    /// highlights) folded in.
    pub fn mix(&self, key: u64, more: impl Hash) -> u64 {
        let mut hasher = self.hasher.build_hasher();
        hasher.write_u64(key);
        more.hash(&mut hasher);
        hasher.finish()
    }

    /// Whether pane `index` showed `key` in the frame just before `frame`.
    pub fn unchanged(&self, index: usize, frame: usize, key: u64) -> bool {
        self.shown[index] == Some(Shown { frame: frame.wrapping_sub(1), key })
    }

    /// Records what each pane's text area shows in `frame` (`None`: a pane
    /// not shown, or drawn over).
    pub fn record(&mut self, frame: usize, keys: [Option<u64>; Role::COUNT]) {
        self.shown = keys.map(|key| key.map(|key| Shown { frame, key }));
    }

    /// Draws every pane in full at the next frame.
    pub fn forget(&mut self) {
        self.shown = [None; Role::COUNT];
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

/// A style as one number. ratatui's derived `Hash` feeds a style to the
/// hasher field by field, a dozen writes per span, which made the digest a
/// sixth of a streaming frame; this is one write, and distinct styles give
/// distinct numbers.
fn style_bits(style: Style) -> u128 {
    u128::from(color_bits(style.fg))
        | u128::from(color_bits(style.bg)) << 32
        | u128::from(color_bits(style.underline_color)) << 64
        | u128::from(style.add_modifier.bits()) << 96
        | u128::from(style.sub_modifier.bits()) << 112
}

/// 0 for no colour; named colours 1..=17; indexed and RGB colours tagged in
/// bits 24 and 25 above their value.
fn color_bits(color: Option<Color>) -> u32 {
    let Some(color) = color else { return 0 };
    match color {
        Color::Reset => 1,
        Color::Black => 2,
        Color::Red => 3,
        Color::Green => 4,
        Color::Yellow => 5,
        Color::Blue => 6,
        Color::Magenta => 7,
        Color::Cyan => 8,
        Color::Gray => 9,
        Color::DarkGray => 10,
        Color::LightRed => 11,
        Color::LightGreen => 12,
        Color::LightYellow => 13,
        Color::LightBlue => 14,
        Color::LightMagenta => 15,
        Color::LightCyan => 16,
        Color::White => 17,
        Color::Indexed(i) => 1 << 24 | u32::from(i),
        Color::Rgb(r, g, b) => 1 << 25 | u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b),
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Modifier, Style};

    use super::style_bits;

    #[test]
    fn distinct_styles_have_distinct_bits() {
        let colors = [
            None,
            Some(Color::Reset),
            Some(Color::Black),
            Some(Color::White),
            Some(Color::LightCyan),
            Some(Color::Indexed(0)),
            Some(Color::Indexed(17)),
            Some(Color::Indexed(255)),
            Some(Color::Rgb(0, 0, 0)),
            Some(Color::Rgb(0, 0, 17)),
            Some(Color::Rgb(1, 0, 0)),
            Some(Color::Rgb(255, 255, 255)),
        ];
        let modifiers = [Modifier::empty(), Modifier::BOLD, Modifier::BOLD | Modifier::ITALIC, Modifier::DIM];
        let mut styles = Vec::new();
        for fg in colors {
            for bg in colors {
                for ul in [None, Some(Color::Red)] {
                    for add in modifiers {
                        for sub in [Modifier::empty(), Modifier::DIM] {
                            let mut style = Style::new();
                            style.fg = fg;
                            style.bg = bg;
                            style.underline_color = ul;
                            style.add_modifier = add;
                            style.sub_modifier = sub;
                            styles.push(style);
                        }
                    }
                }
            }
        }
        let mut seen = std::collections::HashMap::new();
        for style in styles {
            if let Some(other) = seen.insert(style_bits(style), style) {
                panic!("{style:?} and {other:?} share bits");
            }
        }
    }
}
