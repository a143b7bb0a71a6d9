//! `heat tournament FILE --dry-run`: the plan, priced, and no model asked:
//! how many debates and model calls, the most tokens they can take (each
//! call's output at its seat's `max_tokens`, its input the prompt and every
//! turn before it), and dollars from the prices heat knows (heat.toml's, or
//! an endpoint's), unknown where a price is unknown.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};

use crate::config::Config;
use crate::debate::cost::Price;
use crate::debate::{PanelJudge, Role};
use crate::tournament::file::TournamentFile;
use crate::tournament::plan::{Planned, calls_per_debate};

/// Tokens a prompt takes before any turn: the system prompt, the
/// proposition and the round's question, about.
const PROMPT_TOKENS: u64 = 800;

/// The most tokens one debate can take, input and output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
}

/// The most tokens a debate of `rounds` rounds takes, by seat (advocate,
/// skeptic, judge): each debater's turn at most `debater` tokens, each
/// verdict and the synthesis `judge`; each call reads the prompt and every
/// turn before it.
pub fn most_tokens(rounds: u32, debater: u64, judge: u64) -> [Tokens; 3] {
    let mut seats = [Tokens { input: 0, output: 0 }; 3];
    for round in 1..=u64::from(rounds) {
        let before = PROMPT_TOKENS + 2 * (round - 1) * debater + (round - 1) * judge;
        // The second debater reads the first's turn; the judge reads both.
        for (seat, read, wrote) in
            [(0, before, debater), (1, before + debater, debater), (2, before + 2 * debater, judge)]
        {
            seats[seat].input += read;
            seats[seat].output += wrote;
        }
    }
    seats[2].input += PROMPT_TOKENS + u64::from(rounds) * (2 * debater + judge);
    seats[2].output += judge;
    seats
}

/// What one seat's share of a debate costs, when its price is known.
fn dollars(price: Option<Price>, input: u64, output: u64) -> Option<f64> {
    #[allow(clippy::cast_precision_loss)] // token counts far below 2^52
    price.map(|p| (input as f64 * p.input + output as f64 * p.output) / 1_000_000.0)
}

/// The most tokens one of a panel's other judges takes in a debate of
/// `rounds` rounds: a vote each round, reading what the chair's verdict
/// reads (the synthesis is the chair's alone).
pub fn vote_tokens(rounds: u32, debater: u64, judge: u64) -> Tokens {
    let mut tokens = Tokens { input: 0, output: 0 };
    for round in 1..=u64::from(rounds) {
        tokens.input += PROMPT_TOKENS + 2 * (round - 1) * debater + (round - 1) * judge + 2 * debater;
        tokens.output += judge;
    }
    tokens
}

/// One seat of a debate as the dry run prices it.
pub struct Seat {
    /// Its config key (`advocate`, `judge`, `judge2`).
    pub key: String,
    /// The most tokens it takes in the debate.
    pub tokens: Tokens,
    /// Its price, when known (a panel judge on the chair's model: the chair's).
    pub price: Option<Price>,
}

/// The judges a debate under `config` seats: the format's panel, or one.
pub fn judges_of(config: &Config) -> u32 {
    crate::format::layer::chosen(config).map_or(1, |f| f.record.judges.max(1))
}

/// Every seat of a debate of `rounds` rounds under `config`, with the most
/// tokens it takes and its price: the advocate, the skeptic, the chair and
/// a panel's other judges (priced as the debate prices them: a judge's own
/// price, or the chair's for a judge on the chair's provider and model).
pub fn seats(config: &Config, rounds: u32) -> Vec<Seat> {
    let debater = |role: Role| u64::from(config.role_defaulted::<u32>(role, "max_tokens"));
    let judge = u64::from(config.role_defaulted::<u32>(Role::Judge, "max_tokens"));
    let debater = debater(Role::Advocate).max(debater(Role::Skeptic));
    let [advocate, skeptic, chair] = most_tokens(rounds, debater, judge);
    let mut seats: Vec<Seat> = [(Role::Advocate, advocate), (Role::Skeptic, skeptic), (Role::Judge, chair)]
        .into_iter()
        .map(|(role, tokens)| Seat { key: role.key().to_string(), tokens, price: price_of(config, role) })
        .collect();
    let record = crate::format::layer::chosen(config).ok().map(|f| f.record);
    let own = config.panel_judge_prices();
    for member in PanelJudge::members(judges_of(config)) {
        let named = |list: &[String]| member.index().and_then(|i| list.get(i)).is_some_and(|v| !v.trim().is_empty());
        let as_chair = record.as_ref().is_none_or(|r| !named(&r.panel_models) && !named(&r.panel_providers));
        let price = own.iter().find(|(j, _)| *j == member).map(|(_, p)| *p);
        let price = price.or_else(|| as_chair.then(|| price_of(config, Role::Judge)).flatten());
        seats.push(Seat { key: member.key(), tokens: vote_tokens(rounds, debater, judge), price });
    }
    seats
}

/// A seat's price as heat.toml sets it; the embedded model costs nothing.
fn price_of(config: &Config, role: Role) -> Option<Price> {
    let embedded = config.role_text(role, "provider").is_some_and(crate::provider::ProviderKind::names_embedded);
    config.price(role).or_else(|| embedded.then_some(Price { input: 0.0, output: 0.0, cached_input: None }))
}

/// The most one debate under `config` can take: tokens in and out, and
/// dollars when every seat's price is known (else the first seat without
/// one, by its config key).
pub fn one_debate(config: &Config, rounds: u32) -> (u64, Result<f64, String>) {
    let seats = seats(config, rounds);
    let tokens = seats.iter().map(|s| s.tokens.input + s.tokens.output).sum();
    let mut usd = Ok(0.0);
    for seat in seats {
        usd = match (usd, dollars(seat.price, seat.tokens.input, seat.tokens.output)) {
            (Ok(sum), Some(d)) => Ok(sum + d),
            (Ok(_), None) => Err(seat.key),
            (err, _) => err,
        };
    }
    (tokens, usd)
}

/// Prints the plan and its price.
pub fn print(
    file: &TournamentFile,
    planned: &[Planned],
    seed: u64,
    configs: &[(String, Config)],
    rounds: u32,
) -> anyhow::Result<()> {
    let mut out = String::new();
    let pairs = if file.lineups.is_empty() {
        crate::words::count(file.models.len() * (file.models.len() - 1) / 2, "pair")
    } else {
        crate::words::count(file.lineups.len(), "line-up")
    };
    let sides = if file.swap_sides { "both sides" } else { "one side" };
    writeln!(
        out,
        "{}: {} ({} × {pairs} × {sides} × {}), {} at once, seed {seed}",
        file.label,
        crate::words::count(planned.len(), "debate"),
        crate::words::count(file.propositions.len(), "proposition"),
        crate::words::count(file.repeats as usize, "repeat"),
        file.concurrency,
    )?;
    let format = configs.first().and_then(|(_, c)| crate::format::layer::chosen(c).ok()).map(|f| f.name);
    let format = format.map_or_else(|| "the configured format".to_string(), |name| format!("format {name}"));
    writeln!(
        out,
        "  {format}, {} a debate, judged by {}",
        crate::words::count(rounds as usize, "round"),
        file.judges.iter().map(|j| j.text.as_str()).collect::<Vec<_>>().join(", ")
    )?;
    let judges = configs.first().map_or(1, |(_, c)| judges_of(c));
    let each = calls_per_debate(rounds, judges);
    let calls = u64::from(each) * planned.len() as u64;
    let panel = if judges > 1 { format!(", a panel of {judges} judges voting each round") } else { String::new() };
    writeln!(out, "  model calls: at most {} ({each} a debate{panel})", crate::words::thousands(calls))?;
    let (mut input, mut output, mut cost, mut unpriced) = (0u64, 0u64, 0.0f64, Vec::<String>::new());
    for p in planned {
        let Some((_, config)) = configs.iter().find(|(key, _)| key == &p.key) else { continue };
        for (n, seat) in seats(config, rounds).into_iter().enumerate() {
            let model = match n {
                0 => p.advocate.clone(),
                1 => p.skeptic.clone(),
                // A panel judge the file names none for sits on the chair's model.
                _ => file.judges.get(n - 2).unwrap_or(file.judge()).text.clone(),
            };
            input += seat.tokens.input;
            output += seat.tokens.output;
            match dollars(seat.price, seat.tokens.input, seat.tokens.output) {
                Some(d) => cost += d,
                None if !unpriced.contains(&model) => unpriced.push(model),
                None => {}
            }
        }
    }
    writeln!(
        out,
        "  tokens: at most about {} in, {} out",
        crate::words::thousands(input),
        crate::words::thousands(output)
    )?;
    // In the file's order, the judges last.
    let order = |model: &String| file.named().iter().position(|m| &m.text == model).unwrap_or(usize::MAX);
    unpriced.sort_by_key(order);
    if unpriced.is_empty() {
        writeln!(out, "  cost: at most about ${cost:.2}")?;
    } else {
        let known =
            if cost > 0.0 { format!("at most about ${cost:.2} for the priced models; ") } else { String::new() };
        writeln!(
            out,
            "  cost: {known}unknown for {} (no price known: set roles.<seat>.price_input and price_output)",
            unpriced.join(", ")
        )?;
    }
    writeln!(out, "  no model was asked")?;
    for (n, p) in planned.iter().enumerate() {
        writeln!(out, "  {:>3}. {} for, {} against: {}", n + 1, p.advocate, p.skeptic, p.proposition)?;
    }
    // On a terminal, no line breaks inside a word.
    let width = std::io::stdout().is_terminal().then(crossterm::terminal::size).and_then(Result::ok);
    let mut stdout = std::io::stdout().lock();
    for line in out.lines() {
        writeln!(stdout, "{}", crate::cli::wrap::fit(line, width.map(|(columns, _)| usize::from(columns))))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn config(flags: &[(&str, &str)]) -> Config {
        let flags: Vec<crate::config::FlagValue> = flags
            .iter()
            .map(|(k, v)| crate::config::FlagValue { key: (*k).into(), raw: (*v).into(), flag: format!("--{k}") })
            .collect();
        Config::load(None, &|_: &str| None, &flags).unwrap()
    }

    #[test]
    fn the_embedded_model_costs_nothing_and_a_server_without_a_price_is_unknown() {
        let offline = config(&[
            ("roles.advocate.provider", "local"),
            ("roles.skeptic.provider", "local"),
            ("roles.judge.provider", "local"),
        ]);
        assert_eq!(price_of(&offline, Role::Advocate).map(|p| (p.input, p.output)), Some((0.0, 0.0)));
        assert_eq!(one_debate(&offline, 1).1, Ok(0.0));
        let mixed = config(&[("roles.advocate.provider", "local"), ("roles.skeptic.provider", "openai")]);
        assert_eq!(price_of(&mixed, Role::Skeptic), None, "no price is known for it");
        assert!(one_debate(&mixed, 1).1.is_err());
    }

    #[test]
    fn a_debate_takes_at_most_its_calls_outputs_and_their_readings() {
        // One round, debaters 100, judge 50.
        let [advocate, skeptic, judge] = most_tokens(1, 100, 50);
        assert_eq!(advocate, Tokens { input: 800, output: 100 });
        assert_eq!(skeptic, Tokens { input: 900, output: 100 }, "the second reads the first");
        // The verdict reads both turns (800 + 200); the synthesis the whole round (800 + 250).
        assert_eq!(judge, Tokens { input: 1000 + 1050, output: 100 });
        let [advocate, _, _] = most_tokens(2, 100, 50);
        // Round 2's advocate reads round 1's two turns and verdict: 800 + 250.
        assert_eq!(advocate, Tokens { input: 800 + 1050, output: 200 });
    }
}
