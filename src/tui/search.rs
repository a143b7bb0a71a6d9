//! Searching the transcript: `/` opens a prompt, Enter finds the text in
//! the pane of every seat that sits, in screen order (the duel's advocate,
//! skeptic, judge), `n`/`N` go to the
//! next and previous match while a search is on (as in less and vim; `n`
//! otherwise starts a new debate), Esc clears it. Matches are found in the
//! lines as laid out on screen, ignoring case; the view highlights them.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Tone, Until};
use super::effect::Effect;
use super::modal::Modal;
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
fn reading_order(seats: &[Role], hit: Hit) -> (usize, usize, usize) {
    let place = seats.iter().position(|r| r.position() == hit.pane).unwrap_or(usize::MAX);
    (place, hit.line, hit.start)
}

impl App {
    /// `/`: the search prompt.
    pub(super) fn open_search(&mut self) {
        self.modal = Some(Modal::Search(String::new()));
    }

    /// A key while the search prompt is open.
    pub(super) fn search_prompt_key(&mut self, mut query: String, key: KeyEvent) -> Vec<Effect> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return Vec::new(),
            KeyCode::Enter => {
                self.find(query.trim());
                return Vec::new();
            }
            KeyCode::Backspace => {
                query.pop();
            }
            KeyCode::Char('u') if ctrl => query.clear(),
            KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => query.push(c),
            _ => {}
        }
        self.modal = Some(Modal::Search(query));
        Vec::new()
    }

    /// Pasted text goes into the prompt as one line.
    pub(super) fn paste_into_search(query: &mut String, text: &str) {
        query.push_str(&text.replace(['\n', '\r'], " "));
    }

    /// Looks for `query` from the focused pane's view on; an empty query
    /// closes the prompt and leaves any search as it was.
    fn find(&mut self, query: &str) {
        if query.is_empty() {
            return;
        }
        let seats = self.seats();
        let found = hits(&self.panes, &seats, query);
        let from = {
            let pane = &self.panes[self.focus];
            reading_order(&seats, Hit { pane: self.focus, line: pane.top(pane.height), start: 0 })
        };
        let Some(first) = found.iter().find(|h| reading_order(&seats, **h) >= from).or(found.first()).copied() else {
            self.search = None;
            self.say_until(Tone::Warn, format!("No match for \"{query}\""), Until::NextRound);
            return;
        };
        self.search = Some(Search { query: query.to_string(), current: None });
        self.show_hit(first, &found);
    }

    /// Whether a key steps through the matches or ends the search: `n`,
    /// `N` and Esc while a search is on.
    pub(super) fn search_key(&mut self, key: &KeyEvent) -> bool {
        if self.search.is_none() || key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
            return false;
        }
        match key.code {
            KeyCode::Char('n') => self.step(true),
            KeyCode::Char('N') => self.step(false),
            KeyCode::Esc => self.clear_search(),
            _ => return false,
        }
        true
    }

    /// Goes to the next (or previous) match, round the ends.
    fn step(&mut self, forward: bool) {
        let Some(search) = &self.search else { return };
        let seats = self.seats();
        let found = hits(&self.panes, &seats, &search.query);
        let order = |hit: &Hit| reading_order(&seats, *hit);
        let next = match search.current.map(|at| order(&at)) {
            Some(at) if forward => found.iter().find(|h| order(h) > at).or(found.first()),
            Some(at) => found.iter().rev().find(|h| order(h) < at).or(found.last()),
            None => found.first(),
        };
        if let Some(hit) = next.copied() {
            self.show_hit(hit, &found);
        } else {
            let text = format!("No match for \"{}\" any more", search.query);
            self.say_until(Tone::Warn, text, Until::NextRound);
        }
    }

    /// Scrolls the pane holding `hit` to it, focuses that pane and says
    /// which match it is.
    fn show_hit(&mut self, hit: Hit, found: &[Hit]) {
        let height = match self.panes[hit.pane].height {
            0 => self.panes[self.focus].height,
            h => h,
        };
        let pane = &mut self.panes[hit.pane];
        pane.height = height;
        pane.reveal(hit.line);
        self.focus = hit.pane;
        self.focus_chosen = true;
        let Some(search) = &mut self.search else { return };
        search.current = Some(hit);
        let n = found.iter().position(|h| *h == hit).map_or(0, |i| i + 1);
        let who = self.debate.label(self.panes[hit.pane].role).to_string();
        let text =
            format!("\"{}\": match {n} of {} ({who}) · n next · N previous · Esc clears", search.query, found.len());
        self.say(Tone::Info, text);
    }

    fn clear_search(&mut self) {
        let Some(search) = self.search.take() else { return };
        if self.flash.as_ref().is_some_and(|f| f.text.starts_with(&format!("\"{}\":", search.query))) {
            self.flash = None;
        }
    }
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
