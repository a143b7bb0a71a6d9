//! Searching the transcript: `/` opens a prompt, Enter finds the text in
//! the pane of every seat that sits, in screen order (the duel's advocate,
//! skeptic, judge), `n`/`N` go to the next and previous match while a
//! search is on (as in less and vim; `n` otherwise starts a new debate),
//! Esc clears it. Matches are found in the lines as laid out on screen,
//! ignoring case; the view highlights them. This module owns the prompt's
//! keys and finding matches; `Panes` shows them.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::form::FormStep;
use super::pane::Pane;
use crate::debate::Role;

/// A search that is on: what was looked for and the match shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    pub query: String,
    pub current: Option<Hit>,
}

/// Where a match is: a pane, a line of its layout, the first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    pub pane: usize,
    pub line: usize,
    pub start: usize,
}

/// The character ranges where `query` occurs in `text`, ignoring case, not
/// overlapping.
pub fn occurrences(text: &str, query: &str) -> Vec<(usize, usize)> {
    let fold = |s: &str| s.chars().map(|c| c.to_lowercase().next().unwrap_or(c)).collect::<Vec<char>>();
    let (text, query) = (fold(text), fold(query));
    let mut found = Vec::new();
    if query.is_empty() || query.len() > text.len() {
        return found;
    }
    let mut at = 0;
    while at + query.len() <= text.len() {
        if text[at..at + query.len()] == query[..] {
            found.push((at, at + query.len()));
            at += query.len();
        } else {
            at += 1;
        }
    }
    found
}

/// Every match of `query` in the panes of `seats`, in reading order (the
/// seats' screen order).
pub fn hits(panes: &[Pane; Role::COUNT], seats: &[Role], query: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for pane in seats.iter().map(|r| r.position()) {
        for (line, text) in panes[pane].lines().enumerate() {
            let text: String = text.spans.iter().map(|s| s.content.as_ref()).collect();
            hits.extend(occurrences(&text, query).into_iter().map(|(start, _)| Hit { pane, line, start }));
        }
    }
    hits
}

/// Where a match stands in reading order: its pane's place on screen
/// among `seats`, then its place in the pane.
pub fn reading_order(seats: &[Role], hit: Hit) -> (usize, usize, usize) {
    let place = seats.iter().position(|r| r.position() == hit.pane).unwrap_or(usize::MAX);
    (place, hit.line, hit.start)
}

/// A key while the search prompt is open: Enter gives what to look for.
pub fn prompt_key(query: &mut String, key: KeyEvent) -> FormStep<String> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => return FormStep::Close,
        KeyCode::Enter => return FormStep::Done(query.trim().to_string()),
        KeyCode::Backspace => {
            query.pop();
        }
        KeyCode::Char('u') if ctrl => query.clear(),
        KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => query.push(c),
        _ => {}
    }
    FormStep::Stay
}

/// Pasted text goes into the prompt as one line.
pub fn paste(query: &mut String, text: &str) {
    query.push_str(&text.replace(['\n', '\r'], " "));
}

#[cfg(test)]
mod tests {
    use super::occurrences;

    #[test]
    fn occurrences_ignore_case_and_do_not_overlap() {
        assert_eq!(occurrences("Focus and FOCUS, focused", "focus"), [(0, 5), (10, 15), (17, 22)]);
        assert_eq!(occurrences("aaaa", "aa"), [(0, 2), (2, 4)]);
        assert_eq!(occurrences("Ünïcode ünï", "ÜNÏ"), [(0, 3), (8, 11)]);
        assert!(occurrences("short", "").is_empty());
        assert!(occurrences("ab", "abc").is_empty());
    }
}
