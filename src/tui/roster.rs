//! Who speaks for each seat: the provider and model, the price, whether it
//! stops where it is when the debate pauses. Pane titles and the start
//! screen show it.

use crate::debate::Role;
use crate::debate::cost::Price;

/// Who speaks for each role, for titles and the start screen.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterEntry {
    pub role: Role,
    pub provider: String,
    pub model: String,
    /// What the role's tokens cost, when its prices are configured.
    pub price: Option<Price>,
    /// The model stops where it is while the debate is paused (the offline
    /// one); a server's answer finishes in the background instead.
    pub pauses_in_place: bool,
}
