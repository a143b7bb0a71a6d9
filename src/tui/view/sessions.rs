//! The session browser (`s`) as drawn: the search line, the stored debates,
//! and a preview of the chosen one (its name and tags, topic, outcome and
//! rounds, age, format, each seat's model, and the debate it branches or
//! reruns) beside the list on a wide screen, under it on a narrow one, and
//! left out when there is no room for it. Words are never cut: a line that
//! does not fit wraps, or ends in `…` between words.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::store::index::{IndexEntry, age};
use crate::tui::app::App;
use crate::tui::browser::Browser;
use crate::tui::label_edit::{LabelEdit, Labelling};
use crate::tui::wrap::{cut_words, wrap_rows};

/// The preview stands beside the list when the box's inside is this wide.
const BESIDE: u16 = 100;
/// Under the list, it needs this many rows below the search line (a list of
/// a few rows, a rule, and the preview's first rows).
const BELOW: u16 = 12;
/// The rows the list keeps under a preview (fewer when fewer match).
const LIST_ROWS: usize = 4;
/// The preview's labels and the room they take.
const LABEL: usize = 9;
/// The most rows a topic takes in the preview.
const TOPIC_ROWS: usize = 3;

/// Where the preview goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Preview {
    Beside,
    Below,
    None,
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, browser: &Browser) {
    let width = if area.width >= 110 { area.width.saturating_sub(4).min(150) } else { 100 };
    let height = if area.height >= 30 { area.height.saturating_sub(4).min(34) } else { 22 };
    let inner = frame_box(frame, app, centered(area, width, height), " Sessions ");
    let [body, hint] = split_last(inner);
    let [search, rest] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(body);
    frame.render_widget(Paragraph::new(search_line(app, browser)), search);

    let selection = browser.selection();
    let place = match selection {
        _ if rest.width >= BESIDE => Preview::Beside,
        _ if rest.height >= BELOW => Preview::Below,
        _ => Preview::None,
    };
    let (list, preview) = match (place, selection) {
        (Preview::Beside, Some(entry)) => {
            let [list, _, preview] =
                Layout::horizontal([Constraint::Percentage(58), Constraint::Length(2), Constraint::Fill(1)])
                    .areas(rest);
            (list, Some((preview, entry)))
        }
        (Preview::Below, Some(entry)) => {
            // The preview takes what it needs, as long as the list keeps a few rows.
            let lines = preview_lines(app, entry, usize::from(rest.width)).len();
            let list = u16::try_from(browser.matches().len().clamp(1, LIST_ROWS)).unwrap_or(1);
            let rows = u16::try_from(lines).unwrap_or(u16::MAX).min(rest.height.saturating_sub(list + 1));
            let [list, rule, preview] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(1), Constraint::Length(rows)]).areas(rest);
            let line = "─".repeat(usize::from(rule.width));
            frame.render_widget(Paragraph::new(Span::styled(line, app.theme.secondary())), rule);
            (list, Some((preview, entry)))
        }
        _ => (rest, None),
    };
    frame.render_widget(Paragraph::new(list_lines(app, browser, list, place == Preview::Beside)), list);
    if let Some((area, entry)) = preview {
        // Whole lines only: a preview taller than its room loses its last ones.
        frame.render_widget(Paragraph::new(preview_lines(app, entry, usize::from(area.width))), area);
    }
    let line = match (&browser.deleting, browser.note) {
        _ if browser.labelling.is_some() => label_line(app, browser.labelling.as_ref()),
        (Some(id), _) => hint_line(app, &format!("Delete {id}? y / Enter: yes · any other key: no"), hint.width),
        (None, Some(note)) => Line::from(Span::styled(note, Style::new().fg(app.theme.warn))),
        (None, None) => hint_line(
            app,
            "↑/↓ · Enter open · ctrl-r name · ctrl-t tag · ctrl-e export · ctrl-d delete · Esc close · type to search",
            hint.width,
        ),
    };
    frame.render_widget(Paragraph::new(line), hint);
}

fn search_line(app: &App, browser: &Browser) -> Line<'static> {
    let theme = &app.theme;
    Line::from(vec![
        Span::styled("search: ", theme.secondary()),
        Span::styled(crate::sanitize::clean(&browser.query), Style::new().add_modifier(Modifier::BOLD)),
        Span::styled("▏", Style::new().fg(theme.key)),
    ])
}

/// The stored debates that match, the chosen one in view and marked; with
/// the preview beside, the outcome is left to it.
fn list_lines(app: &App, browser: &Browser, area: Rect, beside: bool) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let matches = browser.matches();
    if matches.is_empty() {
        return vec![Line::from(Span::styled("No stored debate matches.", theme.secondary()))];
    }
    let rows = usize::from(area.height);
    let first = browser.selected.saturating_sub(rows.saturating_sub(1));
    let mut lines = Vec::new();
    for (i, entry) in matches.iter().enumerate().skip(first).take(rows) {
        let (indent, topic) = (browser.indent(&entry.id), entry.listed_topic());
        let text = if beside {
            format!("{}  {indent}{topic}", entry.id)
        } else {
            let outcome = entry.outcome.as_deref().unwrap_or("unfinished");
            format!("{}  {:<24} {indent}{topic}", entry.id, crate::tui::wrap::truncate(outcome, 24))
        };
        let mut style = Style::new();
        if i == browser.selected {
            style = Style::new().fg(theme.bar_bg).bg(theme.key).add_modifier(Modifier::BOLD);
            if !theme.color {
                style = style.add_modifier(Modifier::REVERSED);
            }
        }
        lines.push(Line::from(Span::styled(cut_words(&text, usize::from(area.width)), style)));
    }
    lines
}

/// The chosen debate, a field a row (wrapped under its label).
fn preview_lines(app: &App, entry: &IndexEntry, width: usize) -> Vec<Line<'static>> {
    let clean = crate::sanitize::clean;
    let now = crate::store::now_ms();
    let mut fields: Vec<(&str, String)> = Vec::new();
    if let Some(name) = &entry.name {
        fields.push(("name", clean(name)));
    }
    if !entry.tags.is_empty() {
        fields.push(("tags", crate::store::label::hashed(&entry.tags)));
    }
    fields.push(("topic", clean(&entry.topic)));
    let rounds = crate::words::count(entry.rounds as usize, "round");
    let outcome = match &entry.outcome {
        Some(outcome) => format!("{}, {rounds}", clean(outcome)),
        None if entry.continuable() => format!("unfinished, {rounds}; Enter goes on with it"),
        None => format!("unfinished, {rounds}"),
    };
    fields.push(("outcome", outcome));
    let changed = age(now.saturating_sub(entry.updated_ms));
    fields.push(("age", format!("changed {changed}, begun {}", age(now.saturating_sub(entry.created_ms)))));
    fields.push(("format", entry.format.as_deref().map_or_else(|| "duel".into(), clean)));
    for (i, model) in entry.models.iter().enumerate() {
        fields.push((if i == 0 { "seats" } else { "" }, clean(model)));
    }
    match (&entry.branch_of, &entry.rematch_of) {
        (Some(from), _) => {
            fields.push((
                "from",
                format!("⑂ a branch after round {} of {}", entry.branch_round.unwrap_or(0), clean(from)),
            ));
        }
        (None, Some(from)) => fields.push(("from", format!("↳ a rematch of {}", clean(from)))),
        (None, None) => {}
    }
    let room = width.saturating_sub(LABEL);
    let mut lines = Vec::new();
    for (label, value) in fields {
        let most = if label == "topic" { TOPIC_ROWS } else { usize::MAX };
        let rows = wrap_rows(&value, room, most, room);
        for (i, row) in rows.into_iter().enumerate() {
            let head = if i == 0 { label } else { "" };
            lines
                .push(Line::from(vec![Span::styled(format!("{head:<LABEL$}"), app.theme.secondary()), Span::raw(row)]));
        }
    }
    lines
}

/// The name or tags being typed, then what Enter does or why it did not.
fn label_line(app: &App, edit: Option<&LabelEdit>) -> Line<'static> {
    let Some(edit) = edit else { return Line::default() };
    let theme = &app.theme;
    let (label, hint) = match edit.what {
        Labelling::Name => ("name: ", "  Enter keeps (empty: no name) · Esc back"),
        Labelling::Tags => ("tags: ", "  words · Enter keeps · Esc back"),
    };
    let mut spans = vec![
        Span::styled(label, theme.secondary()),
        Span::styled(crate::sanitize::clean(&edit.text), Style::new().add_modifier(Modifier::BOLD)),
        Span::styled("▏", Style::new().fg(theme.key)),
    ];
    match &edit.error {
        Some(error) => spans.push(Span::styled(format!("  {error}"), Style::new().fg(theme.warn))),
        None => spans.push(Span::styled(hint, theme.secondary())),
    }
    Line::from(spans)
}
