//! The debate on screen: where its events come from (a running engine, a
//! replay, another heat's log followed read-only), and each event recorded
//! (a live debate's) and folded into the studio, with every one already
//! waiting behind it.

use futures::FutureExt;

use crate::debate::DebateEvent;
use crate::debate::engine::{DebateHandle, Stamped};
use crate::store::Recorder;
use crate::store::ballots::Spooled;
use crate::store::log::Loaded;
use crate::tui::app::{App, Tone};
use crate::tui::replay::Playback;

/// Most engine events folded before input is looked at again.
const DRAIN: usize = 4096;

/// Where a shown debate's events come from.
pub(super) enum Source {
    Engine(DebateHandle),
    Replay(Playback),
    /// Another heat's log, followed read-only (`heat watch`).
    Watch(Box<crate::store::watch::Watch>),
}

pub(super) struct Running {
    /// `None` once the source has sent its last event.
    pub(super) source: Option<Source>,
    /// Records a live debate; a replay records nothing.
    pub(super) recorder: Option<Recorder>,
    /// The stored session `e` exports.
    pub(super) session: Option<String>,
    /// A replay's debate as loaded: `e` exports it (the demo is not stored).
    pub(super) replayed: Option<Box<Loaded>>,
    /// The room's ballots from the audience page's spool, for the debate
    /// this studio records.
    pub(super) ballots: Option<tokio::sync::mpsc::Receiver<Vec<Spooled>>>,
}

impl Running {
    /// A debate the engine runs, recorded as it goes.
    pub(super) fn live(handle: DebateHandle, recorder: Recorder) -> Self {
        let session = Some(recorder.id().to_string());
        let ballots = Some(crate::store::ballots::follow(recorder.path()));
        Running { source: Some(Source::Engine(handle)), recorder: Some(recorder), session, replayed: None, ballots }
    }

    /// A debate shown without an engine or a recorder (a replay, a watch).
    pub(super) fn shown(source: Option<Source>, session: Option<String>, replayed: Option<Box<Loaded>>) -> Self {
        Running { source, recorder: None, session, replayed, ballots: None }
    }
}

/// The next batch of ballots for the debate this studio records; never
/// when it records none.
async fn next_ballots(ballots: Option<&mut tokio::sync::mpsc::Receiver<Vec<Spooled>>>) -> Vec<Spooled> {
    match ballots {
        Some(ballots) => match ballots.recv().await {
            Some(batch) => batch,
            None => std::future::pending().await,
        },
        None => std::future::pending().await,
    }
}

/// Records the ballots the debate takes and folds them into the studio.
pub(super) fn on_ballots(app: &mut App, debate: &mut Option<Running>, batch: Vec<Spooled>) {
    let Some(recorder) = debate.as_mut().and_then(|d| d.recorder.as_mut()) else { return };
    let (events, warning) = recorder.record_ballots(batch);
    if let Some(warning) = warning {
        app.say(Tone::Error, warning);
    }
    for event in &events {
        app.on_event(event);
    }
}

/// What the shown debate's source sends next.
pub(super) enum Next {
    /// An engine's or a replay's event; `None` once it sent its last.
    Event(Option<Stamped>),
    /// What a watched log brings (in batches); `None` once it stopped.
    Followed(Option<crate::store::watch::Followed>),
    /// The room's ballots, for the debate this studio records.
    Ballots(Vec<Spooled>),
}

/// The next event of the shown debate, or never when none is coming.
pub(super) async fn next_event(debate: &mut Option<Running>) -> Next {
    let Some(running) = debate.as_mut() else { return std::future::pending().await };
    let source = async {
        match running.source.as_mut() {
            Some(Source::Engine(handle)) => Next::Event(handle.next_stamped().await),
            Some(Source::Replay(playback)) => Next::Event(playback.events.recv().await.map(now)),
            Some(Source::Watch(watch)) => Next::Followed(watch.rx.recv().await),
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        // Ballots first: a streaming debate always has an event ready.
        biased;
        batch = next_ballots(running.ballots.as_mut()) => Next::Ballots(batch),
        next = source => next,
    }
}

/// A replayed event, stamped when it is shown (a replay records nothing).
pub(super) fn now(event: DebateEvent) -> Stamped {
    Stamped { event, at: std::time::Instant::now() }
}

/// What a source has without waiting.
pub(super) enum Ready {
    Event(Stamped),
    /// The source sent its last event.
    Closed,
    Nothing,
}

pub(super) fn ready_event(source: &mut Source) -> Ready {
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

/// Records and folds every event already waiting, if any.
pub(super) fn fold_waiting(app: &mut App, debate: &mut Option<Running>) {
    let Some(source) = debate.as_mut().and_then(|d| d.source.as_mut()) else { return };
    match ready_event(source) {
        Ready::Event(event) => fold(app, debate, Some(event)),
        Ready::Closed => fold(app, debate, None),
        Ready::Nothing => {}
    }
}

/// Records and folds an event and every one already waiting behind it.
pub(super) fn fold(app: &mut App, debate: &mut Option<Running>, first: Option<Stamped>) {
    let Some(running) = debate.as_mut() else { return };
    let mut next = first;
    for _ in 0..DRAIN {
        let Some(Stamped { event, at }) = next else {
            // The source has sent everything and closed its channel.
            running.source = None;
            app.played_out();
            return;
        };
        if let Some(warning) = running.recorder.as_mut().and_then(|r| r.record_at(&event, at)) {
            app.say(Tone::Error, warning);
        }
        // A replayed event happened at its recorded time.
        app.on_source_event(&event);
        let Some(source) = running.source.as_mut() else { return };
        next = match ready_event(source) {
            Ready::Event(event) => Some(event),
            Ready::Closed => None,
            Ready::Nothing => return,
        };
    }
}
