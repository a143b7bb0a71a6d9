//! `a` in the results view: the arbiter's summary of the shown debate,
//! asked of the judge's model in the background. Its text streams into the
//! results view; once whole it is recorded in the session (so the report,
//! the export and a replay have it) and folded into the studio.

use tokio::sync::mpsc;

use super::studio::Studio;
use crate::debate::{DebateEvent, Role, summary};

/// What the summary's task reports.
pub enum SummaryMsg {
    /// More text; `None`: a retry starts it again.
    Text(Option<String>),
    Done(anyhow::Result<DebateEvent>),
}

/// Starts the summary of `state`, or says why it cannot start.
pub fn start(
    studio: &Studio,
    state: &crate::debate::DebateState,
) -> Result<mpsc::UnboundedReceiver<SummaryMsg>, &'static str> {
    if state.finish.is_none() {
        return Err("The summary is of an ended debate: ask once this one ends");
    }
    let Some(setup) = studio.setup.as_ref() else {
        return Err("This studio has no model to ask: `heat report ID --summary` writes one");
    };
    let judge = setup.role(Role::Judge).clone();
    let request = summary::request(state, &setup.prompts, &judge);
    let retry = setup.retry;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let pieces = tx.clone();
        let result = summary::write(&judge, request, retry, |piece| {
            let _ = pieces.send(SummaryMsg::Text(piece.map(str::to_string)));
        })
        .await;
        let _ = tx.send(SummaryMsg::Done(result));
    });
    Ok(rx)
}

/// The next report of a summary under way; never while none is.
pub async fn next(rx: &mut Option<mpsc::UnboundedReceiver<SummaryMsg>>) -> Option<SummaryMsg> {
    match rx.as_mut() {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}
