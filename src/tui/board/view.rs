//! The board drawn: the tournament's progress and spend at the top, the
//! debates running (one chosen), the standings so far with their
//! intervals, the latest results, and the keys. Text and modifiers only,
//! so it reads the same under any theme and with colour off.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, LineGauge, Paragraph, Row, Table};

use super::state::{Board, Phase};
use crate::tournament::stats::Summary;

/// The board needs at least this much room.
const SMALLEST: (u16, u16) = (60, 14);

/// Draws `board` on the whole frame.
pub fn draw(frame: &mut Frame<'_>, board: &mut Board, now: Instant) {
    let area = frame.area();
    if area.width < SMALLEST.0 || area.height < SMALLEST.1 {
        let text = format!("the terminal is too small for the board: make it {}×{} or larger", SMALLEST.0, SMALLEST.1);
        frame.render_widget(Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }), area);
        return;
    }
    let standings = board.standings(now).cloned();
    let models = standings.as_ref().map_or(1, |s| s.models.len().max(1));
    // The running list and the standings share what the header, the latest and the keys leave.
    let room = usize::from(area.height).saturating_sub(4 + 1 + 3 + 1 + 4);
    let shown_running = board.running.len().clamp(1, (room / 2).max(1));
    let shown_models = models.min(room.saturating_sub(shown_running).max(1));
    let [top, running, table, latest, keys] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(u16::try_from(shown_running + 2).unwrap_or(u16::MAX)),
        Constraint::Length(u16::try_from(shown_models + 3).unwrap_or(u16::MAX)),
        Constraint::Min(2),
        Constraint::Length(1),
    ])
    .areas(area);
    header(frame, board, top, now);
    running_list(frame, board, running, now);
    standings_table(frame, standings.as_ref(), table);
    latest_lines(frame, board, latest);
    key_line(frame, board, keys);
}

fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

fn dim() -> Style {
    Style::new().add_modifier(Modifier::DIM)
}

fn header(frame: &mut Frame<'_>, board: &Board, area: Rect, now: Instant) {
    let [title, gauge, facts, _] = Layout::vertical([Constraint::Length(1); 4]).areas(area);
    let badge = match &board.phase {
        Phase::Running => "● RUNNING".to_string(),
        Phase::Held => "‖ HELD".to_string(),
        Phase::AtBudget(_) => "$ AT ITS BUDGET".to_string(),
        Phase::Stopping => "■ STOPPING".to_string(),
        Phase::Over if board.done >= board.total => "✓ ENDED".to_string(),
        Phase::Over => "■ STOPPED".to_string(),
    };
    let name = format!(" heat · tournament {}", board.tournament);
    let gap = usize::from(area.width).saturating_sub(name.chars().count() + badge.chars().count() + 1);
    frame.render_widget(
        Line::from(vec![Span::styled(name, bold()), Span::raw(" ".repeat(gap)), Span::styled(badge, bold())]),
        title,
    );
    let ratio = if board.total == 0 { 0.0 } else { board.done as f64 / board.total as f64 };
    frame.render_widget(
        LineGauge::default()
            .ratio(ratio.clamp(0.0, 1.0))
            .label(format!(" {:>3.0} %", ratio * 100.0))
            .filled_style(bold())
            .unfilled_style(dim()),
        gauge,
    );
    let mut said = vec![format!(" {} of {} done", board.done, board.total)];
    if board.failed > 0 {
        said.push(format!("{} failed", board.failed));
    }
    said.push(format!("{} running", board.running.len()));
    said.push(spend(board));
    if let Some(left) = board.left(now) {
        said.push(format!("about {} left", span(left)));
    }
    frame.render_widget(Line::from(said.join(" · ")), facts);
}

/// What was spent, against the budget where there is one.
fn spend(board: &Board) -> String {
    let b = &board.budget;
    let tokens = match b.tokens {
        Some(limit) => {
            format!("{} of {} tokens", crate::words::thousands(b.spent_tokens), crate::words::thousands(limit))
        }
        None => format!("{} tokens", crate::words::thousands(b.spent_tokens)),
    };
    match b.usd {
        Some(limit) => format!("{tokens} · ${:.2} of ${limit:.2}", b.spent_usd),
        None if b.spent_usd > 0.0 => format!("{tokens} · ${:.2}", b.spent_usd),
        None => tokens,
    }
}

/// A duration as a person reads it: `45 s`, `3 min`, `2 h 05 min`.
fn span(d: Duration) -> String {
    let secs = d.as_secs();
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min", secs.div_ceil(60)),
        _ => format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60),
    }
}

fn running_list(frame: &mut Frame<'_>, board: &Board, area: Rect, now: Instant) {
    let [heading, list] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(Span::styled(format!(" Running ({})", board.running.len()), bold()), heading);
    if board.running.is_empty() {
        let none = match board.phase {
            Phase::Held => "  none begins while the tournament is held",
            Phase::Over => "  nothing runs now",
            _ => "  none yet",
        };
        frame.render_widget(Span::styled(none, dim()), list);
        return;
    }
    // The chosen one kept in view.
    let rows = usize::from(list.height).max(1);
    let first = board.chosen.saturating_sub(rows - 1);
    let width = usize::from(list.width);
    let lines: Vec<Line<'_>> = board
        .running
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, r)| {
            let clean = crate::sanitize::one_line;
            let clock = span(now.duration_since(r.since));
            let again = if r.attempt > 1 { " (again)" } else { "" };
            let seats =
                format!(" {} for · {} against{again} · ", clean(&r.planned.advocate), clean(&r.planned.skeptic));
            let room = width.saturating_sub(seats.chars().count() + clock.chars().count() + 4);
            let text = format!(
                "{}{seats}{}  {clock}",
                if i == board.chosen { "›" } else { " " },
                cut(&clean(&r.planned.proposition), room)
            );
            let style = if i == board.chosen { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
            Line::styled(text, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
}

/// `text` cut to `room` characters, with `…` where it was cut.
fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let kept: String = text.chars().take(room.saturating_sub(1)).collect();
    format!("{kept}…")
}

fn standings_table(frame: &mut Frame<'_>, standings: Option<&Summary>, area: Rect) {
    let [heading, table] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let Some(summary) = standings else {
        frame.render_widget(Span::styled(" Standings", bold()), heading);
        frame.render_widget(Span::styled("  none until a debate has finished", dim()), table);
        return;
    };
    frame.render_widget(
        Span::styled(format!(" Standings · {} decided · ratings with 95 % intervals", summary.judged), bold()),
        heading,
    );
    let right = |text: String| Cell::from(Line::from(text).right_aligned());
    let name_width = summary.models.iter().map(|m| m.model.chars().count()).max().unwrap_or(5).clamp(5, 40);
    let rows = summary.models.iter().enumerate().map(|(i, record)| {
        let rated = summary.ratings.models.iter().find(|r| r.model == record.model);
        let (rating, interval) = rated.map_or(("–".to_string(), "–".to_string()), |r| {
            (format!("{:.0}", r.rating), format!("{:.0}–{:.0}", r.low, r.high))
        });
        let all = &record.overall;
        let rate = all.win_rate.as_ref().map_or("–".to_string(), |r| format!("{:.0} %", r.share * 100.0));
        Row::new(vec![
            right(format!("{}", i + 1)),
            Cell::from(crate::sanitize::one_line(&record.model)),
            right(rating),
            right(interval),
            right(all.wins.to_string()),
            right(all.losses.to_string()),
            right(all.draws.to_string()),
            right(rate),
        ])
    });
    let widths = [
        Constraint::Length(3),
        Constraint::Length(u16::try_from(name_width).unwrap_or(40)),
        Constraint::Length(6),
        Constraint::Length(10),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(8),
    ];
    let header = ["#", "model", "rating", "interval", "won", "lost", "even", "win rate"]
        .map(|h| if h == "model" { Cell::from(h) } else { right(h.to_string()) });
    let header = Row::new(header).style(dim());
    frame.render_widget(Table::new(rows, widths).header(header).column_spacing(1), table);
}

fn latest_lines(frame: &mut Frame<'_>, board: &Board, area: Rect) {
    let [heading, list] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    frame.render_widget(Span::styled(" Latest", bold()), heading);
    let width = usize::from(list.width).saturating_sub(2);
    let lines: Vec<Line<'_>> = if board.latest.is_empty() {
        vec![Line::styled("  nothing has finished yet", dim())]
    } else {
        let line = |(text, session): &(String, Option<String>)| {
            // The session where it fits whole.
            let whole = session.as_ref().map(|s| format!("{text} · {s}")).filter(|l| l.chars().count() <= width);
            Line::from(format!("  {}", whole.unwrap_or_else(|| cut(text, width))))
        };
        board.latest.iter().take(usize::from(list.height)).map(line).collect()
    };
    frame.render_widget(Paragraph::new(lines), list);
}

fn key_line(frame: &mut Frame<'_>, board: &Board, area: Rect) {
    let text = if let Some(notice) = &board.notice {
        format!(" {notice}")
    } else if board.confirming {
        " q again stops it where it is (saved: `heat tournament resume` goes on) · another key: no".to_string()
    } else {
        match board.phase {
            Phase::Over => " q leaves the board".to_string(),
            Phase::Stopping => " stopping: each running debate stops where it is, saved".to_string(),
            Phase::Held => " ↑↓ choose · Enter watch · space goes on · q stop".to_string(),
            _ => " ↑↓ choose · Enter watch (and steer) · space hold · q stop".to_string(),
        }
    };
    let style = if board.confirming || board.notice.is_some() { bold() } else { dim() };
    frame.render_widget(Span::styled(cut(&text, usize::from(area.width)), style), area);
}
