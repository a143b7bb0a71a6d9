//! `heat report`: writes a stored debate (or the bundled demo) as one HTML
//! page, to a file it names or to the data dir's `reports/`, and opens it in
//! the browser when asked.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::config::Config;
use crate::debate::Role;
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

/// Writes the report and says where; opens it when asked.
pub fn report(config: Option<&Config>, request: &Request<'_>) -> anyhow::Result<PathBuf> {
    let data_dir = store::data_dir()?;
    let (loaded, id, live) = if request.demo {
        (log::parse(super::replay::DEMO)?, "demo".to_string(), false)
    } else {
        let store = Store::open(&data_dir)?;
        let id = store.resolve(request.id)?;
        let live = store.is_live(&id);
        (store.load(&id)?, id, live)
    };
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    if live {
        say!("heat: session {id} is still running: the report shows what exists so far");
    }
    let prices = config
        .map(|config| Role::ALL.iter().filter_map(|role| Some((*role, config.price(*role)?))).collect())
        .unwrap_or_default();
    let context = Context { live, skipped: loaded.notices.clone(), prices };
    let html = report::html(&loaded.header, &loaded.records, &context)?;
    let path = match request.output {
        Some(path) => {
            super::sessions::write_file(path, &html, request.force)?;
            path.to_path_buf()
        }
        None => report::save(&Store::open(&data_dir)?.reports_dir(), &id, &html)?,
    };
    show!("{}", path.display());
    if request.open {
        open::that_detached(&path).with_context(|| format!("wrote {} but could not open a browser", path.display()))?;
    }
    Ok(path)
}
