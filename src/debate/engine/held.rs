//! What the calls under way sent while the debate is paused, kept in the
//! order it arrived with when each piece came: a call's pieces are handed
//! back together the moment the call ends (so a finished turn is recorded
//! while still paused), and whatever is left at the resume.

use std::collections::VecDeque;
use std::time::Instant;

use super::task::{CallMsg, CallMsgKind};

/// Call messages received while paused, with when each arrived.
#[derive(Default)]
pub(super) struct Held(VecDeque<(Instant, CallMsg)>);

impl Held {
    /// Holds `msg`, which arrived `at`. When it ends its call (done or
    /// failed), that call's pieces come back, in order, to be told now.
    pub(super) fn hold(&mut self, at: Instant, msg: CallMsg) -> Option<VecDeque<(Instant, CallMsg)>> {
        let (task, ends) = (msg.task, !matches!(msg.kind, CallMsgKind::Item(_)));
        self.0.push_back((at, msg));
        if !ends {
            return None;
        }
        let (ended, others) = std::mem::take(&mut self.0).into_iter().partition(|(_, m)| m.task == task);
        self.0 = others;
        Some(ended)
    }

    /// Everything still held, in order: the resume tells it.
    pub(super) fn take_all(&mut self) -> VecDeque<(Instant, CallMsg)> {
        std::mem::take(&mut self.0)
    }

    /// Drops what a cancelled call sent.
    pub(super) fn drop_call(&mut self, task: u64) {
        self.0.retain(|(_, m)| m.task != task);
    }

    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}
