//! The studio's sessions: a debate started, a stored one continued or
//! opened as it stands, one deleted, the shown one stopped (and saved), and
//! what is said after the screen is restored.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;

use super::running::{Running, Source};
use crate::debate::Command;
use crate::debate::engine::{self, DebateSpec, Stamped};
use crate::store::Recorder;
use crate::tui::app::{App, Tone, Until};
use crate::tui::effect::Effect;
use crate::tui::studio::Studio;

/// How long a stopping debate may take to wind down on quit.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(super) fn start(studio: &Studio, app: &mut App, debate: &mut Option<Running>, topic: String) -> anyhow::Result<()> {
    let Some(setup) = &studio.setup else {
        if studio.installer.is_some() {
            // The debate starts once the model is in.
            app.wait_to_start(topic, "The debate starts once the offline model is installed");
        } else {
            app.say(Tone::Info, "This studio only replays; run `heat` to start a debate");
        }
        return Ok(());
    };
    if let Some(source) = &studio.spec.grounding.source {
        // Too big for a model: said before anything is stored.
        if let Err(e) = setup.check_fits(source) {
            app.say(Tone::Error, format!("{e:#}"));
            return Ok(());
        }
    }
    let recorder = studio.store.create()?;
    app.begin(recorder.id().to_string());
    let spec = DebateSpec { topic, ..studio.spec.clone() };
    let handle = engine::start(setup.clone(), spec);
    *debate = Some(Running::live(handle, recorder));
    Ok(())
}

/// Shows a stored debate as it stood and continues it.
pub(super) fn resume(
    studio: &Studio,
    app: &mut App,
    recorder: Recorder,
    loaded: &crate::store::log::Loaded,
    reopening: engine::Reopening,
) -> anyhow::Result<Running> {
    let mut setup = studio.setup.clone().context("resuming needs providers")?;
    let (library, library_notice) = recorder
        .state()
        .library
        .as_ref()
        .map(|l| l.reopen(crate::store::kept_libraries().as_deref()))
        .unwrap_or_default();
    setup.library = library;
    let last_ms = app.show_stored(recorder.id().to_string(), &loaded.records);
    app.continue_clock(last_ms);
    let more = match reopening.more {
        0 => String::new(),
        n => format!(" for {}", crate::words::count(n as usize, "more round")),
    };
    let handle = engine::go_on(setup, recorder.state().clone(), engine::GoOn::Resume(reopening));
    let resumed = format!("Resumed session {}{more}", recorder.id());
    let source_notice = recorder.state().source.as_ref().and_then(crate::debate::grounding::resume_notice);
    match source_notice.or(library_notice) {
        Some(notice) => app.say_until(Tone::Warn, format!("{resumed}: {notice}"), Until::NextRound),
        None => app.say_until(Tone::Info, resumed, Until::NextRound),
    }
    Ok(Running::live(handle, recorder))
}

/// Shows a stored session: continued when it stopped early and providers
/// are set up, else as it stands.
pub(super) fn open_session(studio: &Studio, app: &mut App, id: &str) -> anyhow::Result<Running> {
    let loaded = studio.store.load(id)?;
    let state = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    let can_continue = crate::store::check_continuable(id, &state, 0).is_ok();
    if can_continue && studio.setup.is_some() {
        let (recorder, loaded) = studio.store.reopen(id)?;
        return resume(studio, app, recorder, &loaded, engine::Reopening::default());
    }
    app.show_stored(id.to_string(), &loaded.records);
    app.say(Tone::Info, format!("Session {id}, as stored"));
    Ok(Running::shown(None, Some(id.to_string()), None))
}

/// Goes on with the shown debate, which came to its end, for `rounds` more
/// rounds: its engine is started again on the log it wrote (or the stored
/// session is reopened), and says why when it cannot.
pub(super) fn go_on_ended(studio: &Studio, app: &mut App, debate: &mut Option<Running>, rounds: u32) {
    if let Err(e) = try_go_on_ended(studio, debate, rounds) {
        app.say(Tone::Error, format!("Could not go on with the debate: {e:#}"));
    }
}

fn try_go_on_ended(studio: &Studio, debate: &mut Option<Running>, rounds: u32) -> anyhow::Result<()> {
    let running = debate.as_mut().context("no debate is shown")?;
    let id = running.session.clone().context("the debate shown is not stored")?;
    let setup = studio
        .setup
        .clone()
        .context("going on needs providers; run `heat` with a key, a server or the offline model")?;
    if let Some(Source::Engine(handle)) = &running.source {
        // Its engine still runs (its ending not yet told): it takes the rounds as a command.
        handle.send(Command::AddRounds(rounds));
        return Ok(());
    }
    let recorder = match running.recorder.take() {
        Some(recorder) => recorder,
        None => studio.store.reopen(&id)?.0,
    };
    crate::store::check_continuable(&id, recorder.state(), rounds)?;
    let reopening = engine::Reopening { more: rounds, question: None };
    let handle = engine::go_on(setup, recorder.state().clone(), engine::GoOn::Resume(reopening));
    *debate = Some(Running::live(handle, recorder));
    Ok(())
}

/// Deletes, names or tags a stored session, as the browser asked.
pub(super) fn manage_session(studio: &Studio, app: &mut App, debate: Option<&Running>, effect: Effect) {
    match effect {
        Effect::Delete(id) => delete_session(studio, app, debate, &id),
        Effect::Label(id, label) => label_session(studio, app, &id, label),
        _ => {}
    }
}

fn delete_session(studio: &Studio, app: &mut App, debate: Option<&Running>, id: &str) {
    // The browser refuses it before asking; this holds if a key map ever lets one through.
    if debate.and_then(|d| d.session.as_deref()) == Some(id) {
        app.say(Tone::Warn, crate::tui::browser::ON_SCREEN);
        return;
    }
    match studio.store.remove(id) {
        Ok(()) => {
            app.session_deleted(id);
        }
        Err(e) => app.say(Tone::Error, format!("{e:#}")),
    }
}

/// Stores a session's new name and tags (beside its log, so even the
/// debate running here is named without a second writer) and shows them.
fn label_session(studio: &Studio, app: &mut App, id: &str, change: crate::store::label::Change) {
    match studio.store.relabel(id, |stored| {
        change.apply(stored);
        Ok(())
    }) {
        Ok(label) => {
            let tags = crate::store::label::hashed(&label.tags);
            let said = match (&label.name, label.tags.is_empty()) {
                (Some(name), true) => format!("Session {id} is named {name:?}"),
                (Some(name), false) => format!("Session {id} is named {name:?}, tagged {tags}"),
                (None, false) => format!("Session {id} is tagged {tags}"),
                (None, true) => format!("Session {id} has no name or tags now"),
            };
            app.session_labelled(id, label, said);
        }
        Err(e) => app.say(Tone::Error, format!("{e:#}")),
    }
}

/// Stops a running debate and records how it ended; returns its session
/// when it was live (so the person can be told how to go on with it). A
/// Ctrl-C while it winds down quits at once.
pub(super) async fn stop(app: &mut App, debate: &mut Option<Running>, input: &mut EventStream) -> Option<String> {
    let live = app.live() && app.replay.is_none();
    let running = debate.as_mut()?;
    let Some(Source::Engine(mut handle)) = running.source.take() else { return None };
    let stopped = running.session.clone().filter(|_| live);
    handle.send(Command::Stop);
    let drain = async {
        while let Some(Stamped { event, at }) = handle.next_stamped().await {
            if let Some(recorder) = running.recorder.as_mut() {
                recorder.record_at(&event, at);
            }
            app.on_event(&event);
        }
    };
    let interrupted = async {
        while let Some(Ok(event)) = input.next().await {
            if let Event::Key(key) = event
                && key.code == crossterm::event::KeyCode::Char('c')
                && key.modifiers.contains(crossterm::event::KeyModifiers::CONTROL)
            {
                return;
            }
        }
        std::future::pending::<()>().await;
    };
    tokio::select! {
        stopped = tokio::time::timeout(STOP_GRACE, drain) => if stopped.is_err() {
            app.say(Tone::Warn, "The debate did not stop in time; its log ends at the last event");
        },
        () = interrupted => {
            crate::tui::terminal::leave();
            std::process::exit(130);
        }
    }
    stopped
}

/// What to print after the screen is restored.
pub(super) fn farewell(app: &App, debate: Option<&Running>) -> ExitCode {
    if let Some(running) = debate.filter(|d| d.recorder.is_some()) {
        let Some(recorder) = &running.recorder else { return ExitCode::SUCCESS };
        let outcome = app.debate.finish.as_ref().map_or("unfinished".to_string(), |f| f.outcome.describe());
        // Never a panic: with stderr closed there is nobody left to tell.
        let (id, mut stderr) = (recorder.id(), std::io::stderr());
        let _ = std::io::Write::write_all(
            &mut stderr,
            format!("heat: session {id} saved ({outcome}); `heat export {id}` writes it out\n").as_bytes(),
        );
    }
    ExitCode::SUCCESS
}

/// Stops what is shown and opens a stored debate in its place.
pub(super) async fn open_other(
    studio: &Studio,
    app: &mut App,
    debate: &mut Option<Running>,
    input: &mut EventStream,
    id: &str,
) {
    let stopped = stop(app, debate, input).await.filter(|s| s != id);
    // Dropping the shown debate releases its log for reopening.
    *debate = None;
    match open_session(studio, app, id) {
        Ok(running) => {
            *debate = Some(running);
            say_stopped(app, stopped);
        }
        Err(e) => app.say(Tone::Error, format!("Could not open session {id}: {e:#}")),
    }
}

/// Says which debate was stopped to make way, and how to go on with it.
pub(super) fn say_stopped(app: &mut App, stopped: Option<String>) {
    if let Some(id) = stopped {
        app.say(Tone::Info, format!("Stopped debate {id} and saved it; `heat resume {id}` continues it"));
    }
}
