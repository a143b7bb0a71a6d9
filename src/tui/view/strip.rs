//! The judge's latest verdict where the judge's pane is hidden: presenter
//! mode's strip under the debaters (who is ahead, resolved or not, the heat
//! from → to, the verdict and the next question) beside the heat in large
//! glyphs and its gauge, so the room sees each round's result whichever
//! pane has the focus; and the plain studio's band under the one pane a
//! narrow screen shows, so a round's verdict stays in view once the next
//! round starts.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::border::Border;
use crate::debate::state::{Round, Turn};
use crate::debate::{DebateState, Role, Verdict};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::wrap::wrap_rows;

/// The columns the large heat takes, with a margin.
const HEAT_COLUMNS: u16 = 18;
/// The cells of the gauge under the large heat.
const GAUGE_CELLS: usize = 16;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let debate = &app.debate;
    let accent = Style::new().fg(theme.role(Role::Judge)).add_modifier(Modifier::BOLD);
    let title = Line::from(vec![
        Span::styled(format!(" {} ", debate.label(Role::Judge)), accent),
        Span::styled(format!("· {} ", state(debate)), theme.secondary()),
    ]);
    Border { set: border::ROUNDED, style: Style::new().fg(theme.border), title, note: None }
        .draw(area, frame.buffer_mut());
    let inner = Border::inner(area);
    let heat = debate.effective_heat();
    let big = inner.width >= 60 && inner.height >= 5;
    let text_area = if big {
        let [left, right] = Layout::horizontal([Constraint::Length(HEAT_COLUMNS), Constraint::Min(10)]).areas(inner);
        let color = Style::new().fg(theme.heat(heat)).add_modifier(Modifier::BOLD);
        super::big::draw(frame, left, &format!("{heat:.2}"), color);
        let filled = ((heat.share() * GAUGE_CELLS as f32).round() as usize).clamp(1, GAUGE_CELLS);
        let gauge = Line::from(vec![
            Span::styled("▰".repeat(filled), Style::new().fg(theme.heat(heat))),
            Span::styled("▱".repeat(GAUGE_CELLS - filled), theme.secondary()),
        ])
        .centered();
        let gauge_row = Rect { y: left.y + super::big::GLYPH.1, height: 1, ..left };
        frame.render_widget(Paragraph::new(gauge), gauge_row);
        right
    } else {
        inner
    };
    let lines = verdict_lines(app, text_area.width, text_area.height);
    frame.render_widget(Paragraph::new(lines), text_area);
}

/// The rows the verdict band takes on a screen `height` rows tall: none
/// before the first verdict, its head alone on a short screen, else the
/// head and the verdict.
pub fn band_rows(app: &App, height: u16) -> u16 {
    match latest(&app.debate) {
        None => 0,
        Some(_) if height < 20 => 1,
        Some(_) => 2,
    }
}

/// Draws the verdict band in `area`: the head as the strip says it, then
/// the verdict on one row (or the outcome, once the debate is over), each
/// behind the judge's bar.
pub fn band(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let debate = &app.debate;
    let Some((round, verdict)) = latest(debate) else { return };
    let width = usize::from(area.width.saturating_sub(3)).max(1);
    let bar = Span::styled(" ▌ ", Style::new().fg(theme.role(Role::Judge)));
    let accent = Style::new().fg(theme.role(Role::Judge)).add_modifier(Modifier::BOLD);
    let head = format!("{} · {}", debate.label(Role::Judge), head(debate, round, verdict));
    let said = match &debate.finish {
        Some(finish) => format!("Over: {}", clean(&finish.outcome.describe())),
        None => clean(&verdict.verdict),
    };
    let said = wrap_rows(&said, width, 1, width).into_iter().next().unwrap_or_default();
    let rows = [
        Line::from(vec![bar.clone(), Span::styled(crate::tui::wrap::truncate(&head, width), accent)]),
        Line::from(vec![bar, Span::styled(said, Style::new().fg(theme.text))]),
    ];
    for (y, line) in (area.y..area.bottom()).zip(rows.iter()) {
        super::line::one_line(frame, Rect { y, height: 1, ..area }, line);
    }
}

/// "Round 2: not resolved · Skeptic ahead · heat 0.90 → 0.70".
fn head(debate: &DebateState, round: &Round, verdict: &Verdict) -> String {
    let resolved = if verdict.resolved { "resolved" } else { "not resolved" };
    let standing = crate::debate::standing::describe(verdict, debate).map(|s| format!(" · {s}")).unwrap_or_default();
    let (from, to) = (round.heat.get(), verdict.heat.get());
    format!("Round {}: {resolved}{standing} · heat {from:.2} → {to:.2}", round.number + 1)
}

/// What the judge is doing now, for the strip's title.
fn state(debate: &DebateState) -> String {
    let round = debate.current_round();
    let judging = round.and_then(|r| r.turn(Role::Judge)).is_some_and(Turn::is_open);
    match round {
        _ if debate.finish.is_some() => "the debate is over".into(),
        Some(r) if judging => format!("weighing round {}…", r.number + 1),
        Some(r) if r.verdict().is_some() => format!("round {} judged", r.number + 1),
        Some(r) => format!("round {} is argued", r.number + 1),
        None => "waiting for the first round".into(),
    }
}

/// The latest round the judge gave a verdict on, with it.
fn latest(debate: &DebateState) -> Option<(&Round, &Verdict)> {
    debate.rounds.iter().rev().find_map(|r| r.verdict().map(|v| (r, v)))
}

/// The verdict's lines in `width` × `rows`: its standing, the verdict
/// (wrapped into what is left), then the next question.
fn verdict_lines(app: &App, width: u16, rows: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let debate = &app.debate;
    let width = usize::from(width.saturating_sub(1)).max(1);
    let Some((round, verdict)) = latest(debate) else {
        let waiting = "The judge's verdict shows here once the debaters have argued a round.";
        return wrap_rows(waiting, width, usize::from(rows), width)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, theme.secondary())))
            .collect();
    };
    let head = head(debate, round, verdict);
    let accent = Style::new().fg(theme.role(Role::Judge)).add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::from(Span::styled(crate::tui::wrap::truncate(&head, width), accent))];
    // Once the debate is over no round follows: its outcome stands where the next question stood.
    let next = match &debate.finish {
        Some(finish) => format!("Over: {}", clean(&finish.outcome.describe())),
        None => format!("Next: {}", clean(&verdict.topic)),
    };
    let next_rows = wrap_rows(&next, width, 2, width);
    // The room votes from its phones: its count for the round shown, where anyone voted.
    let votes = debate.audience.get(&round.number).filter(|t| t.total() > 0);
    let votes = votes.map(|t| format!("The room: {}", clean(&crate::debate::audience::tally_words(debate, t))));
    let vote_rows = votes.map(|v| wrap_rows(&v, width, 1, width)).unwrap_or_default();
    let room = usize::from(rows).saturating_sub(1 + next_rows.len() + vote_rows.len()).max(1);
    let said = wrap_rows(&clean(&verdict.verdict), width, room, width);
    lines.extend(said.into_iter().map(|l| Line::from(Span::styled(l, Style::new().fg(theme.text)))));
    let accent = Style::new().fg(theme.title);
    lines.extend(vote_rows.into_iter().map(|l| Line::from(Span::styled(l, accent))));
    let bold = Style::new().fg(theme.text).add_modifier(Modifier::BOLD);
    lines.extend(next_rows.into_iter().map(|l| Line::from(Span::styled(l, bold))));
    lines
}
