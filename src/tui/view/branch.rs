//! The branch form (`b`) drawn over the panes: the round chosen, the sides,
//! the next round's heat, the note or question, and what Enter does.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::centered;
use super::dialog::{frame_box, hint_line, split_last};
use crate::tui::app::App;
use crate::tui::branch_form::BranchForm;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, form: &BranchForm) {
    let theme = &app.theme;
    let kept = form.kept();
    let notes_row = u16::from(!kept.notes.is_empty());
    let rect = centered(area, 76, if form.stops_running { 12 } else { 11 } + notes_row);
    let inner = frame_box(frame, app, rect, &format!(" Branch {} ", form.from));
    let [body, hint] = split_last(inner);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let (round, judged) = form.chosen();
    let first = form.rounds.first().map_or(round, |r| r.0);
    let last = form.rounds.last().map_or(round, |r| r.0);
    let arrows =
        format!("{}round {round}{}", if round > first { "‹ " } else { "  " }, if round < last { " ›" } else { "  " });
    let after = Line::from(vec![
        Span::styled("After     ", theme.secondary()),
        Span::styled(arrows, bold),
        Span::styled(
            if round == 1 { "  shares round 1".to_string() } else { format!("  shares rounds 1–{round}") },
            theme.secondary(),
        ),
    ]);
    let sides = if form.swap_sides.is_none() {
        Span::styled("free seats: each argues an answer of its own", theme.secondary())
    } else if form.swap_sides == Some(true) {
        Span::styled(
            "swapped: each model argues the other side",
            Style::new().fg(theme.warn).add_modifier(Modifier::BOLD),
        )
    } else {
        Span::raw("as they were")
    };
    let sides = Line::from(vec![Span::styled("Sides     ", theme.secondary()), sides]);
    // The heat the branch will actually use: one set here, else the parent's pin, else the judge's.
    let heat = match (form.heat, kept.pinned) {
        (Some(h), pinned) => {
            let released = if pinned.is_some() { " (the parent's pin released)" } else { "" };
            let said = format!("{h:.2}, set here{released}");
            Span::styled(said, Style::new().fg(theme.heat(h)).add_modifier(Modifier::BOLD))
        }
        (None, Some(pin)) => Span::styled(
            format!("{pin:.2}, pinned in the parent ({} set {judged:.2})", form.heat_by),
            Style::new().fg(theme.heat(pin)),
        ),
        (None, None) => {
            Span::styled(format!("{judged:.2}, as {} set it", form.heat_by), Style::new().fg(theme.heat(judged)))
        }
    };
    let mut heat = vec![Span::styled("Heat      ", theme.secondary()), heat];
    // A seat pinned to a heat of its own in the parent stays at it: said, not kept quietly.
    for (role, pin) in &kept.seat_pins {
        heat.push(Span::styled(format!("; the {} at its own {pin:.2}", role.key()), Style::new().fg(theme.heat(*pin))));
    }
    let heat = Line::from(heat);
    let mut lines = vec![after, sides, heat];
    if !kept.notes.is_empty() {
        let quoted: Vec<String> =
            kept.notes.iter().map(|n| format!("\u{201c}{}\u{201d}", crate::sanitize::one_line(n))).collect();
        let what = if kept.notes.len() == 1 { "the parent's note" } else { "the parent's notes" };
        let said = format!("{what} {}", quoted.join(", "));
        lines.push(Line::from(vec![Span::styled("Carries   ", theme.secondary()), Span::raw(said)]));
    }
    let label = if form.as_question { "The next round's question" } else { "A note the next round carries" };
    let [lines_area, text_label, text, stops] = Layout::vertical([
        Constraint::Length(3 + notes_row),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Min(0),
    ])
    .areas(body);
    frame.render_widget(Paragraph::new(lines), lines_area);
    frame.render_widget(Paragraph::new(Span::styled(label, theme.secondary())), text_label);
    frame.render_widget(&form.text, text);
    if form.stops_running {
        let text = "The running debate stops and is saved; `heat resume` goes on with it";
        frame.render_widget(Paragraph::new(Span::styled(text, Style::new().fg(theme.warn))), stops);
    }
    let keys = if form.swap_sides.is_some() {
        "←/→ round · ^S swap · ↑/↓ heat · ^T note/question · Enter branch · Esc"
    } else {
        "←/→ round · ↑/↓ heat · ^T note/question · Enter branch · Esc"
    };
    frame.render_widget(Paragraph::new(hint_line(app, keys, hint.width)), hint);
}
