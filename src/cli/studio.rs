//! `heat`, `heat "topic"`, and `heat resume` / `heat replay` / `heat watch` on a terminal:
//! resolves providers, theme and keys, then opens the studio.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use crate::config::studio as studio_settings;
use crate::config::{Config, Source, Value};
use crate::debate::engine::EngineSetup;
use crate::setup::{self, ProviderKind, Selection};
use crate::store::log::Loaded;
use crate::store::{self, Store};
use crate::tui::install::{InstallMsg, InstallState, Installer};
use crate::tui::settings::{Configured, Configurer};
use crate::tui::{self, App, Opening, RosterEntry, Studio};

/// Whether the studio can run here (both ends on a terminal).
pub fn on_terminal() -> bool {
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

pub async fn open(config: &Config, topic: Option<String>) -> anyhow::Result<ExitCode> {
    if !on_terminal() {
        anyhow::bail!("the studio needs a terminal; for a headless debate use heat run \"topic\"");
    }
    let topic = topic.map(|t| crate::sanitize::one_line(&t));
    if topic.as_deref() == Some("") {
        anyhow::bail!("the topic is empty; give a proposition, e.g. heat \"Remote work beats the office\"");
    }
    let paths = super::run::sources(config);
    if paths.iter().any(|p| p == "-") {
        anyhow::bail!(
            "the studio reads its keys from the terminal, so its source cannot come from standard input: give --source a file (heat run --source - reads standard input)"
        );
    }
    // With a source and no topic, the debate opens at once on the source's
    // own topic (the engine takes it from the source).
    let topic = match (topic, super::run::one_document(&paths)) {
        (None, true) => Some(String::new()),
        (topic, _) => topic,
    };
    let opening = topic.map_or(Opening::StartScreen, Opening::Topic);
    Box::pin(launch(config, opening, true, None)).await
}

/// `heat resume` on a terminal: the stored debate as it stood, continued.
pub async fn resume(
    config: &Config,
    id: Option<&str>,
    reopening: crate::debate::engine::Reopening,
) -> anyhow::Result<ExitCode> {
    let (recorder, loaded) = super::load::reopened(config, id, &reopening)?;
    let config = super::load::as_stored(config, recorder.id(), recorder.state())?;
    Box::pin(launch(&config, Opening::Resume { recorder: Box::new(recorder), loaded, reopening }, true, None)).await
}

/// `heat replay` on a terminal: a stored debate played back in the studio.
pub async fn replay(config: &Config, loaded: Loaded, speed: f64, id: Option<String>) -> anyhow::Result<ExitCode> {
    Box::pin(launch(config, Opening::Replay { loaded, speed, id }, false, None)).await
}

/// `heat watch` on a terminal: another heat's debate followed read-only;
/// `page`, the audience page served beside it (`--web`), is said in the
/// status line.
pub async fn watch(config: &Config, target: super::watch::Target, page: Option<String>) -> anyhow::Result<ExitCode> {
    let super::watch::Target { id, loaded, live, .. } = target;
    let notice = page.map(|url| format!("the audience page is at {url}"));
    Box::pin(launch(config, Opening::Watch { loaded, id, live }, false, notice)).await
}

/// Opens the studio on `opening`; `live` when it runs debates; `notice`
/// opens its status line.
async fn launch(config: &Config, opening: Opening, live: bool, notice: Option<String>) -> anyhow::Result<ExitCode> {
    let theme = super::studio_config::theme(config)?;
    let keymap = super::studio_config::keymap(config)?;
    let data_dir = store::data_dir()?;
    let store = Store::open(&data_dir)?;
    let start_screen = matches!(opening, Opening::StartScreen);
    // Only a studio that starts debates reads the source.
    let starts = matches!(opening, Opening::StartScreen | Opening::Topic(_));
    let mut options = tui::app::StudioOptions::new(theme, keymap);
    // The panes count a debater's turn down under heat.toml's (or the flag's) turn limit.
    options.turn_limit = crate::setup::build::clock(config).turn;
    let (mut spec, mut configure) = (super::run::spec_for(config, starts)?, None);
    let mut found = Found { setup: None, installer: None, roster: Vec::new(), notices: Vec::new() };
    if live {
        // The start screen opens on what it was last set to (studio.toml).
        let (layered, mut note) = if start_screen { remembered(config, &data_dir) } else { (config.clone(), None) };
        let in_force = match providers(&layered, start_screen).await {
            Ok(ready) => {
                found = ready;
                layered
            }
            // Remembered providers that no longer work (a key since removed) give way.
            Err(e) if layered != *config => {
                note = Some(format!("the remembered studio settings are not used ({e:#}); heat.toml's are in force"));
                found = providers(config, start_screen).await?;
                config.clone()
            }
            Err(e) => return Err(e),
        };
        found.notices.extend(note);
        spec = super::run::spec_for(&in_force, starts)?;
        if start_screen {
            options.settings = Some(form_fields(&in_force));
            configure = Some(configurer(config, &data_dir));
        }
    } else if matches!(opening, Opening::Watch { .. }) {
        // A watch is the projector's screen: each round's verdict shows as a card.
        options.mode = tui::app::Mode::Watch;
    } else {
        options.mode = tui::app::Mode::Replays;
    }
    options.roster = found.roster;
    options.judge_prices = config.panel_judge_prices();
    options.formats = format_choices(config);
    options.show_stats = config.defaulted("ui.turn_stats");
    options.follow_by = tui::follow::Follow::from_name(config.defaulted("ui.follow")).unwrap_or_default();
    options.show_parity = config.defaulted("ui.length_parity");
    options.present = config.defaulted("ui.present");
    options.card_for = std::time::Duration::from_secs(config.defaulted("ui.card_seconds"));
    if options.present {
        // No key bar in presenter mode: the way out is said where the bar would be.
        let keys = &options.keymap;
        let (leave, help) = (keys.hint(tui::keymap::Action::Present), keys.hint(tui::keymap::Action::Help));
        found.notices.push(format!("presenter mode: {leave} leaves it, {help} lists the keys"));
    }
    options.install = found.installer.is_some().then_some(InstallState::Offered);
    options.recent = store
        .list()
        .into_iter()
        .take(5)
        .map(|e| {
            // Named and tagged as `heat sessions` lists it.
            let listed = e.listed_topic();
            let outcome = e.outcome.unwrap_or_else(|| "unfinished".into());
            (e.id, format!("{listed} ({outcome})"))
        })
        .collect();
    // Provider notices ("offline: SmolLM2-135M — small model, …") open the
    // status bar; a debate's own messages replace them.
    options.notice = (!found.notices.is_empty()).then(|| found.notices.join(" · ")).or(notice);
    let export_dir = std::env::current_dir().context("could not read the current directory")?;
    let mouse = config.defaulted("ui.mouse");
    let audience = config.defaulted::<&str>("ui.audience").to_string();
    let (setup, installer) = (found.setup, found.installer);
    let list_models = configure.is_some().then(|| model_lister(config));
    let studio = Studio { setup, store, spec, opening, export_dir, installer, mouse, audience, configure, list_models };
    Box::pin(tui::run(studio, App::new(options))).await
}

/// Who debates and how the studio reaches them.
struct Found {
    /// `None` while the offline model waits to be installed (`installer`).
    setup: Option<EngineSetup>,
    installer: Option<Installer>,
    roster: Vec<RosterEntry>,
    notices: Vec<String>,
}

/// Chooses each role's provider and builds the set-up; with `offer_install`,
/// an offline model not on disk yet is offered for install instead.
async fn providers(config: &Config, offer_install: bool) -> anyhow::Result<Found> {
    let selection = setup::selection(config).await?;
    let roster = selection
        .roles
        .iter()
        .map(|c| RosterEntry {
            role: c.role,
            provider: c.kind.name().into(),
            model: c.model.clone(),
            price: c.price,
            // An agent CLI is frozen where it is, as the embedded model stops.
            pauses_in_place: c.kind.is_embedded() || c.kind.is_agent(),
        })
        .collect();
    if offer_install && selection.uses(ProviderKind::LOCAL) && setup::local::needs_install(config) {
        let installer = Some(offline_installer(config, &selection));
        return Ok(Found { setup: None, installer, roster, notices: selection.notices.clone() });
    }
    let (setup, notices) = super::run::debate_setup_for(config, &selection, None).await?;
    Ok(Found { setup: Some(setup), installer: None, roster, notices })
}

/// The config with the start screen's remembered settings over it (flags
/// given now still win), and a note when the file cannot be read: heat.toml's
/// settings are in force then, and the studio opens all the same.
fn remembered(config: &Config, data_dir: &Path) -> (Config, Option<String>) {
    let path = studio_settings::path(data_dir);
    match studio_settings::read(&path) {
        Ok(settings) => {
            let layered = config.with_settings(&settings, &Source::Studio(path.clone()), true);
            // A remembered format brings its own rounds, unless those were chosen too.
            match crate::format::layer::layer(&layered) {
                Ok(layered) => (layered, None),
                Err(e) => (config.clone(), Some(format!("{e:#}; heat.toml's settings are in force"))),
            }
        }
        Err(e) => (config.clone(), Some(format!("{e:#}; heat.toml's settings are in force"))),
    }
}

/// The formats the start screen's form steps through, with their rounds,
/// and the rounds heat.toml gives a format without its own.
fn format_choices(config: &Config) -> tui::settings::FormatChoices {
    let catalog = crate::format::Catalog::load(crate::format::layer::user_dir(config).as_deref());
    // The rounds before any format's were laid over them: heat.toml's, or the default.
    let plain = config.without_format().setting_text("debate.max_rounds");
    tui::settings::FormatChoices {
        formats: catalog
            .formats
            .iter()
            .map(|f| tui::settings::FormatChoice {
                name: f.name.clone(),
                rounds: f.max_rounds,
                // Drawn in the roster: cleaned and cut as the fold cuts them.
                labels: f.record.labels.iter().map(|l| crate::debate::format::clean_label(l)).collect(),
                judges: f.record.judges,
                tagline: f.record.tagline(),
            })
            .collect(),
        plain_rounds: plain,
    }
}

/// The settings form's fields as `config` has them.
fn form_fields(config: &Config) -> [String; crate::config::studio::FIELDS] {
    studio_settings::KEYS.map(|key| config.setting_text(key))
}

/// Asks a provider's server for its models, with the config's keys,
/// addresses and headers.
fn model_lister(config: &Config) -> crate::tui::ModelLister {
    let config = config.clone();
    Arc::new(move |provider| {
        let config = config.clone();
        Box::pin(async move { crate::setup::models::list(&config, &provider).await })
    })
}

/// Applies the start screen's settings: those that differ from `base` (the
/// config without studio.toml) are layered over it, providers are chosen and
/// built again, and the choice is remembered once it works.
fn configurer(base: &Config, data_dir: &Path) -> Configurer {
    let (base, path) = (base.clone(), studio_settings::path(data_dir));
    Arc::new(move |fields, tx| {
        let (base, path) = (base.clone(), path.clone());
        Box::pin(async move {
            let _ = tx.send(configure(&base, &path, &fields).await);
        })
    })
}

async fn configure(base: &Config, path: &Path, fields: &[(String, String)]) -> anyhow::Result<Configured> {
    let source = Source::Studio(path.to_path_buf());
    // The format first: the other fields are compared with what it sets
    // (its rounds), so a field left as the format has it is not pinned.
    let mut settings = Vec::new();
    for (key, text) in fields.iter().filter(|(key, _)| key == "debate.format") {
        let value = studio_settings::check(key, text)?;
        if base.setting_text(key) != value_text(&value) {
            settings.push((key.clone(), value));
        }
    }
    let reference = crate::format::layer::layer(&base.with_settings(&settings, &source, false))?;
    for (key, text) in fields.iter().filter(|(key, _)| key != "debate.format") {
        let value = studio_settings::check(key, text)?;
        if reference.setting_text(key) != value_text(&value) {
            settings.push((key.clone(), value));
        }
    }
    let config = crate::format::layer::layer(&base.with_settings(&settings, &source, false))?;
    let found = providers(&config, true).await?;
    studio_settings::write(path, &settings)?;
    Ok(Configured {
        setup: found.setup,
        installer: found.installer,
        roster: found.roster,
        judge_prices: config.panel_judge_prices(),
        notices: found.notices,
        spec: super::run::spec(&config)?,
        fields: form_fields(&config),
    })
}

/// A checked value as the form writes it.
fn value_text(value: &Value) -> String {
    match value {
        Value::Text(s) => s.trim().to_string(),
        Value::Float(x) => format!("{x:.2}"),
        other => other.to_string(),
    }
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
            let result = super::run::debate_setup_for(&config, &selection, Some(&mut report)).await;
            let _ = tx.send(InstallMsg::Done(Box::new(result)));
        })
    })
}
