//! The studio's remembered settings: `studio.toml` in the data dir holds
//! what a person chose on the start screen (rounds, first heat, each role's
//! provider and model, the document, the format) where it differs from heat.toml, checked like the
//! config, and layered over it the next time the start screen opens. It
//! holds those keys and nothing else: never an API key.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::keys;
use super::parse::{parse_file, parse_text};
use super::value::{Source, Value};

/// The file's name in the data dir.
pub const FILE: &str = "studio.toml";

/// The keys the start screen sets, in the order its form shows them.
pub const KEYS: [&str; FIELDS] = [
    "debate.max_rounds",
    "debate.initial_heat",
    "roles.advocate.provider",
    "roles.advocate.model",
    "roles.skeptic.provider",
    "roles.skeptic.model",
    "roles.judge.provider",
    "roles.judge.model",
    "debate.source",
    "debate.format",
];

/// How many settings the start screen's form holds.
pub const FIELDS: usize = 10;

/// Settings as checked values, keyed by config key.
pub type Settings = Vec<(String, Value)>;

/// Where the file lives.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

/// Checks `raw` as the config checks `key` (its kind and range); the error
/// names the key and says what it takes.
pub fn check(key: &str, raw: &str) -> anyhow::Result<Value> {
    let specs = keys::all();
    let spec = keys::find(&specs, key).with_context(|| format!("unknown key `{key}`"))?;
    let value = parse_text(spec, raw.trim())?;
    // The config takes a name an endpoint might have, and checks it once heat.toml is read; here it is read.
    if spec.kind == keys::Kind::Provider && !keys::providers().contains(&raw.trim()) {
        anyhow::bail!("`{key}` must be {}, got {:?}", keys::expectation(spec.kind), raw.trim());
    }
    Ok(value)
}

/// The remembered settings; none when the file is missing. A key the start
/// screen does not set is refused, with the file and line.
pub fn read(path: &Path) -> anyhow::Result<Settings> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("could not read {}", path.display())),
    };
    let specs: Vec<_> = keys::all().into_iter().filter(|s| KEYS.contains(&s.key.as_str())).collect();
    let entries = parse_file(&text, &Source::Studio(path.to_path_buf()), &specs)?;
    Ok(KEYS.iter().filter_map(|k| entries.get(*k).map(|e| ((*k).to_string(), e.value.clone()))).collect())
}

/// Replaces the file with `settings` (atomically: a reader sees the old
/// file or the new one); no settings leave no file.
pub fn write(path: &Path, settings: &Settings) -> anyhow::Result<()> {
    if settings.is_empty() {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("could not remove {}", path.display()))
            }
            _ => Ok(()),
        };
    }
    let mut table = toml::Table::new();
    for (key, value) in settings {
        let value = match value {
            Value::Int(i) => toml::Value::Integer(*i),
            Value::Float(x) => toml::Value::Float(*x),
            Value::Text(s) => toml::Value::String(s.clone()),
            Value::Flag(b) => toml::Value::Boolean(*b),
            Value::Words(words) => toml::Value::Array(words.iter().cloned().map(toml::Value::String).collect()),
        };
        insert(&mut table, key, value);
    }
    let text = format!(
        "# What the studio's start screen was set to (F2), where it differs from heat.toml.\n\
         # heat writes this file; delete it to go back to heat.toml's settings.\n\n{}",
        toml::to_string(&table).context("could not write the studio's settings")?
    );
    let dir = path.parent().context("the settings file has no directory")?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).context("could not write the studio's settings")?;
    tmp.write_all(text.as_bytes()).context("could not write the studio's settings")?;
    tmp.persist(path).with_context(|| format!("could not replace {}", path.display()))?;
    Ok(())
}

fn insert(table: &mut toml::Table, key: &str, value: toml::Value) {
    match key.split_once('.') {
        Some((head, rest)) => {
            let inner = table.entry(head).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if let toml::Value::Table(inner) = inner {
                insert(inner, rest, value);
            }
        }
        None => {
            table.insert(key.to_string(), value);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::config::Config;

    #[test]
    fn settings_round_trip_through_the_file_and_hold_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        assert!(read(&file).unwrap().is_empty(), "no file: nothing remembered");
        let settings = vec![
            ("debate.max_rounds".to_string(), check("debate.max_rounds", "2").unwrap()),
            ("debate.initial_heat".to_string(), check("debate.initial_heat", "0.55").unwrap()),
            ("roles.judge.provider".to_string(), check("roles.judge.provider", "anthropic").unwrap()),
        ];
        write(&file, &settings).unwrap();
        assert_eq!(read(&file).unwrap(), settings);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("[roles.judge]") && text.contains("max_rounds = 2"), "{text}");
        write(&file, &Vec::new()).unwrap();
        assert!(!file.exists(), "nothing to remember: no file");

        std::fs::write(&file, "[providers.anthropic]\napi_key = \"sk-ant\"\n").unwrap();
        let err = format!("{:#}", read(&file).unwrap_err());
        assert!(err.contains("line 2") && err.contains("unknown key `providers.anthropic.api_key`"), "{err}");
    }

    #[test]
    fn values_are_checked_as_the_config_checks_them() {
        let err = check("debate.max_rounds", "0").unwrap_err().to_string();
        assert_eq!(err, "`debate.max_rounds` must be a whole number from 1 to 100, got \"0\"");
        let err = check("debate.initial_heat", "hot").unwrap_err().to_string();
        assert!(err.contains("a number from 0.3 to 1"), "{err}");
        assert!(check("roles.skeptic.provider", "bard").unwrap_err().to_string().contains("\"anthropic\""));
        assert_eq!(check("roles.skeptic.model", " gpt-4.1 ").unwrap(), Value::Text("gpt-4.1".into()));
    }

    #[test]
    fn layered_settings_win_except_over_flags_when_flags_win() {
        let flags =
            [super::super::FlagValue { key: "debate.max_rounds".into(), raw: "3".into(), flag: "--max-rounds".into() }];
        let base = Config::load(None, &|_| None, &flags).unwrap();
        let settings = vec![
            ("debate.max_rounds".to_string(), Value::Int(7)),
            ("roles.judge.model".to_string(), Value::Text("claude-sonnet-4-5".into())),
        ];
        let source = Source::Studio(PathBuf::from("studio.toml"));
        let at_start = base.with_settings(&settings, &source, true);
        assert_eq!(at_start.int("debate.max_rounds"), Some(3), "a flag given now wins over what was remembered");
        assert_eq!(at_start.setting_text("roles.judge.model"), "claude-sonnet-4-5");
        assert_eq!(at_start.setting_text("roles.advocate.model"), "");
        assert_eq!(at_start.setting_text("roles.advocate.provider"), "auto");
        assert_eq!(at_start.setting_text("debate.initial_heat"), "0.90");
        let chosen = base.with_settings(&settings, &source, false);
        assert_eq!(chosen.int("debate.max_rounds"), Some(7), "what is chosen on the start screen wins");
    }
}
