//! What a person can ask of a running debate (`Command`), and what each
//! command means for the debate, as a pure function of the folded state:
//! the events it records. Pausing, resuming, cancelling and stopping also
//! change what the engine runs; the engine does that part.

use super::event::{DebateEvent, Participant, Waiting};
use super::heat::Heat;
use super::outcome::Outcome;
use super::seat::Role;
use super::state::DebateState;

/// What a person can ask of a running debate. Serialised for a watch's
/// steering spool (`store/steering.rs`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    Pause,
    Resume,
    InjectTopic(String),
    PinTemperature(Heat),
    ReleaseTemperature,
    ForceResolution,
    /// Ask this question next round, instead of the judge's.
    SetQuestion(String),
    /// A note for these seats' next requests only.
    NoteToSeats {
        text: String,
        seats: Vec<Role>,
    },
    /// Take back what waits, before any request carries it.
    TakeBack(Waiting),
    /// Ask a seat on another model from its next request. The engine sets
    /// the model up, then records it (`model_changed`).
    ChangeModel {
        role: Role,
        provider: String,
        model: String,
    },
    /// Pin one debater's heat, from the next round.
    PinSeat {
        role: Role,
        heat: Heat,
    },
    /// Release one debater's pin.
    ReleaseSeat(Role),
    /// Go on for this many more rounds than the limit.
    AddRounds(u32),
    /// Stop the turns streaming now; their text so far stands.
    CancelTurn,
    /// Stop one seat's turn now; its text so far stands.
    CancelSeat(Role),
    /// Ask one seat again: its turn this round is kept as discarded.
    Reroll(Role),
    /// End the debate.
    Stop,
    /// Record the person's verdict; `ends` also forces a resolution.
    HumanVerdict {
        ahead: Option<Role>,
        confidence: u8,
        note: String,
        ends: bool,
    },
}

/// The events `command` records on `state`; none for one that changes
/// nothing (a pause while paused, releasing a heat that is not pinned) or
/// once the debate has finished. `CancelTurn` records what each cancelled
/// call was, which only the engine knows: none here.
pub fn events(state: &DebateState, command: &Command) -> Vec<DebateEvent> {
    if state.finish.is_some() {
        return Vec::new();
    }
    match command {
        Command::Pause if !state.paused => vec![DebateEvent::Paused],
        Command::Resume if state.paused => vec![DebateEvent::Resumed],
        Command::InjectTopic(text) => {
            let text = text.trim().to_string();
            if text.is_empty() { Vec::new() } else { vec![DebateEvent::TopicInjected { text }] }
        }
        Command::PinTemperature(heat) => vec![DebateEvent::TemperaturePinned { heat: *heat }],
        Command::ReleaseTemperature if state.pinned_heat.is_some() => vec![DebateEvent::TemperatureReleased],
        Command::ForceResolution if !state.force_requested => vec![DebateEvent::ResolutionForced],
        Command::SetQuestion(text) => {
            let question = text.trim().to_string();
            let same = state.next_question.as_deref() == Some(question.as_str());
            if question.is_empty() || same { Vec::new() } else { vec![DebateEvent::QuestionSet { question }] }
        }
        Command::NoteToSeats { text, seats } => {
            let text = text.trim().to_string();
            let named: Vec<_> = state.seats().into_iter().filter(|s| seats.contains(s)).collect();
            if text.is_empty() || named.is_empty() {
                Vec::new()
            } else if named.len() == state.seats().len() {
                // Every seat is the topic injected for the next round, as `i` sends it.
                vec![DebateEvent::TopicInjected { text }]
            } else {
                vec![DebateEvent::NoteToSeats { text, seats: named }]
            }
        }
        Command::PinSeat { role, heat } if state.debaters().contains(role) => {
            vec![DebateEvent::SeatHeatPinned { role: *role, heat: *heat }]
        }
        Command::ReleaseSeat(role) if state.seat_pins.contains_key(role) => {
            vec![DebateEvent::SeatHeatReleased { role: *role }]
        }
        Command::Reroll(role) => {
            let Some(round) = state.current_round() else { return Vec::new() };
            // A debater is asked again until the judge takes the round up; the judge, until the next round begins.
            let asked = round.turn(*role).is_some();
            let in_time = role.is_judge() || round.turn(Role::Judge).is_none();
            if asked && in_time && state.seats().contains(role) {
                vec![DebateEvent::TurnDiscarded { round: round.number, role: *role }]
            } else {
                Vec::new()
            }
        }
        Command::TakeBack(what) => {
            still_waiting(state, what).map(|what| DebateEvent::SteeringTakenBack { what }).into_iter().collect()
        }
        Command::AddRounds(rounds) if *rounds > 0 => vec![DebateEvent::RoundsAdded { rounds: *rounds }],
        Command::Pause
        | Command::Resume
        | Command::CancelTurn
        | Command::CancelSeat(_)
        | Command::ReleaseTemperature
        | Command::ForceResolution
        | Command::AddRounds(_)
        | Command::ChangeModel { .. }
        | Command::PinSeat { .. }
        | Command::ReleaseSeat(_) => Vec::new(),
        Command::HumanVerdict { ahead, confidence, note, ends } => {
            let round = state.current_round().map_or(0, |r| r.number);
            let note = note.trim().to_string();
            let given = DebateEvent::HumanVerdict {
                round,
                ahead: *ahead,
                confidence: (*confidence).min(100),
                note,
                ends: *ends,
            };
            // The person's resolution: the round finishes and the judge writes its synthesis.
            let forces = (*ends && !state.force_requested).then_some(DebateEvent::ResolutionForced);
            std::iter::once(given).chain(forces).collect()
        }
        Command::Stop => vec![DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None }],
    }
}

/// What of `what` still waits on `state`: all of it, a note for the seats
/// of those named that are still to carry it, or nothing once a request
/// carried it (a round began with the topic or the question, every seat
/// named was asked with the note).
pub fn still_waiting(state: &DebateState, what: &Waiting) -> Option<Waiting> {
    state.waiting().into_iter().find_map(|waits| match (&waits, what) {
        (Waiting::Note { text, seats }, Waiting::Note { text: named, seats: meant }) if text == named => {
            let seats: Vec<Role> = seats.iter().copied().filter(|r| meant.contains(r)).collect();
            (!seats.is_empty()).then(|| Waiting::Note { text: text.clone(), seats })
        }
        (Waiting::Note { .. }, _) => None,
        _ => (waits == *what).then_some(waits),
    })
}

/// What setting `role`'s seat on `participant`'s model records: nothing
/// once the debate ended, for a seat that does not sit, or for the model
/// it is already on.
pub fn model_changed(state: &DebateState, role: Role, participant: Participant) -> Vec<DebateEvent> {
    let sits = state.seats().contains(&role);
    let same =
        state.participant(role).is_some_and(|p| p.provider == participant.provider && p.model == participant.model);
    if state.finish.is_some() || !sits || same {
        return Vec::new();
    }
    vec![DebateEvent::SeatModelChanged { role, participant }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_with(events: &[DebateEvent]) -> DebateState {
        let mut state = DebateState::default();
        state.apply(&DebateEvent::duel_started());
        for event in events {
            state.apply(event);
        }
        state
    }

    #[test]
    fn what_is_taken_back_is_what_still_waits_and_a_note_only_for_the_seats_still_to_carry_it() {
        let note = DebateEvent::NoteToSeats { text: "Cite one".into(), seats: vec![Role::Skeptic, Role::Judge] };
        let state = state_with(&[DebateEvent::TopicInjected { text: "Juniors".into() }, note]);
        let topic = Waiting::Topic { text: "Juniors".into() };
        assert_eq!(events(&state, &Command::TakeBack(topic.clone())), [DebateEvent::SteeringTakenBack { what: topic }]);
        // Named for the advocate and the skeptic: only the skeptic still waits for it.
        let asked = Waiting::Note { text: "Cite one".into(), seats: vec![Role::Advocate, Role::Skeptic] };
        let taken = Waiting::Note { text: "Cite one".into(), seats: vec![Role::Skeptic] };
        assert_eq!(events(&state, &Command::TakeBack(asked)), [DebateEvent::SteeringTakenBack { what: taken.clone() }]);
        let mut after = state.clone();
        after.apply(&DebateEvent::SteeringTakenBack { what: taken });
        assert_eq!(after.waiting().len(), 2, "the topic and the judge's part of the note");
        assert_eq!(after.seat_notes[0].seats, [Role::Judge]);
        // Nothing of it waits: nothing is recorded.
        let never = Waiting::Question { question: "Why?".into() };
        assert!(events(&state, &Command::TakeBack(never)).is_empty());
        let gone = Waiting::Note { text: "Cite one".into(), seats: vec![Role::Advocate] };
        assert!(events(&state, &Command::TakeBack(gone)).is_empty());
    }

    #[test]
    fn a_question_taken_back_leaves_the_judges_and_a_round_that_began_carries_what_was_not() {
        let state = state_with(&[DebateEvent::QuestionSet { question: "Who pays?".into() }]);
        let question = Waiting::Question { question: "Who pays?".into() };
        let mut after = state.clone();
        for event in events(&state, &Command::TakeBack(question.clone())) {
            after.apply(&event);
        }
        assert_eq!(after.next_question, None);
        assert_eq!(after.question_ahead(), "Tabs beat spaces");
        // Once round 1 began with it, it is too late.
        let mut begun = state.clone();
        begun.apply(&DebateEvent::RoundStarted {
            round: 0,
            topic: "Who pays?".into(),
            heat: Heat::new(0.9),
            injected: vec![],
        });
        assert!(events(&begun, &Command::TakeBack(question)).is_empty());
    }

    #[test]
    fn a_model_change_is_recorded_for_a_seat_that_sits_on_another_model_while_the_debate_runs() {
        let state = state_with(&[]);
        let to = Participant::new(Role::Skeptic, "anthropic", "claude-opus-4-1");
        let recorded = model_changed(&state, Role::Skeptic, to.clone());
        assert_eq!(recorded, [DebateEvent::SeatModelChanged { role: Role::Skeptic, participant: to.clone() }]);
        let mut after = state.clone();
        after.apply(&recorded[0]);
        assert_eq!(after.participant(Role::Skeptic), Some(&to));
        assert!(model_changed(&after, Role::Skeptic, to).is_empty(), "already on it");
        let same = Participant::new(Role::Advocate, "openai", "mock-a");
        assert!(model_changed(&state, Role::Advocate, same).is_empty());
        let off = Participant::new(Role::Third, "openai", "mock-b");
        assert!(model_changed(&state, Role::Third, off).is_empty(), "a seat the duel does not sit");
        let mut ended = state.clone();
        ended.apply(&DebateEvent::Finished { outcome: Outcome::Cancelled, synthesis: None });
        assert!(model_changed(&ended, Role::Skeptic, Participant::new(Role::Skeptic, "openai", "x")).is_empty());
    }
}
