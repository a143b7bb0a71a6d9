//! Guards that hold whatever model plays a role: pure checks on what a
//! model answered, for the engine to act on. Small models drift (they echo
//! their prompt, write placeholders, or hand back a piece of the judge's
//! brief as the next topic); a strong model passes all of this untouched.
//!
//! - **Arguments** ([`argument`]): lines that echo the prompt's control line
//!   (`{"set_temp": 0.70}`, `HEAT: 0.7`), its round line (`Round 2 of 4.`
//!   and the instruction after it) or its proposition line, and chat-template
//!   tokens (`<|im_start|>assistant`, `</s>`, `[INST]`), are stripped. An
//!   argument that is empty, holds nothing else, or is mostly a copy of its
//!   prompt is a failed turn: the engine asks once more (the same request),
//!   then fails the turn as a provider's empty answer does, which ends the
//!   debate as failed ("the advocate could not answer: …").
//! - **Verdicts** ([`reason`]): a verdict text that is empty, a placeholder
//!   (`…`, `][`, `1.2`, `N/A`, `string`), under 3 words of letters, mostly a
//!   copy of an argument or the prompt, or last round's verdict word for word
//!   is invalid and goes through the repair path like unparsable JSON.
//! - **Topics** ([`topic`]): the judge's next topic stands only as one line
//!   of 3–30 words of letters (fewer only for a question ending in `?`),
//!   without brackets, template marks or an ellipsis, not a fragment (it
//!   starts with a letter, digit or quote, does not end on `,;:-(/&`, and
//!   its parentheses close), not mostly copied, and, when it shares no
//!   content word with the proposition (stop words out, a plural `s` off),
//!   not about the debate itself (debate, judge, round, verdict, heat,
//!   JSON…). The proposition, a round's topic or an injected note, given
//!   back, is taken as it is; so is any topic of a verdict that ends the
//!   debate. Otherwise the verdict stands with the round's topic in place
//!   of the judge's, and a notice says why.
//!
//! "Mostly copied": more than half of the text's words lie inside runs of 6
//! or more words also found in one source: an argument of this round (each
//! on its own), or the prompt the model was sent (its system prompt and
//! user messages, which quote the opponent's last argument). Runs wholly
//! inside the proposition, a round's topic or an injected note are quotes
//! anyone may make and do not count. A topic under 6 words is a copy when it
//! is found whole in the system prompt (one or two are not judged so).
//!
//! Stripping happens once, when a turn completes: the deltas stream as the
//! model sent them, and the engine's `TurnCompleted` carries the cleaned
//! text, which the fold (`DebateState::apply`) sets as the turn's text. So
//! the fold stays the one source of what the studio, the store and exports
//! show, and a replay shows the same cleaned turn.
//!
//! [`turn`] builds each check's context from the folded state and the
//! prompt the model was sent, and says what the engine should do.
//!
//! Measured on the sets in `topic`'s tests: 8 of 8 good topics pass; 16 of
//! 16 bad topics (the ones a 135M judge wrote, and more of their kind) are
//! set aside, each for the reason expected, and 12 of 12 generated ones.

pub mod argument;
pub mod reason;
pub mod text;
pub mod topic;
pub mod turn;

pub use argument::ArgumentFault;
pub use reason::VerdictFault;
pub use topic::TopicFault;

use super::Role;

/// What an answer is weighed against.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The proposition the debate started from.
    pub proposition: &'a str,
    /// The system prompt the model was sent.
    pub system: &'a str,
    /// The user messages the model was sent.
    pub user: &'a [String],
    /// The seat's own earlier turns it was sent (as assistant messages).
    pub own: &'a [String],
    /// This round's settled arguments.
    pub arguments: &'a [(Role, &'a str)],
    /// Texts anyone may quote: the rounds' topics and injected notes (the
    /// proposition is always one).
    pub allowed: &'a [String],
}

impl Context<'_> {
    fn prompt_texts(&self) -> Vec<&str> {
        std::iter::once(self.system).chain(self.user.iter().map(String::as_str)).collect()
    }

    /// Whether `answer` says one of the seat's own earlier turns again,
    /// word for word (a position restated in new words is an argument).
    fn repeats_own_turn(&self, answer: &str) -> bool {
        let said = text::words(answer);
        !said.is_empty() && self.own.iter().any(|turn| text::words(turn) == said)
    }

    fn allowed_texts(&self) -> Vec<&str> {
        std::iter::once(self.proposition).chain(self.allowed.iter().map(String::as_str)).collect()
    }
}
