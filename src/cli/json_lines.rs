//! A debate's events as one JSON object per line, for scripts (`heat run
//! --json`, `heat watch --json`, `heat replay --json`), and reading such a
//! line back. Rounds are numbered from 1 on these lines, as heat numbers
//! them on screen.

use std::io::{self, Write};

use crate::debate::DebateEvent;

/// Writes one JSON object per event and line, for scripts (`--json`).
/// Rounds are numbered from 1, as heat numbers them on screen, in the text
/// and in exports; the session log keeps its own count (from 0), and
/// [`read_json_line`] reads a line back into the event as logged.
pub fn json_line<W: Write>(out: &mut W, event: &DebateEvent) -> io::Result<()> {
    let mut event = event.clone();
    if let Some(round) = event.round_mut() {
        *round += 1;
    }
    serde_json::to_writer(&mut *out, &event)?;
    writeln!(out)?;
    out.flush()
}

/// Reads a line [`json_line`] wrote back into the event as the engine and
/// the session log count rounds (from 0).
pub fn read_json_line(line: &str) -> serde_json::Result<DebateEvent> {
    let mut event: DebateEvent = serde_json::from_str(line)?;
    if let Some(round) = event.round_mut() {
        *round = round.saturating_sub(1);
    }
    Ok(event)
}
