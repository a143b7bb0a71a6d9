//! Whether a sentence reads as a claim, so that the embedded judge offers
//! it and the argument map keeps it ([`refused`]), judged past the words
//! heat gave it: not a fragment (fewer than six words, no word that works
//! as a verb, an end on a word that leads into more, such as "of", "the",
//! "and", "to", "a", or cut off with `…`), not a question, not the
//! proposition said again (most of its content words are the
//! proposition's), not talk about the debate (half of them or more are
//! words such as "point", "argument", "your side"); and whether two sentences say
//! nearly the same ([`near_duplicate`]). Rules a watcher can follow, not a
//! grammar: a sentence whose only verb is none of the common ones listed
//! here reads as a fragment, and is left out (better no claim than noise).

use std::collections::HashSet;
use std::sync::LazyLock;

use super::prose::argued;
use crate::debate::guard::text::content_words;

/// The fewest words a claim has.
pub const MIN_WORDS: usize = 6;
/// More than this share of a sentence's content words are the
/// proposition's: it says the proposition again.
const RESTATES_OVER: f32 = 0.5;
/// Two sentences share at least this share of their content words (of
/// all either has): they say nearly the same.
pub const NEAR: f32 = 0.6;

/// Words a sentence does not end on: they lead into more.
const DANGLING: [&str; 24] = [
    "of", "the", "and", "to", "a", "an", "or", "nor", "with", "for", "in", "on", "at", "by", "from", "into", "that",
    "than", "because", "but", "as", "its", "their", "our",
];

/// Words that say how a sentence talks about the debate, not what it
/// claims: a sentence made only of these carries no claim (see
/// `extractive::candidates`).
const TALK: [&str; 34] = [
    "happy",
    "glad",
    "thank",
    "thanks",
    "bring",
    "bringing",
    "point",
    "discussion",
    "discuss",
    "question",
    "agree",
    "disagree",
    "argument",
    "debate",
    "interesting",
    "great",
    "good",
    "raise",
    "raised",
    "mention",
    "mentioned",
    "opponent",
    "say",
    "said",
    "think",
    "believe",
    "like",
    "sure",
    "really",
    "indeed",
    "important",
    "topic",
    "i'm",
    "let",
];
/// Besides [`TALK`], words that name the debate's sides and the speakers:
/// a sentence mostly of these talks to or about the other side.
const SIDES: [&str; 15] = [
    "side",
    "view",
    "viewpoint",
    "position",
    "premise",
    "claim",
    "opposition",
    "proposition",
    "advocate",
    "skeptic",
    "you",
    "you're",
    "your",
    "me",
    "my",
];
/// This share of a sentence's content words or more are [`TALK`] or
/// [`SIDES`]: it talks about the debate.
const TALKS_FROM: f32 = 0.5;

/// Words that work as verbs in any sentence: the auxiliaries and the modals.
const AUXILIARIES: [&str; 25] = [
    "am", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "can", "could",
    "will", "would", "shall", "should", "may", "might", "must", "cannot", "ought",
];

/// Common verbs, as their plain form: "rely" stands for "relies" and
/// "relied" too.
const VERBS: [&str; 182] = [
    "accept",
    "add",
    "affect",
    "agree",
    "allow",
    "answer",
    "argue",
    "ask",
    "avoid",
    "ban",
    "beat",
    "become",
    "begin",
    "believe",
    "belong",
    "benefit",
    "bring",
    "build",
    "buy",
    "call",
    "care",
    "carry",
    "cause",
    "change",
    "charge",
    "check",
    "choose",
    "claim",
    "come",
    "compare",
    "compete",
    "consider",
    "contain",
    "continue",
    "control",
    "cost",
    "count",
    "create",
    "cut",
    "damage",
    "deal",
    "decide",
    "defend",
    "deliver",
    "demand",
    "deny",
    "depend",
    "deserve",
    "destroy",
    "die",
    "differ",
    "drive",
    "drop",
    "earn",
    "eat",
    "enable",
    "encourage",
    "end",
    "enjoy",
    "ensure",
    "exist",
    "expect",
    "explain",
    "face",
    "fail",
    "fall",
    "feel",
    "fight",
    "fill",
    "find",
    "fit",
    "fix",
    "follow",
    "force",
    "forget",
    "gain",
    "get",
    "give",
    "go",
    "grow",
    "happen",
    "harm",
    "hate",
    "hear",
    "help",
    "hide",
    "hit",
    "hold",
    "hurt",
    "ignore",
    "improve",
    "include",
    "increase",
    "involve",
    "keep",
    "kill",
    "know",
    "lack",
    "last",
    "lead",
    "learn",
    "leave",
    "let",
    "like",
    "limit",
    "live",
    "look",
    "lose",
    "love",
    "lower",
    "make",
    "manage",
    "matter",
    "mean",
    "meet",
    "miss",
    "move",
    "need",
    "offer",
    "open",
    "outweigh",
    "own",
    "pass",
    "pay",
    "prefer",
    "prevent",
    "produce",
    "protect",
    "prove",
    "provide",
    "push",
    "put",
    "raise",
    "reach",
    "read",
    "reduce",
    "refuse",
    "rely",
    "remain",
    "remove",
    "replace",
    "require",
    "rise",
    "risk",
    "run",
    "save",
    "say",
    "see",
    "seem",
    "sell",
    "serve",
    "set",
    "share",
    "show",
    "slow",
    "solve",
    "spend",
    "stand",
    "start",
    "stay",
    "stop",
    "suffer",
    "suggest",
    "support",
    "take",
    "teach",
    "tell",
    "tend",
    "think",
    "travel",
    "treat",
    "try",
    "turn",
    "use",
    "vary",
    "wait",
    "walk",
    "want",
    "waste",
    "win",
    "work",
    "write",
];

/// The common verbs' irregular past forms.
const IRREGULAR: [&str; 46] = [
    "made", "gave", "took", "got", "went", "came", "saw", "said", "knew", "thought", "felt", "kept", "left", "led",
    "meant", "paid", "brought", "bought", "built", "ran", "rose", "fell", "grew", "won", "lost", "told", "found",
    "held", "stood", "spent", "sold", "taught", "wrote", "drove", "chose", "began", "became", "done", "gone", "given",
    "taken", "known", "shown", "seen", "written", "chosen",
];

/// Words after which the next word is a verb: the subject pronouns.
const SUBJECTS: [&str; 6] = ["i", "we", "you", "they", "he", "she"];

/// Why a sentence does not read as a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAClaim {
    /// Fewer than [`MIN_WORDS`] words.
    Short,
    /// No word in it works as a verb.
    NoVerb,
    /// It ends on a word that leads into more ("of", "the", "and"…), or
    /// trails off (`…`, as a run-on sentence is quoted up to its limit).
    Dangling,
    /// It asks instead of claiming.
    Question,
    /// Most of its content words are the proposition's.
    Restates,
    /// Half of its content words or more talk about the debate or its
    /// sides ("you're trying to impose your views on me in a debate").
    Talk,
}

/// Why `sentence` does not read as a claim in a debate on `proposition`,
/// if it does not: see [`NotAClaim`], checked in that order. Its length is
/// the claim's as the map shows it; the rest is judged on what it says
/// past the words heat gave it ("My first reason is that", "The
/// opposition's point fails because"), which are not its claim.
pub fn refused(sentence: &str, proposition: &str) -> Option<NotAClaim> {
    if plain_words(sentence).len() < MIN_WORDS {
        return Some(NotAClaim::Short);
    }
    let sentence = argued(sentence).trim();
    let words = plain_words(sentence);
    if !words.iter().enumerate().any(|(i, w)| works_as_verb(w, i.checked_sub(1).map(|p| words[p].as_str()))) {
        return Some(NotAClaim::NoVerb);
    }
    if words.last().is_some_and(|w| DANGLING.contains(&w.as_str())) || sentence.trim_end().ends_with('\u{2026}') {
        return Some(NotAClaim::Dangling);
    }
    if sentence.trim_end().trim_end_matches(['"', '\u{201d}', '\'', '\u{2019}', ')']).ends_with('?') {
        return Some(NotAClaim::Question);
    }
    let own = content_words(sentence);
    let share = |count: usize| if own.is_empty() { 0.0 } else { count as f32 / own.len() as f32 };
    if share(own.intersection(&content_words(proposition)).count()) > RESTATES_OVER {
        return Some(NotAClaim::Restates);
    }
    let talk = own.iter().filter(|w| is_talk(w) || SIDE_WORDS.contains(*w)).count();
    (share(talk) >= TALKS_FROM).then_some(NotAClaim::Talk)
}

/// The content words (as [`content_words`] gives them) of [`SIDES`].
static SIDE_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| content_words(&SIDES.join(" ")));

/// Whether a content word (as [`content_words`] gives it) only says how a
/// sentence talks about the debate ([`TALK`]).
pub fn is_talk(word: &str) -> bool {
    static TALK_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| content_words(&TALK.join(" ")));
    TALK_WORDS.contains(word)
}

/// The share of two sentences' content words they have in common, of all
/// either has (0 when neither has any).
pub fn overlap(a: &str, b: &str) -> f32 {
    let (a, b): (HashSet<String>, HashSet<String>) = (content_words(a), content_words(b));
    let union = a.union(&b).count();
    if union == 0 { 0.0 } else { a.intersection(&b).count() as f32 / union as f32 }
}

/// Whether two sentences say nearly the same: they share [`NEAR`] of
/// their content words or more.
pub fn near_duplicate(a: &str, b: &str) -> bool {
    overlap(a, b) >= NEAR
}

/// A sentence's words, lowercase, without the marks around them; an
/// apostrophe inside a word stays (`don't`).
pub fn plain_words(sentence: &str) -> Vec<String> {
    sentence
        .split_whitespace()
        .map(|w| w.replace('\u{2019}', "'").trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `word` (a plain word) works as a verb, `before` the word before
/// it: an auxiliary or modal, a contraction of one (`don't`, `it's`), a
/// common verb in any of its forms, a word ending in `-ed`, or a word
/// right after a subject pronoun (`they rely`).
fn works_as_verb(word: &str, before: Option<&str>) -> bool {
    let contraction = ["n't", "'re", "'ll", "'ve", "'d", "'m"].iter().any(|end| word.ends_with(end))
        || ["it's", "that's", "there's", "here's", "he's", "she's", "what's", "let's"].contains(&word);
    AUXILIARIES.contains(&word)
        || contraction
        || IRREGULAR.contains(&word)
        || VERBS.iter().any(|verb| is_form_of(word, verb))
        || (word.len() >= 5 && word.ends_with("ed"))
        || before.is_some_and(|b| SUBJECTS.contains(&b))
}

/// Whether `word` is `verb`, or it with `-s`, `-es`, `-d` or `-ed`
/// (`rely`: `relies`, `relied`).
fn is_form_of(word: &str, verb: &str) -> bool {
    let Some(rest) = word.strip_prefix(verb) else {
        return verb
            .strip_suffix('y')
            .and_then(|stem| word.strip_prefix(stem))
            .is_some_and(|end| end == "ies" || end == "ied");
    };
    matches!(rest, "" | "s" | "es" | "d" | "ed")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROPOSITION: &str = "Cities should ban cars from their centres";

    #[test]
    fn a_whole_sentence_with_a_verb_reads_as_a_claim() {
        for claim in [
            "Air quality improves when traffic falls in the centre.",
            "People with disabilities rely on cars every day!",
            "Deliveries would cost more for small shops.",
            "They often walk to school once the streets are calm.",
            "Banning cars made Oslo's centre quieter within a year.",
        ] {
            assert_eq!(refused(claim, PROPOSITION), None, "{claim}");
        }
    }

    #[test]
    fn fragments_questions_and_restatements_are_refused_each_for_its_reason() {
        assert_eq!(refused("Streets become safer.", PROPOSITION), Some(NotAClaim::Short), "three words");
        assert_eq!(
            refused("The safety of children on quiet streets near schools.", PROPOSITION),
            Some(NotAClaim::NoVerb)
        );
        assert_eq!(refused("Shops would see more people on foot and the", PROPOSITION), Some(NotAClaim::Dangling));
        let cut = "Shops would see more people on foot and buses\u{2026}";
        assert_eq!(refused(cut, PROPOSITION), Some(NotAClaim::Dangling), "quoted up to the word limit");
        assert_eq!(refused("Who pays for the buses that replace cars?", PROPOSITION), Some(NotAClaim::Question));
        assert_eq!(
            refused("I believe that cities should ban cars from centres.", PROPOSITION),
            Some(NotAClaim::Restates),
            "believe, citie, ban, car, centre: four of five are the proposition's"
        );
        assert_eq!(refused("Cities that ban cars see fewer deaths on their roads.", PROPOSITION), None, "3 of 7");
        // your, argument, side, point, view, viewpoint, debate of twelve content words.
        let talk = "Your argument is not about the matter itself; it's about your side's point of view and how I \
                    could challenge that viewpoint at some point within this debate.";
        assert_eq!(refused(talk, PROPOSITION), Some(NotAClaim::Talk));
        // you, re, your, view, me, debate of real, key, here, trying, impose, again and those: 6 of 12.
        let to_them = "But the real key here is that you're trying to impose your views on me, but again in a debate.";
        assert_eq!(refused(to_them, PROPOSITION), Some(NotAClaim::Talk));
        assert_eq!(refused("Your point about vans ignores the morning delivery window.", PROPOSITION), None, "2 of 7");
    }

    #[test]
    fn the_words_heat_gave_a_sentence_are_not_its_claim() {
        assert_eq!(
            refused("My first reason is that cars and vans.", PROPOSITION),
            Some(NotAClaim::NoVerb),
            "its \"is\" is heat's"
        );
        let reply = "The opposition's point fails because vans can still come in before ten each morning.";
        assert_eq!(refused(reply, PROPOSITION), None);
        let restated = "The opposition's point fails because cities should ban cars from centres.";
        assert_eq!(refused(restated, PROPOSITION), Some(NotAClaim::Restates));
    }

    #[test]
    fn a_verb_is_found_in_its_forms_and_after_a_subject() {
        assert!(is_form_of("relies", "rely") && is_form_of("relied", "rely") && is_form_of("saves", "save"));
        assert!(is_form_of("saved", "save") && !is_form_of("savings", "save"));
        assert!(works_as_verb("don't", None) && works_as_verb("banned", None));
        assert!(works_as_verb("often", Some("they")) && !works_as_verb("often", Some("streets")));
        assert!(!works_as_verb("quieter", None));
        assert_eq!(refused("Tabs beat spaces in every modern code editor.", "Tabs beat spaces"), None);
    }

    #[test]
    fn sentences_that_share_most_of_their_words_are_near_duplicates() {
        let a = "Streets become safer for children.";
        // street, become, safer, children against those and much: 4 of 5.
        assert!((overlap(a, "Streets become much safer for our children.") - 0.8).abs() < 1e-6);
        assert!(near_duplicate(a, "Streets become much safer for our children."));
        // street and children shared of street, become, safer, children, play, outside, calm: 2 of 7.
        assert!(!near_duplicate(a, "Children play outside on calm streets."));
        assert!(overlap("", "").abs() < f32::EPSILON);
    }
}
