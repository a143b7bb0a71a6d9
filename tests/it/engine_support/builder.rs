//! The one place tests (and the engine bench) build an `EngineSetup`: the
//! seats, then only what a test changes (the retry policy, the swap check);
//! everything else is the engine's default. A new field of `EngineSetup` is
//! given its default here, once.

use heat::debate::engine::{self, EngineSetup, RoleSetup};
use heat::debate::prompt::Prompts;
use heat::debate::seat::Role;
use heat::provider::retry::RetryPolicy;

/// An `EngineSetup` being built: see [`setup`] and [`duel`].
#[must_use]
pub struct SetupBuilder(EngineSetup);

/// Debaters in seat order and a judge (a debater's seat left over takes the
/// first debater's); the default prompts and retry policy, no swap check.
pub fn setup(debaters: &[RoleSetup], judge: &RoleSetup) -> SetupBuilder {
    SetupBuilder::seating(engine::seat_roles(debaters, judge))
}

/// The duel's three seats (the seats past the duel's take the advocate's);
/// the default prompts and retry policy, no swap check.
pub fn duel(advocate: RoleSetup, skeptic: RoleSetup, judge: RoleSetup) -> SetupBuilder {
    SetupBuilder::seating(engine::duel_roles([advocate, skeptic, judge]))
}

impl SetupBuilder {
    fn seating(roles: [RoleSetup; Role::COUNT]) -> Self {
        SetupBuilder(EngineSetup {
            roles,
            prompts: Prompts::default(),
            retry: RetryPolicy::default(),
            judge_temperature: 0.2,
            seed: None,
            swap_check: false,
            judges: None,
            clock: heat::debate::engine::Clock::default(),
            budget: heat::debate::engine::Budget::default(),
            library: None,
            tool_calls: 4,
            servers: Vec::new(),
            model_briefs: false,
        })
    }

    /// What the debate may spend.
    pub fn budget(mut self, budget: heat::debate::engine::Budget) -> Self {
        self.0.budget = budget;
        self
    }

    /// Debaters' turns and rounds held to `clock`.
    pub fn clock(mut self, clock: heat::debate::engine::Clock) -> Self {
        self.0.clock = clock;
        self
    }

    /// Retries by `policy`.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.0.retry = policy;
        self
    }

    /// At most `max_retries` retries, waited for as by default.
    pub fn retries(self, max_retries: u32) -> Self {
        self.retry(RetryPolicy { max_retries, ..RetryPolicy::default() })
    }

    /// The swap check (`debate.swap_check`) on or off.
    pub fn swap_check(mut self, on: bool) -> Self {
        self.0.swap_check = on;
        self
    }

    /// The debaters read from `library`, calling at most `tool_calls` tools a turn.
    pub fn library(mut self, library: std::sync::Arc<heat::library::Library>, tool_calls: u32) -> Self {
        self.0.library = Some(library);
        self.0.tool_calls = tool_calls;
        self
    }

    /// Old rounds put in brief by the debaters' models (`debate.summaries = "model"`).
    pub fn model_briefs(mut self, on: bool) -> Self {
        self.0.model_briefs = on;
        self
    }

    /// The seats' prompts (`Prompts::compact()`, as every embedded debate has).
    pub fn prompts(mut self, prompts: Prompts) -> Self {
        self.0.prompts = prompts;
        self
    }

    pub fn build(self) -> EngineSetup {
        self.0
    }
}
