//! What `heat mcp`'s reading tools return from a stored debate: where it
//! stands, a round's verdict, the synthesis, the transcript, and the list
//! of sessions; each as text for a person and a structured value for a
//! program. Model text is cleaned before it leaves.

use serde_json::{Value, json};

use crate::debate::{DebateState, Role};
use crate::report::export::{self, ExportKind};
use crate::sanitize::clean;
use crate::store::Store;

/// The stored debate `id` names, folded.
pub fn state(store: &Store, id: &str) -> Result<DebateState, String> {
    let loaded = store.load(id).map_err(|e| format!("{e:#}"))?;
    Ok(DebateState::from_events(loaded.records.iter().map(|r| &r.event)))
}

/// What a tool returns: text, and the same as a value.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub text: String,
    pub value: Value,
}

/// A heat as the number a person reads (0.7, not 0.699999988).
fn rounded(heat: crate::debate::Heat) -> f64 {
    (f64::from(heat.get()) * 100.0).round() / 100.0
}

/// Who sits where: `advocate: openai/gpt-4.1`.
fn seats(state: &DebateState) -> Value {
    state
        .participants
        .iter()
        .map(|p| (p.role.key().to_string(), json!(format!("{}:{}", clean(&p.provider), clean(&p.model)))))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The side the judge last put ahead: the seat's key, `even`, or null.
fn ahead(state: &DebateState) -> Value {
    let Some(ahead) = state.rounds.iter().rev().find_map(|r| r.verdict()?.ahead) else { return Value::Null };
    ahead.side().map_or_else(|| json!("even"), |role| json!(role.key()))
}

/// The debate's standing in a few words, for a steer that changes nothing.
pub fn standing(state: &crate::debate::DebateState) -> String {
    if let Some(finish) = &state.finish {
        return format!("over: {}", finish.outcome.describe());
    }
    let round = state.rounds.last().map_or(0, |r| r.number + 1);
    let paused = if state.paused { ", paused" } else { "" };
    let heat = match state.pinned_heat {
        Some(heat) => format!("heat held at {heat}"),
        None => format!("heat {}", state.heat),
    };
    format!("in round {round} of {}, {heat}{paused}", state.max_rounds)
}

/// A debate this server runs, as its status says it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Not ended yet.
    pub ongoing: bool,
    pub tokens: u64,
    pub usd: Option<f64>,
}

/// Where the debate stands.
pub fn status(session: &str, state: &DebateState, live: Option<Run>) -> Answer {
    // Rounds are counted from 1 here, as a person reads them (from 0 in the log).
    let round = state.rounds.last().map_or(0, |r| r.number + 1);
    let verdicts = state.rounds.iter().filter(|r| r.verdict().is_some()).count();
    let outcome = state.finish.as_ref().map(|f| f.outcome.describe());
    let running = live.is_some_and(|l| l.ongoing);
    let value = json!({
        "session": session,
        "proposition": clean(&state.topic),
        "format": state.format.as_ref().map_or("duel", |f| f.name.as_str()),
        "seats": seats(state),
        "round": round,
        "max_rounds": state.max_rounds,
        "verdicts": verdicts,
        "heat": rounded(state.effective_heat()),
        "heat_pinned": state.pinned_heat.is_some(),
        "paused": state.paused,
        "ahead": ahead(state),
        "running": running,
        "outcome": outcome,
        "tokens": live.map(|p| p.tokens),
        "usd": live.and_then(|p| p.usd),
    });
    let text = format!(
        "Session {session}: “{}”, {}{}.",
        clean(&state.topic),
        standing(state),
        match &value["ahead"] {
            Value::String(side) if side == "even" => "; the judge has them even".to_string(),
            Value::String(side) => format!("; the judge puts the {side} ahead"),
            _ => String::new(),
        }
    );
    Answer { text, value }
}

/// Round `round`'s verdict (the latest when `None`).
pub fn verdict(session: &str, state: &DebateState, round: Option<u32>) -> Result<Answer, String> {
    let judged = state.rounds.iter().filter(|r| r.verdict().is_some());
    let found = match round {
        Some(n) => judged.clone().find(|r| r.number + 1 == n),
        None => judged.clone().next_back(),
    };
    let Some(found) = found else {
        let which = round.map_or_else(|| "yet".to_string(), |n| format!("for round {n}"));
        let given: Vec<String> = judged.map(|r| (r.number + 1).to_string()).collect();
        let so_far = if given.is_empty() { String::new() } else { format!(" (rounds judged: {})", given.join(", ")) };
        return Err(format!("session {session} has no verdict {which}{so_far}"));
    };
    let verdict = found.verdict().expect("judged rounds have verdicts");
    let ahead = verdict.ahead.map(|a| a.side().map_or("even", Role::key));
    let value = json!({
        "session": session,
        "round": found.number + 1,
        "verdict": clean(&verdict.verdict),
        "ahead": ahead,
        "resolved": verdict.resolved,
        "next_topic": clean(&verdict.topic),
        "heat": rounded(verdict.heat),
    });
    let text = format!("Round {} verdict: {}", found.number + 1, clean(&verdict.verdict));
    Ok(Answer { text, value })
}

/// The judge's final synthesis.
pub fn synthesis(session: &str, state: &DebateState) -> Result<Answer, String> {
    let Some(finish) = &state.finish else {
        return Err(format!(
            "session {session} has not ended yet ({}); wait_for_debate with until=end waits for it",
            standing(state)
        ));
    };
    let Some(text) = finish.synthesis.as_deref().map(clean) else {
        return Err(format!("session {session} ended ({}) without a synthesis", finish.outcome.describe()));
    };
    let value = json!({ "session": session, "outcome": finish.outcome.describe(), "synthesis": text });
    Ok(Answer { text, value })
}

/// The whole debate as Markdown, as `heat export` writes it.
pub fn transcript(store: &Store, session: &str) -> Result<Answer, String> {
    let loaded = store.load(session).map_err(|e| format!("{e:#}"))?;
    let text = export::render_with(ExportKind::Md, &loaded.header, &loaded.records, None, &store.label(session));
    let value = json!({ "session": session, "markdown": text });
    Ok(Answer { text, value })
}

/// The stored debates, newest first, those `search` and `tag` keep, at most `limit`.
pub fn list(store: &Store, search: Option<String>, tag: Option<String>, limit: usize) -> Answer {
    let filter = crate::cli::sessions::Filter { search, continuable: false, tag };
    let kept = crate::cli::sessions::kept(store, &store.list(), &filter);
    let listed: Vec<Value> = kept
        .iter()
        .take(limit)
        .map(|(entry, _)| {
            json!({
                "session": entry.id,
                "topic": clean(&entry.topic),
                "rounds": entry.rounds,
                "outcome": entry.outcome.as_deref().map(clean),
                "format": entry.format.as_deref().map(clean),
                "models": entry.models.iter().map(|m| clean(m)).collect::<Vec<_>>(),
                "tags": entry.tags.iter().map(|t| clean(t)).collect::<Vec<_>>(),
                "updated_ms": entry.updated_ms,
            })
        })
        .collect();
    let mut text = format!("{} of {}:", listed.len(), crate::words::count(kept.len(), "debate"));
    for item in &listed {
        let outcome = item["outcome"].as_str().unwrap_or("running or stopped");
        text.push_str(&format!(
            "\n{}  “{}”  ({})",
            item["session"].as_str().unwrap_or(""),
            item["topic"].as_str().unwrap_or(""),
            outcome
        ));
    }
    Answer { text, value: json!({ "sessions": listed, "matched": kept.len() }) }
}
