//! The audience page's ballot box: the visitors it gave a cookie to, the
//! rounds each voted in, how fast each may ask, and the spool each ballot
//! it takes is written to before it says so. A visitor is known by a
//! random token in a cookie; the ballot names a hash of it (never the
//! token), so the log cannot be used to vote as someone else.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::debate::Role;
use crate::debate::audience::{Ballot, VOTER_LEN};
use crate::model_store::digest::hex;
use crate::store::ballots::{self, Spooled};

/// The most visitors a page gives a cookie to.
pub const MAX_VOTERS: usize = 10_000;
/// The most visitors one address is given a cookie for (a room behind one
/// router is one address to a server outside it, none to one inside).
pub const MAX_VOTERS_PER_ADDRESS: usize = 1_024;
/// How many votes a visitor may send at once, and how fast they come back.
const BURST: f64 = 5.0;
const REFILL: Duration = Duration::from_secs(1);

/// Why a vote or a cookie was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("this page's cookie is missing or not one it gave; reload the page")]
    Stranger,
    #[error("too many votes at once; wait a moment")]
    TooFast,
    #[error("{0:?} is not a side in this debate")]
    NoSuchSide(String),
    #[error("round {0} does not take votes now")]
    Closed(u32),
    #[error("you already voted in round {0}")]
    Voted(u32),
    #[error("this page takes no more visitors")]
    Full,
    #[error("the vote could not be kept; try again")]
    Unwritable,
    #[error("voting has closed: the debate is no longer being recorded")]
    Over,
}

#[derive(Debug)]
struct Visitor {
    voter: String,
    voted: HashSet<u32>,
    tokens: f64,
    checked: Instant,
}

/// The visitors and their votes.
#[derive(Debug)]
pub struct BallotBox {
    /// By token.
    visitors: HashMap<String, Visitor>,
    given: HashMap<IpAddr, usize>,
    /// The session log whose spool takes the ballots.
    log: PathBuf,
}

impl BallotBox {
    /// A box writing to the spool beside the log at `log`.
    pub fn new(log: PathBuf) -> Self {
        BallotBox { visitors: HashMap::new(), given: HashMap::new(), log }
    }

    /// Whether `token` is a cookie this box gave.
    pub fn knows(&self, token: &str) -> bool {
        self.visitors.contains_key(token)
    }

    /// A new visitor from `peer`: the token for its cookie.
    pub fn welcome(&mut self, peer: IpAddr, now: Instant) -> Result<String, Refusal> {
        let given = self.given.entry(peer).or_default();
        if self.visitors.len() >= MAX_VOTERS || *given >= MAX_VOTERS_PER_ADDRESS {
            return Err(Refusal::Full);
        }
        *given += 1;
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|_| Refusal::Full)?;
        let token = hex(&bytes);
        let voter = voter_of(&token);
        self.visitors.insert(token.clone(), Visitor { voter, voted: HashSet::new(), tokens: BURST, checked: now });
        Ok(token)
    }

    /// Takes a vote of the visitor with `token` for `side` (a debater's key,
    /// or "even") in `round` (from 1, as the page counts) when `open` (from
    /// 0) holds it, and spools it; `sides` are the debate's debaters.
    pub fn cast(
        &mut self,
        token: &str,
        round: u32,
        side: &str,
        open: &[u32],
        sides: &[Role],
        now: Instant,
    ) -> Result<(), Refusal> {
        let visitor = self.visitors.get_mut(token).ok_or(Refusal::Stranger)?;
        visitor.take_a_token(now)?;
        let side = match side {
            "even" => None,
            key => {
                let named = sides.iter().copied().find(|r| r.key() == key);
                Some(named.ok_or_else(|| Refusal::NoSuchSide(key.chars().take(24).collect()))?)
            }
        };
        let Some(at) = round.checked_sub(1).filter(|r| open.contains(r)) else { return Err(Refusal::Closed(round)) };
        if visitor.voted.contains(&at) {
            return Err(Refusal::Voted(round));
        }
        let ballot = Spooled { round: at, ballot: Ballot { voter: visitor.voter.clone(), side } };
        if !ballots::append_while_recorded(&self.log, &[ballot]).map_err(|_| Refusal::Unwritable)? {
            return Err(Refusal::Over);
        }
        visitor.voted.insert(at);
        Ok(())
    }
}

impl Visitor {
    /// Spends one of the visitor's requests, refilled one a [`REFILL`].
    fn take_a_token(&mut self, now: Instant) -> Result<(), Refusal> {
        let rested = now.saturating_duration_since(self.checked).as_secs_f64() / REFILL.as_secs_f64();
        self.tokens = (self.tokens + rested).min(BURST);
        self.checked = now;
        if self.tokens < 1.0 {
            return Err(Refusal::TooFast);
        }
        self.tokens -= 1.0;
        Ok(())
    }
}

/// The name a ballot gives the visitor with `token`.
fn voter_of(token: &str) -> String {
    let hash = Sha256::digest(token.as_bytes());
    hex(&hash)[..VOTER_LEN].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn a_visitor_votes_once_a_round_and_the_spool_holds_a_hash_not_the_token() {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("s.jsonl");
        // A heat records the debate: it holds the log's lock.
        let writer = std::fs::File::create(&log).expect("the log");
        writer.lock().expect("the log's lock");
        let spool = ballots::path_for(&log);
        let mut ballot_box = BallotBox::new(log);
        let now = Instant::now();
        let token = ballot_box.welcome(HERE, now).expect("a cookie");
        let sides = Role::DEBATERS;
        assert_eq!(ballot_box.cast(&token, 2, "skeptic", &[0, 1], &sides, now), Ok(()));
        assert_eq!(ballot_box.cast(&token, 2, "advocate", &[0, 1], &sides, now), Err(Refusal::Voted(2)));
        assert_eq!(ballot_box.cast(&token, 1, "even", &[0, 1], &sides, now), Ok(()));
        assert_eq!(ballot_box.cast(&token, 3, "even", &[0, 1], &sides, now), Err(Refusal::Closed(3)));
        assert_eq!(ballot_box.cast(&token, 0, "even", &[0, 1], &sides, now), Err(Refusal::Closed(0)));
        assert_eq!(ballot_box.cast(&token, 1, "judge", &[0, 1], &sides, now), Err(Refusal::TooFast));
        let later = now + Duration::from_secs(2);
        assert!(matches!(ballot_box.cast(&token, 1, "judge", &[0, 1], &sides, later), Err(Refusal::NoSuchSide(_))));
        assert_eq!(ballot_box.cast("forged", 1, "even", &[0, 1], &sides, later), Err(Refusal::Stranger));
        let spooled = std::fs::read_to_string(&spool).expect("spool");
        assert_eq!(spooled.lines().count(), 2, "{spooled}");
        assert!(!spooled.contains(&token), "{spooled}");
        assert!(spooled.contains(&voter_of(&token)), "{spooled}");
        // Once no heat records the debate, a vote is refused and nothing is written.
        drop(writer);
        let token = ballot_box.welcome(HERE, later).expect("a cookie");
        assert_eq!(ballot_box.cast(&token, 2, "even", &[0, 1], &sides, later), Err(Refusal::Over));
        assert_eq!(std::fs::read_to_string(&spool).expect("spool").lines().count(), 2);
    }

    #[test]
    fn one_address_is_given_so_many_cookies() {
        let mut ballot_box = BallotBox::new(std::env::temp_dir().join("never-written.jsonl"));
        let now = Instant::now();
        for _ in 0..MAX_VOTERS_PER_ADDRESS {
            ballot_box.welcome(HERE, now).expect("a cookie");
        }
        assert_eq!(ballot_box.welcome(HERE, now), Err(Refusal::Full));
        assert!(ballot_box.welcome(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)), now).is_ok());
    }
}
