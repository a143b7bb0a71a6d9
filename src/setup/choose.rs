//! Decides each role's provider and model: the one a role names (checked
//! for its key or model file), or for `auto` the first that works: an
//! Anthropic key, an OpenAI key, a running Ollama server, then the embedded
//! offline model.

use anyhow::bail;

use super::discover::{Environment, openai_model_chosen};
use super::endpoints::ollama_base;
use super::selection::{ProviderKind, RoleChoice, Selection, is_gguf};
use crate::config::{Config, Source};
use crate::debate::Role;
use crate::provider::kind::KeyNeed;

/// The model name a person's seat records: who answers there.
pub const PERSON_MODEL: &str = "you";

/// Decides each role's provider and model.
pub fn select(config: &Config, env: &Environment) -> anyhow::Result<Selection> {
    let mut roles = Vec::new();
    let mut notices = Vec::new();
    // The seats the chosen format sits (an unknown format is said elsewhere: the duel's here), and
    // any other seat given a model of its own (a stored debate's seats, when it goes on as a branch).
    let chosen = crate::format::layer::chosen(config).ok();
    let sits = chosen.as_ref().map_or_else(|| Role::DUEL.to_vec(), crate::format::Format::seats);
    let own = |role: Role| {
        ["provider", "model"].iter().any(|leaf| config.get(&format!("roles.{}.{leaf}", role.key())).is_some())
    };
    for role in Role::ALL.into_iter().filter(|&r| sits.contains(&r) || own(r)) {
        let entry = config.role_entry(role, "provider");
        let named: &str = config.role_defaulted(role, "provider");
        let (kind, why) = match ProviderKind::from_name(named) {
            Some(kind) => {
                let source = entry.map_or(Source::Default, |e| e.source.clone());
                check_available(config, env, kind)?;
                (kind, format!("set by {source}"))
            }
            // A judge left to `auto`, with no model of its own, sits apart from the debaters where it can.
            None if role.is_judge() && config.role_text(role, "model").is_none() => {
                independent_judge(config, env, &roles)?
            }
            None => auto(config, env)?,
        };
        let model = match config.role_text(role, "model") {
            Some(model) if kind.is_embedded() && !is_gguf(model) => bail!(
                "the {} runs on the embedded offline model, which takes a .gguf file, but its model is {model:?}: \
                 set roles.{}.model to a .gguf path, or leave it unset to use providers.local.model_path",
                role.label().to_lowercase(),
                role.label().to_lowercase()
            ),
            Some(model) if !kind.is_person() => model.to_string(),
            _ => default_model(config, env, kind)?,
        };
        let price = config.price(role).or_else(|| listed_price(env, kind, &model, role, &mut notices));
        roles.push(RoleChoice { role, kind, model, why, price });
    }
    if let Some(format) = &chosen {
        person_chairs_alone(&roles, &format.record)?;
    }
    // A server that listed no models is asked for OpenAI's usual one: said, never silently.
    let usual = ProviderKind::OPENAI.row().model;
    if let (Some(base), Err(why)) = (super::discover::custom_openai_base(config), &env.openai_models)
        && let Some(seat) = roles.iter().find(|r| r.kind == ProviderKind::OPENAI && Some(r.model.as_str()) == usual)
    {
        notices.push(format!(
            "the server at {base} listed no models ({why}): heat asks it for {}, OpenAI's usual model; set \
             providers.openai.model (or --model) to one it serves",
            seat.model
        ));
    }
    if let Some(local) = roles.iter().find(|r| r.kind.is_embedded()) {
        let warning = if local.model == "SmolLM2-135M" { " — small model, expect weak arguments" } else { "" };
        notices.push(format!("offline: {}{warning}", local.model));
    }
    let openai_limits = env.openai_limits;
    if roles.iter().any(|r| r.kind == ProviderKind::OPENAI)
        && let (Some(slots), Some(context)) = (openai_limits.slots, openai_limits.context)
    {
        // What the config sets wins over what the server says.
        let set = |key: &str| config.int(&format!("providers.openai.{key}")).and_then(|n| u32::try_from(n).ok());
        let sends = match set("max_concurrent").filter(|n| *n != slots) {
            Some(n) => format!("at most {n} at once (providers.openai.max_concurrent)"),
            None => "no more at once".to_string(),
        };
        let fits = match set("max_context").filter(|n| *n != context) {
            Some(n) => format!("{} tokens (providers.openai.max_context)", crate::words::thousands(u64::from(n))),
            None => "that".to_string(),
        };
        notices.push(format!(
            "The server serves {} at once with {} tokens of context each: heat sends {sends} and fits its prompts to {fits}",
            crate::words::count(slots as usize, "request"),
            crate::words::thousands(u64::from(context))
        ));
    }
    Ok(Selection { roles, notices, openai_limits })
}

/// The price `kind`'s model list carries for `model` (OpenRouter's), said
/// once where it is used; where the list was asked and has none, why the
/// cost stays unknown.
fn listed_price(
    env: &Environment,
    kind: ProviderKind,
    model: &str,
    role: Role,
    notices: &mut Vec<String>,
) -> Option<crate::debate::cost::Price> {
    let (_, listed) = env.priced.iter().find(|(k, _)| *k == kind)?;
    let found = listed.as_ref().ok().and_then(|prices| prices.iter().find(|(id, _)| id == model)).map(|(_, p)| *p);
    let seat = role.key();
    notices.push(match (&found, listed) {
        (Some(p), _) => format!(
            "The {seat}'s price is {kind}'s for {model}: {} in, {} out per million tokens",
            crate::words::dollars(p.input),
            crate::words::dollars(p.output)
        ),
        (None, Ok(_)) => format!(
            "{kind} lists no price for {model}: the {seat}'s cost stays unknown (roles.{seat}.price_input and price_output set one)"
        ),
        (None, Err(why)) => format!(
            "{kind}'s prices could not be read ({why}): the {seat}'s cost stays unknown (roles.{seat}.price_input and price_output set one)"
        ),
    });
    found
}

/// A person in the judge's seat chairs a panel only when each other judge
/// sits on a provider of its own: a judge with none is asked on the chair's
/// seat, and would ask the person for its vote too.
fn person_chairs_alone(roles: &[RoleChoice], record: &crate::debate::format::FormatRecord) -> anyhow::Result<()> {
    let person_chairs = roles.iter().any(|r| r.role == Role::Judge && r.kind.is_person());
    let unseated: Vec<String> = crate::debate::PanelJudge::members(record.judges)
        .filter(|j| j.index().and_then(|i| record.panel_providers.get(i)).is_none_or(|p| p.trim().is_empty()))
        .map(crate::debate::PanelJudge::key)
        .collect();
    if !person_chairs || unseated.is_empty() {
        return Ok(());
    }
    let seats: Vec<String> = unseated.iter().map(|key| format!("--seat {key}=PROVIDER:MODEL")).collect();
    bail!(
        "you take the judge's seat, which chairs a panel of {}: {} would be asked on your seat too. \
         Seat them elsewhere ({}), or choose a format with one judge",
        record.judges,
        unseated.join(", "),
        seats.join(" ")
    )
}

/// The providers with a key or a server, in `auto`'s order of preference,
/// each with why it is there.
fn servers(config: &Config, env: &Environment) -> Vec<(ProviderKind, String)> {
    let mut found = Vec::new();
    if config.text("providers.anthropic.api_key").is_some() {
        found.push((ProviderKind::ANTHROPIC, "an Anthropic API key is set".to_string()));
    }
    if config.text("providers.openai.api_key").is_some() {
        found.push((ProviderKind::OPENAI, "an OpenAI API key is set".to_string()));
    }
    if env.ollama.is_ok() {
        found.push((ProviderKind::OLLAMA, format!("an Ollama server answered at {}", ollama_base(config))));
    }
    found
}

/// `auto` for the judge: where keys for two providers are set, the one no
/// debater sits on, so the judge does not weigh answers its own model wrote
/// (a judge prefers answers like its own); else what `auto` chooses.
fn independent_judge(
    config: &Config,
    env: &Environment,
    debaters: &[RoleChoice],
) -> anyhow::Result<(ProviderKind, String)> {
    // Keyed services only: a local server is no better a judge for being apart.
    let apart = servers(config, env)
        .into_iter()
        .filter(|(kind, _)| *kind != ProviderKind::OLLAMA)
        .find(|(kind, _)| debaters.iter().all(|d| d.kind != *kind));
    match apart {
        Some((kind, why)) if !debaters.is_empty() => {
            Ok((kind, format!("auto: on a provider no debater sits on, to judge apart from them ({why})")))
        }
        _ => auto(config, env),
    }
}

fn auto(config: &Config, env: &Environment) -> anyhow::Result<(ProviderKind, String)> {
    if let Some((kind, why)) = servers(config, env).into_iter().next() {
        return Ok((kind, format!("auto: {why}")));
    }
    if env.local.is_ok() {
        return Ok((ProviderKind::LOCAL, "auto: no key or server found; using the embedded offline model".into()));
    }
    let ollama = env.ollama.as_ref().err().cloned().unwrap_or_default();
    let local = env.local.as_ref().err().cloned().unwrap_or_default();
    bail!(
        "no model provider is available. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, start Ollama \
         (or point OLLAMA_HOST at one; {ollama}), or use the offline model ({local})"
    )
}

/// A provider a role names must be usable: its key set where it needs one,
/// the embedded model's file there.
fn check_available(config: &Config, env: &Environment, kind: ProviderKind) -> anyhow::Result<()> {
    // An agent CLI is found (or said missing) when its seat is built.
    if kind.is_person() || kind.is_agent() {
        return Ok(());
    }
    if kind.is_embedded() {
        return match &env.local {
            Ok(_) => Ok(()),
            Err(why) => bail!("the provider is set to {kind} but {why}"),
        };
    }
    let row = kind.row();
    let keyless = config.text(&format!("providers.{}.api_key", row.name)).is_none();
    let base = super::endpoints::base_url(config, kind).unwrap_or_default();
    if !keyless || !kind.needs_key_at(&base) {
        return Ok(());
    }
    let var = row.key_env.unwrap_or("its API key");
    match row.key_need {
        KeyNeed::AtHost(_) => bail!(
            "the provider is set to {kind} but no key is set: export {var}, or point {} at a server that needs none",
            row.url_env.unwrap_or("its base URL")
        ),
        _ if !kind.is_built_in() => {
            bail!(
                "the provider is set to {kind} but no key is set: export {var} (its api_key_env in [providers.{kind}])"
            )
        }
        _ => bail!("the provider is set to {kind} but no key is set: export {var} (or set providers.{kind}.api_key)"),
    }
}

/// The model a role on `kind` plays when none is named: the embedded
/// model's file, the first model an Ollama server or a custom
/// OpenAI-compatible server lists, else the configured one or the row's.
fn default_model(config: &Config, env: &Environment, kind: ProviderKind) -> anyhow::Result<String> {
    if kind.is_person() {
        return Ok(PERSON_MODEL.to_string());
    }
    if kind.is_embedded() {
        return env.local.clone().map_err(anyhow::Error::msg);
    }
    let configured = config.text(&format!("providers.{kind}.model"));
    if kind.is_agent() {
        return Ok(configured.unwrap_or(crate::provider::agent::CLI_DEFAULT).to_string());
    }
    if kind == ProviderKind::OLLAMA {
        return Ok(match (configured, &env.ollama) {
            (Some(model), _) => model.to_string(),
            (None, Ok(models)) => models.first().cloned().unwrap_or_default(),
            (None, Err(why)) if why.starts_with("no Ollama server") => bail!(
                "{why}: start it (`ollama serve`), or point OLLAMA_HOST (providers.ollama.base_url) at the one you run"
            ),
            (None, Err(why)) => bail!("no Ollama model to use: {why}; or name one with providers.ollama.model"),
        });
    }
    if kind == ProviderKind::OPENAI
        && let Ok(models) = &env.openai_models
        && !openai_model_chosen(config)
        && !models.is_empty()
    {
        return Ok(models[0].clone());
    }
    if let Some(model) = configured.or(kind.row().model) {
        return Ok(model.to_string());
    }
    let listed = env.listed.iter().find(|(k, _)| *k == kind).map(|(_, list)| list);
    match listed {
        Some(Ok(models)) if !models.is_empty() => Ok(models[0].clone()),
        Some(Err(why)) => bail!(
            "no model is named for {kind}, and its server listed none ({why}): set providers.{kind}.model, \
             or give one with --seat ROLE={kind}:MODEL"
        ),
        _ => {
            bail!("no model is named for {kind}: set providers.{kind}.model, or give one with --seat ROLE={kind}:MODEL")
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::setup::discover::custom_openai_base;
    use crate::setup::testing::{NO_OLLAMA, config, kinds, machine};

    #[test]
    fn the_auto_chain_prefers_anthropic_then_openai_then_ollama_then_local() {
        let everything = machine(Ok(vec!["llama3.2"]), Ok("SmolLM2-135M"));
        let both = config(&[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")], &[]);
        let s = select(&both, &everything).unwrap();
        // Two providers: the judge sits on the one the debaters do not.
        assert_eq!(kinds(&s), vec![ProviderKind::ANTHROPIC, ProviderKind::ANTHROPIC, ProviderKind::OPENAI]);
        assert_eq!(s.roles[0].model, "claude-haiku-4-5");
        assert!(
            s.roles[2].why.contains("no debater sits on") && s.roles[2].why.contains("OpenAI"),
            "{}",
            s.roles[2].why
        );
        // A judge given a model of its own stays where `auto` puts every seat.
        let named = config(
            &[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")],
            &[("roles.judge.model", "claude-sonnet-4-5")],
        );
        assert_eq!(kinds(&select(&named, &everything).unwrap()), vec![ProviderKind::ANTHROPIC; 3]);
        let s = select(&config(&[("OPENAI_API_KEY", "o")], &[]), &everything).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::OPENAI; 3]);
        let s = select(&config(&[], &[]), &everything).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::OLLAMA; 3]);
        assert_eq!(s.roles[2].model, "llama3.2", "the server's first model");
        let s = select(&config(&[], &[]), &machine(NO_OLLAMA, Ok("SmolLM2-135M"))).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::LOCAL; 3]);
        assert_eq!(s.notices, vec!["offline: SmolLM2-135M — small model, expect weak arguments".to_string()]);
    }

    #[test]
    fn a_servers_stated_limits_are_said_with_what_the_config_sets_instead() {
        let mut env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        env.openai_limits = crate::setup::ServerLimits { slots: Some(2), context: Some(4096), holds_lengths: true };
        let base = [("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")];
        let said = |flags: &[(&str, &str)]| {
            let mut flags = flags.to_vec();
            flags.push(("roles.provider", "openai"));
            select(&config(&base, &flags), &env).unwrap().notices.join("\n")
        };
        assert!(said(&[]).contains("serves 2 requests at once with 4,096 tokens of context each: heat sends no more at once and fits its prompts to that"), "{}", said(&[]));
        let one = said(&[("providers.openai.max_concurrent", "1"), ("providers.openai.max_context", "2048")]);
        assert!(one.contains("heat sends at most 1 at once (providers.openai.max_concurrent)"), "{one}");
        assert!(one.contains("fits its prompts to 2,048 tokens (providers.openai.max_context)"), "{one}");
    }

    #[test]
    fn nothing_available_names_every_option() {
        let err = select(&config(&[], &[]), &machine(NO_OLLAMA, Err("no model installed"))).unwrap_err().to_string();
        for part in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OLLAMA_HOST", "no Ollama server", "no model installed"] {
            assert!(err.contains(part), "{part} missing from: {err}");
        }
    }

    #[test]
    fn a_named_provider_without_its_key_says_how_to_fix_it() {
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let err = select(&config(&[], &[("roles.provider", "anthropic")]), &env).unwrap_err().to_string();
        assert!(err.contains("export ANTHROPIC_API_KEY"), "{err}");
        // An OpenAI-compatible local server needs no key.
        let local_server = config(&[("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")], &[("roles.provider", "openai")]);
        assert_eq!(kinds(&select(&local_server, &env).unwrap()), vec![ProviderKind::OPENAI; 3]);
    }

    #[test]
    fn roles_can_mix_providers_and_models() {
        let c = config(
            &[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")],
            &[("roles.skeptic.provider", "openai"), ("roles.judge.model", "claude-sonnet-4-5")],
        );
        let s = select(&c, &machine(NO_OLLAMA, Err("none"))).unwrap();
        assert_eq!(kinds(&s), vec![ProviderKind::ANTHROPIC, ProviderKind::OPENAI, ProviderKind::ANTHROPIC]);
        assert_eq!(s.roles[1].model, "gpt-4.1-mini");
        assert_eq!(s.roles[2].model, "claude-sonnet-4-5");
        assert!(s.roles[1].why.contains("--roles.skeptic.provider"), "{}", s.roles[1].why);
    }

    #[test]
    fn a_custom_openai_server_names_the_default_model_itself() {
        let mut env = machine(NO_OLLAMA, Err("none"));
        env.openai_models = Ok(vec!["/models/SmolLM2-135M-Instruct.Q4_1.gguf".into()]);
        let local_server = config(&[("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1")], &[("roles.provider", "openai")]);
        assert_eq!(custom_openai_base(&local_server), Some("http://127.0.0.1:8765/v1"));
        let s = select(&local_server, &env).unwrap();
        assert_eq!(s.roles[0].model, "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
        let named = config(
            &[("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1")],
            &[("roles.provider", "openai"), ("providers.openai.model", "smol")],
        );
        assert_eq!(custom_openai_base(&named), None, "a configured model is not second-guessed");
        assert_eq!(select(&named, &env).unwrap().roles[0].model, "smol");
        let openai = config(&[("OPENAI_API_KEY", "o")], &[]);
        assert_eq!(custom_openai_base(&openai), None, "OpenAI itself keeps its default");
    }

    #[test]
    fn a_custom_server_that_listed_no_models_is_asked_for_the_usual_one_and_that_is_said() {
        let mut env = machine(NO_OLLAMA, Err("none"));
        env.openai_models = Err("no answer from http://127.0.0.1:8765/v1/models".into());
        let local_server = config(&[("OPENAI_BASE_URL", "http://127.0.0.1:8765/v1")], &[("roles.provider", "openai")]);
        let s = select(&local_server, &env).unwrap();
        assert_eq!(s.roles[0].model, "gpt-4.1-mini");
        let said = s.notices.join("\n");
        assert!(
            said.contains("the server at http://127.0.0.1:8765/v1 listed no models (no answer from http://127.0.0.1:8765/v1/models): heat asks it for gpt-4.1-mini"),
            "{said}"
        );
        env.openai_models = Ok(vec!["smol".into()]);
        assert!(!select(&local_server, &env).unwrap().notices.iter().any(|n| n.contains("listed no models")));
    }
}
