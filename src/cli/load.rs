//! Loading the configuration a command runs with: heat.toml (or the file
//! named), the environment and flags, the debate format laid over them and
//! `--seat` values; and `heat config init`, which writes the starter file.

use std::path::PathBuf;

use anyhow::Context;

use crate::config::{Config, DEFAULT_FILE, FlagValue};
use crate::debate::engine::Reopening;
use crate::store::log::Loaded;
use crate::store::{self, Recorder, Store};

/// Loads the config from the named file, or the platform's default file,
/// with the environment and `flags`: the values alone, before the studio's
/// theme and keys are checked and a format is laid over them.
pub fn settings(file: Option<&PathBuf>, flags: &[FlagValue]) -> anyhow::Result<Config> {
    let env = |var: &str| std::env::var(var).ok();
    let default = Config::default_path();
    let file = file.map(|p| (p.as_path(), true)).or_else(|| default.as_deref().map(|p| (p, false)));
    Config::load(file, &env, flags)
}

/// Loads the config a command runs with: [`settings`], its theme and keys
/// checked, the chosen format laid over it.
pub fn config(file: Option<&PathBuf>, flags: &[FlagValue]) -> anyhow::Result<Config> {
    let config = settings(file, flags)?;
    super::studio_config::check_config(&config)?;
    // A format that cannot be found is said where one is needed (a new
    // debate, `heat formats`, doctor); every other command still runs.
    Ok(crate::format::layer::layer(&config).unwrap_or(config))
}

/// [`config`] with `--seat NAME=MODEL` values, each name read as the
/// chosen format names its seats (or by role), laid over the flags.
pub fn seated(file: Option<&PathBuf>, flags: &[FlagValue], seats: &[String]) -> anyhow::Result<Config> {
    let loaded = config(file, flags)?;
    if seats.is_empty() {
        return Ok(loaded);
    }
    let format = crate::format::layer::chosen(&loaded)?;
    let judges = format.record.judges;
    let named = |name: &str| {
        let seat = format.seat_named(name).map(|role| role.key().to_string());
        seat.or_else(|| super::seats::panel_judge_named(name, judges).map(crate::debate::PanelJudge::key))
    };
    let seated = super::seats::flags(seats, named, &super::seats::accepted(&format.seat_ids, &format.seats(), judges))?;
    config(file, &[flags, &seated].concat())
}

pub fn init(file: Option<PathBuf>, force: bool) -> anyhow::Result<()> {
    let path = file.or_else(Config::default_path).context("could not find a config directory for this user")?;
    if path.exists() && !force {
        anyhow::bail!("{} already exists; pass --force to replace it", path.display());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    }
    write_private(&path, DEFAULT_FILE).with_context(|| format!("could not write {}", path.display()))?;
    show!("wrote {}", path.display());
    Ok(())
}

/// Writes a file only its owner can read: the config may come to hold an API key.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        options.mode(0o600);
        // An existing file (`--force`) keeps its mode on open: set it.
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// `config` with each seat of the stored debate `id` on the provider and
/// model it argued on, as the log records them: a debate goes on with the
/// endpoints it began with, whatever flags seated it then. A provider heat
/// no longer knows (an endpoint heat.toml no longer defines) is refused,
/// not swapped for another. The embedded model is recorded by name and
/// runs the configured file again; a person's seat stays a person's.
pub fn as_stored(config: &Config, id: &str, state: &crate::debate::DebateState) -> anyhow::Result<Config> {
    use crate::config::{Source, Value};
    use crate::provider::ProviderKind;
    let mut seats = Vec::new();
    for role in state.seats() {
        // The demo's scripted seats and a log that names nobody leave the config's choice.
        let Some(who) = state.participant(role).filter(|p| p.provider != "scripted") else { continue };
        if ProviderKind::from_name(&who.provider).is_none() {
            anyhow::bail!(
                "session {id}: the {} argued on `{}`, which heat does not know now: define [providers.{}] in \
                 heat.toml again, or branch the debate onto another model (heat branch {id} --seat {}=PROVIDER:MODEL)",
                role.key(),
                who.provider,
                who.provider,
                role.key()
            );
        }
        seats.push((format!("roles.{}.provider", role.key()), Value::Text(who.provider.clone())));
        if !(who.is_embedded() || who.is_person()) || crate::setup::is_gguf(&who.model) {
            seats.push((format!("roles.{}.model", role.key()), Value::Text(who.model.clone())));
        }
    }
    Ok(config.with_settings(&seats, &Source::Session(id.to_string()), false))
}

/// A stored debate reopened to go on with it, as `heat resume` opens it on
/// a terminal or headless: `id` resolved (`None`: the newest that can go on,
/// said so), its log reopened for writing, what reading the log noticed
/// said, then refused when it cannot go on, and what changed since (the
/// format heat.toml names now, the source document's file) said.
pub fn reopened(config: &Config, id: Option<&str>, reopening: &Reopening) -> anyhow::Result<(Recorder, Loaded)> {
    let store = Store::open(&store::data_dir()?)?;
    let named = id.is_some();
    // Rounds added go on with an ended debate too: the newest of all, then.
    let id = if reopening.more > 0 { store.resolve(id)? } else { store.resolve_continuable(id)? };
    if !named {
        say!("heat: resuming {id}, the newest debate that can go on");
    }
    let (recorder, loaded) = store.reopen(&id)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    store::check_continuable(&id, recorder.state(), reopening.more)?;
    if let Some(notice) = crate::format::layer::resume_notice(config, recorder.state()) {
        say!("heat: {notice}");
    }
    Ok((recorder, loaded))
}
