//! The signals that stop the studio or the tournament's board (saving and
//! restoring the terminal): SIGTERM, SIGINT, and SIGHUP for a closed
//! terminal window, and the status a studio stopped by one exits with.

use anyhow::Context;
use tokio::signal::unix::{SignalKind, signal};

/// The exit status of a studio interrupted (Ctrl-C, SIGINT): 128 + 2.
pub(super) const INTERRUPTED: u8 = 130;

/// The signals being watched, and the first one received.
pub(super) struct Signals {
    each: [tokio::signal::unix::Signal; 3],
    /// The status to exit with once one arrived: as a Unix tool stopped by
    /// that signal exits, 128 and its number.
    pub(super) received: Option<u8>,
}

impl Signals {
    pub(super) fn watch() -> anyhow::Result<Self> {
        let watch = |kind: SignalKind, name: &str| signal(kind).with_context(|| format!("could not watch for {name}"));
        let each = [
            watch(SignalKind::terminate(), "SIGTERM")?,
            watch(SignalKind::interrupt(), "SIGINT")?,
            watch(SignalKind::hangup(), "SIGHUP")?,
        ];
        Ok(Self { each, received: None })
    }

    /// Returns when any of them arrives, noting the status to exit with.
    pub(super) async fn next(&mut self) {
        let [term, int, hup] = &mut self.each;
        let status = tokio::select! {
            _ = term.recv() => 128 + 15,
            _ = int.recv() => INTERRUPTED,
            _ = hup.recv() => 128 + 1,
        };
        self.received = Some(status);
    }
}
