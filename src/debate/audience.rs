//! The room's vote, cast on the audience page: a ballot is one visitor's
//! choice of the debater who argued better in a round (or neither), and
//! each visitor counts once per round. Which rounds take ballots, which
//! ballots a debate records, and the tally, as pure functions of the
//! folded state: the page's server and the process that records the
//! debate ask the same rules.

use super::event::DebateEvent;
use super::seat::Role;
use super::state::DebateState;

pub use super::ballot::{AudienceRound, Ballot, VOTER_LEN};

/// The rounds (numbered from 0) that take ballots: the latest round and
/// the one before it, so a round can be voted on while its verdict is read
/// and the next round starts. None before the first round.
pub fn open_rounds(state: &DebateState) -> Vec<u32> {
    let Some(latest) = state.rounds.last().map(|r| r.number) else { return Vec::new() };
    latest.checked_sub(1).into_iter().chain(std::iter::once(latest)).collect()
}

/// Whether `side` is one a ballot in `state`'s debate may name: a debater
/// seat of its format, or even.
pub fn names_a_side(state: &DebateState, side: Option<Role>) -> bool {
    side.is_none_or(|role| state.debaters().contains(&role))
}

/// The event recording the ballots of `round` the debate takes: the round
/// has started, each ballot is well formed and for a side of this debate,
/// and its voter is not counted in the round yet (a voter's first ballot
/// counts). None when no ballot is new. Whether the round was open is the
/// page's to say when it takes a ballot ([`open_rounds`] as the page saw
/// the log): the log may have moved on by the time the ballot is read, and
/// a ballot the page answered for is never dropped.
pub fn recorded(state: &DebateState, round: u32, ballots: &[Ballot]) -> Option<DebateEvent> {
    if !state.rounds.iter().any(|r| r.number == round) {
        return None;
    }
    let counted = state.audience.get(&round);
    let mut taken: Vec<Ballot> = Vec::new();
    for ballot in ballots {
        let new = counted.is_none_or(|c| !c.voters.contains_key(&ballot.voter))
            && !taken.iter().any(|t| t.voter == ballot.voter);
        if new && ballot.well_formed() && names_a_side(state, ballot.side) {
            taken.push(ballot.clone());
        }
    }
    (!taken.is_empty()).then_some(DebateEvent::AudienceVoted { round, ballots: taken })
}

/// "Advocate 12 · Skeptic 7 · even 2": a round's tally, the sides named
/// as `state`'s format names them.
pub fn tally_words(state: &DebateState, tally: &AudienceRound) -> String {
    let sides = state.debaters().iter().map(|r| format!("{} {}", state.label(*r), tally.votes(Some(*r))));
    let even = tally.votes(None);
    let even = (even > 0).then(|| format!("even {even}"));
    sides.chain(even).collect::<Vec<_>>().join(" · ")
}

/// The room's votes over every round: each side's count summed, and how
/// many rounds were voted on; `None` when nobody voted.
pub fn overall(state: &DebateState) -> Option<String> {
    if state.audience.values().all(|t| t.total() == 0) {
        return None;
    }
    let sum = |side: Option<Role>| state.audience.values().map(|t| t.votes(side)).sum::<usize>();
    let sides = state.debaters().iter().map(|r| format!("{} {}", state.label(*r), sum(Some(*r))));
    let even = Some(sum(None)).filter(|n| *n > 0).map(|n| format!("even {n}"));
    let said = sides.chain(even).collect::<Vec<_>>().join(" · ");
    let rounds = crate::words::count(state.audience.len(), "round");
    Some(format!("{said} over {rounds}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{Heat, event::DebateEvent};

    fn voter(n: u8) -> String {
        format!("{n:012x}")
    }

    fn ballot(n: u8, side: Option<Role>) -> Ballot {
        Ballot { voter: voter(n), side }
    }

    fn debate(rounds: u32) -> DebateState {
        let mut state = DebateState::default();
        state.apply(&DebateEvent::Started {
            topic: "Tea beats coffee".into(),
            max_rounds: 5,
            initial_heat: Heat::new(0.7),
            participants: Vec::new(),
        });
        for round in 0..rounds {
            state.apply(&DebateEvent::RoundStarted {
                round,
                heat: Heat::new(0.7),
                topic: String::new(),
                injected: Vec::new(),
            });
        }
        state
    }

    #[test]
    fn the_latest_round_and_the_one_before_take_ballots() {
        assert_eq!(open_rounds(&debate(0)), Vec::<u32>::new());
        assert_eq!(open_rounds(&debate(1)), vec![0]);
        assert_eq!(open_rounds(&debate(3)), vec![1, 2]);
    }

    #[test]
    fn a_voter_counts_once_per_round_however_often_the_ballot_is_read() {
        let mut state = debate(2);
        let ballots = [ballot(1, Some(Role::Advocate)), ballot(1, Some(Role::Skeptic)), ballot(2, None)];
        let event = recorded(&state, 1, &ballots).expect("two new voters");
        let DebateEvent::AudienceVoted { ballots: taken, .. } = &event else { panic!("{event:?}") };
        assert_eq!(taken.len(), 2, "the second ballot of voter 1 is not taken");
        state.apply(&event);
        assert_eq!(recorded(&state, 1, &ballots), None, "read again, nothing is new");
        // Folded twice (a log replayed), the tally stands.
        state.apply(&event);
        let tally = &state.audience[&1];
        assert_eq!((tally.votes(Some(Role::Advocate)), tally.votes(Some(Role::Skeptic)), tally.votes(None)), (1, 0, 1));
        // The same voter may vote in another open round.
        assert!(recorded(&state, 0, &ballots[..1]).is_some());
    }

    #[test]
    fn rounds_not_played_foreign_sides_and_forged_voters_are_refused() {
        let state = debate(3);
        assert!(recorded(&state, 0, &[ballot(1, None)]).is_some(), "taken by the page while round 1 was open");
        assert_eq!(recorded(&state, 7, &[ballot(1, None)]), None, "a round not played");
        assert_eq!(recorded(&state, 2, &[ballot(1, Some(Role::Judge))]), None, "the judge is no side");
        assert_eq!(recorded(&state, 2, &[ballot(1, Some(Role::Third))]), None, "no third seat in a duel");
        let forged = Ballot { voter: "ZZZZZZZZZZZZ".into(), side: None };
        assert_eq!(recorded(&state, 2, &[forged]), None);
    }

    #[test]
    fn the_side_ahead_is_the_one_most_voters_chose() {
        let sides = Role::DEBATERS;
        let mut tally = AudienceRound::default();
        assert_eq!(tally.ahead(&sides), None);
        tally.count(&[ballot(1, Some(Role::Skeptic)), ballot(2, Some(Role::Skeptic)), ballot(3, Some(Role::Advocate))]);
        assert_eq!(tally.ahead(&sides), Some(Some(Role::Skeptic)));
        tally.count(&[ballot(4, Some(Role::Advocate))]);
        assert_eq!(tally.ahead(&sides), Some(None), "a tie");
        assert_eq!(tally_words(&debate(1), &tally), "Advocate 2 · Skeptic 2");
    }
}
