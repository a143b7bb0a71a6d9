//! What only the studio reads of the configuration, its theme and its
//! keys, built and checked: checked with the rest of the config when any
//! command loads it, so a fault is said at once with its file and line.

use crate::config::{Config, Source};
use crate::tui::keymap::KeyMap;
use crate::tui::theme::Theme;

/// The studio's theme, as configured; an error names where it was set.
pub fn theme(config: &Config) -> anyhow::Result<Theme> {
    let name: &str = config.defaulted("ui.theme");
    // Presenter mode is for a projector: high contrast, unless another theme was
    // chosen (`heat config init` writes "default" into heat.toml: not a choice).
    let named = config.get("ui.theme").is_some_and(|e| matches!(e.source, Source::Flag(_) | Source::Env(_)));
    let chosen = named || name != "default";
    let name = if !chosen && config.defaulted::<bool>("ui.present") { "high-contrast" } else { name };
    let user_dir = Config::default_path().and_then(|p| p.parent().map(|d| d.join("themes")));
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Theme::load(name, user_dir.as_deref(), no_color)
        .map_err(|e| anyhow::anyhow!("{}: `ui.theme`: {e:#}", config.place("ui.theme")))
}

/// The studio's keys, as configured; an error names the file and line of the key at fault.
pub fn keymap(config: &Config) -> anyhow::Result<KeyMap> {
    if let Some(name) = KeyMap::unknown_name(config.names_under("keys")) {
        let key = format!("keys.{name}");
        anyhow::bail!("{}: unknown key `{key}` (see `heat config init` for every key)", config.place(&key));
    }
    KeyMap::with_overrides(|name| config.text(&format!("keys.{name}")).map(str::to_string)).map_err(|e| {
        let key = e.split(':').next().unwrap_or_default();
        anyhow::anyhow!("{}: {e}", config.place(key))
    })
}

/// Checks what only the studio reads (its theme and keys) with the rest of
/// the config, so `heat doctor`, `heat config show` and every command
/// refuse them at once, with file and line, not when the studio opens.
pub fn check_config(config: &Config) -> anyhow::Result<()> {
    theme(config)?;
    keymap(config)?;
    Ok(())
}
