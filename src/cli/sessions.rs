//! `heat sessions`: the stored debates, newest first, read from the index.

use std::io::Write;

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
        let outcome = e.outcome.as_deref().unwrap_or("unfinished (heat resume)");
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
