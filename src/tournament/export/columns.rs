//! The export's columns: for each kind of row, the names, types and order
//! its values are written in (docs/tournaments.md lists them, and a test
//! holds the list to this file). Names are stable: a column may be added at
//! the end of a kind, never renamed or moved.

use crate::debate::cost::Spent;

use super::rows::{DebateRow, RoundRow, TurnRow, Who};
use super::table::{Cell, Row, Value};

fn text(value: &str) -> Value {
    Value::Text(Some(value.to_string()))
}

fn maybe(value: Option<&str>) -> Value {
    Value::Text(value.map(str::to_string))
}

fn int(value: impl Into<i64>) -> Value {
    Value::Int(Some(value.into()))
}

fn who(who: &Who) -> Vec<Cell> {
    vec![
        ("tournament", maybe(who.tournament.as_deref())),
        ("key", maybe(who.key.as_deref())),
        ("session", text(&who.session)),
        ("advocate_model", maybe(who.advocate_model.as_deref())),
        ("skeptic_model", maybe(who.skeptic_model.as_deref())),
        ("judge_model", maybe(who.judge_model.as_deref())),
    ]
}

/// Tokens in and out (null when no call reported usage) and the cost in US
/// dollars (null unless every call had a price).
fn spent(spent: &Spent) -> Vec<Cell> {
    let measured = spent.calls > 0;
    vec![
        ("tokens_in", Value::count(measured.then_some(spent.input))),
        ("tokens_out", Value::count(measured.then_some(spent.output))),
        ("cost_usd", Value::Float(spent.cost.filter(|_| measured))),
    ]
}

impl Row for DebateRow {
    const TABLE: &'static str = "debates";

    fn cells(&self) -> Vec<Cell> {
        let mut cells = who(&self.who);
        cells.extend([
            ("started_at", Value::Time(self.started_at.and_then(|ms| i64::try_from(ms).ok()))),
            ("proposition", text(&self.proposition)),
            ("format", text(&self.format)),
            ("panel_models", maybe(self.panel_models.as_deref())),
            ("seed", Value::count(self.seed)),
            ("max_rounds", int(self.max_rounds)),
            ("rounds", int(self.rounds)),
            ("outcome", maybe(self.outcome)),
            ("winner_side", maybe(self.winner_side)),
            ("winner_model", maybe(self.winner_model.as_deref())),
            ("person_side", maybe(self.person_side)),
            ("room_side", maybe(self.room_side)),
            ("advocate_words", Value::count(Some(self.advocate_words))),
            ("skeptic_words", Value::count(Some(self.skeptic_words))),
            ("swap_checks", int(self.swap_checks)),
            ("swap_flips", int(self.swap_flips)),
        ]);
        cells.extend(spent(&self.spent));
        cells.push(("duration_ms", Value::count(self.duration_ms)));
        cells
    }

    fn blank() -> Vec<Cell> {
        Self::default().cells()
    }
}

impl Row for RoundRow {
    const TABLE: &'static str = "rounds";

    fn cells(&self) -> Vec<Cell> {
        let mut cells = who(&self.who);
        let room = |side: usize| Value::count(self.room_votes.map(|votes| votes[side]));
        cells.extend([
            ("round", int(self.round)),
            ("question", text(&self.question)),
            ("heat", Value::Float(Some(self.heat))),
            ("ahead_side", maybe(self.ahead_side)),
            ("ahead_model", maybe(self.ahead_model.as_deref())),
            ("resolved", Value::Bool(self.resolved)),
            ("conceded", maybe(self.conceded)),
            ("next_heat", Value::Float(self.next_heat)),
            ("advocate_score", Value::Int(self.advocate_score)),
            ("skeptic_score", Value::Int(self.skeptic_score)),
            ("swap_flipped", Value::Bool(self.swap_flipped)),
            ("panel_ahead_side", maybe(self.panel_ahead_side)),
            ("panel_ahead_votes", Value::Int(self.panel_ahead_votes.map(i64::from))),
            ("panel_behind_votes", Value::Int(self.panel_behind_votes.map(i64::from))),
            ("person_side", maybe(self.person_side)),
            ("room_advocate_votes", room(0)),
            ("room_skeptic_votes", room(1)),
            ("room_even_votes", room(2)),
            ("advocate_words", Value::count(self.advocate_words)),
            ("skeptic_words", Value::count(self.skeptic_words)),
        ]);
        cells.extend(spent(&self.spent));
        cells.push(("duration_ms", Value::count(self.duration_ms)));
        cells
    }

    fn blank() -> Vec<Cell> {
        Self::default().cells()
    }
}

impl Row for TurnRow {
    const TABLE: &'static str = "turns";

    fn cells(&self) -> Vec<Cell> {
        let mut cells = who(&self.who);
        cells.extend([
            ("round", int(self.round)),
            ("seat", text(self.seat)),
            ("model", maybe(self.model.as_deref())),
            ("purpose", text(self.purpose)),
            ("status", text(self.status)),
            ("text", text(&self.text)),
            ("words", Value::count(Some(self.words))),
            ("temperature", Value::Float(self.temperature)),
            ("verdict_read", Value::Bool(self.verdict_read)),
            ("ahead_side", maybe(self.ahead_side)),
            ("truncated", Value::Bool(Some(self.truncated))),
            ("tool_calls", Value::count(Some(self.tool_calls))),
        ]);
        cells.extend(spent(&self.spent));
        cells.extend([
            ("started_ms", Value::count(self.started_ms)),
            ("first_token_ms", Value::count(self.first_token_ms)),
            ("duration_ms", Value::count(self.duration_ms)),
        ]);
        cells
    }

    fn blank() -> Vec<Cell> {
        Self::default().cells()
    }
}
