//! Properties of the quote checker over generated sources: a quote that is
//! not in the source word for word is never verified; a passage copied from
//! the source is always verified, whatever its case, punctuation, quote
//! marks or line breaks; a line citation is verified exactly when its lines
//! exist.
#![allow(clippy::unwrap_used)]

use heat::debate::grounding::{Cited, Mark, SourceIndex};
use proptest::prelude::*;

/// Words from a small vocabulary, so generated quotes often come close to
/// the source without being in it.
fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "the", "queue", "job", "postgres", "redis", "loses", "a", "commit", "row", "node", "deploy",
    ])
    .prop_map(str::to_string)
}

/// A source of 1–12 lines of 1–9 words, with punctuation here and there.
fn source() -> impl Strategy<Value = Vec<Vec<String>>> {
    prop::collection::vec(prop::collection::vec(word(), 1..10), 1..13)
}

fn text_of(lines: &[Vec<String>]) -> String {
    lines.iter().map(|l| l.join(" ") + ".\n").collect()
}

fn normal(words: &[String]) -> String {
    format!(" {} ", words.join(" ").to_lowercase())
}

proptest! {
    #[test]
    fn a_quote_not_in_the_source_is_never_verified(lines in source(), quote in prop::collection::vec(word(), 4..9)) {
        let text = text_of(&lines);
        let all: Vec<String> = lines.iter().flatten().cloned().collect();
        prop_assume!(!normal(&all).contains(&normal(&quote)));
        let checks = SourceIndex::new(&text).check(&format!("They wrote \"{}\".", quote.join(" ")), &[]);
        prop_assert_eq!(checks.len(), 1);
        prop_assert_ne!(checks[0].mark, Mark::Verified);
    }

    #[test]
    fn a_passage_copied_from_the_source_is_always_verified(
        lines in source(),
        start in any::<prop::sample::Index>(),
        len in 4usize..9,
        shout in any::<bool>(),
        curly in any::<bool>(),
    ) {
        let text = text_of(&lines);
        let all: Vec<String> = lines.iter().flatten().cloned().collect();
        prop_assume!(all.len() >= len);
        let from = start.index(all.len() - len + 1);
        let mut passage = all[from..from + len].join("\n  ");
        if shout {
            passage = passage.to_uppercase();
        }
        let quoted = if curly { format!("“{passage},”") } else { format!("\"{passage}\"") };
        let checks = SourceIndex::new(&text).check(&format!("As written: {quoted} and so on."), &[]);
        prop_assert_eq!(checks.len(), 1);
        prop_assert_eq!(checks[0].mark, Mark::Verified);
    }

    #[test]
    fn a_line_citation_is_verified_exactly_when_its_lines_exist(lines in source(), a in 0usize..20, b in 0usize..20) {
        let text = text_of(&lines);
        let checks = SourceIndex::new(&text).check(&format!("See [L{a}–L{b}]."), &[]);
        prop_assert_eq!(checks.len(), 1);
        prop_assert_eq!(&checks[0].cited, &Cited::Lines { start: a, end: b });
        let exists = a >= 1 && a <= b && b <= lines.len();
        prop_assert_eq!(checks[0].mark == Mark::Verified, exists);
    }
}
