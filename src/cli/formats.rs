//! `heat formats`: the debate formats there are, one line each, the one in
//! force marked, and any user format file that cannot be used with why.

use std::io::Write;

use crate::config::Config;
use crate::format::layer::user_dir;
use crate::format::{Catalog, Format, Origin};

pub fn list(config: &Config, json: bool) -> anyhow::Result<()> {
    let dir = user_dir(config);
    let catalog = Catalog::load(dir.as_deref());
    let chosen = crate::format::layer::chosen(config);
    let in_force = chosen.as_ref().map(|f| f.name.clone()).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    if json {
        let rows: Vec<serde_json::Value> = catalog.formats.iter().map(|f| row(f, f.name == in_force)).collect();
        let problems = &catalog.problems;
        writeln!(out, "{}", serde_json::json!({ "formats": rows, "problems": problems }))?;
        return Ok(());
    }
    let width = catalog.formats.iter().map(|f| f.name.len()).max().unwrap_or(0);
    for format in &catalog.formats {
        let mark = if format.name == in_force { "*" } else { " " };
        let from = match &format.origin {
            Origin::BuiltIn => String::new(),
            Origin::File(path) => format!(" ({})", path.display()),
        };
        writeln!(out, "{mark} {:<width$}  {}{from}", format.name, crate::sanitize::clean(&format.line()))?;
    }
    writeln!(out, "\n* in force (debate.format). `heat run --format NAME` or `heat --format NAME` picks another;")?;
    writeln!(out, "`heat formats show NAME` prints one, to read or to start your own from.")?;
    match &dir {
        Some(dir) => writeln!(out, "Your own formats go in {} as NAME.toml.", dir.display())?,
        None => writeln!(out, "No config directory is known, so only the built-in formats are read.")?,
    }
    for problem in &catalog.problems {
        writeln!(out, "not used: {}", crate::sanitize::clean(problem))?;
    }
    if let Err(e) = chosen {
        writeln!(out, "in force: none: {}", crate::sanitize::clean(&format!("{e:#}")))?;
    }
    Ok(())
}

/// `heat formats show NAME`: the format's file as written, to read or to
/// start another from.
pub fn show(config: &Config, name: &str) -> anyhow::Result<()> {
    let catalog = Catalog::load(user_dir(config).as_deref());
    let text = catalog.text_of(name)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{text}")?;
    if !text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

fn row(format: &Format, in_force: bool) -> serde_json::Value {
    let origin = match &format.origin {
        Origin::BuiltIn => "built-in".to_string(),
        Origin::File(path) => path.display().to_string(),
    };
    serde_json::json!({
        "name": format.name,
        "summary": format.summary,
        "origin": origin,
        // The seats that sit, in order: the debaters, then the judge if one sits.
        "seats": format.seats().iter().map(|&role| format.record.label(role)).collect::<Vec<_>>(),
        "sides": format.seats().iter().map(|&role| format.record.side(role)).collect::<Vec<_>>(),
        "issues": format.record.issues,
        "convergence": format.record.convergence.map(|c| serde_json::json!({ "threshold": f64::from(c.threshold) / 100.0, "stop": c.stop })),
        "max_rounds": format.max_rounds,
        "phases": format.record.phases.iter().map(|p| &p.name).collect::<Vec<_>>(),
        "judges": format.record.judges,
        "judge_models": format.record.panel_models,
        "judge_providers": format.record.panel_providers,
        "scores": format.record.scores,
        "in_force": in_force,
    })
}
