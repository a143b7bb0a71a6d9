//! How one agent CLI is run (its command, dialect, environment and the flag
//! that names a model) and the failures it can end in, each said in one
//! sentence.

use std::time::Duration;

use super::dialect::{Dialect, excerpt};
use crate::provider::error::{AgentFailure, ProviderError};

/// The model an agent seat records when none is named: the CLI's own
/// default, passed to it as no model at all.
pub const CLI_DEFAULT: &str = "default";

/// How a CLI is held to a JSON schema (the judge's verdict), where it can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaArg {
    /// The schema itself follows this flag (Claude Code's `--json-schema`).
    Inline(&'static str),
    /// A file holding it follows this flag (Codex's `--output-schema`).
    File(&'static str),
}

/// One agent CLI as heat runs it for a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    /// Its provider's name (`claude`, or a heat.toml block's).
    pub name: &'static str,
    /// What a person calls it (`Claude Code`).
    pub title: String,
    /// The program and every argument, flags that keep its tools off
    /// included; never the prompt.
    pub command: Vec<String>,
    pub dialect: Dialect,
    /// Variables set for it besides heat's environment; `{workdir}` in a
    /// value is the turn's working directory.
    pub env: Vec<(String, String)>,
    /// Files written into the turn's working directory first, by their
    /// path there: (path, contents).
    pub files: Vec<(String, String)>,
    /// The flag a model's name follows (`--model`), where it takes one.
    pub model_arg: Option<String>,
    /// How it is held to a schema; `None`: the schema rides in the prompt alone.
    pub schema_arg: Option<SchemaArg>,
    /// How to install it, for the sentence when it is not there.
    pub install: Option<String>,
    /// How to log in, for the sentence when it is not logged in.
    pub login: Option<String>,
    /// A command that says whether it is logged in (exit 0: it is), where
    /// it has one and it reaches its model as the preset does.
    pub login_check: Option<Vec<String>>,
    /// The folder it may read (`tools = "read"`); `None`: its tools are off.
    pub reads: Option<String>,
    /// How long it may take to write anything at all.
    pub first_byte: Duration,
    /// How long it may go quiet once it has begun.
    pub idle: Duration,
}

impl AgentSpec {
    /// The program it runs (the command's first word).
    pub fn program(&self) -> &str {
        self.command.first().map_or("", String::as_str)
    }

    /// The whole command for a turn on `model` (empty or [`CLI_DEFAULT`]:
    /// the CLI's own default).
    pub fn argv(&self, model: &str) -> Vec<String> {
        let mut argv = self.command.clone();
        if let Some(flag) = &self.model_arg
            && !model.trim().is_empty()
            && model.trim() != CLI_DEFAULT
        {
            argv.extend([flag.clone(), model.trim().to_string()]);
        }
        argv
    }

    /// The error for a program that is not installed.
    pub fn not_installed(&self) -> ProviderError {
        ProviderError::Agent {
            failure: AgentFailure::NotInstalled { install: self.install.clone() },
            message: format!("{} ({}) is not installed or not on the PATH", self.title, self.program()),
        }
    }

    /// The error for what the CLI said when it failed, or, where it said
    /// nothing, the first line of its standard error and its exit status.
    pub fn failed(&self, said: Option<&str>, stderr: &str, exit: Option<i32>) -> ProviderError {
        let first_line = first_error_line(stderr).map(excerpt);
        let said = said.map(readable).map(|s| excerpt(&s)).filter(|s| !s.is_empty());
        let words = said.clone().or(first_line.clone()).unwrap_or_default();
        if looks_logged_out(&words) || first_line.as_deref().is_some_and(looks_logged_out) {
            let words = said.or(first_line).unwrap_or_default();
            return ProviderError::Agent {
                failure: AgentFailure::NotLoggedIn { login: self.login.clone() },
                message: format!("{} is not logged in: {words}", self.title),
            };
        }
        let status = match exit {
            Some(0) | None if said.is_some() => String::new(),
            Some(code) => format!(" (exit status {code})"),
            None => " (ended by a signal)".to_string(),
        };
        let message = if words.is_empty() {
            format!("{} failed{status} without saying why", self.title)
        } else {
            format!("{} failed{status}: {words}", self.title)
        };
        ProviderError::Agent { failure: AgentFailure::Exited, message }
    }
}

/// The line of a CLI's standard error that says what went wrong: the first
/// that names an error, else the first (a CLI's warnings come before it).
fn first_error_line(stderr: &str) -> Option<&str> {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    lines().find(|l| l.to_lowercase().contains("error")).or_else(|| lines().next())
}

/// A CLI's error as a person reads it: where it wraps an API's JSON error,
/// the message inside (`[API Error: {"error":{"message":"…"}}]`).
fn readable(said: &str) -> String {
    let inner = said.find('{').and_then(|at| {
        let value = serde_json::Deserializer::from_str(&said[at..]).into_iter::<serde_json::Value>().next()?.ok()?;
        let message = value["error"]["message"].as_str().or(value["message"].as_str())?;
        Some(message.to_string())
    });
    inner.unwrap_or_else(|| said.to_string())
}

/// Whether a CLI's words say it has no credentials.
fn looks_logged_out(words: &str) -> bool {
    let lower = words.to_lowercase();
    [
        "/login",
        "not logged in",
        "log in",
        "login required",
        "invalid api key",
        "incorrect api key",
        "401 unauthorized",
        "no api key",
        "api key not",
        "auth method",
    ]
    .iter()
    .any(|sign| lower.contains(sign))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> AgentSpec {
        AgentSpec {
            name: "claude",
            title: "Claude Code".into(),
            command: vec!["claude".into(), "-p".into()],
            dialect: Dialect::Claude,
            env: Vec::new(),
            files: Vec::new(),
            model_arg: Some("--model".into()),
            schema_arg: None,
            install: Some("npm install -g @anthropic-ai/claude-code".into()),
            login: Some("run `claude` once in a terminal and log in".into()),
            login_check: None,
            reads: None,
            first_byte: Duration::from_secs(60),
            idle: Duration::from_secs(60),
        }
    }

    #[test]
    fn a_model_follows_its_flag_and_the_prompt_is_never_an_argument() {
        assert_eq!(claude().argv("sonnet"), ["claude", "-p", "--model", "sonnet"]);
        assert_eq!(claude().argv(" "), ["claude", "-p"], "no model: the CLI's own");
        assert_eq!(claude().argv(CLI_DEFAULT), ["claude", "-p"]);
        let mut text = claude();
        text.model_arg = None;
        assert_eq!(text.argv("sonnet"), ["claude", "-p"], "a command without a model flag takes none");
    }

    #[test]
    fn each_failure_is_one_sentence_that_names_its_cause() {
        let spec = claude();
        let logged_out = spec.failed(Some("Invalid API key · Please run /login"), "", Some(1));
        assert!(matches!(logged_out, ProviderError::Agent { failure: AgentFailure::NotLoggedIn { .. }, .. }));
        assert_eq!(logged_out.to_string(), "Claude Code is not logged in: Invalid API key · Please run /login");
        let exited = spec.failed(None, "\n  Error: \x1b[31mboom\x1b[0m at line 3\nstack…\n", Some(2));
        assert_eq!(exited.to_string(), "Claude Code failed (exit status 2): Error: boom at line 3");
        assert!(exited.is_retryable(), "a CLI that failed may heal");
        assert_eq!(
            spec.failed(None, "", None).to_string(),
            "Claude Code failed (ended by a signal) without saying why"
        );
        let warned = "Warning: 256-color support not detected.\nError when talking to the API: socket hang up\n";
        assert_eq!(
            spec.failed(None, warned, Some(1)).to_string(),
            "Claude Code failed (exit status 1): Error when talking to the API: socket hang up",
            "a warning before the error is not the error"
        );
        let wrapped = r#"[API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]"#;
        assert_eq!(
            spec.failed(Some(wrapped), "", Some(144)).to_string(),
            "Claude Code is not logged in: API key not valid. Please pass a valid API key."
        );
        let missing = spec.not_installed();
        assert!(!missing.is_retryable());
        assert_eq!(
            missing.sentence("claude"),
            "Claude Code (claude) is not installed or not on the PATH (install it: npm install -g @anthropic-ai/claude-code)"
        );
    }
}
