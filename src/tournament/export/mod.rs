//! The analysis export of `heat stats --export FILE`: the debates `heat
//! stats` counts, a row per debate, per round or per turn ([`Rows`]), as a
//! CSV or Parquet file. Each child does one job: `rows` builds typed rows
//! from a debate's folded state (pure), `timing` reads the log's stamps,
//! `columns` names and orders each row's values, `table` is the shape the
//! writers take, `csv` and `parquet` write it, `file` picks the kind from
//! the name and writes it whole or not at all, and `sheet` gathers the rows
//! debate by debate.

pub mod columns;
pub mod csv;
pub mod file;
pub mod parquet;
pub mod rows;
pub mod sheet;
pub mod table;
pub mod timing;

pub use file::FileKind;
pub use rows::{Context, Debate};
pub use sheet::{Rows, Sheet};
pub use timing::Timing;
