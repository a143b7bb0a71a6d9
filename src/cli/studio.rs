//! `heat` and `heat "topic"`: resolves providers, theme and keys, then opens
//! the studio.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Config;
use crate::store::{self, Store};
use crate::tui::keymap::KeyMap;
use crate::tui::theme::Theme;
use crate::tui::{self, App, RosterEntry, Studio};

pub async fn open(config: &Config, topic: Option<String>) -> anyhow::Result<ExitCode> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!("the studio needs a terminal; for a headless debate use heat run \"topic\"");
    }
    let topic = topic.map(|t| t.trim().to_string());
    if topic.as_deref() == Some("") {
        anyhow::bail!("the topic is empty; give a proposition, e.g. heat \"Remote work beats the office\"");
    }
    let theme = theme(config)?;
    let keymap = KeyMap::with_overrides(|name| config.text(&format!("keys.{name}")).map(str::to_string))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("the [keys] table in the config is not valid")?;
    let store = Store::open(&store::data_dir()?)?;
    let setup = super::run::engine_setup(config).await?;
    let roster = setup
        .participants()
        .into_iter()
        .map(|p| RosterEntry { role: p.role, provider: p.provider, model: p.model })
        .collect();
    let mut app = App::new(theme, keymap, roster);
    app.recent = store
        .list()
        .into_iter()
        .take(5)
        .map(|e| {
            let outcome = e.outcome.unwrap_or_else(|| "unfinished".into());
            (e.id, format!("{} ({outcome})", crate::sanitize::clean(&e.topic)))
        })
        .collect();
    let export_dir = std::env::current_dir().context("could not read the current directory")?;
    let studio = Studio { setup, store, spec: super::run::spec(config), topic, export_dir };
    tui::run(studio, app).await
}

fn theme(config: &Config) -> anyhow::Result<Theme> {
    let name = config.text("ui.theme").filter(|t| !t.is_empty()).unwrap_or("default");
    let user_dir = Config::default_path().and_then(|p| p.parent().map(|d| d.join("themes")));
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Theme::load(name, user_dir.as_deref(), no_color)
}
