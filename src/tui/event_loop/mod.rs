//! The studio's one loop: terminal input, engine events and signals in;
//! every pending event folded before a frame; at most one frame per 16 ms
//! and none at all while nothing changes. Between a change and its frame
//! the debate's events are left waiting, so a stream of tokens wakes the
//! loop once a frame, not once a token.

mod asks;
mod audience;
mod branch;
mod external_editor;
mod frames;
mod model_lists;
mod running;
mod session;
mod setup_steps;
mod shown;
mod watch;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::app::{App, Tone, Until};
use super::browser::Browser;
use super::effect::Effect;
use super::install::{self, InstallMsg};
use super::modal::Modal;
use super::replay::{Playback, Timeline};
use super::settings;
use super::studio::{Opening, Studio};
use super::summarize;
use super::terminal::Guard;
use super::view;
use crate::debate::Command;
use frames::Frames;
use running::{Next, Running, Source, fold, next_event};
use session::{farewell, go_on_ended, manage_session, open_other, resume, say_stopped, start, stop};
use setup_steps::{begin_install, on_configured, on_install, wait_for_settings};
use shown::{begin_summary, export_shown, export_stored, on_summary, record_shown, report_shown};
use watch::on_followed;

/// How often a retry countdown redraws.
const TICK: Duration = Duration::from_millis(250);
/// How often "thinking 3 s" moves on while a turn waits for its first word.
const WAIT_TICK: Duration = Duration::from_secs(1);
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
    let mut frames = Frames::new();
    let mut asks = asks::Asks::default();
    let (mut lists, mut served) = (model_lists::ModelLists::new(), None);
    loop {
        frames.changed_if(asks.follow(studio.setup.as_ref(), &mut app));
        if frames.ready() {
            running::fold_waiting(&mut app, &mut debate);
            guard.draw(|frame| super::frame::render(frame, &mut app, &mut retained))?;
            frames.drawn();
        }
        // A retry's countdown redraws four times a second; a wait for the first word, once.
        let counting_down = app.seats().into_iter().any(|r| app.retry_in(r).is_some());
        let tick_due = Instant::now() + if counting_down { TICK } else { WAIT_TICK };
        let mut effects = Vec::new();
        tokio::select! {
            biased;
            event = input.next() => match event {
                Some(Ok(event)) => {
                    effects = on_terminal(&mut app, event);
                    frames.person_acted();
                }
                Some(Err(e)) => return Err(e).context("could not read the terminal"),
                None => effects.push(Effect::Quit),
            },
            // While a frame waits to be drawn, the debate's events wait with
            // it and are folded together just before it: a streamed token
            // does not wake the studio on its own.
            next = next_event(&mut debate), if !frames.waiting() => {
                match next {
                    Next::Event(event) => fold(&mut app, &mut debate, event),
                    Next::Followed(followed) => on_followed(&mut app, &mut debate, followed),
                    Next::Ballots(batch) => running::on_ballots(&mut app, &mut debate, batch),
                }
                frames.changed();
            }
            Some(ask) = asks.next() => {
                app.person_asked(ask);
                frames.changed();
            }
            Some(answer) = lists.next() => frames.changed_if(model_lists::deliver(&mut app, answer)),
            result = settings::next(&mut configuring) => {
                configuring = None;
                effects = on_configured(&mut studio, &mut app, result);
                frames.changed();
            }
            msg = summarize::next(&mut summarizing) => {
                on_summary(&studio, &mut app, &mut debate, &mut summarizing, msg);
                frames.changed();
            }
            msg = install::next(&mut installing) => {
                effects = on_install(&mut studio, &mut app, &mut installing, msg);
                frames.changed();
            }
            () = tokio::time::sleep_until(frames.due()), if frames.waiting() => {}
            () = tokio::time::sleep_until(tick_due), if !frames.waiting() && app.animating() => frames.changed(),
            () = signals.next() => effects.push(Effect::Quit),
        }
        for effect in effects {
            match effect {
                Effect::Send(command) => send(debate.as_ref(), command),
                Effect::ReplaySpeed(_) | Effect::ReplaySkip => steer_playback(debate.as_ref(), &effect),
                // The settings being applied are the next debate's: it waits for them.
                Effect::Start(topic) if configuring.is_some() => wait_for_settings(&mut app, topic),
                Effect::Start(topic) => {
                    start_instead(&studio, &mut app, &mut debate, &mut input, &mut installing, topic).await?;
                }
                Effect::Export => export_shown(&studio, &mut app, debate.as_ref()),
                Effect::Audience => audience::toggle(&studio, &mut app, debate.as_ref(), &mut served).await,
                Effect::Report => report_shown(&studio, &mut app, debate.as_ref()),
                Effect::Summarize => summarizing = begin_summary(&studio, &mut app),
                Effect::Record(event) => record_shown(&studio, &mut app, &mut debate, &event),
                Effect::ExportSession(id) => export_stored(&studio, &mut app, &id),
                Effect::InstallModel => begin_install(&studio, &mut app, &mut installing),
                Effect::Configure(fields) => configuring = settings::start(studio.configure.as_ref(), fields),
                Effect::ListModels(provider) => lists.ask(&studio, provider),
                Effect::Copy(clip) => copy(&mut app, debate.as_ref(), &clip),
                Effect::CopyDebate => copy_debate(&studio, &mut app, debate.as_ref()),
                Effect::Sessions => show_sessions(&studio, &mut app, debate.as_ref()),
                Effect::Open(id) => open_other(&studio, &mut app, &mut debate, &mut input, &id).await,
                Effect::Delete(_) | Effect::Label(..) => manage_session(&studio, &mut app, debate.as_ref(), effect),
                Effect::Branch(ask) => branch::branch_instead(&studio, &mut app, &mut debate, &mut input, &ask).await,
                Effect::MoreRounds(rounds) => go_on_ended(&studio, &mut app, &mut debate, rounds),
                Effect::Quit => {
                    stop(&mut app, &mut debate, &mut input).await;
                    drop(guard);
                    return Ok(exit_status(&app, debate.as_ref(), signals.received));
                }
                Effect::HardQuit => hard_quit(guard),
                Effect::EditTurn => external_editor::edit_turn(&mut app, &mut guard, &mut input, studio.mouse),
            }
            frames.person_acted();
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
    if app.start.queued_topic.is_some() {
        begin_install(studio, app, installing);
    }
    Ok(())
}

/// The session browser, over the stored debates, the shown one marked.
fn show_sessions(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    let shown = debate.and_then(|d| d.session.clone());
    let entries = studio.store.list();
    // What each debate said, so typing finds a debate by its words too.
    let said = entries.iter().filter_map(|e| Some((e.id.clone(), studio.store.said(&e.id)?))).collect();
    app.open(Modal::Sessions(Browser::new(entries).showing(shown).with_said(said)));
}

/// The exit status of a studio interrupted (Ctrl-C, SIGINT): 128 + 2.
const INTERRUPTED: u8 = 130;

/// The signals that stop the studio (saving and restoring the terminal):
/// SIGTERM, SIGINT, and SIGHUP for a closed terminal window.
struct Signals {
    each: [tokio::signal::unix::Signal; 3],
    /// The status to exit with once one arrived: as a Unix tool stopped by
    /// that signal exits, 128 and its number.
    received: Option<u8>,
}

impl Signals {
    fn watch() -> anyhow::Result<Self> {
        let watch = |kind: SignalKind, name: &str| signal(kind).with_context(|| format!("could not watch for {name}"));
        let each = [
            watch(SignalKind::terminate(), "SIGTERM")?,
            watch(SignalKind::interrupt(), "SIGINT")?,
            watch(SignalKind::hangup(), "SIGHUP")?,
        ];
        Ok(Self { each, received: None })
    }

    /// Returns when any of them arrives, noting the status to exit with.
    async fn next(&mut self) {
        let [term, int, hup] = &mut self.each;
        let status = tokio::select! {
            _ = term.recv() => 128 + 15,
            _ = int.recv() => INTERRUPTED,
            _ = hup.recv() => 128 + 1,
        };
        self.received = Some(status);
    }
}

/// Shows what the studio opens on.
fn open(studio: &Studio, app: &mut App, debate: &mut Option<Running>, opening: Opening) -> anyhow::Result<()> {
    match opening {
        Opening::StartScreen => app.show_start(),
        Opening::Topic(topic) => start(studio, app, debate, topic)?,
        Opening::Resume { recorder, loaded, reopening } => {
            *debate = Some(resume(studio, app, *recorder, &loaded, reopening)?);
        }
        Opening::Replay { loaded, speed, id } => {
            app.play(id.clone().unwrap_or_else(|| "demo".into()), Timeline::new(&loaded.records), speed);
            let source = Some(Source::Replay(Playback::start(loaded.records.clone(), speed)));
            *debate = Some(Running::shown(source, id, Some(Box::new(loaded))));
        }
        Opening::Watch { loaded, id, live } => *debate = Some(watch::open(studio, app, &loaded, id, live)?),
    }
    Ok(())
}

/// A person's command, to what shows the debate.
fn send(debate: Option<&Running>, command: Command) {
    match debate.and_then(|d| d.source.as_ref()) {
        Some(Source::Engine(handle)) => {
            handle.send(command);
        }
        Some(Source::Replay(playback)) => playback.set_paused(command == Command::Pause),
        // A watch steers nothing (its keys say so before this).
        Some(Source::Watch(_)) | None => {}
    }
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

/// A second Ctrl-C: leaves at once, the terminal restored, as interrupted.
fn hard_quit(guard: Guard) -> ! {
    drop(guard);
    std::process::exit(i32::from(INTERRUPTED));
}

/// `Y`: the whole debate, as its Markdown export, to the clipboard.
fn copy_debate(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    match shown::debate_clip(studio, debate) {
        Ok(clip) => copy(app, debate, &clip),
        Err(why) => app.say(Tone::Error, why),
    }
}

/// Says goodbye (where the debate was saved) and gives the status to exit
/// with: a signal's (Ctrl-C in the studio is SIGINT to a tool in a shell:
/// 130, as `heat run` exits), else the farewell's.
fn exit_status(app: &App, debate: Option<&Running>, signalled: Option<u8>) -> ExitCode {
    let said = farewell(app, debate);
    let interrupted = signalled.or((app.interrupts > 0).then_some(INTERRUPTED));
    interrupted.map_or(said, ExitCode::from)
}

/// `y`: writes the clip to the terminal's clipboard and says so.
fn copy(app: &mut App, debate: Option<&Running>, clip: &super::effect::Clip) {
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
