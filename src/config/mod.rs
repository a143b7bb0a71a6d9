//! Configuration: the embedded default file, the user's `heat.toml`, the
//! environment and command-line flags, layered in that order. Every value
//! remembers where it came from, for `heat config show` and for errors.

pub mod keys;
pub mod studio;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use anyhow::{Context, bail};

use crate::debate::Role;
use keys::{KeySpec, Kind};

/// The commented starter file; its values are the built-in defaults, and
/// the only place a default is written.
pub const DEFAULT_FILE: &str = include_str!("../../assets/default-config.toml");

/// The default file's values, parsed once. Empty only if the file does not
/// parse, and then no `Config` loads.
static BUILT_IN: LazyLock<BTreeMap<String, Value>> = LazyLock::new(|| {
    defaults(&keys::all()).map(|entries| entries.into_iter().map(|(k, e)| (k, e.value)).collect()).unwrap_or_default()
});

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
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Flag(b) => write!(f, "{b}"),
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

/// The resolved configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    entries: BTreeMap<String, Entry>,
    /// The config file consulted and whether it existed.
    pub file: Option<(PathBuf, bool)>,
    /// This config before a debate format's settings were laid over it
    /// (`format::layer`), so another format can be laid over it instead.
    before_format: Option<Box<Config>>,
}

impl Config {
    /// The platform's config file path (`heat.toml` in the config dir).
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "heat").map(|d| d.config_dir().join("heat.toml"))
    }

    /// Layers defaults, the file, the environment and flags. `file` is the
    /// file to read (a missing default file is fine; a missing file the
    /// user named is an error); `env` looks up environment variables.
    pub fn load(
        file: Option<(&Path, bool)>,
        env: &dyn Fn(&str) -> Option<String>,
        flags: &[FlagValue],
    ) -> anyhow::Result<Self> {
        let specs = keys::all();
        let mut entries = defaults(&specs)?;
        let mut consulted = None;
        if let Some((path, named_by_user)) = file {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    entries.extend(parse_file(&text, &Source::File(path.to_path_buf()), &specs)?);
                    consulted = Some((path.to_path_buf(), true));
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !named_by_user => {
                    consulted = Some((path.to_path_buf(), false));
                }
                Err(e) => bail!("could not read the config file {}: {e}", path.display()),
            }
        }
        for spec in &specs {
            let Some(var) = spec.env else { continue };
            let Some(raw) = env(var).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            let value =
                parse_text(spec, raw.trim()).with_context(|| format!("the environment variable {var} is invalid"))?;
            entries.insert(spec.key.clone(), Entry { value, source: Source::Env(var) });
        }
        for flag in flags {
            let spec = specs
                .iter()
                .find(|s| s.key == flag.key)
                .with_context(|| format!("{} sets an unknown key {}", flag.flag, flag.key))?;
            let value = parse_text(spec, &flag.raw).with_context(|| format!("{} is invalid", flag.flag))?;
            entries.insert(flag.key.clone(), Entry { value, source: Source::Flag(flag.flag.clone()) });
        }
        Ok(Self { entries, file: consulted, before_format: None })
    }

    /// The defaults overlaid with `text` read as the file at `path`, without
    /// touching the disk or the environment (what `load` makes of a file).
    pub fn from_file_text(text: &str, path: &Path) -> anyhow::Result<Self> {
        let specs = keys::all();
        let mut entries = defaults(&specs)?;
        entries.extend(parse_file(text, &Source::File(path.to_path_buf()), &specs)?);
        Ok(Self { entries, file: Some((path.to_path_buf(), true)), before_format: None })
    }

    /// This config without any format's settings laid over it.
    pub fn without_format(&self) -> &Config {
        self.before_format.as_deref().unwrap_or(self)
    }

    /// `settings` laid over this config as a format's (from `source`),
    /// remembering the config they were laid over. A config already laid
    /// over starts again from what it was before.
    #[must_use]
    pub fn with_format_settings(&self, settings: &studio::Settings, source: &Source) -> Config {
        let base = self.without_format().clone();
        let mut config = base.with_settings(settings, source, false);
        config.before_format = Some(Box::new(base));
        config
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Where `key`'s value was set, as an error names it: the file and line
    /// (`heat.toml line 4`), the environment variable or the flag.
    pub fn place(&self, key: &str) -> String {
        match self.get(key).map(|e| &e.source) {
            Some(Source::File(path) | Source::Studio(path)) => {
                let line = std::fs::read_to_string(path).ok().and_then(|text| line_of(&text, key));
                format!("{}{}", path.display(), line.map(|l| format!(" line {l}")).unwrap_or_default())
            }
            Some(Source::Env(var)) => format!("the environment variable {var}"),
            Some(Source::Flag(flag)) => flag.clone(),
            Some(Source::Format(name)) => format!("the format {name}"),
            Some(Source::Default) | None => "the built-in defaults".into(),
        }
    }

    /// A whole-number key (all have defaults or are optional).
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.get(key)?.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn float(&self, key: &str) -> Option<f64> {
        match self.get(key)?.value {
            Value::Float(x) => Some(x),
            Value::Int(i) => Some(i as f64),
            Value::Text(_) | Value::Flag(_) => None,
        }
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)?.value {
            Value::Flag(b) => Some(b),
            _ => None,
        }
    }

    /// A text key; empty text counts as unset.
    pub fn text(&self, key: &str) -> Option<&str> {
        match &self.get(key)?.value {
            Value::Text(s) if !s.trim().is_empty() => Some(s.trim()),
            _ => None,
        }
    }

    /// A role's value: `roles.<role>.<leaf>` if set, else `roles.<leaf>`.
    pub fn role_entry(&self, role: Role, leaf: &str) -> Option<&Entry> {
        let specific = self.get(&format!("roles.{}.{leaf}", role.key()));
        let set = |e: &&Entry| !matches!(&e.value, Value::Text(s) if s.trim().is_empty());
        specific.filter(set).or_else(|| self.get(&format!("roles.{leaf}")).filter(set))
    }

    pub fn role_text(&self, role: Role, leaf: &str) -> Option<&str> {
        match &self.role_entry(role, leaf)?.value {
            Value::Text(s) => Some(s.trim()),
            _ => None,
        }
    }

    pub fn role_int(&self, role: Role, leaf: &str) -> Option<i64> {
        match self.role_entry(role, leaf)?.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn role_float(&self, role: Role, leaf: &str) -> Option<f64> {
        match self.role_entry(role, leaf)?.value {
            Value::Float(x) => Some(x),
            _ => None,
        }
    }

    /// `key`'s value in force, or its built-in default when it is unset
    /// (empty text) or does not fit `T`: an answer for every key the
    /// default file sets, so callers repeat no default.
    pub fn defaulted<'a, T: FromValue<'a>>(&'a self, key: &str) -> T {
        self.get(key).and_then(|e| T::from_value(&e.value)).unwrap_or_else(|| fallback(key))
    }

    /// A role's value (`roles.<role>.<leaf>`, else `roles.<leaf>`), or the
    /// built-in default of `roles.<leaf>`.
    pub fn role_defaulted<'a, T: FromValue<'a>>(&'a self, role: Role, leaf: &str) -> T {
        self.role_entry(role, leaf)
            .and_then(|e| T::from_value(&e.value))
            .unwrap_or_else(|| fallback(&format!("roles.{leaf}")))
    }

    /// A role's prices (`roles.price_input`, `price_output`, `price_cached_input`),
    /// when both the input and output prices are set.
    pub fn price(&self, role: Role) -> Option<crate::debate::cost::Price> {
        let (input, output) = self.role_float(role, "price_input").zip(self.role_float(role, "price_output"))?;
        Some(crate::debate::cost::Price { input, output, cached_input: self.role_float(role, "price_cached_input") })
    }

    /// The prices of a panel's judges 2 to 5 that have their own
    /// (`roles.judge2.price_input` and `price_output`, and
    /// `price_cached_input`).
    pub fn panel_judge_prices(&self) -> Vec<(u32, crate::debate::cost::Price)> {
        let float =
            |judge: u32, leaf: &str| match self.get(&format!("roles.{}.{leaf}", keys::panel_judge_key(judge)))?.value {
                Value::Float(x) => Some(x),
                _ => None,
            };
        keys::PANEL_JUDGES
            .filter_map(|judge| {
                let (input, output) = float(judge, "price_input").zip(float(judge, "price_output"))?;
                let cached_input = float(judge, "price_cached_input");
                Some((judge, crate::debate::cost::Price { input, output, cached_input }))
            })
            .collect()
    }

    /// Every price configured: each seat's and each panel judge's own.
    pub fn prices(&self) -> crate::debate::cost::Prices {
        crate::debate::cost::Prices {
            seats: Role::ALL.iter().filter_map(|&role| Some((role, self.price(role)?))).collect(),
            judges: self.panel_judge_prices(),
        }
    }

    /// Every set key as `key = value  # source`, secrets redacted.
    pub fn show(&self) -> Vec<(String, String, String)> {
        keys::all()
            .iter()
            .filter_map(|spec| {
                let entry = self.get(&spec.key)?;
                let shown = if spec.secret { "<redacted>".to_string() } else { entry.value.to_string() };
                Some((spec.key.clone(), shown, entry.source.to_string()))
            })
            .collect()
    }
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
            Value::Text(_) | Value::Flag(_) => None,
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

/// `key`'s built-in default, from the default file. A key the file does not
/// set reads as zero, empty or false: a test checks that every key read
/// with [`Config::defaulted`] is in the file.
pub fn built_in<T: FromValue<'static>>(key: &str) -> T {
    fallback(key)
}

/// As [`built_in`], for a value read alongside a config's own.
fn fallback<'a, T: FromValue<'a>>(key: &str) -> T {
    let value: Option<&'a Value> = built_in_value(key);
    value.and_then(|v| T::from_value(v)).unwrap_or_default()
}

/// `key`'s value in the default file, if it sets one.
pub fn built_in_value(key: &str) -> Option<&'static Value> {
    BUILT_IN.get(key)
}

fn defaults(specs: &[KeySpec]) -> anyhow::Result<BTreeMap<String, Entry>> {
    parse_file(DEFAULT_FILE, &Source::Default, specs).context("the built-in default configuration is invalid")
}

fn parse_file(text: &str, source: &Source, specs: &[KeySpec]) -> anyhow::Result<BTreeMap<String, Entry>> {
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
        let Some(spec) = specs.iter().find(|s| s.key == key) else {
            bail!("{at}: unknown key `{key}` (see `heat config init` for every key)");
        };
        let value = from_toml(spec, &value).with_context(|| at.clone())?;
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

/// The line (1-based) where `key` is assigned, tracking `[section]` headers.
fn line_of(text: &str, key: &str) -> Option<usize> {
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

fn from_toml(spec: &KeySpec, value: &toml::Value) -> anyhow::Result<Value> {
    let parsed = match (spec.kind, value) {
        (Kind::Int { .. }, toml::Value::Integer(i)) => Some(Value::Int(*i)),
        (Kind::Float { .. }, toml::Value::Float(x)) => Some(Value::Float(*x)),
        (Kind::Float { .. }, toml::Value::Integer(i)) => Some(Value::Float(*i as f64)),
        (Kind::Text | Kind::Provider | Kind::OneOf(_), toml::Value::String(s)) => Some(Value::Text(s.clone())),
        (Kind::Flag, toml::Value::Boolean(b)) => Some(Value::Flag(*b)),
        _ => None,
    };
    let shown = value.to_string();
    let value = parsed.ok_or_else(|| mismatch(spec, &shown))?;
    check_range(spec, value, &shown)
}

fn parse_text(spec: &KeySpec, raw: &str) -> anyhow::Result<Value> {
    let parsed = match spec.kind {
        Kind::Int { .. } => raw.parse().ok().map(Value::Int),
        Kind::Float { .. } => raw.parse().ok().map(Value::Float),
        Kind::Text | Kind::Provider | Kind::OneOf(_) => Some(Value::Text(raw.to_string())),
        Kind::Flag => match raw.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Some(Value::Flag(true)),
            "false" | "0" | "no" | "off" => Some(Value::Flag(false)),
            _ => None,
        },
    };
    let shown = if spec.secret { "<redacted>".to_string() } else { format!("{raw:?}") };
    let value = parsed.ok_or_else(|| mismatch(spec, &shown))?;
    check_range(spec, value, &shown)
}

fn check_range(spec: &KeySpec, value: Value, shown: &str) -> anyhow::Result<Value> {
    let ok = match (&spec.kind, &value) {
        (Kind::Int { min, max }, Value::Int(i)) => (min..=max).contains(&i),
        (Kind::Float { min, max }, Value::Float(x)) => x.is_finite() && (min..=max).contains(&x),
        (Kind::Provider, Value::Text(s)) => keys::PROVIDERS.contains(&s.trim()),
        (Kind::OneOf(names), Value::Text(s)) => names.contains(&s.trim()),
        _ => true,
    };
    if ok { Ok(value) } else { Err(mismatch(spec, shown)) }
}

fn mismatch(spec: &KeySpec, shown: &str) -> anyhow::Error {
    anyhow::anyhow!("`{}` must be {}, got {shown}", spec.key, keys::expectation(spec.kind))
}

#[cfg(test)]
mod tests;
