//! An export being gathered: which rows it holds (a row per debate, per
//! round or per turn), filled debate by debate so no more than one debate's
//! state is held at once, and what it holds, in words.

use super::rows::{self, Context, Debate};
use super::table::Table;

/// What one row of an export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rows {
    #[default]
    Debates,
    Rounds,
    Turns,
}

/// The rows gathered so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    rows: Rows,
    table: Table,
    debates: usize,
}

impl Sheet {
    pub fn new(rows: Rows) -> Self {
        let table = match rows {
            Rows::Debates => Table::of::<rows::DebateRow>(),
            Rows::Rounds => Table::of::<rows::RoundRow>(),
            Rows::Turns => Table::of::<rows::TurnRow>(),
        };
        Sheet { rows, table, debates: 0 }
    }

    /// Adds `debate`'s rows; `false` (and nothing added) when it is not a
    /// debate `heat stats` counts.
    pub fn add(&mut self, debate: &Debate<'_>, context: &Context<'_>) -> bool {
        let Some(row) = rows::debate_row(debate, context) else { return false };
        match self.rows {
            Rows::Debates => self.table.push(&row),
            Rows::Rounds => rows::round_rows(debate, context).iter().for_each(|r| self.table.push(r)),
            Rows::Turns => rows::turn_rows(debate, context).iter().for_each(|r| self.table.push(r)),
        }
        self.debates += 1;
        true
    }

    /// How many debates it holds.
    pub fn debates(&self) -> usize {
        self.debates
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// "12 debates", "24 rounds of 12 debates", "72 turns of 12 debates".
    pub fn describe(&self) -> String {
        let debates = crate::words::count(self.debates, "debate");
        match self.rows {
            Rows::Debates => debates,
            Rows::Rounds => format!("{} of {debates}", crate::words::count(self.table.rows.len(), "round")),
            Rows::Turns => format!("{} of {debates}", crate::words::count(self.table.rows.len(), "turn")),
        }
    }
}
