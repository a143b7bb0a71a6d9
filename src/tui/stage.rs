//! How the studio is staged for a room: presenter mode (the debaters side
//! by side and the judge's latest verdict in a strip, the key bar and
//! counters hidden), one pane zoomed to the whole screen, and the verdict
//! card held over the panes for a few seconds after each round's verdict
//! (the debate's end opens the results view instead, its outcome and
//! synthesis). What the layout and the drawing read; the studio keeps one.

use std::time::{Duration, Instant};

use crate::debate::DebateEvent;

/// The studio's staging.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stage {
    /// Presenter mode (`--present`, `ui.present`, `p`).
    pub present: bool,
    /// The focused pane has the whole screen (`Z`).
    pub zoomed: bool,
    /// Whether verdict cards are shown: in presenter mode and in a watch.
    pub cards: bool,
    /// How long a round's card stands (`ui.card_seconds`; 0: no cards).
    pub card_for: Duration,
    /// The card on screen, if any.
    pub card: Option<Card>,
}

/// A round's verdict card over the panes: who is ahead, the heat from →
/// to, the verdict's first sentence and the next question; held `card_for`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// The round it shows the verdict of (from 0).
    pub round: u32,
    /// When it went up.
    pub since: Instant,
}

impl Stage {
    /// Whether cards go up (shown in presenter mode or a watch, for a
    /// positive `ui.card_seconds`).
    pub fn shows_cards(&self) -> bool {
        (self.cards || self.present) && !self.card_for.is_zero()
    }

    /// An engine event, as happening `at`: a round's verdict puts its card
    /// up; the debate's end takes it down (the results view opens, or a
    /// failure's sentence must be read).
    /// An event folded; `at` tells the time, asked only of a verdict (the
    /// studio folds every streamed token here).
    pub fn on_event(&mut self, event: &DebateEvent, at: impl FnOnce() -> Instant) {
        match event {
            DebateEvent::VerdictReached { round, .. } if self.shows_cards() => {
                self.card = Some(Card { round: *round, since: at() });
            }
            DebateEvent::Finished { .. } | DebateEvent::RoundsAdded { .. } => self.card = None,
            _ => {}
        }
    }

    /// Takes a round's card down once its time is up, `now`.
    pub fn expire(&mut self, now: Instant) {
        if self.card.is_some_and(|c| now.saturating_duration_since(c.since) >= self.card_for) {
            self.card = None;
        }
    }

    /// A key took the card down; whether there was one.
    pub fn dismiss(&mut self) -> bool {
        self.card.take().is_some()
    }

    /// Whether a card is up: it goes by itself, so the loop redraws for it.
    pub fn timed_card(&self) -> bool {
        self.card.is_some()
    }

    /// `p`: presenter mode on or off; what the status line says.
    pub fn toggle_present(&mut self) -> &'static str {
        self.present = !self.present;
        if !self.present {
            self.card = None;
        }
        if self.present {
            "Presenter mode: the debaters side by side, the judge's latest verdict below; p leaves it"
        } else {
            "Presenter mode off"
        }
    }

    /// `Z`: the focused pane takes the whole screen, or gives it back.
    pub fn toggle_zoom(&mut self) {
        self.zoomed = !self.zoomed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{Heat, Outcome, Verdict};

    fn staged() -> Stage {
        Stage { present: true, card_for: Duration::from_secs(4), ..Stage::default() }
    }

    fn verdict(round: u32) -> DebateEvent {
        DebateEvent::VerdictReached { round, verdict: Verdict { heat: Heat::new(0.6), ..Verdict::default() } }
    }

    #[test]
    fn a_rounds_card_stands_its_seconds_and_goes_with_the_debates_end() {
        let mut stage = staged();
        let start = Instant::now();
        stage.on_event(&verdict(1), || start);
        assert_eq!(stage.card.map(|c| c.round), Some(1));
        stage.expire(start + Duration::from_secs(3));
        assert!(stage.card.is_some(), "still within its seconds");
        stage.expire(start + Duration::from_secs(4));
        assert!(stage.card.is_none(), "its time is up");
        stage.on_event(&verdict(2), || start);
        let finished = DebateEvent::Finished { outcome: Outcome::Resolved, synthesis: None };
        stage.on_event(&finished, || start);
        assert!(stage.card.is_none(), "the results view opens instead");
        stage.on_event(&verdict(3), || start);
        assert!(stage.dismiss() && stage.card.is_none());
    }

    #[test]
    fn no_card_goes_up_outside_presenter_mode_and_a_watch_or_at_zero_seconds() {
        let mut plain = Stage { card_for: Duration::from_secs(4), ..Stage::default() };
        plain.on_event(&verdict(0), Instant::now);
        assert!(plain.card.is_none());
        let mut watch = Stage { cards: true, ..plain.clone() };
        watch.on_event(&verdict(0), Instant::now);
        assert!(watch.card.is_some(), "a watch is a projector's screen");
        let mut off = Stage { card_for: Duration::ZERO, ..staged() };
        off.on_event(&verdict(0), Instant::now);
        assert!(off.card.is_none(), "ui.card_seconds = 0 turns cards off");
    }
}
