//! `heat sessions` and `heat export`: the stored debates, newest first (read
//! from the index), and one of them written out.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::store::export::{self, Format};
use crate::store::{self, Store};

pub fn list() -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let entries = store.list();
    let mut out = std::io::stdout().lock();
    if entries.is_empty() {
        writeln!(out, "No sessions yet. Start one with: heat run \"Remote work beats the office\"")?;
        return Ok(());
    }
    let now = store::now_ms();
    writeln!(out, "{:<22} {:>6}  {:<26} {:>9}  TOPIC", "ID", "ROUNDS", "OUTCOME", "AGE")?;
    for e in entries {
        let outcome = fit(e.outcome.as_deref().unwrap_or("unfinished (heat resume)"), 26);
        let topic = crate::sanitize::clean(&e.topic);
        writeln!(
            out,
            "{:<22} {:>6}  {:<26} {:>9}  {topic}",
            e.id,
            e.rounds,
            outcome,
            age(now.saturating_sub(e.updated_ms))
        )?;
    }
    Ok(())
}

/// `heat export`: one session as Markdown or JSON, to stdout or a file.
pub fn export(id: Option<&str>, format: Format, output: Option<&Path>) -> anyhow::Result<()> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(id)?;
    let loaded = store.load(&id)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    let text = export::render(format, &loaded.header, &loaded.records);
    match output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("could not write {}", path.display()))?;
            say!("heat: wrote {}", path.display());
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `text` cut to `width` characters, ending in `…` when cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// A short, human age: `12 s`, `4 min`, `3 h`, `2 d`.
pub fn age(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ => format!("{} d ago", s / 86_400),
    }
}
