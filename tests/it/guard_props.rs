//! Properties of the guards over generated text: a topic holding a template
//! mark or an ellipsis is always set aside; a plain line of 3–30 words that
//! shares a word with the proposition and copies nothing always stands; a
//! verdict equal to last round's is always refused (and stands without it);
//! cleaning an argument leaves no template token, is idempotent, and leaves
//! text without echoes byte for byte.
#![allow(clippy::unwrap_used)]

use std::borrow::Cow;

use heat::debate::Role;
use heat::debate::guard::{Context, VerdictFault, argument, reason, topic};
use heat::debate::prompt::Prompts;
use proptest::prelude::*;

const PROPOSITION: &str = "Tabs beat spaces";

fn with<T>(f: impl FnOnce(&Context<'_>) -> T) -> T {
    let system = Prompts::default().system_for(Role::Judge);
    let user = vec![format!("Proposition: {PROPOSITION}\nRound 1 of 3.\n\nAnswer with the Verdict JSON object only.")];
    let arguments = [(Role::Advocate, "Tabs let each reader pick a width."), (Role::Skeptic, "Spaces look the same.")];
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

/// Any short text, punctuation and non-ASCII included.
fn any_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<char>(), 0..40).prop_map(|c| c.into_iter().collect())
}

/// A plain lowercase word, now and then one that names the debate.
fn plain_word() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-z]{1,10}",
        1 => Just("debate".to_string()),
        1 => Just("judge".to_string()),
        1 => Just("round".to_string()),
    ]
}

proptest! {
    #[test]
    fn a_topic_with_a_template_mark_or_an_ellipsis_is_set_aside(
        before in any_text(),
        mark in prop_oneof![Just("<|"), Just("..."), Just("…"), Just("|>"), Just("</s>")],
        after in any_text(),
    ) {
        let candidate = format!("Remote work {before}{mark}{after} costs");
        prop_assert!(with(|ctx| topic::check(&candidate, ctx)).is_err(), "{:?}", candidate);
    }

    #[test]
    fn a_plain_line_about_the_proposition_that_copies_nothing_stands(
        words in proptest::collection::vec(plain_word(), 2..=29),
        at in any::<prop::sample::Index>(),
        question in any::<bool>(),
    ) {
        let mut words = words;
        words.insert(at.index(words.len() + 1), "tabs".to_string());
        let mut candidate = words.join(" ");
        if question {
            candidate.push('?');
        }
        prop_assert_eq!(with(|ctx| topic::check(&candidate, ctx)), Ok(()), "{:?}", candidate);
    }

    #[test]
    fn a_verdict_equal_to_last_rounds_is_refused(
        words in proptest::collection::vec("[a-z]{2,8}", 3..20),
        stop in prop_oneof![Just(""), Just("."), Just("!")],
    ) {
        let text = format!("{}{stop}", words.join(" "));
        prop_assert_eq!(with(|ctx| reason::check(&text, None, ctx)), Ok(()), "{:?}", text);
        prop_assert_eq!(with(|ctx| reason::check(&text, Some(&text), ctx)), Err(VerdictFault::SameAsLastRound));
    }

    #[test]
    fn cleaning_leaves_no_template_token_and_is_idempotent(
        pieces in proptest::collection::vec(
            prop_oneof![
                "[A-Za-z ,.]{1,12}",
                Just("\n".to_string()),
                Just("{\"set_temp\": 0.70}\n".to_string()),
                Just("HEAT: 0.7\n".to_string()),
                Just("<|im_start|>assistant\n".to_string()),
                Just("<|im_end|>".to_string()),
                Just("</s>".to_string()),
                Just("Round 1 of 3.\n".to_string()),
            ],
            0..16,
        ),
    ) {
        let text: String = pieces.concat();
        let once = with(|ctx| argument::clean(&text, ctx).into_owned());
        for token in ["<|im_start|>", "<|im_end|>", "</s>", "set_temp"] {
            prop_assert!(!once.contains(token), "{:?} → {:?}", text, once);
        }
        let twice = with(|ctx| argument::clean(&once, ctx).into_owned());
        prop_assert_eq!(&twice, &once);
    }

    #[test]
    fn text_without_echoes_is_kept_byte_for_byte(text in "[A-Za-z ,.;!?'\n-]{0,200}") {
        prop_assume!(!text.to_lowercase().contains("round"));
        let cleaned = with(|ctx| argument::clean(&text, ctx));
        prop_assert!(matches!(cleaned, Cow::Borrowed(t) if t == text));
    }
}
