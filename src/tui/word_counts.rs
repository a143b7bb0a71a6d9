//! Each turn's words, counted as its text grows: the header's length
//! parity reads the current round's counts every frame, and counting a
//! 2,000-word argument again for every streamed token cost more than the
//! rest of the frame. A streamed piece is counted on its own, joined to
//! what came before it; any other change to a turn (its cleaned text on
//! completion, a retry that starts it again) counts it whole once.

use std::collections::HashMap;

use crate::debate::{DebateEvent, DebateState, Role};

/// What was counted of one turn's text: its first `bytes` bytes hold `words` words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counted {
    bytes: usize,
    words: usize,
}

/// The word counts of the turns seen so far, by round and seat.
#[derive(Debug, Clone, Default)]
pub struct WordCounts {
    counted: HashMap<(u32, Role), Counted>,
}

impl WordCounts {
    /// Follows `event`, already folded into `state`.
    pub fn record(&mut self, event: &DebateEvent, state: &DebateState) {
        let (round, role, grew) = match event {
            DebateEvent::Delta { round, role, .. } => (*round, *role, true),
            DebateEvent::TurnStarted { round, role, .. }
            | DebateEvent::TurnCompleted { round, role, .. }
            | DebateEvent::TurnRetrying { round, role, .. }
            | DebateEvent::TurnFailed { round, role, .. }
            | DebateEvent::TurnCancelled { round, role }
            | DebateEvent::TurnDiscarded { round, role } => (*round, *role, false),
            _ => return,
        };
        let Some(text) = state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role)).map(|t| &t.text)
        else {
            self.counted.remove(&(round, role));
            return;
        };
        let before = self.counted.get(&(round, role)).copied().filter(|c| grew && c.bytes <= text.len());
        let counted = match before.filter(|c| text.is_char_boundary(c.bytes)) {
            Some(c) => {
                let joined = text[..c.bytes].chars().next_back().is_some_and(|last| !last.is_whitespace());
                let added = words_in(&text[c.bytes..]);
                let continues = joined && text[c.bytes..].chars().next().is_some_and(|first| !first.is_whitespace());
                Counted { bytes: text.len(), words: c.words + added - usize::from(continues && added > 0) }
            }
            None => Counted { bytes: text.len(), words: words_in(text) },
        };
        self.counted.insert((round, role), counted);
    }

    /// The words of `role`'s turn in `round` (from 0) as `state` holds it.
    pub fn of(&self, state: &DebateState, round: u32, role: Role) -> usize {
        let Some(text) = state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role)).map(|t| &t.text)
        else {
            return 0;
        };
        match self.counted.get(&(round, role)) {
            Some(c) if c.bytes == text.len() => c.words,
            _ => words_in(text),
        }
    }
}

fn words_in(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{Heat, TurnPurpose};

    fn fold(events: &[DebateEvent]) -> (DebateState, WordCounts) {
        let mut state = DebateState::default();
        let mut counts = WordCounts::default();
        for event in events {
            state.apply(event);
            counts.record(event, &state);
        }
        (state, counts)
    }

    fn delta(text: &str) -> DebateEvent {
        DebateEvent::Delta { round: 0, role: Role::Advocate, text: text.into() }
    }

    /// Streamed pieces split anywhere, words cut in two among them, count
    /// as the whole text does; a retry and the completed text count anew.
    #[test]
    fn counts_follow_the_text_however_it_streams() {
        let start = [
            DebateEvent::Started {
                topic: "t".into(),
                max_rounds: 1,
                initial_heat: Heat::new(0.9),
                participants: Vec::new(),
            },
            DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.9), injected: Vec::new() },
            DebateEvent::TurnStarted { round: 0, role: Role::Advocate, purpose: TurnPurpose::Argue, temperature: None },
        ];
        let text = "Tabs let  each reader\npick a width.\n\nSpaces do not; ünïcode wörds count too.";
        for cut in 1..text.len() {
            for second in [cut, (cut + 7).min(text.len())] {
                if !text.is_char_boundary(cut) || !text.is_char_boundary(second) {
                    continue;
                }
                let mut events = start.to_vec();
                events.extend([delta(&text[..cut]), delta(&text[cut..second]), delta(&text[second..])]);
                let (state, counts) = fold(&events);
                assert_eq!(counts.of(&state, 0, Role::Advocate), 14, "cut at {cut} and {second}");
            }
        }
        let mut events = start.to_vec();
        events.extend([
            delta("one two three four"),
            DebateEvent::TurnRetrying {
                round: 0,
                role: Role::Advocate,
                attempt: 1,
                max_retries: 2,
                delay_ms: 0,
                reason: "x".into(),
            },
            delta("five six"),
        ]);
        let (state, counts) = fold(&events);
        assert_eq!(counts.of(&state, 0, Role::Advocate), 2, "a retry starts the count again");
        events.push(DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Advocate,
            text: "a b c".into(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
        let (state, counts) = fold(&events);
        assert_eq!(counts.of(&state, 0, Role::Advocate), 3);
        assert_eq!(counts.of(&state, 0, Role::Skeptic), 0, "a seat that has not spoken said nothing");
    }
}
