//! Reading configuration text: the embedded default file and its values,
//! a TOML file checked key by key against [`super::keys`] (with the file and
//! line of anything wrong), and one value given as text.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use anyhow::{Context, bail};

use super::keys::{self, KeySpec, Kind};
use super::value::{Entry, FromValue, Source, Value};

/// The commented starter file; its values are the built-in defaults, and
/// the only place a default is written.
pub const DEFAULT_FILE: &str = include_str!("../../assets/default-config.toml");

/// The default file's values, parsed once. Empty only if the file does not
/// parse, and then no `Config` loads.
static BUILT_IN: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| {
    defaults(&keys::all()).map(|entries| entries.into_iter().map(|(k, e)| (k, e.value)).collect()).unwrap_or_default()
});

/// `key`'s built-in default, from the default file. A key the file does not
/// set reads as zero, empty or false: a test checks that every key read
/// with [`Config::defaulted`] is in the file.
pub fn built_in<T: FromValue<'static>>(key: &str) -> T {
    fallback(key)
}

/// As [`built_in`], for a value read alongside a config's own.
pub(super) fn fallback<'a, T: FromValue<'a>>(key: &str) -> T {
    let value: Option<&'a Value> = built_in_value(key);
    value.and_then(|v| T::from_value(v)).unwrap_or_default()
}

/// `key`'s value in the default file, if it sets one.
pub fn built_in_value(key: &str) -> Option<&'static Value> {
    BUILT_IN.get(key)
}

pub(super) fn defaults(specs: &[KeySpec]) -> anyhow::Result<BTreeMap<String, Entry>> {
    parse_file(DEFAULT_FILE, &Source::Default, specs).context("the built-in default configuration is invalid")
}

pub(super) fn parse_file(text: &str, source: &Source, specs: &[KeySpec]) -> anyhow::Result<BTreeMap<String, Entry>> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map(|s| text[..s.start].lines().count().max(1));
        let at = format!("{source}{}", line.map(|l| format!(" line {l}")).unwrap_or_default());
        // `max_rounds =` with nothing after it: TOML's own words are about quoting.
        let empty = line.and_then(|l| text.lines().nth(l - 1)).map(str::trim).filter(|l| l.ends_with('='));
        match empty {
            Some(assignment) => anyhow::anyhow!(
                "{at}: `{assignment}` has no value; write one after the =, or delete the line for the default"
            ),
            None => anyhow::anyhow!("{at}: {}", e.message()),
        }
    })?;
    let mut leaves = Vec::new();
    flatten("", &toml::Value::Table(table), &mut leaves);
    let mut entries = BTreeMap::new();
    for (key, value) in leaves {
        let at = match line_of(text, &key) {
            Some(line) => format!("{source} line {line}"),
            None => source.to_string(),
        };
        let Some(spec) = keys::find(specs, &key) else {
            bail!("{at}: unknown key `{key}` (see `heat config init` for every key)");
        };
        let value = from_toml(spec, &key, &value).with_context(|| at.clone())?;
        entries.insert(key, Entry { value, source: source.clone() });
    }
    Ok(entries)
}

fn flatten(prefix: &str, value: &toml::Value, out: &mut Vec<(String, toml::Value)>) {
    match value {
        toml::Value::Table(table) => {
            for (k, v) in table {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&key, v, out);
            }
        }
        other => out.push((prefix.to_string(), other.clone())),
    }
}

/// Where a key's value (`entry`) was set, as an error names it: the file
/// and line (`heat.toml line 4`), the environment variable or the flag.
pub(super) fn place(entry: Option<&Entry>, key: &str) -> String {
    match entry.map(|e| &e.source) {
        Some(Source::File(path) | Source::Studio(path)) => {
            let line = std::fs::read_to_string(path).ok().and_then(|text| line_of(&text, key));
            format!("{}{}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())
        }
        Some(Source::Env(var)) => format!("the environment variable {var}"),
        Some(Source::Flag(flag)) => flag.clone(),
        Some(Source::Format(name)) => format!("the format {name}"),
        Some(Source::Session(id)) => format!("the stored session {id}"),
        Some(Source::Default) | None => "the built-in defaults".into(),
    }
}

/// The line (1-based) where `key` is assigned, tracking `[section]` headers.
pub(super) fn line_of(text: &str, key: &str) -> Option<usize> {
    let mut section = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = header.trim().to_string();
            continue;
        }
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim().trim_matches('"');
        let full = if section.is_empty() { name.to_string() } else { format!("{section}.{name}") };
        if full == key {
            return Some(i + 1);
        }
    }
    None
}

/// `value` as `key` (a key `spec` names: `mcp.files.command` for `mcp.*.command`) takes it.
fn from_toml(spec: &KeySpec, key: &str, value: &toml::Value) -> anyhow::Result<Value> {
    let parsed = match (spec.kind, value) {
        (Kind::Int { .. }, toml::Value::Integer(i)) => Some(Value::Int(*i)),
        (Kind::Float { .. }, toml::Value::Float(x)) => Some(Value::Float(*x)),
        (Kind::Float { .. }, toml::Value::Integer(i)) => Some(Value::Float(*i as f64)),
        (Kind::Text | Kind::Provider | Kind::OneOf(_), toml::Value::String(s)) => Some(Value::Text(s.clone())),
        (Kind::Flag, toml::Value::Boolean(b)) => Some(Value::Flag(*b)),
        (Kind::Paths, toml::Value::String(s)) => Some(Value::Words(vec![s.clone()])),
        (Kind::Words | Kind::Paths, toml::Value::Array(items)) => {
            items.iter().map(|item| item.as_str().map(str::to_string)).collect::<Option<Vec<_>>>().map(Value::Words)
        }
        _ => None,
    };
    let shown = value.to_string();
    let value = parsed.ok_or_else(|| mismatch(spec, key, &shown))?;
    check_range(spec, key, value, &shown)
}

pub(super) fn parse_text(spec: &KeySpec, raw: &str) -> anyhow::Result<Value> {
    let parsed = match spec.kind {
        Kind::Int { .. } => raw.parse().ok().map(Value::Int),
        Kind::Float { .. } => raw.parse().ok().map(Value::Float),
        Kind::Text | Kind::Provider | Kind::OneOf(_) => Some(Value::Text(raw.to_string())),
        Kind::Flag => match raw.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Some(Value::Flag(true)),
            "false" | "0" | "no" | "off" => Some(Value::Flag(false)),
            _ => None,
        },
        Kind::Words => Some(Value::Words(raw.split_whitespace().map(str::to_string).collect())),
        Kind::Paths => {
            Some(Value::Words(raw.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect()))
        }
    };
    let shown = if spec.secret { "<redacted>".to_string() } else { format!("{raw:?}") };
    let value = parsed.ok_or_else(|| mismatch(spec, &spec.key, &shown))?;
    check_range(spec, &spec.key, value, &shown)
}

fn check_range(spec: &KeySpec, key: &str, value: Value, shown: &str) -> anyhow::Result<Value> {
    let ok = match (&spec.kind, &value) {
        (Kind::Int { min, max }, Value::Int(i)) => (min..=max).contains(&i),
        (Kind::Float { min, max }, Value::Float(x)) => x.is_finite() && (min..=max).contains(&x),
        // An endpoint the same file defines is known only once the file is read:
        // `endpoints::define` checks the name then.
        (Kind::Provider, Value::Text(s)) => keys::providers().contains(&s.trim()) || keys::is_endpoint_name(s.trim()),
        (Kind::OneOf(names), Value::Text(s)) => names.contains(&s.trim()),
        _ => true,
    };
    if ok { Ok(value) } else { Err(mismatch(spec, key, shown)) }
}

/// The sentence for a value `key` cannot take, naming the key as it was written.
fn mismatch(spec: &KeySpec, key: &str, shown: &str) -> anyhow::Error {
    anyhow::anyhow!("`{key}` must be {}, got {shown}", keys::expectation(spec.kind))
}
