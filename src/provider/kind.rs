//! The providers heat can seat, one row each: its name (in heat.toml,
//! `--seat` and the log), how its requests go on the wire, the variables
//! that hold its key and name its server, its usual server and model, and
//! what a person calls it. The config's keys, `--seat`, set-up, `heat
//! doctor`, the settings form and the advice in error sentences read this
//! table: a provider that speaks a wire heat already knows is one more row.

use std::fmt;
use std::sync::{PoisonError, RwLock};

/// How a provider's requests go on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wire {
    /// Anthropic's Messages API: a base URL without `/v1`, heat adds
    /// `/v1/messages`.
    Anthropic,
    /// OpenAI's chat completions, as any OpenAI-compatible server takes
    /// them: a base URL ending in `/v1`, heat adds `/chat/completions`.
    OpenAi,
    /// The embedded model, in this process: no wire at all.
    Embedded,
    /// A person at the keyboard types the seat's turns (`provider::person`).
    Person,
    /// An agent CLI (Claude Code, Codex, Gemini CLI, any command) run as a
    /// process for each turn, the prompt on its standard input
    /// (`provider::agent`).
    Agent,
}

impl Wire {
    /// Whether a request over this wire carries a sampling seed: OpenAI's
    /// chat completions and the embedded model do; Anthropic's API has no
    /// seed, and an agent CLI takes none on its command line.
    pub fn takes_seed(self) -> bool {
        matches!(self, Wire::OpenAi | Wire::Embedded)
    }

    /// Whether requests go to a server over this wire.
    pub fn is_server(self) -> bool {
        matches!(self, Wire::Anthropic | Wire::OpenAi)
    }
}

/// When a provider refuses a request without a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyNeed {
    Always,
    /// Only at its own service (a base URL holding this host); a local
    /// server speaking its wire needs none.
    AtHost(&'static str),
    Never,
}

/// One provider heat knows.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Provider {
    /// Its name in heat.toml (`roles.*.provider`, `[providers.NAME]`),
    /// `--seat NAME:MODEL` and the log.
    pub name: &'static str,
    pub wire: Wire,
    /// The environment variable that holds its API key, if it takes one.
    pub key_env: Option<&'static str>,
    pub key_need: KeyNeed,
    /// The environment variable that names its server.
    pub url_env: Option<&'static str>,
    /// Its usual server, as `providers.NAME.base_url` is written. Ollama's
    /// is a host (`OLLAMA_HOST`), to which heat adds `/v1`.
    pub base_url: &'static str,
    /// Whether `base_url` is a host to which heat adds `/v1` (Ollama's way).
    pub host_only: bool,
    /// How a base URL for it is written, for the advice after a 404.
    pub url_example: &'static str,
    /// The model it is asked for when none is named; `None` where heat
    /// takes the first the server lists.
    pub model: Option<&'static str>,
}

/// Every provider heat knows: heat's own servers, the presets (services
/// and local servers that speak a wire heat knows, each at its usual
/// address), the agent CLIs, then the embedded model and a person. `--seat`, the settings
/// form and error messages list them in this order, with the endpoints
/// heat.toml defines (`[providers.NAME]` with a `kind`, [`register`]ed)
/// after heat's own servers.
pub const PROVIDERS: [Provider; 17] = [
    Provider {
        name: "anthropic",
        wire: Wire::Anthropic,
        key_env: Some("ANTHROPIC_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: Some("ANTHROPIC_BASE_URL"),
        base_url: "https://api.anthropic.com",
        host_only: false,
        url_example: "https://api.anthropic.com, without /v1 (heat adds /v1/messages)",
        model: Some("claude-haiku-4-5"),
    },
    Provider {
        name: "openai",
        wire: Wire::OpenAi,
        key_env: Some("OPENAI_API_KEY"),
        key_need: KeyNeed::AtHost("api.openai.com"),
        url_env: Some("OPENAI_BASE_URL"),
        base_url: "https://api.openai.com/v1",
        host_only: false,
        url_example: "http://host:port/v1, with /v1 (heat adds /chat/completions)",
        model: Some("gpt-4.1-mini"),
    },
    Provider {
        name: "ollama",
        wire: Wire::OpenAi,
        key_env: None,
        key_need: KeyNeed::Never,
        url_env: Some("OLLAMA_HOST"),
        base_url: "http://localhost:11434",
        host_only: true,
        url_example: "localhost:11434 (heat adds /v1/chat/completions)",
        model: None,
    },
    Provider {
        name: "openrouter",
        wire: Wire::OpenAi,
        key_env: Some("OPENROUTER_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://openrouter.ai/api/v1",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("openai/gpt-4.1-mini"),
    },
    Provider {
        name: "gemini-api",
        wire: Wire::OpenAi,
        key_env: Some("GEMINI_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("gemini-2.5-flash"),
    },
    Provider {
        name: "groq",
        wire: Wire::OpenAi,
        key_env: Some("GROQ_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://api.groq.com/openai/v1",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("llama-3.3-70b-versatile"),
    },
    Provider {
        name: "deepseek",
        wire: Wire::OpenAi,
        key_env: Some("DEEPSEEK_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://api.deepseek.com/v1",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("deepseek-chat"),
    },
    Provider {
        name: "mistral",
        wire: Wire::OpenAi,
        key_env: Some("MISTRAL_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://api.mistral.ai/v1",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("mistral-small-latest"),
    },
    Provider {
        name: "together",
        wire: Wire::OpenAi,
        key_env: Some("TOGETHER_API_KEY"),
        key_need: KeyNeed::Always,
        url_env: None,
        base_url: "https://api.together.xyz/v1",
        host_only: false,
        url_example: "its OpenAI-compatible base URL, as the service documents it (heat adds /chat/completions)",
        model: Some("meta-llama/Llama-3.3-70B-Instruct-Turbo"),
    },
    Provider {
        name: "lmstudio",
        wire: Wire::OpenAi,
        key_env: None,
        key_need: KeyNeed::Never,
        url_env: None,
        base_url: "http://localhost:1234/v1",
        host_only: false,
        url_example: "http://host:port/v1, with /v1 (heat adds /chat/completions)",
        model: None,
    },
    Provider {
        name: "vllm",
        wire: Wire::OpenAi,
        key_env: None,
        key_need: KeyNeed::Never,
        url_env: None,
        base_url: "http://localhost:8000/v1",
        host_only: false,
        url_example: "http://host:port/v1, with /v1 (heat adds /chat/completions)",
        model: None,
    },
    Provider {
        name: "llamacpp",
        wire: Wire::OpenAi,
        key_env: None,
        key_need: KeyNeed::Never,
        url_env: None,
        base_url: "http://localhost:8080/v1",
        host_only: false,
        url_example: "http://host:port/v1, with /v1 (heat adds /chat/completions)",
        model: None,
    },
    unserved("claude", Wire::Agent),
    unserved("codex", Wire::Agent),
    unserved("gemini", Wire::Agent),
    unserved("local", Wire::Embedded),
    unserved("human", Wire::Person),
];

/// How many of [`PROVIDERS`]' first rows are heat's own servers, which the
/// endpoints heat.toml defines follow.
const OWN_SERVERS: usize = 3;

/// The template of an agent CLI heat.toml defines (`kind = "command"`).
const COMMAND_ROW: Provider = unserved("command", Wire::Agent);

/// A row for what no server answers (an agent CLI, the embedded model, a
/// person): no key, no address, no usual model.
const fn unserved(name: &'static str, wire: Wire) -> Provider {
    Provider {
        name,
        wire,
        key_env: None,
        key_need: KeyNeed::Never,
        url_env: None,
        base_url: "",
        host_only: false,
        url_example: "",
        model: None,
    }
}

/// The row of [`PROVIDERS`] called `name`, found when heat is compiled.
const fn row(name: &str) -> &'static Provider {
    let mut at = 0;
    while at < PROVIDERS.len() {
        let (row, wanted) = (PROVIDERS[at].name.as_bytes(), name.as_bytes());
        let mut same = row.len() == wanted.len();
        let mut i = 0;
        while same && i < row.len() {
            same = row[i] == wanted[i];
            i += 1;
        }
        if same {
            return &PROVIDERS[at];
        }
        at += 1;
    }
    panic!("no such row in PROVIDERS")
}

/// A provider, by its row of [`PROVIDERS`].
#[derive(Clone, Copy)]
pub struct ProviderKind(&'static Provider);

impl ProviderKind {
    pub const ANTHROPIC: ProviderKind = ProviderKind(row("anthropic"));
    pub const OPENAI: ProviderKind = ProviderKind(row("openai"));
    pub const OLLAMA: ProviderKind = ProviderKind(row("ollama"));
    pub const LOCAL: ProviderKind = ProviderKind(row("local"));
    /// What an agent CLI of the user's own (`kind = "command"`) starts
    /// from: not a row of the table, and found by no name.
    pub const COMMAND: ProviderKind = ProviderKind(&COMMAND_ROW);
    pub const HUMAN: ProviderKind = ProviderKind(row("human"));

    /// Every provider, in the table's order, then the endpoints heat.toml
    /// defines.
    pub fn all() -> impl Iterator<Item = ProviderKind> {
        let (own, rest) = PROVIDERS.split_at(OWN_SERVERS);
        own.iter().chain(defined()).chain(rest).map(ProviderKind)
    }

    /// Whether it is one of heat's own rows (a preset included), not an
    /// endpoint heat.toml defines.
    pub fn is_built_in(self) -> bool {
        PROVIDERS.iter().any(|row| row.name == self.0.name)
    }

    /// The provider named `name` (as heat.toml and `--seat` write it, in
    /// any case).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().find(|kind| kind.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Its row.
    pub fn row(self) -> &'static Provider {
        self.0
    }

    pub fn name(self) -> &'static str {
        self.0.name
    }

    pub fn wire(self) -> Wire {
        self.0.wire
    }

    /// Whether it is the embedded model, run in this process.
    pub fn is_embedded(self) -> bool {
        self.0.wire == Wire::Embedded
    }

    /// Whether a person takes the seat: nothing is sent anywhere.
    pub fn is_person(self) -> bool {
        self.0.wire == Wire::Person
    }

    /// Whether its requests go to a server.
    pub fn is_server(self) -> bool {
        self.0.wire.is_server()
    }

    /// Whether an agent CLI takes the seat, run as a command each turn.
    pub fn is_agent(self) -> bool {
        self.0.wire == Wire::Agent
    }

    /// Whether the provider called `name` is a person at the keyboard.
    pub fn names_person(name: &str) -> bool {
        Self::from_name(name).is_some_and(Self::is_person)
    }

    /// Whether the provider called `name` is the embedded model, as its
    /// row says (not as the name reads); an unknown name is not.
    pub fn names_embedded(name: &str) -> bool {
        Self::from_name(name).is_some_and(Self::is_embedded)
    }

    /// Whether the provider called `name` is a server heat sends requests
    /// to, as its row says; an unknown name (a test double) is not.
    pub fn names_server(name: &str) -> bool {
        Self::from_name(name).is_some_and(Self::is_server)
    }

    /// Whether a request to `base_url` needs a key.
    pub fn needs_key_at(self, base_url: &str) -> bool {
        match self.0.key_need {
            KeyNeed::Always => true,
            KeyNeed::AtHost(host) => base_url.contains(host),
            KeyNeed::Never => false,
        }
    }

    /// `openai:gpt-4.1-mini` → (openai, gpt-4.1-mini); `local` → (local,
    /// ""); anything else is a model name, colons and all (`llama3.2:1b`),
    /// as `--seat` and the studio's model dialog take it.
    pub fn split_model(value: &str) -> (Option<&'static str>, &str) {
        let provider = |word: &str| ProviderKind::from_name(word).map(ProviderKind::name);
        if let Some(alone) = provider(value) {
            return (Some(alone), "");
        }
        match value.split_once(':') {
            Some((head, model)) if provider(head).is_some() => (provider(head), model.trim()),
            _ => (None, value),
        }
    }
}

impl PartialEq for ProviderKind {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for ProviderKind {}

impl std::hash::Hash for ProviderKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl fmt::Debug for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProviderKind({})", self.0.name)
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name)
    }
}

/// The endpoints heat.toml defines, as rows: each is made once per
/// definition, and lives as long as the process (a row is a few short
/// strings; a config read again with the same blocks finds its rows).
static DEFINED: RwLock<Vec<&'static Provider>> = RwLock::new(Vec::new());

fn defined() -> Vec<&'static Provider> {
    DEFINED.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// What heat.toml says of an endpoint it defines (`[providers.NAME]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition<'a> {
    pub name: &'a str,
    /// The row whose wire and usual values it takes (`kind = "openai"`).
    pub kind: ProviderKind,
    pub base_url: Option<&'a str>,
    /// The variable that holds its key (`api_key_env`).
    pub key_env: Option<&'a str>,
    pub model: Option<&'a str>,
}

/// Makes `definition` a row of the table, found by its name from now on,
/// in place of any earlier definition of that name. A heat row's name
/// cannot be taken.
pub fn register(definition: &Definition<'_>) -> ProviderKind {
    let kind = definition.kind.row();
    let key_env = definition.key_env.or(kind.key_env);
    let base_url = definition.base_url.unwrap_or(kind.base_url);
    // Another server (a base URL of its own) does not serve the kind's usual model: it names
    // one, or its model list does.
    let model = definition.model.or(kind.model.filter(|_| definition.base_url.is_none()));
    let mut rows = DEFINED.write().unwrap_or_else(PoisonError::into_inner);
    let same = |r: &&&Provider| {
        r.name == definition.name
            && r.wire == kind.wire
            && r.key_env == key_env
            && r.base_url == base_url
            && r.model == model
            && r.url_example == kind.url_example
    };
    if let Some(row) = rows.iter().find(same) {
        return ProviderKind(row);
    }
    let leak = |text: &str| -> &'static str { Box::leak(text.to_string().into_boxed_str()) };
    let row: &'static Provider = Box::leak(Box::new(Provider {
        name: leak(definition.name),
        wire: kind.wire,
        key_env: key_env.map(leak),
        // A key variable named means the endpoint takes a key.
        key_need: if definition.key_env.is_some() { KeyNeed::Always } else { kind.key_need },
        url_env: None,
        base_url: leak(base_url),
        host_only: kind.host_only,
        url_example: kind.url_example,
        model: model.map(leak),
    }));
    rows.retain(|r| r.name != row.name);
    rows.push(row);
    ProviderKind(row)
}

/// Every provider's name, as `roles.*.provider` takes them, after `auto`.
pub fn names() -> impl Iterator<Item = &'static str> {
    ProviderKind::all().map(ProviderKind::name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_server_row_says_how_to_reach_it() {
        let names: Vec<&str> = names().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(names.len(), unique.len(), "{names:?}");
        for kind in ProviderKind::all().filter(|k| k.is_server()) {
            let row = kind.row();
            assert!(!row.base_url.is_empty(), "{} has no server", row.name);
            assert!(!row.url_example.is_empty(), "{} has no example base URL", row.name);
            assert_eq!(
                row.key_need != KeyNeed::Never,
                row.key_env.is_some(),
                "{}: a key it needs comes from somewhere",
                row.name
            );
        }
        assert_eq!(ProviderKind::from_name(" OpenAI "), Some(ProviderKind::OPENAI));
        assert_eq!((ProviderKind::LOCAL.name(), ProviderKind::HUMAN.name()), ("local", "human"));
        assert!(
            PROVIDERS[..OWN_SERVERS].iter().all(|row| row.url_env.is_some()),
            "heat's own servers are found by a variable"
        );
        assert_eq!(ProviderKind::from_name("auto"), None);
    }
}
