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

/// The factory an engine set-up carries: `roles` are the seats' set-ups,
/// whose models a judge on the same provider shares.
pub fn factory(config: &Config, roles: &[RoleSetup]) -> JudgeFactory {
    let config = config.clone();
    let roles = roles.to_vec();
    Arc::new(move |provider: &str, model: Option<&str>| judge_setup(&config, &roles, provider, model))
}

fn judge_setup(config: &Config, roles: &[RoleSetup], provider: &str, model: Option<&str>) -> anyhow::Result<RoleSetup> {
    let kind = ProviderKind::from_name(provider)
        .with_context(|| format!("the provider {provider:?} is not one of anthropic, openai, ollama, local"))?;
    let judge = roles.get(Role::Judge.position()).context("no judge's seat to copy limits from")?;
    let shared = roles.iter().find(|r| r.model.provider_name() == kind.name()).map(|r| Arc::clone(&r.model));
    let built = match kind {
        ProviderKind::Local => None,
        ProviderKind::Anthropic if config.text("providers.anthropic.api_key").is_none() => {
            bail!("its provider is anthropic but no key is set: export ANTHROPIC_API_KEY")
        }
        ProviderKind::OpenAi if config.text("providers.openai.api_key").is_none() && shared.is_none() => {
            bail!("its provider is openai but no key is set: export OPENAI_API_KEY")
        }
        _ => http_model(config, kind),
    };
    let Some(model_handle) = shared.or(built) else {
        bail!("its provider is the embedded model, which no seat of this debate runs on")
    };
    let model_name = match (model, kind) {
        (Some(name), _) => name.to_string(),
        (None, ProviderKind::Local) => {
            roles.iter().find(|r| r.model.is_embedded()).map(|r| r.model_name.clone()).unwrap_or_default()
        }
        (None, kind) => config
            .text(&format!("providers.{}.model", kind.name()))
            .map(str::to_string)
            .or_else(|| {
                (kind == ProviderKind::Anthropic)
                    .then(|| config.defaulted::<&str>("providers.anthropic.model").to_string())
            })
            .with_context(|| format!("name its model: judges.models, or providers.{}.model", kind.name()))?,
    };
    Ok(RoleSetup {
        model: model_handle,
        model_name,
        max_tokens: judge.max_tokens,
        thinking_budget: None,
        structured: match kind {
            ProviderKind::Local => crate::debate::engine::StructuredSetting::Auto,
            kind => structured_setting(config, kind)?,
        },
        max_context: None,
    })
}
