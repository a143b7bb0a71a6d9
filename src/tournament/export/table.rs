//! The export's one shape, between the rows and the files: a table of named,
//! typed columns (text, whole numbers, decimals, true/false, instants) whose
//! cells may be null. The CSV and Parquet writers write any table; what each
//! kind of row says, and in which columns, is `rows`' and `columns`'.

/// A column's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// A whole number (64 bits, signed).
    Int,
    /// A decimal (64-bit float).
    Float,
    Bool,
    /// An instant, in ms since the Unix epoch, UTC.
    Time,
}

/// One cell: its type, and its value or null (`None`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(Option<String>),
    Int(Option<i64>),
    Float(Option<f64>),
    Bool(Option<bool>),
    Time(Option<i64>),
}

impl Value {
    pub fn kind(&self) -> Kind {
        match self {
            Value::Text(_) => Kind::Text,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::Bool(_) => Kind::Bool,
            Value::Time(_) => Kind::Time,
        }
    }

    pub fn is_null(&self) -> bool {
        match self {
            Value::Text(v) => v.is_none(),
            Value::Int(v) | Value::Time(v) => v.is_none(),
            Value::Float(v) => v.is_none(),
            Value::Bool(v) => v.is_none(),
        }
    }

    /// A count as a whole number (held to `i64`).
    pub fn count(n: Option<u64>) -> Value {
        Value::Int(n.map(|n| i64::try_from(n).unwrap_or(i64::MAX)))
    }
}

/// A named cell of a row.
pub type Cell = (&'static str, Value);

/// A kind of row the export writes: its table's name and its cells, in
/// column order. `blank` gives the columns of a table with no rows.
pub trait Row {
    const TABLE: &'static str;
    fn cells(&self) -> Vec<Cell>;
    fn blank() -> Vec<Cell>;
}

/// Rows as columns: the names and types, then each row's values in that order.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<(&'static str, Kind)>,
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// An empty table of `R`'s columns.
    pub fn of<R: Row>() -> Self {
        let columns = R::blank().iter().map(|(name, value)| (*name, value.kind())).collect();
        Table { name: R::TABLE, columns, rows: Vec::new() }
    }

    /// Adds `row`, whose cells are `R`'s columns in order (the rows'
    /// `cells` and `blank` name the same columns; a test holds it).
    pub fn push<R: Row>(&mut self, row: &R) {
        self.rows.push(row.cells().into_iter().map(|(_, value)| value).collect());
    }

    /// The values of column `index`, top to bottom.
    pub fn column(&self, index: usize) -> impl Iterator<Item = &Value> + '_ {
        self.rows.iter().filter_map(move |row| row.get(index))
    }
}
