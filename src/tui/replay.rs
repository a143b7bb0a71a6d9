//! Plays a stored debate into the studio at its recorded pace: a task that
//! sends the logged events with their gaps (long waits cut short), holding
//! while the person pauses, going faster or slower as asked (0.5× to 8×),
//! and sending the rest of a round at once to skip to the next. The
//! `Timeline` says where a playback stands: which round, how far in.

use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::debate::DebateEvent;
use crate::store::log::Record;

/// The longest pause replayed as is; longer waits (a paused debate, a
/// retry's backoff) are cut to this.
const LONGEST_GAP: Duration = Duration::from_secs(2);

/// Where a replay stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    Playing,
    Paused,
    /// Every recorded event has been shown.
    Ended,
}

/// A replay's place in its recording: the events shown so far, the speed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayClock {
    pub timeline: Timeline,
    pub played: usize,
    pub speed: f64,
}

impl ReplayClock {
    /// "round 2 · 0:41 / 1:05": the round alone, since the line below
    /// counts it against the debate's limit ("Round 2 of 5"), and a second
    /// count of the rounds recorded beside it would read as a contradiction.
    pub fn describe(&self) -> String {
        let (round, rounds) = self.timeline.round(self.played);
        let (at, total) = self.timeline.position(self.played);
        format!("round {} · {} / {}", round.max(1).min(rounds), clock(at), clock(total))
    }
}

/// Milliseconds as m:ss (h:mm:ss from an hour).
fn clock(ms: u64) -> String {
    let secs = ms / 1000;
    match secs / 3600 {
        0 => format!("{}:{:02}", secs / 60, secs % 60),
        hours => format!("{hours}:{:02}:{:02}", secs / 60 % 60, secs % 60),
    }
}

/// "2×", "0.5×"
pub fn speed_label(speed: f64) -> String {
    format!("{speed}×")
}

/// The speeds `+` and `-` step through.
pub const SPEEDS: [f64; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];

/// The next speed up (`faster`) or down from `speed`; `None` past the ends.
/// Speed 0 (all at once) has nothing faster; slower from it is the fastest step.
pub fn step_speed(speed: f64, faster: bool) -> Option<f64> {
    if speed <= 0.0 {
        return (!faster).then_some(SPEEDS[SPEEDS.len() - 1]);
    }
    if faster {
        SPEEDS.iter().copied().find(|s| *s > speed + 1e-9)
    } else {
        SPEEDS.iter().rev().copied().find(|s| *s < speed - 1e-9)
    }
}

/// Where each recorded event falls when played at 1× (long waits cut), and
/// where each round starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Milliseconds from the first event, per event.
    at: Vec<u64>,
    /// Each event's recorded time.
    recorded: Vec<u64>,
    /// The index of each round's first event (its `RoundStarted`).
    rounds: Vec<usize>,
}

impl Timeline {
    pub fn new(records: &[Record]) -> Timeline {
        let mut at = Vec::with_capacity(records.len());
        let recorded = records.iter().map(|r| r.ms).collect();
        let mut rounds = Vec::new();
        let (mut previous, mut now) = (records.first().map_or(0, |r| r.ms), 0);
        for (i, record) in records.iter().enumerate() {
            now += gap(previous, record.ms).as_millis() as u64;
            previous = record.ms;
            at.push(now);
            if matches!(record.event, DebateEvent::RoundStarted { .. }) {
                rounds.push(i);
            }
        }
        Timeline { at, recorded, rounds }
    }

    /// When event `index` happened in the recording.
    pub fn recorded(&self, index: usize) -> Option<u64> {
        self.recorded.get(index).copied()
    }

    /// How far in the playback is once `played` events are shown, and how
    /// long it is in all (milliseconds at 1×).
    pub fn position(&self, played: usize) -> (u64, u64) {
        let at = played.checked_sub(1).and_then(|i| self.at.get(i)).copied().unwrap_or(0);
        (at, self.at.last().copied().unwrap_or(0))
    }

    /// The round shown once `played` events are (from 1; 0 before the
    /// first), and how many the recording holds.
    pub fn round(&self, played: usize) -> (usize, usize) {
        (self.rounds.iter().filter(|&&i| i < played).count(), self.rounds.len())
    }

    /// The last event sent at once to skip from `next` (the first event not
    /// yet shown) to the next round: that round's start, or the end.
    fn skip_target(&self, next: usize) -> usize {
        self.rounds.iter().copied().find(|&i| i >= next).unwrap_or(self.at.len().saturating_sub(1))
    }
}

fn gap(previous: u64, ms: u64) -> Duration {
    Duration::from_millis(ms.saturating_sub(previous)).min(LONGEST_GAP)
}

/// What the person asked of the playback.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Control {
    paused: bool,
    speed: f64,
    /// How many times a skip to the next round was asked.
    skips: u32,
}

/// A playback under way.
pub struct Playback {
    pub events: mpsc::UnboundedReceiver<DebateEvent>,
    control: watch::Sender<Control>,
    task: tokio::task::JoinHandle<()>,
}

impl Playback {
    pub fn start(records: Vec<Record>, speed: f64) -> Playback {
        let (tx, events) = mpsc::unbounded_channel();
        let (control, rx) = watch::channel(Control { paused: false, speed, skips: 0 });
        let task = tokio::spawn(play(records, rx, tx));
        Playback { events, control, task }
    }

    pub fn set_paused(&self, paused: bool) {
        self.control.send_modify(|c| c.paused = paused);
    }

    pub fn set_speed(&self, speed: f64) {
        self.control.send_modify(|c| c.speed = speed);
    }

    /// Sends the rest of this round at once, up to the next round's start.
    pub fn skip(&self) {
        self.control.send_modify(|c| c.skips += 1);
    }
}

async fn play(records: Vec<Record>, mut control: watch::Receiver<Control>, tx: mpsc::UnboundedSender<DebateEvent>) {
    let timeline = Timeline::new(&records);
    let (mut skips, mut skip_through) = (0, None);
    let mut previous = records.first().map_or(0, |r| r.ms);
    for (i, record) in records.into_iter().enumerate() {
        // What is left to wait before this event, at 1×.
        let mut owed = gap(previous, record.ms);
        previous = record.ms;
        loop {
            let now = *control.borrow_and_update();
            if now.skips != skips {
                skips = now.skips;
                skip_through = Some(timeline.skip_target(i));
            }
            if skip_through.is_some_and(|last| i <= last) || (owed.is_zero() && !now.paused) {
                break;
            }
            if now.paused {
                if control.changed().await.is_err() {
                    return;
                }
                continue;
            }
            // Speed 0 shows it all at once.
            if now.speed <= 0.0 {
                break;
            }
            let started = Instant::now();
            tokio::select! {
                () = tokio::time::sleep(owed.div_f64(now.speed)) => break,
                changed = control.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    owed = owed.saturating_sub(started.elapsed().mul_f64(now.speed));
                }
            }
        }
        if tx.send(record.event).is_err() {
            return;
        }
    }
}

impl Drop for Playback {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Heat;

    fn record(ms: u64, event: DebateEvent) -> Record {
        Record { ms, event }
    }

    fn round(n: u32) -> DebateEvent {
        DebateEvent::RoundStarted { round: n, topic: "T".into(), heat: Heat::new(0.5), injected: vec![] }
    }

    fn records() -> Vec<Record> {
        vec![
            record(1_000, DebateEvent::Paused),
            record(1_500, round(0)),
            record(2_000, DebateEvent::Resumed),
            // A long wait (a paused debate) counts as two seconds.
            record(60_000, round(1)),
            record(61_000, DebateEvent::Resumed),
        ]
    }

    #[test]
    fn the_timeline_cuts_long_waits_and_knows_the_rounds() {
        let timeline = Timeline::new(&records());
        assert_eq!(timeline.position(0), (0, 4_000));
        assert_eq!(timeline.position(3), (1_000, 4_000));
        assert_eq!(timeline.position(5), (4_000, 4_000));
        assert_eq!(timeline.round(1), (0, 2));
        assert_eq!(timeline.round(2), (1, 2));
        assert_eq!(timeline.round(5), (2, 2));
        assert_eq!(timeline.skip_target(2), 3, "from round 1's middle to round 2's start");
        assert_eq!(timeline.skip_target(4), 4, "from the last round to the end");
    }

    #[test]
    fn speeds_step_between_half_and_eight() {
        assert_eq!(step_speed(1.0, true), Some(2.0));
        assert_eq!(step_speed(3.0, true), Some(4.0), "an odd --speed steps onto the scale");
        assert_eq!(step_speed(3.0, false), Some(2.0));
        assert_eq!(step_speed(8.0, true), None);
        assert_eq!(step_speed(0.5, false), None);
        assert_eq!(step_speed(0.0, false), Some(8.0));
        assert_eq!(step_speed(0.0, true), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_skip_sends_the_rest_of_the_round_at_once_and_speed_changes_the_pace() {
        let mut playback = Playback::start(records(), 1.0);
        let first = Instant::now();
        assert_eq!(playback.events.recv().await, Some(DebateEvent::Paused));
        assert_eq!(playback.events.recv().await, Some(round(0)));
        assert_eq!(first.elapsed(), Duration::from_millis(500), "the recorded gap at 1×");
        playback.set_speed(4.0);
        let fast = Instant::now();
        assert_eq!(playback.events.recv().await, Some(DebateEvent::Resumed));
        assert_eq!(fast.elapsed(), Duration::from_millis(125), "a quarter of the gap at 4×");
        // Paused, a skip still goes to the next round's start, and holds there.
        playback.set_paused(true);
        playback.skip();
        let skipped = Instant::now();
        assert_eq!(playback.events.recv().await, Some(round(1)));
        assert_eq!(skipped.elapsed(), Duration::ZERO, "the skip waits for nothing");
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(playback.events.try_recv().is_err(), "still paused after the skip");
        playback.set_paused(false);
        assert_eq!(playback.events.recv().await, Some(DebateEvent::Resumed));
    }
}
