//! The flags that shape a debate (`--max-rounds`, `--provider`,
//! `--seat`'s neighbours…), shared by the commands that start or go on with
//! one, and how each maps onto a configuration key.

use clap::Args;

use crate::config::FlagValue;

/// Flags that shape a debate; each overrides a config key.
#[derive(Debug, Default, Args)]
pub struct DebateArgs {
    /// Most rounds before the judge must resolve.
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<String>,
    /// Heat (temperature) of the first round, 0.3 to 1.0.
    #[arg(long, value_name = "H", alias = "temperature")]
    pub heat: Option<String>,
    /// Provider for every role: auto, anthropic, openai, ollama, local, a preset (openrouter, gemini-api, groq, …), an agent CLI (claude, codex, gemini) or an endpoint heat.toml defines.
    #[arg(long)]
    pub provider: Option<String>,
    /// Model for every role; a path ending in `.gguf` runs that file on the embedded model.
    #[arg(long)]
    pub model: Option<String>,
    /// Provider for the advocate alone (overrides --provider).
    #[arg(long, value_name = "PROVIDER")]
    pub advocate_provider: Option<String>,
    /// Provider for the skeptic alone (overrides --provider).
    #[arg(long, value_name = "PROVIDER")]
    pub skeptic_provider: Option<String>,
    /// Provider for the judge alone (overrides --provider).
    #[arg(long, value_name = "PROVIDER")]
    pub judge_provider: Option<String>,
    /// Model for the advocate alone; a `.gguf` path runs that file on the embedded model.
    #[arg(long, value_name = "MODEL")]
    pub advocate_model: Option<String>,
    /// Model for the skeptic alone; a `.gguf` path runs that file on the embedded model.
    #[arg(long, value_name = "MODEL")]
    pub skeptic_model: Option<String>,
    /// Model for the judge alone; a `.gguf` path runs that file on the embedded model.
    #[arg(long, value_name = "MODEL")]
    pub judge_model: Option<String>,
    /// How hard a reasoning model thinks, on an OpenAI-compatible wire: minimal, low, medium or high (every role; `roles.<role>.reasoning_effort` for one).
    #[arg(long, value_name = "LEVEL")]
    pub reasoning_effort: Option<String>,
    /// Directory of prompt files that replace the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub prompts: Option<String>,
    /// Sampling seed for providers that accept one.
    #[arg(long)]
    pub seed: Option<String>,
    /// A Markdown or text file to debate (`-` reads standard input, with `heat run`); the topic defaults to its first heading. A folder, or the flag given again, makes a library the debaters search each round and cite by file and line.
    #[arg(long, value_name = "PATH")]
    pub source: Vec<String>,
    /// With --source: debate only the section under this Markdown heading.
    #[arg(long, value_name = "HEADING", requires = "source")]
    pub section: Option<String>,
    /// Base URL of the OpenAI-compatible server (sets `providers.openai.base_url`).
    #[arg(long, value_name = "URL")]
    pub openai_base_url: Option<String>,
    /// Base URL of the Anthropic API (sets `providers.anthropic.base_url`).
    #[arg(long, value_name = "URL")]
    pub anthropic_base_url: Option<String>,
    /// The debate's format: duel (the default), oxford, or a format file of your own (`heat formats` lists them).
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Ask the judge again each round with the debaters swapped and unnamed; marks a verdict that flips. Costs one more judge call per round.
    #[arg(long)]
    pub swap_check: bool,
    /// A debater's turn may take this many seconds; then it is cut, marked `✂ time`, and judged as it stands (0: no limit).
    #[arg(long, value_name = "SECONDS")]
    pub turn_seconds: Option<String>,
    /// A round may take this many seconds; then the debate ends, outcome `timeout` (0: no limit).
    #[arg(long, value_name = "SECONDS")]
    pub round_seconds: Option<String>,
}

impl DebateArgs {
    /// The flags that were given, as config overrides.
    pub fn flag_values(&self) -> Vec<FlagValue> {
        let sources = (!self.source.is_empty()).then(|| self.source.join("\n"));
        let pairs: [(&Option<String>, &str, &str); 20] = [
            (&self.max_rounds, "debate.max_rounds", "--max-rounds"),
            (&self.heat, "debate.initial_heat", "--heat"),
            (&self.provider, "roles.provider", "--provider"),
            (&self.model, "roles.model", "--model"),
            (&self.advocate_provider, "roles.advocate.provider", "--advocate-provider"),
            (&self.skeptic_provider, "roles.skeptic.provider", "--skeptic-provider"),
            (&self.judge_provider, "roles.judge.provider", "--judge-provider"),
            (&self.advocate_model, "roles.advocate.model", "--advocate-model"),
            (&self.skeptic_model, "roles.skeptic.model", "--skeptic-model"),
            (&self.judge_model, "roles.judge.model", "--judge-model"),
            (&self.reasoning_effort, "roles.reasoning_effort", "--reasoning-effort"),
            (&self.prompts, "debate.prompts_dir", "--prompts"),
            (&self.seed, "debate.seed", "--seed"),
            (&sources, "debate.source", "--source"),
            (&self.section, "debate.section", "--section"),
            (&self.openai_base_url, "providers.openai.base_url", "--openai-base-url"),
            (&self.anthropic_base_url, "providers.anthropic.base_url", "--anthropic-base-url"),
            (&self.format, "debate.format", "--format"),
            (&self.turn_seconds, "debate.turn_seconds", "--turn-seconds"),
            (&self.round_seconds, "debate.round_seconds", "--round-seconds"),
        ];
        let mut flags: Vec<FlagValue> = pairs
            .into_iter()
            .filter_map(|(value, key, flag)| {
                value.as_ref().map(|raw| FlagValue { key: key.into(), raw: raw.clone(), flag: flag.into() })
            })
            .collect();
        if self.swap_check {
            flags.push(FlagValue { key: "debate.swap_check".into(), raw: "true".into(), flag: "--swap-check".into() });
        }
        // `--model PATH.gguf`: every role on the embedded model, loading that file.
        if let Some(path) = self.model.as_deref().filter(|m| crate::setup::is_gguf(m)) {
            flags.retain(|f| f.key != "roles.model");
            let flag = |key: &str, raw: &str| FlagValue { key: key.into(), raw: raw.into(), flag: "--model".into() };
            flags.push(flag("providers.local.model_path", path));
            if self.provider.is_none() {
                flags.push(flag("roles.provider", "local"));
            }
        }
        flags
    }
}
