//! A table written as CSV (RFC 4180, by the `csv` crate): a header of the
//! column names, then a line per row, a field quoted where it holds a comma,
//! a quote or a line break. A null is an empty field; true and false are
//! `true` and `false`; an instant is RFC 3339 in UTC. A text that a
//! spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a
//! tab or a carriage return) is written after a `'`, as spreadsheets expect,
//! so model text cannot run in one.

use std::io::Write;

use super::table::{Table, Value};

/// Writes `table` to `out`.
pub fn write(table: &Table, out: impl Write) -> anyhow::Result<()> {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(out);
    writer.write_record(table.columns.iter().map(|(name, _)| *name))?;
    for row in &table.rows {
        writer.write_record(row.iter().map(field))?;
    }
    writer.flush()?;
    Ok(())
}

/// A value as one CSV field.
fn field(value: &Value) -> String {
    match value {
        Value::Text(text) => text.as_deref().map(defused).unwrap_or_default(),
        Value::Int(n) => n.map(|n| n.to_string()).unwrap_or_default(),
        Value::Float(x) => x.map(|x| x.to_string()).unwrap_or_default(),
        Value::Bool(b) => b.map(|b| b.to_string()).unwrap_or_default(),
        Value::Time(ms) => {
            ms.and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok()).map(|t| t.to_string()).unwrap_or_default()
        }
    }
}

/// `text`, after a `'` where a spreadsheet would read it as a formula.
fn defused(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text.to_string() }
}
