//! Configuration: the embedded default file, the user's `heat.toml`, the
//! environment and command-line flags, layered in that order. Every value
//! remembers where it came from, for `heat config show` and for errors.

mod endpoints;
pub mod keys;
mod parse;
pub mod studio;
mod value;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::debate::{PanelJudge, Role};
pub use parse::{DEFAULT_FILE, built_in, built_in_value};
use parse::{defaults, fallback, parse_file, parse_text};

/// A path from heat.toml, a leading `~/` read as the home folder.
pub fn home_path(raw: &str) -> PathBuf {
    match (raw.strip_prefix("~/"), directories::BaseDirs::new()) {
        (Some(rest), Some(dirs)) => dirs.home_dir().join(rest),
        _ => PathBuf::from(raw),
    }
}
pub use value::{Entry, FlagValue, FromValue, Source, Value};

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
            let spec = keys::find(&specs, &flag.key)
                .with_context(|| format!("{} sets an unknown key {}", flag.flag, flag.key))?;
            let value = parse_text(spec, &flag.raw).with_context(|| format!("{} is invalid", flag.flag))?;
            entries.insert(flag.key.clone(), Entry { value, source: Source::Flag(flag.flag.clone()) });
        }
        endpoints::define(&mut entries, env)?;
        Ok(Self { entries, file: consulted, before_format: None })
    }

    /// The defaults overlaid with `text` read as the file at `path`, without
    /// touching the disk or the environment (what `load` makes of a file).
    pub fn from_file_text(text: &str, path: &Path) -> anyhow::Result<Self> {
        let specs = keys::all();
        let mut entries = defaults(&specs)?;
        entries.extend(parse_file(text, &Source::File(path.to_path_buf()), &specs)?);
        endpoints::define(&mut entries, &|_| None)?;
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
        parse::place(self.get(key), key)
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
            Value::Text(_) | Value::Flag(_) | Value::Words(_) => None,
        }
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)?.value {
            Value::Flag(b) => Some(b),
            _ => None,
        }
    }

    /// A list key (a command and its arguments); an empty list counts as unset.
    pub fn words(&self, key: &str) -> Option<&[String]> {
        match &self.get(key)?.value {
            Value::Words(words) if !words.is_empty() => Some(words),
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
    /// Else the prices of the endpoint the role names
    /// (`providers.NAME.price_input` and `price_output`).
    pub fn price(&self, role: Role) -> Option<crate::debate::cost::Price> {
        let own = self.role_float(role, "price_input").zip(self.role_float(role, "price_output"));
        if let Some((input, output)) = own {
            let cached_input = self.role_float(role, "price_cached_input");
            return Some(crate::debate::cost::Price { input, output, cached_input });
        }
        let endpoint = self.role_text(role, "provider").filter(|p| *p != "auto")?;
        let float = |leaf: &str| self.float(&format!("providers.{endpoint}.{leaf}"));
        let (input, output) = float("price_input").zip(float("price_output"))?;
        Some(crate::debate::cost::Price { input, output, cached_input: float("price_cached_input") })
    }

    /// The prices of a panel's judges 2 to 5 that have their own
    /// (`roles.judge2.price_input` and `price_output`, and
    /// `price_cached_input`).
    pub fn panel_judge_prices(&self) -> Vec<(PanelJudge, crate::debate::cost::Price)> {
        let float = |judge: PanelJudge, leaf: &str| match self.get(&format!("roles.{}.{leaf}", judge.key()))?.value {
            Value::Float(x) => Some(x),
            _ => None,
        };
        PanelJudge::members(PanelJudge::MOST)
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
        let mut shown: Vec<(String, String, String)> = Vec::new();
        for spec in keys::all() {
            // A key a named spec and a table's both match shows once, as the named one has it.
            let fresh = |key: &String| !shown.iter().any(|(k, _, _)| k == key);
            let matched: Vec<_> = self.entries.iter().filter(|(key, _)| spec.names(key) && fresh(key)).collect();
            for (key, entry) in matched {
                let value = if spec.secret { "<redacted>".to_string() } else { entry.value.to_string() };
                shown.push((key.clone(), value, entry.source.to_string()));
            }
        }
        shown
    }

    /// The keys set under `table` (`keys`): their names below it.
    pub fn names_under<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries.keys().filter_map(move |key| key.strip_prefix(table)?.strip_prefix('.'))
    }

    /// This config with `settings` layered over it from `source`; with
    /// `flags_win`, a key a command-line flag set keeps the flag's value.
    #[must_use]
    pub fn with_settings(&self, settings: &studio::Settings, source: &Source, flags_win: bool) -> Config {
        let mut config = self.clone();
        for (key, value) in settings {
            let flagged = matches!(config.get(key).map(|e| &e.source), Some(Source::Flag(_)));
            if flags_win && flagged {
                continue;
            }
            config.entries.insert(key.clone(), Entry { value: value.clone(), source: source.clone() });
        }
        // What a format's settings were laid over takes these settings too.
        config.before_format =
            self.before_format.as_ref().map(|b| Box::new(b.with_settings(settings, source, flags_win)));
        config
    }

    /// What the start screen shows for `key`: its value in force as text
    /// (a role's model: the one configured, empty for the provider's
    /// default).
    pub fn setting_text(&self, key: &str) -> String {
        let role = crate::debate::Role::ALL.into_iter().find(|r| key.starts_with(&format!("roles.{}.", r.key())));
        let value = match role {
            Some(role) => {
                let leaf = key.rsplit('.').next().unwrap_or_default();
                let value = self.role_entry(role, leaf).map(|e| &e.value);
                value.or_else(|| built_in_value(&format!("roles.{leaf}")))
            }
            None => self.get(key).map(|e| &e.value),
        };
        match value {
            Some(Value::Text(s)) => s.trim().to_string(),
            Some(Value::Float(x)) => format!("{x:.2}"),
            Some(other) => other.to_string(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests;
