//! What each call sends: a seat's turn (its prompt, the verdict's schema in
//! the form the judge's endpoint takes, the heat as a temperature where one
//! is sent), a panel judge's vote and the swap check. Built from the set-up
//! and the folded state; nothing here sends anything.

use crate::debate::seat::PanelJudge;

use crate::debate::event::{Refusal, TurnPurpose};
use crate::debate::seat::{Role, Side};
use crate::debate::setup::{EngineSetup, RoleSetup, StructuredSetting};
use crate::debate::state::DebateState;
use crate::debate::temperature::{self, Purpose};
use crate::debate::{extractive, issues, looking_up, panel, prompt, scores, swap, verdict};
use crate::provider::{Adaptation, ChatMessage, ChatRequest, ReasoningAsk, ResponseSchema, StructuredOutput};

/// What requests are built from.
pub struct Requests<'a> {
    pub setup: &'a EngineSetup,
    pub state: &'a DebateState,
    /// The block every request starts with (`grounding::preamble`).
    pub preamble: Option<&'a str>,
}

impl Requests<'_> {
    /// A seat's turn in `round`.
    pub fn turn(&self, round: u32, role: Role, purpose: TurnPurpose) -> ChatRequest {
        self.turn_fitted(round, role, purpose).0
    }

    /// A seat's turn in `round`, fitted to the context its server gives a
    /// request where that is known (see [`Requests::fit`]); with how many
    /// earlier rounds were left out to fit.
    pub fn turn_fitted(&self, round: u32, role: Role, purpose: TurnPurpose) -> (ChatRequest, usize) {
        let setup = self.setup.role(role);
        let state = self.state;
        let heat = state.rounds.iter().find(|r| r.number == round).map_or(state.heat, |r| r.heat_for(role));
        let format_brief = state.format.as_ref().and_then(|f| f.brief(role));
        // A debater's messages carry the control line unless it is a tiny
        // model given brief prompts (see `prompt::debater_messages`).
        let brief = setup.model.is_embedded();
        let mut system = if role.is_judge() || brief {
            self.setup.prompts.system_with(role, format_brief)
        } else {
            self.setup.prompts.system_with_control(role, format_brief)
        };
        let refused = state.refuses(role, Refusal::Tools);
        let tools = looking_up::offered(self.setup, state, round, role, refused);
        if let Some(tools) = &tools {
            system = format!("{}\n\n{}", system.trim_end(), looking_up::how_to_look_up(tools));
        }
        // What the turn looked up so far goes with it: each stop to call tools, and the answers.
        let looked_up: Vec<ChatMessage> = state
            .rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.turn(role))
            .filter(|t| t.is_open())
            .map(|t| t.tools.iter().flat_map(crate::debate::state::ToolStep::messages).collect())
            .unwrap_or_default();
        // An embedded critic is held to open with its issue line; its lead follows it.
        let raising = self.raising(role);
        let chosen = role.is_judge().then(|| self.chosen_schema(round, purpose)).flatten();
        let room = chosen.as_ref().and_then(|_| chosen_room(setup, &system, self.preamble));
        // A turn that may still look something up is not given its opening: it opens with its call.
        let calling = tools.as_ref().is_some_and(|t| t.may_call);
        let opening = (setup.model.continues_answer() && raising.is_none() && !calling)
            .then(|| prompt::opening(state, role, round))
            .flatten();
        let messages = |kept: usize| {
            if role.is_judge() {
                let asked = (chosen.is_some(), PanelJudge::CHAIR);
                return prompt::judge_messages_keeping(state, round, purpose, asked, room, kept);
            }
            let mut messages = prompt::debater_messages_keeping(state, role, round, brief, kept);
            messages.extend(looked_up.iter().cloned());
            messages.extend(opening.clone().map(ChatMessage::assistant));
            messages
        };
        let response_schema =
            role.is_judge().then(|| chosen.clone().unwrap_or_else(|| self.verdict_schema(setup, self.asked_schema())));
        let grammar = raising.map(|id| issues::raising::grammar(&id, prompt::opening(state, role, round).as_deref()));
        let wanted = Purpose::of(role, heat, self.setup.judge_temperature);
        let temperature = temperature::sent(
            wanted,
            setup.thinking_budget.is_some() || !setup.model.takes_temperature(),
            self.state.refuses(role, Refusal::Temperature),
        );
        let request = ChatRequest {
            model: setup.model_name.clone(),
            system,
            grounding: self.preamble.map(str::to_string),
            messages: Vec::new(),
            temperature,
            max_tokens: setup.max_tokens,
            thinking_budget: setup.thinking_budget,
            response_schema,
            grammar,
            seed: self.setup.seed,
            reasoning: self.reasoning(role, setup),
            tools,
            closing: purpose.is_final(),
        };
        self.fit(request, setup, round, messages)
    }

    /// How `role`'s model is asked for its reasoning: the configured effort
    /// unless refused, and the answer's room in the field it takes.
    fn reasoning(&self, role: Role, setup: &RoleSetup) -> ReasoningAsk {
        let refused = |what| self.state.refuses(role, what);
        ReasoningAsk {
            completion_tokens: refused(Refusal::MaxTokens),
            effort: setup.reasoning_effort.clone().filter(|_| !refused(Refusal::ReasoningEffort)),
        }
    }

    /// The context a request to `setup`'s model may take: the embedded
    /// model's own; else the configured one (`providers.<name>.max_context`)
    /// or the one the server was found to give, whichever is smaller.
    /// `None` where nothing is known.
    pub fn window(&self, setup: &RoleSetup) -> Option<u32> {
        if setup.model.is_embedded() {
            return setup.model.context_tokens();
        }
        let learnt = setup.model.endpoint().and_then(|e| self.state.context_window_for(&e));
        match (setup.max_context, learnt) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Gives `request` its messages (`messages` builds them keeping that
    /// many earlier rounds), fitted to its server's context where known:
    /// the oldest of the earlier rounds are left out first, then the
    /// answer's room is lowered, never below [`MIN_ANSWER_TOKENS`]; the
    /// system prompt, the source block and the current round stay. With how
    /// many earlier rounds were left out.
    fn fit(
        &self,
        mut request: ChatRequest,
        setup: &RoleSetup,
        round: u32,
        messages: impl Fn(usize) -> Vec<ChatMessage>,
    ) -> (ChatRequest, usize) {
        request.messages = messages(prompt::HISTORY_ROUNDS);
        let Some(window) = self.window(setup).map(|w| w as usize) else { return (request, 0) };
        let shown = (round as usize).min(prompt::HISTORY_ROUNDS);
        let mut kept = shown;
        while kept > 0 && needed_tokens(&request) > window {
            kept -= 1;
            request.messages = messages(kept);
        }
        let prompt = needed_tokens(&request) - request.max_tokens as usize;
        let room = u32::try_from(window.saturating_sub(prompt)).unwrap_or(u32::MAX);
        request.max_tokens = request.max_tokens.min(room.max(MIN_ANSWER_TOKENS));
        (request, shown - kept)
    }

    /// Judge `judge` of the panel's vote on `round`, asked as the chair is
    /// for `purpose` (`own`: the set-up of a judge on a provider of its own).
    pub fn vote(&self, round: u32, judge: PanelJudge, purpose: TurnPurpose, own: Option<&RoleSetup>) -> ChatRequest {
        let state = self.state;
        let mut request = self.turn(round, Role::Judge, purpose);
        let seats = state.judges();
        // The chosen form is the embedded chair's; a judge on a provider of its own writes its verdict.
        let mut chosen = self.chosen_schema(round, purpose).is_some();
        if let Some(own) = own {
            chosen &= own.model.is_embedded();
            request.model.clone_from(&own.model_name);
            request.max_tokens = own.max_tokens;
            request.thinking_budget = None;
            if !chosen {
                request.response_schema = Some(self.verdict_schema(own, self.asked_schema()));
            }
        }
        if let Some(model) = panel::model_of(state, judge) {
            request.model = model.to_string();
        }
        let answering = own.unwrap_or_else(|| self.setup.role(Role::Judge));
        let room = chosen.then(|| chosen_room(answering, &request.system, request.grounding.as_deref())).flatten();
        // Said last, not in the brief: the chair's brief stays the prompt's
        // start, so the embedded model serves every judge on the chair's lane.
        let seat_line = format!(
            "\n\nYou are judge {judge} of a panel of {seats}. Judge this round on your own reading; \
             the panel decides by majority."
        );
        let messages = |kept: usize| {
            let mut messages = prompt::judge_messages_keeping(state, round, purpose, (chosen, judge), room, kept);
            if let Some(last) = messages.last_mut() {
                last.content.push_str(&seat_line);
            }
            messages
        };
        // Each judge its own draw where a seed is sent, or the judges of an
        // embedded model would answer alike; a server is sent none unasked.
        if request.seed.is_some() || answering.model.is_embedded() {
            request.seed = Some(request.seed.unwrap_or_default().wrapping_add(u64::from(judge.number())));
        }
        self.fit(request, answering, round, messages).0
    }

    /// The judge's request for the swap check of `round`: its model, limits
    /// and the form of structured output its endpoint takes, with the
    /// check's own brief, message and schema. `None` for a round that is
    /// not in the debate.
    pub fn swap_check(&self, round: u32) -> Option<ChatRequest> {
        let current = self.state.rounds.iter().find(|r| r.number == round)?;
        let setup = self.setup.role(Role::Judge);
        let temperature = temperature::sent(
            Purpose::Judge(self.setup.judge_temperature),
            setup.thinking_budget.is_some() || !setup.model.takes_temperature(),
            self.state.refuses(Role::Judge, Refusal::Temperature),
        );
        Some(ChatRequest {
            model: setup.model_name.clone(),
            system: swap::system(),
            grounding: self.preamble.map(str::to_string),
            messages: swap::messages(self.state, current),
            temperature,
            max_tokens: setup.max_tokens,
            thinking_budget: setup.thinking_budget,
            response_schema: Some(self.verdict_schema(setup, swap::schema())),
            seed: self.setup.seed,
            reasoning: self.reasoning(Role::Judge, setup),
            ..ChatRequest::default()
        })
    }

    /// `role`'s model asked to put its argument in `round` in brief: its
    /// own model and limits, at the judge's temperature. `None` when it
    /// made no argument there.
    pub fn brief(&self, round: u32, role: Role) -> Option<ChatRequest> {
        let setup = self.setup.role(role);
        let temperature = temperature::sent(
            Purpose::Judge(self.setup.judge_temperature),
            setup.thinking_budget.is_some() || !setup.model.takes_temperature(),
            self.state.refuses(role, Refusal::Temperature),
        );
        Some(ChatRequest {
            model: setup.model_name.clone(),
            system: crate::debate::briefing::system().to_string(),
            messages: crate::debate::briefing::messages(self.state, round, role)?,
            temperature,
            max_tokens: setup.max_tokens.min(BRIEF_TOKENS),
            thinking_budget: setup.thinking_budget,
            seed: self.setup.seed,
            reasoning: self.reasoning(role, setup),
            ..ChatRequest::default()
        })
    }

    /// The verdict's schema with what the format asks besides (scores, the
    /// argument map, rulings on issues).
    fn asked_schema(&self) -> serde_json::Value {
        let state = self.state;
        let asked = if state.scored() { scores::with_scores(verdict::schema()) } else { verdict::schema() };
        let asked = match state.map() {
            Some(spec) => crate::debate::argument_map::with_map(asked, spec),
            None => asked,
        };
        if state.tracks_issues() { issues::with_issues(asked) } else { asked }
    }

    /// The verdict's schema in the form the judge's endpoint takes: the
    /// configured form, or the weaker one the server was found to accept.
    fn verdict_schema(&self, setup: &RoleSetup, schema: serde_json::Value) -> ResponseSchema {
        let (start, may_step_down) = match setup.structured {
            StructuredSetting::Auto => (StructuredOutput::Schema, true),
            StructuredSetting::Fixed(form) => (form, false),
        };
        let endpoint = setup.model.endpoint();
        let learnt = endpoint.as_deref().and_then(|e| self.state.structured_output_for(e));
        let form = if may_step_down { learnt.map_or(start, |l| l.max(start)) } else { start };
        // A grammar that holds the answer to the schema holds it to length caps too.
        let capped = setup.caps_strings || endpoint.is_some_and(|e| self.state.caps_strings_for(&e));
        ResponseSchema { form, may_step_down, capped, ..ResponseSchema::new("verdict", schema) }
    }

    /// The id of the issue `role` is held to raise this turn: a critic of a
    /// review on the embedded model (one on a server is asked in words).
    fn raising(&self, role: Role) -> Option<String> {
        let critic = self.state.tracks_issues() && self.state.side(role) == Side::Against;
        (critic && self.setup.role(role).model.is_embedded()).then(|| issues::raising::next_id(self.state, role))
    }

    /// The embedded judge's schema for this round: it chooses from the
    /// arguments instead of writing (`extractive`). `None` for every other
    /// judge, and when an argument offers no sentence to choose.
    fn chosen_schema(&self, round: u32, purpose: TurnPurpose) -> Option<ResponseSchema> {
        let setup = self.setup.role(Role::Judge);
        // A server's judge chooses once it was found unable to write a verdict, where a schema holds.
        let served_chooses = setup.model.endpoint().is_some_and(|e| self.state.knows(&e, &Adaptation::ChosenVerdicts));
        if !setup.model.is_embedded() && !served_chooses {
            return None;
        }
        let current = self.state.rounds.iter().find(|r| r.number == round)?;
        let seats = extractive::seats(self.state, current);
        let issues = extractive::issue_ids(self.state);
        let schema = extractive::schema(&self.state.topic, &seats, purpose.is_final(), &issues)?;
        let asked = self.verdict_schema(setup, schema);
        (asked.form != StructuredOutput::Off).then_some(asked)
    }
}

/// The most a brief's answer may take (its words are capped besides).
const BRIEF_TOKENS: u32 = 160;

/// The fewest tokens a fitted request leaves for its answer.
pub const MIN_ANSWER_TOKENS: u32 = 256;

/// Tokens a chat template spends on each message's markers, at most.
const PER_MESSAGE_TOKENS: usize = 8;

/// What a request needs of a server's context, prompt and answer: its
/// text at a cautious three characters a token (English runs nearer four),
/// the template's markers, and the answer's `max_tokens`.
pub fn needed_tokens(request: &ChatRequest) -> usize {
    let chars = request.system.chars().count()
        + request.grounding.as_deref().map_or(0, |g| g.chars().count())
        + request.messages.iter().map(|m| m.content.chars().count()).sum::<usize>();
    chars / 3 + TEMPLATE_TOKENS + PER_MESSAGE_TOKENS * request.messages.len() + request.max_tokens as usize
}

/// The tokens a chat template adds around the messages, at most (SmolLM2's
/// `<|im_start|>role` lines), with room to spare.
const TEMPLATE_TOKENS: usize = 48;

/// How many characters the embedded judge's round prompt may take: its
/// context, less the answer, the system prompt (and its grounding block)
/// and the template, at a cautious three characters a token (English runs
/// nearer four). `None` where the context is not known: a server says so
/// itself.
fn chosen_room(setup: &RoleSetup, system: &str, grounding: Option<&str>) -> Option<usize> {
    let context = usize::try_from(setup.model.context_tokens()?).ok()?;
    let said = system.chars().count() + grounding.map_or(0, |g| g.chars().count());
    let left = context.saturating_sub(setup.max_tokens as usize + said / 3 + TEMPLATE_TOKENS);
    Some(left * 3)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use super::*;
    use crate::debate::event::{DebateEvent, Participant};
    use crate::debate::heat::Heat;
    use crate::debate::setup::{Budget, Clock, duel_roles};
    use crate::provider::scripted::{Reply, ScriptedModel};

    /// Every seat on a scripted model, asked with a temperature and a reasoning effort.
    fn setup() -> EngineSetup {
        let model = Arc::new(ScriptedModel::new([], Reply::text("Tabs."))) as Arc<dyn crate::provider::ChatModel>;
        let mut seat = RoleSetup::new(model, "mock-a", 512);
        seat.reasoning_effort = Some("low".into());
        EngineSetup {
            roles: duel_roles([seat.clone(), seat.clone(), seat]),
            prompts: prompt::Prompts::default(),
            retry: crate::provider::retry::RetryPolicy::default(),
            judge_temperature: 0.2,
            seed: None,
            swap_check: false,
            judges: None,
            clock: Clock::default(),
            budget: Budget::default(),
            library: None,
            tool_calls: 0,
            servers: Vec::new(),
            model_briefs: false,
        }
    }

    /// A duel's first round folded from `events` after its start.
    fn folded(events: &[DebateEvent]) -> DebateState {
        let mut state = DebateState::default();
        state.apply(&DebateEvent::duel_started());
        for event in events {
            state.apply(event);
        }
        let topic = "Tabs beat spaces".to_string();
        state.apply(&DebateEvent::RoundStarted { round: 0, topic, heat: Heat::new(0.9), injected: Vec::new() });
        state
    }

    fn asked(state: &DebateState, role: Role) -> ChatRequest {
        let setup = setup();
        Requests { setup: &setup, state, preamble: None }.turn(0, role, TurnPurpose::Argue)
    }

    #[test]
    fn a_refusal_the_log_holds_keeps_the_parameter_out_of_the_seats_requests() {
        let refused = |role, what| DebateEvent::ParameterRefused { role, what };
        let state = folded(&[
            refused(Role::Advocate, Refusal::Temperature),
            refused(Role::Advocate, Refusal::ReasoningEffort),
            refused(Role::Judge, Refusal::Temperature),
            refused(Role::Judge, Refusal::MaxTokens),
        ]);
        let advocate = asked(&state, Role::Advocate);
        assert_eq!(advocate.temperature, None, "the log said the advocate's model refused it");
        assert_eq!(advocate.reasoning.effort, None);
        assert!(!advocate.reasoning.completion_tokens, "only what it refused");
        let skeptic = asked(&state, Role::Skeptic);
        assert_eq!(skeptic.temperature, Some(0.9), "each seat its own");
        assert_eq!(skeptic.reasoning.effort.as_deref(), Some("low"));
        let setup = setup();
        let requests = Requests { setup: &setup, state: &state, preamble: None };
        let check = requests.swap_check(0).unwrap();
        assert_eq!(check.temperature, None, "the judge's swap check too");
        assert!(check.reasoning.completion_tokens, "its answer's room goes in the field its model takes");
    }

    #[test]
    fn a_log_without_the_refusal_or_a_seat_put_on_another_model_sends_the_parameter() {
        let old = folded(&[]);
        assert_eq!(asked(&old, Role::Advocate).temperature, Some(0.9), "a log from before the event");
        let moved = folded(&[
            DebateEvent::ParameterRefused { role: Role::Advocate, what: Refusal::Temperature },
            DebateEvent::SeatModelChanged {
                role: Role::Advocate,
                participant: Participant::new(Role::Advocate, "openai", "mock-b"),
            },
        ]);
        assert_eq!(asked(&moved, Role::Advocate).temperature, Some(0.9), "the refusal was the old model's");
        let same = folded(&[
            DebateEvent::ParameterRefused { role: Role::Advocate, what: Refusal::Temperature },
            DebateEvent::SeatModelChanged {
                role: Role::Advocate,
                participant: Participant::new(Role::Advocate, "openai", "mock-a"),
            },
        ]);
        assert_eq!(asked(&same, Role::Advocate).temperature, None, "the same model refuses it still");
        // A branch reads its parent's log: what a seat it keeps on its model refused holds there too.
        let on = |role, model: &str| Participant::new(role, "openai", model);
        let branched = folded(&[
            DebateEvent::ParameterRefused { role: Role::Advocate, what: Refusal::Temperature },
            DebateEvent::ParameterRefused { role: Role::Skeptic, what: Refusal::Temperature },
            DebateEvent::Branched {
                from: "20260101-000000-aaaa".into(),
                round: 1,
                records: 4,
                how: "the advocate on mock-b".into(),
                participants: vec![
                    on(Role::Advocate, "mock-b"),
                    on(Role::Skeptic, "mock-a"),
                    on(Role::Judge, "mock-a"),
                ],
                changes: crate::debate::event::BranchChanges::default(),
            },
        ]);
        assert_eq!(asked(&branched, Role::Advocate).temperature, Some(0.9), "the branch seats another model");
        assert_eq!(asked(&branched, Role::Skeptic).temperature, None, "the branch keeps the skeptic's");
    }
}
