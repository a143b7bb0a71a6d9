//! A table written as Parquet, by Apache's `parquet` crate (its own column
//! writers, without Arrow): one row group, each column optional (a null is
//! a null), gzip-compressed. Text is `STRING`, whole numbers `INT64`,
//! decimals `DOUBLE`, true/false `BOOLEAN`, instants `TIMESTAMP(MILLIS,
//! UTC)`: pandas, polars and DuckDB read each as its own type.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context as _, bail};
use parquet::basic::{Compression, GzipLevel};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use super::table::{Kind, Table, Value};

/// The Parquet schema of `table`, in the crate's message syntax.
fn message(table: &Table) -> String {
    let mut message = format!("message {} {{\n", table.name);
    for (name, kind) in &table.columns {
        let column = match kind {
            Kind::Text => "BYTE_ARRAY {} (STRING)",
            Kind::Int => "INT64 {}",
            Kind::Float => "DOUBLE {}",
            Kind::Bool => "BOOLEAN {}",
            Kind::Time => "INT64 {} (TIMESTAMP(MILLIS,true))",
        };
        message.push_str(&format!("  OPTIONAL {};\n", column.replace("{}", name)));
    }
    message.push('}');
    message
}

/// Writes `table` to `out`.
pub fn write(table: &Table, out: impl Write + Send) -> anyhow::Result<()> {
    let schema = parquet::schema::parser::parse_message_type(&message(table))
        .with_context(|| format!("the {} table has no Parquet schema", table.name))?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::GZIP(GzipLevel::default()))
        .set_created_by(format!("heat {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
    let mut group = writer.next_row_group()?;
    let mut index = 0;
    while let Some(mut column) = group.next_column()? {
        let Some((name, _)) = table.columns.get(index) else { bail!("the {} table has fewer columns", table.name) };
        write_column(column.untyped(), table, index).with_context(|| format!("could not write column {name}"))?;
        column.close()?;
        index += 1;
    }
    group.close()?;
    writer.close()?;
    Ok(())
}

/// Column `index` of `table`: the present values, and a definition level
/// per row (1 present, 0 null).
fn write_column(writer: &mut ColumnWriter<'_>, table: &Table, index: usize) -> anyhow::Result<()> {
    let cells: Vec<&Value> = table.column(index).collect();
    let kind = table.columns.get(index).map(|(_, kind)| *kind);
    if cells.len() != table.rows.len() || cells.iter().any(|v| Some(v.kind()) != kind) {
        bail!("a row has no value of the column's type");
    }
    let levels: Vec<i16> = cells.iter().map(|v| i16::from(!v.is_null())).collect();
    let wrong = || anyhow::anyhow!("a value is not of the column's type");
    match writer {
        ColumnWriter::ByteArrayColumnWriter(w) => {
            let values = present(&cells, |v| match v {
                Value::Text(t) => Ok(t.as_ref().map(|t| ByteArray::from(t.as_bytes().to_vec()))),
                _ => Err(wrong()),
            })?;
            w.write_batch(&values, Some(&levels), None)?;
        }
        ColumnWriter::Int64ColumnWriter(w) => {
            let values = present(&cells, |v| match v {
                Value::Int(n) | Value::Time(n) => Ok(*n),
                _ => Err(wrong()),
            })?;
            w.write_batch(&values, Some(&levels), None)?;
        }
        ColumnWriter::DoubleColumnWriter(w) => {
            let values = present(&cells, |v| if let Value::Float(x) = v { Ok(*x) } else { Err(wrong()) })?;
            w.write_batch(&values, Some(&levels), None)?;
        }
        ColumnWriter::BoolColumnWriter(w) => {
            let values = present(&cells, |v| if let Value::Bool(b) = v { Ok(*b) } else { Err(wrong()) })?;
            w.write_batch(&values, Some(&levels), None)?;
        }
        _ => bail!("the schema has a type the export does not write"),
    }
    Ok(())
}

/// The values that are not null, in order, as `read` takes them (an error
/// for a value of another type).
fn present<T>(cells: &[&Value], read: impl Fn(&Value) -> anyhow::Result<Option<T>>) -> anyhow::Result<Vec<T>> {
    let mut values = Vec::with_capacity(cells.len());
    for cell in cells {
        values.extend(read(cell)?);
    }
    Ok(values)
}
