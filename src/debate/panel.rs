//! A panel of judges (a format's `judges.count` above 1). The chair is judge
//! 1: its turn streams in the judge's pane, writes the next round's topic,
//! the scores and the final synthesis as a lone judge does. The other judges
//! vote on the same round at the same time, each on a call of its own, and
//! the panel decides by majority: `resolved` by most votes (a tie goes on),
//! the next heat by the median of the heats given, who is ahead by most
//! votes. A judge that fails is outvoted while a majority of the panel
//! answered; every vote, and each dissent, stays in the log. This module
//! owns the votes' states and the counting; the engine asks, the reducer
//! records, the planner acts on the decision.

pub mod vote;

use super::event::Participant;
use super::heat::Heat;
use super::seat::{PanelJudge, Role};
use super::state::{DebateState, Round, Turn, TurnStatus, VerdictStatus};
use super::verdict::Verdict;
use super::verdict::sides::Ahead;
use crate::provider::ProviderKind;
pub use vote::Vote;

/// Why a vote the person cancelled has none.
pub const CANCELLED: &str = "it was cancelled";

/// What the panel decided about a round.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// How many judges sit, the chair included.
    pub seats: u32,
    /// The judges whose verdict counted, by number, in order.
    pub answered: Vec<PanelJudge>,
    pub resolved: bool,
    /// How many of the answers said `resolved`.
    pub resolved_votes: u32,
    /// The median of the heats the answers gave.
    pub heat: Heat,
    /// The side most answers put ahead; `None` when level or split evenly.
    pub ahead: Option<Role>,
    /// How many answers put `ahead` ahead.
    pub ahead_votes: u32,
    /// How many put the other side ahead.
    pub behind_votes: u32,
    /// The judges who answered and disagreed with the decision on
    /// `resolved` (before the last word) or on who is ahead.
    pub dissent: Vec<PanelJudge>,
    /// The chair gave the debate's last word this round: the debate ends
    /// whatever the votes on `resolved`, and who is ahead is who won.
    pub closing: bool,
}

/// Every verdict that counts in `round`, by judge number: the chair's
/// latest that parsed, then the other judges' votes.
pub fn ballots(round: &Round) -> Vec<(PanelJudge, &Verdict)> {
    let chair = round.verdict().map(|v| (PanelJudge::CHAIR, v));
    let members = round.panel.iter().filter_map(|(&judge, vote)| match vote {
        Vote::Voted { verdict, .. } => Some((judge, verdict)),
        _ => None,
    });
    chair.into_iter().chain(members).collect()
}

/// Whether every judge besides the chair has voted or failed on `round`.
pub fn members_settled(round: &Round, seats: u32) -> bool {
    PanelJudge::members(seats).all(|judge| round.panel.get(&judge).is_some_and(Vote::is_settled))
}

/// Whether the whole panel has spoken on `round`: every other judge voted
/// or failed, and the chair's turn has a verdict, failed for good, or was
/// cancelled.
pub fn settled(round: &Round, seats: u32) -> bool {
    let chair = round.turn(Role::Judge).is_some_and(|t| {
        matches!(t.status, TurnStatus::Failed { .. } | TurnStatus::Cancelled)
            || matches!(
                t.verdict,
                Some(VerdictStatus::Parsed { .. } | VerdictStatus::Invalid { will_retry: false, .. })
            )
    });
    chair && members_settled(round, seats)
}

/// What is said of a round whose panel had too few answers.
pub fn undecided(why: &str) -> String {
    format!("the panel could not decide ({why}); the heat and the question are kept")
}

/// A panel's word on `round` once every judge has spoken: its decision in
/// a line (`Ok`), or that it could not decide (`Err`). `None` with one
/// judge, or while a judge is still weighing the round.
pub fn said(state: &DebateState, round: &Round) -> Option<Result<String, String>> {
    let seats = state.judges();
    if seats < 2 || !settled(round, seats) {
        return None;
    }
    Some(decide_in(state, round).map(|decision| describe(state, &decision)).map_err(|why| undecided(&why)))
}

/// The judges besides the chair not asked yet on `round` (or asked by a
/// process that stopped before the answer, unless `in_flight` says the
/// call is still under way).
pub fn unasked(round: &Round, seats: u32, in_flight: &[PanelJudge]) -> Vec<PanelJudge> {
    PanelJudge::members(seats)
        .filter(|judge| match round.panel.get(judge) {
            None => true,
            Some(Vote::Asking) => !in_flight.contains(judge),
            Some(_) => false,
        })
        .collect()
}

/// The panel's decision on the answers so far, or why there is none: a
/// majority of the panel must have answered.
pub fn decide(round: &Round, seats: u32) -> Result<Decision, String> {
    let ballots = ballots(round);
    let answered = u32::try_from(ballots.len()).unwrap_or(u32::MAX);
    if answered * 2 <= seats {
        return Err(format!("only {answered} of the panel's {seats} judges gave a verdict, not a majority"));
    }
    let closing = round.turn(Role::Judge).is_some_and(|t| t.purpose.is_final());
    let resolved_votes = u32::try_from(ballots.iter().filter(|(_, v)| v.resolved).count()).unwrap_or(0);
    let resolved = closing || resolved_votes * 2 > answered;
    let side_votes = |side| ballots.iter().filter(|(_, v)| v.ahead.and_then(Ahead::side) == Some(side)).count();
    let (advocate, skeptic) = (side_votes(Role::Advocate), side_votes(Role::Skeptic));
    let ahead = match advocate.cmp(&skeptic) {
        std::cmp::Ordering::Greater => Some(Role::Advocate),
        std::cmp::Ordering::Less => Some(Role::Skeptic),
        std::cmp::Ordering::Equal => None,
    };
    let ahead_votes = u32::try_from(advocate.max(skeptic)).unwrap_or(0);
    let behind_votes = u32::try_from(advocate.min(skeptic)).unwrap_or(0);
    let dissent = ballots
        .iter()
        .filter(|(_, v)| {
            (!closing && v.resolved != resolved) || (ahead.is_some() && v.ahead.and_then(Ahead::side) != ahead)
        })
        .map(|(judge, _)| *judge)
        .collect();
    Ok(Decision {
        seats,
        answered: ballots.iter().map(|(judge, _)| *judge).collect(),
        resolved,
        resolved_votes,
        heat: median(ballots.iter().map(|(_, v)| v.heat)),
        ahead,
        ahead_votes,
        behind_votes,
        dissent,
        closing,
    })
}

/// The panel's decision on `round` so far; `None` with one judge, or while
/// no majority has answered.
pub fn decision(state: &DebateState, round: u32) -> Option<Decision> {
    let seats = state.judges();
    let r = state.rounds.iter().find(|r| r.number == round)?;
    (seats > 1).then(|| decide_in(state, r).ok()).flatten()
}

/// Whether `turn`, a judge turn of `round`, closed the debate: the final
/// synthesis, or a verdict that resolved it; on a panel, resolved by the
/// majority, not by the chair alone.
pub fn closes(state: &DebateState, round: &Round, turn: &Turn) -> bool {
    if state.judges() < 2 || turn.purpose.is_final() {
        return turn.closes_debate();
    }
    turn.role.is_judge() && decision(state, round.number).is_some_and(|d| d.resolved)
}

/// [`decide`] for `state`'s panel: free debaters take no sides, so a
/// panel over them decides whether the debate is resolved and its heat, and
/// who is ahead is not counted (nor is a judge who named someone a dissent).
pub fn decide_in(state: &DebateState, round: &Round) -> Result<Decision, String> {
    let mut decision = decide(round, state.judges())?;
    if state.free() {
        decision.ahead = None;
        decision.ahead_votes = 0;
        decision.behind_votes = 0;
        let closing = decision.closing;
        decision.dissent = ballots(round)
            .into_iter()
            .filter(|(_, v)| !closing && v.resolved != decision.resolved)
            .map(|(judge, _)| judge)
            .collect();
    }
    Ok(decision)
}

/// The middle heat; the mean of the two middle ones for an even count.
fn median(heats: impl Iterator<Item = Heat>) -> Heat {
    let mut values: Vec<f32> = heats.map(Heat::get).collect();
    values.sort_by(f32::total_cmp);
    let n = values.len();
    let middle = match n {
        0 => return Heat::default(),
        _ if n % 2 == 1 => values[n / 2],
        _ => f32::midpoint(values[n / 2 - 1], values[n / 2]),
    };
    Heat::new(middle)
}

/// A judge's name on screen and in exports: "Chair", "Judge 2", or with a
/// model of its own, "Judge 2 (gpt-4.1-mini)".
pub fn judge_name(state: &DebateState, judge: PanelJudge) -> String {
    if judge.is_chair() {
        return crate::debate::format::clean_label(state.label(Role::Judge));
    }
    match (model_of(state, judge), provider_of(state, judge)) {
        (Some(model), _) => format!("Judge {judge} ({})", crate::sanitize::clean(model)),
        (None, Some(provider)) => format!("Judge {judge} ({})", crate::sanitize::clean(provider)),
        (None, None) => format!("Judge {judge}"),
    }
}

/// The provider judge `judge` (2, 3, …) sits on when the format names one
/// (`judges.providers`); `None`: the judges' provider.
pub fn provider_of(state: &DebateState, judge: PanelJudge) -> Option<&str> {
    let index = judge.index()?;
    let format = state.format.as_ref()?;
    format.panel_providers.get(index).map(|p| p.trim()).filter(|p| !p.is_empty())
}

/// The model judge `judge` (2, 3, …) is asked on when the format names one
/// (`judges.models`); `None`: the chair's, or its provider's own. The
/// embedded model serves every judge on it itself, so it takes no other name.
pub fn model_of(state: &DebateState, judge: PanelJudge) -> Option<&str> {
    let embedded =
        state.participant(Role::Judge).is_some_and(Participant::is_embedded) && on_chairs_or_embedded(state, judge);
    let index = judge.index()?;
    let format = state.format.as_ref().filter(|_| !embedded)?;
    format.panel_models.get(index).map(|m| m.trim()).filter(|m| !m.is_empty())
}

/// Whether judge `judge` (2, 3, …) sits on the chair's provider or on the
/// embedded model (its provider's row says which).
pub fn on_chairs_or_embedded(state: &DebateState, judge: PanelJudge) -> bool {
    provider_of(state, judge).is_none_or(ProviderKind::names_embedded)
}

/// One line for the decision: "the panel: not resolved 2–1 · opposition
/// ahead 3–0 · heat 0.70 (median) · dissent: Judge 3"; after the last word,
/// "the panel's decision: opposition wins 2–1 · dissent: Judge 3".
pub fn describe(state: &DebateState, decision: &Decision) -> String {
    let answered = u32::try_from(decision.answered.len()).unwrap_or(0);
    // Each side's votes; judges who put neither ahead are counted apart.
    let neither = answered - decision.ahead_votes - decision.behind_votes;
    let even = if neither > 0 { format!(" ({neither} even)") } else { String::new() };
    let split = format!("{}–{}{even}", decision.ahead_votes, decision.behind_votes);
    let mut line = if decision.closing && state.free() {
        "the panel's last word".to_string()
    } else if decision.closing {
        match decision.ahead {
            Some(side) => format!("the panel's decision: {} wins {split}", state.seat_name(side)),
            None => "the panel's decision: neither side won".to_string(),
        }
    } else if state.free() {
        let against = answered - decision.resolved_votes;
        let (won, lost) =
            if decision.resolved { (decision.resolved_votes, against) } else { (against, decision.resolved_votes) };
        let resolved = if decision.resolved { "resolved" } else { "not resolved" };
        format!("the panel: {resolved} {won}–{lost} · heat {:.2} (median)", decision.heat.get())
    } else {
        let against = answered - decision.resolved_votes;
        let (won, lost) =
            if decision.resolved { (decision.resolved_votes, against) } else { (against, decision.resolved_votes) };
        let resolved = if decision.resolved { "resolved" } else { "not resolved" };
        let ahead = match decision.ahead {
            Some(side) => format!("{} ahead {split}", state.seat_name(side)),
            None => "neither side ahead".to_string(),
        };
        format!("the panel: {resolved} {won}–{lost} · {ahead} · heat {:.2} (median)", decision.heat.get())
    };
    if answered < decision.seats {
        line.push_str(&format!(" · {} of {} judges answered", answered, decision.seats));
    }
    if !decision.dissent.is_empty() {
        let names: Vec<String> = decision.dissent.iter().map(|&j| judge_name(state, j)).collect();
        line.push_str(&format!(" · dissent: {}", names.join(", ")));
    }
    line
}

/// One judge's vote in a line: "Judge 2: not resolved · Opposition ahead ·
/// heat 0.60", or why it failed.
pub fn vote_line(state: &DebateState, judge: PanelJudge, vote: &Vote) -> String {
    let name = judge_name(state, judge);
    match vote {
        Vote::Asking if state.finish.is_some() => format!("{name}: no vote (the debate ended first)"),
        Vote::Asking => format!("{name}: weighing the round…"),
        Vote::Voted { verdict, .. } => format!("{name}: {}", verdict_brief(state, verdict)),
        Vote::Failed { error, .. } => format!("{name}: no vote ({error})"),
    }
}

/// A verdict in a few words: resolved or not, who is ahead, its heat.
pub fn verdict_brief(state: &DebateState, verdict: &Verdict) -> String {
    let resolved = if verdict.resolved { "resolved" } else { "not resolved" };
    let ahead = super::standing::describe(verdict, state).map(|s| format!(" · {s}")).unwrap_or_default();
    format!("{resolved}{ahead} · heat {:.2}", verdict.heat.get())
}

#[cfg(test)]
mod tests;
