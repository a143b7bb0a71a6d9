//! `heat rematch ID`: a stored debate run again from round 1, as a new
//! session: the same proposition, rounds, first heat and recorded source,
//! each seat on the provider and model that argued it (the sides swapped
//! with `--swap-sides`, a seat's model changed with `--seat NAME=MODEL`).
//! The new session records which debate it reruns and how.

use std::process::ExitCode;

use anyhow::bail;

use crate::config::FlagValue;
use crate::debate::{DebateEvent, DebateState, Role, engine};
use crate::store::{self, Store};

/// What `heat rematch` was asked for.
pub struct Request<'a> {
    pub id: Option<&'a str>,
    pub swap_sides: bool,
    /// `advocate=MODEL`, …
    pub seats: &'a [String],
    pub json: bool,
}

/// The stored debate and the flags that seat it again: each role's provider
/// and model as recorded (swapped, changed), then the debate's own shape.
/// `command` names what asks (`heat rematch`, `heat branch`).
pub fn flags(state: &DebateState, command: &str, swap_sides: bool, seats: &[String]) -> anyhow::Result<Vec<FlagValue>> {
    let flag = |key: String, raw: String| FlagValue { key, raw, flag: command.into() };
    let mut flags = vec![
        flag("debate.max_rounds".into(), state.max_rounds.to_string()),
        flag("debate.initial_heat".into(), format!("{:.2}", state.initial_heat)),
    ];
    // The same sampling seed, so a model that honours one draws alike.
    if let Some(seed) = state.recipe.as_ref().and_then(|r| r.seed) {
        flags.push(flag("debate.seed".into(), seed.to_string()));
    }
    for role in state.seats() {
        // With the sides swapped, each debater's seat goes to the model that argued the other side.
        let from = match role.opponent() {
            Some(other) if swap_sides => other,
            _ => role,
        };
        let Some(who) = state.participant(from) else {
            bail!("the stored debate does not say who argued as the {}", role.key())
        };
        if who.provider == "scripted" {
            bail!("the stored debate was argued by scripted models (the demo): they cannot argue again");
        }
        flags.push(flag(format!("roles.{}.provider", role.key()), who.provider.clone()));
        // The embedded model records its name, not its file: the configured file serves it again.
        if !who.is_embedded() || crate::setup::is_gguf(&who.model) {
            flags.push(flag(format!("roles.{}.model", role.key()), who.model.clone()));
        }
    }
    // A seat is named by its role, or as the stored debate's format names it.
    let sitting = state.seats();
    let judges = state.judges();
    let named = |name: &str| {
        let seat = sitting
            .iter()
            .copied()
            .find(|&r| r.key().eq_ignore_ascii_case(name) || state.label(r).eq_ignore_ascii_case(name));
        let seat = seat.map(|role| role.key().to_string());
        seat.or_else(|| super::seats::panel_judge_named(name, judges).map(crate::debate::PanelJudge::key))
    };
    let labels: Vec<String> = Role::ALL.iter().map(|&r| state.seat_name(r)).collect();
    flags.extend(super::seats::flags(seats, named, &super::seats::accepted(&labels, &sitting, judges))?);
    Ok(flags)
}

/// How the seats changed, in words, for the record: `sides swapped`,
/// `seat judge=MODEL`.
pub fn seat_changes(swap_sides: bool, seats: &[String]) -> Vec<String> {
    let mut changes = Vec::new();
    if swap_sides {
        changes.push("sides swapped".to_string());
    }
    changes.extend(seats.iter().map(|s| format!("seat {}", s.trim())));
    changes
}

/// How the rematch differs, in words, for its record.
fn how(request: &Request<'_>) -> String {
    let changes = seat_changes(request.swap_sides, request.seats);
    if changes.is_empty() { "run again as it was".into() } else { changes.join(", ") }
}

/// Runs the rematch headless, printing it as `heat run` does.
pub async fn rematch(
    config_file: Option<&std::path::PathBuf>,
    user_flags: &[FlagValue],
    request: &Request<'_>,
) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(request.id)?;
    let loaded = store.load(&id)?;
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    if !state.began() {
        bail!("session {id} never started a debate: there is nothing to run again");
    }
    // The person's own flags come last: they win over what the session recorded.
    let flags = [flags(&state, "heat rematch", request.swap_sides, request.seats)?, user_flags.to_vec()].concat();
    let config = super::load::config(config_file, &flags)?;
    // The stored debate's format (its seats' names, briefs and phases), unless --format names another;
    // then heat.toml's format lays nothing over the stored seats.
    let named = matches!(config.get("debate.format").map(|e| &e.source), Some(crate::config::Source::Flag(_)));
    let config = if named { config } else { config.without_format().clone() };
    let mut spec = super::run::spec_for(&config, false)?;
    spec.topic = state.topic.clone();
    if !named {
        spec.format.clone_from(&state.format);
        // `--seat judge2=…` asks the stored panel's judge 2 on another model.
        if let Some(record) = spec.format.as_mut() {
            crate::format::layer::seat_panel_judges(&config, record, true);
        }
    }
    // The recorded text, not the file: the rematch debates what the first debate did.
    spec.grounding.source = state.source.clone();
    spec.grounding.library = super::run::reopened_library(&state).map(crate::library::Shared);
    let setup = super::run::setup_fitting(&config, spec.grounding.source.as_ref()).await?;
    let origin = DebateEvent::Derived { from: id, how: how(request) };
    let recorder = store.create()?;
    super::run::drive(engine::start(setup, spec), recorder, request.json, None, Some(origin)).await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::debate::{DebateEvent, Heat, Participant};

    fn played_by(provider: &str, model: &str) -> DebateState {
        let participants = Role::DUEL.into_iter().map(|role| Participant::new(role, provider, model)).collect();
        DebateState::from_events(&[DebateEvent::Started {
            topic: "t".into(),
            max_rounds: 2,
            initial_heat: Heat::new(0.9),
            participants,
        }])
    }

    #[test]
    fn a_debate_on_the_embedded_model_goes_on_on_the_configured_file() {
        let keys = |state: &DebateState| -> Vec<String> {
            flags(state, "heat branch", false, &[]).unwrap().into_iter().map(|f| f.key).collect()
        };
        let local = keys(&played_by("local", "SmolLM2-135M"));
        assert!(local.contains(&"roles.judge.provider".to_string()));
        let models = ["roles.advocate.model", "roles.skeptic.model", "roles.judge.model"];
        assert!(!local.iter().any(|k| models.contains(&k.as_str())), "a model's name is no file to load: {local:?}");
        let own_file = keys(&played_by("local", "/models/other.gguf"));
        assert!(own_file.contains(&"roles.advocate.model".to_string()), "a file of its own is kept");
        let served = keys(&played_by("openai", "gpt-4.1-mini"));
        assert!(served.contains(&"roles.skeptic.model".to_string()));
    }
}
