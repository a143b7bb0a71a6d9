//! `heat replay`: a stored debate played back at its recorded pace (or
//! faster), through the same printer as `heat run`; `--demo` plays the
//! scripted debate bundled in `assets/`, with no provider at all.

use std::time::Duration;

use crate::store::log::{self, Loaded};
use crate::store::{self, Store};

use super::json_lines::json_line;
use super::print::TextPrinter;

/// A scripted debate that shows every feature, for demos without a network:
/// written in advance and played through the engine by `tests/demo/`, which
/// keeps this file equal to what it generates.
pub const DEMO: &[u8] = include_bytes!("../../assets/demo-session.jsonl");

/// The longest pause replayed as is; longer waits (a paused debate, a
/// retry's backoff) are cut to this.
const LONGEST_GAP: Duration = Duration::from_secs(2);

/// The debate to replay (the bundled demo, or a stored session and its id).
pub fn load(id: Option<&str>, demo: bool, speed: f64) -> anyhow::Result<(Loaded, Option<String>)> {
    anyhow::ensure!(
        speed.is_finite() && speed >= 0.0,
        "--speed must be a number of at least 0, e.g. 2 for twice as fast, or 0 for all at once"
    );
    let (loaded, id) = if demo {
        (log::parse(DEMO)?, None)
    } else {
        let store = Store::open(&store::data_dir()?)?;
        let id = store.resolve(id)?;
        (store.load(&id)?, Some(id))
    };
    for notice in &loaded.notices {
        say!("heat: {notice}");
    }
    Ok((loaded, id))
}

/// The wait before an event `gap` after the last at `speed`; none at
/// speed 0 (all at once) or for events that came together.
pub fn paced(gap: Duration, speed: f64) -> Option<Duration> {
    (!gap.is_zero() && speed > 0.0).then(|| gap.div_f64(speed))
}

pub async fn replay(id: Option<&str>, demo: bool, speed: f64, json: bool) -> anyhow::Result<()> {
    let (loaded, _) = load(id, demo, speed)?;
    let mut printer = TextPrinter::new(std::io::stdout(), super::print::stdout_style());
    let mut out = std::io::stdout();
    let mut previous = loaded.records.first().map_or(0, |r| r.ms);
    for record in &loaded.records {
        let gap = Duration::from_millis(record.ms.saturating_sub(previous)).min(LONGEST_GAP);
        previous = record.ms;
        if let Some(wait) = paced(gap, speed) {
            tokio::time::sleep(wait).await;
        }
        if json { json_line(&mut out, &record.event)? } else { printer.event(&record.event)? }
    }
    Ok(())
}
