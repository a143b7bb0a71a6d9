//! Text in large glyphs for a room (the heat, who is ahead), drawn with
//! `tui-big-text`: each character 4 columns by 4 rows (a quadrant of a cell
//! per pixel of its 8×8 font).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tui_big_text::{BigText, PixelSize};

/// Columns and rows one large character takes.
pub const GLYPH: (u16, u16) = (4, 4);

/// The columns `text` takes in large glyphs.
pub fn width(text: &str) -> u16 {
    u16::try_from(text.chars().count()).unwrap_or(u16::MAX).saturating_mul(GLYPH.0)
}

/// Draws `text` large at the top of `area`, centred in it; nothing where
/// it does not fit.
pub fn draw(frame: &mut Frame<'_>, area: Rect, text: &str, style: Style) -> bool {
    let wide = width(text);
    if wide > area.width || area.height < GLYPH.1 {
        return false;
    }
    let at = Rect { x: area.x + (area.width - wide) / 2, width: wide, height: GLYPH.1, ..area };
    let big =
        BigText::builder().pixel_size(PixelSize::Quadrant).style(style).lines(vec![text.to_string().into()]).build();
    frame.render_widget(big, at);
    true
}
