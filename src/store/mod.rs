//! The session store: every debate is a session, recorded as it happens in
//! the platform data dir as an append-only event log plus a small index.

pub mod ballots;
pub mod branch;
pub mod follow;
pub mod index;
pub mod label;
pub mod learnt;
pub mod log;
pub mod search;
pub mod spool;
pub mod steering;
pub mod tournaments;
pub mod watch;

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};

use crate::words::count;

use crate::debate::{DebateEvent, DebateState, Outcome};
use index::IndexEntry;
use label::Label;
use log::{FORMAT_VERSION, Header, Loaded, SessionLog};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// heat's data dir: `HEAT_DATA_DIR`, else the platform's.
pub fn data_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("HEAT_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "heat")
        .map(|d| d.data_dir().to_path_buf())
        .context("could not find a data directory for this user; set HEAT_DATA_DIR")
}

/// Where libraries' indexes are kept between debates (see
/// [`crate::library::kept`]); `None` when there is no data dir.
pub fn kept_libraries() -> Option<PathBuf> {
    data_dir().ok().map(|dir| dir.join("library"))
}

/// A new session's id: the time to the second and a random suffix,
/// `20261206-164429-e3c7`.
pub(crate) fn new_id() -> String {
    let stamp = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
    let digits: String = stamp.chars().filter(char::is_ascii_digit).take(14).collect();
    format!("{}-{}-{:04x}", &digits[..8.min(digits.len())], &digits[8.min(digits.len())..], fastrand::u16(..))
}

/// Whether `error` is a file that exists already.
fn already_exists(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::AlreadyExists))
}

/// Checks that the data dir can hold heat's files: an error says first
/// that the directory cannot be used and why, then what to do.
pub fn check_data_dir(dir: &Path) -> anyhow::Result<()> {
    let unusable = |why: String| {
        anyhow::anyhow!(
            "the data directory {} cannot be used: {why}; point HEAT_DATA_DIR at a directory you can write",
            dir.display()
        )
    };
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(unusable("it is a file, not a directory".into())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| unusable(format!("it cannot be created ({e})")))
        }
        Err(e) => Err(unusable(e.to_string())),
    }
}

/// The sessions directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens (creating if needed) `<data_dir>/sessions`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Self> {
        check_data_dir(data_dir)?;
        let dir = data_dir.join("sessions");
        std::fs::create_dir_all(&dir).with_context(|| {
            format!(
                "could not create the sessions directory {}; check its permissions or set HEAT_DATA_DIR",
                dir.display()
            )
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        }
        Ok(Self { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where HTML reports are written: `reports/` beside `sessions/`.
    pub fn reports_dir(&self) -> PathBuf {
        self.dir.with_file_name("reports")
    }

    pub fn log_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.jsonl"))
    }

    /// Starts recording a new session.
    pub fn create(&self) -> anyhow::Result<Recorder> {
        self.create_from(DebateState::default(), 0)
    }

    /// Starts recording a branch: a new session whose first events are
    /// `shared` (read from its parent, not written again), folded to
    /// `state`, then `branched`.
    pub fn create_branch(
        &self,
        shared: &[log::Record],
        state: DebateState,
        branched: &DebateEvent,
    ) -> anyhow::Result<Recorder> {
        let mut recorder = self.create_from(state, shared.last().map_or(0, |r| r.ms))?;
        if let Some(warning) = recorder.record(branched) {
            let _ = recorder.discard();
            bail!("{warning}");
        }
        Ok(recorder)
    }

    fn create_from(&self, state: DebateState, base_ms: u64) -> anyhow::Result<Recorder> {
        self.create_named(state, base_ms, &mut new_id)
    }

    /// [`Self::create_from`] with ids from `ids`: an id whose log exists
    /// already (two debates started in the same second drew the same
    /// suffix) is passed over for the next.
    fn create_named(
        &self,
        state: DebateState,
        base_ms: u64,
        ids: &mut dyn FnMut() -> String,
    ) -> anyhow::Result<Recorder> {
        let created_ms = now_ms();
        let mut tries = 0;
        loop {
            let id = ids();
            let header = Header { heat_session: FORMAT_VERSION, id: id.clone(), created_ms };
            match SessionLog::create_from(&self.log_path(&id), &header, base_ms) {
                Ok(log) => return Ok(Recorder { store: self.clone(), log, id, created_ms, state, warned: false }),
                Err(e) if tries < 16 && already_exists(&e) => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Reopens a session to continue it.
    pub fn reopen(&self, id: &str) -> anyhow::Result<(Recorder, Loaded)> {
        let (log, loaded) = SessionLog::reopen(&self.log_path(id))?;
        let loaded = branch::splice(&self.dir, loaded)?;
        let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
        let recorder = Recorder {
            store: self.clone(),
            log,
            id: id.to_string(),
            created_ms: loaded.header.created_ms,
            state,
            warned: false,
        };
        Ok((recorder, loaded))
    }

    /// Reads a stored debate. A last line a crash cut short is moved aside
    /// (to `<id>.jsonl.torn`) by the first load that can take the log's
    /// lock, so it is reported once, not on every export; a log that a
    /// running debate holds is only read.
    pub fn load(&self, id: &str) -> anyhow::Result<Loaded> {
        let path = self.log_path(id);
        let mut loaded = log::load(&path)?;
        if loaded.has_torn_tail() && SessionLog::reopen(&path).is_ok() {
            for notice in &mut loaded.notices {
                if let Some(dropped) = notice.strip_suffix("it was dropped") {
                    *notice = format!("{dropped}it was moved aside to {id}.jsonl.torn");
                }
            }
        }
        branch::splice(&self.dir, loaded)
    }

    /// Reads a stored debate up to the start of its round `round` (from 0),
    /// what a branch after the round before needs, and changes nothing, not
    /// even a torn last line (a branch must never write its parent).
    pub fn read_before_round(&self, id: &str, round: u32) -> anyhow::Result<Loaded> {
        // Round 0 cannot be branched after: read it all, so the refusal can say how many there are.
        let stop =
            |r: &log::Record| round > 0 && matches!(r.event, DebateEvent::RoundStarted { round: n, .. } if n >= round);
        branch::splice(&self.dir, log::load_until(&self.log_path(id), &stop)?)
    }

    /// Every session, newest first, from the index (rebuilt if needed).
    pub fn list(&self) -> Vec<IndexEntry> {
        self.listing().0
    }

    /// Every stored session, newest first, its index reconciled with the
    /// folder (a log put back is listed; an entry whose log is gone is
    /// not); and the logs there that could not be read, each as its file's
    /// name and why.
    /// Where stored debate `id` holds every one of `words` (lowercase) in
    /// one piece of what was said (`search::find`); `None` if nowhere, or
    /// if its log cannot be read.
    pub fn find_words(&self, id: &str, words: &[String]) -> Option<search::Found> {
        search::find(&self.folded(id)?, words)
    }

    /// Everything stored debate `id` said, lowercase (`search::said`); `None` if its log cannot be read.
    pub fn said(&self, id: &str) -> Option<String> {
        Some(search::said(&self.folded(id)?))
    }

    /// Stored debate `id`, folded; `None` if its log cannot be read.
    fn folded(&self, id: &str) -> Option<crate::debate::DebateState> {
        let loaded = self.load(id).ok()?;
        Some(crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event)))
    }

    pub fn listing(&self) -> (Vec<IndexEntry>, Vec<(String, String)>) {
        let mut entries = index::read(&self.dir).unwrap_or_else(|| self.rebuild_index());
        let mut unreadable = Vec::new();
        if let Ok(dir) = std::fs::read_dir(&self.dir) {
            let logs: Vec<std::path::PathBuf> = dir
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jsonl"))
                .collect();
            let stem =
                |p: &std::path::Path| p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let present: std::collections::HashSet<String> = logs.iter().map(|p| stem(p)).collect();
            let before = entries.len();
            entries.retain(|e| present.contains(&e.id));
            let mut changed = entries.len() != before;
            let listed: std::collections::HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
            let unlisted: Vec<&std::path::PathBuf> =
                logs.iter().filter(|p| !listed.contains(stem(p).as_str())).collect();
            for path in unlisted {
                match self.describe_log(path) {
                    Ok(entry) => {
                        entries.push(entry);
                        changed = true;
                    }
                    Err(why) => unreadable.push((
                        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                        format!("{why:#}"),
                    )),
                }
            }
            if changed {
                let _lock = index::lock(&self.dir).ok();
                let _ = index::write(&self.dir, &entries);
            }
        }
        entries.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then_with(|| b.id.cmp(&a.id)));
        (entries, unreadable)
    }

    /// A log's index entry, read from the log.
    fn describe_log(&self, path: &std::path::Path) -> anyhow::Result<IndexEntry> {
        let loaded = log::load(path).and_then(|own| branch::splice(&self.dir, own))?;
        let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
        let updated = loaded.header.created_ms + loaded.records.last().map_or(0, |r| r.ms);
        let label = label::read(&self.dir, &loaded.header.id);
        Ok(IndexEntry::describe(&loaded.header.id, loaded.header.created_ms, updated, &state).labelled(label))
    }

    /// Reads every log to rebuild the index (used when it is missing or corrupt).
    fn rebuild_index(&self) -> Vec<IndexEntry> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut entries = Vec::new();
        for path in dir.flatten().map(|e| e.path()) {
            if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
                continue;
            }
            if let Ok(entry) = self.describe_log(&path) {
                entries.push(entry);
            }
        }
        let _ = index::write(&self.dir, &entries);
        entries
    }

    /// The session an id names: the newest when `None`, else the one whose
    /// id starts with the given text.
    pub fn resolve(&self, id: Option<&str>) -> anyhow::Result<String> {
        let entries = self.list();
        let Some(wanted) = id else {
            return entries
                .first()
                .map(|e| e.id.clone())
                .context("there are no sessions yet; start one with heat run \"topic\"");
        };
        let matches: Vec<&IndexEntry> = entries.iter().filter(|e| e.id.starts_with(wanted)).collect();
        match matches.as_slice() {
            [one] => Ok(one.id.clone()),
            [] if self.log_path(wanted).exists() => Ok(wanted.to_string()),
            [] => bail!("no session has an id starting with {wanted:?}{}", nearest(&entries, wanted)),
            many => bail!("{} have ids starting with {wanted:?}; give more of the id", count(many.len(), "session")),
        }
    }

    /// The session `heat resume` goes on with: the one `id` names, or the
    /// newest that can be continued (not the newest, which may have ended).
    pub fn resolve_continuable(&self, id: Option<&str>) -> anyhow::Result<String> {
        if id.is_some() {
            return self.resolve(id);
        }
        let entries = self.list();
        if entries.is_empty() {
            bail!("there are no sessions yet; start one with heat run \"topic\"");
        }
        entries.iter().find(|e| e.continuable()).map(|e| e.id.clone()).with_context(|| {
            format!(
                "no stored debate can be continued: of {}, none can go on; `heat sessions` lists them, \
                 `heat replay ID` plays one back",
                count(entries.len(), "stored debate")
            )
        })
    }

    /// Whether a running debate holds the session's log.
    pub fn is_live(&self, id: &str) -> bool {
        log::is_held(&self.log_path(id))
    }

    /// The stored debates that branch `id` directly.
    pub fn branches_of(&self, id: &str) -> Vec<String> {
        self.list().into_iter().filter(|e| e.branch_of.as_deref() == Some(id)).map(|e| e.id).collect()
    }

    /// Deletes a stored debate no other heat has open (its lock is taken
    /// first and held until the file is gone) and no branch reads its first
    /// rounds from. A branch whose parent is gone can still be deleted:
    /// only its own log is read.
    pub fn remove(&self, id: &str) -> anyhow::Result<()> {
        let branches = self.branches_of(id);
        if !branches.is_empty() {
            let (what, them) = if branches.len() == 1 { ("a branch reads", "it") } else { ("branches read", "them") };
            bail!("{what} its first rounds from it ({}); delete {them} first", branches.join(", "));
        }
        let (log, _) = SessionLog::reopen(&self.log_path(id))?;
        let deleted = self.delete(id);
        drop(log);
        deleted
    }

    pub fn delete(&self, id: &str) -> anyhow::Result<()> {
        std::fs::remove_file(self.log_path(id)).with_context(|| format!("could not delete session {id}"))?;
        // The audience page's ballots, if it ever took any.
        let _ = std::fs::remove_file(ballots::path_for(&self.log_path(id)));
        label::write(&self.dir, id, &Label::default())?;
        index::remove(&self.dir, id)
    }

    /// A stored debate's label (its name and tags).
    pub fn label(&self, id: &str) -> Label {
        label::read(&self.dir, id)
    }

    /// Changes a stored debate's label with `change` (which may refuse) and
    /// returns the new one. The log is not opened, so a debate a running
    /// heat is writing can be named while it runs; the label and its copy
    /// in the index change under the index lock, so the running debate's
    /// own updates of the index keep it.
    pub fn relabel(&self, id: &str, change: impl FnOnce(&mut Label) -> anyhow::Result<()>) -> anyhow::Result<Label> {
        if !self.log_path(id).exists() {
            bail!("there is no session {id}");
        }
        let _lock = index::lock(&self.dir)?;
        let mut label = label::read(&self.dir, id);
        change(&mut label)?;
        label::write(&self.dir, id, &label)?;
        index::relabel(&self.dir, id, &label)?;
        Ok(label)
    }
}

/// Whether a stored debate can be continued: it must have started, and not
/// ended (a failed or cancelled ending may be lifted and tried again),
/// unless `more` rounds are added to it (an invalidated one, never).
pub fn check_continuable(id: &str, state: &DebateState, more: u32) -> anyhow::Result<()> {
    if !state.began() {
        bail!(
            "session {id} cannot be continued: its log holds no `started` event (it was cut short or is not heat's); \
             `heat export {id}` shows what it holds"
        );
    }
    if let Some(finish) = &state.finish
        && !finish.outcome.lifted_on_resume()
    {
        if let Outcome::Invalidated(_) = finish.outcome {
            bail!("session {id} cannot go on: it was {}", finish.outcome.describe());
        }
        if more == 0 {
            bail!(
                "session {id} already ended ({}); `heat resume {id} --more 2` goes on for two more rounds, \
                 `heat replay {id}` plays it back",
                finish.outcome.describe()
            );
        }
    }
    Ok(())
}

/// Records one running debate: appends each event and keeps the index fresh.
pub struct Recorder {
    store: Store,
    log: SessionLog,
    id: String,
    created_ms: u64,
    state: DebateState,
    warned: bool,
}

impl Recorder {
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn path(&self) -> &Path {
        self.log.path()
    }

    pub fn state(&self) -> &DebateState {
        &self.state
    }

    /// Records the room's ballots the debate takes (see
    /// [`crate::debate::audience::recorded`]); the events recorded, and a
    /// warning when the log could not be written.
    pub fn record_ballots(&mut self, ballots: Vec<ballots::Spooled>) -> (Vec<DebateEvent>, Option<String>) {
        let mut recorded = Vec::new();
        let mut warning = None;
        for (round, ballots) in ballots::by_round(ballots) {
            if let Some(event) = crate::debate::audience::recorded(&self.state, round, &ballots) {
                warning = warning.or(self.record(&event));
                recorded.push(event);
            }
        }
        (recorded, warning)
    }

    /// Appends an event that happens now. A write failure is returned once
    /// as a warning sentence (the debate goes on); later failures are silent.
    pub fn record(&mut self, event: &DebateEvent) -> Option<String> {
        self.record_at(event, Instant::now())
    }

    /// Appends an event that happened `at` (see [`Recorder::record`]).
    pub fn record_at(&mut self, event: &DebateEvent, at: Instant) -> Option<String> {
        self.state.apply(event);
        let result = self.log.append_at(event, at).and_then(|()| {
            if matches!(
                event,
                DebateEvent::Started { .. } | DebateEvent::RoundStarted { .. } | DebateEvent::Finished { .. }
            ) {
                self.update_index()
            } else {
                Ok(())
            }
        });
        match result {
            Err(e) if !self.warned => {
                self.warned = true;
                Some(format!("the session {} is no longer being saved: {e:#}", self.id))
            }
            _ => None,
        }
    }

    /// Whether any turn of the debate has completed: until one has, the
    /// session holds nothing worth keeping.
    pub fn holds_a_turn(&self) -> bool {
        self.state.rounds.iter().any(|r| r.turns.iter().any(|t| t.status == crate::debate::state::TurnStatus::Done))
    }

    /// Removes the session's log and index entry, holding its lock until
    /// then: a debate cut short before it said anything, or one a person
    /// deleted with `heat sessions rm` or `prune`.
    pub fn discard(self) -> anyhow::Result<()> {
        self.store.delete(&self.id)
    }

    fn update_index(&self) -> anyhow::Result<()> {
        let entry = IndexEntry::describe(&self.id, self.created_ms, now_ms(), &self.state);
        let store = self.store.clone();
        index::upsert(&self.store.dir, entry, || store.rebuild_index())
    }
}

impl Drop for Recorder {
    /// Records the ballots the audience page took that no read has yet,
    /// then lets the log go while the spool's lock is still held: the page
    /// checks under that lock that a heat records the debate before it
    /// takes a ballot, so no ballot it answered for is left unread.
    fn drop(&mut self) {
        let Some(mut last) = ballots::last_read(self.log.path()) else {
            self.log.release();
            return;
        };
        let (_, warning) = self.record_ballots(std::mem::take(&mut last.ballots));
        if let Some(warning) = warning {
            tracing::warn!(%warning, "the last ballots could not be recorded");
        }
        self.log.release();
        last.close();
    }
}

/// The stored ids nearest to a mistyped one, as the end of a sentence:
/// `; the nearest: a, b (`heat sessions` lists them all)`.
fn nearest(entries: &[IndexEntry], wanted: &str) -> String {
    if entries.is_empty() {
        return "; there are no sessions yet".into();
    }
    // Against each id's start of the same length: a typo in a prefix counts, not the id's length.
    let distance = |id: &str| {
        let start: String = id.chars().take(wanted.chars().count()).collect();
        strsim::levenshtein(&start, wanted)
    };
    let allowed = (wanted.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> =
        entries.iter().map(|e| (distance(&e.id), e.id.as_str())).filter(|(d, _)| *d <= allowed).collect();
    near.sort_by_key(|(d, _)| *d);
    let shown: Vec<&str> = near.iter().take(3).map(|(_, id)| *id).collect();
    if shown.is_empty() {
        let newest: Vec<&str> = entries.iter().take(3).map(|e| e.id.as_str()).collect();
        return format!("; the newest: {} (`heat sessions` lists them all)", newest.join(", "));
    }
    format!("; the nearest: {} (`heat sessions` lists them all)", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_whose_log_exists_already_is_passed_over_for_the_next() {
        let dir = tempfile::tempdir().expect("dir");
        let store = Store::open(dir.path()).expect("store");
        let taken = "20261206-164429-e3c7";
        let first = store.create_named(DebateState::default(), 0, &mut || taken.to_string()).expect("created");
        drop(first);
        let mut ids = [taken, "20261206-164429-0001"].into_iter().map(String::from);
        let mut next = || ids.next().unwrap_or_default();
        let second = store.create_named(DebateState::default(), 0, &mut next).expect("the next id");
        assert_eq!(second.id(), "20261206-164429-0001", "two debates started in one second with one suffix");
        let mut same = || taken.to_string();
        let error = store.create_named(DebateState::default(), 0, &mut same).err().expect("no free id");
        assert!(format!("{error:#}").contains("could not create the session log"), "{error:#}");
    }
}
