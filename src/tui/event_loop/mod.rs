//! The studio's one loop: whatever wakes it (a key, the debate's events, a
//! finished task, a timer, a signal) becomes one `Msg`; one `update` applies
//! it to the studio and says which `Effect`s to perform; `perform` does each.
//! Every pending event is folded before a frame; at most one frame per 16 ms
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
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::app::{App, Tone, Until};
use super::browser::Browser;
use super::effect::Effect;
use super::install::{self, InstallMsg};
use super::modal::Modal;
use super::replay::{Playback, Timeline};
use super::settings::{self, ConfigureResult};
use super::signals::{INTERRUPTED, Signals};
use super::studio::{Opening, Studio};
use super::summarize::{self, SummaryMsg};
use super::terminal::Guard;
use super::view;
use crate::debate::Command;
use crate::provider::person::Ask;
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

/// What wakes the loop.
enum Msg {
    /// A key, a paste or the mouse.
    Terminal(Event),
    /// What the debate on screen sent.
    Debate(Next),
    /// A seat the person takes asks for their turn.
    PersonAsked(Ask),
    /// A provider's model list, for the settings' picker.
    ModelList(model_lists::Answer),
    /// The start screen's settings, applied (or why not).
    Configured(Box<Option<ConfigureResult>>),
    /// The arbiter's summary, as it streams.
    Summary(Option<SummaryMsg>),
    /// How the offline model's download goes.
    Install(Option<InstallMsg>),
    /// The waiting frame may be drawn.
    FrameDue,
    /// A countdown on screen moved on.
    Tick,
    /// The terminal's input ended, or a signal asked the studio to stop.
    Stop,
}

/// What the loop does after an effect.
enum Flow {
    Go,
    Quit,
    HardQuit,
}

/// The loop's own state: the terminal, the debate on screen and the tasks
/// it waits on.
struct Loop {
    studio: Studio,
    guard: Guard,
    input: EventStream,
    signals: Signals,
    debate: Option<Running>,
    installing: Option<mpsc::UnboundedReceiver<InstallMsg>>,
    configuring: Option<mpsc::UnboundedReceiver<ConfigureResult>>,
    summarizing: Option<mpsc::UnboundedReceiver<SummaryMsg>>,
    frames: Frames,
    asks: asks::Asks,
    lists: model_lists::ModelLists,
    served: Option<audience::Served>,
    retained: view::Retained,
}

pub async fn run(mut studio: Studio, mut app: App) -> anyhow::Result<ExitCode> {
    let signals = Signals::watch()?;
    let guard = Guard::enter(studio.mouse).context("could not take over the terminal")?;
    let opening = std::mem::replace(&mut studio.opening, Opening::StartScreen);
    let mut studio_loop = Loop {
        studio,
        guard,
        input: EventStream::new(),
        signals,
        debate: None,
        installing: None,
        configuring: None,
        summarizing: None,
        frames: Frames::new(),
        asks: asks::Asks::default(),
        lists: model_lists::ModelLists::new(),
        served: None,
        retained: view::Retained::default(),
    };
    open(&studio_loop.studio, &mut app, &mut studio_loop.debate, opening)?;
    loop {
        studio_loop.draw_if_due(&mut app)?;
        let msg = studio_loop.next(&app).await?;
        for effect in studio_loop.update(&mut app, msg) {
            match studio_loop.perform(&mut app, effect).await? {
                Flow::Go => studio_loop.frames.person_acted(),
                Flow::Quit => return Ok(studio_loop.quit(&mut app).await),
                Flow::HardQuit => studio_loop.hard_quit(),
            }
        }
    }
}

impl Loop {
    /// Draws a frame when one waits and is due, every pending event folded first.
    fn draw_if_due(&mut self, app: &mut App) -> anyhow::Result<()> {
        self.frames.changed_if(self.asks.follow(self.studio.setup.as_ref(), app));
        if self.frames.ready() {
            running::fold_waiting(app, &mut self.debate);
            self.guard.draw(|frame| super::frame::render(frame, app, &mut self.retained))?;
            self.frames.drawn();
        }
        Ok(())
    }

    /// Waits for what wakes the loop next: the person first.
    async fn next(&mut self, app: &App) -> anyhow::Result<Msg> {
        // A retry's countdown redraws four times a second; a wait for the first word, once.
        let counting_down = app.seats().into_iter().any(|r| app.retry_in(r).is_some());
        let tick_due = Instant::now() + if counting_down { TICK } else { WAIT_TICK };
        let (waiting, animating) = (self.frames.waiting(), app.animating());
        Ok(tokio::select! {
            biased;
            event = self.input.next() => match event {
                Some(Ok(event)) => Msg::Terminal(event),
                Some(Err(e)) => return Err(e).context("could not read the terminal"),
                None => Msg::Stop,
            },
            // While a frame waits to be drawn, the debate's events wait with
            // it and are folded together just before it: a streamed token
            // does not wake the studio on its own.
            next = next_event(&mut self.debate), if !waiting => Msg::Debate(next),
            Some(ask) = self.asks.next() => Msg::PersonAsked(ask),
            Some(answer) = self.lists.next() => Msg::ModelList(answer),
            result = settings::next(&mut self.configuring) => Msg::Configured(Box::new(result)),
            msg = summarize::next(&mut self.summarizing) => Msg::Summary(msg),
            msg = install::next(&mut self.installing) => Msg::Install(msg),
            () = tokio::time::sleep_until(self.frames.due()), if waiting => Msg::FrameDue,
            () = tokio::time::sleep_until(tick_due), if !waiting && animating => Msg::Tick,
            () = self.signals.next() => Msg::Stop,
        })
    }

    /// Applies what woke the loop to the studio; returns what to perform.
    fn update(&mut self, app: &mut App, msg: Msg) -> Vec<Effect> {
        let effects = match msg {
            Msg::Terminal(event) => {
                self.frames.person_acted();
                return on_terminal(app, event);
            }
            Msg::Debate(next) => {
                match next {
                    Next::Event(event) => fold(app, &mut self.debate, event),
                    Next::Followed(followed) => on_followed(app, &mut self.debate, followed),
                    Next::Ballots(batch) => running::on_ballots(app, &mut self.debate, batch),
                }
                Vec::new()
            }
            Msg::PersonAsked(ask) => {
                app.person_asked(ask);
                Vec::new()
            }
            Msg::ModelList(answer) => {
                self.frames.changed_if(model_lists::deliver(app, answer));
                return Vec::new();
            }
            Msg::Configured(result) => {
                self.configuring = None;
                on_configured(&mut self.studio, app, *result)
            }
            Msg::Summary(msg) => {
                on_summary(&self.studio, app, &mut self.debate, &mut self.summarizing, msg);
                Vec::new()
            }
            Msg::Install(msg) => on_install(&mut self.studio, app, &mut self.installing, msg),
            Msg::FrameDue => return Vec::new(),
            Msg::Tick => Vec::new(),
            Msg::Stop => return vec![Effect::Quit],
        };
        self.frames.changed();
        effects
    }

    /// Performs one effect a key, a dialog or a finished task asked for.
    async fn perform(&mut self, app: &mut App, effect: Effect) -> anyhow::Result<Flow> {
        let (studio, debate) = (&self.studio, &mut self.debate);
        match effect {
            Effect::Send(command) => send(studio, app, debate.as_ref(), command),
            Effect::ReplaySpeed(_) | Effect::ReplaySkip => steer_playback(debate.as_ref(), &effect),
            // The settings being applied are the next debate's: it waits for them.
            Effect::Start(topic) if self.configuring.is_some() => wait_for_settings(app, topic),
            Effect::Start(topic) => {
                let stopped = stop(app, debate, &mut self.input).await;
                start(studio, app, debate, topic)?;
                say_stopped(app, stopped);
                // The start screen queued its topic behind the offline model's download.
                if app.start.queued_topic.is_some() {
                    begin_install(studio, app, &mut self.installing);
                }
            }
            Effect::Export => export_shown(studio, app, debate.as_ref()),
            Effect::Audience => audience::toggle(studio, app, debate.as_ref(), &mut self.served).await,
            Effect::Report => report_shown(studio, app, debate.as_ref()),
            Effect::Summarize => self.summarizing = begin_summary(studio, app),
            Effect::Record(event) => record_shown(studio, app, debate, &event),
            Effect::ExportSession(id) => export_stored(studio, app, &id),
            Effect::InstallModel => begin_install(studio, app, &mut self.installing),
            Effect::Configure(fields) => self.configuring = settings::start(studio.configure.as_ref(), fields),
            Effect::ListModels(provider) => self.lists.ask(studio, provider),
            Effect::Copy(clip) => copy(app, debate.as_ref(), &clip),
            Effect::CopyDebate => copy_debate(studio, app, debate.as_ref()),
            Effect::Sessions => show_sessions(studio, app, debate.as_ref()),
            Effect::Open(id) => open_other(studio, app, debate, &mut self.input, &id).await,
            Effect::Delete(_) | Effect::Label(..) => manage_session(studio, app, debate.as_ref(), effect),
            Effect::Branch(ask) => branch::branch_instead(studio, app, debate, &mut self.input, &ask).await,
            Effect::MoreRounds(rounds) => go_on_ended(studio, app, debate, rounds),
            Effect::Quit => return Ok(Flow::Quit),
            Effect::HardQuit => return Ok(Flow::HardQuit),
            Effect::EditTurn => external_editor::edit_turn(app, &mut self.guard, &mut self.input, studio.mouse),
        }
        Ok(Flow::Go)
    }

    /// Stops the debate, gives the terminal back, says goodbye (where the
    /// debate was saved) and gives the status to exit with: a signal's
    /// (Ctrl-C in the studio is SIGINT to a tool in a shell: 130, as `heat
    /// run` exits), else the farewell's.
    async fn quit(mut self, app: &mut App) -> ExitCode {
        stop(app, &mut self.debate, &mut self.input).await;
        drop(self.guard);
        let said = farewell(app, self.debate.as_ref());
        let interrupted = self.signals.received.or((app.interrupts > 0).then_some(INTERRUPTED));
        interrupted.map_or(said, ExitCode::from)
    }

    /// A second Ctrl-C: leaves at once, the terminal restored, as interrupted.
    fn hard_quit(self) -> ! {
        drop(self.guard);
        std::process::exit(i32::from(INTERRUPTED));
    }
}

/// The session browser, over the stored debates, the shown one marked.
fn show_sessions(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    let shown = debate.and_then(|d| d.session.clone());
    let entries = studio.store.list();
    // What each debate said, so typing finds a debate by its words too.
    let said = entries.iter().filter_map(|e| Some((e.id.clone(), studio.store.said(&e.id)?))).collect();
    app.open(Modal::Sessions(Browser::new(entries).showing(shown).with_said(said)));
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
fn send(studio: &Studio, app: &mut App, debate: Option<&Running>, command: Command) {
    match debate.and_then(|d| d.source.as_ref()) {
        Some(Source::Engine(handle)) => {
            handle.send(command);
        }
        Some(Source::Replay(playback)) => playback.set_paused(command == Command::Pause),
        // The heat running a watched debate takes it from the steering spool (its keys let
        // nothing through when it takes none).
        Some(Source::Watch(_)) => {
            let Some(id) = app.session.clone() else { return };
            match crate::store::steering::offer(&studio.store.log_path(&id), &[command]) {
                Ok(true) => {}
                Ok(false) => app.say(Tone::Warn, "The debate is no longer running: nothing was sent"),
                Err(e) => app.say(Tone::Error, format!("Could not steer the debate: {e:#}")),
            }
        }
        None => {}
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

/// `Y`: the whole debate, as its Markdown export, to the clipboard.
fn copy_debate(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    match shown::debate_clip(studio, debate) {
        Ok(clip) => copy(app, debate, &clip),
        Err(why) => app.say(Tone::Error, why),
    }
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
