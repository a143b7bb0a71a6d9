//! The models of a panel's judges who sit on a provider of their own
//! (`[judges] providers = [...]` in a format): each is set up when its
//! first vote is asked, from the debate's recorded format, so a resumed or
//! branched debate asks the same judges. A provider some seat already uses
//! shares that seat's model (one connection limit per server); the
//! embedded model is only there when a seat runs on it.

use std::sync::Arc;

use anyhow::{Context, bail};

use super::endpoints::{http_model, structured_setting};
use super::selection::ProviderKind;
use crate::config::Config;
use crate::debate::Role;
use crate::debate::engine::{JudgeFactory, RoleSetup};
use crate::provider::kind::KeyNeed;

/// The factory an engine set-up carries: `roles` are the seats' set-ups,
/// whose models a judge on the same provider shares.
pub fn factory(config: &Config, roles: &[RoleSetup]) -> JudgeFactory {
    let config = config.clone();
    let roles = roles.to_vec();
    Arc::new(move |provider: &str, model: Option<&str>| judge_setup(&config, &roles, provider, model))
}

fn judge_setup(config: &Config, roles: &[RoleSetup], provider: &str, model: Option<&str>) -> anyhow::Result<RoleSetup> {
    let kind = ProviderKind::from_name(provider).with_context(|| {
        let names: Vec<&str> = crate::provider::kind::names().collect();
        format!("the provider {provider:?} is not one of {}", names.join(", "))
    })?;
    if kind.is_person() {
        bail!("a person takes the chair's seat only (--seat judge=human); a panel's other judges are models")
    }
    let judge = roles.get(Role::Judge.position()).context("no judge's seat to copy limits from")?;
    let sharing = roles.iter().find(|r| r.model.provider_name() == kind.name());
    let shared = sharing.map(|r| Arc::clone(&r.model));
    let keyless = config.text(&format!("providers.{kind}.api_key")).is_none();
    let var = kind.row().key_env.unwrap_or("its API key");
    // A provider that always needs a key needs one here; one that needs it
    // only at its own service is taken as a seat already uses it.
    let built = match kind.row().key_need {
        _ if kind.is_embedded() => None,
        KeyNeed::Always if keyless => bail!("its provider is {kind} but no key is set: export {var}"),
        KeyNeed::AtHost(_) if keyless && shared.is_none() => {
            bail!("its provider is {kind} but no key is set: export {var}")
        }
        _ => http_model(config, kind),
    };
    let Some(model_handle) = shared.or(built) else {
        bail!("its provider is the embedded model, which no seat of this debate runs on")
    };
    let model_name = match model {
        Some(name) => name.to_string(),
        None if kind.is_embedded() => {
            roles.iter().find(|r| r.model.is_embedded()).map(|r| r.model_name.clone()).unwrap_or_default()
        }
        // The model heat.toml or its default file names; none is guessed.
        None => Some(config.defaulted::<&str>(&format!("providers.{kind}.model")))
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .with_context(|| format!("name its model: judges.models, or providers.{kind}.model"))?,
    };
    Ok(RoleSetup {
        model: model_handle,
        model_name,
        max_tokens: judge.max_tokens,
        thinking_budget: None,
        reasoning_effort: None,
        structured: structured_setting(config, kind)?,
        max_context: None,
        caps_strings: sharing.is_some_and(|r| r.caps_strings),
    })
}
