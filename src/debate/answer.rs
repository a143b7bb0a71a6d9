//! What a finished model call means, as a pure function of the folded
//! state, the call and what it answered: which events to record and what to
//! ask next. An argument is held to its guard (one more try, then the turn
//! fails), a judge's answer read into a verdict or found unusable, a panel
//! judge's into its vote, a swap check's compared with the round's verdict.
//! No I/O, no async: the engine performs what this returns, as it performs
//! the planner's steps.

use super::call::Call;
use super::event::{DebateEvent, TurnPurpose};
use super::guard::turn::{self as guard, ArgumentOutcome, SentPrompt, VerdictOutcome};
use super::seat::Role;
use super::state::DebateState;
use super::verdict::{self, Verdict};
use super::{extractive, heard, notices, panel, swap, vote};
use crate::provider::{Adaptation, FinishReason, StructuredOutput, Usage};

/// A call that answered in full.
#[derive(Debug, Clone)]
pub struct Answered<'a> {
    pub call: Call,
    /// What it was asked for (a turn's purpose, or a vote's).
    pub purpose: TurnPurpose,
    /// What the model was sent, for the guards.
    pub sent: &'a SentPrompt,
    /// This was the one more try a guard asked for.
    pub guard_retry: bool,
    /// A vote's or a swap check's answer; a turn's text is in the state,
    /// streamed there as it came.
    pub text: &'a str,
    pub usage: Option<Usage>,
    pub finish: Option<FinishReason>,
    /// The answering model's token limit: where an answer cut at it stopped
    /// when the provider gave no count.
    pub max_tokens: u32,
    /// The form of structured output a judge's answer was asked in, on a server.
    pub form: Option<AskedForm<'a>>,
}

/// The form of structured output a call was asked in, and where.
#[derive(Debug, Clone, Copy)]
pub struct AskedForm<'a> {
    pub endpoint: &'a str,
    /// The provider's name, as settings and messages say it.
    pub provider: &'a str,
    /// The form that answered (a refusal during the call may have stepped it down).
    pub form: StructuredOutput,
    /// Whether the setting lets heat step the form down (`auto`).
    pub may_step_down: bool,
    /// Whether its schema went with length caps: the server is known to
    /// hold an answer to a schema (its grammar).
    pub capped: bool,
}

/// What the engine does about an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Act {
    /// Record (and show) this event.
    Emit(DebateEvent),
    /// Ask the seat for this turn again: the guard's one more try.
    AskAgain { round: u32, role: Role, purpose: TurnPurpose },
    /// Check what the argument just completed cites from the source.
    CheckQuotes { round: u32, role: Role, text: String },
}

/// What a call that answered in full means.
pub fn on_done(state: &DebateState, answered: &Answered<'_>) -> Vec<Act> {
    match answered.call {
        Call::Turn { round, role } => turn_done(state, answered, round, role),
        Call::Vote { round, judge } => {
            let usage = answered.usage.and_then(|u| u.measured(answered.text));
            match verdict_of(state, round, answered.purpose, answered.sent, answered.text) {
                Ok((verdict, _)) => vec![Act::Emit(DebateEvent::PanelVoted { round, judge, verdict, usage })],
                Err(error) => {
                    let error = format!("its answer could not be read: {error}");
                    let failed = DebateEvent::PanelVoteFailed { round, judge, error, usage };
                    let long = ran_long(state, answered, answered.text, cut_at(answered, usage).is_some());
                    let ignored = form_ignored(state, answered, answered.text);
                    ignored.into_iter().chain(long).chain([failed]).map(Act::Emit).collect()
                }
            }
        }
        Call::SwapCheck { round } => {
            let usage = answered.usage.and_then(|u| u.measured(answered.text));
            vec![Act::Emit(swap_checked(state, round, answered.text, usage))]
        }
        Call::Brief { round, role } => {
            let usage = answered.usage.and_then(|u| u.measured(answered.text));
            vec![Act::Emit(match super::briefing::read(answered.text) {
                Ok(text) => DebateEvent::Briefed { round, role, text, usage },
                Err(error) => DebateEvent::BriefFailed { round, role, error, usage },
            })]
        }
    }
}

/// What a call that failed for good (`error`, a sentence) means: the turn
/// fails, the judge gives no vote, the swap check could not be used.
pub fn on_failed(call: Call, error: String, usage: Option<Usage>) -> DebateEvent {
    match call {
        Call::Turn { round, role } => DebateEvent::TurnFailed { round, role, error },
        Call::Vote { round, judge } => DebateEvent::PanelVoteFailed { round, judge, error, usage },
        Call::SwapCheck { round } => DebateEvent::SwapCheckFailed { round, error, usage },
        Call::Brief { round, role } => DebateEvent::BriefFailed { round, role, error, usage },
    }
}

/// A call to `endpoint` failed because its prompt did not fit the context
/// the server gives one request, and the server said how much that is
/// (`window`): the window is recorded for the endpoint, and the call is to
/// be asked again, fitted to it. `None` when the state already knew a
/// window that small: the prompt was fitted and still failed, so the call
/// fails.
pub fn context_learnt(state: &DebateState, endpoint: &str, window: u32) -> Option<DebateEvent> {
    let adaptation = Adaptation::ContextWindow { tokens: window };
    let message = notices::adapted(endpoint, &adaptation);
    heard::learnt(state, endpoint, adaptation, message)
}

/// A call refused as longer than its server's context, where the server
/// did not say its size: the window to fit the call to is guessed as three
/// quarters of what was sent (the prompt at three characters a token, and
/// the answer's room), and said as a guess. Each guess is smaller than the
/// window the call was fitted to, down to 512 tokens; `None` then (the
/// call fails).
pub fn context_guessed(state: &DebateState, endpoint: &str, sent: &SentPrompt, max_tokens: u32) -> Option<DebateEvent> {
    let chars: usize = sent.system.len() + sent.user.iter().chain(&sent.own).map(String::len).sum::<usize>();
    let tokens = (chars / 3 + max_tokens as usize) * 3 / 4;
    let window = u32::try_from(tokens).unwrap_or(u32::MAX).max(512);
    let adaptation = Adaptation::ContextWindow { tokens: window };
    let message = format!(
        "{} refused a prompt as longer than its context without saying its size: heat fits its prompts to about {} \
         tokens from now on (providers.<name>.max_context sets the size)",
        notices::endpoint_label(endpoint),
        crate::words::thousands(u64::from(window))
    );
    heard::learnt(state, endpoint, adaptation, message)
}

/// What a call the person cancelled means: a turn's text so far stands, a
/// vote is none, a swap check failed; the debate goes on.
pub fn on_cancelled(call: Call, usage: Option<Usage>) -> DebateEvent {
    match call {
        Call::Turn { round, role } => DebateEvent::TurnCancelled { round, role },
        Call::Vote { round, judge } => {
            DebateEvent::PanelVoteFailed { round, judge, error: panel::CANCELLED.to_string(), usage }
        }
        Call::SwapCheck { round } => {
            DebateEvent::SwapCheckFailed { round, error: "it was cancelled".to_string(), usage }
        }
        Call::Brief { round, role } => {
            DebateEvent::BriefFailed { round, role, error: "it was cancelled".to_string(), usage }
        }
    }
}

/// A seat's turn answered: a debater's argument held to its guard, then
/// completed (and its citations checked); a judge's completed and read.
fn turn_done(state: &DebateState, answered: &Answered<'_>, round: u32, role: Role) -> Vec<Act> {
    let turn = state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(role));
    let mut text = turn.map(|t| t.text.clone()).unwrap_or_default();
    let served = state.participant(role).is_some_and(super::event::Participant::is_served);
    // What is said of an argument kept as it came (a repeat, a missing section).
    let mut kept_as_it_came = None;
    // A person's argument is theirs: it stands as typed, repeats and all.
    if role.is_debater() && state.seated_person(role) {
        text = text.trim().to_string();
    } else if role.is_debater() {
        match guard::argument(state, role, answered.sent, &text, answered.guard_retry, served) {
            ArgumentOutcome::Stands(cleaned) => text = cleaned,
            ArgumentOutcome::Repeats { text: kept, what } => {
                text = kept;
                let seat = state.seat_name(role);
                let message =
                    format!("⟳ The {seat}'s argument in round {} repeats {what}: kept, as it came", round + 1);
                kept_as_it_came = Some(DebateEvent::Notice { message });
            }
            ArgumentOutcome::Flagged { text: kept, missing } => {
                text = kept;
                let message = super::sections::flag(&state.seat_name(role), round, &missing);
                kept_as_it_came = Some(DebateEvent::Notice { message });
            }
            ArgumentOutcome::Retry(fault) => {
                let reason = fault.to_string();
                let retrying =
                    DebateEvent::TurnRetrying { round, role, attempt: 1, max_retries: 1, delay_ms: 0, reason };
                return vec![Act::Emit(retrying), Act::AskAgain { round, role, purpose: answered.purpose }];
            }
            ArgumentOutcome::Fails(error) => return vec![Act::Emit(DebateEvent::TurnFailed { round, role, error })],
        }
    }
    let usage = answered.usage.and_then(|u| u.measured(&text));
    let truncated_at = cut_at(answered, usage);
    let possibly_cut = served && truncated_at.is_none() && ends_mid_sentence(&text);
    let completed = DebateEvent::TurnCompleted { round, role, text: text.clone(), usage, truncated_at, possibly_cut };
    if role.is_debater() {
        let completed = std::iter::once(completed).chain(kept_as_it_came).map(Act::Emit);
        return completed.chain([Act::CheckQuotes { round, role, text }]).collect();
    }
    // The verdict is read from the state the completed turn leaves.
    let mut after = state.clone();
    after.apply(&completed);
    let mut read = read_verdict(&after, round, answered.purpose, answered.sent, &text);
    // A verdict that stopped before its JSON object closed (at its token
    // limit, or with a stop a gateway called clean) says so, so the judge
    // asked again writes a shorter one rather than the same long one.
    let stopped = match truncated_at {
        Some(limit) => Some(format!("it ran into its limit of {limit} tokens before the JSON object closed")),
        None => unclosed_object(&text).then(|| "it ended before the JSON object closed".to_string()),
    };
    if let Some(stopped) = stopped {
        for event in &mut read {
            if let DebateEvent::VerdictInvalid { error, .. } = event {
                *error = format!("{stopped} ({error}): keep `verdict` to three sentences");
            }
        }
    }
    let unread = read.iter().any(|e| matches!(e, DebateEvent::VerdictInvalid { .. }));
    let ignored = form_ignored(state, answered, &text).filter(|_| unread);
    // A form learnt from this answer earns one more request in it, a repair's too (the final
    // synthesis above all): the answer failed in a form the server never passed on.
    if ignored.is_some() {
        for event in &mut read {
            if let DebateEvent::VerdictInvalid { will_retry, .. } = event {
                *will_retry = true;
            }
        }
    }
    let long = ran_long(state, answered, &text, truncated_at.is_some()).filter(|_| unread);
    let chooses = cannot_write(state, answered, &text, &read);
    std::iter::once(completed).chain(ignored).chain(long).chain(chooses).chain(read).map(Act::Emit).collect()
}

/// Whether `text` opens a JSON object that never closes: more `{` than `}`
/// outside strings.
fn unclosed_object(text: &str) -> bool {
    let Some(start) = text.find('{') else { return false };
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for c in text[start..].chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// Where an answer stopped at its token limit, if it did: the provider
/// said so (`length`, `max_tokens`), or it said the answer ended cleanly
/// while its measured output filled the limit it was sent (a gateway that
/// reports every stop as `end_turn`). Judged by what the answer is, not
/// only by what the server said.
fn cut_at(answered: &Answered<'_>, usage: Option<Usage>) -> Option<u32> {
    let limit = answered.max_tokens;
    let out = usage.map(|u| u32::try_from(u.output_tokens).unwrap_or(u32::MAX));
    if answered.finish == Some(FinishReason::Length) {
        return Some(out.map_or(limit, |n| n.max(1)));
    }
    out.filter(|n| limit > 0 && *n >= limit)
}

/// Whether an answer the server said ended stops where no sentence or
/// list item ends: what a gateway sends when its upstream died mid-answer,
/// or a server that ran out of room and said it stopped. However much of
/// its limit it used, by one rule: prose that ends without a full stop (or
/// on a comma, a dash, an open bracket); a list item, a heading, a table
/// row or a quote may end without one, and is marked only where it ends
/// on a word that joins (`the`, `because`) or such a mark. A code block's
/// fence ends it cleanly.
fn ends_mid_sentence(text: &str) -> bool {
    let text = text.trim_end();
    let Some(last) = text.chars().last() else { return false };
    if text.ends_with("```") {
        return false;
    }
    let joining_mark = matches!(last, ',' | ';' | ':' | '(' | '-' | '—' | '–');
    let last_line = text.lines().last().unwrap_or_default().trim_start();
    let structured = last_line.starts_with(['-', '*', '+', '#', '|', '>'])
        || last_line
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let last_word = text.rsplit(|c: char| !c.is_alphanumeric() && c != '\'').next().unwrap_or_default();
    let joining_word = JOINING_WORDS.contains(&last_word.to_lowercase().as_str());
    if structured {
        joining_mark || (last.is_alphanumeric() && joining_word)
    } else {
        joining_mark || last.is_alphanumeric()
    }
}

/// Words no sentence or list item ends on: they join what follows.
const JOINING_WORDS: [&str; 34] = [
    "a", "an", "the", "and", "or", "but", "nor", "because", "so", "if", "when", "while", "than", "that", "which",
    "who", "whose", "to", "of", "in", "on", "at", "by", "for", "from", "with", "as", "into", "is", "are", "was",
    "were", "be", "not",
];

/// A judge's answer that could not be read, asked in a form of structured
/// output that cannot produce what came (prose where a JSON object or a
/// forced tool call was asked): the server took the form and ignored it.
/// That is as good as a refusal, and stepped down the same way, once per
/// debate, so the answer asked for again comes in the weaker form. Judged
/// by what the answer is, not by what the server said.
fn form_ignored(state: &DebateState, answered: &Answered<'_>, text: &str) -> Option<DebateEvent> {
    let asked = answered.form.filter(|a| a.may_step_down)?;
    let holds_json = text.trim_start().starts_with('{');
    if holds_json || asked.form == StructuredOutput::Off {
        return None;
    }
    let to = asked.form.step_down()?;
    let message = notices::form_ignored(asked.provider, asked.endpoint, asked.form, to);
    heard::learnt(state, asked.endpoint, Adaptation::StructuredOutput { form: to }, message)
}

/// A judge's answer asked in a form the server holds it to (a schema, a
/// JSON object, a forced tool call) that ran into its token limit (as the
/// server said, or as its measured length shows) before its object
/// closed: the server kept the shape while its model wrote on inside it.
/// The schema's strings are capped from now on, for this endpoint, so the
/// next answer closes.
fn ran_long(state: &DebateState, answered: &Answered<'_>, text: &str, cut: bool) -> Option<DebateEvent> {
    let asked = answered.form.filter(|a| a.form != StructuredOutput::Off)?;
    let stopped_inside = cut && text.trim_start().starts_with('{') && unclosed_object(text);
    if !stopped_inside {
        return None;
    }
    let adaptation = Adaptation::CappedStrings;
    let message = notices::adapted(asked.endpoint, &adaptation);
    heard::learnt(state, asked.endpoint, adaptation, message)
}

/// A written verdict's repair whose JSON closed but whose words the guards
/// refused again, from a server known to hold an answer to a schema (its
/// schema went capped): the model there cannot write a verdict, so the
/// judge chooses its verdicts from then on (`extractive`), as the embedded
/// judge does; a schema of choices is one the server can hold it to.
fn cannot_write(state: &DebateState, answered: &Answered<'_>, text: &str, read: &[DebateEvent]) -> Option<DebateEvent> {
    let asked = answered.form.filter(|a| a.capped && a.form != StructuredOutput::Off)?;
    let repair = matches!(answered.purpose, TurnPurpose::RepairVerdict | TurnPurpose::RepairSynthesis);
    let refused = read.iter().any(|e| matches!(e, DebateEvent::VerdictInvalid { will_retry: false, .. }));
    let written = text.trim_start().starts_with('{') && !unclosed_object(text) && !super::extractive::is_chosen(text);
    if !(repair && refused && written) {
        return None;
    }
    let adaptation = Adaptation::ChosenVerdicts;
    let message = notices::adapted(asked.endpoint, &adaptation);
    heard::learnt(state, asked.endpoint, adaptation, message)
}

/// The judge's answer on `round` read: its verdict (and the guard's
/// notice, if any), or why it could not be used (asked again unless this
/// was the repair).
pub fn read_verdict(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    sent: &SentPrompt,
    text: &str,
) -> Vec<DebateEvent> {
    let read = verdict_of(state, round, purpose, sent, text).and_then(|(verdict, notice)| {
        // A link to a claim the map does not have is asked about once; the repair's is left out, and said.
        match super::argument_map::unknown_link(state, round, &verdict.claims) {
            Some(fault) if !purpose.is_repair() => Err(fault),
            _ => Ok((verdict, notice)),
        }
    });
    match read {
        Ok((verdict, notice)) => std::iter::once(DebateEvent::VerdictReached { round, verdict })
            .chain(notice.map(|message| DebateEvent::Notice { message }))
            .collect(),
        Err(error) => vec![DebateEvent::VerdictInvalid { round, error, will_retry: !purpose.is_repair() }],
    }
}

/// The swap check's answer on `round`, compared with the round's verdict.
fn swap_checked(state: &DebateState, round: u32, text: &str, usage: Option<Usage>) -> DebateEvent {
    let current = state.rounds.iter().find(|r| r.number == round);
    let Some(original) = current.and_then(|r| r.verdict()) else {
        let error = "the round has no verdict to compare with".to_string();
        return DebateEvent::SwapCheckFailed { round, error, usage };
    };
    match swap::parse(text, &original.topic, original.heat) {
        Ok(verdict) => {
            let flips = swap::flips(original, &verdict);
            DebateEvent::SwapChecked { round, verdict, flips, usage }
        }
        Err(error) => {
            let error = format!("its answer could not be read: {error}");
            DebateEvent::SwapCheckFailed { round, error, usage }
        }
    }
}

/// What a panel judge is asked on `round`: the last word when the chair
/// gives it (who won), else the round's verdict.
pub fn vote_purpose(state: &DebateState, round: u32) -> TurnPurpose {
    let chair = state.rounds.iter().find(|r| r.number == round).and_then(|r| r.turn(Role::Judge));
    if chair.is_some_and(|t| t.purpose.is_final()) { TurnPurpose::Synthesis } else { TurnPurpose::Judge }
}

/// A judge's answer on `round` as a verdict with the guard's notice, if
/// any, or why it cannot be used. The chair's and a panel's other judges'
/// answers are read alike: the written verdict or the embedded judge's
/// chosen one, checked by the guard, with the format's rule on ending early
/// applied.
pub fn verdict_of(
    state: &DebateState,
    round: u32,
    purpose: TurnPurpose,
    sent: &SentPrompt,
    text: &str,
) -> Result<(Verdict, Option<String>), String> {
    let (topic, heat) =
        state.rounds.iter().find(|r| r.number == round).map_or((state.topic.clone(), state.heat), |r| {
            // A panel moves the state's heat as votes arrive: its judges fall back to the round's.
            (r.topic.clone(), if state.judges() > 1 { r.heat } else { state.heat })
        });
    let chosen = extractive::is_chosen(text);
    let current = state.rounds.iter().find(|r| r.number == round);
    let mut kept = None;
    let parsed = match current.filter(|_| chosen) {
        Some(current) => {
            let seats = extractive::seats(state, current);
            let arguments: Vec<&str> = seats.iter().map(|s| s.argument).collect();
            let apart = extractive::spread(&state.topic, &arguments);
            let before = state.rounds.iter().rfind(|r| r.number < round).map(|previous| {
                let seats = extractive::seats(state, previous);
                extractive::spread(&state.topic, &seats.iter().map(|s| s.argument).collect::<Vec<_>>())
            });
            let heat = extractive::next_heat(current.heat, apart, before);
            let chosen = extractive::parse(text, &topic, heat, purpose.is_final(), &seats);
            // A next question cut off, or the round's own again: the round's question is kept, and said.
            let chosen = chosen.map(|mut verdict| {
                if let Some(why) = extractive::question_refused(&verdict.topic, &state.topic, &topic, &arguments)
                    .filter(|_| !purpose.is_final())
                {
                    let (asked, next) = (crate::sanitize::one_line(&verdict.topic), round + 2);
                    let kept_topic = crate::sanitize::one_line(&topic);
                    kept = Some(match why {
                        extractive::Refused::Repeated => {
                            format!("the offline judge asked the round's question again: round {next} stays on “{kept_topic}”")
                        }
                        extractive::Refused::CutOff => format!(
                            "the offline judge's next question was cut off (“{asked}”): round {next} keeps the question “{kept_topic}”"
                        ),
                    });
                    verdict.topic.clone_from(&topic);
                }
                verdict
            });
            // Free seats' synthesis ends with where their final answers stand.
            chosen.map(|mut verdict| {
                let tally = vote::of_round(state, round).filter(|_| state.final_answers());
                if let Some(tally) = tally.filter(|_| purpose.is_final()) {
                    let stand = vote::describe(state, &tally);
                    verdict.verdict.push_str(&format!(". Their final answers: {stand}"));
                }
                verdict
            })
        }
        // Two sides the format names as its prompts do ("the proposition") may be named so back.
        None if state.free() => verdict::parse(text, &topic, heat),
        None => verdict::parse_as(text, &topic, heat, &state.side_names()),
    };
    let mut verdict = parsed.map_err(|e| e.to_string())?;
    // The embedded judge names no claim: the sentences it chose for each side are the map's.
    if chosen && let Some(spec) = state.map() {
        verdict.claims = super::argument_map::chosen_claims(state, round, text);
        // Nor can it score: each side is scored by rule, and the verdict says so.
        if let Some(card) = extractive::scorecard::card(state, round) {
            verdict.verdict.push_str(&format!(". {}", extractive::scorecard::said(&card, spec)));
            verdict.scorecard = Some(Box::new(card));
        }
    }
    // A side whose turn states its claim in a Claim section, and whose claim the judge did not name, has it kept.
    super::argument_map::add_section_claims(state, round, &mut verdict.claims);
    // A person in the judge's seat means what they gave: no guard second-guesses it.
    let checked = if state.seated_person(Role::Judge) {
        VerdictOutcome::Stands { verdict, notice: None }
    } else {
        guard::verdict(state, round, purpose, sent, verdict, !chosen)
    };
    match checked {
        VerdictOutcome::Stands { mut verdict, notice } => {
            let notice = notice.or(kept);
            // A format that argues every round reads an early "resolved" as "not yet".
            verdict.resolved &= purpose.is_final() || state.may_resolve_early();
            // Scores a format did not ask for are not kept: a duel's log stays as it was.
            if !state.scored() {
                verdict.scores = None;
            }
            // Nor an argument map it did not ask for.
            if state.map().is_none() {
                verdict.claims.clear();
                verdict.scorecard = None;
            }
            // A debate that resolves on consensus goes on until the judge names what both sides accept.
            let notice = if verdict.resolved
                && !purpose.is_final()
                && !super::argument_map::consensus_reached(state, &verdict.claims)
            {
                verdict.resolved = false;
                let why = "the judge resolved without naming a claim both sides accept, with its evidence: the debate goes on";
                Some(notice.map_or_else(|| why.to_string(), |n| format!("{n}; {why}")))
            } else {
                notice
            };
            Ok((verdict, notice))
        }
        VerdictOutcome::Invalid(fault) => Err(fault.describe(state)),
    }
}

#[cfg(test)]
mod tests {
    use super::ends_mid_sentence;

    #[test]
    fn one_rule_marks_where_no_sentence_or_list_item_ends() {
        // Prose: a full stop, a question or a closing quote ends it; a word or a comma does not.
        assert!(ends_mid_sentence("Tabs let every reader choose a width. The evidence you've provided"));
        assert!(ends_mid_sentence("Remote work saves the commute,"));
        assert!(!ends_mid_sentence("Remote work saves the commute."));
        assert!(!ends_mid_sentence("Who pays for the desks?"));
        assert!(!ends_mid_sentence("He said “stay.”"));
        // A list item may end without a stop, unless it ends on a word that joins or a comma.
        assert!(!ends_mid_sentence("Three reasons:\n\n- Fewer interruptions\n- Two hours a day back"));
        assert!(!ends_mid_sentence("1. Focus\n2. Time"));
        assert!(ends_mid_sentence("- Fewer interruptions\n- Juniors learn less because the"));
        assert!(ends_mid_sentence("1. Focus\n2. Time,"));
        assert!(ends_mid_sentence("## Why offices win\n\nThe hallway builds trust and"));
        assert!(!ends_mid_sentence("| side | words |\n| advocate | 120 |"));
        assert!(!ends_mid_sentence("```rust\nfn main() {}\n```"));
        assert!(!ends_mid_sentence(""));
    }
}
