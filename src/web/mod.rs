//! The audience page (`heat watch --web`, and `A` in the studio): one
//! read-only page of one live debate for the phones and laptops in the
//! room, and a vote a round for each visitor. It follows the session's log
//! as `heat watch` does (never the studio's own loop, so it cannot slow a
//! debate), and writes the ballots it takes to the log's spool, which the
//! heat recording the debate takes into the log. It serves nothing else: no
//! steering, no config, no key, no other session, no path.

pub mod address;
mod ballot_box;
mod feed;
mod listen;
pub mod page;
pub mod qr;
pub mod routes;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use tokio::sync::Semaphore;

use crate::store::follow::Follower;
use crate::store::log::Loaded;
use crate::store::watch::{Followed, Watch};

pub use ballot_box::{MAX_VOTERS, MAX_VOTERS_PER_ADDRESS};
pub use listen::MAX_CONNECTIONS;

/// The most pages following the events at once.
pub const MAX_WATCHERS: usize = 512;

/// How much the page serves at once.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once; one more is told 503 and closed.
    pub connections: usize,
    /// Pages following the events at once; one more is told 503.
    pub watchers: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { connections: MAX_CONNECTIONS, watchers: MAX_WATCHERS }
    }
}
/// How often the page checks whether a heat still records the debate.
const LIVENESS: Duration = Duration::from_secs(1);

/// The page, served: dropping it stops the server and the following.
pub struct Stage {
    /// The address it listens on.
    pub addr: SocketAddr,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Stage {
    /// Serves the debate whose log at `log` holds `loaded` on `addr`.
    /// Must be called within a tokio runtime.
    pub async fn open(addr: SocketAddr, log: &Path, loaded: &Loaded) -> anyhow::Result<Stage> {
        Self::open_within(addr, log, loaded, Limits::default()).await
    }

    /// As [`Stage::open`], serving at most `limits`.
    pub async fn open_within(addr: SocketAddr, log: &Path, loaded: &Loaded, limits: Limits) -> anyhow::Result<Stage> {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| bind_error(addr, &e))?;
        let addr = listener.local_addr().context("could not read the page's address")?;
        let live = crate::store::log::is_held(log);
        let feed = feed::Feed::new(loaded.records.iter().map(|r| &r.event), live);
        let follower = Follower::at(log, loaded.valid_len())?;
        let shared = Arc::new(routes::Shared {
            feed: Arc::clone(&feed),
            ballots: Mutex::new(ballot_box::BallotBox::new(log.to_path_buf())),
            watchers: Arc::new(Semaphore::new(limits.watchers)),
            port: addr.port(),
        });
        let server = tokio::spawn(listen::serve(listener, routes::router(shared), limits.connections));
        let following = tokio::spawn(follow(log.to_path_buf(), follower, feed));
        Ok(Stage { addr, tasks: vec![server, following] })
    }

    /// The page's address for a browser: this machine's address on its
    /// network when it listens on every interface.
    pub fn url(&self) -> String {
        let shown = if self.addr.ip().is_unspecified() { address::on_the_network(self.addr) } else { self.addr };
        format!("http://{shown}/")
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Tells the feed what the log brings, and whether a heat still records it.
async fn follow(log: PathBuf, follower: Follower, feed: Arc<feed::Feed>) {
    let mut watch = Watch::start(&log, follower);
    let mut liveness = tokio::time::interval(LIVENESS);
    loop {
        tokio::select! {
            next = watch.rx.recv() => match next {
                Some(Followed::Records(records)) => feed.tell(records.iter().map(|r| &r.event)),
                Some(Followed::Notice(_)) => {}
                // The log was replaced or lost: the page keeps what it was told.
                Some(Followed::Lost(_)) | None => {
                    feed.set_live(false);
                    return;
                }
            },
            _ = liveness.tick() => feed.set_live(crate::store::log::is_held(&log)),
        }
    }
}

fn bind_error(addr: SocketAddr, e: &std::io::Error) -> anyhow::Error {
    match e.kind() {
        std::io::ErrorKind::AddrInUse => anyhow::anyhow!(
            "the audience page cannot listen on {addr}: the port is in use; give another (`--web {}:0` picks a free one)",
            addr.ip()
        ),
        std::io::ErrorKind::AddrNotAvailable => {
            anyhow::anyhow!("the audience page cannot listen on {addr}: this machine has no such address")
        }
        _ => anyhow::anyhow!("the audience page cannot listen on {addr}: {e}"),
    }
}
