//! The studio's one loop: terminal input, engine events and signals in;
//! every pending event folded before a frame; at most one frame per 16 ms
//! and none at all while nothing changes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{Event, EventStream};
use futures::{FutureExt, StreamExt};
use tokio::signal::unix::{SignalKind, signal};
use tokio::time::Instant;

use super::app::{App, Effect, Tone};
use super::terminal::Guard;
use super::{Studio, view};
use crate::debate::engine::{self, DebateHandle, DebateSpec};
use crate::debate::{Command, DebateEvent};
use crate::store::Recorder;
use crate::store::export::{self, Format};

const FRAME: Duration = Duration::from_millis(16);
/// How often a retry countdown redraws.
const TICK: Duration = Duration::from_millis(250);
/// Most engine events folded before input is looked at again.
const DRAIN: usize = 4096;
/// How long a stopping debate may take to wind down on quit.
const STOP_GRACE: Duration = Duration::from_secs(5);

struct Running {
    handle: Option<DebateHandle>,
    recorder: Recorder,
}

pub async fn run(studio: Studio, mut app: App) -> anyhow::Result<ExitCode> {
    let mut sigterm = signal(SignalKind::terminate()).context("could not watch for SIGTERM")?;
    let mut sigint = signal(SignalKind::interrupt()).context("could not watch for SIGINT")?;
    let mut guard = Guard::enter().context("could not take over the terminal")?;
    let mut input = EventStream::new();
    let mut debate: Option<Running> = None;
    match &studio.topic {
        Some(topic) => start(&studio, &mut app, &mut debate, topic.clone())?,
        None => app.show_start(),
    }
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME;
    loop {
        if dirty && last_frame.elapsed() >= FRAME {
            guard.draw(|frame| view::render(frame, &mut app))?;
            last_frame = Instant::now();
            dirty = false;
        }
        let frame_due = last_frame + FRAME;
        let tick_due = Instant::now() + TICK;
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
            event = next_event(&mut debate) => {
                fold(&mut app, &mut debate, event);
                dirty = true;
            }
            () = tokio::time::sleep_until(frame_due), if dirty => {}
            () = tokio::time::sleep_until(tick_due), if !dirty && app.animating() => dirty = true,
            _ = sigterm.recv() => effects.push(Effect::Quit),
            _ = sigint.recv() => effects.push(Effect::Quit),
        }
        for effect in effects {
            match effect {
                Effect::Send(command) => {
                    if let Some(handle) = debate.as_ref().and_then(|d| d.handle.as_ref()) {
                        handle.send(command);
                    }
                }
                Effect::Start(topic) => {
                    stop(&mut app, &mut debate).await;
                    start(&studio, &mut app, &mut debate, topic)?;
                }
                Effect::Export => export_markdown(&studio, &mut app, debate.as_ref()),
                Effect::Quit => {
                    stop(&mut app, &mut debate).await;
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

/// The next engine event, or never when no debate is running.
async fn next_event(debate: &mut Option<Running>) -> Option<DebateEvent> {
    match debate.as_mut().and_then(|d| d.handle.as_mut()) {
        Some(handle) => handle.next_event().await,
        None => std::future::pending().await,
    }
}

/// Records and folds an event and every one already waiting behind it.
fn fold(app: &mut App, debate: &mut Option<Running>, first: Option<DebateEvent>) {
    let Some(running) = debate.as_mut() else { return };
    let mut next = first;
    for _ in 0..DRAIN {
        let Some(event) = next else {
            // The engine has finished and closed its channel.
            running.handle = None;
            return;
        };
        if let Some(warning) = running.recorder.record(&event) {
            app.say(Tone::Error, warning);
        }
        app.on_event(&event);
        let Some(handle) = running.handle.as_mut() else { return };
        match handle.next_event().now_or_never() {
            Some(event) => next = event,
            None => return,
        }
    }
}

fn start(studio: &Studio, app: &mut App, debate: &mut Option<Running>, topic: String) -> anyhow::Result<()> {
    let recorder = studio.store.create()?;
    app.begin(recorder.id().to_string());
    let spec = DebateSpec { topic, ..studio.spec.clone() };
    let handle = engine::start(studio.setup.clone(), spec);
    *debate = Some(Running { handle: Some(handle), recorder });
    Ok(())
}

/// Stops a running debate and records how it ended.
async fn stop(app: &mut App, debate: &mut Option<Running>) {
    let Some(running) = debate.as_mut() else { return };
    let Some(mut handle) = running.handle.take() else { return };
    handle.send(Command::Stop);
    let drain = async {
        while let Some(event) = handle.next_event().await {
            running.recorder.record(&event);
            app.on_event(&event);
        }
    };
    if tokio::time::timeout(STOP_GRACE, drain).await.is_err() {
        app.say(Tone::Warn, "The debate did not stop in time; its log ends at the last event");
    }
}

/// Writes the debate as Markdown into the current directory.
fn export_markdown(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    let Some(running) = debate else {
        app.say(Tone::Info, "Nothing to export yet");
        return;
    };
    let id = running.recorder.id().to_string();
    let written = studio.store.load(&id).and_then(|loaded| {
        let text = export::render(Format::Md, &loaded.header, &loaded.records);
        let path = studio.export_dir.join(format!("heat-{id}.md"));
        std::fs::write(&path, text).with_context(|| format!("could not write {}", path.display()))?;
        Ok(path)
    });
    match written {
        Ok(path) => app.say(Tone::Good, format!("Exported to {}", display(&path))),
        Err(e) => app.say(Tone::Error, format!("Export failed: {e:#}")),
    }
}

fn display(path: &std::path::Path) -> String {
    std::path::absolute(path).unwrap_or_else(|_| PathBuf::from(path)).display().to_string()
}

/// What to print after the screen is restored.
fn farewell(app: &App, debate: Option<&Running>) -> ExitCode {
    if let Some(running) = debate {
        let outcome = app.debate.finish.as_ref().map_or("unfinished".to_string(), |f| f.outcome.describe());
        eprintln!(
            "heat: session {} saved ({outcome}); `heat export {}` writes it out",
            running.recorder.id(),
            running.recorder.id()
        );
    }
    ExitCode::SUCCESS
}
