//! A tournament's line-ups (`lineups = [{ advocate = "openai:a", skeptic =
//! "openai:b" }, …]`): each a model for each debater seat, the seats named as
//! `--seat` names them. This module owns the line-up as written and checked
//! from the file alone (two seats at least, no empty model), and its seating:
//! each name read as the debate's format reads a seat's name (given by the
//! caller, which knows the format), with one sentence and the line for a seat
//! the format has not, a seat given twice, or a side left empty.

use std::collections::BTreeMap;

use toml::Spanned;

use super::placed::Placed;
use crate::debate::Role;

/// One seat of a line-up: the name it was given, its model, and the role
/// the name means once seated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineupSeat {
    /// The seat as written (`proposition`, `skeptic`).
    pub name: Placed,
    /// Its model, as `--seat` names a model (`openai:gpt-4.1`).
    pub model: Placed,
    /// The seat it means in the debate's format; `None` until seated.
    pub role: Option<Role>,
}

/// One line-up: a model for each debater seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    /// The line it starts on.
    pub line: usize,
    /// Its seats, in the order written.
    pub seats: Vec<LineupSeat>,
}

impl Lineup {
    /// The model the line-up sits in `role`, once seated (before, a seat
    /// named by its role's own name).
    pub fn model_in(&self, role: Role) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.role.map_or_else(|| s.name.text.eq_ignore_ascii_case(role.key()), |r| r == role))
            .map(|s| s.model.text.as_str())
    }

    /// Each seat's role and model, the advocate's and the skeptic's models
    /// traded when `swapped`.
    pub fn seated(&self, swapped: bool) -> Vec<(Role, String)> {
        let trade = |role: Role| match role {
            Role::Advocate if swapped => Role::Skeptic,
            Role::Skeptic if swapped => Role::Advocate,
            other => other,
        };
        let mut seats: Vec<(Role, String)> = self
            .seats
            .iter()
            .filter_map(|s| {
                let role =
                    s.role.or_else(|| Role::ALL.into_iter().find(|r| r.key().eq_ignore_ascii_case(&s.name.text)));
                Some((trade(role?), s.model.text.clone()))
            })
            .collect();
        seats.sort_by_key(|(role, _)| role.position());
        seats
    }
}

/// `lineups` as written: a list of tables of seat = model.
pub type Written = Spanned<Vec<Spanned<BTreeMap<Spanned<String>, Spanned<String>>>>>;

/// The line-ups as written, checked from the file alone; `line` gives a
/// span's line, `error` makes an error with one.
pub fn read(
    written: Written,
    line: &dyn Fn(&std::ops::Range<usize>) -> usize,
    error: &dyn Fn(std::ops::Range<usize>, &str) -> anyhow::Error,
) -> anyhow::Result<Vec<Lineup>> {
    let span = written.span();
    let mut lineups = Vec::new();
    for table in written.into_inner() {
        let table_span = table.span();
        let mut seats: Vec<(usize, LineupSeat)> = Vec::new();
        for (name, model) in table.into_inner() {
            let start = name.span().start;
            let seat = name.get_ref().trim();
            let text = model.get_ref().trim();
            if text.is_empty() {
                return Err(error(model.span(), &format!("the line-up's {seat} names no model")));
            }
            let name = Placed { text: seat.to_string(), line: line(&name.span()) };
            let model = Placed { text: text.to_string(), line: line(&model.span()) };
            seats.push((start, LineupSeat { name, model, role: None }));
        }
        seats.sort_by_key(|(start, _)| *start);
        if seats.len() < 2 {
            let named = seats.first().map_or("no seat".to_string(), |(_, s)| format!("the {} only", s.name.text));
            return Err(error(
                table_span,
                &format!("a line-up needs a model on each side, and this one names {named}: add the other side's seat"),
            ));
        }
        lineups.push(Lineup { line: line(&table_span), seats: seats.into_iter().map(|(_, s)| s).collect() });
    }
    if lineups.is_empty() {
        return Err(error(
            span,
            "lineups names no line-up: give at least one, e.g. { advocate = \"openai:a\", skeptic = \"openai:b\" }",
        ));
    }
    Ok(lineups)
}

/// The seats a debate's format has, to read a line-up's names by.
pub struct Seating<'a> {
    /// The format's name, for errors (`oxford`).
    pub format: &'a str,
    /// The role a seat's name means in the format (`--seat` reads it so).
    pub named: &'a dyn Fn(&str) -> Option<Role>,
    /// The format's debater seats, each of which a line-up fills.
    pub debaters: &'a [Role],
    /// The debater seats' names, for errors (`proposition, opposition (or advocate, skeptic)`).
    pub accepted: &'a str,
    /// A seat's own name in the format (`opposition`), for errors.
    pub name_of: &'a dyn Fn(Role) -> String,
}

/// Seats every line-up of `lineups` as `seating` reads its names; the
/// first error, with the file (`label`) and line.
pub fn seat(label: &str, lineups: &mut [Lineup], seating: &Seating<'_>) -> anyhow::Result<()> {
    let error = |line: usize, what: String| anyhow::anyhow!("{label} line {line}: {what}");
    for lineup in lineups {
        let mut taken: Vec<(Role, String)> = Vec::new();
        for seat in &mut lineup.seats {
            let name = &seat.name.text;
            let role = (seating.named)(name).filter(|r| r.is_debater() && seating.debaters.contains(r));
            let Some(role) = role else {
                return Err(error(
                    seat.name.line,
                    format!(
                        "a line-up names the seat {name:?}, which format {} has not for a debater: its seats are {}",
                        seating.format, seating.accepted
                    ),
                ));
            };
            if let Some((_, first)) = taken.iter().find(|(r, _)| *r == role) {
                return Err(error(
                    seat.name.line,
                    format!(
                        "a line-up gives the {} seat twice (as {first:?} and {name:?}); give each seat one model",
                        (seating.name_of)(role)
                    ),
                ));
            }
            taken.push((role, name.clone()));
            seat.role = Some(role);
        }
        if let Some(missing) = seating.debaters.iter().find(|r| !taken.iter().any(|(t, _)| t == *r)) {
            let named: Vec<String> = taken.iter().map(|(r, _)| (seating.name_of)(*r)).collect();
            return Err(error(
                lineup.line,
                format!(
                    "a line-up needs a model on each side, and this one names {} only: add {} = \"PROVIDER:MODEL\"",
                    named.join(" and "),
                    (seating.name_of)(*missing)
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
