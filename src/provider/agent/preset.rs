//! The agent CLIs heat seats by name: Claude Code (`claude`), OpenAI's
//! Codex CLI (`codex`) and Google's Gemini CLI (`gemini`): the program,
//! the flags that make each a debater rather than an agent at work (no
//! tools, no MCP servers of the user's, no saved session, no project
//! instructions, the prompt on standard input), the flag that names a
//! model, and how to install it and log in. docs/providers.md says why
//! each flag is there.

use super::dialect::Dialect;
use super::spec::SchemaArg;

/// One agent CLI heat knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Its provider's name (`--seat skeptic=claude`).
    pub name: &'static str,
    /// What a person calls it.
    pub title: &'static str,
    /// The program and the flags heat always passes.
    pub command: &'static [&'static str],
    pub dialect: Dialect,
    /// The flag a model's name follows.
    pub model_arg: &'static str,
    /// How it is held to the verdict's schema, where it can be.
    pub schema_arg: Option<SchemaArg>,
    /// Variables set for it: its own retries few (heat retries a turn
    /// itself), no self-update in the middle of a debate, settings files.
    pub env: &'static [(&'static str, &'static str)],
    /// Files written into the turn's working directory before it starts
    /// (a settings file, a policy), by their path there. A command's word
    /// or a variable's value may name the directory as `{workdir}`.
    pub files: &'static [(&'static str, &'static str)],
    /// Where it is installed from.
    pub install: &'static str,
    /// How a person logs it in.
    pub login: &'static str,
    /// A command that says whether it is logged in (exit 0: it is), where
    /// the CLI has one: `heat doctor` asks it before its probe.
    pub login_check: Option<&'static [&'static str]>,
}

/// The system prompt heat gives Claude Code in place of its own (a coding
/// agent's): the debate's own system prompt travels on standard input.
pub const CLAUDE_SYSTEM: &str = "You take one seat of a debate that heat runs. The whole brief and the debate so far \
     come as the user's message. Write only your turn, as plain text, in the form it asks for: no tools, no preamble.";

/// Gemini CLI's policy at the admin tier: every tool, built-in or MCP, is
/// refused, and the turn goes on.
const GEMINI_POLICY: &str = r#"# heat: deny every tool (built-in and MCP) at admin tier.
[[rule]]
toolName = "*"
decision = "deny"
priority = 999
denyMessage = "Tools are disabled in this debate."

[[rule]]
toolName = "*"
mcpName = "*"
decision = "deny"
priority = 999
denyMessage = "Tools are disabled in this debate."
"#;

/// Gemini CLI's policy for a seat that may read a folder: its read tools
/// allowed, every other tool refused.
const GEMINI_READ_POLICY: &str = r#"# heat: a debater may read, and do nothing else.
[[rule]]
toolName = ["read_file", "list_directory", "glob", "grep_search", "read_many_files"]
decision = "allow"
priority = 999

[[rule]]
toolName = "*"
decision = "deny"
priority = 998
denyMessage = "Only reading is allowed in this debate."

[[rule]]
toolName = "*"
mcpName = "*"
decision = "deny"
priority = 999
denyMessage = "Only reading is allowed in this debate."
"#;

/// Claude Code's tools that read and do nothing else.
const CLAUDE_READ_TOOLS: &str = "Read,Grep,Glob";

/// Claude Code, OpenAI's Codex CLI and Google's Gemini CLI.
pub const PRESETS: [Preset; 3] = [
    Preset {
        name: "claude",
        title: "Claude Code",
        command: &[
            "claude",
            "--print",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages",
            "--tools",
            "",
            "--strict-mcp-config",
            "--setting-sources",
            "",
            "--no-session-persistence",
            "--disable-slash-commands",
            "--permission-mode",
            "dontAsk",
            "--system-prompt",
            CLAUDE_SYSTEM,
        ],
        dialect: Dialect::Claude,
        model_arg: "--model",
        schema_arg: Some(SchemaArg::Inline("--json-schema")),
        env: &[("CLAUDE_CODE_MAX_RETRIES", "2"), ("DISABLE_AUTOUPDATER", "1")],
        files: &[],
        install: "npm install -g @anthropic-ai/claude-code",
        login: "run `claude` once in a terminal and log in (or set ANTHROPIC_API_KEY)",
        login_check: None,
    },
    Preset {
        name: "codex",
        title: "Codex CLI",
        command: &[
            "codex",
            "exec",
            "--json",
            "--color",
            "never",
            "--skip-git-repo-check",
            "--ephemeral",
            "--ignore-user-config",
            "--ignore-rules",
            "--sandbox",
            "read-only",
            "--config",
            "web_search=\"disabled\"",
            "--config",
            "tools.experimental_request_user_input.enabled=false",
            "--config",
            "project_doc_max_bytes=0",
            "--config",
            "analytics.enabled=false",
            "--config",
            "skills.include_instructions=false",
            "--config",
            "skills.bundled.enabled=false",
            "--disable",
            "shell_tool",
            "--disable",
            "unified_exec",
            "--disable",
            "view_image",
            "--disable",
            "goals",
            "--disable",
            "multi_agent",
            "--disable",
            "multi_agent_v2",
            "--disable",
            "image_generation",
            "--disable",
            "apps",
            "--disable",
            "plugins",
            "--disable",
            "tool_suggest",
            "--disable",
            "browser_use",
            "--disable",
            "computer_use",
            "--disable",
            "memories",
            "--disable",
            "hooks",
            "--disable",
            "code_mode",
        ],
        dialect: Dialect::Codex,
        model_arg: "--model",
        schema_arg: Some(SchemaArg::File("--output-schema")),
        env: &[],
        files: &[],
        install: "npm install -g @openai/codex",
        login: "run `codex login` in a terminal (or set OPENAI_API_KEY)",
        // Offline and logged out, `codex exec` waits on the network rather than say so.
        login_check: Some(&["codex", "login", "status"]),
    },
    Preset {
        name: "gemini",
        title: "Gemini CLI",
        command: &[
            "gemini",
            "--output-format",
            "stream-json",
            "--skip-trust",
            "--extensions",
            "none",
            "--allowed-mcp-server-names",
            "__heat_no_mcp__",
            "--admin-policy",
            "{workdir}/.heat/deny-all.toml",
        ],
        dialect: Dialect::Gemini,
        model_arg: "--model",
        schema_arg: None,
        env: &[],
        files: &[(".heat/deny-all.toml", GEMINI_POLICY)],
        install: "npm install -g @google/gemini-cli",
        login: "run `gemini` once in a terminal and log in (or set GEMINI_API_KEY)",
        login_check: None,
    },
];

/// The preset called `name`, if heat knows one.
pub fn named(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// Changes a preset's `command` and `files` so that its CLI may read the
/// folder `dir` (and nothing else it may do changes): Claude Code gets its
/// read tools, allowed without asking, and the folder; Codex its shell back,
/// still in its read-only sandbox, rooted in the folder; Gemini CLI a policy
/// that allows its read tools alone, and the folder.
pub fn reading(name: &str, command: &mut Vec<String>, files: &mut [(String, String)], dir: &str) {
    match name {
        "claude" => {
            if let Some(at) = command.iter().position(|w| w == "--tools")
                && let Some(value) = command.get_mut(at + 1)
            {
                *value = CLAUDE_READ_TOOLS.to_string();
            }
            command.extend(["--allowedTools", CLAUDE_READ_TOOLS, "--add-dir", dir].map(String::from));
        }
        "codex" => {
            let mut kept = Vec::with_capacity(command.len());
            let mut words = std::mem::take(command).into_iter().peekable();
            while let Some(word) = words.next() {
                let shell =
                    word == "--disable" && words.peek().is_some_and(|f| f == "shell_tool" || f == "unified_exec");
                if shell {
                    words.next();
                } else {
                    kept.push(word);
                }
            }
            kept.extend(["--cd", dir].map(String::from));
            *command = kept;
        }
        "gemini" => {
            for (path, contents) in files.iter_mut() {
                if path.ends_with("deny-all.toml") {
                    *contents = GEMINI_READ_POLICY.to_string();
                }
            }
            command.extend(["--include-directories", dir].map(String::from));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(preset: &Preset) -> Vec<String> {
        preset.command.iter().map(|w| (*w).to_string()).collect()
    }

    #[test]
    fn a_seat_that_may_read_gets_read_tools_and_the_folder_and_nothing_that_writes() {
        let claude = named("claude").expect("a preset");
        let mut command = words(claude);
        reading("claude", &mut command, &mut [], "/src/heat");
        let tools = command.iter().position(|w| w == "--tools").expect("--tools");
        assert_eq!(command[tools + 1], "Read,Grep,Glob");
        assert!(command.ends_with(&["--allowedTools", "Read,Grep,Glob", "--add-dir", "/src/heat"].map(String::from)));
        assert!(command.windows(2).any(|w| w == ["--permission-mode", "dontAsk"]), "anything else is refused");

        let codex = named("codex").expect("a preset");
        let mut command = words(codex);
        reading("codex", &mut command, &mut [], "/src/heat");
        assert!(!command.iter().any(|w| w == "shell_tool" || w == "unified_exec"), "{command:?}");
        assert!(command.windows(2).any(|w| w == ["--sandbox", "read-only"]), "the shell stays read-only");
        assert!(command.ends_with(&["--cd", "/src/heat"].map(String::from)));

        let gemini = named("gemini").expect("a preset");
        let mut command = words(gemini);
        let mut files: Vec<(String, String)> =
            gemini.files.iter().map(|(p, c)| ((*p).to_string(), (*c).to_string())).collect();
        reading("gemini", &mut command, &mut files, "/src/heat");
        assert!(files[0].1.contains("\"read_file\"") && files[0].1.contains("decision = \"allow\""));
        assert!(command.ends_with(&["--include-directories", "/src/heat"].map(String::from)));
    }
}
