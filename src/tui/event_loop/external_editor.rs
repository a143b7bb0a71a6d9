//! Ctrl-G in a person's editor: the draft handed to their editor
//! (`$VISUAL`, else `$EDITOR`, else `vi`) in a file of its own, the
//! terminal lent to it, and what it left taken back as the draft.

use std::path::Path;

use crossterm::event::EventStream;

use crate::tui::app::{App, Tone, Until};
use crate::tui::terminal::Guard;

pub(super) fn edit_turn(app: &mut App, guard: &mut Guard, input: &mut EventStream, mouse: bool) {
    let Some(draft) = app.person.as_ref().map(crate::tui::person_turn::PersonTurn::draft_text) else { return };
    let file = std::env::temp_dir().join(format!("heat-turn-{}.md", std::process::id()));
    // The keys are the editor's now: the studio's reader stops (a fresh one reads after).
    *input = EventStream::new();
    let edited = guard.lend(mouse, || run_editor(&file, &draft));
    let _ = std::fs::remove_file(&file);
    match edited {
        Ok(Ok(text)) => {
            app.turn_edited(&text);
        }
        Ok(Err(why)) => {
            app.open_person_turn();
            app.say_until(
                Tone::Error,
                format!("Your editor did not run: {why:#}; the draft is as it was"),
                Until::NextRound,
            );
        }
        Err(e) => app.say(Tone::Error, format!("Could not take the terminal back: {e}")),
    }
}

/// Runs the person's editor on `file`, holding `draft`; what the file holds after.
fn run_editor(file: &Path, draft: &str) -> anyhow::Result<String> {
    use anyhow::Context;
    std::fs::write(file, draft).with_context(|| format!("could not write {}", file.display()))?;
    let command = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_string());
    let mut words = command.split_whitespace();
    let program = words.next().context("the editor's command is empty")?;
    let status = std::process::Command::new(program)
        .args(words)
        .arg(file)
        .status()
        .with_context(|| format!("could not start `{command}`"))?;
    anyhow::ensure!(status.success(), "`{command}` ended with {status}");
    std::fs::read_to_string(file).with_context(|| format!("could not read {} back", file.display()))
}
