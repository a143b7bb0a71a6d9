//! `heat stats [ID]`: a tournament's debates counted (no id: the newest
//! tournament), or those of a tag (`--tag`): win rates with their
//! intervals, ratings, side and length bias, swap-check flips and
//! agreement, as text or `--json`; or, with `--export FILE`, the same
//! debates written for analysis as CSV or Parquet (`tournament::export`).

use std::path::{Path, PathBuf};

use crate::debate::DebateState;
use crate::store::tournaments::{Stored, Tournaments};
use crate::store::{self, Store};
use crate::tournament::export::{self, Context, Debate, FileKind, Sheet, Timing};
use crate::tournament::games;
use crate::tournament::stats::{self, Game};

/// Which debates to count.
pub struct Counted<'a> {
    pub id: Option<&'a str>,
    pub tag: Option<&'a str>,
    pub json: bool,
}

/// The debates asked for.
struct Chosen {
    /// What they are, in words: "tournament ID", "the debates tagged #work".
    what: String,
    /// Each one's session, with its key in the tournament's plan.
    sessions: Vec<(String, Option<String>)>,
    /// The tournament's seed (0 for a tag's).
    seed: u64,
    tournament: Option<String>,
}

/// A tag's debates, or a tournament's finished ones.
fn chosen(data: &Path, store: &Store, counted: &Counted<'_>) -> anyhow::Result<Chosen> {
    if let Some(tag) = counted.tag {
        let tagged = store
            .list()
            .into_iter()
            .filter(|e| e.tags.iter().any(|t| store::label::same_tag(t, tag)))
            .map(|e| (e.id, None))
            .collect();
        let what = format!("the debates tagged #{}", crate::sanitize::clean(tag));
        return Ok(Chosen { what, sessions: tagged, seed: 0, tournament: None });
    }
    let tournaments = Tournaments::open(data)?;
    let id = tournaments.resolve(counted.id, false)?;
    let stored = tournaments.load(&id)?;
    let sessions = finished(&stored);
    Ok(Chosen { what: format!("tournament {id}"), sessions, seed: stored.seed().unwrap_or(0), tournament: Some(id) })
}

/// A tournament's finished debates: each one's session, with its key in
/// the tournament's plan.
pub(super) fn finished(stored: &Stored) -> Vec<(String, Option<String>)> {
    let finished = stored.finished();
    stored
        .sessions()
        .into_iter()
        .filter(|(k, _)| finished.contains(k))
        .map(|(key, session)| (session, Some(key)))
        .collect()
}

/// What [`read`] made of sessions.
pub(super) struct Read {
    /// The finished debates, as games.
    pub games: Vec<Game>,
    /// Each game's proposition, as its session recorded it (not cleaned).
    pub propositions: Vec<String>,
    /// The sessions that could not be loaded, each with why.
    pub left_out: Vec<(String, anyhow::Error)>,
}

/// `sessions` (each with its key) read as games, quietly: a session not
/// finished is no game, one that cannot be loaded is left out.
pub(super) fn read(store: &Store, sessions: &[(String, Option<String>)]) -> Read {
    let mut read = Read { games: Vec::new(), propositions: Vec::new(), left_out: Vec::new() };
    for (session, _) in sessions {
        match store.load(session) {
            Ok(loaded) => {
                let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
                if let Some(game) = games::game(session, &state) {
                    read.games.push(game);
                    read.propositions.push(state.topic);
                }
            }
            Err(e) => read.left_out.push((session.clone(), e)),
        }
    }
    read
}

pub fn stats(counted: &Counted<'_>) -> anyhow::Result<()> {
    let (what, counted_games, seed) = gathered(counted.id, counted.tag)?;
    let summary = stats::summarise(&counted_games, seed);
    if counted.json {
        let value = serde_json::json!({ "counted": what, "debates": counted_games.len(), "summary": summary });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!("{what}: {} counted", crate::words::count(counted_games.len(), "debate"));
        print!("{}", stats::text(&summary));
    }
    Ok(())
}

/// The finished debates of the tournament `id` names (no id: the newest),
/// or of `tag`, as games: what was counted in words, the games, and the
/// seed their bootstrap draws from. None is an error.
pub(super) fn gathered(id: Option<&str>, tag: Option<&str>) -> anyhow::Result<(String, Vec<Game>, u64)> {
    let Gathered { what, games, seed, .. } = gather(id, tag)?;
    Ok((what, games, seed))
}

/// The debates [`gathered`] counts, with what a page of them also shows.
pub(super) struct Gathered {
    /// What was counted, in words: "tournament ID", "the debates tagged #work".
    pub what: String,
    pub games: Vec<Game>,
    /// Each game's proposition, as its session recorded it (not cleaned).
    pub propositions: Vec<String>,
    pub seed: u64,
    /// The tournament's id, when a tournament's debates were counted.
    pub tournament: Option<String>,
}

/// [`gathered`], each game with its proposition, and the tournament's id.
pub(super) fn gather(id: Option<&str>, tag: Option<&str>) -> anyhow::Result<Gathered> {
    let data = store::data_dir()?;
    let store = Store::open(&data)?;
    let Chosen { what, sessions, seed, tournament } = chosen(&data, &store, &Counted { id, tag, json: false })?;
    let Read { games, propositions, left_out } = read(&store, &sessions);
    for (session, e) in left_out {
        say!("heat: session {session} is left out: {e:#}");
    }
    if games.is_empty() {
        anyhow::bail!("{what} has no finished debate to count yet");
    }
    Ok(Gathered { what, games, propositions, seed, tournament })
}

/// `heat stats --export FILE`: the debates `stats` would count, a row per
/// debate, round or turn, written to `file` as its extension says.
pub fn export(
    config_file: Option<&PathBuf>,
    counted: &Counted<'_>,
    file: &Path,
    rows: export::Rows,
    force: bool,
) -> anyhow::Result<()> {
    let kind = FileKind::of(file)?;
    if !force && file.exists() {
        anyhow::bail!("{} already exists; pass --force to replace it, or name another file", file.display());
    }
    // Prices come from the config; one that does not load costs the export its cost columns only.
    let prices = match super::load::config(config_file, &[]) {
        Ok(config) => config.prices(),
        Err(e) => {
            say!("heat: the export's costs are left empty: {e:#}");
            crate::debate::cost::Prices::default()
        }
    };
    let secrets = crate::secrets::known_keys();
    let context = Context { prices: &prices, secrets: &secrets };
    let data = store::data_dir()?;
    let store = Store::open(&data)?;
    let chosen = chosen(&data, &store, counted)?;
    let mut sheet = Sheet::new(rows);
    for (session, key) in &chosen.sessions {
        match store.load(session) {
            Ok(loaded) => {
                let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
                let timing = Timing::of(loaded.records.iter().map(|r| (r.ms, &r.event)));
                let debate = Debate {
                    session,
                    tournament: chosen.tournament.as_deref(),
                    key: key.as_deref(),
                    created_ms: Some(loaded.header.created_ms),
                    state: &state,
                    timing: &timing,
                };
                sheet.add(&debate, &context);
            }
            Err(e) => say!("heat: session {session} is left out: {e:#}"),
        }
    }
    if sheet.debates() == 0 {
        anyhow::bail!("{} has no finished debate to export yet", chosen.what);
    }
    export::file::write(file, kind, sheet.table(), force)?;
    say!("heat: wrote {} to {}", sheet.describe(), file.display());
    Ok(())
}
