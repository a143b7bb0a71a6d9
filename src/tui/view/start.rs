//! The start screen: a topic editor, who speaks for each role, the most
//! recent sessions (a list to open one from), and a footer with the keys.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use super::dialog::centered;
use crate::tui::app::App;
use crate::tui::install::InstallState;
use crate::tui::keymap::Action;
use crate::tui::wrap::{cut_words, truncate};

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let Some(editor) = &app.start.editor else { return };
    let [screen, footer] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
    let rect = centered(screen, 90, 26);
    // The install offer needs room for a wrapped sentence under the roster,
    // the settings a line of their own.
    let roster_rows = 5 + if app.start.install.is_some() { 2 } else { 0 } + u16::from(app.start.settings.is_some());
    let [title, topic, roster, recent, flash] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(5),
        Constraint::Length(roster_rows),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(rect);
    let on_list = app.start.recent_chosen.is_some();
    let chosen =
        app.start.settings.as_ref().map(|f| f[crate::tui::settings::FORMAT_FIELD].as_str()).unwrap_or_default();
    let tagline = app.start.formats.tagline(chosen).unwrap_or(crate::debate::format::DUEL_TAGLINE);
    let brand = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled("heat", brand)),
            Line::from(Span::styled(cut_words(tagline, usize::from(rect.width)), theme.secondary())),
        ]),
        title,
    );
    let (kind, color) =
        if on_list { (BorderType::Rounded, theme.border) } else { (BorderType::Thick, theme.border_focus) };
    let block = Block::bordered()
        .border_type(kind)
        .border_style(Style::new().fg(color))
        .title(Span::styled(" Proposition ", brand))
        .title_bottom(Line::from(Span::styled(" Enter starts · Alt-Enter new line ", theme.secondary())));
    let inner = block.inner(topic);
    frame.render_widget(block, topic);
    frame.render_widget(editor, inner);

    let width = usize::from(rect.width);
    let mut lines = vec![Line::from(Span::styled("Who debates", Style::new().add_modifier(Modifier::BOLD)))];
    // The seats as the next debate's format calls them.
    let labels =
        app.start.settings.as_ref().and_then(|f| app.start.formats.labels(&f[crate::tui::settings::FORMAT_FIELD]));
    let width_of = labels.map_or(8, |l| l.iter().map(|s| s.chars().count()).max().unwrap_or(8).max(8));
    let format =
        app.start.settings.as_ref().map(|f| f[crate::tui::settings::FORMAT_FIELD].as_str()).unwrap_or_default();
    let judges = app.start.formats.judges(format);
    // A format with no judge (a vote) seats none: its row is left out.
    for entry in app.roster.iter().filter(|e| judges > 0 || !e.role.is_judge()) {
        let mut model = format!("{} · {}", entry.provider, entry.model);
        // A panel's judges share the judge's model: said on its row.
        if entry.role.is_judge() && judges > 1 {
            model.push_str(&format!(" · a panel of {}", crate::words::count(judges as usize, "judge")));
        }
        let label = labels.and_then(|l| l.get(entry.role.position())).map_or(entry.role.label(), String::as_str);
        lines.push(Line::from(vec![
            Span::styled(format!("  {label:<width_of$} "), Style::new().fg(theme.role(entry.role))),
            Span::raw(truncate(&crate::sanitize::clean(&model), width.saturating_sub(width_of + 3))),
        ]));
    }
    if let Some(fields) = &app.start.settings {
        // A format other than the duel is named first: "oxford · 3 rounds from heat 0.90".
        let (rounds, format) = crate::tui::settings::next_debate(fields);
        let format = format.map(|f| format!("{f} · ")).unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {format}{rounds} from heat {}", fields[1]),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::styled(" · F2 changes the settings", theme.secondary()),
        ]));
        // The document the next debate is about, when one is set.
        let source = fields[crate::tui::settings::SOURCE_FIELD].trim();
        let library = std::path::Path::new(source).is_dir();
        if !source.is_empty() {
            let (about, hint) = if library {
                (format!("  reading the library {}", crate::sanitize::clean(source)), " · passages each round")
            } else {
                (format!("  about the document {}", crate::sanitize::clean(source)), " · Enter alone debates its topic")
            };
            lines.push(Line::from(vec![
                Span::styled(truncate(&about, width.saturating_sub(34)), Style::new().fg(theme.title)),
                Span::styled(hint, theme.secondary()),
            ]));
        }
    }
    if let Some(install) = &app.start.install {
        let color = match install {
            InstallState::Running(_) => theme.title,
            InstallState::Offered | InstallState::Failed(_) => theme.warn,
        };
        lines.push(Line::from(Span::styled(install.describe(), Style::new().fg(color))));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), roster);

    recent_list(frame, app, recent);
    // One row: a sentence too long for it ends after a whole word.
    let room = usize::from(flash.width);
    if let Some(f) = &app.status.flash {
        frame.render_widget(Paragraph::new(Span::styled(cut_words(&f.text, room), Style::new().fg(theme.warn))), flash);
    } else if let Some(notice) = &app.status.notice {
        frame.render_widget(Paragraph::new(Span::styled(cut_words(notice, room), theme.secondary())), flash);
    }
    keys(frame, app, footer);
}

/// The recent debates, the chosen one marked while the list has the keys.
fn recent_list(frame: &mut Frame<'_>, app: &App, area: Rect) {
    if app.start.recent.is_empty() {
        return;
    }
    let theme = &app.theme;
    let width = usize::from(area.width);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut heading = vec![Span::styled("Recent debates", bold)];
    if app.start.recent_chosen.is_some() {
        heading.push(Span::styled(" · Enter opens one; an unfinished one continues", theme.secondary()));
    }
    let mut lines = vec![Line::from(heading)];
    let rows = usize::from(area.height.saturating_sub(1));
    let first = app.start.recent_chosen.map_or(0, |c| c.saturating_sub(rows.saturating_sub(1)));
    for (i, (id, line)) in app.start.recent.iter().enumerate().skip(first).take(rows) {
        let text = format!("  {id}  {}", truncate(line, width.saturating_sub(id.len() + 4)));
        let span = if app.start.recent_chosen == Some(i) {
            let chosen = Style::new().fg(theme.bar_bg).bg(theme.key).add_modifier(Modifier::BOLD);
            let chosen = if theme.color { chosen } else { chosen.add_modifier(Modifier::REVERSED) };
            Span::styled(format!("{text:<width$}"), chosen)
        } else {
            Span::styled(text, theme.secondary())
        };
        lines.push(Line::from(span));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The footer: what the keys do here, on the list or on the proposition.
fn keys(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let bar = Style::new().fg(theme.bar_fg).bg(theme.bar_bg);
    let key = Style::new().fg(theme.key).bg(theme.bar_bg).add_modifier(Modifier::BOLD);
    // `?` is typed into a proposition; F1 opens help anywhere on this screen.
    let all = app.keymap.all_keys(Action::Help);
    let help = if all.split(", ").any(|k| k == "F1") { "F1".to_string() } else { app.keymap.hint(Action::Help) };
    // Most important first: what the keys are on, then help and quitting, then the rest.
    let mut hints = match app.start.recent_chosen {
        Some(_) => vec![("↑/↓", "choose"), ("Enter", "open")],
        None => vec![("Enter", "start")],
    };
    hints.extend([(help.as_str(), "help"), ("Esc", "quit")]);
    if app.start.settings.is_some() {
        hints.push(("F2", "settings"));
    }
    match app.start.recent_chosen {
        Some(_) => hints.push(("Tab", "proposition")),
        None if !app.start.recent.is_empty() => hints.push(("Tab", "recent debates")),
        None => {}
    }
    let width = usize::from(area.width);
    let (fitted, used) = super::line::key_hints(hints, width.saturating_sub(1), key, bar);
    let mut spans = vec![Span::styled(" ", bar)];
    spans.extend(fitted);
    spans.push(Span::styled(" ".repeat(width.saturating_sub(1 + used)), bar));
    let line = Line::from(spans);
    let line = if theme.color { line } else { line.style(Style::new().add_modifier(Modifier::REVERSED)) };
    super::line::one_line(frame, area, &line);
}
