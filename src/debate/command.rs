//! What a person can ask of a running debate (`Command`), and what each
//! command means for the debate, as a pure function of the folded state:
//! the events it records. Pausing, resuming, cancelling and stopping also
//! change what the engine runs; the engine does that part.

use super::event::DebateEvent;
use super::heat::Heat;
use super::outcome::Outcome;
use super::seat::Role;
use super::state::DebateState;

/// What a person can ask of a running debate.
#[derive(Debug, Clone, PartialEq)]
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
        Command::AddRounds(rounds) if *rounds > 0 => vec![DebateEvent::RoundsAdded { rounds: *rounds }],
        Command::Pause
        | Command::Resume
        | Command::CancelTurn
        | Command::CancelSeat(_)
        | Command::ReleaseTemperature
        | Command::ForceResolution
        | Command::AddRounds(_)
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
