//! What a debate is run with: each role's model and limits, the prompts,
//! the retry policy and seed (`EngineSetup`), and what is debated
//! (`DebateSpec`).

use std::sync::Arc;

use super::event::Participant;
use super::format::FormatRecord;
use super::grounding::Source;
use super::heat::Heat;
use super::prompt::Prompts;
use super::seat::Role;
use crate::library::{Library, Shared};
use crate::provider::retry::RetryPolicy;
use crate::provider::{ChatModel, StructuredOutput};

/// How long a debater's turn and a round may take (`debate.turn_seconds`,
/// `debate.round_seconds`); `None`: as long as they take.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    pub turn: Option<std::time::Duration>,
    pub round: Option<std::time::Duration>,
}

/// What a debate may spend (`debate.budget_tokens`, `debate.budget_usd`),
/// and the prices to count dollars with; nothing set: no budget.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Budget {
    pub tokens: Option<u64>,
    pub usd: Option<f64>,
    pub prices: super::cost::Prices,
}

/// How one role is played: which model, with which limits.
#[derive(Clone)]
pub struct RoleSetup {
    pub model: Arc<dyn ChatModel>,
    pub model_name: String,
    pub max_tokens: u32,
    pub thinking_budget: Option<u32>,
    /// How hard a reasoning model thinks (`roles.<role>.reasoning_effort`),
    /// where its wire takes it.
    pub reasoning_effort: Option<String>,
    /// The structured output the judge asks for first
    /// (`providers.<name>.structured_output`).
    pub structured: StructuredSetting,
    /// The model's context window in tokens, where the config states it
    /// (`providers.<name>.max_context`) and the model itself cannot say.
    pub max_context: Option<u32>,
    /// The verdict's strings are capped in length from the first request
    /// (the server is known to need it: llama.cpp's); otherwise only once
    /// a verdict ran to its limit inside one (`Adaptation::CappedStrings`).
    pub caps_strings: bool,
}

/// `providers.<name>.structured_output`: `auto` starts with the strongest
/// form and steps down when the server refuses it; a named form is used as
/// it is, and its refusal is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StructuredSetting {
    #[default]
    Auto,
    Fixed(StructuredOutput),
}

impl StructuredSetting {
    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "auto" => Self::Auto,
            "schema" => Self::Fixed(StructuredOutput::Schema),
            "json" => Self::Fixed(StructuredOutput::Json),
            "off" => Self::Fixed(StructuredOutput::Off),
            _ => return None,
        })
    }
}

impl RoleSetup {
    /// A role with the defaults for everything but its model.
    pub fn new(model: Arc<dyn ChatModel>, model_name: impl Into<String>, max_tokens: u32) -> Self {
        Self {
            model,
            model_name: model_name.into(),
            max_tokens,
            thinking_budget: None,
            reasoning_effort: None,
            structured: StructuredSetting::Auto,
            max_context: None,
            caps_strings: false,
        }
    }

    /// The context window to plan against: the model's own, else the
    /// configured one.
    pub fn context_tokens(&self) -> Option<u32> {
        self.model.context_tokens().or(self.max_context)
    }

    pub(super) fn participant(&self, role: Role) -> Participant {
        Participant {
            agent: self.model.agent(),
            ..Participant::new(role, self.model.provider_name(), self.model_name.clone())
        }
    }
}

/// Every seat's set-up from the duel's three (advocate, skeptic, judge):
/// the seats past the duel's take the advocate's (a format with more
/// debaters gives them their own; see [`seat_roles`]).
pub fn duel_roles(duel: [RoleSetup; 3]) -> [RoleSetup; Role::COUNT] {
    let [advocate, skeptic, judge] = duel;
    seat_roles(&[advocate, skeptic], &judge)
}

/// Every seat's set-up from the debaters' (filling
/// [`Role::DEBATER_SEATS`] in order) and the judge's; a seat left over
/// takes the first debater's. At least one debater.
pub fn seat_roles(debaters: &[RoleSetup], judge: &RoleSetup) -> [RoleSetup; Role::COUNT] {
    let first = debaters.first().cloned().unwrap_or_else(|| judge.clone());
    Role::ALL.map(|role| match Role::DEBATER_SEATS.iter().position(|&r| r == role) {
        Some(at) => debaters.get(at).cloned().unwrap_or_else(|| first.clone()),
        None => judge.clone(),
    })
}

/// Sets up a panel judge on a provider of its own: the provider's name and
/// the model named for it, if any (`setup::panel`).
pub type JudgeFactory = Arc<dyn Fn(&str, Option<&str>) -> anyhow::Result<RoleSetup> + Send + Sync>;

/// Everything the engine needs besides the debate itself.
#[derive(Clone)]
pub struct EngineSetup {
    /// Each seat's model and limits, by its position in [`super::seat::SEATS`].
    pub roles: [RoleSetup; Role::COUNT],
    pub prompts: Prompts,
    pub retry: RetryPolicy,
    /// The judge's own sampling temperature (the heat is for the debaters).
    pub judge_temperature: f32,
    pub seed: Option<u64>,
    /// `debate.swap_check`: after each round's verdict the judge is asked
    /// again with the debaters swapped (one more judge call a round).
    pub swap_check: bool,
    /// Sets up the panel judges a format puts on providers of their own;
    /// `None`: every judge is asked on the judges' provider.
    pub judges: Option<JudgeFactory>,
    /// How long a debater's turn and a round may take.
    pub clock: Clock,
    /// What the debate may spend before it pauses.
    pub budget: Budget,
    /// The library the debaters read from, opened (`--source` naming a
    /// folder or more than one file); the session records what it held.
    pub library: Option<Arc<Library>>,
    /// `debate.tool_calls`: how many tool calls a debater's turn may make
    /// (0: none are offered).
    pub tool_calls: u32,
    /// The MCP servers heat.toml names, started: their tools are offered
    /// to the seats they are for.
    pub servers: Vec<ToolServer>,
    /// `debate.summaries = "model"`: rounds past the prompts' window are
    /// put in brief by each debater's own model, not by their first
    /// sentences.
    pub model_briefs: bool,
}

/// An MCP server whose tools a debater may call, and the seat it is for
/// (`None`: every debater).
#[derive(Debug, Clone)]
pub struct ToolServer {
    pub server: Arc<crate::mcp::McpServer>,
    pub seat: Option<Role>,
}

impl ToolServer {
    /// Whether `role` may call it.
    pub fn serves(&self, role: Role) -> bool {
        role.is_debater() && self.seat.is_none_or(|seat| seat == role)
    }
}

impl EngineSetup {
    /// Before the first request: whether every role whose context window is
    /// known (the embedded model's) can read the source besides its prompt and
    /// its answer. Never cut silently: too big is one sentence with both numbers.
    pub fn check_fits(&self, source: &Source) -> anyhow::Result<()> {
        let tokens = source.estimated_tokens();
        for role in Role::ALL {
            let seat = self.role(role);
            let Some(window) = seat.context_tokens() else { continue };
            let needed = self.prompt_tokens(role) + seat.max_tokens as usize;
            let room = (window as usize).saturating_sub(needed);
            if tokens > room {
                anyhow::bail!(
                    "the source {} is about {tokens} tokens, more than the {}'s model can read: its context is {window} \
                     tokens and its prompt and answer need about {needed}, leaving {room}. Debate one section of it \
                     (--section HEADING), a shorter document, or give the {} a model with a larger context (a server, \
                     or providers.local.context)",
                    source.name,
                    role.key(),
                    role.key()
                );
            }
        }
        Ok(())
    }

    /// Where the people seated in this debate are asked for their turns;
    /// `None` when only models sit.
    pub fn person_desk(&self) -> Option<std::sync::Arc<crate::provider::person::Desk>> {
        self.roles.iter().find_map(|r| r.model.person_desk().cloned())
    }

    pub fn role(&self, role: Role) -> &RoleSetup {
        &self.roles[role.position()]
    }

    /// About how many tokens a role's system prompt and a round's framing
    /// take: three characters a token for English prose (a cautious
    /// estimate), and 200 for the round's own lines.
    pub fn prompt_tokens(&self, role: Role) -> usize {
        self.prompts.system_for(role).chars().count() / 3 + 200
    }

    pub fn role_mut(&mut self, role: Role) -> &mut RoleSetup {
        &mut self.roles[role.position()]
    }

    /// The same set-up with the debaters' seats exchanged: each model
    /// argues the side the other did.
    #[must_use]
    pub fn with_sides_swapped(mut self) -> Self {
        self.roles.swap(Role::Advocate.position(), Role::Skeptic.position());
        self
    }

    /// Who plays each of `seats` (the seats that sit).
    pub fn participants(&self, seats: &[Role]) -> Vec<Participant> {
        seats.iter().map(|&r| self.role(r).participant(r)).collect()
    }
}

/// What to debate.
#[derive(Debug, Clone, PartialEq)]
pub struct DebateSpec {
    pub topic: String,
    pub max_rounds: u32,
    pub initial_heat: Heat,
    /// The date and the source document every prompt starts with.
    pub grounding: Grounding,
    /// The format, recorded when the debate starts; `None` is the duel.
    pub format: Option<FormatRecord>,
}

/// What grounds a debate in the world; recorded in the session when the
/// debate starts (the `Grounded` event).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grounding {
    /// Today's date (`debate.date`, on by default), as `2026-11-23`.
    pub date: Option<String>,
    pub source: Option<Source>,
    /// The library the debaters read from, opened; the session records
    /// what it held ([`LibraryRecord`]).
    pub library: Option<Shared>,
}
