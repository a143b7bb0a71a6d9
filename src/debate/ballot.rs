//! A ballot of the room's vote (the audience page) and a round's tally:
//! the data the log and the folded state hold. Which rounds take ballots
//! and which ballots a debate records are `audience`'s.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::seat::Role;

/// The length of a voter's name: hex digits of a hash of the visitor's
/// cookie (never the cookie itself).
pub const VOTER_LEN: usize = 12;

/// One visitor's vote in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ballot {
    /// Who cast it: [`VOTER_LEN`] lowercase hex digits.
    pub voter: String,
    /// The debater chosen; `None`: even.
    pub side: Option<Role>,
}

impl Ballot {
    /// Whether the voter's name is one a server could have made.
    pub fn well_formed(&self) -> bool {
        self.voter.len() == VOTER_LEN && self.voter.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    }
}

/// The room's vote in one round: each voter's first ballot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AudienceRound {
    pub voters: BTreeMap<String, Option<Role>>,
}

impl AudienceRound {
    /// Counts `ballots`, each voter once (a later ballot of a counted voter
    /// is ignored, so a ballot read twice is never counted twice).
    pub fn count(&mut self, ballots: &[Ballot]) {
        for ballot in ballots {
            self.voters.entry(ballot.voter.clone()).or_insert(ballot.side);
        }
    }

    /// How many chose `side` (`None`: even).
    pub fn votes(&self, side: Option<Role>) -> usize {
        self.voters.values().filter(|s| **s == side).count()
    }

    pub fn total(&self) -> usize {
        self.voters.len()
    }

    /// The side most voters chose (`None`: even or a tie), when anyone voted.
    pub fn ahead(&self, sides: &[Role]) -> Option<Option<Role>> {
        if self.voters.is_empty() {
            return None;
        }
        let mut counts: Vec<(usize, Role)> = sides.iter().map(|r| (self.votes(Some(*r)), *r)).collect();
        counts.sort_by_key(|c| std::cmp::Reverse(c.0));
        Some(match counts.as_slice() {
            [(first, role), (second, _), ..] if first > second => Some(*role),
            [(first, role)] if *first > 0 => Some(*role),
            _ => None,
        })
    }
}
