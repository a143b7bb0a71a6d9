//! `y`: which turn the focused pane offers for copying and how it is named
//! ("the skeptic's round 2 argument"). The write itself (OSC 52) is the
//! event loop's, in `clipboard`.

use super::app::{App, Tone, Until};
use super::effect::Effect;
use super::judge_text;
use crate::debate::TurnPurpose;
use crate::debate::state::{Round, Turn, VerdictStatus};
use crate::sanitize::clean;

/// Text to put on the clipboard, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clip {
    pub text: String,
    /// "the skeptic's round 2 argument"
    pub what: String,
}

impl App {
    /// `y`: asks the loop to copy the focused turn or verdict; says why
    /// not when there is nothing to copy.
    pub(super) fn copy(&mut self) -> Vec<Effect> {
        let role = self.focused_role();
        let Some((round, turn)) = self.focused_turn() else {
            let text = format!("Nothing to copy: the {} has not spoken yet", self.debate.seat_name(role));
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        };
        let clip = clip(&self.debate, round, turn);
        if clip.text.trim().is_empty() {
            let text = format!("Nothing to copy: {} is empty so far", clip.what);
            self.say_until(Tone::Info, text, Until::NextRound);
            return Vec::new();
        }
        vec![Effect::Copy(clip)]
    }

    /// The turn the focused pane is about: the current search match's, the
    /// one in view when scrolled (the first whose heading shows), or the
    /// latest while the pane follows the stream.
    fn focused_turn(&self) -> Option<(&Round, &Turn)> {
        let pane = &self.panes[self.focus];
        let turns: Vec<(&Round, &Turn)> = self
            .debate
            .rounds
            .iter()
            .flat_map(|r| r.turns.iter().filter(|t| t.role == pane.role).map(move |t| (r, t)))
            .collect();
        let index = match self.search.as_ref().and_then(|s| s.current) {
            Some(hit) if hit.pane == self.focus => pane.segment_at(hit.line),
            _ if pane.scroll.follow => None,
            _ => pane.segment_in_view(),
        };
        index.and_then(|i| turns.get(i)).or(turns.last()).copied()
    }
}

/// A turn's text as it is copied: an argument as written (Markdown), a
/// verdict as its prose; control characters removed.
fn clip(state: &crate::debate::DebateState, round: &Round, turn: &Turn) -> Clip {
    let number = round.number + 1;
    let who = state.seat_name(turn.role);
    let what = match turn.purpose {
        TurnPurpose::Argue => format!("the {who}'s round {number} argument"),
        TurnPurpose::Judge | TurnPurpose::RepairVerdict => format!("the {who}'s round {number} verdict"),
        TurnPurpose::Synthesis | TurnPurpose::RepairSynthesis => format!("the {who}'s final synthesis"),
    };
    let what = if turn.is_open() { format!("{what} so far") } else { what };
    let text = match (&turn.verdict, turn.purpose) {
        (Some(VerdictStatus::Parsed { verdict }), _) => verdict.verdict.clone(),
        (_, TurnPurpose::Argue) => turn.text.clone(),
        _ => judge_text::partial(&turn.text, &state.side_names()).verdict,
    };
    Clip { text: clean(&text), what }
}
