//! The tournament on a terminal: the studio's board shown while the
//! debates run (its standings start from the games finished before this
//! run), and a debate chosen on it watched in the studio (steering it
//! reaches the debate), the board shown again when the watch is left.

use std::future::Future;
use std::io::IsTerminal as _;

use tokio::sync::{mpsc, watch};

use super::check::Loading;
use super::runner::Ending;
use crate::cli::stats;
use crate::store::Store;
use crate::store::tournaments::Stored;
use crate::tournament::progress::Progress;
use crate::tui::board::{self, Board, Controls, Exit};

/// Whether the board is shown: a person at a terminal, and no `--json`.
pub fn wanted(json: bool) -> bool {
    !json && std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Runs the tournament (`runner`) with the board shown over it, until the
/// tournament is over and the person leaves the board.
pub async fn run(
    asked: &Loading<'_>,
    (stored, store, seed): (&Stored, &Store, u64),
    mut told: mpsc::UnboundedReceiver<Progress>,
    (hold, stop): (&watch::Sender<bool>, &watch::Sender<bool>),
    runner: impl Future<Output = anyhow::Result<Ending>>,
) -> anyhow::Result<Ending> {
    let mut shown = Board::new(&stored.id, seed, earlier_games(stored, store), std::time::Instant::now());
    let controls = Controls { hold, stop };
    let shown = async {
        loop {
            match board::show(&mut shown, &mut told, &controls).await? {
                Exit::Leave => return anyhow::Ok(()),
                Exit::Watch(session) => watch(asked, &session).await?,
            }
        }
    };
    let shown = async {
        let result = shown.await;
        if result.is_err() {
            // Without its board the tournament stops where it is, saved.
            let _ = stop.send(true);
        }
        result
    };
    let (ending, shown) = tokio::join!(runner, shown);
    shown?;
    ending
}

/// The studio's watch of a running debate of the tournament, until the
/// person leaves it.
async fn watch(asked: &Loading<'_>, session: &str) -> anyhow::Result<()> {
    let config = crate::cli::load::config(asked.config_file, asked.flags)?;
    let target = crate::cli::watch::target(Some(session))?;
    Box::pin(crate::cli::studio::watch(&config, target, None)).await?;
    Ok(())
}

/// The games the tournament finished before this run, for the standings
/// (a session that cannot be loaded is left out, unsaid: the board is on
/// the screen).
fn earlier_games(stored: &Stored, store: &Store) -> Vec<crate::tournament::stats::Game> {
    stats::read(store, &stats::finished(stored)).games
}
