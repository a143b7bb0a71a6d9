//! `heat`, `heat "topic"`, and `heat resume` / `heat replay` on a terminal:
//! resolves providers, theme and keys, then opens the studio.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use crate::config::Config;
use crate::select::{ProviderKind, Selection};
use crate::store::log::Loaded;
use crate::store::{self, Store};
use crate::tui::install::{InstallMsg, InstallState, Installer};
use crate::tui::keymap::KeyMap;
use crate::tui::theme::Theme;
use crate::tui::{self, App, Opening, RosterEntry, Studio};

/// Whether the studio can run here (both ends on a terminal).
pub fn on_terminal() -> bool {
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

pub async fn open(config: &Config, topic: Option<String>) -> anyhow::Result<ExitCode> {
    if !on_terminal() {
        anyhow::bail!("the studio needs a terminal; for a headless debate use heat run \"topic\"");
    }
    let topic = topic.map(|t| t.trim().to_string());
    if topic.as_deref() == Some("") {
        anyhow::bail!("the topic is empty; give a proposition, e.g. heat \"Remote work beats the office\"");
    }
    let opening = topic.map_or(Opening::StartScreen, Opening::Topic);
    launch(config, opening, true).await
}

/// `heat resume` on a terminal: the stored debate as it stood, continued.
pub async fn resume(config: &Config, id: Option<&str>) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve_continuable(id)?;
    let (recorder, loaded) = store.reopen(&id)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    store::check_continuable(&id, recorder.state())?;
    launch(config, Opening::Resume { recorder: Box::new(recorder), loaded }, true).await
}

/// `heat replay` on a terminal: a stored debate played back in the studio.
pub async fn replay(config: &Config, loaded: Loaded, speed: f64, id: Option<String>) -> anyhow::Result<ExitCode> {
    launch(config, Opening::Replay { loaded, speed, id }, false).await
}

async fn launch(config: &Config, opening: Opening, live: bool) -> anyhow::Result<ExitCode> {
    let theme = theme(config)?;
    let keymap = keymap(config)?;
    let store = Store::open(&store::data_dir()?)?;
    let (mut setup, mut notices, mut installer, mut roster) = (None, Vec::new(), None, Vec::new());
    if live {
        let selection = super::run::selection(config).await?;
        roster = selection
            .roles
            .iter()
            .map(|c| RosterEntry {
                role: c.role,
                provider: c.kind.name().into(),
                model: c.model.clone(),
                price: config.role_float(c.role, "price_input").zip(config.role_float(c.role, "price_output")),
                pauses_in_place: c.kind == ProviderKind::Local,
            })
            .collect();
        notices.clone_from(&selection.notices);
        let offer = matches!(opening, Opening::StartScreen)
            && selection.uses(ProviderKind::Local)
            && super::model::needs_install(config);
        if offer {
            installer = Some(offline_installer(config, &selection));
        } else {
            setup = Some(super::run::setup_for(config, &selection, None).await?.0);
        }
    }
    let mut app = App::new(theme, keymap, roster);
    if !live {
        app.mode = tui::app::Mode::Replays;
    }
    if installer.is_some() {
        app.install = Some(InstallState::Offered);
    }
    app.recent = store
        .list()
        .into_iter()
        .take(5)
        .map(|e| {
            let outcome = e.outcome.unwrap_or_else(|| "unfinished".into());
            (e.id, format!("{} ({outcome})", crate::sanitize::clean(&e.topic)))
        })
        .collect();
    // Provider notices ("offline: SmolLM2-135M — small model, …") open the
    // status bar; a debate's own messages replace them.
    app.notice = (!notices.is_empty()).then(|| notices.join(" · "));
    let export_dir = std::env::current_dir().context("could not read the current directory")?;
    let mouse = config.flag("ui.mouse").unwrap_or(true);
    let studio = Studio { setup, store, spec: super::run::spec(config), opening, export_dir, installer, mouse };
    tui::run(studio, app).await
}

/// Installs the offline model from the start screen, then builds the set-up.
fn offline_installer(config: &Config, selection: &Selection) -> Installer {
    let (config, selection) = (config.clone(), selection.clone());
    Arc::new(move |tx| {
        let (config, selection) = (config.clone(), selection.clone());
        Box::pin(async move {
            let mut report = |p| {
                let _ = tx.send(InstallMsg::Progress(p));
            };
            let result = super::run::setup_for(&config, &selection, Some(&mut report)).await;
            let _ = tx.send(InstallMsg::Done(Box::new(result)));
        })
    })
}

/// The studio's theme, as configured; an error names where it was set.
fn theme(config: &Config) -> anyhow::Result<Theme> {
    let name = config.text("ui.theme").filter(|t| !t.is_empty()).unwrap_or("default");
    let user_dir = Config::default_path().and_then(|p| p.parent().map(|d| d.join("themes")));
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Theme::load(name, user_dir.as_deref(), no_color)
        .map_err(|e| anyhow::anyhow!("{}: `ui.theme`: {e:#}", config.place("ui.theme")))
}

/// The studio's keys, as configured; an error names the file and line of the key at fault.
fn keymap(config: &Config) -> anyhow::Result<KeyMap> {
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
