//! A debater's argument: cleaned of what the model echoed from its prompt
//! (the control line, the round line, the proposition line, chat-template
//! tokens), then refused when nothing is left or it mostly copies the prompt.

use std::borrow::Cow;
use std::ops::Range;

use super::Context;
use super::text;

/// Names of the control channel a model may echo (`{"set_temp": 0.7}`,
/// `HEAT: 0.7`, `temperature = 0.7`).
const CONTROL_KEYS: [&str; 4] = ["set_temp", "heat", "temperature", "temp"];

/// The fewest words a prompt line has for its echo to be dropped: shorter
/// lines ("Yes.") are an answer's own as often as an echo.
const ECHOED_LINE_WORDS: usize = 5;

/// Fewest letters an argument needs to be one: `{...}`, `42` and `OK`
/// are not arguments, from any model.
pub const MIN_LETTERS: usize = 3;

/// Instruction-format headers that are template, not prose.
const HEADERS: [&str; 6] = ["instruction", "response", "input", "assistant", "human", "user"];

/// Why an argument is a failed turn. `Display` says it as a clause:
/// "the answer was empty".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentFault {
    #[error("the answer was empty")]
    Empty,
    #[error("the answer held only the control line, chat-template tokens or lines of its prompt")]
    OnlyControl,
    #[error("the answer copied its prompt")]
    CopiesPrompt,
    #[error("the answer had too few words to be an argument")]
    TooFewWords,
    #[error("the answer lacks sections its format asks for")]
    LacksSections,
}

/// The argument as it is stored and judged, or why the turn failed.
pub fn check<'t>(argument: &'t str, ctx: &Context<'_>) -> Result<Cow<'t, str>, ArgumentFault> {
    if argument.trim().is_empty() {
        return Err(ArgumentFault::Empty);
    }
    let cleaned = clean(argument, ctx);
    if cleaned.trim().is_empty() {
        return Err(ArgumentFault::OnlyControl);
    }
    if cleaned.chars().filter(|c| c.is_alphabetic()).take(MIN_LETTERS).count() < MIN_LETTERS {
        return Err(ArgumentFault::TooFewWords);
    }
    if text::mostly_copied(&cleaned, &ctx.prompt_texts(), &ctx.allowed_texts()) || ctx.repeats_own_turn(&cleaned) {
        return Err(ArgumentFault::CopiesPrompt);
    }
    Ok(cleaned)
}

/// `argument` without echoed control lines, control objects and template
/// tokens. Untouched (byte for byte) when there are none; otherwise trimmed
/// at both ends.
pub fn clean<'t>(argument: &'t str, ctx: &Context<'_>) -> Cow<'t, str> {
    let mut spans = text::template_spans(argument, true);
    // Template tokens hold no braces, so the two kinds never overlap.
    spans.extend(control_objects(argument));
    spans.sort_by_key(|s| s.start);
    let mut untokened = String::with_capacity(argument.len());
    let mut at = 0;
    for span in &spans {
        untokened.push_str(&argument[at..span.start]);
        at = span.end;
    }
    untokened.push_str(&argument[at..]);
    let mut dropped = false;
    let kept: Vec<&str> = untokened
        .split('\n')
        .filter(|line| {
            let echo = is_echo(line, ctx);
            dropped |= echo;
            !echo
        })
        .collect();
    if spans.is_empty() && !dropped {
        return Cow::Borrowed(argument);
    }
    Cow::Owned(kept.join("\n").trim().to_string())
}

/// A line the prompt carries, echoed back: the control line, the round
/// line, the proposition line, or an instruction-format header.
fn is_echo(line: &str, ctx: &Context<'_>) -> bool {
    let line = line.trim().trim_matches(|c: char| matches!(c, '`' | '*' | '_' | '>' | '#') || c.is_whitespace());
    if line.is_empty() {
        return false;
    }
    is_control(line)
        || is_round_line(line, ctx)
        || is_proposition_line(line, ctx)
        || is_header(line)
        || is_prompt_line(line, ctx)
}

/// A whole line of the prompt of at least [`ECHOED_LINE_WORDS`] words, said
/// again word for word (`The critic's main point: “…”`). A final answer
/// is never one: the same answer as another seat's is agreement.
fn is_prompt_line(line: &str, ctx: &Context<'_>) -> bool {
    let words = text::words(line);
    words.len() >= ECHOED_LINE_WORDS
        && crate::debate::vote::final_answer(line).is_none()
        && ctx.user.iter().flat_map(|message| message.lines()).any(|given| text::words(given) == words)
}

/// Where the control channel's object (`{"set_temp": 0.7}`) stands in the
/// text, on a line of its own or not: it is never prose.
fn control_objects(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    text.match_indices('{').filter_map(|(start, _)| {
        let end = start + text[start..].find('}')? + 1;
        let inner = &text[start + 1..end - 1];
        let (key, value) = inner.split_once(':')?;
        let object = key.trim() == "\"set_temp\"" && value.trim().parse::<f32>().is_ok();
        // Quoted as code, the backticks go with it.
        let quoted = text[..start].ends_with('`') && text[end..].starts_with('`');
        object.then_some(if quoted { start - 1..end + 1 } else { start..end })
    })
}

/// `{"set_temp": 0.7}`, `HEAT: 0.7`, `temperature = 0.70`.
fn is_control(line: &str) -> bool {
    let bare = line.trim_start_matches('{').trim_end_matches('}').trim();
    let Some((key, value)) = bare.split_once(':').or_else(|| bare.split_once('=')) else { return false };
    let key = key.trim().trim_matches(['"', '\'']).to_lowercase();
    let value = value.trim().trim_end_matches([',', '.']).trim_matches(['"', '\'']);
    CONTROL_KEYS.contains(&key.as_str()) && value.parse::<f32>().is_ok()
}

/// `Round 2 of 4.`, alone or followed by words the prompt gave with it.
fn is_round_line(line: &str, ctx: &Context<'_>) -> bool {
    let words = text::words(line);
    let numbered = |w: Option<&String>| w.is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()));
    let [round, _, of, _, rest @ ..] = words.as_slice() else { return false };
    if round != "round" || of != "of" || !numbered(words.get(1)) || !numbered(words.get(3)) {
        return false;
    }
    rest.is_empty() || ctx.prompt_texts().iter().any(|p| text::contains_run(p, rest))
}

/// `Proposition: …` with the proposition itself.
fn is_proposition_line(line: &str, ctx: &Context<'_>) -> bool {
    let Some((label, rest)) = line.split_once(':') else { return false };
    label.trim().eq_ignore_ascii_case("proposition") && text::words(rest) == text::words(ctx.proposition)
}

/// `### Response:`, `Instruction:` and the like, alone on a line.
fn is_header(line: &str) -> bool {
    line.strip_suffix(':').is_some_and(|name| HEADERS.contains(&name.trim().to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Role;
    use crate::debate::prompt::{Prompts, control_line};

    const PROPOSITION: &str = "Tabs beat spaces";

    fn with<T>(f: impl FnOnce(&Context<'_>) -> T) -> T {
        let system = Prompts::default().system_for(Role::Advocate);
        let user = vec![format!(
            "{}\n\nProposition: {PROPOSITION}\n\nRound 1 of 3. Give reasons why this proposition is RIGHT.",
            control_line(0.9)
        )];
        let ctx =
            Context { proposition: PROPOSITION, system: &system, user: &user, own: &[], arguments: &[], allowed: &[] };
        f(&ctx)
    }

    fn cleaned(text: &str) -> String {
        with(|ctx| clean(text, ctx).into_owned())
    }

    #[test]
    fn echoed_control_lines_and_tokens_are_stripped() {
        let text = "{\"set_temp\": 0.90}\nRound 1 of 3. Give reasons why this proposition is RIGHT.\n\
                    Proposition: Tabs beat spaces\n<|im_start|>assistant\nTabs let readers choose.<|im_end|>\n</s>";
        assert_eq!(cleaned(text), "Tabs let readers choose.");
        assert_eq!(cleaned("HEAT: 0.7\n\nTabs are one byte."), "Tabs are one byte.");
        assert_eq!(cleaned("`{\"set_temp\": 0.5}`\n### Response:\nTabs."), "Tabs.");
        assert_eq!(cleaned("{\"set_temp\": 0.7} Tabs, as `{\"set_temp\": 0.7}` says."), "Tabs, as  says.");
    }

    #[test]
    fn prose_that_only_looks_alike_is_kept_byte_for_byte() {
        for text in [
            "Round 2 of 4 showed that spaces win in diffs.\n",
            "  The heat: it matters little.",
            "Proposition: tabs are kinder to screen readers.",
            "### Why tabs\n\n- one byte\n- reader's width",
            "Temperature: high in summer offices.",
        ] {
            assert!(matches!(with(|ctx| clean(text, ctx)), Cow::Borrowed(t) if t == text), "{text:?}");
        }
    }

    #[test]
    fn empty_control_only_and_copied_answers_fail() {
        assert_eq!(with(|ctx| check(" \n", ctx)), Err(ArgumentFault::Empty));
        assert_eq!(with(|ctx| check("HEAT: 0.7", ctx)), Err(ArgumentFault::OnlyControl));
        assert_eq!(with(|ctx| check("{\"set_temp\": 0.90}\n<|im_end|>", ctx)), Err(ArgumentFault::OnlyControl));
        let echo = "Build the strongest honest case FOR the proposition: two to four strong points, each with its reasoning and a concrete example.";
        assert_eq!(with(|ctx| check(echo, ctx)), Err(ArgumentFault::CopiesPrompt));
        assert_eq!(with(|ctx| check("Tabs beat spaces.", ctx)).as_deref(), Ok("Tabs beat spaces."));
    }

    #[test]
    fn a_whole_prompt_line_said_again_is_dropped_and_a_short_one_kept() {
        let system = Prompts::default().system_for(Role::Third);
        let user = vec![
            "Proposition: Tabs beat spaces\nThe critic's main point: \u{201c}Tabs break alignment in diffs.\u{201d}\nYes.\nRound 2 of 3."
                .to_string(),
        ];
        let ctx =
            Context { proposition: PROPOSITION, system: &system, user: &user, own: &[], arguments: &[], allowed: &[] };
        let echoed = "Final answer: tabs win.\nThe critic's main point: \"Tabs break alignment in diffs.\"\nYes.";
        assert_eq!(clean(echoed, &ctx), "Final answer: tabs win.\nYes.");
        assert_eq!(
            check("The critic's main point: \u{201c}Tabs break alignment in diffs.\u{201d}", &ctx),
            Err(ArgumentFault::OnlyControl)
        );
        // The same final answer as another seat's, given in the prompt, is the seat's own answer.
        let user = vec!["The critic argued:\nTabs break alignment.\nFinal answer: spaces win in the end.".to_string()];
        let ctx =
            Context { proposition: PROPOSITION, system: &system, user: &user, own: &[], arguments: &[], allowed: &[] };
        let agreeing = "Diffs show it.\nFinal answer: spaces win in the end.";
        assert!(matches!(clean(agreeing, &ctx), Cow::Borrowed(kept) if kept == agreeing));
    }
}
