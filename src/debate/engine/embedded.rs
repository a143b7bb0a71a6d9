//! What the engine asks differently of the embedded model: its judge
//! chooses from the arguments (the chosen schema) in a prompt fitted to its
//! small context, and a review's critic on it is held to raise an issue.

use super::Engine;
use crate::debate::event::TurnPurpose;
use crate::debate::seat::Role;
use crate::debate::setup::RoleSetup;
use crate::debate::{extractive, issues};
use crate::provider::ResponseSchema;

impl Engine {
    /// The id of the issue `role` is held to raise this turn: a critic of a
    /// review on the embedded model (one on a server is asked in words).
    pub(super) fn raising(&self, role: Role) -> Option<String> {
        let critic = self.state.tracks_issues() && self.state.side(role) == crate::debate::seat::Side::Against;
        (critic && self.setup.role(role).model.is_embedded()).then(|| issues::raising::next_id(&self.state, role))
    }

    /// The embedded judge's schema for this round: it chooses from the
    /// arguments instead of writing (`extractive`). `None` for every other
    /// judge, and when an argument offers no sentence to choose.
    pub(super) fn chosen_schema(&self, round: u32, purpose: TurnPurpose) -> Option<ResponseSchema> {
        if !self.setup.role(Role::Judge).model.is_embedded() {
            return None;
        }
        let current = self.state.rounds.iter().find(|r| r.number == round)?;
        let seats = extractive::seats(&self.state, current);
        let issues = extractive::issue_ids(&self.state);
        let schema = extractive::schema(&self.state.topic, &seats, purpose.is_final(), &issues)?;
        Some(ResponseSchema::new("verdict", schema))
    }
}

/// The tokens a chat template adds around the messages, at most (SmolLM2's
/// `<|im_start|>role` lines), with room to spare.
const TEMPLATE_TOKENS: usize = 48;

/// How many characters the embedded judge's round prompt may take: its
/// context, less the answer, the system prompt (and its grounding block)
/// and the template, at a cautious three characters a token (English runs
/// nearer four). `None` where the context is not known: a server says so
/// itself.
pub(super) fn chosen_room(setup: &RoleSetup, system: &str, grounding: Option<&str>) -> Option<usize> {
    let context = usize::try_from(setup.model.context_tokens()?).ok()?;
    let said = system.chars().count() + grounding.map_or(0, |g| g.chars().count());
    let left = context.saturating_sub(setup.max_tokens as usize + said / 3 + TEMPLATE_TOKENS);
    Some(left * 3)
}
