//! The person's verdicts beside the judge's: for each, who the judge said
//! was ahead in the same round and whether the two agree (even counts as a
//! side), and over the rounds where both said, how often they agree. And
//! the room's vote on the audience page, round by round, beside both.

use crate::debate::DebateState;
use crate::sanitize::clean;

/// One of the person's verdicts, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct HumanEntry {
    /// 1-based.
    pub round: u32,
    /// "advocate ahead, 70% sure".
    pub said: String,
    pub note: String,
    pub ends: bool,
    /// Who the judge said was ahead that round, in words; empty when it did not say.
    pub judge: String,
    /// Whether the person and the judge agree; `None` when the judge named no side.
    pub agrees: Option<bool>,
}

impl HumanEntry {
    /// "agree", "disagree" or "—" (the judge named no side).
    pub fn agreement_words(&self) -> &'static str {
        match self.agrees {
            Some(true) => "agree",
            Some(false) => "disagree",
            None => "—",
        }
    }
}

/// The person's verdicts in the order given, each beside the judge's.
pub fn entries(state: &DebateState) -> Vec<HumanEntry> {
    state
        .human
        .iter()
        .map(|h| {
            let judged = state.rounds.iter().find(|r| r.number + 1 == h.round).and_then(|r| r.verdict()?.ahead);
            HumanEntry {
                round: h.round,
                said: h.describe(state),
                note: clean(&h.note),
                ends: h.ends,
                judge: judged.map(|a| crate::debate::standing::ahead_words(a, state)).unwrap_or_default(),
                agrees: judged.map(|a| a.side() == h.ahead),
            }
        })
        .collect()
}

/// The room's vote in one round, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomEntry {
    /// 1-based.
    pub round: u32,
    /// "Advocate 12 · Skeptic 7 · even 2".
    pub tally: String,
    pub voters: usize,
    /// The side most of the room chose, in words ("even" on a tie).
    pub room: String,
    /// Who the judge said was ahead that round; empty when it did not say.
    pub judge: String,
    /// The person's verdict that round; empty when none was given.
    pub person: String,
}

/// The room's vote, round by round, beside the judge's and the person's.
pub fn room(state: &DebateState) -> Vec<RoomEntry> {
    state
        .audience
        .iter()
        .filter(|(_, tally)| tally.total() > 0)
        .map(|(&number, tally)| {
            let round = state.rounds.iter().find(|r| r.number == number);
            let judged = round.and_then(|r| r.verdict()?.ahead);
            let room = tally.ahead(state.debaters()).flatten();
            RoomEntry {
                round: number + 1,
                tally: crate::debate::audience::tally_words(state, tally),
                voters: tally.total(),
                room: room.map_or_else(|| "even".to_string(), |side| format!("{} ahead", state.seat_name(side))),
                judge: judged.map(|a| crate::debate::standing::ahead_words(a, state)).unwrap_or_default(),
                person: state
                    .human
                    .iter()
                    .rev()
                    .find(|h| h.round == number + 1)
                    .map(|h| h.describe(state))
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// "agree in 2 of 3 rounds", over the verdicts the judge named a side
/// for; `None` when there is none.
pub fn summary(entries: &[HumanEntry]) -> Option<String> {
    let compared: Vec<bool> = entries.iter().filter_map(|e| e.agrees).collect();
    if compared.is_empty() {
        return None;
    }
    let agree = compared.iter().filter(|&&a| a).count();
    let rounds = if compared.len() == 1 { "round" } else { "rounds" };
    Some(format!("The person and the judge agree in {agree} of {} {rounds}.", compared.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Heat;
    use crate::debate::verdict::{Ahead, Verdict};
    use crate::debate::{DebateEvent, Role};

    fn judged(round: u32, ahead: Option<Ahead>) -> [DebateEvent; 3] {
        [
            DebateEvent::RoundStarted { round, topic: "t".into(), heat: Heat::new(0.5), injected: vec![] },
            DebateEvent::TurnStarted {
                round,
                role: Role::Judge,
                purpose: crate::debate::TurnPurpose::Judge,
                temperature: None,
            },
            DebateEvent::VerdictReached { round, verdict: Verdict { ahead, ..Verdict::default() } },
        ]
    }

    fn person(round: u32, ahead: Option<Role>) -> DebateEvent {
        DebateEvent::HumanVerdict { round, ahead, confidence: 70, note: String::new(), ends: false }
    }

    #[test]
    fn agreement_is_per_round_and_counted_where_the_judge_named_a_side() {
        let mut events: Vec<DebateEvent> = Vec::new();
        events.extend(judged(0, Some(Ahead::Advocate)));
        events.push(person(0, Some(Role::Advocate)));
        events.extend(judged(1, Some(Ahead::Even)));
        events.push(person(1, None));
        events.extend(judged(2, Some(Ahead::Skeptic)));
        events.push(person(2, Some(Role::Advocate)));
        events.extend(judged(3, None));
        events.push(person(3, Some(Role::Skeptic)));
        let state = DebateState::from_events(&events);
        let rows = entries(&state);
        let agrees: Vec<Option<bool>> = rows.iter().map(|e| e.agrees).collect();
        assert_eq!(agrees, vec![Some(true), Some(true), Some(false), None]);
        assert_eq!(rows[2].judge, "skeptic ahead");
        assert_eq!(summary(&rows).as_deref(), Some("The person and the judge agree in 2 of 3 rounds."));
        assert_eq!(summary(&rows[3..]), None, "nothing to compare");
    }

    #[test]
    fn the_rooms_vote_stands_beside_the_judges_and_the_persons_round_by_round() {
        let ballot = |n: u8, side| crate::debate::audience::Ballot { voter: format!("{n:012x}"), side };
        let mut events: Vec<DebateEvent> = Vec::new();
        events.extend(judged(0, Some(Ahead::Skeptic)));
        events.push(person(0, Some(Role::Advocate)));
        let ballots = vec![ballot(1, Some(Role::Advocate)), ballot(2, Some(Role::Advocate)), ballot(3, None)];
        events.push(DebateEvent::AudienceVoted { round: 0, ballots });
        events.extend(judged(1, None));
        let state = DebateState::from_events(&events);
        let rows = room(&state);
        assert_eq!(rows.len(), 1, "a round nobody voted in has no row");
        let row = &rows[0];
        assert_eq!((row.round, row.voters), (1, 3));
        assert_eq!(row.tally, "Advocate 2 · Skeptic 0 · even 1");
        assert_eq!((row.room.as_str(), row.judge.as_str()), ("advocate ahead", "skeptic ahead"));
        assert_eq!(row.person, "advocate ahead, 70% sure");
    }
}
