//! One projection of what a round established beside its turns' words:
//! the facts a format's features add (scores, a review's issues, a panel's
//! votes and decision, the swap check, the vote among final answers, the
//! room's votes, the argument map), each present only where the debate's
//! format and setup give it one.
//!
//! Every presenter takes a round's facts from here and destructures
//! [`RoundFacts`] without `..` (the architecture test holds it), so a
//! feature that adds a fact adds one field, and the compiler names each
//! presenter that has not decided how to draw it. The facts are owned and
//! comparable, so a pane can keep them as the key of what it last drew.

use std::collections::BTreeMap;

use super::argument_map::{self, DebateMap, RoundMap};
use super::ballot::AudienceRound;
use super::issues::Row;
use super::panel::vote::Vote;
use super::seat::PanelJudge;
use super::state::{DebateState, Round};
use super::swap::check::SwapCheck;
use super::verdict::Scores;
use super::vote::Tally;

/// What `round` established beside its turns' words; see the module docs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoundFacts {
    /// The round's scores (a panel's median), in a format that scores.
    pub scores: Option<Scores>,
    /// The review's board as it stood after the round, in a format that
    /// tracks issues.
    pub issues: Option<Vec<Row>>,
    /// The panel's votes and decision, where two judges or more sit.
    pub panel: Option<PanelFacts>,
    /// The swap check of the round's verdict, where one was asked.
    pub swap: Option<SwapCheck>,
    /// The vote among the debaters' final answers, in a format that ends
    /// on them, once every debater has settled.
    pub vote: Option<Tally>,
    /// The room's votes on the round, where the room voted.
    pub room: Option<AudienceRound>,
    /// The round's part of the argument map, in a format that keeps one.
    pub map: Option<RoundMap>,
}

/// A panel's part of a round.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelFacts {
    /// The votes of the judges besides the chair, by judge.
    pub votes: BTreeMap<PanelJudge, Vote>,
    /// The majority's decision in words once every judge has spoken, or
    /// why there is none (`Err`); `None` while a judge is still asked.
    pub said: Option<Result<String, String>>,
}

/// The facts of `round` of `state`.
pub fn of_round(state: &DebateState, round: &Round) -> RoundFacts {
    RoundFacts {
        scores: super::scores::of_round(round).filter(|_| state.scored()),
        issues: state.tracks_issues().then(|| super::issues::board_through(state, round.number)),
        panel: (state.judges() > 1)
            .then(|| PanelFacts { votes: round.panel.clone(), said: super::panel::said(state, round) }),
        swap: round.swap.clone(),
        vote: state.final_answers().then(|| super::vote::of_round(state, round.number)).flatten(),
        room: state.audience.get(&round.number).cloned(),
        map: state.map().map(|_| argument_map::of_round(state, round)),
    }
}

/// What the whole debate established beside its words, as its results
/// sum it up: each of a round's facts over the rounds so far. Taken apart
/// without `..` as [`RoundFacts`] is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DebateFacts {
    /// Each side's scores summed, in words, in a format that scores.
    pub scores: Option<String>,
    /// The review's board as it stands, in a format that tracks issues.
    pub issues: Option<Vec<Row>>,
    /// The latest decision a panel reached, in words, or why there was none.
    pub panel: Option<Result<String, String>>,
    /// The swap checks answered: how many found the verdict flipped, of how many.
    pub swap: Option<(usize, usize)>,
    /// The latest round's vote among final answers, in a format that ends on them.
    pub vote: Option<Tally>,
    /// The room's votes over the debate, in words.
    pub room: Option<String>,
    /// The argument map, in a format that keeps one.
    pub map: Option<DebateMap>,
}

/// The facts of the whole of `state` so far.
pub fn of_debate(state: &DebateState) -> DebateFacts {
    let checked: Vec<bool> = state
        .rounds
        .iter()
        .filter_map(|r| match &r.swap {
            Some(SwapCheck::Answered { flips, .. }) => Some(*flips),
            _ => None,
        })
        .collect();
    DebateFacts {
        scores: super::scores::totals(state),
        issues: state.tracks_issues().then(|| super::issues::board(state)),
        panel: state.rounds.iter().rev().find_map(|r| super::panel::said(state, r)),
        swap: (!checked.is_empty()).then(|| (checked.iter().filter(|&&f| f).count(), checked.len())),
        vote: super::vote::latest(state),
        room: super::audience::overall(state),
        map: state.map().map(|_| argument_map::of_debate(state)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::event::{DebateEvent, Participant};
    use crate::debate::heat::Heat;
    use crate::debate::verdict::Verdict;

    /// Round 1 of a debate in the built-in format `format`, with a verdict
    /// that scores (read by a panel judge, as each judge's scores are).
    fn first_round(format: &str) -> DebateState {
        let catalog = crate::format::Catalog::load(None);
        let format = catalog.find(format).unwrap_or_else(|e| panic!("{e}"));
        let mut state = DebateState::default();
        state.apply(&DebateEvent::Started {
            topic: "Tea beats coffee".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: format.seats().iter().map(|&r| Participant::new(r, "openai", "mock-a")).collect(),
        });
        if let Some(record) = format.log_record() {
            state.apply(&DebateEvent::Formatted { format: Box::new(record) });
        }
        state.apply(&DebateEvent::RoundStarted {
            round: 0,
            topic: "Tea beats coffee".into(),
            heat: Heat::new(0.9),
            injected: Vec::new(),
        });
        let scored =
            Verdict { scores: Some(Box::new(Scores { advocate: vec![2], skeptic: vec![-1] })), ..Verdict::default() };
        state.rounds[0].panel.insert(PanelJudge(2), Vote::Voted { verdict: scored, usage: None });
        state
    }

    #[test]
    fn a_duel_has_only_the_facts_any_debate_can_have() {
        let mut state = first_round("duel");
        // The scores a judge gave outside a format that scores are not a fact.
        assert_eq!(of_round(&state, &state.rounds[0]), RoundFacts::default());
        state.rounds[0].swap = Some(SwapCheck::Asking);
        state.audience.insert(0, AudienceRound::default());
        let facts = of_round(&state, &state.rounds[0]);
        assert_eq!((facts.swap, facts.room), (Some(SwapCheck::Asking), Some(AudienceRound::default())));
    }

    #[test]
    fn each_format_brings_its_own_facts() {
        let oxford = first_round("oxford");
        let facts = of_round(&oxford, &oxford.rounds[0]);
        assert_eq!(facts.scores, Some(Scores { advocate: vec![2], skeptic: vec![-1] }));
        assert_eq!((facts.issues, facts.vote), (None, None));

        let review = first_round("review");
        assert_eq!(of_round(&review, &review.rounds[0]).issues, Some(Vec::new()), "a board with nothing raised yet");

        let judges = of_round(&oxford, &oxford.rounds[0]).panel.unwrap_or_else(|| panic!("a panel of judges sits"));
        assert_eq!(judges.votes.keys().copied().collect::<Vec<_>>(), [PanelJudge(2)]);
        assert_eq!(judges.said, None, "a judge is still to speak");

        assert!(of_debate(&oxford).scores.is_some(), "oxford's totals");
        assert_eq!(of_debate(&review).issues, Some(Vec::new()));
        for answering in ["vote", "panel"] {
            let state = first_round(answering);
            let facts = of_round(&state, &state.rounds[0]);
            assert_eq!((facts.vote, facts.panel), (None, None), "{answering}: no answer yet, and one judge or none");
        }
    }
}
