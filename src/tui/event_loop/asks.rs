//! The turns the people seated in the studio's debates are asked for:
//! taken from the set-up's desk, and from the new desk when the settings
//! build a new set-up.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use crate::debate::engine::EngineSetup;
use crate::provider::person::{Ask, Desk};
use crate::tui::app::App;

#[derive(Default)]
pub(super) struct Asks {
    desk: Option<Arc<Desk>>,
    asks: Option<UnboundedReceiver<Ask>>,
}

impl Asks {
    /// Takes the asks of `setup`'s desk, when it is not the one already
    /// held, and closes a person's turn the debate gave up; true when
    /// that changed the screen.
    pub(super) fn follow(&mut self, setup: Option<&EngineSetup>, app: &mut App) -> bool {
        let given_up = app.drop_given_up_turn();
        let desk = setup.and_then(EngineSetup::person_desk);
        let same = match (&self.desk, &desk) {
            (Some(held), Some(now)) => Arc::ptr_eq(held, now),
            (held, now) => held.is_none() && now.is_none(),
        };
        if !same {
            self.asks = desk.as_ref().and_then(|d| d.take_asks());
            self.desk = desk;
        }
        given_up
    }

    /// The next turn a person is asked for; never, when no one is seated.
    pub(super) async fn next(&mut self) -> Option<Ask> {
        match &mut self.asks {
            Some(asks) => asks.recv().await,
            None => std::future::pending().await,
        }
    }
}
