//! What a branch keeps of the debate it continues besides the rounds it
//! shares: the parent's pin, its waiting notes, its seats' own pins, and
//! how that is said.

use std::collections::BTreeMap;

use crate::debate::event::BranchChanges;
use crate::debate::heat::Heat;
use crate::debate::seat::Role;

/// What a branch keeps of its parent besides the rounds it shares
/// ([`super::DebateState::kept_after`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kept {
    /// The heat the parent had pinned: the branch runs at it unless it sets
    /// a heat of its own (which releases it) or pins another.
    pub pinned: Option<Heat>,
    /// Notes injected in the parent that no round had argued yet: the
    /// branch's first round carries them.
    pub notes: Vec<String>,
    /// Seats the parent had pinned to heats of their own: the branch asks
    /// them at those, whatever heat it runs at.
    pub seat_pins: BTreeMap<Role, Heat>,
}

impl Kept {
    /// What it keeps, in words, beside `changes` (a heat or pin given
    /// replaces the parent's pin): empty when nothing.
    pub fn describe(&self, changes: &BranchChanges) -> Vec<String> {
        let pinned = self.pinned.filter(|_| changes.heat.is_none() && changes.pinned.is_none());
        let pin = pinned.map(|heat| format!("the parent's heat pinned at {heat:.2}"));
        let notes = self
            .notes
            .iter()
            .map(|note| format!("the parent's note \u{201c}{}\u{201d}", crate::sanitize::one_line(note)));
        let seats =
            self.seat_pins.iter().map(|(role, heat)| format!("the {}'s own heat pinned at {heat:.2}", role.key()));
        pin.into_iter().chain(notes).chain(seats).collect()
    }
}
