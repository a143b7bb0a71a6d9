//! A model call as the planner and the answer step see it: what is being
//! asked, of which seat, about which round. The engine keeps one table of
//! the calls under way (`engine::Flight`), each one of these.

use super::seat::{PanelJudge, Role};

/// A model call under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// A seat's turn in a round: an argument, a verdict, a synthesis or a
    /// repair.
    Turn { round: u32, role: Role },
    /// A panel judge's vote on a round (judges 2 to 5; the chair's is its
    /// turn).
    Vote { round: u32, judge: PanelJudge },
    /// The judge asked again about a round's verdict, the debaters swapped.
    SwapCheck { round: u32 },
    /// A debater's model asked to put its argument in `round` in brief
    /// (`debate.summaries = "model"`).
    Brief { round: u32, role: Role },
}

impl Call {
    /// The seat whose model answers it: a vote and a swap check are the
    /// judge's, a brief its debater's.
    pub fn role(self) -> Role {
        match self {
            Call::Turn { role, .. } | Call::Brief { role, .. } => role,
            Call::Vote { .. } | Call::SwapCheck { .. } => Role::Judge,
        }
    }

    /// Whether it is `role`'s turn (not a vote or a swap check on its seat).
    pub fn is_turn_of(self, role: Role) -> bool {
        matches!(self, Call::Turn { role: r, .. } if r == role)
    }
}
