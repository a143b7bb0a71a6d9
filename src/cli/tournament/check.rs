//! A tournament file checked against what heat can run, before anything
//! starts, each error one sentence with the file and line: its line-ups
//! seated as the chosen format names its seats, its panel of judges against
//! the format's, no person in a seat, every planned debate's config loaded
//! as it will run, and a budget one debate could spend all of refused.

use crate::config::Config;
use crate::tournament::file::{Placed, TournamentFile};
use crate::tournament::lineup::{self, Seating};
use crate::tournament::plan::Planned;

use super::{debate, dry_run};
use crate::config::FlagValue;

/// What the person asked for that bears on the checks: heat.toml (or the
/// file named) and their own flags, under every debate's seats.
pub struct Loading<'a> {
    pub config_file: Option<&'a std::path::PathBuf>,
    pub flags: &'a [FlagValue],
}

/// `file` seated by the format it runs in: each line-up's seat names read as
/// `--seat` reads them, and a panel no larger than the format's. A person
/// named in any seat is refused here too.
pub fn seat(asked: &Loading<'_>, file: &mut TournamentFile) -> anyhow::Result<()> {
    for placed in file.named() {
        let (provider, _) = crate::provider::ProviderKind::split_model(&placed.text);
        if provider
            .and_then(crate::provider::ProviderKind::from_name)
            .is_some_and(crate::provider::ProviderKind::is_person)
        {
            return Err(file.error_at(placed.line, "a person cannot sit in a tournament's seats: name a model"));
        }
    }
    let mut flags = asked.flags.to_vec();
    if let Some(format) = &file.format {
        flags.push(FlagValue { key: "debate.format".into(), raw: format.text.clone(), flag: file.label.clone() });
    }
    let at_format = |e: anyhow::Error| match &file.format {
        Some(format) => file.error_at(format.line, &format!("{e:#}")),
        None => anyhow::anyhow!("{}: {e:#}", file.label),
    };
    let config =
        crate::cli::load::config(asked.config_file, &flags).map_err(|e| anyhow::anyhow!("{}: {e:#}", file.label))?;
    let format = crate::format::layer::chosen(&config).map_err(at_format)?;
    let seats = format.record.judges as usize;
    if file.judges.len() > 1 && file.judges.len() > seats {
        let first_past = &file.judges[seats.max(1)];
        return Err(file.error_at(
            first_past.line,
            &format!(
                "judge names a panel of {}, and format {} seats {}: name at most {seats}, or choose a format \
                 with a panel (oxford seats 3)",
                file.judges.len(),
                format.name,
                crate::words::count(seats, "judge")
            ),
        ));
    }
    if file.lineups.is_empty() {
        return Ok(());
    }
    let debaters: Vec<crate::debate::Role> = format.seats().into_iter().filter(|r| r.is_debater()).collect();
    let accepted = crate::cli::seats::accepted(&format.seat_ids, &debaters, 0);
    let named = |name: &str| format.seat_named(name);
    let name_of = |role: crate::debate::Role| format.seat_ids[role.position()].clone();
    let seating =
        Seating { format: &format.name, named: &named, debaters: &debaters, accepted: &accepted, name_of: &name_of };
    lineup::seat(&file.label, &mut file.lineups, &seating)
}

/// A budget one debate could spend all of is refused, with its line: the
/// tournament would pause in its first debates. A dollar budget needs every
/// seat's price.
pub fn check_budget(file: &TournamentFile, configs: &[(String, Config)], rounds: u32) -> anyhow::Result<()> {
    for (_, config) in configs {
        let (tokens, usd) = dry_run::one_debate(config, rounds);
        if let Some(budget) = file.budget_tokens
            && budget.value < tokens
        {
            return Err(file.error_at(
                budget.line,
                &format!(
                    "budget_tokens {} is below what one debate may take ({} tokens at most, its calls at \
                     their max_tokens): raise it, or lower rounds",
                    crate::words::thousands(budget.value),
                    crate::words::thousands(tokens)
                ),
            ));
        }
        let Some(budget) = file.budget_usd else { continue };
        match usd {
            Ok(usd) if budget.value < usd => {
                return Err(file.error_at(
                    budget.line,
                    &format!("budget_usd ${:.2} is below what one debate may cost (${usd:.2} at most): raise it, or lower rounds", budget.value),
                ));
            }
            Ok(_) => {}
            Err(seat) => {
                return Err(file.error_at(
                    budget.line,
                    &format!(
                        "budget_usd needs every seat's price, and the {seat} has none: set roles.{seat}.price_input and price_output (dollars per million tokens)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Every planned debate's config, loaded as it will run: a model or judge
/// heat cannot seat is refused here, with its line, before anything starts.
pub fn checked(
    asked: &Loading<'_>,
    file: &TournamentFile,
    planned: &[Planned],
    seed: u64,
) -> anyhow::Result<Vec<(String, Config)>> {
    let seat_of = |model: &str| -> Option<&Placed> { file.named().into_iter().find(|m| m.text == model) };
    let mut configs = Vec::new();
    for p in planned {
        let flags = [asked.flags.to_vec(), debate::seat_flags(file, p, seed)].concat();
        let config = crate::cli::load::config(asked.config_file, &flags).map_err(|e| {
            // Name the line of the model the error is about, when it names one.
            let text = format!("{e:#}");
            let seated = crate::tournament::plan::seats(file, p).into_iter().map(|(_, model)| model);
            let mut blamed =
                seated.chain(file.judges.iter().map(|j| j.text.clone())).filter(|m| text.contains(m.as_str()));
            match blamed.next().and_then(|m| seat_of(&m)) {
                Some(placed) => file.error_at(placed.line, &text),
                None => anyhow::anyhow!("{}: {text}", file.label),
            }
        })?;
        crate::format::layer::chosen(&config).map_err(|e| match &file.format {
            Some(format) => file.error_at(format.line, &format!("{e:#}")),
            None => e,
        })?;
        configs.push((p.key.clone(), config));
    }
    Ok(configs)
}
