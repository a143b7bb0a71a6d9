//! The help overlay: the keys that work where the person is (the start
//! screen, a live or ended debate, a replay), in sections, then notes. A
//! replay leaves out the steering keys and says they need a live debate.
//! When the screen is too short for every line it scrolls, and says "more".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::centered;
use super::dialog::{frame_box, hint_line, split_last};
use crate::tui::app::App;
use crate::tui::help::HelpView;
use crate::tui::keymap::Action;

/// One line of help before it is laid out.
enum Row {
    Heading(&'static str),
    Key(String, String),
    Note(String),
    Blank,
}

/// What a pause does to the turns under way.
const PAUSE_NOTE: [&str; 2] =
    ["A pause stops the offline model where it is; a server's", "turn finishes in the background and shows on resume."];

/// The widest the overlay gets: wider is harder to read.
const MOST_WIDTH: u16 = 80;

/// How many lines help has, and how many a screen of `area` shows at once.
pub fn fit(app: &App, area: Rect) -> (usize, usize) {
    let total = lines(app).len();
    let rows = usize::from(outer(area, total, 0).height.saturating_sub(3));
    (total, rows)
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, view: &HelpView) {
    let lines = lines(app);
    let width = lines.iter().map(Line::width).max().unwrap_or(0);
    let rect = outer(area, lines.len(), width);
    let inner = frame_box(frame, app, rect, " Keys ");
    let [body, hint] = split_last(inner);
    let (rows, total) = (usize::from(body.height), lines.len());
    let top = view.top.min(total.saturating_sub(rows));
    let shown: Vec<Line<'static>> = lines.into_iter().skip(top).take(rows).collect();
    let below = top + shown.len() < total;
    frame.render_widget(Paragraph::new(shown), body);
    let more = match (top > 0, below) {
        (true, true) => "more ↑↓ · ",
        (false, true) => "more ↓ · ",
        (true, false) => "more ↑ · ",
        (false, false) => "",
    };
    let text = if more.is_empty() {
        "any key closes".to_string()
    } else {
        format!("{more}↑/↓ PgUp/PgDn scroll · any other key closes")
    };
    frame.render_widget(Paragraph::new(hint_line(app, &text)), hint);
}

/// The overlay's place: as tall as its lines (plus border and hint) where
/// the screen allows.
fn outer(area: Rect, lines: usize, width: usize) -> Rect {
    let height = u16::try_from(lines + 3).unwrap_or(u16::MAX).min(area.height);
    let width = u16::try_from(width + 4).unwrap_or(u16::MAX).min(MOST_WIDTH);
    centered(area, width, height)
}

/// Help laid out as lines: the key column as wide as its widest keys.
fn lines(app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let rows = rows(app);
    let key_width = rows.iter().map(|r| if let Row::Key(k, _) = r { k.chars().count() } else { 0 }).max();
    let key_width = key_width.unwrap_or(0);
    let key_style = Style::new().fg(theme.key).add_modifier(Modifier::BOLD);
    let heading = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    rows.into_iter()
        .map(|row| match row {
            Row::Heading(text) => Line::from(Span::styled(text, heading)),
            Row::Key(keys, what) => {
                let pad = key_width.saturating_sub(keys.chars().count()) + 2;
                Line::from(vec![Span::styled(keys, key_style), Span::raw(" ".repeat(pad)), Span::raw(what)])
            }
            Row::Note(text) => Line::from(Span::styled(text, theme.secondary())),
            Row::Blank => Line::default(),
        })
        .collect()
}

/// What help says here, section by section.
fn rows(app: &App) -> Vec<Row> {
    let mut rows = Vec::new();
    if app.start.is_open() {
        start_screen(app, &mut rows);
        rows.push(Row::Blank);
        rows.push(Row::Heading("In a debate"));
    }
    let key = |action: Action| app.keymap.all_keys(action);
    let section = |rows: &mut Vec<Row>, title: &'static str, actions: &[Action]| {
        rows.push(Row::Heading(title));
        for &action in actions {
            let keys = key(action);
            if keys.is_empty() {
                continue;
            }
            let what = if app.replay.is_some() && action == Action::TogglePause {
                "pause or resume the replay"
            } else {
                Action::TABLE.iter().find(|row| row.0 == action).map_or("", |row| row.3)
            };
            rows.push(Row::Key(keys, what.to_string()));
        }
    };
    if app.replay.is_some() {
        section(&mut rows, "Replay", &[Action::TogglePause, Action::Faster, Action::Slower, Action::NextRound]);
        let keys: Vec<String> = Action::TABLE
            .iter()
            .map(|row| row.0)
            .filter(|a| a.steers() && *a != Action::TogglePause)
            .map(|a| app.keymap.hint(a))
            .filter(|k| !k.is_empty())
            .collect();
        rows.push(Row::Note(format!("Steering ({}) works in a live debate, not in a replay.", keys.join(", "))));
    } else {
        let steering: Vec<Action> = Action::TABLE.iter().map(|row| row.0).filter(|a| a.steers()).collect();
        section(&mut rows, "Steering the debate", &steering);
        rows.extend(PAUSE_NOTE.iter().map(|line| Row::Note((*line).into())));
    }
    let mut debates =
        vec![Action::NewDebate, Action::HumanVerdict, Action::Results, Action::Export, Action::Sessions, Action::Quit];
    if !app.starts_debates() {
        debates.retain(|a| *a != Action::NewDebate);
    }
    section(&mut rows, "Debates", &debates);
    section(
        &mut rows,
        "Moving around",
        &[
            Action::FocusNext,
            Action::FocusPrev,
            Action::ScrollUp,
            Action::ScrollDown,
            Action::PageUp,
            Action::PageDown,
            Action::Top,
            Action::Follow,
            Action::ToggleReasoning,
            Action::TurnStats,
            Action::CitedLines,
            Action::Help,
        ],
    );
    section(&mut rows, "Searching and copying", &[Action::Search]);
    if !key(Action::Search).is_empty() {
        rows.push(Row::Key("n, N".into(), "next / previous match, while a search is on".into()));
        rows.push(Row::Key("esc".into(), "clear the search".into()));
    }
    let copy = key(Action::Copy);
    if !copy.is_empty() {
        rows.push(Row::Key(copy, "copy the focused turn or verdict (the one in view)".into()));
    }
    rows.push(Row::Heading("In the session browser"));
    rows.push(Row::Key("type".into(), "search by topic, id, name or tag".into()));
    rows.push(Row::Key("↑/↓, enter".into(), "choose a debate and open it".into()));
    rows.push(Row::Key("ctrl-r, ctrl-t".into(), "name it, tag it (the topic stays as it is)".into()));
    rows.push(Row::Key("ctrl-e, ctrl-d".into(), "export it as Markdown, delete it (asks first)".into()));
    // A studio that only replays opens no text box.
    if app.starts_debates() {
        rows.push(Row::Heading("In a text box"));
        rows.push(Row::Key("enter, ctrl-s".into(), "send".into()));
        rows.push(Row::Key("alt-enter".into(), "break the line".into()));
        rows.push(Row::Key("esc".into(), "cancel".into()));
    }
    rows.push(Row::Blank);
    rows.push(Row::Note("The mouse wheel scrolls the pane under it.".into()));
    rows.push(Row::Note("ctrl-c quits; a second ctrl-c quits at once.".into()));
    rows.push(Row::Note("Keys can be changed in heat.toml under [keys].".into()));
    rows
}

/// The start screen's own keys.
fn start_screen(app: &App, rows: &mut Vec<Row>) {
    rows.push(Row::Heading("On the start screen"));
    rows.push(Row::Key("enter".into(), "start the debate on the proposition".into()));
    rows.push(Row::Key("alt-enter".into(), "break the line".into()));
    if !app.start.recent.is_empty() {
        rows.push(Row::Key("tab".into(), "move between the proposition and recent debates".into()));
        rows.push(Row::Key("↑/↓, enter".into(), "open a recent debate (an unfinished one continues)".into()));
    }
    if app.start.settings.is_some() {
        rows.push(Row::Key("f2".into(), "settings for the next debate: rounds, heat, providers".into()));
    }
    if app.start.install.is_some() {
        rows.push(Row::Key("ctrl-o".into(), "install the offline model".into()));
    }
    let help = app.keymap.all_keys(Action::Help);
    // A key that types a character opens help only while no proposition is begun.
    let typed = help.split(", ").find(|k| k.chars().count() == 1).map(str::to_string);
    rows.push(Row::Key(help, "show or hide this help".into()));
    rows.push(Row::Key("esc".into(), "quit".into()));
    if let Some(typed) = typed {
        rows.push(Row::Note(format!("Once a proposition is begun, {typed} is typed into it.")));
    }
}
