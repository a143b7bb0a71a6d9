//! The judge's next topic: accepted only when it reads as a question for a
//! round about the proposition (the rules are in the parent module's note).

use super::Context;
use super::text::{self, COPY_RUN};
use crate::debate::Role;

/// Fewest and most words of letters a topic that is not a question may have.
pub const MIN_WORDS: usize = 3;
pub const MAX_WORDS: usize = 30;
/// The longest word a topic may hold: "internationalisation," is 21.
const MAX_WORD_CHARS: usize = 28;

/// Words that say a topic is about the debate rather than its subject
/// (stemmed as [`text::stem`] does).
const DEBATE_WORDS: [&str; 18] = [
    "debate",
    "debater",
    "judge",
    "advocate",
    "skeptic",
    "sceptic",
    "round",
    "argument",
    "verdict",
    "proposition",
    "heat",
    "json",
    "topic",
    "moderator",
    "opponent",
    "prompt",
    "rebuttal",
    "question",
];

/// Phrases that point at the debate itself, refused even when the topic also
/// shares a word with the proposition ("How does this debate differ from the
/// previous one days ago?" shares "day" with a four-day week).
/// ("this round" or "last round" are left out: a round of funding or hiring is
/// a subject.)
const META_PHRASES: [&str; 7] = [
    "this debate",
    "the debate",
    "this discussion",
    "this conversation",
    "previous debate",
    "last debate",
    "previous one",
];

/// Why a judge's next topic was set aside. `Display` is a clause for the
/// notice: "the judge's next topic was set aside (it is a piece of the prompt)".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TopicFault {
    #[error("it is empty")]
    Empty,
    #[error("it runs over several lines")]
    SeveralLines,
    #[error("it holds a chat-template token")]
    TemplateToken,
    #[error("it holds brackets")]
    Brackets,
    #[error("it holds an ellipsis")]
    Ellipsis,
    #[error("it is a broken-off piece of a sentence")]
    Fragment,
    #[error("it is too short for a round's question")]
    TooShort,
    #[error("it is longer than {MAX_WORDS} words")]
    TooLong,
    #[error("it is a piece of the prompt")]
    CopiesPrompt,
    #[error("it copies the {}'s argument", .0.key())]
    CopiesArgument(Role),
    #[error("it is about the debate, not the proposition")]
    AboutTheDebate,
    #[error("it holds a run-together word")]
    RunTogether,
}

/// Checks a refined topic against the rules in the parent module's note.
pub fn check(topic: &str, ctx: &Context<'_>) -> Result<(), TopicFault> {
    let topic = topic.trim();
    if topic.is_empty() {
        return Err(TopicFault::Empty);
    }
    if topic.contains(['\n', '\r']) {
        return Err(TopicFault::SeveralLines);
    }
    if text::has_template_marks(topic) {
        return Err(TopicFault::TemplateToken);
    }
    if topic.contains(['[', ']', '{', '}', '<', '>']) {
        return Err(TopicFault::Brackets);
    }
    if topic.contains("...") || topic.contains('…') {
        return Err(TopicFault::Ellipsis);
    }
    if is_fragment(topic) {
        return Err(TopicFault::Fragment);
    }
    let count = text::letter_words(topic);
    let question = topic.ends_with('?');
    if count == 0 || (count < MIN_WORDS && !question) {
        return Err(TopicFault::TooShort);
    }
    if count > MAX_WORDS {
        return Err(TopicFault::TooLong);
    }
    if topic.split_whitespace().any(|w| w.chars().count() > MAX_WORD_CHARS) {
        return Err(TopicFault::RunTogether);
    }
    copied(topic, ctx)?;
    let about_the_proposition = !text::content_words(topic).is_disjoint(&text::content_words(ctx.proposition));
    let about_the_debate = text::words(topic).iter().any(|w| DEBATE_WORDS.contains(&text::stem(w)));
    if about_the_debate && !about_the_proposition || points_at_the_debate(topic) {
        return Err(TopicFault::AboutTheDebate);
    }
    Ok(())
}

/// Names the debate itself ("this debate", "the previous one", "last round").
fn points_at_the_debate(topic: &str) -> bool {
    let padded = format!(" {} ", text::words(topic).join(" "));
    META_PHRASES.iter().any(|phrase| padded.contains(&format!(" {phrase} ")))
}

/// Starts or ends where no sentence does, or leaves a parenthesis open.
fn is_fragment(topic: &str) -> bool {
    let starts_well = topic.chars().next().is_some_and(|c| c.is_alphanumeric() || "\"'“‘¿¡".contains(c));
    let ends_badly = topic.chars().last().is_some_and(|c| ",;:-–—(/&".contains(c));
    let mut depth = 0i32;
    for c in topic.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return true;
        }
    }
    !starts_well || ends_badly || depth != 0
}

/// A topic more than half inside runs copied from an argument or the prompt;
/// a short one (3 to 5 words) is a copy when it is found whole in the system
/// prompt. One or two words (`Costs?`) may well be found there by chance.
fn copied(topic: &str, ctx: &Context<'_>) -> Result<(), TopicFault> {
    let allowed = ctx.allowed_texts();
    for (role, argument) in ctx.arguments {
        if text::mostly_copied(topic, &[argument], &allowed) {
            return Err(TopicFault::CopiesArgument(*role));
        }
    }
    if text::mostly_copied(topic, &ctx.prompt_texts(), &allowed) {
        return Err(TopicFault::CopiesPrompt);
    }
    let words = text::words(topic);
    let free = allowed.iter().any(|a| text::contains_run(a, &words));
    let short = (MIN_WORDS..COPY_RUN).contains(&words.len());
    if short && !free && text::contains_run(ctx.system, &words) {
        return Err(TopicFault::CopiesPrompt);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::prompt::Prompts;

    const PROPOSITION: &str = "Remote work is better for software teams than the office";
    const ADVOCATE: &str = "Remote teams write things down. Tabs let every reader choose their own \
        indentation width without touching the file, which is why teams that mix editors end up happier.";
    const SKEPTIC: &str = "Offices build trust through chance meetings in the hallway.";

    fn with<T>(f: impl FnOnce(&Context<'_>) -> T) -> T {
        // Both prompt sets at once, so the fragments of either are known.
        let system =
            format!("{}\n\n{}", Prompts::default().system_for(Role::Judge), Prompts::compact().system_for(Role::Judge));
        let user = vec![format!(
            "Proposition: {PROPOSITION}\nRound 2 of 4.\n\n[advocate, skeptic]:\n[\"{ADVOCATE}\"]\n\n\
             Answer with the Verdict JSON object only."
        )];
        let arguments = [(Role::Advocate, ADVOCATE), (Role::Skeptic, SKEPTIC)];
        let ctx = Context {
            proposition: PROPOSITION,
            system: &system,
            user: &user,
            own: &[],
            arguments: &arguments,
            allowed: &[],
        };
        f(&ctx)
    }

    fn topic_check(topic: &str) -> Result<(), TopicFault> {
        with(|ctx| check(topic, ctx))
    }

    /// Topics a 135M-parameter judge wrote, and the kind of thing it writes.
    const BAD: [(&str, TopicFault); 16] = [
        (") and nothing else. You are the JUDGE", TopicFault::Fragment),
        ("2019,", TopicFault::Fragment),
        ("…", TopicFault::Ellipsis),
        (
            "Tabs let every reader choose their own indentation width without touching the file",
            TopicFault::CopiesArgument(Role::Advocate),
        ),
        ("The debate should continue with more arguments from both sides", TopicFault::AboutTheDebate),
        ("[topic]", TopicFault::Brackets),
        ("<|im_start|>assistant", TopicFault::TemplateToken),
        ("Round 2: the advocate", TopicFault::AboutTheDebate),
        ("Address the transition costs for small firms", TopicFault::CopiesPrompt),
        ("Answer with one JSON object", TopicFault::CopiesPrompt),
        ("What each side did well", TopicFault::CopiesPrompt),
        ("The judge wants a clearer verdict next round", TopicFault::AboutTheDebate),
        ("Costs for teams...", TopicFault::Ellipsis),
        ("string", TopicFault::TooShort),
        ("Next topic:\nmore", TopicFault::SeveralLines),
        ("### Instruction: argue", TopicFault::TemplateToken),
    ];

    const GOOD: [&str; 8] = [
        "Remote work raises productivity for most software teams",
        "Does remote work hurt junior engineers' learning?",
        "Four-day weeks improve output in knowledge work",
        "Nuclear power is the fastest route to decarbonising grids",
        "Cities should ban cars from their centres",
        "Is tea healthier than coffee?",
        "Open-source AI models are safer than closed ones",
        "Homework should be abolished in primary schools",
    ];

    #[test]
    fn the_bad_topics_seen_from_a_small_model_are_set_aside_for_the_right_reason() {
        for (topic, why) in BAD {
            assert_eq!(topic_check(topic), Err(why), "{topic:?}");
        }
    }

    #[test]
    fn every_good_topic_passes() {
        for topic in GOOD {
            assert_eq!(topic_check(topic), Ok(()), "{topic:?}");
        }
        let passed = GOOD.iter().filter(|t| topic_check(t).is_ok()).count();
        assert_eq!(passed, GOOD.len());
    }

    #[test]
    fn short_topics_must_be_questions() {
        assert_eq!(topic_check("Costs?"), Ok(()));
        assert_eq!(topic_check("Costs"), Err(TopicFault::TooShort));
        assert_eq!(topic_check("?"), Err(TopicFault::Fragment));
        assert_eq!(topic_check("42?"), Err(TopicFault::TooShort));
        assert_eq!(topic_check(&"word ".repeat(31)), Err(TopicFault::TooLong));
    }

    #[test]
    fn debate_words_pass_when_the_topic_is_about_the_proposition() {
        assert_eq!(topic_check("Which argument about remote onboarding holds up?"), Ok(()));
        assert_eq!(topic_check("Which argument holds up best?"), Err(TopicFault::AboutTheDebate));
    }

    #[test]
    fn a_run_together_word_is_set_aside() {
        let seen =
            "How can you answer the next round without beingprepared-ready-for-the-table-and-preparing-your lane?";
        assert_eq!(topic_check(seen), Err(TopicFault::RunTogether));
        assert_eq!(topic_check("Does remote work need internationalisation, really?"), Ok(()));
    }

    #[test]
    fn a_topic_that_points_at_the_debate_is_set_aside_even_when_it_shares_a_word() {
        let seen = "How does this debate differ from the previous one on remote onboarding?";
        assert_eq!(topic_check(seen), Err(TopicFault::AboutTheDebate));
        assert_eq!(topic_check("Has the debate on remote work moved on?"), Err(TopicFault::AboutTheDebate));
        assert_eq!(topic_check("Should remote teams hire in the next round of funding?"), Ok(()));
        assert_eq!(topic_check("Does remote onboarding cost this firm more?"), Ok(()));
    }

    #[test]
    fn the_proposition_and_injected_notes_may_be_repeated() {
        assert_eq!(topic_check(PROPOSITION), Ok(()));
        let system = "Address the transition costs for small firms.";
        let allowed = ["Address the transition costs for small firms".to_string()];
        let ctx = Context { proposition: PROPOSITION, system, user: &[], own: &[], arguments: &[], allowed: &allowed };
        assert_eq!(check("Address the transition costs for small firms", &ctx), Ok(()));
    }

    #[test]
    fn generated_bad_topics_are_set_aside() {
        let generated = [
            "Remote work {costs}",
            "Remote work <b>costs</b>",
            "Remote work costs </s>",
            "<s> Remote work costs",
            "Remote work costs (for whom",
            "remote work costs -",
            "[INST] remote work costs [/INST]",
            "{{topic}}",
            "Remote work... costs",
            "1.2",
            "N/A",
            "Proposition, heat and verdict",
        ];
        for topic in generated {
            assert!(topic_check(topic).is_err(), "{topic:?}");
        }
    }
}
