//! The seats' panes as the studio holds them: each seat's laid-out pane,
//! which has the focus (and whether the person chose it), where each was
//! last drawn, what the panes show (reasoning, turn times, cited lines), and
//! the search that is on. A pane itself is `pane::Pane`; drawing is
//! `view::pane_frame`.

use std::ops::{Index, IndexMut};

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::follow::Follow;
use super::pane::Pane;
use super::search::{Hit, Search, hits, reading_order};
use super::theme::Theme;
use crate::debate::{DebateState, Role};

// Independent switches of what the panes show, not a state machine in disguise.
#[allow(clippy::struct_excessive_bools)]
pub struct Panes {
    each: [Pane; Role::COUNT],
    /// The focused pane, by position.
    pub focus: usize,
    /// Set once the person picks a pane; until then focus follows the
    /// speaker (what a one-pane narrow layout shows).
    pub focus_chosen: bool,
    /// Where each pane was drawn, for the mouse.
    pub areas: [Rect; Role::COUNT],
    /// Where each pane's tab was drawn, where one pane shows at a time.
    pub tabs: [Rect; Role::COUNT],
    pub show_reasoning: bool,
    /// Whether pane titles show their latest turn's time and tokens/s.
    pub show_stats: bool,
    /// Whether the source lines a turn cited show under its marks.
    pub show_cited: bool,
    /// How a pane following its stream moves (`ui.follow`).
    pub follow_by: Follow,
    /// The search that is on, if any.
    pub search: Option<Search>,
    /// Whether a person seated in the debate answers on this screen: not
    /// in a watch or a replay, where their seat waits "for the person".
    pub person_here: bool,
}

impl Default for Panes {
    fn default() -> Self {
        Panes {
            each: Role::ALL.map(Pane::new),
            focus: 0,
            focus_chosen: false,
            areas: [Rect::default(); Role::COUNT],
            tabs: [Rect::default(); Role::COUNT],
            show_reasoning: true,
            show_stats: false,
            show_cited: false,
            follow_by: Follow::default(),
            search: None,
            person_here: true,
        }
    }
}

impl Index<usize> for Panes {
    type Output = Pane;

    fn index(&self, position: usize) -> &Pane {
        &self.each[position]
    }
}

impl IndexMut<usize> for Panes {
    fn index_mut(&mut self, position: usize) -> &mut Pane {
        &mut self.each[position]
    }
}

impl Panes {
    /// A fresh debate: empty panes, no search; the focus and what the
    /// panes show stay as the person set them.
    pub fn clear(&mut self) {
        self.each = Role::ALL.map(Pane::new);
        self.search = None;
    }

    pub fn focused(&self) -> &Pane {
        &self.each[self.focus]
    }

    pub fn focused_mut(&mut self) -> &mut Pane {
        &mut self.each[self.focus]
    }

    pub fn focused_role(&self) -> Role {
        Role::at(self.focus).unwrap_or(Role::Judge)
    }

    /// Focuses the next (or previous) of `seats`' panes, round the ends.
    pub fn cycle_focus(&mut self, seats: &[Role], forward: bool) {
        let at = seats.iter().position(|r| r.position() == self.focus);
        let next = match at {
            Some(i) if forward => (i + 1) % seats.len(),
            Some(i) => (i + seats.len() - 1) % seats.len(),
            None => 0,
        };
        if let Some(role) = seats.get(next) {
            self.focus = role.position();
        }
        self.focus_chosen = true;
    }

    /// Keeps the focus on one of `seats` (a format that seats no judge, or
    /// fewer debaters, may arrive after the focus moved).
    pub fn focus_a_sitting_seat(&mut self, seats: &[Role]) {
        if !seats.iter().any(|r| r.position() == self.focus)
            && let Some(first) = seats.first()
        {
            self.focus = first.position();
        }
    }

    /// Focus follows the speaker until the person chooses a pane.
    pub fn follow_speaker(&mut self, role: Role) {
        if !self.focus_chosen {
            self.focus = role.position();
        }
    }

    /// Lays out the pane of every seat in `seats` for the area it will be
    /// drawn in (`areas`, the whole pane, border and all). Where one pane shows at a time, the hidden ones are laid
    /// out for the same area, so a search finds what they hold and
    /// switching shows them at once.
    pub fn lay_out(&mut self, areas: [Rect; Role::COUNT], seats: &[Role], debate: &DebateState, theme: &Theme) {
        self.areas = areas;
        // The text goes inside each pane's one-cell border.
        let widths = areas.map(|r| r.width.saturating_sub(2));
        let heights = areas.map(|r| r.height.saturating_sub(2));
        let shared = (0..Role::COUNT).max_by_key(|&i| widths[i]).map_or((0, 0), |i| (widths[i], heights[i]));
        for (i, pane) in self.each.iter_mut().enumerate() {
            let (width, height) = if widths[i] == 0 { shared } else { (widths[i], heights[i]) };
            if width == 0 || !seats.contains(&pane.role) {
                continue;
            }
            pane.height = usize::from(height);
            pane.show_cited = self.show_cited;
            pane.person_here = self.person_here;
            pane.follow_by = self.follow_by;
            pane.update(debate, width, theme, self.show_reasoning);
        }
    }

    /// The mouse over a pane: the wheel scrolls it, a left click focuses
    /// it (or, where one pane shows at a time, a click on its tab shows it).
    pub fn on_mouse(&mut self, mouse: MouseEvent) {
        let rows = 3;
        let at = Position::new(mouse.column, mouse.row);
        let pane = self.areas.iter().position(|a| a.contains(at));
        let tab = self.tabs.iter().position(|a| a.contains(at));
        match (mouse.kind, pane) {
            (MouseEventKind::ScrollUp, Some(index)) => self.each[index].scroll_up(rows),
            (MouseEventKind::ScrollDown, Some(index)) => self.each[index].scroll_down(rows),
            (MouseEventKind::Down(MouseButton::Left), _) if let Some(index) = pane.or(tab) => {
                self.focus = index;
                self.focus_chosen = true;
            }
            _ => {}
        }
    }

    /// Looks for `query` in `seats`' panes from the focused pane's view on,
    /// and shows the first match: where it is, or `None` when there is none
    /// (and no search is on).
    pub fn find(&mut self, seats: &[Role], query: &str) -> Option<Found> {
        let found = hits(&self.each, seats, query);
        let from = {
            let pane = &self.each[self.focus];
            reading_order(seats, Hit { pane: self.focus, line: pane.top(pane.height), start: 0 })
        };
        let Some(first) = found.iter().find(|h| reading_order(seats, **h) >= from).or(found.first()).copied() else {
            self.search = None;
            return None;
        };
        self.search = Some(Search { query: query.to_string(), current: None });
        Some(self.show_hit(first, &found))
    }

    /// Shows the next (or previous) match of the search that is on, round
    /// the ends; `None` when it matches nothing any more.
    pub fn step_search(&mut self, seats: &[Role], forward: bool) -> Option<Found> {
        let search = self.search.as_ref()?;
        let found = hits(&self.each, seats, &search.query);
        let order = |hit: &Hit| reading_order(seats, *hit);
        let next = match search.current.map(|at| order(&at)) {
            Some(at) if forward => found.iter().find(|h| order(h) > at).or(found.first()),
            Some(at) => found.iter().rev().find(|h| order(h) < at).or(found.last()),
            None => found.first(),
        };
        let hit = next.copied()?;
        Some(self.show_hit(hit, &found))
    }

    /// Scrolls the pane holding `hit` to it and focuses that pane.
    fn show_hit(&mut self, hit: Hit, found: &[Hit]) -> Found {
        let height = match self.each[hit.pane].height {
            0 => self.each[self.focus].height,
            h => h,
        };
        let pane = &mut self.each[hit.pane];
        pane.height = height;
        pane.reveal(hit.line);
        self.focus = hit.pane;
        self.focus_chosen = true;
        if let Some(search) = &mut self.search {
            search.current = Some(hit);
        }
        let n = found.iter().position(|h| *h == hit).map_or(0, |i| i + 1);
        Found { n, of: found.len(), role: self.each[hit.pane].role }
    }
}

/// A match shown: the `n`th of `of`, in `role`'s pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub n: usize,
    pub of: usize,
    pub role: Role,
}
