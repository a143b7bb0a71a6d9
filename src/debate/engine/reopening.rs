//! How a stored debate goes on (`GoOn`), and what a person asks of one as
//! it is reopened (`Reopening`): the events a reopened debate records first.

use crate::debate::event::DebateEvent;

/// How a stored debate goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoOn {
    /// Where it stopped: reopened at its first incomplete turn, a pause it
    /// was stopped in lifted, with what the person asked of it.
    Resume(Reopening),
    /// As a branch: another debate's rounds up to a finished one, with the
    /// branch's changes; nothing is reopened.
    Branch,
}

/// What a person asks of a stored debate as it goes on (`heat resume
/// --more N --question TEXT`, the results view's more rounds): nothing,
/// by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reopening {
    /// Rounds to add: on an ended debate, after its last round.
    pub more: u32,
    /// The next round's question, instead of the judge's.
    pub question: Option<String>,
}

impl Reopening {
    /// What the reopened debate records first: that it was reopened, then
    /// what the person asked.
    pub(super) fn events(self) -> Vec<DebateEvent> {
        let more = (self.more > 0).then_some(DebateEvent::RoundsAdded { rounds: self.more });
        let question = self.question.map(|q| q.trim().to_string()).filter(|q| !q.is_empty());
        let asked = question.map(|question| DebateEvent::QuestionSet { question });
        std::iter::once(DebateEvent::Reopened).chain(more).chain(asked).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reopening_records_the_reopen_then_what_was_asked_and_drops_a_blank_question() {
        let asked = Reopening { more: 2, question: Some("  Why now? ".into()) }.events();
        assert_eq!(
            asked,
            vec![
                DebateEvent::Reopened,
                DebateEvent::RoundsAdded { rounds: 2 },
                DebateEvent::QuestionSet { question: "Why now?".into() },
            ]
        );
        assert_eq!(Reopening { more: 0, question: Some("   ".into()) }.events(), vec![DebateEvent::Reopened]);
    }
}
