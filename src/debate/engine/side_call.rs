//! A side call to the judge's model, one that is not a turn of its own
//! (the swap check, a panel judge's vote): what it streams is collected,
//! not shown, and what its endpoint teaches is recorded as any turn's is.

use super::Engine;
use crate::debate::call::TurnMsgKind;
use crate::debate::seat::Role;
use crate::provider::retry::TurnItem;
use crate::provider::{Chunk, Usage};

/// What a side call has answered so far (a retried attempt starts it again).
#[derive(Default)]
pub(super) struct Answer {
    pub(super) text: String,
    pub(super) usage: Option<Usage>,
}

/// Where a side call stands after a message.
pub(super) enum CallEnd {
    /// Still answering.
    Going,
    Done,
    /// It failed for good; the sentence says why.
    Failed(String),
}

impl Engine {
    /// One message of a side call about `round`: its text and usage go to
    /// `answer`, what the endpoint taught is recorded.
    pub(super) fn side_call_msg(&mut self, round: u32, answer: &mut Answer, kind: TurnMsgKind) -> CallEnd {
        match kind {
            TurnMsgKind::Item(TurnItem::Chunk(Chunk::Text(text))) => answer.text.push_str(&text),
            TurnMsgKind::Item(TurnItem::Chunk(Chunk::Usage(usage))) => answer.usage = Some(usage),
            TurnMsgKind::Item(TurnItem::Chunk(chunk @ Chunk::Adapted(_))) => self.on_chunk(round, Role::Judge, chunk),
            TurnMsgKind::Item(TurnItem::Chunk(_)) => {}
            // The failed attempt's text is discarded with it.
            TurnMsgKind::Item(TurnItem::Retrying { .. }) => *answer = Answer::default(),
            TurnMsgKind::Item(TurnItem::ParameterDropped { param, message }) => {
                self.on_parameter_dropped(Role::Judge, &param, &message);
            }
            TurnMsgKind::Item(TurnItem::StructuredSteppedDown { from, to, message }) => {
                self.on_structured_stepped_down(Role::Judge, from, to, &message);
            }
            TurnMsgKind::Done => return CallEnd::Done,
            TurnMsgKind::Failed(error) => {
                return CallEnd::Failed(error.sentence(self.setup.role(Role::Judge).model.provider_name()));
            }
        }
        CallEnd::Going
    }
}
