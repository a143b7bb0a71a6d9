//! Any text as `heat.toml`, a theme file, or a key binding: no panic, and a
//! rejected config file's error names the file.
#![no_main]

use std::path::Path;

use heat::config::Config;
use heat::tui::keymap::KeyMap;
use heat::tui::theme::Theme;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Config::from_file_text(text, Path::new("heat.toml")) {
        Ok(config) => {
            let _ = KeyMap::with_overrides(|name| config.text(&format!("keys.{name}")).map(str::to_string));
        }
        Err(e) => assert!(format!("{e:#}").contains("heat.toml"), "the error does not name the file: {e:#}"),
    }
    let _ = Theme::parse("fuzz", text);
});
