//! What a running tournament tells the person on a plain terminal: a line
//! on standard error as each debate begins and ends, or, with `--json`, one
//! JSON object a line on standard output for scripts.

use std::io::{IsTerminal as _, Write};

use serde_json::json;

use crate::tournament::progress::Progress;

/// Where progress goes: text on standard error, or JSON lines on standard output.
pub struct Report {
    pub json: bool,
    pub tournament: String,
}

impl Report {
    pub fn say(&mut self, progress: &Progress) {
        if self.json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", self.json_of(progress));
            let _ = out.flush();
        } else {
            // On a terminal, no line breaks inside a word.
            let width = std::io::stderr().is_terminal().then(crossterm::terminal::size).and_then(Result::ok);
            let Some(text) = self.text_of(progress) else { return };
            let line = format!("heat: {text}");
            say!("{}", crate::cli::wrap::fit(&line, width.map(|(columns, _)| usize::from(columns))));
        }
    }

    fn json_of(&self, progress: &Progress) -> serde_json::Value {
        let id = &self.tournament;
        match progress {
            Progress::Plan { total, done, left, .. } => {
                json!({"event": "plan", "tournament": id, "total": total, "done": done, "left": left})
            }
            Progress::Started { key, session } => {
                json!({"event": "started", "tournament": id, "key": key, "session": session})
            }
            Progress::Held(held) => json!({"event": "held", "tournament": id, "held": held}),
            Progress::Begins { planned, session, attempt } => json!({
                "event": "begins", "tournament": id, "key": planned.key, "proposition": planned.proposition,
                "advocate": planned.advocate, "skeptic": planned.skeptic, "session": session, "attempt": attempt,
            }),
            Progress::Finished { key, session, outcome, winner, done, total, .. } => json!({
                "event": "finished", "tournament": id, "key": key, "session": session, "outcome": outcome,
                "winner": winner, "done": done, "total": total,
            }),
            Progress::Failed { key, session, why, attempt, done, total, .. } => json!({
                "event": "failed", "tournament": id, "key": key, "session": session, "why": why,
                "attempt": attempt, "done": done, "total": total,
            }),
            Progress::Stopped { key, session } => {
                json!({"event": "stopped", "tournament": id, "key": key, "session": session})
            }
            Progress::Stopping { running } => json!({"event": "stopping", "tournament": id, "running": running}),
            Progress::Budget { spent, running } => {
                json!({"event": "budget_reached", "tournament": id, "spent": spent, "running": running})
            }
            Progress::Warning(warning) => json!({"event": "warning", "tournament": id, "warning": warning}),
        }
    }

    /// The line for `progress`; `None` for what a person need not read.
    fn text_of(&self, progress: &Progress) -> Option<String> {
        let clean = crate::sanitize::clean;
        Some(match progress {
            Progress::Started { .. } => return None,
            Progress::Held(true) => "held: no debate begins, and those running pause".to_string(),
            Progress::Held(false) => "goes on".to_string(),
            Progress::Plan { total, done, left, .. } => format!(
                "tournament {}: {} planned, {done} done, {left} to run",
                self.tournament,
                crate::words::count(*total, "debate")
            ),
            Progress::Begins { planned, session, attempt } => {
                let how = match (session, attempt) {
                    (Some(session), 2..) => format!("tried again, going on with session {session}"),
                    (Some(session), _) => format!("going on with session {session}"),
                    (None, 2..) => "tried again".to_string(),
                    (None, _) => "begins".to_string(),
                };
                format!(
                    "{how}: {} for, {} against: {}",
                    clean(&planned.advocate),
                    clean(&planned.skeptic),
                    crate::sanitize::one_line(&planned.proposition)
                )
            }
            Progress::Finished { session, outcome, winner, done, total, .. } => {
                let ahead = winner
                    .as_deref()
                    .map_or_else(|| "no one named ahead".to_string(), |w| format!("{} ahead", clean(w)));
                format!("[{done}/{total}] {ahead}, {} (session {session})", outcome.describe())
            }
            Progress::Failed { session, why, attempt, done, total, .. } => {
                let session = session.as_deref().map(|s| format!(" (session {s})")).unwrap_or_default();
                let then = if *attempt < 2 { "tried once more at the end" } else { "kept as failed" };
                format!("[{done}/{total}] a debate failed{session}: {}; {then}", crate::sanitize::clause(why))
            }
            Progress::Stopped { session, .. } => {
                let session = session.as_deref().map(|s| format!(" (session {s})")).unwrap_or_default();
                format!("a debate stopped where it was{session}")
            }
            Progress::Stopping { running } => format!(
                "stopping: {} stop where they are, saved; `heat tournament resume {}` goes on",
                crate::words::count(*running, "running debate"),
                self.tournament
            ),
            Progress::Budget { spent, running: 0 } => {
                format!("the tournament's budget is reached ({spent}): no more debates begin")
            }
            Progress::Budget { spent, running } => format!(
                "the tournament's budget is reached ({spent}): no more debates begin; {} finish",
                crate::words::count(*running, "running debate")
            ),
            Progress::Warning(warning) => clean(warning),
        })
    }
}
