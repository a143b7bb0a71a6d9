//! `heat run`: a whole debate headless, printed as it streams; and
//! `heat config show`, which shares the provider discovery.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use crate::config::Config;
use crate::debate::engine::{self, DebateSpec};
use crate::debate::{Command, DebateEvent, Outcome, Role};
use crate::provider::ChatModel;
use crate::select::{self, Environment, ProviderKind, Selection};

use super::print::{Style, TextPrinter, json_line};

type LocalLoader = Box<dyn Fn() -> anyhow::Result<Arc<dyn ChatModel>>>;

/// Finds what auto-selection may use: probes Ollama only when a role is on
/// `auto` and no key decides it first.
pub async fn discover(config: &Config) -> Environment {
    let auto = Role::ALL
        .iter()
        .any(|&r| config.role_text(r, "provider").unwrap_or("auto") == "auto");
    let keys = config.text("providers.anthropic.api_key").is_some()
        || config.text("providers.openai.api_key").is_some();
    let named_ollama = Role::ALL
        .iter()
        .any(|&r| config.role_text(r, "provider") == Some("ollama"));
    let ollama = if (auto && !keys) || named_ollama {
        select::probe_ollama(&select::ollama_base(config)).await
    } else {
        Err("not probed".into())
    };
    Environment {
        ollama,
        local: local_status(config),
    }
}

fn local_status(_config: &Config) -> Result<String, String> {
    Err("this build has no embedded model".into())
}

fn local_loader(_config: &Config) -> Option<LocalLoader> {
    None
}

pub async fn show_config(config: &Config) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match &config.file {
        Some((path, true)) => writeln!(out, "# config file: {}", path.display())?,
        Some((path, false)) => writeln!(
            out,
            "# config file: {} (not found; defaults in force)",
            path.display()
        )?,
        None => writeln!(out, "# no config file")?,
    }
    let rows = config.show();
    let width = rows
        .iter()
        .map(|(k, v, _)| k.len() + v.len() + 3)
        .max()
        .unwrap_or(0);
    for (key, value, source) in rows {
        writeln!(out, "{:<width$}  # {source}", format!("{key} = {value}"))?;
    }
    let env = discover(config).await;
    writeln!(out, "\n# providers in force")?;
    match select::select(config, &env) {
        Ok(selection) => {
            for choice in &selection.roles {
                writeln!(
                    out,
                    "# {:<9} {}/{}  ({})",
                    choice.role.key(),
                    choice.kind,
                    choice.model,
                    choice.why
                )?;
            }
        }
        Err(e) => writeln!(out, "# {e:#}")?,
    }
    Ok(())
}

pub async fn run(config: &Config, topic: &str, json: bool) -> anyhow::Result<ExitCode> {
    let topic = topic.trim();
    anyhow::ensure!(
        !topic.is_empty(),
        "the topic is empty; give a proposition, e.g. heat run \"Remote work beats the office\""
    );
    let env = discover(config).await;
    let selection: Selection = select::select(config, &env)?;
    for notice in &selection.notices {
        eprintln!("heat: {notice}");
    }
    let loader = if selection.uses(ProviderKind::Local) {
        local_loader(config)
    } else {
        None
    };
    let setup = select::build(config, &selection, loader.as_deref())?;
    let spec = DebateSpec {
        topic: topic.to_string(),
        max_rounds: config
            .int("debate.max_rounds")
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(4),
        initial_heat: config.float("debate.initial_heat").unwrap_or(0.9) as f32,
    };
    let mut handle = engine::start(setup, spec);
    let commands = handle.commander();
    // Ctrl-C stops the debate cleanly; a second one quits at once.
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = commands.send(Command::Stop);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    let mut printer = TextPrinter::new(
        std::io::stdout(),
        Style {
            color: super::use_color(),
        },
    );
    let mut out = std::io::stdout();
    let mut outcome = None;
    while let Some(event) = handle.next_event().await {
        if let DebateEvent::Finished { outcome: o, .. } = &event {
            outcome = Some(o.clone());
        }
        let written = if json {
            json_line(&mut out, &event)
        } else {
            printer.event(&event)
        };
        if let Err(e) = written {
            // A closed pipe (`heat run … | head`) ends the debate quietly.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                handle.send(Command::Stop);
                break;
            }
            return Err(e.into());
        }
    }
    handle.join().await;
    Ok(match outcome {
        Some(Outcome::Failed(why)) => {
            eprintln!("heat: the debate failed: {why}");
            ExitCode::FAILURE
        }
        Some(Outcome::Cancelled) => ExitCode::from(130),
        _ => ExitCode::SUCCESS,
    })
}
