//! `heat watch`: which session to follow (the one an id names, else the
//! newest live one), and the headless watch: the debate printed as `heat
//! run` prints it, what the log holds first, then what is appended, until
//! the debate ends. The studio's watch is in `tui`; neither writes or locks
//! the session.

use crate::debate::DebateEvent;
use crate::store::follow::Follower;
use crate::store::log::Loaded;
use crate::store::watch::{Followed, Watch};
use crate::store::{self, Store};

use super::json_lines::json_line;
use super::print::TextPrinter;

/// The session to watch, as its log stands.
pub struct Target {
    pub id: String,
    pub loaded: Loaded,
    /// Whether another heat runs the debate (holds its log) now.
    pub live: bool,
    pub path: std::path::PathBuf,
}

/// The session `id` names, or the newest live one (the newest of all,
/// said on stderr, when none is live); an ended one is said on stderr too.
pub fn target(id: Option<&str>) -> anyhow::Result<Target> {
    let store = Store::open(&store::data_dir()?)?;
    let id = if id.is_some() { store.resolve(id)? } else { newest_live(&store)? };
    let mut loaded = store.load(&id)?;
    let live = store.is_live(&id);
    if live && loaded.has_torn_tail() {
        // Not a crash: the writer is still writing that line; the watch reads it once whole.
        loaded.notices.retain(|n| !n.contains("was cut short by a crash"));
    }
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    if !live {
        let state = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
        if let Some(finish) = &state.finish {
            say!("heat: session {id} has ended ({}); showing how it ended", finish.outcome.describe());
        } else {
            say!("heat: session {id} is not running (it stopped unfinished); showing it as it stands");
        }
    }
    let path = store.log_path(&id);
    Ok(Target { id, loaded, live, path })
}

/// The newest debate still running, else the newest of all (saying on
/// stderr that none is running). A debate that has ended is not running,
/// though a studio may still hold it open.
fn newest_live(store: &Store) -> anyhow::Result<String> {
    if let Some(entry) = store.list().into_iter().find(|e| e.outcome.is_none() && store.is_live(&e.id)) {
        return Ok(entry.id);
    }
    let newest = store.resolve(None)?;
    say!("heat: no debate is running now; showing the newest, {newest}");
    Ok(newest)
}

/// Serves the audience page of the watched debate on `addr` (as
/// `--web` gives it), and says where on stderr, with a QR code for phones.
pub async fn serve(target: &Target, addr: &str) -> anyhow::Result<crate::web::Stage> {
    let addr = crate::web::address::parse(Some(addr))?;
    let stage = crate::web::Stage::open(addr, &target.path, &target.loaded).await?;
    let url = stage.url();
    say!("heat: the audience page of session {} is at {url}", target.id);
    if stage.addr.ip().is_loopback() {
        say!("heat: only this machine can open it; `--web 0.0.0.0` serves the room's network");
    } else if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        say!("{}", crate::web::qr::code(&url));
    }
    Ok(stage)
}

/// Prints the watched debate (text, or one JSON event per line): what the
/// log holds, then, while it runs, each event appended, until it ends.
pub async fn print(target: Target, json: bool) -> anyhow::Result<()> {
    let mut out = Output { json, printer: TextPrinter::new(std::io::stdout(), super::print::stdout_style()) };
    let mut ended = false;
    for record in &target.loaded.records {
        ended |= out.event(&record.event)?;
    }
    if ended || !target.live {
        return Ok(());
    }
    let follower = Follower::at(&target.path, target.loaded.valid_len())?;
    let mut watch = Watch::start(&target.path, follower);
    while let Some(followed) = watch.rx.recv().await {
        match followed {
            Followed::Records(records) => {
                for record in &records {
                    if out.event(&record.event)? {
                        return Ok(());
                    }
                }
            }
            Followed::Notice(notice) => say!("heat: session {}: {notice}", target.id),
            Followed::Lost(why) => anyhow::bail!("the watch of session {} stopped: {why}", target.id),
        }
    }
    Ok(())
}

/// Where the watched events go.
struct Output {
    json: bool,
    printer: TextPrinter<std::io::Stdout>,
}

impl Output {
    /// Prints one event; whether it ended the debate.
    fn event(&mut self, event: &DebateEvent) -> anyhow::Result<bool> {
        if self.json {
            json_line(&mut std::io::stdout(), event)?;
        } else {
            self.printer.event(event)?;
        }
        Ok(matches!(event, DebateEvent::Finished { .. }))
    }
}
