//! `A` in the studio: the shown debate's audience page served (as `heat
//! watch --web` serves it, at `ui.audience`), or stopped, and where it is
//! said in the status line. The page follows the session's log, never this
//! loop, so a room full of phones cannot slow the studio.

use super::running::Running;
use crate::tui::app::{App, Tone};
use crate::tui::flash::Until;
use crate::tui::studio::Studio;
use crate::web::Stage;

/// The page being served, and the session it shows.
pub(super) struct Served {
    _stage: Stage,
    session: String,
}

/// Serves the shown debate's page, or stops the one served.
pub(super) async fn toggle(studio: &Studio, app: &mut App, debate: Option<&Running>, served: &mut Option<Served>) {
    if let Some(was) = served.take() {
        app.say(Tone::Info, format!("The audience page of session {} stopped", was.session));
        return;
    }
    let Some(id) = debate.and_then(|d| d.session.clone()) else {
        app.say(Tone::Info, "No stored debate is shown to serve an audience");
        return;
    };
    match open(studio, &id).await {
        Ok(stage) => {
            let url = stage.url();
            let reach = if stage.addr.ip().is_loopback() {
                "; only this machine can open it (ui.audience = \"0.0.0.0\" serves the room)"
            } else {
                ""
            };
            app.say_until(Tone::Info, format!("The audience page is at {url}{reach} · A stops it"), Until::Replaced);
            *served = Some(Served { _stage: stage, session: id });
        }
        Err(e) => app.say(Tone::Error, format!("{e:#}")),
    }
}

async fn open(studio: &Studio, id: &str) -> anyhow::Result<Stage> {
    let addr = crate::web::address::parse(Some(&studio.audience))?;
    let loaded = studio.store.load(id)?;
    Stage::open(addr, &studio.store.log_path(id), &loaded).await
}
