//! The model lists the settings' picker asks for: each asked off the loop
//! through the studio's lister, and handed to the open form as its server
//! answers (a form closed meanwhile drops it).

use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};

use crate::tui::app::App;
use crate::tui::studio::Studio;

/// A provider's name and what its server answered.
pub(super) type Answer = (String, Result<Vec<String>, String>);

pub(super) struct ModelLists {
    answers: UnboundedSender<Answer>,
    answered: UnboundedReceiver<Answer>,
}

impl ModelLists {
    pub(super) fn new() -> Self {
        let (answers, answered) = mpsc::unbounded_channel();
        Self { answers, answered }
    }

    /// Asks `provider`'s server for its models; a studio that cannot ask
    /// answers at once that it cannot.
    pub(super) fn ask(&self, studio: &Studio, provider: String) {
        let answers = self.answers.clone();
        let Some(lister) = studio.list_models.clone() else {
            let _ = answers.send((provider, Err("this studio does not ask servers for their models".into())));
            return;
        };
        tokio::spawn(async move {
            let result = lister(provider.clone()).await;
            let _ = answers.send((provider, result));
        });
    }

    /// The next answer (this holds a sender, so it never ends).
    pub(super) async fn next(&mut self) -> Option<Answer> {
        self.answered.recv().await
    }
}

/// Hands an answer to the settings form, if it is still open; true: the
/// screen changed.
pub(super) fn deliver(app: &mut App, (provider, listed): Answer) -> bool {
    app.models_listed(&provider, listed)
}
