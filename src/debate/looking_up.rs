//! A debater's turn that looks things up: which tools its request offers
//! (`offered`: the library's `search` and `read`, and the tools of the MCP
//! servers heat.toml names for its seat), and how each call its answer
//! stopped for is answered (`answering`): from the library at once, by an
//! MCP server (a call the engine runs), or refused past the turn's bound.
//! Pure steps of the set-up and the state; the engine emits what they
//! return, runs the servers' calls, and asks the turn on once every call
//! has its answer (`all_answered`).

use std::sync::Arc;
use std::time::Instant;

use super::event::DebateEvent;
use super::grounding::lookup;
use super::seat::Role;
use super::setup::EngineSetup;
use super::state::{DebateState, Turn, calls_made};
use crate::mcp::McpServer;
use crate::provider::{ToolSpec, Tools};

/// The tools `role`'s request in `round` offers: to a debater on a
/// server's model that has not refused them, where the debate has a
/// library or an MCP server for its seat and allows calls; closed once
/// the turn has made its calls (the history then has calls, and a wire
/// wants their tools defined).
pub fn offered(setup: &EngineSetup, state: &DebateState, round: u32, role: Role, refused: bool) -> Option<Tools> {
    let model = &setup.role(role).model;
    let seat_may =
        role.is_debater() && setup.tool_calls > 0 && model.takes_tools() && !state.seated_person(role) && !refused;
    if !seat_may {
        return None;
    }
    let made = open_turn(state, round, role).map_or(0, |t| calls_made(&t.tools));
    // The embedded model searches the library once a turn, held by its grammar; no server's tools.
    if model.is_embedded() {
        let search = lookup::specs().into_iter().filter(|s| s.name == "search").collect();
        return setup.library.is_some().then_some(Tools { specs: search, may_call: made < 1 });
    }
    let mut specs = if setup.library.is_some() { lookup::specs() } else { Vec::new() };
    for served in setup.servers.iter().filter(|s| s.serves(role)) {
        specs.extend(served.server.tools.iter().map(|tool| ToolSpec {
            name: tool_name(&served.server.name, &tool.name),
            description: tool.description.clone(),
            parameters: tool.schema.clone(),
        }));
    }
    if specs.is_empty() {
        return None;
    }
    Some(Tools { specs, may_call: made < setup.tool_calls as usize })
}

/// An MCP server's tool as a debater calls it: `NAME__tool`, in the letters
/// every wire takes, at most 64 of them.
pub fn tool_name(server: &str, tool: &str) -> String {
    let name: String = format!("{server}__{tool}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    name.chars().take(64).collect()
}

/// How one call is answered.
pub enum Answering {
    /// At once: the event that records its answer.
    Now(DebateEvent),
    /// By an MCP server: the engine runs the call and records its answer.
    Server { id: String, server: Arc<McpServer>, tool: String, arguments: serde_json::Value },
}

/// How each call of `role`'s open turn in `round` not yet answered is
/// answered: from the library (timed), by its MCP server, or, past the
/// turn's bound (`debate.tool_calls`), refused with a sentence that tells
/// the model to answer now.
pub fn answering(setup: &EngineSetup, state: &DebateState, round: u32, role: Role) -> Vec<Answering> {
    let Some(turn) = open_turn(state, round, role) else { return Vec::new() };
    let bound = setup.tool_calls as usize;
    let at_once = |id: &str, answer: lookup::Answer, began: Instant| {
        let millis = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        let (text, failed) = (answer.text, answer.failed);
        Answering::Now(DebateEvent::ToolAnswered { round, role, id: id.to_string(), text, failed, millis })
    };
    let calls = turn.tools.iter().flat_map(|s| &s.calls).enumerate();
    let mut out = Vec::new();
    for (n, used) in calls.filter(|(_, u)| u.answer.is_none()) {
        let (call, began) = (&used.call, Instant::now());
        if n >= bound {
            let text = format!("past this turn's bound of {bound} tool calls; answer now with what you have");
            out.push(at_once(&call.id, lookup::Answer { text, failed: true }, began));
            continue;
        }
        // A gateway that merged calls sends their arguments run together: said as such, not as a missing argument.
        if let Some(count) = call.run_together() {
            let text = format!(
                "this call's arguments arrived as {count} JSON objects run together (a gateway between heat \
                 and the model merged {count} calls into one); call each tool on its own"
            );
            out.push(at_once(&call.id, lookup::Answer { text, failed: true }, began));
            continue;
        }
        let on_server = setup.servers.iter().filter(|s| s.serves(role)).find_map(|s| {
            let tool = s.server.tools.iter().find(|t| tool_name(&s.server.name, &t.name) == call.name)?;
            Some((Arc::clone(&s.server), tool.name.clone()))
        });
        let answer = match (&setup.library, on_server) {
            (_, Some((server, tool))) => {
                let arguments = call.arguments_object();
                out.push(Answering::Server { id: call.id.clone(), server, tool, arguments });
                continue;
            }
            (Some(library), None) if setup.role(role).model.is_embedded() => {
                let answer = lookup::answer(library, call);
                lookup::Answer { text: lookup::clip_to(answer.text, lookup::SMALL_RESULT_BYTES), ..answer }
            }
            (Some(library), None) => lookup::answer(library, call),
            (None, None) => lookup::Answer { text: format!("there is no tool `{}`", call.name), failed: true },
        };
        out.push(at_once(&call.id, answer, began));
    }
    out
}

/// Whether every call `role`'s open turn in `round` made has its answer.
pub fn all_answered(state: &DebateState, round: u32, role: Role) -> bool {
    open_turn(state, round, role).is_none_or(|t| t.tools.iter().flat_map(|s| &s.calls).all(|u| u.answer.is_some()))
}

fn open_turn(state: &DebateState, round: u32, role: Role) -> Option<&Turn> {
    state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role)).filter(|t| t.is_open())
}

/// The sentence a system prompt carries for a seat that may look things
/// up: the library's tools, where it has them, and any other.
pub fn how_to_look_up(tools: &Tools) -> String {
    if tools.specs.len() == 1 && tools.specs[0].name == "search" {
        return "Your answer opens with one search of the library, a few words on what your argument needs; \
                the passages it finds are given to you, and you argue from them, citing each as [file:Lstart–Lend]."
            .into();
    }
    let library = tools.specs.iter().any(|s| s.name == "search");
    let others = tools.specs.iter().any(|s| s.name.contains("__"));
    let mut said = String::from("Before you answer you may look things up");
    if library {
        said.push_str(
            " in the library: `search` finds the passages that bear on a question, `read` gives a file's lines",
        );
    }
    if others {
        said.push_str(if library { "; the other tools you are given" } else { " with the tools you are given" });
        said.push_str(" reach beyond it");
    }
    said.push_str(". Look up only what your argument needs");
    if library {
        said.push_str(", cite each passage you use as [file:Lstart–Lend]");
    } else {
        said.push_str(", say where each fact came from");
    }
    said.push_str(", then write your argument.");
    said
}
