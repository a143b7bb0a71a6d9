//! Any judge answer: the verdict parser never panics, and a verdict it
//! accepts has a non-empty verdict and a heat inside the allowed range.
#![no_main]

use heat::debate::verdict::{self, HEAT_MAX, HEAT_MIN};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(v) = verdict::parse(text, "fallback topic", 0.7) {
        assert!(!v.verdict.trim().is_empty(), "an empty verdict was accepted");
        assert!((HEAT_MIN..=HEAT_MAX).contains(&v.heat), "heat {} out of range", v.heat);
        assert!(!v.topic.trim().is_empty(), "an empty topic was accepted");
    }
    // The judge pane's reader of a half-streamed verdict takes any prefix.
    let mut end = text.len();
    while end > 0 {
        let _ = heat::tui::judge_text::partial(&text[..end]);
        end = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
        if end + 64 < text.len() {
            break; // the last 64 bytes' prefixes are enough per input
        }
    }
});
