//! The sentences the engine says besides the debate itself: warnings
//! before a round (a judge's context window too small for it, a long
//! proposition for a small model, what the embedded judge does not do),
//! and what an endpoint taught heat, with the labels they use for a served
//! model and an endpoint.

use super::seat::{PanelJudge, Role};
use super::setup::EngineSetup;
use super::state::DebateState;
use crate::provider::{Adaptation, StructuredOutput};
use crate::words::thousands;

/// How the notice about a judge's small context window begins.
const JUDGE_CONTEXT_NOTICE: &str = "the judge's context window";

/// What is said before round `round` starts (each warning decides for
/// itself whether it is due, most once a debate); `refused_tools` tells a
/// seat whose server refused tools.
pub fn at_round_start(
    setup: &EngineSetup,
    state: &DebateState,
    round: u32,
    refused_tools: impl Fn(Role) -> bool,
) -> Vec<String> {
    [
        judge_context_warning(setup, state),
        long_topic_warning(setup, state, round),
        swap_check_unasked(setup, state),
        judge_shares_a_model(setup, state),
        scores_unasked(setup, state),
        panel_on_embedded(setup, state),
        seats_without_tools(setup, state),
        tools_unused(setup, state, round, refused_tools),
        question_keeps_open(state),
        budget_unpriced(setup, state),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// What is said as the debate finishes: notes no request carried, and a
/// synthesis the judge left unsettled.
pub fn at_finish(state: &DebateState) -> Vec<String> {
    [undelivered_notes(state), unsettled_synthesis(state)].into_iter().flatten().collect()
}

/// A served model's name as a label: a server that names its model by the
/// file it loaded (`/models/SmolLM2-135M-Instruct.Q4_1.gguf`) gets the
/// file's name; anything else is kept as it is.
pub fn served_name(reported: &str) -> String {
    let path = std::path::Path::new(reported.trim());
    let is_file = reported.starts_with('/') || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf"));
    match path.file_stem().filter(|_| is_file) {
        Some(stem) => stem.to_string_lossy().into_owned(),
        None => reported.trim().to_string(),
    }
}

/// An endpoint as a person names it: `127.0.0.1:8765/v1` for the key
/// `openai http://127.0.0.1:8765/v1`.
pub fn endpoint_label(endpoint: &str) -> &str {
    let url = endpoint.split_once(' ').map_or(endpoint, |(_, url)| url);
    url.split_once("://").map_or(url, |(_, rest)| rest)
}

/// Before a round: whether the judge's context window (the embedded
/// model's, a few thousand tokens) can hold its prompt, this round's two
/// arguments at their longest, and its answer. Older rounds are dropped
/// from the judge's prompt to make room; this round never is, so a window
/// too small for one round is said before the round starts (once a debate).
pub fn judge_context_warning(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    let judge = setup.role(Role::Judge);
    let window = judge.model.context_tokens()?;
    let prompt = setup.prompt_tokens(Role::Judge);
    let arguments = Role::DEBATERS.iter().map(|&r| setup.role(r).max_tokens).sum::<u32>();
    let needed = prompt as u32 + arguments + judge.max_tokens;
    let warned = state.notices.iter().any(|n| n.starts_with(JUDGE_CONTEXT_NOTICE));
    (needed > window && !warned).then(|| {
        format!(
            "{JUDGE_CONTEXT_NOTICE} ({window} tokens) may not hold a round: about {prompt} for its prompt, \
             up to {arguments} for the two arguments and {} for the verdict. Lower the debaters' \
             max_tokens or raise providers.local.context; older rounds are left out of its prompt",
            judge.max_tokens
        )
    })
}

/// The start of a notice that the swap check is not asked of the embedded judge.
const SWAP_UNASKED_NOTICE: &str = "The swap check is not asked of the embedded judge";

/// With `debate.swap_check` on and the embedded judge, said once a
/// debate: its verdicts choose each side's strongest sentence and name no
/// side ahead, so there is nothing for the check to compare.
pub fn swap_check_unasked(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    let embedded = setup.role(Role::Judge).model.is_embedded();
    let said = state.notices.iter().any(|n| n.starts_with(SWAP_UNASKED_NOTICE));
    (setup.swap_check && embedded && !said).then(|| {
        format!(
            "{SWAP_UNASKED_NOTICE}: its verdicts choose each side's strongest sentence and name no side ahead, \
             so there is nothing to compare"
        )
    })
}

/// How the notice that the judge shares a debater's model begins.
const SAME_MODEL_NOTICE: &str = "The judge sits on the same model as";

/// Once, at the start: the judge answers on the same provider and model as
/// a debater it weighs, and a judge prefers answers like its own. Not said
/// of the embedded model (its judge picks sentences, not a side), of a
/// person, or of a scripted model.
pub fn judge_shares_a_model(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    if state.notices.iter().any(|n| n.starts_with(SAME_MODEL_NOTICE)) {
        return None;
    }
    let judge = state.participant(Role::Judge)?;
    let same: Vec<String> =
        state.judge_shares_a_model().into_iter().map(|r| format!("the {}", state.seat_name(r))).collect();
    if same.is_empty() {
        return None;
    }
    let named = match same.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => same.join(""),
    };
    let check = if setup.swap_check {
        ""
    } else {
        "; debate.swap_check asks it again with the sides swapped, at one more judge call a round"
    };
    Some(format!(
        "{SAME_MODEL_NOTICE} {} ({}/{}): a judge tends to prefer answers like its own. \
         --seat judge=PROVIDER:MODEL seats it on another{check}",
        named, judge.provider, judge.model
    ))
}

/// How the notice that a dollar budget counts nothing begins.
const BUDGET_UNPRICED_NOTICE: &str = "debate.budget_usd counts nothing";

/// Once: a dollar budget is set but a seat has no price, so dollars cannot
/// be counted (none are guessed); the token budget still holds.
pub fn budget_unpriced(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    setup.budget.usd?;
    if state.notices.iter().any(|n| n.starts_with(BUDGET_UNPRICED_NOTICE)) {
        return None;
    }
    let priced = |role: Role| setup.budget.prices.seats.iter().any(|(r, _)| *r == role);
    let unpriced: Vec<String> =
        // A person in a seat costs nothing.
        state.seats().into_iter().filter(|&r| !priced(r) && !state.seated_person(r)).map(|r| r.key().to_string()).collect();
    (!unpriced.is_empty()).then(|| {
        format!(
            "{BUDGET_UNPRICED_NOTICE}: the {} has no price (roles.{}.price_input and price_output)",
            unpriced.join(" and the "),
            unpriced[0]
        )
    })
}

/// How the notice that a format's scores are not asked begins.
const SCORES_UNASKED_NOTICE: &str = "The embedded judge gives no scores";

/// In a format that scores or keeps an argument map, with the embedded
/// judge, said once a debate: it chooses each side's strongest sentence, so
/// no argument is scored, the tug-of-war stays at its start, and the map
/// holds the sentences chosen that read as claims, with a scorecard heat
/// counts by rule.
pub fn scores_unasked(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    let embedded = setup.role(Role::Judge).model.is_embedded();
    let said = state.notices.iter().any(|n| n.starts_with(SCORES_UNASKED_NOTICE));
    let mapped = state.map().is_some();
    ((state.scored() || mapped) && embedded && !said).then(|| {
        let name = state.format.as_ref().map_or("", |f| f.name.as_str());
        let map = "its argument map keeps the sentences picked that read as claims, with a scorecard counted by rule";
        match (state.scored(), mapped) {
            (true, true) => format!(
                "{SCORES_UNASKED_NOTICE} (it picks each side's strongest sentence): this {name} debate's arguments are not scored; {map}"
            ),
            (true, false) => format!(
                "{SCORES_UNASKED_NOTICE} (it picks each side's strongest sentence): this {name} debate is not scored"
            ),
            _ => format!("{SCORES_UNASKED_NOTICE} (it picks each side's strongest sentence): this {name} debate's {map}"),
        }
    })
}

/// How the notice that a panel sits wholly on the embedded model begins.
const PANEL_EMBEDDED_NOTICE: &str = "Every panel judge is the embedded model";

/// A panel whose every judge is served by the embedded model, said once a
/// debate: each judge picks its own sentences, but the heat is measured
/// from how far apart the arguments are and the embedded judge never
/// resolves early, so the judges vote as one. The way out is named.
pub fn panel_on_embedded(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    let judges = state.judges();
    let chair_embedded = setup.role(Role::Judge).model.is_embedded();
    let all_embedded = PanelJudge::members(judges).all(|judge| super::panel::on_chairs_or_embedded(state, judge));
    let said = state.notices.iter().any(|n| n.starts_with(PANEL_EMBEDDED_NOTICE));
    (judges >= 2 && chair_embedded && all_embedded && !said).then(|| {
        format!(
            "{PANEL_EMBEDDED_NOTICE}, so all {judges} vote as one; --seat judge2=PROVIDER:MODEL seats one elsewhere"
        )
    })
}

/// How the notice that some debaters take no tools begins.
const NO_TOOLS_NOTICE: &str = "Tools:";

/// Once a debate, where the library or an MCP server offers tools: the
/// debaters whose model takes none (an agent CLI, a person; the embedded
/// model where only servers offer them), who argue from what they are given.
pub fn seats_without_tools(setup: &EngineSetup, state: &DebateState) -> Option<String> {
    let offered = setup.tool_calls > 0 && (setup.library.is_some() || !setup.servers.is_empty());
    if !offered || state.notices.iter().any(|n| n.starts_with(NO_TOOLS_NOTICE)) {
        return None;
    }
    let without: Vec<String> = state
        .debaters()
        .iter()
        .filter(|&&role| {
            let model = &setup.role(role).model;
            // The embedded model searches a library only: a server's tools are not for it.
            !model.takes_tools() || state.seated_person(role) || (model.is_embedded() && setup.library.is_none())
        })
        .map(|&role| format!("the {}", state.seat_name(role)))
        .collect();
    let (named, one) = match without.split_last() {
        None => return None,
        Some((last, rest)) if !rest.is_empty() => (format!("{} and {last}", rest.join(", ")), false),
        Some(_) => (without.join(""), true),
    };
    let (take, argue, is) = if one { ("takes", "argues", "it is") } else { ("take", "argue", "they are") };
    let given =
        if setup.library.is_some() { format!("the library's passages {is} given") } else { "what they know".into() };
    Some(format!("{NO_TOOLS_NOTICE} {named} {take} none and {argue} from {given}"))
}

/// How the notice that some debaters never use their tools begins.
const TOOLS_UNUSED_NOTICE: &str = "Tools unused:";

/// The rounds a seat offered tools argues without calling one before it is said.
const UNUSED_ROUNDS: u32 = 2;

/// Once a debate, as round `round` starts: the debaters offered tools in
/// every round so far (at least [`UNUSED_ROUNDS`]) that never called one
/// (a model that does not follow them), who argue from what they are
/// given. `refused` tells a seat whose server refused tools: that was said.
pub fn tools_unused(
    setup: &EngineSetup,
    state: &DebateState,
    round: u32,
    refused: impl Fn(Role) -> bool,
) -> Option<String> {
    if round < UNUSED_ROUNDS || state.notices.iter().any(|n| n.starts_with(TOOLS_UNUSED_NOTICE)) {
        return None;
    }
    let unused = |role: Role| {
        let argued: Vec<_> =
            state.rounds.iter().filter(|r| r.number < round).filter_map(|r| Some((r.number, r.turn(role)?))).collect();
        argued.len() >= UNUSED_ROUNDS as usize
            && argued.iter().all(|(number, turn)| {
                turn.tools.is_empty() && super::looking_up::offered(setup, state, *number, role, false).is_some()
            })
    };
    let seats: Vec<String> = state
        .debaters()
        .iter()
        .filter(|&&role| !refused(role) && unused(role))
        .map(|&role| format!("the {}'s", state.seat_name(role)))
        .collect();
    let (last, rest) = seats.split_last()?;
    let named = if rest.is_empty() { last.clone() } else { format!("{} and {last}", rest.join(", ")) };
    let (model, has, it, argues, is) = if rest.is_empty() {
        ("model", "has", "it", "argues", "is")
    } else {
        ("models", "have", "they", "argue", "are")
    };
    let knows = if rest.is_empty() { "knows" } else { "know" };
    let given = if setup.library.is_some() {
        format!("the library's passages {it} {is} given")
    } else {
        format!("what {it} {knows}")
    };
    Some(format!(
        "{TOOLS_UNUSED_NOTICE} {named} {model} {has} called none of the tools offered in {round} rounds; {it} {argues} from {given}"
    ))
}

/// Past this many characters a proposition reads as a document, not a
/// sentence: about a paragraph.
const LONG_PROPOSITION_CHARS: usize = 600;

/// Before the first round: whether the proposition is long, for any model
/// (every request of the debate carries it) or for a small context window
/// (the embedded model's: its first word then comes late, and less of the
/// debate fits). The numbers are said, and the way to debate a long text.
pub fn long_topic_warning(setup: &EngineSetup, state: &DebateState, round: u32) -> Option<String> {
    if round > 0 {
        return None;
    }
    let chars = state.topic.chars().count();
    // About three characters a token: a cautious estimate.
    let tokens = chars / 3;
    let window = Role::ALL.iter().filter_map(|&r| setup.role(r).model.context_tokens()).min();
    let crowds = window.filter(|&window| tokens * 4 > window as usize);
    if crowds.is_none() && chars <= LONG_PROPOSITION_CHARS {
        return None;
    }
    let cost = match crowds {
        Some(window) => format!(
            "long for the offline model's {}-token context: expect a slow first word and less room for the debate",
            thousands(u64::from(window))
        ),
        None => "and every request of the debate carries it".to_string(),
    };
    Some(format!(
        "the proposition is {} characters (about {} tokens), {cost}; a one-sentence proposition debates better, \
         and a long text is debated as a document: save it to a file and pass --source FILE",
        thousands(chars as u64),
        thousands(tokens as u64),
    ))
}

/// What a provider's lasting change for `endpoint` means to a person.
pub fn adapted(endpoint: &str, adaptation: &Adaptation) -> String {
    let server = endpoint_label(endpoint);
    match adaptation {
        Adaptation::OneAtATime => {
            format!("One request at a time to {server} from now on: it cut a stream when another request started")
        }
        Adaptation::StructuredOutput { form } => format!("Structured output from {server} now as {}", form.setting()),
        Adaptation::ContextWindow { tokens } => format!(
            "{server} gives a request {} tokens of context: prompts to it leave out the oldest rounds to fit",
            thousands(u64::from(*tokens))
        ),
        Adaptation::ChosenVerdicts => format!(
            "The judge on {server} could not write a verdict the guards accept, twice: \
             it chooses each side's strongest sentence and the next question from now on, as the offline judge does"
        ),
        Adaptation::CappedStrings => format!(
            "The judge on {server} wrote on inside the verdict's JSON until its token limit cut it: \
             the verdict's text is capped in length from now on"
        ),
    }
}

/// The judges resolved the current round while a question the person set
/// waits for the next: the debate stays open for it. `None` otherwise.
pub fn question_keeps_open(state: &DebateState) -> Option<String> {
    let round = state.current_round()?;
    let judged = round.turn(Role::Judge).is_some_and(|t| !t.purpose.is_final());
    let resolved = judged && round.verdict().is_some_and(|v| v.resolved);
    (resolved && state.next_question.is_some()).then(|| {
        let n = round.number + 1;
        format!("The judge resolved round {n}, but the question you set keeps the debate open: round {} asks it", n + 1)
    })
}

/// As the debate ends on a lone judge's final word that says it is not
/// settled (`"resolved": false`, "Not settled yet."): that word stands as
/// the synthesis, and is said to be the judge's last word, not a
/// resolution. `None` otherwise.
pub fn unsettled_synthesis(state: &DebateState) -> Option<String> {
    if state.judges() != 1 {
        return None;
    }
    let judge = state.rounds.last()?.turns.iter().rev().find(|t| t.role == Role::Judge)?;
    let unsettled = match &judge.verdict {
        Some(super::state::VerdictStatus::Parsed { verdict }) => !verdict.resolved,
        _ => false,
    };
    let chair = crate::debate::format::clean_label(state.label(Role::Judge)).to_lowercase();
    (judge.purpose.is_final() && unsettled).then(|| {
        format!(
            "The {chair}'s final word does not settle the debate (it answered \"resolved\": false): it stands as \
             the synthesis as the {chair}'s last word, not as a resolution"
        )
    })
}

/// The notes a person sent to some seats that no request of theirs carried
/// before the debate ended: said, not dropped silently. `None` when none.
pub fn undelivered_notes(state: &DebateState) -> Option<String> {
    let left: Vec<String> = state
        .seat_notes
        .iter()
        .map(|n| {
            let to: Vec<String> = n.seats.iter().map(|&r| state.seat_name(r)).collect();
            format!("to the {}: \u{201c}{}\u{201d}", to.join(" and the "), crate::sanitize::one_line(&n.text))
        })
        .collect();
    (!left.is_empty()).then(|| {
        let what = if left.len() == 1 { "A note was" } else { "Notes were" };
        format!("{what} never delivered, as no turn of that seat followed: {}", left.join("; "))
    })
}

/// Topics the person injected that no round will carry (the debate ends
/// here), given to the final synthesis instead.
/// A seat's model a person asked to change, which could not be set up:
/// the seat stays on its model, said with why.
pub fn model_unchanged(state: &DebateState, role: Role, why: &str) -> String {
    let now = state.participant(role).map(|p| format!(" ({}/{})", p.provider, p.model)).unwrap_or_default();
    format!("the {}'s model stays as it was{now}: {}", state.seat_name(role), crate::sanitize::clause(why))
}

pub fn injected_to_synthesis(notes: &[String]) -> String {
    let quoted: Vec<String> = notes.iter().map(|n| format!("“{}”", crate::sanitize::one_line(n))).collect();
    let (what, it) =
        if notes.len() == 1 { ("the topic you injected", "it") } else { ("the topics you injected", "them") };
    format!(
        "No round is left to argue {what}, so the judge's final synthesis is asked to weigh {it}: {}",
        quoted.join(", ")
    )
}

/// Earlier rounds given in brief in `seat`'s prompt to fit `window` tokens.
pub fn rounds_left_out(seat: &str, rounds: usize, window: u32) -> String {
    format!("{}{}-token context", left_out_opening(seat, rounds), thousands(u64::from(window)))
}

/// How [`rounds_left_out`]'s notice for `seat` leaving out `rounds`
/// rounds begins: all of it but the window, which can change. A resumed
/// debate reads back from it what it said (`engine::memory`).
pub fn left_out_opening(seat: &str, rounds: usize) -> String {
    let what = if rounds == 1 { "the earliest round".to_string() } else { format!("the {rounds} earliest rounds") };
    format!("The {seat}'s prompt gives {what} in brief, not in full, to fit its model's ")
}

/// How [`in_brief`]'s notice begins (it is said once a debate).
const IN_BRIEF: &str = "From round ";

/// Said once, as the first round starts whose prompts give an earlier round
/// in brief rather than in full (the prompts show the last
/// `HISTORY_ROUNDS` in full); `None` otherwise, and once said.
/// `by_model`: each side's point is its own model's brief (`debate.summaries = "model"`).
pub fn in_brief(state: &DebateState, round: u32, by_model: bool) -> Option<String> {
    let shown = super::prompt::HISTORY_ROUNDS;
    let first = round as usize == shown + 1 && !state.notices.iter().any(|n| n.starts_with(IN_BRIEF));
    let point =
        if by_model { "each side's argument as its own model put it in brief" } else { "each side's main point" };
    first.then(|| {
        format!(
            "{IN_BRIEF}{} on, every prompt gives the rounds before its last {shown} in brief: {point}, \
             its quotes found word for word and the verdict's first sentence",
            round + 1
        )
    })
}

/// The verdict's form stepped down because `endpoint` refused the stronger one.
pub fn stepped_down(provider: &str, endpoint: &str, from: StructuredOutput, to: StructuredOutput) -> String {
    format!(
        "The verdict now comes as {}: {} refused {} (providers.{provider}.structured_output sets the form)",
        to.describe(provider),
        endpoint_label(endpoint),
        from.describe(provider),
    )
}

/// The endpoint took a form of structured output and answered prose that
/// form cannot produce: it ignores the form, which is as good as a refusal.
pub fn form_ignored(provider: &str, endpoint: &str, from: StructuredOutput, to: StructuredOutput) -> String {
    format!(
        "The verdict now comes as {}: {} accepted {} but answered in prose (providers.{provider}.structured_output sets the form)",
        to.describe(provider),
        endpoint_label(endpoint),
        from.describe(provider),
    )
}

/// A sampling parameter `model` refused, and what heat does without it.
pub fn parameter_dropped(model: &str, param: &str, message: &str) -> String {
    match param {
        "temperature" => format!("{model}: temperature not accepted; heat reaches it by prompt only"),
        "max_tokens" => format!("{model}: `max_tokens` not accepted; the answer's room goes as max_completion_tokens"),
        "reasoning_effort" => format!("{model}: `reasoning_effort` not accepted ({message}); it thinks as it will"),
        "tools" => format!("{model} takes no tools ({message}); it argues from the passages it is given"),
        other => format!("{model}: `{other}` not accepted ({message}); sent without it"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_served_model_named_by_its_file_is_labelled_by_the_file_name() {
        let name = super::served_name("/work/models/SmolLM2-135M-Instruct.Q4_1.gguf");
        assert_eq!(name, "SmolLM2-135M-Instruct.Q4_1");
        assert_eq!(super::served_name("meta-llama/Llama-3.1-8B-Instruct"), "meta-llama/Llama-3.1-8B-Instruct");
        assert_eq!(super::served_name("qwen2.5:0.5b"), "qwen2.5:0.5b");
    }

    #[test]
    fn an_endpoint_is_named_by_its_host_and_path() {
        assert_eq!(super::endpoint_label("openai http://127.0.0.1:8765/v1"), "127.0.0.1:8765/v1");
        assert_eq!(super::endpoint_label("anthropic https://api.anthropic.com"), "api.anthropic.com");
    }
}
