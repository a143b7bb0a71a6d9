//! The page's address as a QR code drawn in a terminal, two modules a
//! character (half blocks), with the quiet zone a reader needs.

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

/// `url` as a QR code of text, dark modules on the terminal's light
/// background colour inverted so it reads on dark and light themes;
/// empty when it cannot be encoded.
pub fn code(url: &str) -> String {
    let Ok(code) = QrCode::new(url.as_bytes()) else { return String::new() };
    code.render::<Dense1x2>().dark_color(Dense1x2::Light).light_color(Dense1x2::Dark).quiet_zone(true).build()
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_address_is_drawn_in_half_blocks_with_a_square_of_rows() {
        let drawn = super::code("http://192.168.1.20:7420/");
        let rows: Vec<&str> = drawn.lines().collect();
        // Version 2 (25 modules) plus a quiet zone of 4 each side: 33 columns, 17 rows of two.
        assert_eq!(rows.len(), 17, "{drawn}");
        assert!(rows.iter().all(|r| r.chars().count() == 33), "{drawn}");
        assert!(drawn.contains('▀') || drawn.contains('▄'), "{drawn}");
    }
}
