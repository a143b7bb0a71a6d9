//! Any model output, streamed in any pieces: sanitising piece by piece
//! equals sanitising the whole and leaves no control character but newline
//! and tab; Markdown laid out as it streams equals the whole laid out at once.
#![no_main]

mod common;

use heat::sanitize::{Sanitizer, clean};
use heat::tui::markdown::{Palette, render};
use heat::tui::streaming_text::StreamingText;
use heat::tui::theme::Theme;
use libfuzzer_sys::fuzz_target;
use ratatui::style::Color;

fuzz_target!(|data: &[u8]| {
    let Some(&width) = data.first() else { return };
    let Ok(text) = std::str::from_utf8(&data[1..]) else { return };
    // The reads' sizes, moved to character boundaries: deltas are strings.
    let mut cuts = Vec::new();
    let mut at = 0;
    for read in common::reads(data) {
        at += read.len();
        let mut cut = at.min(text.len());
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        cuts.push(cut);
    }
    let mut sanitizer = Sanitizer::new();
    let mut streamed = String::new();
    let mut clean_cuts = Vec::new();
    let mut from = 0;
    for &cut in &cuts {
        streamed.push_str(&sanitizer.push(&text[from..cut.max(from)]));
        from = cut.max(from);
        clean_cuts.push(streamed.len());
    }
    let whole = clean(text);
    assert_eq!(streamed, whole, "sanitising in pieces differs");
    assert!(!whole.chars().any(|c| c.is_control() && c != '\n' && c != '\t'), "a control character survived");

    let theme = Theme::load("default", None, false).expect("the default theme");
    let palette = Palette::from_theme(&theme, Color::Cyan);
    let width = u16::from(width % 120) + 1;
    let mut layout = StreamingText::default();
    for cut in clean_cuts {
        layout.update(&whole[..cut], width, &palette);
    }
    let [stable, tail] = layout.parts();
    let streamed_lines: Vec<_> = stable.iter().chain(tail).cloned().collect();
    assert_eq!(streamed_lines, render(&whole, width, &palette), "streamed layout differs");
});
