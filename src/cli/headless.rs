//! A debate recorded where no one sits at its keyboard: `heat run`'s (which
//! prints what it sees), a tournament's debates and `heat mcp`'s. Every
//! event the engine emits is written to the session, with the room's ballots
//! from the audience page's spool between them and a watcher's steering
//! (`heat watch`) sent on; the caller sees each event as recorded, and each
//! warning the recording gives as it comes. The debate stops where it is
//! when told to, pauses while held, and stops at its budget, saved (no one
//! is there to go on).

use tokio::sync::watch;

use crate::debate::engine::{DebateHandle, Stamped};
use crate::debate::{Command, DebateEvent, DebateState, Outcome};
use crate::store::Recorder;

/// What may stop or hold the debate from outside: `true` on `stop` stops
/// it; `hold` pauses it while `true`. `None`: nothing does.
#[derive(Default)]
pub struct Controls {
    pub stop: Option<watch::Receiver<bool>>,
    pub hold: Option<watch::Receiver<bool>>,
}

/// What the caller sees as the debate is recorded.
pub enum Seen<'a> {
    /// An event, recorded, with the state it leaves (the room's vote included).
    Event(&'a DebateEvent, &'a DebateState),
    /// What the session's recording warned of (kept in `Recorded::warnings` too).
    Warning(&'a str),
}

/// How the recording ended.
pub struct Recorded {
    /// How the debate ended; `None` if it stopped without an ending.
    pub outcome: Option<Outcome>,
    pub recorder: Recorder,
    /// What the session's recording warned of.
    pub warnings: Vec<String>,
}

/// Records the debate until it ends, handing `each` what it sees with the
/// debate's handle; `origin` (where the debate came from: a rematch's) is
/// recorded right after the debate's `Started`.
pub async fn record(
    mut handle: DebateHandle,
    mut recorder: Recorder,
    controls: Controls,
    mut origin: Option<DebateEvent>,
    mut each: impl FnMut(Seen<'_>, &DebateHandle),
) -> Recorded {
    let Controls { mut stop, mut hold } = controls;
    let (mut warnings, mut outcome) = (Vec::new(), None);
    let mut stopping = stop.as_mut().is_some_and(|s| *s.borrow_and_update());
    if stopping {
        handle.send(Command::Stop);
    } else if hold.as_mut().is_some_and(|h| *h.borrow_and_update()) {
        handle.send(Command::Pause);
    }
    let mut ballots = crate::store::ballots::follow(recorder.path());
    let mut steering = crate::store::steering::Steering::take(recorder.path()).ok();
    let commander = handle.commander();
    loop {
        let Stamped { event, at } = tokio::select! {
            // Ballots first: a streaming debate always has an event ready.
            biased;
            Some(batch) = ballots.recv() => {
                let (events, warning) = recorder.record_ballots(batch);
                if let Some(warning) = warning {
                    each(Seen::Warning(&warning), &handle);
                    warnings.push(warning);
                }
                for event in &events {
                    each(Seen::Event(event, recorder.state()), &handle);
                }
                continue;
            }
            told = changed(&mut stop), if !stopping => {
                if told.is_none_or(|stop| stop) {
                    stopping = true;
                    let _ = commander.send(Command::Stop);
                }
                continue;
            }
            held = changed(&mut hold), if !stopping => {
                match held {
                    Some(held) => {
                        let _ = commander.send(if held { Command::Pause } else { Command::Resume });
                    }
                    // No one can hold it any more.
                    None => hold = None,
                }
                continue;
            }
            next = crate::store::steering::next_event(&mut handle, &mut steering) => match next {
                Some(stamped) => stamped,
                None => break,
            },
        };
        let started = matches!(event, DebateEvent::Started { .. });
        for event in std::iter::once(event).chain(origin.take_if(|_| started)) {
            if let Some(warning) = recorder.record_at(&event, at) {
                each(Seen::Warning(&warning), &handle);
                warnings.push(warning);
            }
            match &event {
                DebateEvent::Finished { outcome: o, .. } => outcome = Some(o.clone()),
                DebateEvent::BudgetReached { .. } => {
                    handle.send(Command::Stop);
                }
                _ => {}
            }
            each(Seen::Event(&event, recorder.state()), &handle);
        }
    }
    handle.join().await;
    Recorded { outcome, recorder, warnings }
}

/// The value `control` changes to; `None` once no one can change it (or
/// there is no control: then it never resolves).
async fn changed(control: &mut Option<watch::Receiver<bool>>) -> Option<bool> {
    let Some(receiver) = control else { return std::future::pending().await };
    match receiver.changed().await {
        Ok(()) => Some(*receiver.borrow_and_update()),
        Err(_) => None,
    }
}
