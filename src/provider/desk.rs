//! Where a person seated in a debate is asked for their turns: the desk
//! every person's seat puts its asks on, and the ask itself (what a model
//! would have been sent, and where the person's text goes). Whoever takes
//! the desk's asks (the studio, `heat run`) answers them.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{mpsc, oneshot};

use super::chat::ChatRequest;

/// The judge's seat key: a person there gives verdicts.
const JUDGE: &str = "judge";

/// One turn a person is asked for.
#[derive(Debug)]
pub struct Ask {
    /// The seat's key (`skeptic`, `judge`).
    pub seat: String,
    /// What a model in the seat would have been sent.
    pub request: ChatRequest,
    /// Where the person's text goes. Closed once the turn is no longer
    /// wanted (cancelled, the debate stopped).
    pub reply: oneshot::Sender<String>,
}

impl Ask {
    /// Whether the turn was given up: nobody waits for the reply any more.
    pub fn is_closed(&self) -> bool {
        self.reply.is_closed()
    }

    /// Whether the seat is asked for a verdict (the judge's), not an argument.
    pub fn wants_verdict(&self) -> bool {
        self.seat == JUDGE
    }
}

/// Where the turns people are asked for arrive: one desk for every person
/// seated in a set-up. Whoever takes its asks answers them.
#[derive(Debug)]
pub struct Desk {
    tx: mpsc::UnboundedSender<Ask>,
    rx: Mutex<Option<mpsc::UnboundedReceiver<Ask>>>,
}

impl Desk {
    pub fn new() -> Arc<Self> {
        let (tx, rx) = mpsc::unbounded_channel();
        Arc::new(Self { tx, rx: Mutex::new(Some(rx)) })
    }

    /// Puts an ask on the desk; false when no one can take it any more.
    pub(super) fn ask(&self, ask: Ask) -> bool {
        self.tx.send(ask).is_ok()
    }

    /// The asks, for the one who answers them (the first to take them).
    pub fn take_asks(&self) -> Option<mpsc::UnboundedReceiver<Ask>> {
        self.rx.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}
