//! A configuration value and where it came from, and the types a key's
//! value reads as.

use std::fmt;
use std::path::PathBuf;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Default,
    File(PathBuf),
    Env(&'static str),
    Flag(String),
    /// The studio's remembered settings (`studio.toml`).
    Studio(PathBuf),
    /// The debate format's own settings (a seat's model, its rounds).
    Format(String),
    /// A stored debate's own seats, as it goes on (`heat resume`): the id.
    Session(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => write!(f, "default"),
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Env(var) => write!(f, "env {var}"),
            Source::Flag(flag) => write!(f, "flag {flag}"),
            Source::Studio(path) => write!(f, "studio settings {}", path.display()),
            Source::Format(name) => write!(f, "format {name}"),
            Source::Session(id) => write!(f, "session {id}"),
        }
    }
}

/// A configuration value of one of the kinds keys take.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Text(String),
    Flag(bool),
    /// A list of words: a command and its arguments.
    Words(Vec<String>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Flag(b) => write!(f, "{b}"),
            Value::Words(words) => write!(f, "{words:?}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub value: Value,
    pub source: Source,
}

/// A flag given on the command line, aimed at a config key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagValue {
    pub key: String,
    pub raw: String,
    pub flag: String,
}

/// A type a key's value reads as: text (trimmed; empty counts as unset), a
/// whole number as any integer type it fits, a number, or a flag.
pub trait FromValue<'a>: Sized + Default {
    fn from_value(value: &'a Value) -> Option<Self>;
}

impl<'a> FromValue<'a> for &'a str {
    fn from_value(value: &'a Value) -> Option<Self> {
        match value {
            Value::Text(s) if !s.trim().is_empty() => Some(s.trim()),
            _ => None,
        }
    }
}

impl FromValue<'_> for f64 {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Float(x) => Some(*x),
            Value::Int(i) => Some(*i as f64),
            Value::Text(_) | Value::Flag(_) | Value::Words(_) => None,
        }
    }
}

impl FromValue<'_> for bool {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Flag(b) => Some(*b),
            _ => None,
        }
    }
}

macro_rules! whole_number {
    ($($t:ty),*) => {$(
        impl FromValue<'_> for $t {
            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::Int(i) => <$t>::try_from(*i).ok(),
                    _ => None,
                }
            }
        }
    )*};
}

whole_number!(i64, u32, u64, usize);
