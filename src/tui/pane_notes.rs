//! What a pane shows around a turn's own text: the verdict's foot (the
//! swap check's mark among it), quote checks and the lines they cite, a
//! concession, a debater's final answer (in a vote), a review's board of
//! issues, the person's verdicts and the debate's ending.

use super::theme::Theme;
use super::wrap::wrap_plain;
use crate::debate::DebateState;
use crate::debate::PanelJudge;
use crate::debate::facts::{PanelFacts, RoundFacts};
use crate::debate::grounding::Mark;
use crate::debate::issues::{self, Row, Status};
use crate::debate::panel;
use crate::debate::panel::vote::Vote;
use crate::debate::state::{Round, Turn, VerdictStatus};
use crate::debate::verdict::Scores;
use crate::sanitize::clean;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// The lines under a judge turn's verdict: its outcome, the next question
/// and heat, who is ahead, who conceded and the swap check's mark; or why
/// it could not be used.
pub(super) fn verdict_foot(
    state: &DebateState,
    round: &Round,
    turn: &Turn,
    width: u16,
    theme: &Theme,
    accent: Style,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    match &turn.verdict {
        Some(VerdictStatus::Parsed { verdict }) => {
            if !turn.purpose.is_final() {
                lines.push(Line::default());
            }
            // One outcome, said once: a verdict that closes the debate has no next heat or topic.
            let panel = state.judges() > 1;
            if turn.purpose.is_final() {
                // Its heading says "Final synthesis" already: the text ends it.
            } else if !panel && turn.closes_debate() {
                lines.push(Line::from(Span::styled(
                    "resolved",
                    Style::new().fg(theme.good).add_modifier(Modifier::BOLD),
                )));
            } else {
                // On a panel the chair's word is one vote of several: named as such.
                let chair =
                    if panel { format!("{}: ", panel::judge_name(state, PanelJudge::CHAIR)) } else { String::new() };
                let said = if verdict.resolved { "resolved" } else { "not resolved" };
                // A person's pin wins over the judge's heat: the next round runs at the pin.
                let heat = match pinned_after(state, round) {
                    Some(pin) => Span::styled(
                        format!(" · heat {pin:.2} pinned (the judge said {:.2})", verdict.heat),
                        Style::new().fg(theme.heat(pin)),
                    ),
                    None => Span::styled(
                        format!(" · heat → {:.2}", verdict.heat),
                        Style::new().fg(theme.heat(verdict.heat)),
                    ),
                };
                lines.push(Line::from(vec![
                    Span::styled(format!("{chair}{said}"), Style::new().fg(theme.warn).add_modifier(Modifier::BOLD)),
                    heat,
                ]));
                lines.extend(wrap_plain(&next_question(state, round, &verdict.topic), width, accent));
            }
            lines.extend(super::verdict_marks::lines(state, round, verdict, width, theme));
        }
        Some(VerdictStatus::Invalid { error, will_retry }) => {
            let then = if *will_retry { "asking again" } else { "keeping the heat" };
            let msg = format!("⚠ the verdict could not be used ({}); {then}", clean(error));
            lines.extend(wrap_plain(&msg, width, Style::new().fg(theme.warn)));
        }
        None => {}
    }
    lines
}

/// The round's scores (a panel's median), under the verdict.
fn score_lines(state: &DebateState, round: &Round, scores: &Scores, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut said = crate::debate::scores::line(state, round.number, scores);
    if state.judges() > 1 {
        said.push_str(" · panel median");
    }
    wrap_plain(&said, width, theme.secondary())
}

/// Where a judge turn stands among its round's judge turns, for what of
/// the round's facts it draws.
#[derive(Debug, Clone, Copy)]
pub(super) struct FactsAt {
    /// The round's latest judge turn (a panel's votes are drawn under it).
    pub latest: bool,
    /// The turn that gave the round's latest verdict (a review's board is drawn under it).
    pub holds_verdict: bool,
}

/// A judge turn's part of its round's facts, under its verdict: the
/// round's scores, a panel's votes (under the round's latest judge turn),
/// and a review's board and the argument map's round (under the turn that
/// gave the latest verdict). The
/// swap check is among the verdict's marks, the vote among final answers
/// under each debater's answer, the room's votes at the pane's end.
pub(super) fn fact_lines(
    state: &DebateState,
    round: &Round,
    turn: &Turn,
    facts: &RoundFacts,
    at: FactsAt,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let RoundFacts { scores, issues, panel, swap: _, vote: _, room: _, map } = facts;
    let mut lines = Vec::new();
    if let Some(scores) = scores.as_ref().filter(|_| matches!(turn.verdict, Some(VerdictStatus::Parsed { .. }))) {
        lines.extend(score_lines(state, round, scores, width, theme));
    }
    if let Some(map) = map.as_ref().filter(|_| at.holds_verdict) {
        for line in crate::debate::argument_map::round_lines(state, map) {
            lines.extend(wrap_plain(&line, width, theme.secondary()));
        }
    }
    if let Some(panel) = panel.as_ref().filter(|_| at.latest) {
        lines.extend(panel_lines(state, panel, width, theme));
    }
    if let Some(rows) = issues.as_deref().filter(|_| at.holds_verdict) {
        lines.extend(board_lines(state, rows, width, theme));
    }
    lines
}

/// The heat a person pinned for the round after `round`, where one holds:
/// the next round's, once it started at a pin; else the pin in force now.
pub(super) fn pinned_after(state: &DebateState, round: &Round) -> Option<crate::debate::Heat> {
    match state.rounds.iter().find(|r| r.number == round.number + 1) {
        Some(next) => next.pinned.then_some(next.heat),
        None => state.pinned_heat,
    }
}

/// A panel's other judges' votes on `round`, a line each, then the
/// majority's decision once every judge has spoken.
fn panel_lines(state: &DebateState, panel: &PanelFacts, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let seats = state.judges();
    let mut lines = vec![Line::default()];
    for judge in PanelJudge::members(seats) {
        let (text, style) = match panel.votes.get(&judge) {
            None => (format!("{}: waiting to weigh the round", panel::judge_name(state, judge)), theme.secondary()),
            Some(vote @ Vote::Asking) => (panel::vote_line(state, judge, vote), theme.secondary()),
            Some(vote @ Vote::Voted { .. }) => (panel::vote_line(state, judge, vote), Style::new().fg(theme.muted)),
            Some(vote @ Vote::Failed { .. }) => (panel::vote_line(state, judge, vote), Style::new().fg(theme.warn)),
        };
        lines.extend(wrap_plain(&format!("▪ {}", clean(&text)), width, style));
    }
    if let Some(said) = panel.said.clone() {
        let (text, color) = match said {
            Ok(decided) => (decided, theme.good),
            Err(undecided) => (undecided, theme.warn),
        };
        lines.extend(wrap_plain(&clean(&text), width, Style::new().fg(color).add_modifier(Modifier::BOLD)));
    }
    lines
}

/// Whether `turn` carries its round's latest verdict: the judge turn a
/// review's board is drawn under (a repair's, not the failed answer's).
pub(super) fn holds_latest_verdict(round: &Round, turn: &Turn) -> bool {
    turn.role.is_judge()
        && round
            .turns
            .iter()
            .rev()
            .find(|t| t.role.is_judge() && matches!(t.verdict, Some(VerdictStatus::Parsed { .. })))
            .is_some_and(|t| std::ptr::eq(t, turn))
}

/// A review's board under a verdict: "▣ 2 issues: 1 open, 1 addressed" in
/// bold, then an issue a line, its status in its own colour.
fn board_lines(state: &DebateState, rows: &[Row], width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let bold = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::default()];
    if rows.is_empty() {
        lines.extend(wrap_plain("▣ no issue raised yet", width, bold));
        return lines;
    }
    lines.extend(wrap_plain(&format!("▣ {}", issues::summary(rows)), width, bold));
    let text = Style::new().fg(theme.text);
    for row in rows {
        let line = clean(&issues::row_line(state, row));
        // "L1 [high] " comes before the status word.
        let status = row.status.name();
        let at = format!("{} [{}] ", row.issue.id, row.issue.severity.name()).len();
        let options = textwrap::Options::new(usize::from(width.max(1))).initial_indent("  ").subsequent_indent("    ");
        for (i, wrapped) in textwrap::wrap(&line, options).into_iter().enumerate() {
            let start = at + 2;
            let styled = i == 0 && wrapped.get(start..start + status.len()) == Some(status);
            if styled {
                lines.push(Line::from(vec![
                    Span::styled(wrapped[..start].to_string(), text),
                    Span::styled(status.to_string(), status_style(row.status, theme)),
                    Span::styled(wrapped[start + status.len()..].to_string(), text),
                ]));
            } else {
                lines.push(Line::from(Span::styled(wrapped.into_owned(), text)));
            }
        }
    }
    lines
}

/// An issue's status in its colour: open warns, addressed is good, a
/// rejected or deferred one steps back.
fn status_style(status: Status, theme: &Theme) -> Style {
    match status {
        Status::Open => Style::new().fg(theme.warn),
        Status::Addressed => Style::new().fg(theme.good),
        Status::Rejected => Style::new().fg(theme.muted),
        Status::Deferred => theme.secondary(),
    }
}

/// What an argument cited from the source, as checked: a line each, ✓ in
/// the good colour, ≈ in the warning one, ✗ in the error one; then a flag
/// when the judge says it conceded a point, and one when its stance changed
/// with no reason given.
pub(super) fn check_lines(
    state: &DebateState,
    round: &Round,
    turn: &Turn,
    width: u16,
    theme: &Theme,
    cited: bool,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(readings) = round.readings.get(&turn.role).filter(|_| turn.role.is_debater()) {
        let read: Vec<String> = readings.iter().map(crate::debate::grounding::Reading::label).collect();
        lines.extend(wrap_plain(&clean(&format!("≡ read {}", read.join(" · "))), width, theme.secondary()));
    }
    for check in &turn.checks {
        let color = match check.mark {
            Mark::Verified => theme.good,
            Mark::Near => theme.warn,
            Mark::Unverified => theme.error,
            Mark::PriorTurn => theme.muted,
        };
        lines.extend(wrap_plain(&clean(&check.describe()), width, Style::new().fg(color)));
        if let Some(shown) = crate::debate::grounding::reading::lines_cited(state, check).filter(|_| cited) {
            lines.extend(cited_lines(&shown, width, theme));
        }
    }
    if conceded_by(round, turn) {
        lines.extend(wrap_plain("⚑ conceded a point, the judge says", width, Style::new().fg(theme.warn)));
    }
    if let Some(line) = turn.stance.as_ref().filter(|_| state.stance_unexplained(round.number, turn.role)) {
        let flag = format!("⚑ the stance changed to {} with no reason given", line.stance.name());
        lines.extend(wrap_plain(&flag, width, Style::new().fg(theme.warn)));
    }
    lines
}

/// The tool calls a turn made, made and answered.
pub(super) fn looked_up_count(turn: &Turn) -> (usize, usize) {
    let calls = turn.tools.iter().flat_map(|s| &s.calls);
    (calls.clone().count(), calls.filter(|u| u.answer.is_some()).count())
}

/// What a turn looked up, a line a call, folded to what it asked and what
/// it got: "⌕ search "night trains" → 5 passages · 2 ms"; a call still
/// being answered ends in "…", a failed one is in the warning colour.
pub(super) fn looked_up_lines(turn: &Turn, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    use crate::debate::grounding::lookup;
    let mut lines = Vec::new();
    for used in turn.tools.iter().flat_map(|s| &s.calls) {
        let said = lookup::said(&used.call);
        let (line, style) = match &used.answer {
            Some(answer) => {
                let gist = lookup::gist(&answer.text, answer.failed);
                let style = if answer.failed { Style::new().fg(theme.warn) } else { theme.secondary() };
                (format!("⌕ {said} → {gist} · {}", lookup::took(answer.millis)), style)
            }
            None => (format!("⌕ {said} …"), theme.secondary()),
        };
        lines.extend(wrap_plain(&clean(&line), width, style));
    }
    lines
}

/// A debater's final answer under its finished turn, in a format that
/// asks for one: "▸ final answer: four days", or a warning that the turn
/// gave none (it counts for nothing in the vote).
pub(super) fn final_answer(state: &DebateState, turn: &Turn, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    if !state.final_answers() || !turn.role.is_debater() {
        return Vec::new();
    }
    match crate::debate::vote::final_answer(&turn.text) {
        Some(answer) => {
            let text = format!("▸ final answer: {}", clean(&answer));
            wrap_plain(&text, width, Style::new().fg(theme.role(turn.role)).add_modifier(Modifier::BOLD))
        }
        None => wrap_plain(
            "⚑ no final answer: this turn counts for nothing in the vote",
            width,
            Style::new().fg(theme.warn),
        ),
    }
}

/// Whether the round's verdict says this debater's turn conceded a point.
pub(super) fn conceded_by(round: &Round, turn: &Turn) -> bool {
    turn.role.is_debater() && round.verdict().and_then(|v| v.conceded).is_some_and(|c| c.by(turn.role))
}

/// The source lines a check points at, indented under its mark: at most
/// [`CITED_LINES`], the rest counted.
fn cited_lines(shown: &[(usize, &str)], width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let style = theme.secondary();
    let mut lines = Vec::new();
    for (n, text) in shown.iter().take(CITED_LINES) {
        lines.extend(wrap_plain(&format!("  L{n}: {}", clean(text)), width, style));
    }
    let more = shown.len().saturating_sub(CITED_LINES);
    if more > 0 {
        lines.push(Line::from(Span::styled(format!("  … {}", crate::words::count(more, "more line")), style)));
    }
    lines
}

/// The most source lines shown under one citation.
const CITED_LINES: usize = 6;

pub(super) fn segment_is_first(state: &DebateState, round: &Round, turn: &Turn) -> bool {
    state.rounds.first().is_some_and(|r| r.number == round.number)
        && round.turns.iter().find(|t| t.role == turn.role).is_some_and(|t| std::ptr::eq(t, turn))
}

/// The person's verdicts, beside the judge's: "You, round 2: advocate
/// ahead, 70% sure — the note".
pub(super) fn human_lines(state: &DebateState, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for verdict in &state.human {
        lines.push(Line::default());
        let note = if verdict.note.is_empty() { String::new() } else { format!(" — {}", clean(&verdict.note)) };
        let ended = if verdict.ends { " (you ended the debate)" } else { "" };
        let text = format!("You, round {}: {}{ended}{note}", verdict.round, verdict.describe(state));
        lines.extend(wrap_plain(&text, width, Style::new().fg(theme.title).add_modifier(Modifier::BOLD)));
    }
    lines
}

/// The room's vote on the audience page, beside the judge's and the
/// person's: "The room, round 2: Advocate 12 · Skeptic 7".
pub(super) fn audience_lines(state: &DebateState, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (round, tally) in &state.audience {
        lines.push(Line::default());
        let text = format!("The room, round {}: {}", round + 1, crate::debate::audience::tally_words(state, tally));
        lines.extend(wrap_plain(&text, width, Style::new().fg(theme.title).add_modifier(Modifier::BOLD)));
    }
    lines
}

/// The closing lines of the last seat's pane (the judge's, where one sits)
/// once the debate is over.
pub(super) fn ending(state: &DebateState, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let Some(finish) = &state.finish else { return Vec::new() };
    let color = match finish.outcome {
        crate::debate::Outcome::Failed(_) | crate::debate::Outcome::Invalidated(_) => theme.error,
        crate::debate::Outcome::Cancelled => theme.muted,
        _ => theme.good,
    };
    let mut lines = vec![Line::default()];
    let rule = "━".repeat(usize::from(width).min(3));
    let text = format!("{rule} Debate over: {} {rule}", clean(&finish.outcome.describe()));
    lines.extend(wrap_plain(&text, width, Style::new().fg(color).add_modifier(Modifier::BOLD)));
    // With no judge the debate's last word is the vote ("The vote: …"), said here.
    if let Some(said) = finish.synthesis.as_deref().filter(|_| state.judges() == 0) {
        lines.extend(wrap_plain(&clean(said.trim()), width, Style::new().fg(color)));
    }
    lines
}

/// What the round after `round` asks, as its verdict's pane says it: the
/// judge's question, or the person's that replaces it (set for the next
/// round, or asked by it), naming both.
fn next_question(state: &DebateState, round: &Round, judges: &str) -> String {
    let asked = state.rounds.iter().find(|r| r.number == round.number + 1);
    let persons = match asked {
        Some(next) if next.asked_by_person => Some(next.topic.as_str()),
        Some(_) => None,
        None => state.next_question.as_deref(),
    };
    match persons {
        Some(question) if question.trim() != judges.trim() => {
            format!("Next: {} (your question; the judge asked: {})", clean(question), clean(judges))
        }
        _ => format!("Next: {}", clean(judges)),
    }
}
