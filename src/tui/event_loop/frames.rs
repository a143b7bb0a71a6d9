//! When the studio draws: soon after something the person did, at a
//! steadier pace for the debate's own progress, and never while nothing
//! changed.

use std::time::Duration;

use tokio::time::Instant;

/// The shortest time between a person's key (or anything else they did)
/// and its frame: 60 frames a second.
const FRAME: Duration = Duration::from_millis(16);
/// The shortest time between two frames that only carry the debate's own
/// progress (streamed words, a verdict): 30 a second, each frame carrying
/// every pane's new words. Text read as it arrives looks no different at
/// 60, which costs twice the drawing and twice the bytes.
const FRAME_STREAM: Duration = Duration::from_millis(33);

/// Whether a frame waits to be drawn, and when it may be.
pub(super) struct Frames {
    waiting: bool,
    /// Whether what waits includes something the person did.
    person_waits: bool,
    last: Instant,
}

impl Frames {
    /// The first frame is due at once.
    pub(super) fn new() -> Self {
        Frames { waiting: true, person_waits: true, last: Instant::now() - FRAME }
    }

    /// Something changed that the next frame shows.
    pub(super) fn changed(&mut self) {
        self.waiting = true;
    }

    /// [`Frames::changed`], if `changed`.
    pub(super) fn changed_if(&mut self, changed: bool) {
        self.waiting |= changed;
    }

    /// The person did something: its frame comes at the quicker pace.
    pub(super) fn person_acted(&mut self) {
        self.waiting = true;
        self.person_waits = true;
    }

    /// Whether a frame waits to be drawn.
    pub(super) fn waiting(&self) -> bool {
        self.waiting
    }

    /// When the waiting frame may be drawn.
    pub(super) fn due(&self) -> Instant {
        self.last + if self.person_waits { FRAME } else { FRAME_STREAM }
    }

    /// Whether a frame waits and may be drawn now.
    pub(super) fn ready(&self) -> bool {
        self.waiting && Instant::now() >= self.due()
    }

    pub(super) fn drawn(&mut self) {
        self.last = Instant::now();
        self.waiting = false;
        self.person_waits = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_persons_change_is_drawn_sooner_than_the_streams() {
        let mut frames = Frames::new();
        assert!(frames.ready(), "the first frame is due at once");
        frames.drawn();
        assert!(!frames.ready(), "nothing changed");
        frames.changed();
        assert_eq!(frames.due() - Instant::now(), FRAME_STREAM);
        frames.person_acted();
        assert_eq!(frames.due() - Instant::now(), FRAME);
        tokio::time::advance(FRAME).await;
        assert!(frames.ready());
        frames.drawn();
        frames.changed();
        tokio::time::advance(FRAME).await;
        assert!(!frames.ready(), "a streamed word waits for the slower pace");
        tokio::time::advance(FRAME_STREAM.saturating_sub(FRAME)).await;
        assert!(frames.ready());
    }
}
