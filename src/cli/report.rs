//! `heat report`: writes a stored debate (or the bundled demo) as one HTML
//! page, to a file it names or to the data dir's `reports/`, and opens it in
//! the browser when asked.

use std::path::{Path, PathBuf};

use std::io::Write as _;

use anyhow::bail;

use crate::config::Config;
use crate::debate::{Role, summary};
use crate::report::{self, Context};
use crate::store::log;
use crate::store::{self, Store};

/// What `heat report` was asked for.
pub struct Request<'a> {
    pub id: Option<&'a str>,
    pub demo: bool,
    pub output: Option<&'a Path>,
    pub force: bool,
    pub open: bool,
}

/// `heat report`: with `summary`, the summary is asked for and recorded
/// first; then the page is written.
pub async fn run(
    config_file: Option<&std::path::PathBuf>,
    flags: &[crate::config::FlagValue],
    mut request: Request<'_>,
    summary: bool,
) -> anyhow::Result<PathBuf> {
    let loaded = super::load::config(config_file, flags);
    let config = match loaded {
        Ok(config) => Some(config),
        // The summary's model comes from the config: it must load.
        Err(e) if summary => return Err(e),
        // Prices come from the config; one that does not load costs the page its cost line only.
        Err(e) => {
            say!("heat: the report shows no cost: {e:#}");
            None
        }
    };
    let summarized;
    if let (true, Some(config)) = (summary, &config) {
        summarized = summarize(config, request.id).await?;
        request.id = Some(&summarized);
    }
    report(config.as_ref(), &request)
}

/// `--summary`: asks the judge's model for the arbiter's summary of an
/// ended debate, streaming it to stderr, and records it in the session.
/// Returns the session's id.
pub async fn summarize(config: &Config, id: Option<&str>) -> anyhow::Result<String> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(id)?;
    if store.is_live(&id) {
        bail!("session {id} is still running: the summary is of an ended debate; ask again once it ends");
    }
    let (mut recorder, _) = store.reopen(&id)?;
    if recorder.state().finish.is_none() {
        bail!("session {id} has not ended: the summary is of an ended debate (`heat resume {id}` goes on with it)");
    }
    let selection = crate::setup::selection(config).await?;
    let (setup, notices) = super::run::setup_for(config, &selection, None).await?;
    for notice in notices {
        say!("heat: {notice}");
    }
    let judge = setup.role(Role::Judge);
    let request = summary::request(recorder.state(), &setup.prompts, judge);
    say!("heat: the arbiter's summary, by {} ({}):", judge.model_name, judge.model.provider_name());
    let mut stderr = std::io::stderr();
    let event = summary::write(judge, request, setup.retry, |piece| {
        let _ = match piece {
            Some(text) => write!(stderr, "{}", crate::sanitize::clean(text)),
            None => writeln!(stderr, "\n(retrying)"),
        };
    })
    .await?;
    let _ = writeln!(stderr);
    if let Some(warning) = recorder.record(&event) {
        bail!("{warning}");
    }
    Ok(id)
}

/// Writes the report and says where; opens it when asked.
pub fn report(config: Option<&Config>, request: &Request<'_>) -> anyhow::Result<PathBuf> {
    let data_dir = store::data_dir()?;
    let (loaded, id, live, label) = if request.demo {
        (log::parse(super::replay::DEMO)?, "demo".to_string(), false, crate::store::label::Label::default())
    } else {
        let store = Store::open(&data_dir)?;
        let id = store.resolve(request.id)?;
        let loaded = store.load(&id)?;
        // A debate that has ended is not running, though a studio still holds it open.
        let ended = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event)).finish.is_some();
        let live = store.is_live(&id) && !ended;
        (loaded, id.clone(), live, store.label(&id))
    };
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    if live {
        say!("heat: session {id} is still running: the report shows what exists so far");
    }
    let prices = config.map(Config::prices).unwrap_or_default();
    let context = Context { live, skipped: loaded.notices.clone(), prices, label };
    let html = report::html(&loaded.header, &loaded.records, &context)?;
    place(&html, &id, request.output, request.force, request.open)
}

/// Writes a page to `output` (never over a file there unless `force`), or
/// to the data dir's `reports/` as `<name>.html`; prints where, and opens
/// it in the browser when asked.
pub(super) fn place(
    html: &str,
    name: &str,
    output: Option<&Path>,
    force: bool,
    browse: bool,
) -> anyhow::Result<PathBuf> {
    let path = match output {
        Some(path) => {
            super::sessions::write_file(path, html, force)?;
            path.to_path_buf()
        }
        None => report::save(&Store::open(&store::data_dir()?)?.reports_dir(), name, html)?,
    };
    show!("{}", path.display());
    if browse && let Err(e) = open::that_detached(&path) {
        // The launcher's own words (an exit status) help nobody at the terminal: they go to the log.
        tracing::warn!(error = %e, "could not open a browser");
        bail!("wrote {}, but no browser could be opened here; open the file yourself", path.display());
    }
    Ok(path)
}
