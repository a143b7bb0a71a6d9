//! What the studio's tasks report, applied to it: the offline model's
//! install, settings applied, a stored session deleted or named, a
//! provider's model list, the person asked for their turn and their
//! editor's text, a report or summary written for the results view. The
//! loop does the I/O and hands each outcome here, so the studio's state
//! changes only in `App`'s own methods.

use crate::debate::PanelJudge;
use crate::debate::cost::Price;
use crate::model_store::Progress;
use crate::store::label::Label;
use crate::tui::modal::Modal;
use crate::tui::roster::RosterEntry;

use super::{App, FIELDS, Tone, Until};

impl App {
    /// The offline model's install began.
    pub fn install_begun(&mut self) {
        self.install_progress(Progress::new("fetching", 0, None));
    }

    /// How far the offline model's install has got.
    pub fn install_progress(&mut self, progress: Progress) {
        self.state.start.install_progress(progress);
    }

    /// The offline model's install failed, `why`.
    pub fn install_failed(&mut self, why: String) {
        self.state.start.install_failed(why);
    }

    /// The offline model is in (its set-up said `notices`): the proposition
    /// typed meanwhile, which starts now.
    pub fn installed(&mut self, notices: &[String]) -> Option<String> {
        self.state.status.open_with(notices);
        self.say_until(Tone::Info, "The offline model is installed", Until::NextRound);
        self.state.start.ready(false)
    }

    /// A proposition typed before the studio can start it waits; `why`
    /// says for what.
    pub fn wait_to_start(&mut self, topic: String, why: &str) {
        self.state.start.wait_with(topic);
        self.say(Tone::Info, why);
    }

    /// Settings could not be applied, `why`: the form comes back saying so,
    /// and a proposition typed meanwhile is let go.
    pub fn settings_refused(&mut self, why: String) {
        self.state.start.let_go();
        self.configured(&Err(why));
    }

    /// Settings applied: who can sit in the seats, the panel judges'
    /// prices, the set-up's notices and the fields now in force. Returns
    /// the proposition typed meanwhile, which starts now unless the
    /// offline model must be `installing` first.
    pub fn settings_applied(
        &mut self,
        (roster, judge_prices): (Vec<RosterEntry>, Vec<(PanelJudge, Price)>),
        notices: &[String],
        fields: [String; FIELDS],
        installing: bool,
    ) -> Option<String> {
        self.seat(roster, judge_prices);
        self.state.status.open_with(notices);
        let waiting = self.state.start.ready(installing);
        self.configured(&Ok(fields));
        waiting
    }

    /// Who can sit in the seats now, and the prices of a panel's judges.
    pub fn seat(&mut self, roster: Vec<RosterEntry>, judge_prices: Vec<(PanelJudge, Price)>) {
        (self.state.roster, self.state.judge_prices) = (roster, judge_prices);
    }

    /// The loop applied the start screen's settings (or could not): the
    /// start screen shows the new ones, or the form comes back saying why.
    pub fn configured(&mut self, result: &Result<[String; FIELDS], String>) {
        match self.state.start.configured(result) {
            Ok(said) => self.show(said),
            Err(form) => {
                self.state.modal = Some(Modal::Settings(*form));
                self.state.status.flash = None;
            }
        }
    }

    /// Stored session `id` was deleted: the browser lets it go.
    pub fn session_deleted(&mut self, id: &str) {
        if let Some(Modal::Sessions(browser)) = &mut self.state.modal {
            browser.remove(id);
        }
        self.say_until(Tone::Info, format!("Deleted session {id}"), Until::NextRound);
    }

    /// Stored session `id` has a new name or tags, `label`, as `said`.
    pub fn session_labelled(&mut self, id: &str, label: Label, said: String) {
        if let Some(Modal::Sessions(browser)) = &mut self.state.modal {
            browser.relabel(id, label);
        }
        self.say_until(Tone::Info, said, Until::NextRound);
    }

    /// `provider`'s models, or why they could not be listed, for the
    /// settings form if it is still open; true: the screen changed.
    pub fn models_listed(&mut self, provider: &str, listed: Result<Vec<String>, String>) -> bool {
        let Some(Modal::Settings(form)) = &mut self.state.modal else { return false };
        form.models.listed(provider, listed);
        true
    }

    /// The debate asks the person for their turn in a seat they take: its
    /// pane comes into view and opens as an editor (the verdict form for
    /// the judge's seat), unless a dialog is open, which the person closes first.
    pub fn person_asked(&mut self, ask: crate::provider::person::Ask) {
        let Some(turn) = crate::tui::person_turn::PersonTurn::of(ask) else { return };
        self.state.panes.focus = turn.role.position();
        self.state.person = Some(turn);
        if self.state.modal.is_none() {
            self.open_person_turn();
        } else {
            self.say_until(Tone::Info, "Your turn: close this dialog, then Enter to write it", Until::NextRound);
        }
    }

    /// The person's editor gave back `text` for their turn, which opens
    /// again with it.
    pub fn turn_edited(&mut self, text: &str) {
        if let Some(turn) = &mut self.state.person {
            turn.edited(text);
        }
        self.open_person_turn();
    }

    /// The report was written at `shown`: the results view names it.
    pub fn report_written(&mut self, shown: &str) {
        if let Some(Modal::Results(results)) = &mut self.state.modal {
            results.report = Some(shown.to_string());
        }
        self.say_until(Tone::Good, format!("Report written to {shown}"), Until::NextRound);
    }

    /// The judge's model was asked for a summary: the results view shows
    /// its draft as it comes.
    pub fn summary_asked(&mut self) {
        self.summary_draft(|draft| *draft = Some(String::new()));
        self.say_until(Tone::Info, "Asking the judge's model for a summary…", Until::NextRound);
    }

    /// A piece of the summary's draft; `None`: the draft starts again.
    pub fn summary_piece(&mut self, piece: Option<&str>) {
        self.summary_draft(|draft| match (draft.as_mut(), piece) {
            (Some(text), Some(piece)) => text.push_str(piece),
            (Some(text), None) => text.clear(),
            (None, _) => {}
        });
    }

    /// The summary is over (its event, if any, folded by the caller): the
    /// draft goes.
    pub fn summary_over(&mut self) {
        self.summary_draft(|draft| *draft = None);
    }

    fn summary_draft(&mut self, change: impl FnOnce(&mut Option<String>)) {
        if let Some(Modal::Results(results)) = &mut self.state.modal {
            change(&mut results.summary_draft);
        }
    }
}
