//! The report's palette: each seat's colour and the person's, shared by
//! the charts, the argument map's graph and the page's keys. Colours that
//! read on a light and a dark page.

use plotters::style::RGBColor;

use crate::debate::Role;

/// Each seat's colour, and the person's.
pub const ADVOCATE: RGBColor = RGBColor(0x2f, 0x7b, 0xd8);
pub const SKEPTIC: RGBColor = RGBColor(0xe0, 0x67, 0x2a);
pub const JUDGE: RGBColor = RGBColor(0x8a, 0x63, 0xd2);
pub const THIRD: RGBColor = RGBColor(0x1f, 0x9e, 0x89);
pub const FOURTH: RGBColor = RGBColor(0xc9, 0x9a, 0x06);
pub const FIFTH: RGBColor = RGBColor(0x3d, 0x5a, 0xa8);
pub const SIXTH: RGBColor = RGBColor(0x6b, 0x6e, 0x75);
pub const PERSON: RGBColor = RGBColor(0xd6, 0x33, 0x6c);

/// The colour of a seat's marks.
pub fn seat_colour(role: Role) -> RGBColor {
    match role {
        Role::Advocate => ADVOCATE,
        Role::Skeptic => SKEPTIC,
        Role::Judge => JUDGE,
        Role::Third => THIRD,
        Role::Fourth => FOURTH,
        Role::Fifth => FIFTH,
        Role::Sixth => SIXTH,
    }
}

/// A colour as CSS writes it: `#2f7bd8`.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}
