//! A role's pane (border, title with model and state, the visible lines, a
//! scroll note) and the tab bar used on narrow terminals.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::border::Border;
use super::retained;
use crate::debate::Role;
use crate::debate::state::TurnStatus;
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::search::{Hit, Search, occurrences};
use crate::tui::wrap::truncate;

/// Draws pane `index`; returns the key of what its text area shows (see
/// `retained`), `None` when it shows the waiting note.
pub fn draw(frame: &mut Frame<'_>, app: &App, retained: &retained::Retained, index: usize, area: Rect) -> Option<u64> {
    let theme = &app.theme;
    let pane = &app.panes[index];
    let role = pane.role;
    let focused = index == app.panes.focus;
    let border_color = if focused { theme.border_focus } else { theme.border };
    let accent = Style::new().fg(theme.role(role)).add_modifier(Modifier::BOLD);
    let room = usize::from(area.width.saturating_sub(4));
    let state = state_label(app, role);
    let model = model_label(app, role);
    // With a source: how this side's citations held up, then the turn's numbers.
    let tally = (role.is_debater() && app.debate.grounds().is_some()).then(|| app.debate.tally(role).describe());
    // Where the seat stands (flagged ⚑ when it changed without a reason).
    let stance = app
        .debate
        .stance(role)
        .map(|(line, unexplained)| format!("{}{}", line.stance.name(), if unexplained { " ⚑" } else { "" }));
    let turn_numbers = app.turn_stats(role);
    let label = app.debate.label(role);
    let mut title = vec![Span::styled(format!(" {label} "), accent)];
    // The model gives way first, then the title's extras from the last
    // (the turn's numbers, the citations, the stance), which may run to the corner.
    let edge = usize::from(area.width.saturating_sub(2));
    let fixed = label.chars().count() + 2 + state.chars().count() + 3;
    let mut numbers = String::new();
    for part in stance.into_iter().chain(tally).chain(turn_numbers) {
        let next = format!("· {part} ");
        if fixed + numbers.chars().count() + next.chars().count() > edge {
            break;
        }
        numbers.push_str(&next);
    }
    let used = label.chars().count() + 2 + state.chars().count() + 3 + numbers.chars().count();
    if !model.is_empty() && used + 3 < room {
        title.push(Span::styled(truncate(&model, room - used - 3), theme.secondary()));
        title.push(Span::raw(" "));
    }
    title.push(Span::styled(format!("· {state} "), Style::new().fg(state_color(app, role))));
    if !numbers.is_empty() {
        title.push(Span::styled(numbers, theme.secondary()));
    }
    let height = usize::from(area.height.saturating_sub(2));
    let mut note = None;
    if !pane.scroll.follow && pane.total() > height {
        let below = pane.total() - height - pane.top(height).min(pane.total() - height);
        if below > 0 {
            let hint = format!(" ▼ {below} more · {} follows ", app.keymap.hint(Action::Follow));
            note = Some(Line::from(Span::styled(hint, Style::new().fg(theme.warn))).right_aligned());
        }
    }
    let set = if focused { border::THICK } else { border::ROUNDED };
    Border { set, style: Style::new().fg(border_color), title: Line::from(title), note }.draw(area, frame.buffer_mut());
    let inner = Border::inner(area);
    let lines = pane.visible(height);
    if lines.is_empty() {
        let waiting = Line::from(Span::styled(waiting_text(app, role), theme.secondary()));
        frame.render_widget(Paragraph::new(waiting).wrap(Wrap { trim: true }), inner);
        return None;
    }
    let base = theme.base();
    let mut key = retained.key(frame.area(), inner, base, &lines);
    if let Some(search) = &app.panes.search {
        // The highlights are part of what the text area shows.
        key = retained.mix(key, (&search.query, search.current));
    }
    let unchanged = retained.unchanged(index, frame.count(), key);
    let top = pane.top(height);
    let buffer = frame.buffer_mut();
    if unchanged {
        retained::keep(buffer, inner);
    } else {
        // Straight from the layout cache into the buffer: no per-frame copies.
        for (row, line) in (inner.y..inner.bottom()).zip(&lines) {
            super::line::put_line(buffer, inner.x, row, line, inner.width, base);
        }
        if let Some(search) = &app.panes.search {
            mark_matches(buffer, app, search, index, inner, top, &lines);
        }
    }
    Some(key)
}

/// Highlights the search's matches in the lines shown (from layout line
/// `top` on), the current one more strongly.
fn mark_matches(
    buffer: &mut ratatui::buffer::Buffer,
    app: &App,
    search: &Search,
    index: usize,
    inner: Rect,
    top: usize,
    lines: &[&Line<'_>],
) {
    use unicode_width::UnicodeWidthChar;
    let theme = &app.theme;
    let other = Style::new().add_modifier(Modifier::REVERSED);
    let current = Style::new().fg(theme.bar_bg).bg(theme.key).add_modifier(Modifier::BOLD);
    let current = if theme.color { current } else { current.add_modifier(Modifier::REVERSED | Modifier::UNDERLINED) };
    for (row, line) in lines.iter().enumerate() {
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        let widths: Vec<u16> = text.chars().map(|c| c.width().unwrap_or(0) as u16).collect();
        for (start, end) in occurrences(&text, &search.query) {
            let here = Hit { pane: index, line: top + row, start };
            let style = if search.current == Some(here) { current } else { other };
            let from: u16 = widths[..start].iter().sum();
            let width: u16 = widths[start..end].iter().sum();
            let y = inner.y + row as u16;
            for x in inner.x + from..(inner.x + from + width).min(inner.right()) {
                buffer[(x, y)].set_style(style);
            }
        }
    }
}

fn waiting_text(app: &App, role: Role) -> String {
    if app.session.is_none() {
        return String::new();
    }
    let waiting = role.seat().waiting;
    // A format's judge goes by its own name ("The chair speaks when…").
    match &app.debate.format {
        Some(format) if role.is_judge() => waiting.replacen("judge", &format.label(role).to_lowercase(), 1),
        _ => waiting.to_string(),
    }
}

fn model_label(app: &App, role: Role) -> String {
    if let Some(p) = app.debate.participant(role) {
        return clean(&format!("{}/{}", p.provider, short_model(p.shown_model())));
    }
    app.roster
        .iter()
        .find(|r| r.role == role)
        .map(|r| clean(&format!("{}/{}", r.provider, short_model(&r.model))))
        .unwrap_or_default()
}

/// A model path's file name without `.gguf`.
fn short_model(model: &str) -> &str {
    let name = model.rsplit(['/', '\\']).next().unwrap_or(model);
    name.strip_suffix(".gguf").unwrap_or(name)
}

/// thinking (waiting for the server, for a seat a server answers; queued,
/// while its request waits in heat for one of the server's slots) /
/// streaming / done / retrying in 3 s / error / paused /
/// finishing (paused, but a server's answer runs on) / stopped (left open
/// when the debate ended) / not run.
pub fn state_label(app: &App, role: Role) -> String {
    let over = app.debate.finish.is_some();
    let Some(turn) = app.debate.current_round().and_then(|r| r.turn(role)) else {
        return if over { "not run".into() } else { "waiting".into() };
    };
    let paused = app.paused() && turn.is_open();
    match &turn.status {
        _ if over && turn.is_open() => "stopped".into(),
        _ if paused && app.finishing(role) => "finishing".into(),
        _ if paused => "paused".into(),
        TurnStatus::Streaming if turn.text.is_empty() => {
            let what = crate::tui::wait::Wait::of(&app.debate, turn, app.person_here()).label();
            match app.thinking_for(role) {
                Some(secs) if secs > 0 => format!("{what} {secs} s"),
                _ => what.into(),
            }
        }
        TurnStatus::Streaming => match app.time_left(role) {
            Some(left) => format!("streaming · ⏱ {left} s"),
            None => "streaming".into(),
        },
        TurnStatus::Retrying { attempt, max_retries, .. } => match app.retry_in(role) {
            Some(s) if s > 0 => format!("retrying in {s} s ({attempt}/{max_retries})"),
            _ => format!("retrying ({attempt}/{max_retries})"),
        },
        TurnStatus::Done if turn.truncated_at.is_some() => "done · ✂ cut".into(),
        TurnStatus::Done if turn.out_of_time.is_some() => "done · ✂ time".into(),
        TurnStatus::Done if turn.possibly_cut => "done · possibly cut".into(),
        TurnStatus::Done => "done".into(),
        TurnStatus::Cancelled => "cancelled".into(),
        TurnStatus::Failed { .. } => "error".into(),
    }
}

/// The state as a tab says it, where four or six seats share one row: a
/// seat waiting on its server is "asked 7 s" (its pane title says the
/// whole "waiting for the server 7 s").
fn short_state(app: &App, role: Role) -> String {
    let label = state_label(app, role);
    match label.strip_prefix("waiting for the server") {
        Some(clock) => format!("asked{clock}"),
        None => label,
    }
}

fn state_color(app: &App, role: Role) -> ratatui::style::Color {
    let theme = &app.theme;
    match app.debate.current_round().and_then(|r| r.turn(role)).map(|t| &t.status) {
        Some(TurnStatus::Retrying { .. }) => theme.warn,
        Some(TurnStatus::Failed { .. }) => theme.error,
        Some(TurnStatus::Done) => theme.good,
        Some(TurnStatus::Streaming) if !app.paused() => theme.role(role),
        _ => theme.muted,
    }
}

/// " Advocate · streaming  Skeptic · done  Judge · waiting " (the seats
/// that sit) with the shown pane highlighted; the states give way when
/// every tab would not fit with them.
pub fn tabs(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let mut spans = fitted_tabs(app, area);
    let hint = format!("{} switches", app.keymap.hint(Action::FocusNext));
    let used: usize = spans.iter().map(Span::width).sum();
    if used + hint.len() < usize::from(area.width) {
        spans.push(Span::raw(" ".repeat(usize::from(area.width) - used - hint.len())));
        spans.push(Span::styled(hint, app.theme.secondary()));
    }
    super::line::one_line(frame, area, &Line::from(spans));
}

/// The tabs as they fit in `area`: with the seats' states, or without.
fn fitted_tabs(app: &App, area: Rect) -> Vec<Span<'static>> {
    let seats = app.seats();
    let spans = tab_spans(app, &seats, true);
    if spans.iter().map(Span::width).sum::<usize>() > usize::from(area.width) {
        return tab_spans(app, &seats, false);
    }
    spans
}

/// Where each seat's tab is drawn in the tab bar `area` (by its row in
/// per-seat tables; an empty area for a seat with no tab), for the mouse:
/// a click on a tab shows that pane.
pub fn tab_areas(app: &App, area: Rect) -> [Rect; Role::COUNT] {
    let mut areas = [Rect::default(); Role::COUNT];
    let mut x = area.x;
    // Each seat's tab is its label's span and a space after it.
    for (role, pair) in app.seats().into_iter().zip(fitted_tabs(app, area).chunks(2)) {
        let width = u16::try_from(pair[0].width()).unwrap_or(u16::MAX);
        let right = area.x.saturating_add(area.width);
        areas[role.position()] = Rect { x, y: area.y, width: width.min(right.saturating_sub(x)), height: 1 };
        x = x.saturating_add(width + 1);
    }
    areas
}

/// One tab per seat: its label, with its state when `with_state`.
fn tab_spans(app: &App, seats: &[Role], with_state: bool) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let mut spans = Vec::new();
    for &role in seats {
        let shown = role.position() == app.panes.focus;
        let label = if with_state {
            format!(" {} · {} ", app.debate.label(role), short_state(app, role))
        } else {
            format!(" {} ", app.debate.label(role))
        };
        let style = if shown {
            Style::new().fg(theme.bar_bg).bg(theme.role(role)).add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(theme.role(role))
        };
        let style = if shown && !theme.color { style.add_modifier(Modifier::REVERSED) } else { style };
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    spans
}
