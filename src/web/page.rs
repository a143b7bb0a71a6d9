//! What the audience page is told: a whitelist of the debate, item by
//! item, made from the log's events. Only the proposition, the debaters'
//! labels and words, the citations in them as checked (a library's file is
//! named as the debaters cite it), each round's heat and verdict (with, in
//! a format that keeps an argument map, the claims still standing and each
//! side's scorecard), the room's tally and the outcome: never a model, an endpoint, a path on the
//! operator's disk, a note, a look-up, the judge's
//! raw answer or the person's steering. Rounds are counted from 1, as the
//! page shows them. Model text is cleaned of control and escape sequences
//! here too, though the page only ever sets it as text.

use serde::Serialize;

use crate::debate::argument_map;
use crate::debate::audience::AudienceRound;
use crate::debate::facts::{self, RoundFacts};
use crate::debate::grounding::Mark;
use crate::debate::grounding::reading::lines_cited;
use crate::debate::verdict::Ahead;
use crate::debate::{DebateEvent, DebateState, Heat, Role};
use crate::sanitize::clean;

/// One thing the page is told.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Item {
    /// The proposition and the debaters, in screen order.
    Debate {
        proposition: String,
        seats: Vec<Seat>,
        rounds: u32,
    },
    /// A round starts (`of`: the round limit).
    Round {
        round: u32,
        of: u32,
        heat: Heat,
    },
    /// Streamed words of a debater's turn.
    Text {
        round: u32,
        role: Role,
        text: String,
    },
    /// A debater's turn, complete: replaces what streamed.
    Said {
        round: u32,
        role: Role,
        text: String,
    },
    /// A debater's citations and quotes, checked against the source or
    /// the library: each as the pane says it, with the lines it points at.
    Checked {
        round: u32,
        role: Role,
        checks: Vec<Check>,
    },
    /// The judge's verdict on a round: the side ahead (`None`: even), its
    /// first sentence, the heat moving, the next question.
    Verdict {
        round: u32,
        ahead: Option<Role>,
        resolved: bool,
        reason: String,
        from: Heat,
        to: Heat,
        next: Option<String>,
        /// In a format that keeps an argument map: each claim still holding
        /// for its side after the round.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        standing: Vec<PageClaim>,
        /// In a format that keeps an argument map: each side's scorecard
        /// for the round, weighted, out of 10.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        scores: Vec<(Role, f32)>,
    },
    /// The room's tally of a round so far.
    Audience {
        round: u32,
        counts: std::collections::BTreeMap<Role, usize>,
        even: usize,
    },
    /// The rounds that take ballots now.
    Voting {
        rounds: Vec<u32>,
    },
    Paused,
    Resumed,
    /// The debate ended.
    End {
        outcome: String,
        synthesis: Option<String>,
    },
}

/// A claim as the page tells it: its id, side and words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageClaim {
    pub id: String,
    pub role: Role,
    pub claim: String,
}

/// One citation or quote, checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// `verified`, `near`, `unverified` or `prior_turn`.
    pub mark: Mark,
    /// `✓ [docs/queue.md:L6–L7]`, `✗ “…” (not in the library)`.
    pub said: String,
    /// The lines it points at, numbered (`L6: …`), as the debate recorded them.
    pub lines: Vec<String>,
}

/// A debater as the page names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Seat {
    pub role: Role,
    pub label: String,
}

/// The items `event` makes, told after it is folded into `state`.
pub fn items(state: &DebateState, event: &DebateEvent) -> Vec<Item> {
    let debater = |role: &Role| state.debaters().contains(role);
    let item = match event {
        DebateEvent::Started { .. } | DebateEvent::Formatted { .. } | DebateEvent::Branched { .. } => debate(state),
        DebateEvent::RoundStarted { round, heat, .. } => {
            Item::Round { round: round + 1, of: state.max_rounds, heat: *heat }
        }
        DebateEvent::RoundsAdded { .. } => match state.rounds.last() {
            Some(last) => Item::Round { round: last.number + 1, of: state.max_rounds, heat: last.heat },
            None => return Vec::new(),
        },
        DebateEvent::Delta { round, role, text } if debater(role) => {
            Item::Text { round: round + 1, role: *role, text: clean(text) }
        }
        DebateEvent::TurnCompleted { round, role, text, .. } if debater(role) => {
            Item::Said { round: round + 1, role: *role, text: clean(text) }
        }
        DebateEvent::QuotesChecked { round, role, checks } if debater(role) && !checks.is_empty() => {
            let checks = checks
                .iter()
                .map(|check| Check {
                    mark: check.mark,
                    said: clean(&check.describe()),
                    lines: lines_cited(state, check)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(n, line)| clean(&format!("L{n}: {line}")))
                        .collect(),
                })
                .collect();
            Item::Checked { round: round + 1, role: *role, checks }
        }
        DebateEvent::VerdictReached { round, verdict } => {
            let judged = state.rounds.iter().find(|r| r.number == *round);
            let from = judged.map_or(verdict.heat, |r| r.heat);
            // As the studio's gauge has it: a verdict that closes the debate sets no heat, a panel's decision does.
            let closes =
                judged.and_then(|r| r.turn(Role::Judge)).is_some_and(crate::debate::state::Turn::closes_debate);
            let to = if closes {
                from
            } else if state.judges() > 1 {
                state.heat
            } else {
                verdict.heat
            };
            let (standing, scores) = judged.map(|r| map_of(state, r)).unwrap_or_default();
            Item::Verdict {
                round: round + 1,
                ahead: verdict.ahead.and_then(Ahead::side),
                resolved: verdict.resolved,
                reason: crate::words::first_sentence(&clean(&verdict.verdict)),
                from,
                to,
                next: (!verdict.resolved).then(|| clean(&verdict.topic)).filter(|t| !t.is_empty()),
                standing,
                scores,
            }
        }
        DebateEvent::AudienceVoted { round, .. } => match state.audience.get(round) {
            Some(tally) => audience(state, *round, tally),
            None => return Vec::new(),
        },
        DebateEvent::Paused => Item::Paused,
        DebateEvent::Resumed => Item::Resumed,
        DebateEvent::Finished { outcome, synthesis } => Item::End {
            outcome: clean(&outcome.headline(state.rounds.len())),
            synthesis: synthesis.as_deref().map(clean),
        },
        _ => return Vec::new(),
    };
    vec![item]
}

/// A round's part of the argument map as the page tells it: the claims
/// still holding, and each side's weighted scorecard. The rest of a
/// round's facts are the studio's and the report's: the page is told no
/// board, panel, swap check or vote, and the room's votes come as ballots.
fn map_of(state: &DebateState, round: &crate::debate::state::Round) -> (Vec<PageClaim>, Vec<(Role, f32)>) {
    let RoundFacts { scores: _, issues: _, panel: _, swap: _, vote: _, room: _, map } = facts::of_round(state, round);
    let (Some(map), Some(spec)) = (map, state.map()) else { return (Vec::new(), Vec::new()) };
    let standing =
        map.standing.iter().map(|c| PageClaim { id: c.id.clone(), role: c.by, claim: clean(&c.claim) }).collect();
    let scores = map.scorecard.map_or_else(Vec::new, |card| {
        [Role::Advocate, Role::Skeptic]
            .into_iter()
            .filter_map(|role| Some((role, (argument_map::weighted(&card, role, spec)? * 10.0).round() / 10.0)))
            .collect()
    });
    (standing, scores)
}

/// The proposition and the seats, as `state` stands.
pub fn debate(state: &DebateState) -> Item {
    let seats = state.debaters().iter().map(|role| Seat { role: *role, label: clean(state.label(*role)) }).collect();
    Item::Debate { proposition: clean(&state.topic), seats, rounds: state.max_rounds }
}

/// The tally of round `round` (from 0).
pub fn audience(state: &DebateState, round: u32, tally: &AudienceRound) -> Item {
    let counts = state.debaters().iter().map(|role| (*role, tally.votes(Some(*role)))).collect();
    Item::Audience { round: round + 1, counts, even: tally.votes(None) }
}

/// The rounds (from 0) that take ballots, as the page counts them.
pub fn voting(open: &[u32]) -> Item {
    Item::Voting { rounds: open.iter().map(|r| r + 1).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::event::Participant;

    fn started() -> DebateEvent {
        let participant = |role| Participant {
            agent: Some("Claude Code 2.1.197 at /home/secret/bin".into()),
            ..Participant::new(role, "openai", "secret-model@http://10.0.0.9/v1")
        };
        DebateEvent::Started {
            topic: "Tea\u{1b}[31m beats coffee".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.7),
            participants: vec![participant(Role::Advocate), participant(Role::Skeptic), participant(Role::Judge)],
        }
    }

    fn told(events: &[DebateEvent]) -> Vec<Item> {
        let mut state = DebateState::default();
        let mut told = Vec::new();
        for event in events {
            state.apply(event);
            told.extend(items(&state, event));
        }
        told
    }

    #[test]
    fn the_page_is_told_words_and_verdicts_and_never_models_endpoints_or_the_judges_raw_answer() {
        let round = DebateEvent::RoundStarted {
            round: 0,
            topic: "Is tea better?".into(),
            heat: Heat::new(0.7),
            injected: vec!["a person's note".into()],
        };
        let events = [
            started(),
            round,
            DebateEvent::Delta { round: 0, role: Role::Advocate, text: "Tea\u{7} calms.".into() },
            DebateEvent::Delta { round: 0, role: Role::Judge, text: "{\"resolved\": false".into() },
            DebateEvent::Paused,
        ];
        let told = told(&events);
        let json = serde_json::to_string(&told).expect("items serialise");
        assert!(
            !json.contains("secret-model") && !json.contains("10.0.0.9") && !json.contains("/home/secret"),
            "{json}"
        );
        assert!(!json.contains("resolved\\\""), "the judge's stream is not told: {json}");
        assert!(!json.contains("a person's note"), "{json}");
        assert!(!json.contains('\u{1b}') && !json.contains('\u{7}') && !json.contains("\\u001b"), "{json}");
        assert_eq!(told.len(), 4, "{told:?}");
        assert!(matches!(&told[1], Item::Round { round: 1, of: 3, .. }));
        assert_eq!(told[2], Item::Text { round: 1, role: Role::Advocate, text: "Tea calms.".into() });
        assert_eq!(json.split("\"k\":").nth(4).map(|s| s.starts_with("\"paused\"")), Some(true), "{json}");
    }

    #[test]
    fn in_a_format_with_a_map_the_page_is_told_the_claims_still_standing_and_each_sides_scorecard() {
        use crate::debate::verdict::{ClaimStatus, NamedClaim, Scorecard, Verdict};
        let catalog = crate::format::Catalog::load(None);
        let oxford = catalog.find("oxford").ok().and_then(crate::format::Format::log_record).expect("built in");
        let claim = |id: &str, by, status| NamedClaim {
            id: id.into(),
            by,
            claim: format!("claim {id}\u{1b}[31m"),
            status,
            answers: None,
            evidence: None,
        };
        let side = |logic| [("logic".to_string(), logic), ("evidence".to_string(), 6)].into_iter().collect();
        let verdict = Verdict {
            verdict: "Weighed.".into(),
            claims: vec![
                claim("A1", Role::Advocate, ClaimStatus::Standing),
                claim("S1", Role::Skeptic, ClaimStatus::Conceded),
            ],
            scorecard: Some(Box::new(Scorecard { advocate: side(8), skeptic: side(5) })),
            ..Verdict::default()
        };
        let events = [
            started(),
            DebateEvent::Formatted { format: Box::new(oxford) },
            DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.7), injected: vec![] },
            DebateEvent::TurnStarted {
                round: 0,
                role: Role::Judge,
                purpose: crate::debate::TurnPurpose::Judge,
                temperature: None,
            },
            DebateEvent::VerdictReached { round: 0, verdict },
        ];
        let told = told(&events);
        let Some(Item::Verdict { standing, scores, .. }) = told.last() else { panic!("{told:?}") };
        assert_eq!(
            standing,
            &[PageClaim { id: "A1".into(), role: Role::Advocate, claim: "claim A1".into() }],
            "S1 was conceded"
        );
        assert_eq!(scores, &[(Role::Advocate, 7.0), (Role::Skeptic, 5.5)]);
        let duel = told_without_map();
        assert!(!duel.contains("standing") && !duel.contains("scores"), "a duel's verdict item is as it was: {duel}");
    }

    /// A duel's verdict item, serialised.
    fn told_without_map() -> String {
        let events = [
            started(),
            DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.7), injected: vec![] },
            DebateEvent::TurnStarted {
                round: 0,
                role: Role::Judge,
                purpose: crate::debate::TurnPurpose::Judge,
                temperature: None,
            },
            DebateEvent::VerdictReached {
                round: 0,
                verdict: crate::debate::verdict::Verdict { verdict: "v".into(), ..Default::default() },
            },
        ];
        serde_json::to_string(&told(&events)).expect("items serialise")
    }

    #[test]
    fn a_verdict_that_closes_the_debate_moves_no_heat_as_the_studios_gauge_has_it() {
        use crate::debate::event::TurnPurpose;
        use crate::debate::verdict::Verdict;
        let verdict = |resolved, heat| Verdict { resolved, heat: Heat::new(heat), ..Verdict::default() };
        let judged = |round, v| {
            [
                DebateEvent::TurnStarted { round, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
                DebateEvent::VerdictReached { round, verdict: v },
            ]
        };
        let round =
            |round| DebateEvent::RoundStarted { round, topic: "t".into(), heat: Heat::new(0.7), injected: vec![] };
        let mut events = vec![started(), round(0)];
        events.extend(judged(0, verdict(false, 0.6)));
        events.push(round(1));
        events.extend(judged(1, verdict(true, 0.5)));
        let told = told(&events);
        let heats: Vec<(u32, Heat, Heat)> = told
            .iter()
            .filter_map(|i| match i {
                Item::Verdict { round, from, to, .. } => Some((*round, *from, *to)),
                _ => None,
            })
            .collect();
        assert_eq!(heats, [(1, Heat::new(0.7), Heat::new(0.6)), (2, Heat::new(0.7), Heat::new(0.7))]);
    }

    #[test]
    fn a_debaters_citations_are_told_as_checked_with_the_lines_they_point_at() {
        use crate::debate::grounding::{Cited, QuoteCheck, Source};
        let source =
            Source::from_bytes("notes.md".into(), b"# Queue\nJobs wait in Postgres.\x1b[2J\n").expect("source");
        let check = |start, end, mark| QuoteCheck {
            cited: Cited::Lines { start, end },
            mark,
            lines: (mark == Mark::Verified).then_some((start, end)),
            from: None,
            file: None,
            library: false,
        };
        let events = [
            started(),
            DebateEvent::Grounded { date: None, source: Some(source), library: None },
            DebateEvent::QuotesChecked {
                round: 0,
                role: Role::Skeptic,
                checks: vec![check(2, 2, Mark::Verified), check(9, 9, Mark::Unverified)],
            },
            DebateEvent::QuotesChecked { round: 0, role: Role::Advocate, checks: Vec::new() },
        ];
        let told = told(&events);
        let checked: Vec<&Item> = told.iter().filter(|i| matches!(i, Item::Checked { .. })).collect();
        assert_eq!(checked.len(), 1, "a turn without citations tells nothing: {told:?}");
        let Item::Checked { round: 1, role: Role::Skeptic, checks } = checked[0] else { panic!("{checked:?}") };
        assert_eq!(checks[0].said, "✓ [L2]");
        assert_eq!(checks[0].lines, ["L2: Jobs wait in Postgres."], "the lines, cleaned of escapes");
        assert_eq!(checks[1].said, "✗ [L9] (no such lines)");
        assert!(checks[1].lines.is_empty());
        let json = serde_json::to_string(checked[0]).expect("json");
        assert!(json.contains("\"k\":\"checked\"") && json.contains("\"mark\":\"unverified\""), "{json}");
    }
}
