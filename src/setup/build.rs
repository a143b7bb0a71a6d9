//! The engine set-up for a selection: one model per provider kind in use
//! (a local model load shared by the roles that run it), each role's
//! limits, the prompts, the retry policy and the judge's temperature.

use std::sync::Arc;

use anyhow::{Context, bail};

use super::endpoints::{http_model_within, section, structured_setting};
use super::selection::{ProviderKind, RoleChoice, Selection};
use crate::config::Config;
use crate::debate::Role;
use crate::debate::engine::{EngineSetup, RoleSetup};
use crate::debate::prompt::Prompts;
use crate::provider::agent::AgentModel;
use crate::provider::person::{Desk, Person};
use crate::provider::retry::RetryPolicy;
use crate::provider::{ChatModel, Wire};

/// Loads the embedded model from a file (`None`: the configured one) for a
/// number of roles that will share it.
pub type LocalLoader<'a> = &'a dyn Fn(Option<&std::path::Path>, usize) -> anyhow::Result<Arc<dyn ChatModel>>;

/// Builds one model per provider kind in use (so the roles share a local
/// model load; a role with a GGUF of its own gets its own load), and the
/// engine setup around them.
pub fn build(config: &Config, selection: &Selection, local: Option<LocalLoader<'_>>) -> anyhow::Result<EngineSetup> {
    let mut models: Vec<(ProviderKind, Option<String>, Arc<dyn ChatModel>)> = Vec::new();
    // Every person seated here is asked at one desk.
    let desk = selection.roles.iter().any(|r| r.kind.is_person()).then(Desk::new);
    let mut role_setup = |choice: &RoleChoice| -> anyhow::Result<RoleSetup> {
        let file = choice.own_gguf();
        let model = if let Some(desk) = desk.as_ref().filter(|_| choice.kind.is_person()) {
            Arc::new(Person::new(choice.role.key(), Arc::clone(desk))) as Arc<dyn ChatModel>
        } else if let Some((_, _, m)) = models.iter().find(|(k, f, _)| *k == choice.kind && f.as_deref() == file) {
            Arc::clone(m)
        } else {
            let slots = (choice.kind == ProviderKind::OPENAI).then_some(selection.openai_limits.slots).flatten();
            let m: Arc<dyn ChatModel> = if let Some(spec) = super::agents::spec(config, choice.kind)? {
                Arc::new(AgentModel::new(spec).map_err(|e| anyhow::anyhow!(e.sentence(choice.kind.name())))?)
            } else if let Some(model) = http_model_within(config, choice.kind, slots) {
                model
            } else {
                let load = local.context("this build of heat has no embedded model (feature `local`)")?;
                let sharing = selection.roles.iter().filter(|r| r.kind == choice.kind && r.own_gguf() == file).count();
                load(file.map(std::path::Path::new), sharing)?
            };
            models.push((choice.kind, file.map(String::from), Arc::clone(&m)));
            m
        };
        let mut max_tokens: u32 = config.role_defaulted(choice.role, "max_tokens");
        if choice.kind.is_embedded() {
            max_tokens = max_tokens.min(config.defaulted("providers.local.max_tokens"));
        }
        // Extended thinking is Anthropic's: its wire takes a budget.
        let thinking_budget =
            (choice.kind.wire() == Wire::Anthropic).then(|| config.role_int(choice.role, "thinking_budget")).flatten();
        let structured = structured_setting(config, choice.kind)?;
        // Reasoning effort is OpenAI's wire's; Anthropic's thinks by its budget.
        let reasoning_effort = (choice.kind.wire() == Wire::OpenAi)
            .then(|| config.role_text(choice.role, "reasoning_effort"))
            .flatten()
            .map(str::to_string);
        Ok(RoleSetup {
            model,
            model_name: choice.model.clone(),
            max_tokens,
            thinking_budget: thinking_budget.and_then(|b| u32::try_from(b).ok()),
            reasoning_effort,
            structured,
            max_context: (!choice.kind.is_embedded())
                .then(|| config.int(&format!("providers.{}.max_context", section(choice.kind))))
                .flatten()
                .and_then(|n| u32::try_from(n).ok())
                .or_else(|| (choice.kind == ProviderKind::OPENAI).then_some(selection.openai_limits.context).flatten()),
            caps_strings: choice.kind == ProviderKind::OPENAI && selection.openai_limits.holds_lengths,
        })
    };
    let mut setups = Vec::new();
    for choice in &selection.roles {
        setups.push((choice.role, role_setup(choice)?));
    }
    // A seat the format does not sit holds the first seat's set-up: the engine never asks it.
    let first = setups.first().map(|(_, s)| s.clone()).context("no seat was chosen")?;
    let roles: [RoleSetup; Role::COUNT] =
        Role::ALL.map(|role| setups.iter().find(|(r, _)| *r == role).map_or_else(|| first.clone(), |(_, s)| s.clone()));
    let prompts_dir = config.text("debate.prompts_dir").map(std::path::PathBuf::from);
    // A person reads whatever the models are sent: the models' prompts decide.
    let all_local = selection.roles.iter().filter(|r| !r.kind.is_person()).all(|r| r.kind.is_embedded());
    let person_judges = selection.roles.iter().any(|r| r.role == Role::Judge && r.kind.is_person());
    let base = match config.defaulted("providers.local.prompts") {
        "compact" if all_local => Prompts::compact(),
        "compact" | "full" => Prompts::default(),
        other => bail!("`providers.local.prompts` must be \"compact\" or \"full\", got {other:?}"),
    };
    let judges = Some(super::panel::factory(config, &roles));
    Ok(EngineSetup {
        roles,
        prompts: Prompts::load(base, prompts_dir.as_deref())?,
        retry: RetryPolicy { max_retries: config.defaulted("network.max_retries"), ..RetryPolicy::default() },
        judge_temperature: config.defaulted::<f64>("debate.judge_temperature") as f32,
        seed: config.int("debate.seed").and_then(|s| u64::try_from(s).ok()),
        // The swap check asks the judge again with the sides swapped: a person is asked once.
        swap_check: config.defaulted::<bool>("debate.swap_check") && !person_judges,
        judges,
        library: None,
        tool_calls: config.defaulted::<u32>("debate.tool_calls"),
        model_briefs: config.defaulted::<&str>("debate.summaries") == "model",
        servers: Vec::new(),
        clock: clock(config),
        budget: crate::debate::engine::Budget {
            tokens: config.int("debate.budget_tokens").and_then(|n| u64::try_from(n).ok()).filter(|&n| n > 0),
            usd: config.float("debate.budget_usd").filter(|&x| x > 0.0),
            prices: selection.prices(config.panel_judge_prices()),
        },
    })
}

/// How long a debater's turn and a round may take (`debate.turn_seconds`,
/// `debate.round_seconds`): the engine holds the debate to it, the studio's
/// panes count a turn down under it.
pub fn clock(config: &Config) -> crate::debate::engine::Clock {
    crate::debate::engine::Clock {
        turn: config.int("debate.turn_seconds").and_then(seconds),
        round: config.int("debate.round_seconds").and_then(seconds),
    }
}

/// A number of seconds from the config, as a duration (0: no limit).
fn seconds(n: i64) -> Option<std::time::Duration> {
    u64::try_from(n).ok().filter(|&n| n > 0).map(std::time::Duration::from_secs)
}

/// What the loaded models say about themselves (a GGUF without a chat
/// template of its own), once per model.
pub fn model_notices(setup: &EngineSetup) -> Vec<String> {
    let mut notices: Vec<String> = Vec::new();
    for role in &setup.roles {
        if let Some(notice) = role.model.notice()
            && !notices.contains(&notice)
        {
            notices.push(notice);
        }
    }
    notices
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::setup::select;
    use crate::setup::testing::{NO_OLLAMA, config, machine};

    #[test]
    fn an_all_local_debate_gets_the_compact_prompts_unless_told_otherwise() {
        use crate::provider::scripted::{Reply, ScriptedModel};
        let load = |_: Option<&std::path::Path>, _: usize| -> anyhow::Result<Arc<dyn ChatModel>> {
            Ok(Arc::new(ScriptedModel::new([], Reply::text("x"))) as Arc<dyn ChatModel>)
        };
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let setup = |c: &Config| build(c, &select(c, &env).unwrap(), Some(&load));
        let local = config(&[], &[]);
        assert_eq!(setup(&local).unwrap().prompts, Prompts::compact());
        let full = config(&[], &[("providers.local.prompts", "full")]);
        assert_eq!(setup(&full).unwrap().prompts, Prompts::default());
        let mixed = config(&[("OPENAI_API_KEY", "o")], &[("roles.judge.provider", "local")]);
        assert_eq!(setup(&mixed).unwrap().prompts, Prompts::default(), "a mixed debate keeps the full prompts");
        let bad = config(&[], &[("providers.local.prompts", "tiny")]);
        let err = setup(&bad).err().expect("an unknown prompt set").to_string();
        assert!(err.contains("\"compact\" or \"full\"") && err.contains("tiny"), "{err}");
        assert!(Prompts::compact().system.len() * 2 < Prompts::default().system.len());
    }

    #[test]
    fn a_local_role_may_run_a_gguf_of_its_own_and_shares_nothing_else() {
        use crate::provider::scripted::{Reply, ScriptedModel};
        let loads = std::sync::Mutex::new(Vec::new());
        let load = |file: Option<&std::path::Path>, roles: usize| -> anyhow::Result<Arc<dyn ChatModel>> {
            loads.lock().unwrap().push((file.map(|f| f.display().to_string()), roles));
            Ok(Arc::new(ScriptedModel::new([], Reply::text("x"))) as Arc<dyn ChatModel>)
        };
        let env = machine(NO_OLLAMA, Ok("SmolLM2-135M"));
        let c = config(&[], &[("roles.judge.model", "/models/judge.gguf")]);
        let selection = select(&c, &env).unwrap();
        assert_eq!(selection.roles[2].model, "/models/judge.gguf");
        let setup = build(&c, &selection, Some(&load)).unwrap();
        assert_eq!(
            *loads.lock().unwrap(),
            vec![(None, 2), (Some("/models/judge.gguf".to_string()), 1)],
            "the debaters share the configured model (two contexts); the judge loads its own file"
        );
        assert!(Arc::ptr_eq(&setup.role(Role::Advocate).model, &setup.role(Role::Skeptic).model));
        assert!(!Arc::ptr_eq(&setup.role(Role::Advocate).model, &setup.role(Role::Judge).model));

        // A model name the embedded model cannot run is refused, not ignored.
        let named = config(&[("HEAT_MODEL", "gpt-4.1")], &[]);
        let Err(err) = select(&named, &env) else { panic!("a non-GGUF model for a local role was accepted") };
        let err = err.to_string();
        assert!(err.contains("takes a .gguf file") && err.contains("\"gpt-4.1\""), "{err}");
    }
}
