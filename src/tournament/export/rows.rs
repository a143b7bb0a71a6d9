//! What each row of the export says, built from a debate's folded state and
//! its log's times, with no I/O: a debate's row ([`DebateRow`]), a row per
//! round ([`RoundRow`]) and a row per turn ([`TurnRow`]). Model text is
//! cleaned of control and escape sequences and of the API keys heat knows;
//! a fact the debate does not record is `None`, never a made-up zero. The
//! winner, the words, the swap checks and the room's majority are read as
//! `heat stats` reads them ([`games::game`]), so the two always agree.

use crate::debate::cost::{self, Payer, Prices, Spent};
use crate::debate::outcome::Outcome;
use crate::debate::panel;
use crate::debate::state::{Round, Turn, TurnStatus, VerdictStatus};
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::{Ahead, Conceded};
use crate::debate::{DebateState, PanelJudge, Role, TurnPurpose};
use crate::tournament::games;
use crate::tournament::stats::Pick;

use super::timing::Timing;

/// One stored debate, as the export reads it.
#[derive(Debug, Clone, Copy)]
pub struct Debate<'a> {
    pub session: &'a str,
    /// The tournament it ran in, when exported as one's.
    pub tournament: Option<&'a str>,
    /// Its key in the tournament's plan (`p0-m1vm2-r0`), when known.
    pub key: Option<&'a str>,
    /// When its session was created, in ms since the Unix epoch.
    pub created_ms: Option<u64>,
    pub state: &'a DebateState,
    pub timing: &'a Timing,
}

/// What every row is built with besides the debate.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// Each seat's price, for the cost columns (none: costs are null
    /// unless a call's runner reported its own).
    pub prices: &'a Prices,
    /// The API keys heat reads, cut from any text written (`secrets::known_keys`).
    pub secrets: &'a [String],
}

impl Context<'_> {
    /// Model text as it may be written: cleaned, keys redacted.
    fn text(&self, text: &str) -> String {
        crate::secrets::without_known(&crate::sanitize::clean(text), self.secrets).into_owned()
    }

    /// A proposition or question on one line, cleaned, keys redacted.
    fn line(&self, text: &str) -> String {
        crate::secrets::without_known(&crate::sanitize::one_line(text), self.secrets).into_owned()
    }
}

/// Who a row is about: the columns every row starts with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Who {
    pub tournament: Option<String>,
    pub key: Option<String>,
    pub session: String,
    pub advocate_model: Option<String>,
    pub skeptic_model: Option<String>,
    pub judge_model: Option<String>,
}

/// One debate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DebateRow {
    pub who: Who,
    pub started_at: Option<u64>,
    pub proposition: String,
    pub format: String,
    /// A panel's other judges' models, judge 2 first; `None` without a panel.
    pub panel_models: Option<String>,
    pub seed: Option<u64>,
    pub max_rounds: u32,
    pub rounds: u32,
    pub outcome: Option<&'static str>,
    pub winner_side: Option<&'static str>,
    pub winner_model: Option<String>,
    pub person_side: Option<&'static str>,
    pub room_side: Option<&'static str>,
    pub advocate_words: u64,
    pub skeptic_words: u64,
    pub swap_checks: u32,
    pub swap_flips: u32,
    pub spent: Spent,
    pub duration_ms: Option<u64>,
}

/// One round of a debate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoundRow {
    pub who: Who,
    /// From 1, as people count rounds.
    pub round: u32,
    pub question: String,
    pub heat: f64,
    pub ahead_side: Option<&'static str>,
    pub ahead_model: Option<String>,
    pub resolved: Option<bool>,
    pub conceded: Option<&'static str>,
    pub next_heat: Option<f64>,
    pub advocate_score: Option<i64>,
    pub skeptic_score: Option<i64>,
    pub swap_flipped: Option<bool>,
    pub panel_ahead_side: Option<&'static str>,
    pub panel_ahead_votes: Option<u32>,
    pub panel_behind_votes: Option<u32>,
    pub person_side: Option<&'static str>,
    /// The room's ballots: `[advocate, skeptic, even]`; `None` when it cast none.
    pub room_votes: Option<[u64; 3]>,
    pub advocate_words: Option<u64>,
    pub skeptic_words: Option<u64>,
    pub spent: Spent,
    pub duration_ms: Option<u64>,
}

/// One turn of a round: a debater's argument or a judge's verdict.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnRow {
    pub who: Who,
    pub round: u32,
    pub seat: &'static str,
    pub model: Option<String>,
    pub purpose: &'static str,
    pub status: &'static str,
    pub text: String,
    pub words: u64,
    pub temperature: Option<f64>,
    pub verdict_read: Option<bool>,
    pub ahead_side: Option<&'static str>,
    pub truncated: bool,
    pub tool_calls: u64,
    pub spent: Spent,
    pub started_ms: Option<u64>,
    pub first_token_ms: Option<u64>,
    pub duration_ms: Option<u64>,
}

/// `debate`'s row; `None` when it has no advocate and skeptic (not a
/// debate `heat stats` counts).
pub fn debate_row(debate: &Debate<'_>, context: &Context<'_>) -> Option<DebateRow> {
    let state = debate.state;
    let game = games::game(debate.session, state)?;
    let who = who(debate);
    let winner_side = game.winner.map(pick_name);
    let winner_model = match game.winner {
        Some(Pick::Advocate) => who.advocate_model.clone(),
        Some(Pick::Skeptic) => who.skeptic_model.clone(),
        Some(Pick::Even) | None => None,
    };
    Some(DebateRow {
        started_at: debate.created_ms,
        proposition: context.line(&state.topic),
        format: state.format.as_ref().map_or_else(|| "duel".to_string(), |f| crate::sanitize::one_line(&f.name)),
        panel_models: panel_models(state),
        seed: state.recipe.as_ref().and_then(|r| r.seed),
        max_rounds: state.max_rounds,
        rounds: u32::try_from(state.rounds.len()).unwrap_or(u32::MAX),
        outcome: state.finish.as_ref().map(|f| outcome_name(&f.outcome)),
        winner_side,
        winner_model,
        person_side: state.human.last().map(|v| side_name(v.ahead)),
        room_side: game.room.map(pick_name),
        advocate_words: game.words[0],
        skeptic_words: game.words[1],
        swap_checks: game.swap_checks,
        swap_flips: game.swap_flips,
        spent: spent_in(state, context.prices, None),
        duration_ms: debate.timing.duration(),
        who,
    })
}

/// A row per round of `debate`, in order; none for a debate `heat stats`
/// does not count.
pub fn round_rows(debate: &Debate<'_>, context: &Context<'_>) -> Vec<RoundRow> {
    let state = debate.state;
    if games::game(debate.session, state).is_none() {
        return Vec::new();
    }
    let who = who(debate);
    state.rounds.iter().map(|round| round_row(debate, context, &who, round)).collect()
}

fn round_row(debate: &Debate<'_>, context: &Context<'_>, who: &Who, round: &Round) -> RoundRow {
    let state = debate.state;
    let verdict = round.verdict();
    let ahead = verdict.and_then(|v| v.ahead);
    let scores = verdict.and_then(|v| v.scores.as_deref());
    let sum = |side: Role| scores.map(|s| s.of(side).iter().map(|&n| i64::from(n)).sum::<i64>());
    let decision = panel::decision(state, round.number);
    let audience = state.audience.get(&round.number).filter(|a| a.total() > 0);
    let words = |role: Role| round.argument(role).map(|t| t.split_whitespace().count() as u64);
    let span = debate.timing.round(round.number);
    RoundRow {
        who: who.clone(),
        round: round.number.saturating_add(1),
        question: context.line(&round.topic),
        heat: two_places(round.heat.get()),
        ahead_side: ahead.map(ahead_name),
        ahead_model: ahead.and_then(Ahead::side).and_then(|role| model_of(state, role)),
        resolved: verdict.map(|v| v.resolved),
        conceded: verdict.and_then(|v| v.conceded).map(conceded_name),
        next_heat: verdict.map(|v| two_places(v.heat.get())),
        advocate_score: sum(Role::Advocate),
        skeptic_score: sum(Role::Skeptic),
        swap_flipped: match &round.swap {
            Some(SwapCheck::Answered { flips, .. }) => Some(*flips),
            _ => None,
        },
        panel_ahead_side: decision.as_ref().map(|d| side_name(d.ahead)),
        panel_ahead_votes: decision.as_ref().map(|d| d.ahead_votes),
        panel_behind_votes: decision.as_ref().map(|d| d.behind_votes),
        person_side: state.human.iter().rev().find(|v| v.round == round.number + 1).map(|v| side_name(v.ahead)),
        room_votes: audience
            .map(|a| [Some(Role::Advocate), Some(Role::Skeptic), None].map(|side| a.votes(side) as u64)),
        advocate_words: words(Role::Advocate),
        skeptic_words: words(Role::Skeptic),
        spent: spent_in(state, context.prices, Some(round.number)),
        duration_ms: span.map(|s| s.last.saturating_sub(s.started)),
    }
}

/// A row per turn of `debate` (a turn a person set aside is left out), in
/// the order they began, round by round; none for a debate `heat stats`
/// does not count.
pub fn turn_rows(debate: &Debate<'_>, context: &Context<'_>) -> Vec<TurnRow> {
    let state = debate.state;
    if games::game(debate.session, state).is_none() {
        return Vec::new();
    }
    let who = who(debate);
    let mut rows = Vec::new();
    for round in &state.rounds {
        let roles: Vec<Role> = round.turns.iter().map(|t| t.role).collect();
        let spans = debate.timing.turns(round.number, &roles);
        for (index, turn) in round.turns.iter().enumerate() {
            let span = spans.and_then(|s| s.get(index));
            let mut row = turn_row(state, context, &who, round.number, turn);
            row.started_ms = span.map(|s| s.started);
            row.first_token_ms = span.and_then(|s| Some(s.first_token?.saturating_sub(s.started)));
            row.duration_ms = span.and_then(|s| Some(s.settled?.saturating_sub(s.started)));
            rows.push(row);
        }
    }
    rows
}

fn turn_row(state: &DebateState, context: &Context<'_>, who: &Who, round: u32, turn: &Turn) -> TurnRow {
    let verdict = match &turn.verdict {
        Some(VerdictStatus::Parsed { verdict }) => Some(verdict),
        _ => None,
    };
    let mut spent = Spent::default();
    if let Some(usage) = &turn.usage {
        spent.add(usage, context.prices.of(state, Payer::Seat(turn.role)));
    }
    TurnRow {
        who: who.clone(),
        round: round.saturating_add(1),
        seat: turn.role.key(),
        model: model_of(state, turn.role),
        purpose: purpose_name(turn.purpose),
        status: status_name(&turn.status),
        text: context.text(&turn.text),
        words: turn.text.split_whitespace().count() as u64,
        temperature: turn.temperature.map(two_places),
        verdict_read: turn.role.is_judge().then_some(verdict.is_some()),
        ahead_side: verdict.and_then(|v| v.ahead).map(ahead_name),
        truncated: turn.truncated_at.is_some() || turn.out_of_time.is_some(),
        tool_calls: turn.tools.iter().map(|step| step.calls.len() as u64).sum(),
        spent,
        started_ms: None,
        first_token_ms: None,
        duration_ms: None,
    }
}

fn who(debate: &Debate<'_>) -> Who {
    Who {
        tournament: debate.tournament.map(str::to_string),
        key: debate.key.map(str::to_string),
        session: debate.session.to_string(),
        advocate_model: model_of(debate.state, Role::Advocate),
        skeptic_model: model_of(debate.state, Role::Skeptic),
        judge_model: model_of(debate.state, Role::Judge),
    }
}

/// A seat's model as `--seat` names it (`openai:gpt-4.1`), as the debate ended.
fn model_of(state: &DebateState, role: Role) -> Option<String> {
    let p = state.participant(role)?;
    Some(crate::sanitize::one_line(&format!("{}:{}", p.provider, p.model)))
}

/// A panel's other judges' models, judge 2 first (on the chair's provider
/// or model where the format names none).
fn panel_models(state: &DebateState) -> Option<String> {
    let judges = state.judges();
    if judges < 2 {
        return None;
    }
    let chair = state.participant(Role::Judge);
    let models: Vec<String> = PanelJudge::members(judges)
        .map(|judge| {
            let provider = panel::provider_of(state, judge).or(chair.map(|p| p.provider.as_str())).unwrap_or("");
            let model = panel::model_of(state, judge).or(chair.map(|p| p.model.as_str())).unwrap_or("");
            crate::sanitize::one_line(&format!("{provider}:{model}"))
        })
        .collect();
    Some(models.join("; "))
}

/// What `round`'s calls (every round's, for `None`) used and cost: turns,
/// swap checks, panel votes and briefs.
fn spent_in(state: &DebateState, prices: &Prices, round: Option<u32>) -> Spent {
    let mut spent = Spent::default();
    for (number, payer, usage) in cost::calls(state) {
        if round.is_none_or(|r| r == number) {
            spent.add(&usage, prices.of(state, payer));
        }
    }
    spent
}

/// A heat or temperature to two decimals (as a float of 32 bits reads).
fn two_places(value: f32) -> f64 {
    (f64::from(value) * 100.0).round() / 100.0
}

fn pick_name(pick: Pick) -> &'static str {
    match pick {
        Pick::Advocate => "advocate",
        Pick::Skeptic => "skeptic",
        Pick::Even => "even",
    }
}

fn ahead_name(ahead: Ahead) -> &'static str {
    match ahead {
        Ahead::Advocate => "advocate",
        Ahead::Skeptic => "skeptic",
        Ahead::Even => "even",
    }
}

/// A side as a person or a panel put it ahead: `None` is even.
fn side_name(side: Option<Role>) -> &'static str {
    match side {
        Some(Role::Advocate) => "advocate",
        Some(Role::Skeptic) => "skeptic",
        Some(role) if role.is_debater() => role.key(),
        _ => "even",
    }
}

fn conceded_name(conceded: Conceded) -> &'static str {
    match conceded {
        Conceded::Neither => "none",
        Conceded::Advocate => "advocate",
        Conceded::Skeptic => "skeptic",
        Conceded::Both => "both",
    }
}

fn outcome_name(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Resolved => "resolved",
        Outcome::Forced => "forced",
        Outcome::MaxRounds => "max_rounds",
        Outcome::Consensus => "consensus",
        Outcome::Dissent => "dissent",
        Outcome::Converged => "converged",
        Outcome::Failed(_) => "failed",
        Outcome::Cancelled => "cancelled",
        Outcome::Timeout(_) => "timeout",
        Outcome::Invalidated(_) => "invalidated",
    }
}

fn purpose_name(purpose: TurnPurpose) -> &'static str {
    match purpose {
        TurnPurpose::Argue => "argue",
        TurnPurpose::Judge => "judge",
        TurnPurpose::RepairVerdict => "repair_verdict",
        TurnPurpose::Synthesis => "synthesis",
        TurnPurpose::RepairSynthesis => "repair_synthesis",
    }
}

fn status_name(status: &TurnStatus) -> &'static str {
    match status {
        TurnStatus::Streaming => "streaming",
        TurnStatus::Retrying { .. } => "retrying",
        TurnStatus::Done => "done",
        TurnStatus::Cancelled => "cancelled",
        TurnStatus::Failed { .. } => "failed",
    }
}
