//! The studio as a watch (`heat watch`): opens on another heat's debate as
//! its log stands, then folds what is appended to the log as it comes, the
//! way live engine events are folded. Nothing is recorded or steered.

use super::running::{Running, Source};
use crate::store::follow::Follower;
use crate::store::log::Loaded;
use crate::store::watch::{Followed, Watch};
use crate::tui::app::{App, Tone};
use crate::tui::studio::Studio;

/// Shows the watched debate as its log stands and, while another heat runs
/// it, follows the log from where its complete lines end.
pub(super) fn open(studio: &Studio, app: &mut App, loaded: &Loaded, id: String, live: bool) -> anyhow::Result<Running> {
    let last_ms = app.show_stored(id.clone(), &loaded.records);
    app.continue_clock(last_ms);
    let path = studio.store.log_path(&id);
    app.watch(live, crate::store::steering::taken(&path));
    match (&app.debate.finish, live) {
        (Some(finish), _) => {
            let outcome = crate::sanitize::clean(&finish.outcome.describe());
            // The header names the session: this fits 80 columns.
            let text = format!("This debate has ended: {outcome}. {}", app.finished_hint());
            app.say(Tone::Info, text);
        }
        (None, false) => app.say(
            Tone::Warn,
            format!("Session {id} is not running: it stopped unfinished (`heat resume {id}` continues it)"),
        ),
        (None, true) => {}
    }
    let source = if live {
        let follower = Follower::at(&path, loaded.valid_len())?;
        Some(Source::Watch(Box::new(Watch::start(&path, follower))))
    } else {
        None
    };
    Ok(Running::shown(source, Some(id), None))
}

/// Folds appended events as live ones are; says what was skipped, and why
/// the watch stopped when the log was lost.
pub(super) fn on_followed(app: &mut App, debate: &mut Option<Running>, followed: Option<Followed>) {
    match followed {
        Some(Followed::Records(records)) => {
            for record in &records {
                app.on_event(&record.event);
            }
        }
        Some(Followed::Notice(notice)) => app.say(Tone::Warn, crate::sanitize::clean(&notice)),
        Some(Followed::Lost(why)) => {
            stop_following(debate);
            app.say(Tone::Error, format!("The watch stopped: {}", crate::sanitize::clean(&why)));
        }
        None => stop_following(debate),
    }
}

fn stop_following(debate: &mut Option<Running>) {
    if let Some(running) = debate.as_mut() {
        running.source = None;
    }
}
