//! The chosen format (`debate.format`, `--format`) laid over the
//! configuration: its rounds and its seats' own models win over the
//! defaults and heat.toml, and lose to the environment, a command-line flag
//! and what a person set on the studio's start screen.

use super::{Catalog, Format};
use crate::config::{Config, Source, Value};
use crate::debate::PanelJudge;
use crate::debate::format::FormatRecord;
use crate::debate::seat::Role;

/// The format `debate.format` names, from the built-in ones and the user's
/// `formats/` beside heat.toml.
pub fn chosen(config: &Config) -> anyhow::Result<Format> {
    let catalog = Catalog::load(user_dir(config).as_deref());
    let name = config.text("debate.format").map(str::trim).filter(|n| !n.is_empty());
    let format = catalog.find(name.unwrap_or(crate::debate::format::DUEL)).map_err(|e| {
        let place = config.place("debate.format");
        anyhow::anyhow!("{e:#} (debate.format, set by {place})")
    })?;
    let mut format = format.clone();
    seat_panel_judges(config, &mut format.record, false);
    Ok(format)
}

/// A panel's judges 2 to 5 on the provider and model `roles.judgeN.*`
/// names, laid over what `record` names for them: always when a person
/// chose them (`--seat judge2=…`, the environment, the start screen);
/// from heat.toml only for a judge the format names neither for, or for
/// every judge when `person_only` is false. A judge past the panel's
/// count is not seated.
pub fn seat_panel_judges(config: &Config, record: &mut FormatRecord, person_only: bool) {
    for judge in PanelJudge::members(record.judges) {
        let Some(index) = judge.index() else { continue };
        let key = |leaf: &str| format!("roles.{}.{leaf}", judge.key());
        let by_person = ["provider", "model"].iter().any(|leaf| {
            matches!(
                config.get(&key(leaf)).map(|e| &e.source),
                Some(Source::Flag(_) | Source::Env(_) | Source::Studio(_))
            )
        });
        let format_names = |list: &[String]| list.get(index).is_some_and(|v| !v.trim().is_empty());
        let named_by_format = format_names(&record.panel_models) || format_names(&record.panel_providers);
        let applies = by_person || (!person_only && !named_by_format);
        if !applies {
            continue;
        }
        let set = |list: &mut Vec<String>, value: Option<&str>| {
            if list.len() <= index {
                list.resize(index + 1, String::new());
            }
            list[index] = value.unwrap_or_default().trim().to_string();
        };
        let provider = config.text(&key("provider"));
        let model = config.text(&key("model"));
        if provider.is_none() && model.is_none() && !by_person {
            continue;
        }
        set(&mut record.panel_providers, provider);
        set(&mut record.panel_models, model);
        let trim = |list: &mut Vec<String>| {
            while list.last().is_some_and(String::is_empty) {
                list.pop();
            }
        };
        trim(&mut record.panel_providers);
        trim(&mut record.panel_models);
    }
}

/// Where the user's format files are: `formats/` beside heat.toml.
pub fn user_dir(config: &Config) -> Option<std::path::PathBuf> {
    Catalog::user_dir(config.file.as_ref().map(|(path, _)| path.as_path()))
}

/// `config` with the chosen format's settings laid over it, in place of
/// any format's laid over it before.
pub fn layer(config: &Config) -> anyhow::Result<Config> {
    let config = config.without_format();
    let format = chosen(config)?;
    let mut settings: Vec<(String, Value)> = Vec::new();
    if let Some(rounds) = format.max_rounds {
        settings.push(("debate.max_rounds".into(), Value::Int(i64::from(rounds))));
    }
    for role in Role::ALL {
        let model = &format.models[role.position()];
        let key = |leaf: &str| format!("roles.{}.{leaf}", role.key());
        settings.extend(model.provider.clone().map(|p| (key("provider"), Value::Text(p))));
        settings.extend(model.model.clone().map(|m| (key("model"), Value::Text(m))));
        settings.extend(model.max_tokens.map(|n| (key("max_tokens"), Value::Int(i64::from(n)))));
    }
    let kept: Vec<(String, Value)> = settings.into_iter().filter(|(key, _)| !chosen_by_person(config, key)).collect();
    Ok(config.with_format_settings(&kept, &Source::Format(format.name.clone())))
}

/// A person chose this key's value (a flag, the environment, the start
/// screen), or, for a role's key, the value every role takes (`--model`).
/// A role's provider and model go together: a person who chose either
/// chose both, so a format never pairs its model with another provider.
fn chosen_by_person(config: &Config, key: &str) -> bool {
    let by_person = |key: &str| {
        matches!(config.get(key).map(|e| &e.source), Some(Source::Flag(_) | Source::Env(_) | Source::Studio(_)))
    };
    let Some((role, leaf)) = key.strip_prefix("roles.").and_then(|rest| rest.split_once('.')) else {
        return by_person(key);
    };
    let leaves: &[&str] = if matches!(leaf, "provider" | "model") { &["provider", "model"] } else { &[leaf] };
    leaves.iter().any(|leaf| by_person(&format!("roles.{role}.{leaf}")) || by_person(&format!("roles.{leaf}")))
}

/// When a stored debate goes on (`heat resume`), it keeps the format it
/// began in: a `--format` naming another is not used, and is said so.
pub fn resume_notice(config: &Config, state: &crate::debate::DebateState) -> Option<String> {
    let entry = config.get("debate.format")?;
    let Value::Text(asked) = &entry.value else { return None };
    let flagged = matches!(entry.source, Source::Flag(_) | Source::Env(_));
    let own = state.format.as_ref().map_or(crate::debate::format::DUEL, |f| f.name.as_str());
    (flagged && !asked.trim().eq_ignore_ascii_case(own)).then(|| {
        format!("a stored debate goes on in its own format ({own}); {} {} is not used", entry.source, asked.trim())
    })
}
