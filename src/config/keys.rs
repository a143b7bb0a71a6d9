//! The table of every configuration key heat knows: its type, its range, the
//! environment variable that sets it, and whether it is a secret.

use crate::debate::PanelJudge;
use crate::provider::kind::{PROVIDERS, Provider};

/// What values a key takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Int {
        min: i64,
        max: i64,
    },
    Float {
        min: f64,
        max: f64,
    },
    Text,
    Provider,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// true or false.
    Flag,
    /// A list of strings: a command and its arguments.
    Words,
    /// Paths: one as a string, or a list; on the command line each flag
    /// given adds one (lines of one value).
    Paths,
}

/// One configuration key.
#[derive(Debug, Clone, PartialEq)]
pub struct KeySpec {
    pub key: String,
    pub kind: Kind,
    pub env: Option<&'static str>,
    pub secret: bool,
}

/// The forms `providers.<name>.structured_output` takes.
pub const STRUCTURED_OUTPUT: [&str; 4] = ["auto", "schema", "json", "off"];

/// The providers a role can name: `auto`, then every row of the provider
/// table.
pub fn providers() -> Vec<&'static str> {
    std::iter::once("auto").chain(crate::provider::kind::names()).collect()
}

/// How a studio pane following its stream moves (`ui.follow`).
pub const FOLLOW: [&str; 2] = ["blocks", "lines"];

/// How hard a reasoning model thinks, as OpenAI's wire names it.
pub const REASONING_EFFORTS: [&str; 4] = ["minimal", "low", "medium", "high"];

const ROLE_KEYS: [(&str, Kind); 8] = [
    ("provider", Kind::Provider),
    ("model", Kind::Text),
    ("max_tokens", Kind::Int { min: 16, max: 200_000 }),
    ("thinking_budget", Kind::Int { min: 1024, max: 200_000 }),
    ("reasoning_effort", Kind::OneOf(&REASONING_EFFORTS)),
    // What the model costs, in US dollars per million tokens (for the studio's cost counter).
    ("price_input", Kind::Float { min: 0.0, max: 10_000.0 }),
    ("price_output", Kind::Float { min: 0.0, max: 10_000.0 }),
    // Input read from the provider's prompt cache, when it costs less (unset: the input price).
    ("price_cached_input", Kind::Float { min: 0.0, max: 10_000.0 }),
];

/// What a panel judge's own keys set.
const PANEL_JUDGE_LEAVES: [&str; 5] = ["provider", "model", "price_input", "price_output", "price_cached_input"];

/// Every key, in the order `heat config show` prints them.
pub fn all() -> Vec<KeySpec> {
    let mut keys = Vec::new();
    let mut add = |key: &str, kind, env, secret| keys.push(KeySpec { key: key.to_string(), kind, env, secret });
    add("debate.max_rounds", Kind::Int { min: 1, max: 100 }, Some("HEAT_MAX_ROUNDS"), false);
    add("debate.initial_heat", Kind::Float { min: 0.3, max: 1.0 }, Some("HEAT_INITIAL_HEAT"), false);
    add("debate.judge_temperature", Kind::Float { min: 0.0, max: 1.0 }, None, false);
    add("debate.prompts_dir", Kind::Text, Some("HEAT_PROMPTS_DIR"), false);
    add("debate.seed", Kind::Int { min: 0, max: i64::MAX }, None, false);
    add("debate.source", Kind::Paths, Some("HEAT_SOURCE"), false);
    add("debate.section", Kind::Text, None, false);
    add("debate.tool_calls", Kind::Int { min: 0, max: 16 }, Some("HEAT_TOOL_CALLS"), false);
    add("debate.summaries", Kind::OneOf(&["extractive", "model"]), Some("HEAT_SUMMARIES"), false);
    add("debate.date", Kind::Flag, None, false);
    add("debate.swap_check", Kind::Flag, None, false);
    add("debate.turn_seconds", Kind::Int { min: 0, max: 3600 }, Some("HEAT_TURN_SECONDS"), false);
    add("debate.round_seconds", Kind::Int { min: 0, max: 86_400 }, Some("HEAT_ROUND_SECONDS"), false);
    add("debate.budget_tokens", Kind::Int { min: 0, max: i64::MAX }, Some("HEAT_BUDGET_TOKENS"), false);
    add("debate.budget_usd", Kind::Float { min: 0.0, max: 1_000_000.0 }, Some("HEAT_BUDGET_USD"), false);
    add("debate.format", Kind::Text, Some("HEAT_FORMAT"), false);
    for (leaf, kind) in ROLE_KEYS {
        let env = match leaf {
            "provider" => Some("HEAT_PROVIDER"),
            "model" => Some("HEAT_MODEL"),
            _ => None,
        };
        add(&format!("roles.{leaf}"), kind, env, false);
    }
    // The duel's seats, then the third to sixth debater a format may seat.
    for role in crate::debate::Role::ALL {
        for (leaf, kind) in ROLE_KEYS {
            add(&format!("roles.{}.{leaf}", role.key()), kind, None, false);
        }
    }
    // A panel's judges 2 to 5: the provider and model each is asked on, and its prices.
    // (judge 1 is the chair, `roles.judge`).
    for judge in PanelJudge::members(PanelJudge::MOST) {
        for (leaf, kind) in ROLE_KEYS.into_iter().filter(|(leaf, _)| PANEL_JUDGE_LEAVES.contains(leaf)) {
            add(&format!("roles.{}.{leaf}", judge.key()), kind, None, false);
        }
    }
    // Each provider with a server (the table's rows): where it is, its model, its key.
    let servers: Vec<&Provider> = PROVIDERS.iter().filter(|p| p.wire.is_server()).collect();
    for provider in &servers {
        add(&format!("providers.{}.base_url", provider.name), Kind::Text, provider.url_env, false);
        add(&format!("providers.{}.model", provider.name), Kind::Text, None, false);
        if let Some(var) = provider.key_env {
            add(&format!("providers.{}.api_key", provider.name), Kind::Text, Some(var), true);
        }
    }
    for provider in &servers {
        let name = provider.name;
        // How the judge's verdict is held to its schema; `auto` steps down when refused.
        add(&format!("providers.{name}.structured_output"), Kind::OneOf(&STRUCTURED_OUTPUT), None, false);
        // At most this many requests at once (1 for servers that serve one at a time).
        add(&format!("providers.{name}.max_concurrent"), Kind::Int { min: 1, max: 64 }, None, false);
        // The model's context window in tokens, for the size check of a debated document.
        add(&format!("providers.{name}.max_context"), Kind::Int { min: 512, max: 10_000_000 }, None, false);
    }
    // An endpoint heat.toml defines, `[providers.NAME]` (and what any server row may set besides).
    for (leaf, kind, secret) in ENDPOINT_KEYS {
        add(&format!("{ENDPOINT_TABLE}.{leaf}"), kind, None, secret);
    }
    // An MCP server whose tools debaters may call (`[mcp.NAME]`): its command and
    // arguments, its variables, the one seat that may call it (unset: every debater),
    // and how long one call may take.
    add("mcp.*.command", Kind::Words, None, false);
    add("mcp.*.env.*", Kind::Text, None, true);
    add("mcp.*.seat", Kind::Text, None, false);
    add("mcp.*.call_seconds", Kind::Int { min: 1, max: 600 }, None, false);
    // What `heat mcp` allows an agent: the folders its debaters may read (none unless set),
    // how many debates run at once, and what one run may spend.
    add("mcp_server.sources", Kind::Paths, None, false);
    add("mcp_server.max_debates", Kind::Int { min: 1, max: 32 }, None, false);
    add("mcp_server.budget_tokens", Kind::Int { min: 0, max: i64::MAX }, None, false);
    add("mcp_server.budget_usd", Kind::Float { min: 0.0, max: 1_000_000.0 }, None, false);
    add("providers.local.model_path", Kind::Text, Some("HEAT_MODEL_PATH"), false);
    add("providers.local.threads", Kind::Int { min: 1, max: 256 }, None, false);
    add("providers.local.wide_prompts", Kind::Flag, None, false);
    add("providers.local.contexts", Kind::Int { min: 1, max: 8 }, None, false);
    add("providers.local.context", Kind::Int { min: 256, max: 1_048_576 }, None, false);
    add("providers.local.max_tokens", Kind::Int { min: 16, max: 100_000 }, None, false);
    add("providers.local.prompts", Kind::Text, None, false);
    add("providers.local.seed", Kind::Int { min: 0, max: i64::from(u32::MAX) }, None, false);
    add("network.connect_timeout_secs", Kind::Int { min: 1, max: 600 }, None, false);
    add("network.idle_timeout_secs", Kind::Int { min: 1, max: 3600 }, None, false);
    // How long an answer may take to begin (a server's queue included).
    add("network.first_byte_timeout_secs", Kind::Int { min: 1, max: 7200 }, None, false);
    add("network.max_retries", Kind::Int { min: 0, max: 20 }, None, false);
    add("ui.theme", Kind::Text, Some("HEAT_THEME"), false);
    // Whether the studio takes the mouse (wheel scrolling) from the terminal's own selection.
    add("ui.mouse", Kind::Flag, Some("HEAT_MOUSE"), false);
    // Whether pane titles show each latest turn's time and tokens/s (`m` toggles it).
    add("ui.turn_stats", Kind::Flag, Some("HEAT_TURN_STATS"), false);
    // Whether the header shows each side's words this round, flagged over 1.5×.
    add("ui.length_parity", Kind::Flag, Some("HEAT_LENGTH_PARITY"), false);
    // How a pane following its stream moves: by half a pane ("blocks") or a line at a time.
    add("ui.follow", Kind::OneOf(&FOLLOW), Some("HEAT_FOLLOW"), false);
    // Presenter mode (`--present`, `p` in the studio): the debaters side by side over the judge's strip.
    add("ui.present", Kind::Flag, Some("HEAT_PRESENT"), false);
    // How long a round's verdict card stands in presenter mode and a watch (0: no cards).
    add("ui.card_seconds", Kind::Int { min: 0, max: 60 }, None, false);
    // Where `A` in the studio serves the audience page (as `heat watch --web` takes it).
    add("ui.audience", Kind::Text, Some("HEAT_AUDIENCE"), false);
    // The studio's keys, one per action; the studio's keymap knows the
    // actions' names and refuses any other (`tui::keymap`).
    add(KEYS_TABLE, Kind::Text, None, false);
    keys
}

/// Where an endpoint's keys sit: `providers.NAME`, any name.
pub const ENDPOINT_TABLE: &str = "providers.*";

/// What an endpoint heat.toml defines may set, as `providers.NAME.<leaf>`.
/// Its key is only ever named (`api_key_env`): `api_key` comes from that
/// variable, never from the file. Its headers are secret, as a header may
/// carry a key.
pub const ENDPOINT_KEYS: [(&str, Kind, bool); 19] = [
    ("kind", Kind::Text, false),
    ("base_url", Kind::Text, false),
    ("model", Kind::Text, false),
    ("api_key_env", Kind::Text, false),
    ("api_key", Kind::Text, true),
    ("headers.*", Kind::Text, true),
    ("structured_output", Kind::OneOf(&STRUCTURED_OUTPUT), false),
    ("max_concurrent", Kind::Int { min: 1, max: 64 }, false),
    ("max_context", Kind::Int { min: 512, max: 10_000_000 }, false),
    ("price_input", Kind::Float { min: 0.0, max: 10_000.0 }, false),
    ("price_output", Kind::Float { min: 0.0, max: 10_000.0 }, false),
    ("price_cached_input", Kind::Float { min: 0.0, max: 10_000.0 }, false),
    // An agent CLI (`claude`, `codex`, `gemini`, or `kind = "command"`): what runs and how it is read.
    ("command", Kind::Words, false),
    ("args", Kind::Words, false),
    ("output", Kind::OneOf(&crate::provider::agent::Dialect::NAMES), false),
    ("env.*", Kind::Text, true),
    ("model_arg", Kind::Text, false),
    // What an agent CLI may do: nothing ("off"), or read the folder `read_dir` ("read").
    ("tools", Kind::OneOf(&AGENT_TOOLS), false),
    ("read_dir", Kind::Text, false),
];

/// What an agent CLI may do (`providers.NAME.tools`).
pub const AGENT_TOOLS: [&str; 2] = ["off", "read"];

/// The keys of an endpoint's block that only an agent CLI's block takes.
pub const AGENT_LEAVES: [&str; 7] = ["command", "args", "output", "env", "model_arg", "tools", "read_dir"];

/// Whether `name` may name an endpoint: letters, digits, `-` and `_`, and
/// not `auto`.
pub fn is_endpoint_name(name: &str) -> bool {
    !name.is_empty()
        && !name.eq_ignore_ascii_case("auto")
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A table whose keys the config does not list: `keys.*` is any
/// `keys.NAME`, checked by whoever reads it.
pub const KEYS_TABLE: &str = "keys.*";

impl KeySpec {
    /// Whether this spec is the one for `key`: the same key, where each
    /// `*` of the spec's (`keys.*`, `providers.*.model`) stands for one
    /// name, of any letters but a dot.
    pub fn names(&self, key: &str) -> bool {
        let mut spec = self.key.split('.');
        let mut given = key.split('.');
        loop {
            match (spec.next(), given.next()) {
                (None, None) => return true,
                (Some("*"), Some(name)) if !name.is_empty() => {}
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
        }
    }
}

/// The spec for `key`, if heat knows it.
pub fn find<'a>(specs: &'a [KeySpec], key: &str) -> Option<&'a KeySpec> {
    specs.iter().find(|s| s.names(key))
}

/// Describes what a key accepts, for error messages.
pub fn expectation(kind: Kind) -> String {
    match kind {
        Kind::Int { min, max } if max == i64::MAX => format!("a whole number of at least {min}"),
        Kind::Int { min, max } => format!("a whole number from {min} to {max}"),
        Kind::Float { min, max } => format!("a number from {min} to {max}"),
        Kind::Text => "a string".into(),
        Kind::Provider => {
            format!("one of {}", providers().iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", "))
        }
        Kind::Flag => "true or false".into(),
        Kind::Words => "a list of strings, e.g. [\"prog\", \"--flag\"]".into(),
        Kind::Paths => "a path, or a list of paths, e.g. [\"docs\", \"notes.md\"]".into(),
        Kind::OneOf(names) => {
            format!("one of {}", names.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", "))
        }
    }
}
