//! What each of the person's steering actions sends to the engine and says
//! on the status line, decided from the debate as it stands: an injected
//! topic, a note to some seats, the next question, more rounds, a seat's
//! turn cancelled or asked again, a pinned heat, a forced resolution and
//! the person's own verdict. Each is a pure function returning a
//! [`Steered`], which the studio (`App::apply_steer`) applies; so what a key
//! reaches, and what the person is told, is decided in one place. In a
//! replay or a watch, [`narrate`] says the same steering in words as the
//! log shows it.

use super::effect::Effect;
use super::flash::{Flash, Tone, Until};
use super::keymap::{Action, KeyMap};
use super::seat_target::SeatTarget;
use super::verdict_form::Given;
use crate::debate::argument_map::Claim;
use crate::debate::event::Waiting;
use crate::debate::state::{HumanVerdict, Turn};
use crate::debate::{Command, DebateEvent, DebateState, Heat, Role};
use crate::sanitize::clean;

/// A steering action's answer: what the status line says, and what is sent.
#[derive(Debug)]
pub struct Steered {
    pub said: Flash,
    pub effects: Vec<Effect>,
}

impl Steered {
    fn sends(tone: Tone, text: impl Into<String>, until: Until, effect: Effect) -> Self {
        Self { said: Flash { text: text.into(), tone, until }, effects: vec![effect] }
    }

    /// Nothing is sent; the person is told why.
    fn refused(tone: Tone, text: impl Into<String>) -> Self {
        Self { said: Flash { text: text.into(), tone, until: Until::NextRound }, effects: Vec::new() }
    }
}

/// Whether the current round is the debate's last (or a resolution was forced).
fn last_round(debate: &DebateState) -> bool {
    let round = debate.current_round();
    debate.force_requested || round.is_some_and(|r| r.number + 1 >= debate.max_rounds)
}

/// An injected topic, said where it will be heard: the next round's
/// prompts, or in the last round the judge's final synthesis; once that
/// synthesis is being written it is too late, and said so.
pub fn inject(debate: &DebateState, text: String) -> Steered {
    let final_started = debate.current_round().and_then(|r| r.turn(Role::Judge)).is_some_and(|t| t.purpose.is_final());
    if final_started {
        return Steered::refused(Tone::Warn, "Too late to inject: the judge is writing the final synthesis");
    }
    let heard = if last_round(debate) {
        "Topic injected: this is the last round, so the judge's final synthesis considers it"
    } else {
        "Topic injected: the next round's prompts carry it"
    };
    Steered::sends(Tone::Good, heard, Until::NextRound, Effect::Send(Command::InjectTopic(text)))
}

/// A note to some seats only, saying whose next request carries it.
pub fn note_to(debate: &DebateState, text: String, seats: Vec<Role>) -> Steered {
    let names: Vec<String> = seats.iter().map(|&r| format!("the {}", debate.seat_name(r))).collect();
    let said = format!("Note sent to {} only: their next request carries it", names.join(" and "));
    Steered::sends(Tone::Good, said, Until::NextRound, Effect::Send(Command::NoteToSeats { text, seats }))
}

/// Taking back what waits: said as what no request will carry now; once
/// a request carried it, too late, and said so.
pub fn take_back(debate: &DebateState, what: &Waiting) -> Steered {
    let said = clean(&what.describe(|r| debate.seat_name(r)));
    match crate::debate::command::still_waiting(debate, what) {
        Some(waits) => {
            let text = format!("Taken back: {said}; no request carries it");
            Steered::sends(Tone::Good, text, Until::NextRound, Effect::Send(Command::TakeBack(waits)))
        }
        None => Steered::refused(Tone::Warn, format!("Too late to take back {said}: a request already carried it")),
    }
}

/// A seat put on another model from its next turn: `typed` is
/// `PROVIDER:MODEL`, or a model on the seat's own provider. The engine sets
/// it up, and says so if it cannot.
pub fn change_model(debate: &DebateState, role: Role, typed: &str) -> Steered {
    let seat = debate.seat_name(role);
    let Some(now) = debate.participant(role) else {
        return Steered::refused(Tone::Warn, format!("The {seat} does not sit in this debate"));
    };
    let typed = crate::sanitize::one_line(typed);
    let (provider, model) = crate::provider::ProviderKind::split_model(typed.trim());
    let provider = provider.unwrap_or(now.provider.as_str()).to_string();
    if model.is_empty() {
        return Steered::refused(Tone::Warn, format!("Name the model too: {provider}:MODEL"));
    }
    if provider == now.provider && model == now.model {
        return Steered::refused(Tone::Info, format!("The {seat} is already on {provider}/{model}"));
    }
    let said = format!("The {seat} is asked on {provider}/{model} from its next turn");
    let command = Command::ChangeModel { role, provider, model: model.to_string() };
    Steered::sends(Tone::Good, said, Until::NextRound, Effect::Send(command))
}

/// The next round's question, saying which round asks it; in the last
/// round (or once a resolution is forced) no round is left to ask it until
/// rounds are added, and that is said instead.
pub fn set_question(debate: &DebateState, keymap: &KeyMap, text: &str) -> Steered {
    let text = crate::sanitize::one_line(text);
    let next = debate.current_round().map_or(1, |r| r.number + 2);
    let (tone, said) = if last_round(debate) {
        let more = keymap.hint(Action::MoreRounds);
        (Tone::Warn, format!("Question kept for round {next}: this is the last round, so {more} adds it to ask it"))
    } else {
        (Tone::Good, format!("Round {next} asks your question instead of the judge's"))
    };
    Steered::sends(tone, said, Until::NextRound, Effect::Send(Command::SetQuestion(text)))
}

/// A claim from the argument map put to the other side as the next round's
/// question, in the words the map shows it.
pub fn claim_as_question(debate: &DebateState, keymap: &KeyMap, claim: &Claim) -> Steered {
    let other = other_side(claim.by);
    let text = format!(
        "The {} claims ({}): “{}”. Can the {} answer it?",
        debate.seat_name(claim.by),
        claim.id,
        claim.claim,
        debate.seat_name(other)
    );
    set_question(debate, keymap, &text)
}

/// A claim from the argument map sent to the other side alone, asking it
/// to answer what it has left unanswered.
pub fn claim_to_answer(debate: &DebateState, claim: &Claim) -> Steered {
    let other = other_side(claim.by);
    let text = format!(
        "Answer the {}'s claim {}, which you have not answered: “{}”",
        debate.seat_name(claim.by),
        claim.id,
        claim.claim
    );
    note_to(debate, text, vec![other])
}

/// The side a claim is put to.
fn other_side(by: Role) -> Role {
    if by == Role::Advocate { Role::Skeptic } else { Role::Advocate }
}

/// One more round: a running debate's limit grows; one that came to its
/// end goes on after its last round, its ending set aside.
pub fn more_rounds(debate: &DebateState) -> Steered {
    let played = u32::try_from(debate.rounds.len()).unwrap_or(u32::MAX);
    if debate.finish.is_some() {
        let text = format!("One more round: the debate goes on after round {played}, its ending set aside");
        return Steered::sends(Tone::Good, text, Until::NextRound, Effect::MoreRounds(1));
    }
    let limit = debate.max_rounds.max(played) + 1;
    let text = if debate.force_requested {
        format!("One more round allowed (up to {limit}); the forced resolution still ends the debate this round")
    } else {
        format!("One more round: up to {limit} rounds")
    };
    Steered::sends(Tone::Good, text, Until::NextRound, Effect::Send(Command::AddRounds(1)))
}

/// `C`: cancels `role`'s turn alone, or says it is not answering.
pub fn cancel_seat(debate: &DebateState, role: Role) -> Steered {
    let name = debate.seat_name(role);
    let open = debate.current_round().and_then(|r| r.turn(role)).is_some_and(Turn::is_open);
    if !open {
        return Steered::refused(Tone::Info, format!("The {name} is not answering: nothing to cancel"));
    }
    let said = format!("Cancelling the {name}'s turn; its text so far stands");
    Steered::sends(Tone::Info, said, Until::Settled, Effect::Send(Command::CancelSeat(role)))
}

/// `R`: asks `role` again (its answer kept in the log as discarded), or
/// says why it cannot be asked again now.
pub fn ask_again(debate: &DebateState, role: Role) -> Steered {
    let name = debate.seat_name(role);
    let command = Command::Reroll(role);
    if crate::debate::command::events(debate, &command).is_empty() {
        let why = if role.is_judge() {
            format!("The {name} has nothing this round to be asked again for")
        } else {
            format!("The {name} can be asked again until the judge takes the round up")
        };
        return Steered::refused(Tone::Info, why);
    }
    let said = format!("Asking the {name} again; its answer is kept in the log as discarded");
    Steered::sends(Tone::Good, said, Until::NextRound, Effect::Send(command))
}

/// The heat pinned from the next round, for everyone or for one seat.
pub fn pin_heat(keymap: &KeyMap, to: &SeatTarget, heat: Heat) -> Steered {
    if let (false, Some(&role)) = (to.is_everyone(), to.seats().first()) {
        let text = format!("Heat pinned at {heat:.2} for {}, from the next round", to.describe());
        return Steered::sends(Tone::Good, text, Until::NextRound, Effect::Send(Command::PinSeat { role, heat }));
    }
    let release = keymap.hint(Action::ReleaseTemperature);
    let text = format!("Heat pinned at {heat:.2} from the next round; {release} releases it");
    Steered::sends(Tone::Good, text, Until::NextRound, Effect::Send(Command::PinTemperature(heat)))
}

/// The person confirmed forcing a resolution: sent while the debate runs;
/// one that ended while the question stood has nothing left to force.
pub fn force(debate: &DebateState) -> Steered {
    if debate.finish.is_some() {
        return Steered::refused(Tone::Info, "The debate has already ended: there is no resolution to force");
    }
    let text = "Resolution forced: the judge writes its final synthesis";
    Steered::sends(Tone::Info, text, Until::NextRound, Effect::Send(Command::ForceResolution))
}

/// The person's verdict beside the judge's: a live debate's engine records
/// it (and ends the debate when asked); an ended one's is recorded by the
/// studio.
pub fn human_verdict(debate: &DebateState, given: Given) -> Steered {
    let Given { ahead, confidence, note, ends, live, .. } = given;
    let round = debate.rounds.last().map_or(0, |r| r.number);
    let recorded = HumanVerdict { round: round + 1, ahead, confidence, note: note.clone(), ends };
    let said = format!("Your verdict: {}", recorded.describe(debate));
    if live && debate.finish.is_none() {
        let then = match (ends, debate.judges()) {
            (false, _) => "",
            (true, 0) => "; the vote after this round decides",
            (true, _) => "; the judge now writes the final synthesis",
        };
        let command = Command::HumanVerdict { ahead, confidence, note, ends };
        return Steered::sends(Tone::Good, format!("{said}{then}"), Until::NextRound, Effect::Send(command));
    }
    let event = DebateEvent::HumanVerdict { round, ahead, confidence, note, ends: false };
    Steered::sends(Tone::Good, said, Until::NextRound, Effect::Record(event))
}

/// In a replay or a watch, what the person at the keyboard did, in words,
/// when they did it (live, the key that did it says so); `None` for an
/// event that is no steering.
pub fn narrate(debate: &DebateState, event: &DebateEvent) -> Option<String> {
    let text = match event {
        DebateEvent::TopicInjected { text } => format!("Topic injected: {}", clean(text)),
        DebateEvent::TemperaturePinned { heat } => {
            format!("Heat pinned at {heat:.2}: it holds, whatever the judge sets")
        }
        DebateEvent::TemperatureReleased => "Heat released: the judge sets it again".into(),
        DebateEvent::ResolutionForced => "Resolution forced: the judge sums up once this round is argued".into(),
        DebateEvent::QuestionSet { question } => format!("Next question set: {}", clean(question)),
        DebateEvent::NoteToSeats { text, seats } => {
            let to: Vec<String> = seats.iter().map(|&r| debate.label(r).to_lowercase()).collect();
            format!("Note to the {} only: {}", to.join(" and the "), clean(text))
        }
        DebateEvent::SeatHeatPinned { role, heat } => {
            format!("The {}'s heat pinned at {heat:.2}", debate.label(*role).to_lowercase())
        }
        DebateEvent::SeatHeatReleased { role } => {
            format!("The {}'s heat released", debate.label(*role).to_lowercase())
        }
        DebateEvent::TurnDiscarded { role, .. } => {
            format!("The {} asked again; its answer is kept in the log as discarded", debate.seat_name(*role))
        }
        DebateEvent::SteeringTakenBack { what } => {
            format!("Taken back before any request carried it: {}", clean(&what.describe(|r| debate.seat_name(r))))
        }
        DebateEvent::SeatModelChanged { role, participant } => format!(
            "The {} put on {}/{} from its next turn",
            debate.seat_name(*role),
            clean(&participant.provider),
            clean(&participant.model)
        ),
        DebateEvent::RoundsAdded { rounds } => {
            format!("{} added by the person at the keyboard", crate::words::count(*rounds as usize, "more round"))
        }
        _ => return None,
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A duel of `rounds` rounds, in its first round, the advocate's turn open.
    fn first_round_of(rounds: u32) -> DebateState {
        let mut state = DebateState::default();
        let heat = Heat::new(0.9);
        state.apply(&DebateEvent::Started {
            topic: "T".into(),
            max_rounds: rounds,
            initial_heat: heat,
            participants: vec![],
        });
        state.apply(&DebateEvent::RoundStarted { round: 0, topic: "T".into(), heat, injected: vec![] });
        let purpose = crate::debate::event::TurnPurpose::Argue;
        state.apply(&DebateEvent::TurnStarted { round: 0, role: Role::Advocate, purpose, temperature: Some(0.9) });
        state
    }

    fn sent(steered: &Steered) -> Vec<&Command> {
        steered.effects.iter().filter_map(|e| if let Effect::Send(c) = e { Some(c) } else { None }).collect()
    }

    #[test]
    fn an_injection_in_the_last_round_is_said_to_reach_the_final_synthesis() {
        let steered = inject(&first_round_of(3), "cost".into());
        assert!(steered.said.text.contains("next round's prompts"), "{}", steered.said.text);
        let steered = inject(&first_round_of(1), "cost".into());
        assert!(steered.said.text.contains("final synthesis considers it"), "{}", steered.said.text);
        assert_eq!(sent(&steered), [&Command::InjectTopic("cost".into())]);
    }

    #[test]
    fn a_seat_that_is_not_answering_is_not_cancelled() {
        let state = first_round_of(3);
        let open = cancel_seat(&state, Role::Advocate);
        assert_eq!(sent(&open), [&Command::CancelSeat(Role::Advocate)]);
        assert_eq!(open.said.until, Until::Settled);
        let idle = cancel_seat(&state, Role::Skeptic);
        assert!(idle.effects.is_empty());
        assert_eq!(idle.said.text, "The skeptic is not answering: nothing to cancel");
    }

    #[test]
    fn a_question_in_the_last_round_waits_for_more_rounds_and_says_so() {
        let keymap = KeyMap::default();
        let steered = set_question(&first_round_of(1), &keymap, "Why\nnow?");
        assert_eq!(steered.said.tone, Tone::Warn);
        assert!(steered.said.text.starts_with("Question kept for round 2"), "{}", steered.said.text);
        assert_eq!(sent(&steered), [&Command::SetQuestion("Why now?".into())]);
    }

    #[test]
    fn more_rounds_on_an_ended_debate_reopens_it_rather_than_raising_a_limit() {
        let mut state = first_round_of(1);
        let running = more_rounds(&state);
        assert_eq!(sent(&running), [&Command::AddRounds(1)]);
        assert_eq!(running.said.text, "One more round: up to 2 rounds");
        let outcome = crate::debate::Outcome::Cancelled;
        state.apply(&DebateEvent::Finished { outcome, synthesis: None });
        let ended = more_rounds(&state);
        assert!(matches!(ended.effects[..], [Effect::MoreRounds(1)]), "{:?}", ended.effects);
    }

    #[test]
    fn a_force_confirmed_after_the_debate_ended_sends_nothing_and_says_so() {
        let mut state = first_round_of(2);
        assert_eq!(sent(&force(&state)), [&Command::ForceResolution]);
        state.apply(&DebateEvent::Finished { outcome: crate::debate::Outcome::MaxRounds, synthesis: None });
        let late = force(&state);
        assert!(sent(&late).is_empty(), "{:?}", late.effects);
        assert_eq!(late.said.text, "The debate has already ended: there is no resolution to force");
    }

    #[test]
    fn a_replay_narrates_steering_and_nothing_else() {
        let state = first_round_of(3);
        let note = DebateEvent::NoteToSeats { text: "Cite a study".into(), seats: vec![Role::Skeptic] };
        assert_eq!(narrate(&state, &note).as_deref(), Some("Note to the skeptic only: Cite a study"));
        assert_eq!(
            narrate(&state, &DebateEvent::RoundsAdded { rounds: 2 }).as_deref(),
            Some("2 more rounds added by the person at the keyboard")
        );
        assert_eq!(narrate(&state, &DebateEvent::Paused), None);
    }
}
