//! What `heat mcp` allows an agent (heat.toml's `[mcp_server]`): the
//! folders its debaters may read, how many debates run at once, and what
//! one server run may spend; each refusal one sentence the client sees.

use std::path::PathBuf;

use crate::config::Config;

/// Debates at once when heat.toml sets none.
pub const DEBATES_AT_ONCE: usize = 2;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    /// The folders (or files) sources may lie under, resolved; none: no source is read.
    pub sources: Vec<PathBuf>,
    pub debates_at_once: usize,
    pub budget_tokens: Option<u64>,
    pub budget_usd: Option<f64>,
}

/// What the server's debates have spent so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    pub tokens: u64,
    pub usd: f64,
}

impl Limits {
    /// The limits `config` sets; an allowed folder that does not exist is refused.
    pub fn of(config: &Config) -> anyhow::Result<Limits> {
        let mut sources = Vec::new();
        for raw in config.words("mcp_server.sources").unwrap_or_default() {
            let path = crate::config::home_path(raw.trim());
            let resolved = std::fs::canonicalize(&path).map_err(|e| {
                anyhow::anyhow!("mcp_server.sources names {}, which cannot be read: {e}", path.display())
            })?;
            sources.push(resolved);
        }
        let at_once = config.int("mcp_server.max_debates").map_or(DEBATES_AT_ONCE, |n| usize::try_from(n).unwrap_or(1));
        Ok(Limits {
            sources,
            debates_at_once: at_once,
            budget_tokens: config.int("mcp_server.budget_tokens").and_then(|n| u64::try_from(n).ok()),
            budget_usd: config.float("mcp_server.budget_usd"),
        })
    }

    /// `asked`, each resolved and found under an allowed folder, or the
    /// sentence that refuses the first that is not.
    pub fn sources(&self, asked: &[String]) -> Result<Vec<String>, String> {
        if asked.is_empty() {
            return Ok(Vec::new());
        }
        if self.sources.is_empty() {
            return Err("heat mcp reads no sources unless heat.toml allows them: set `sources = [\"~/notes\"]` under [mcp_server]".into());
        }
        asked
            .iter()
            .map(|raw| {
                let shown = crate::sanitize::one_line(raw);
                let path = std::fs::canonicalize(crate::config::home_path(raw.trim()))
                    .map_err(|e| format!("the source {shown} cannot be read: {e}"))?;
                if self.sources.iter().any(|allowed| path.starts_with(allowed)) {
                    Ok(path.to_string_lossy().into_owned())
                } else {
                    Err(format!("the source {shown} is outside the folders heat mcp may read ({})", self.allowed()))
                }
            })
            .collect()
    }

    fn allowed(&self) -> String {
        self.sources.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    }

    /// Why another debate may not start now: `running` at once already, or
    /// the run's budget spent.
    pub fn refuses_start(&self, running: usize, spent: Spent) -> Option<String> {
        if running >= self.debates_at_once {
            return Some(format!(
                "{} already run{} (mcp_server.max_debates is {}); wait for one to end, or stop one",
                crate::words::count(running, "debate"),
                if running == 1 { "s" } else { "" },
                self.debates_at_once
            ));
        }
        self.over_budget(spent)
    }

    /// The budget this run has reached, in words, if it has.
    pub fn over_budget(&self, spent: Spent) -> Option<String> {
        if let Some(limit) = self.budget_tokens.filter(|limit| spent.tokens >= *limit) {
            return Some(format!(
                "this heat mcp has spent {} of its {} tokens (mcp_server.budget_tokens)",
                spent.tokens, limit
            ));
        }
        let limit = self.budget_usd.filter(|limit| spent.usd >= *limit)?;
        Some(format!("this heat mcp has spent ${:.2} of its ${limit:.2} (mcp_server.budget_usd)", spent.usd))
    }

    /// What one more debate may spend: what the run has left.
    pub fn left(&self, spent: Spent) -> (Option<u64>, Option<f64>) {
        (
            self.budget_tokens.map(|limit| limit.saturating_sub(spent.tokens)),
            self.budget_usd.map(|limit| (limit - spent.usd).max(0.0)),
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::path::Path;

    fn limits(dir: &Path) -> Limits {
        Limits { sources: vec![dir.canonicalize().unwrap()], debates_at_once: 2, ..Limits::default() }
    }

    #[test]
    fn a_source_outside_the_allowed_folders_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let allowed = root.path().join("notes");
        std::fs::create_dir_all(&allowed).unwrap();
        std::fs::write(allowed.join("a.md"), "# A\n").unwrap();
        std::fs::write(root.path().join("secret.txt"), "key").unwrap();
        let limits = limits(&allowed);
        let inside = allowed.join("a.md").to_string_lossy().into_owned();
        assert_eq!(limits.sources(std::slice::from_ref(&inside)).unwrap().len(), 1);
        // A way out through `..` is resolved before it is judged.
        let sneaky = allowed.join("../secret.txt").to_string_lossy().into_owned();
        let why = limits.sources(&[sneaky]).unwrap_err();
        assert!(why.contains("is outside the folders heat mcp may read"), "{why}");
        let none = Limits::default().sources(&[inside]).unwrap_err();
        assert!(none.starts_with("heat mcp reads no sources unless heat.toml allows them"), "{none}");
    }

    #[test]
    fn debates_at_once_and_the_budget_refuse_a_start() {
        let limits = Limits { debates_at_once: 1, budget_tokens: Some(1_000), ..Limits::default() };
        let busy = limits.refuses_start(1, Spent::default()).unwrap();
        assert_eq!(busy, "1 debate already runs (mcp_server.max_debates is 1); wait for one to end, or stop one");
        let spent = limits.refuses_start(0, Spent { tokens: 1_200, usd: 0.0 }).unwrap();
        assert_eq!(spent, "this heat mcp has spent 1200 of its 1000 tokens (mcp_server.budget_tokens)");
        assert_eq!(limits.refuses_start(0, Spent { tokens: 999, usd: 0.0 }), None);
        assert_eq!(limits.left(Spent { tokens: 400, usd: 0.0 }), (Some(600), None));
    }
}
