//! The studio's one loop: terminal input, engine events and signals in;
//! every pending event folded before a frame; at most one frame per 16 ms
//! and none at all while nothing changes.

mod branch;
mod setup_steps;
mod shown;
mod watch;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{Event, EventStream};
use futures::{FutureExt, StreamExt};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::app::{App, Replay, ReplayClock, Tone, Until};
use super::browser::Browser;
use super::effect::Effect;
use super::install::{self, InstallMsg, InstallState};
use super::modal::Modal;
use super::replay::{Playback, Timeline};
use super::settings;
use super::summarize;
use super::terminal::Guard;
use super::{Opening, Studio, view};
use crate::debate::engine::{self, DebateHandle, DebateSpec, Stamped};
use crate::debate::{Command, DebateEvent};
use crate::store::Recorder;
use crate::store::log::Loaded;
use setup_steps::{begin_install, on_configured, on_install, wait_for_settings};
use shown::{begin_summary, export_shown, export_stored, on_summary, record_shown, report_shown};
use watch::on_followed;

/// The shortest time between two frames: 60 a second, while one or two
/// seats stream.
const FRAME: Duration = Duration::from_millis(16);
/// The same with three seats or more streaming at once: 30 a second, each
/// frame carrying every pane's new words (six panes redrawn 60 times a
/// second cost more than the eye can follow).
const FRAME_BUSY: Duration = Duration::from_millis(33);
/// How many seats streaming at once make the studio draw at [`FRAME_BUSY`].
const BUSY_STREAMS: usize = 3;
/// How often a retry countdown redraws.
const TICK: Duration = Duration::from_millis(250);
/// How often "thinking 3 s" moves on while a turn waits for its first word.
const WAIT_TICK: Duration = Duration::from_secs(1);
/// Most engine events folded before input is looked at again.
const DRAIN: usize = 4096;
/// How long a stopping debate may take to wind down on quit.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Where a shown debate's events come from.
enum Source {
    Engine(DebateHandle),
    Replay(Playback),
    /// Another heat's log, followed read-only (`heat watch`).
    Watch(Box<crate::store::watch::Watch>),
}

struct Running {
    /// `None` once the source has sent its last event.
    source: Option<Source>,
    /// Records a live debate; a replay records nothing.
    recorder: Option<Recorder>,
    /// The stored session `e` exports.
    session: Option<String>,
    /// A replay's debate as loaded: `e` exports it (the demo is not stored).
    replayed: Option<Box<Loaded>>,
}

/// The shortest time between two frames now: [`FRAME`], or [`FRAME_BUSY`]
/// while [`BUSY_STREAMS`] seats or more stream.
fn frame_time(app: &App) -> Duration {
    if app.streams() >= BUSY_STREAMS { FRAME_BUSY } else { FRAME }
}

pub async fn run(mut studio: Studio, mut app: App) -> anyhow::Result<ExitCode> {
    let mut signals = Signals::watch()?;
    let mut guard = Guard::enter(studio.mouse).context("could not take over the terminal")?;
    let mut input = EventStream::new();
    let mut debate: Option<Running> = None;
    let mut installing = None;
    let mut configuring = None;
    let mut summarizing = None;
    let opening = std::mem::replace(&mut studio.opening, Opening::StartScreen);
    open(&studio, &mut app, &mut debate, opening)?;
    let mut retained = view::Retained::default();
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME;
    loop {
        if dirty && last_frame.elapsed() >= frame_time(&app) {
            guard.draw(|frame| view::render(frame, &mut app, &mut retained))?;
            last_frame = Instant::now();
            dirty = false;
        }
        let frame_due = last_frame + frame_time(&app);
        // A retry's countdown redraws four times a second; a wait for the first word, once.
        let counting_down = app.seats().into_iter().any(|r| app.retry_in(r).is_some());
        let tick_due = Instant::now() + if counting_down { TICK } else { WAIT_TICK };
        let mut effects = Vec::new();
        tokio::select! {
            biased;
            event = input.next() => match event {
                Some(Ok(event)) => {
                    effects = on_terminal(&mut app, event);
                    dirty = true;
                }
                Some(Err(e)) => return Err(e).context("could not read the terminal"),
                None => effects.push(Effect::Quit),
            },
            next = next_event(&mut debate) => {
                match next {
                    Next::Event(event) => fold(&mut app, &mut debate, event),
                    Next::Followed(followed) => on_followed(&mut app, &mut debate, followed),
                }
                dirty = true;
            }
            result = settings::next(&mut configuring) => {
                configuring = None;
                effects = on_configured(&mut studio, &mut app, result);
                dirty = true;
            }
            msg = summarize::next(&mut summarizing) => {
                on_summary(&studio, &mut app, &mut debate, &mut summarizing, msg);
                dirty = true;
            }
            msg = install::next(&mut installing) => {
                effects = on_install(&mut studio, &mut app, msg);
                if !matches!(app.install, Some(InstallState::Running(_))) {
                    installing = None;
                }
                dirty = true;
            }
            () = tokio::time::sleep_until(frame_due), if dirty => {}
            () = tokio::time::sleep_until(tick_due), if !dirty && app.animating() => dirty = true,
            () = signals.next() => effects.push(Effect::Quit),
        }
        for effect in effects {
            match effect {
                Effect::Send(command) => match debate.as_ref().and_then(|d| d.source.as_ref()) {
                    Some(Source::Engine(handle)) => {
                        handle.send(command);
                    }
                    Some(Source::Replay(playback)) => playback.set_paused(command == Command::Pause),
                    // A watch steers nothing (its keys say so before this).
                    Some(Source::Watch(_)) | None => {}
                },
                Effect::ReplaySpeed(_) | Effect::ReplaySkip => steer_playback(debate.as_ref(), &effect),
                // The settings being applied are the next debate's: it waits for them.
                Effect::Start(topic) if configuring.is_some() => wait_for_settings(&mut app, topic),
                Effect::Start(topic) => {
                    start_instead(&studio, &mut app, &mut debate, &mut input, &mut installing, topic).await?;
                }
                Effect::Export => export_shown(&studio, &mut app, debate.as_ref()),
                Effect::Report => report_shown(&studio, &mut app, debate.as_ref()),
                Effect::Summarize => summarizing = begin_summary(&studio, &mut app),
                Effect::Record(event) => record_shown(&studio, &mut app, &mut debate, &event),
                Effect::ExportSession(id) => export_stored(&studio, &mut app, &id),
                Effect::InstallModel => begin_install(&studio, &mut app, &mut installing),
                Effect::Configure(fields) => configuring = settings::start(studio.configure.as_ref(), fields),
                Effect::Copy(clip) => copy(&mut app, debate.as_ref(), &clip),
                Effect::Sessions => show_sessions(&studio, &mut app, debate.as_ref()),
                Effect::Open(id) => open_other(&studio, &mut app, &mut debate, &mut input, &id).await,
                Effect::Delete(id) => delete_session(&studio, &mut app, debate.as_ref(), &id),
                Effect::Branch(ask) => branch::branch_instead(&studio, &mut app, &mut debate, &mut input, &ask).await,
                Effect::Quit => {
                    stop(&mut app, &mut debate, &mut input).await;
                    drop(guard);
                    return Ok(farewell(&app, debate.as_ref()));
                }
                Effect::HardQuit => {
                    drop(guard);
                    std::process::exit(130);
                }
            }
            dirty = true;
        }
    }
}

/// Stops what is shown and starts a debate on `topic` (installing the
/// offline model first when the start screen queued it).
async fn start_instead(
    studio: &Studio,
    app: &mut App,
    debate: &mut Option<Running>,
    input: &mut EventStream,
    installing: &mut Option<mpsc::UnboundedReceiver<InstallMsg>>,
    topic: String,
) -> anyhow::Result<()> {
    let stopped = stop(app, debate, input).await;
    start(studio, app, debate, topic)?;
    say_stopped(app, stopped);
    if app.queued_topic.is_some() {
        begin_install(studio, app, installing);
    }
    Ok(())
}

/// The session browser, over the stored debates, the shown one marked.
fn show_sessions(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    let shown = debate.and_then(|d| d.session.clone());
    app.modal = Some(Modal::Sessions(Browser::new(studio.store.list()).showing(shown)));
}

/// The signals that stop the studio (saving and restoring the terminal):
/// SIGTERM, SIGINT, and SIGHUP for a closed terminal window.
struct Signals([tokio::signal::unix::Signal; 3]);

impl Signals {
    fn watch() -> anyhow::Result<Self> {
        let watch = |kind: SignalKind, name: &str| signal(kind).with_context(|| format!("could not watch for {name}"));
        Ok(Self([
            watch(SignalKind::terminate(), "SIGTERM")?,
            watch(SignalKind::interrupt(), "SIGINT")?,
            watch(SignalKind::hangup(), "SIGHUP")?,
        ]))
    }

    /// Returns when any of them arrives.
    async fn next(&mut self) {
        let [term, int, hup] = &mut self.0;
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
            _ = hup.recv() => {}
        }
    }
}

/// Stops what is shown and opens a stored debate in its place.
async fn open_other(studio: &Studio, app: &mut App, debate: &mut Option<Running>, input: &mut EventStream, id: &str) {
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
fn say_stopped(app: &mut App, stopped: Option<String>) {
    if let Some(id) = stopped {
        app.say(Tone::Info, format!("Stopped debate {id} and saved it; `heat resume {id}` continues it"));
    }
}

/// Shows what the studio opens on.
fn open(studio: &Studio, app: &mut App, debate: &mut Option<Running>, opening: Opening) -> anyhow::Result<()> {
    match opening {
        Opening::StartScreen => app.show_start(),
        Opening::Topic(topic) => start(studio, app, debate, topic)?,
        Opening::Resume { recorder, loaded } => *debate = Some(resume(studio, app, *recorder, &loaded)?),
        Opening::Replay { loaded, speed, id } => {
            app.begin(id.clone().unwrap_or_else(|| "demo".into()));
            app.replay = Some(Replay::Playing);
            let timeline = Timeline::new(&loaded.records);
            app.replay_clock = Some(ReplayClock { timeline, played: 0, speed });
            let source = Some(Source::Replay(Playback::start(loaded.records.clone(), speed)));
            *debate = Some(Running { source, recorder: None, session: id, replayed: Some(Box::new(loaded)) });
        }
        Opening::Watch { loaded, id, live } => *debate = Some(watch::open(studio, app, &loaded, id, live)?),
    }
    Ok(())
}

/// `+`, `-`, `]` in a replay: the playback's speed, or a skip.
fn steer_playback(debate: Option<&Running>, effect: &Effect) {
    let Some(Source::Replay(playback)) = debate.and_then(|d| d.source.as_ref()) else { return };
    match effect {
        Effect::ReplaySpeed(speed) => playback.set_speed(*speed),
        Effect::ReplaySkip => playback.skip(),
        _ => {}
    }
}

/// `y`: writes the clip to the terminal's clipboard and says so.
fn copy(app: &mut App, debate: Option<&Running>, clip: &super::copy::Clip) {
    let session = debate.and_then(|d| d.session.as_deref());
    let host = super::clipboard::Host::from_env();
    let (tone, sentence) = super::clipboard::copy(&mut std::io::stdout(), clip, host, session);
    app.say_until(tone, sentence, Until::NextRound);
}

fn on_terminal(app: &mut App, event: Event) -> Vec<Effect> {
    match event {
        Event::Key(key) => app.on_key(key),
        Event::Paste(text) => {
            app.on_paste(&text);
            Vec::new()
        }
        Event::Mouse(mouse) => {
            app.on_mouse(mouse);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// What the shown debate's source sends next.
enum Next {
    /// An engine's or a replay's event; `None` once it sent its last.
    Event(Option<Stamped>),
    /// What a watched log brings (in batches); `None` once it stopped.
    Followed(Option<crate::store::watch::Followed>),
}

/// The next event of the shown debate, or never when none is coming.
async fn next_event(debate: &mut Option<Running>) -> Next {
    match debate.as_mut().and_then(|d| d.source.as_mut()) {
        Some(Source::Engine(handle)) => Next::Event(handle.next_stamped().await),
        Some(Source::Replay(playback)) => Next::Event(playback.events.recv().await.map(now)),
        Some(Source::Watch(watch)) => Next::Followed(watch.rx.recv().await),
        None => std::future::pending().await,
    }
}

/// A replayed event, stamped when it is shown (a replay records nothing).
fn now(event: DebateEvent) -> Stamped {
    Stamped { event, at: std::time::Instant::now() }
}

/// What a source has without waiting.
enum Ready {
    Event(Stamped),
    /// The source sent its last event.
    Closed,
    Nothing,
}

fn ready_event(source: &mut Source) -> Ready {
    let next = match source {
        Source::Engine(handle) => handle.next_stamped().now_or_never(),
        Source::Replay(playback) => match playback.events.try_recv() {
            Ok(event) => Some(Some(now(event))),
            Err(tokio::sync::mpsc::error::TryRecvError::Empty) => None,
            Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => Some(None),
        },
        Source::Watch(_) => None,
    };
    match next {
        Some(Some(event)) => Ready::Event(event),
        Some(None) => Ready::Closed,
        None => Ready::Nothing,
    }
}

/// Records and folds an event and every one already waiting behind it.
fn fold(app: &mut App, debate: &mut Option<Running>, first: Option<Stamped>) {
    let Some(running) = debate.as_mut() else { return };
    let mut next = first;
    for _ in 0..DRAIN {
        let Some(Stamped { event, at }) = next else {
            // The source has sent everything and closed its channel.
            running.source = None;
            if app.replay.is_some() {
                app.replay = Some(Replay::Ended);
            }
            return;
        };
        if let Some(warning) = running.recorder.as_mut().and_then(|r| r.record_at(&event, at)) {
            app.say(Tone::Error, warning);
        }
        // A replayed event happened at its recorded time.
        let recorded = app.replay_clock.as_mut().and_then(|clock| {
            clock.played += 1;
            clock.timeline.recorded(clock.played - 1)
        });
        match recorded {
            Some(ms) => app.on_event_at(&event, ms),
            None => app.on_event(&event),
        }
        let Some(source) = running.source.as_mut() else { return };
        next = match ready_event(source) {
            Ready::Event(event) => Some(event),
            Ready::Closed => None,
            Ready::Nothing => return,
        };
    }
}

fn start(studio: &Studio, app: &mut App, debate: &mut Option<Running>, topic: String) -> anyhow::Result<()> {
    let Some(setup) = &studio.setup else {
        if studio.installer.is_some() {
            // The debate starts once the model is in.
            app.queued_topic = Some(topic);
            app.say(Tone::Info, "The debate starts once the offline model is installed");
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
    let session = Some(recorder.id().to_string());
    *debate = Some(Running { source: Some(Source::Engine(handle)), recorder: Some(recorder), session, replayed: None });
    Ok(())
}

/// Shows a stored debate as it stood and continues it.
fn resume(
    studio: &Studio,
    app: &mut App,
    recorder: Recorder,
    loaded: &crate::store::log::Loaded,
) -> anyhow::Result<Running> {
    let setup = studio.setup.clone().context("resuming needs providers")?;
    app.begin(recorder.id().to_string());
    for record in &loaded.records {
        app.on_event_at(&record.event, record.ms);
    }
    app.continue_clock(loaded.records.last().map_or(0, |r| r.ms));
    let state = recorder.state().clone();
    let was_paused = state.paused;
    let handle = engine::resume(setup, state);
    if was_paused {
        handle.send(Command::Resume);
    }
    let resumed = format!("Resumed session {}", recorder.id());
    match recorder.state().source.as_ref().and_then(crate::debate::grounding::resume_notice) {
        Some(notice) => app.say_until(Tone::Warn, format!("{resumed}: {notice}"), Until::NextRound),
        None => app.say_until(Tone::Info, resumed, Until::NextRound),
    }
    let session = Some(recorder.id().to_string());
    Ok(Running { source: Some(Source::Engine(handle)), recorder: Some(recorder), session, replayed: None })
}

/// Shows a stored session: continued when it stopped early and providers
/// are set up, else as it stands.
fn open_session(studio: &Studio, app: &mut App, id: &str) -> anyhow::Result<Running> {
    let loaded = studio.store.load(id)?;
    let state = crate::debate::DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    let can_continue = crate::store::check_continuable(id, &state).is_ok();
    if can_continue && studio.setup.is_some() {
        let (recorder, loaded) = studio.store.reopen(id)?;
        return resume(studio, app, recorder, &loaded);
    }
    app.begin(id.to_string());
    for record in &loaded.records {
        app.on_event_at(&record.event, record.ms);
    }
    app.say(Tone::Info, format!("Session {id}, as stored"));
    Ok(Running { source: None, recorder: None, session: Some(id.to_string()), replayed: None })
}

fn delete_session(studio: &Studio, app: &mut App, debate: Option<&Running>, id: &str) {
    // The browser refuses it before asking; this holds if a key map ever lets one through.
    if debate.and_then(|d| d.session.as_deref()) == Some(id) {
        app.say(Tone::Warn, crate::tui::browser::ON_SCREEN);
        return;
    }
    match studio.store.remove(id) {
        Ok(()) => {
            if let Some(Modal::Sessions(browser)) = &mut app.modal {
                browser.remove(id);
            }
            app.say_until(Tone::Info, format!("Deleted session {id}"), Until::NextRound);
        }
        Err(e) => app.say(Tone::Error, format!("{e:#}")),
    }
}

/// Stops a running debate and records how it ended; returns its session
/// when it was live (so the person can be told how to go on with it). A
/// Ctrl-C while it winds down quits at once.
async fn stop(app: &mut App, debate: &mut Option<Running>, input: &mut EventStream) -> Option<String> {
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
            super::terminal::leave();
            std::process::exit(130);
        }
    }
    stopped
}

/// What to print after the screen is restored.
fn farewell(app: &App, debate: Option<&Running>) -> ExitCode {
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
