//! `y`: which turn the focused pane offers for copying and how it is named
//! ("the skeptic's round 2 argument"); `Y`: the whole debate, as its
//! Markdown export. The write itself (OSC 52) is the event loop's, in
//! `clipboard`.

use super::effect::Clip;
use super::judge_text;
use super::panes::Panes;
use crate::debate::state::{Round, Turn, VerdictStatus};
use crate::debate::{DebateState, TurnPurpose};
use crate::sanitize::clean;
use crate::store::log::{Header, Record};
use crate::words::count as counted;

/// What `y` copies: the turn or verdict the focused pane is about, or why
/// there is nothing to copy.
pub fn focused(debate: &DebateState, panes: &Panes) -> Result<Clip, String> {
    let role = panes.focused_role();
    let Some((round, turn)) = focused_turn(debate, panes) else {
        return Err(format!("Nothing to copy: the {} has not spoken yet", debate.seat_name(role)));
    };
    let clip = clip(debate, round, turn);
    if clip.text.trim().is_empty() {
        return Err(format!("Nothing to copy: {} is empty so far", clip.what));
    }
    Ok(clip)
}

/// What `Y` copies: the whole debate as the Markdown export writes it
/// (`e`, `heat export`), named with its rounds ("the debate as Markdown,
/// 4 rounds").
pub fn debate(header: &Header, records: &[Record], label: &crate::store::label::Label) -> Clip {
    let text = crate::report::export::render_with(crate::report::export::ExportKind::Md, header, records, None, label);
    let state = DebateState::from_events(records.iter().map(|r| &r.event));
    let what = format!("the debate as Markdown, {}", counted(state.rounds.len(), "round"));
    Clip { text, what }
}

/// The turn the focused pane is about: the current search match's, the
/// one in view when scrolled (the first whose heading shows), or the latest
/// while the pane follows the stream.
pub(super) fn focused_turn<'a>(debate: &'a DebateState, panes: &Panes) -> Option<(&'a Round, &'a Turn)> {
    let pane = panes.focused();
    let turns: Vec<(&Round, &Turn)> = debate
        .rounds
        .iter()
        .flat_map(|r| r.turns.iter().filter(|t| t.role == pane.role).map(move |t| (r, t)))
        .collect();
    let index = match panes.search.as_ref().and_then(|s| s.current) {
        Some(hit) if hit.pane == panes.focus => pane.segment_at(hit.line),
        _ if pane.scroll.follow => None,
        _ => pane.segment_in_view(),
    };
    index.and_then(|i| turns.get(i)).or(turns.last()).copied()
}

/// A turn's text as it is copied: an argument as written (Markdown), a
/// verdict as its prose; control characters removed.
fn clip(state: &DebateState, round: &Round, turn: &Turn) -> Clip {
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
