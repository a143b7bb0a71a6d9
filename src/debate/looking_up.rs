//! A debater's turn that looks things up in the library: which tools its
//! request offers (`offered`), and the answers to the calls its answer
//! stopped for, as the events that record them (`answers`), bounded by
//! the calls a turn may make. Pure steps of the set-up and the state; the
//! engine emits what they return and sends the turn's next request.

use std::time::Instant;

use super::event::DebateEvent;
use super::grounding::lookup;
use super::seat::Role;
use super::setup::EngineSetup;
use super::state::{DebateState, calls_made};
use crate::provider::Tools;

/// The tools `role`'s request in `round` offers: the library's, to a
/// debater on a server's model that has not refused them, while the
/// debate has a library and allows calls; closed once the turn has made
/// its calls (the history then has calls, and a wire wants them defined).
pub fn offered(setup: &EngineSetup, state: &DebateState, round: u32, role: Role, refused: bool) -> Option<Tools> {
    let allowed = role.is_debater()
        && setup.library.is_some()
        && setup.tool_calls > 0
        && setup.role(role).model.takes_tools()
        && !state.seated_person(role)
        && !refused;
    if !allowed {
        return None;
    }
    let made =
        state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role)).map_or(0, |t| calls_made(&t.tools));
    Some(Tools { specs: lookup::specs(), may_call: made < setup.tool_calls as usize })
}

/// The answers to every call of `role`'s open turn in `round` not yet
/// answered, each timed: from the library, or, past the turn's bound
/// (`debate.tool_calls`), a refusal that tells the model to answer now.
pub fn answers(setup: &EngineSetup, state: &DebateState, round: u32, role: Role) -> Vec<DebateEvent> {
    let Some(turn) = state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role)) else {
        return Vec::new();
    };
    let bound = setup.tool_calls as usize;
    let calls = turn.tools.iter().flat_map(|s| &s.calls);
    calls
        .enumerate()
        .filter(|(_, u)| u.answer.is_none())
        .map(|(n, u)| {
            let began = Instant::now();
            let answer = match &setup.library {
                _ if n >= bound => lookup::Answer {
                    text: format!("past this turn's bound of {bound} tool calls; answer now with what you have"),
                    failed: true,
                },
                Some(library) => lookup::answer(library, &u.call),
                None => lookup::Answer { text: "this debate has no library to look things up in".into(), failed: true },
            };
            let millis = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
            DebateEvent::ToolAnswered {
                round,
                role,
                id: u.call.id.clone(),
                text: answer.text,
                failed: answer.failed,
                millis,
            }
        })
        .collect()
}

/// The sentence a system prompt carries for a seat that may look things up.
pub const HOW_TO_LOOK_UP: &str = "Before you answer you may look things up in the library: \
    `search` finds the passages that bear on a question, `read` gives a file's lines. \
    Look up only what your argument needs, cite each passage you use as [file:Lstart–Lend], \
    then write your argument.";
