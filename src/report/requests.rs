//! `heat export --requests`: what each turn was sent, as Markdown after the
//! transcript: each round's turns in order, the request's settings on one
//! line and each part (the system prompt, the grounding block, each
//! message) in a fenced block, as the session kept it (secrets redacted).

use std::fmt::Write as _;

use crate::debate::DebateState;
use crate::sanitize::clean;

/// The section, or a sentence saying no request was kept (a session
/// written before heat kept them).
pub fn section(state: &DebateState) -> String {
    let mut md = String::from("## What each turn was sent\n\n");
    let mut any = false;
    for round in &state.rounds {
        for turn in &round.turns {
            let Some(sent) = turn.sent.as_deref() else { continue };
            any = true;
            let who = clean(state.label(turn.role));
            let _ = writeln!(md, "### Round {} · {who}\n", round.number + 1);
            let _ = writeln!(md, "*{}*\n", clean(&sent.settings()));
            for (heading, text) in sent.parts() {
                let text = clean(&text);
                let fence = fence_for(&text);
                let _ = writeln!(md, "**{}**\n\n{fence}text\n{}\n{fence}\n", clean(&heading), text.trim_end());
            }
        }
    }
    if !any {
        md.push_str("*No request was kept: this session was written before heat kept what each turn was sent.*\n");
    }
    md
}

/// A fence longer than any run of backticks in `text`, so none ends it early.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outruns_the_backticks_inside() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```rust block``` inside"), "````");
    }
}
