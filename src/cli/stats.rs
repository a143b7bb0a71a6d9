//! `heat stats [ID]`: a tournament's debates counted (no id: the newest
//! tournament), or those of a tag (`--tag`): win rates with their
//! intervals, ratings, side and length bias, swap-check flips and
//! agreement, as text or `--json`.

use crate::store::tournaments::Tournaments;
use crate::store::{self, Store};
use crate::tournament::games;
use crate::tournament::stats::{self, Game};

/// Which debates to count.
pub struct Counted<'a> {
    pub id: Option<&'a str>,
    pub tag: Option<&'a str>,
    pub json: bool,
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
    let data = store::data_dir()?;
    let store = Store::open(&data)?;
    let (what, sessions, seed) = if let Some(tag) = tag {
        {
            let tagged: Vec<String> = store
                .list()
                .into_iter()
                .filter(|e| e.tags.iter().any(|t| store::label::same_tag(t, tag)))
                .map(|e| e.id)
                .collect();
            (format!("the debates tagged #{}", crate::sanitize::clean(tag)), tagged, 0)
        }
    } else {
        {
            let tournaments = Tournaments::open(&data)?;
            let id = tournaments.resolve(id, false)?;
            let stored = tournaments.load(&id)?;
            let finished = stored.finished();
            let sessions =
                stored.sessions().into_iter().filter(|(k, _)| finished.contains(k)).map(|(_, s)| s).collect();
            (format!("tournament {id}"), sessions, stored.seed().unwrap_or(0))
        }
    };
    let mut counted_games: Vec<Game> = Vec::new();
    for session in &sessions {
        match store.load(session) {
            Ok(loaded) => {
                let state = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
                counted_games.extend(games::game(session, &state));
            }
            Err(e) => say!("heat: session {session} is left out: {e:#}"),
        }
    }
    if counted_games.is_empty() {
        anyhow::bail!("{what} has no finished debate to count yet");
    }
    Ok((what, counted_games, seed))
}
