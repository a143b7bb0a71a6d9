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
use crate::tui::keymap::{Action, Binding, Group};
use crate::tui::offers::{View, offers_in};
use crate::tui::paged::Paged;
use crate::tui::wrap::whole_words;
use unicode_width::UnicodeWidthStr;

/// One line of help before it is laid out.
enum Row {
    Heading(&'static str),
    Key(String, String),
    Note(String),
    Blank,
}

/// What a pause does to the turns under way.
const PAUSE_NOTE: &str =
    "A pause stops the offline model where it is; a server's turn finishes in the background and shows on resume.";

/// The widest the overlay gets: wider is harder to read.
const MOST_WIDTH: u16 = 80;

/// How many lines help has, and how many a screen of `area` shows at once.
pub fn fit(app: &App, area: Rect) -> (usize, usize) {
    let total = laid_out(app, area).len();
    let rows = usize::from(outer(area, total, 0).height.saturating_sub(3));
    (total, rows)
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, view: &Paged) {
    let lines = laid_out(app, area);
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
        (true, true) => Some("more ↑↓"),
        (false, true) => Some("more ↓"),
        (true, false) => Some("more ↑"),
        (false, false) => None,
    };
    let text = match more {
        None => "any key closes".to_string(),
        Some(more) => format!("{more} · ↑/↓ PgUp/PgDn scroll · any other key closes"),
    };
    frame.render_widget(Paragraph::new(hint_line(app, &text, hint.width)), hint);
}

/// The columns a help line may take on a screen of `area`: the overlay's
/// width less its border and margins.
fn room(area: Rect) -> usize {
    usize::from(area.width.min(MOST_WIDTH).saturating_sub(4)).max(1)
}

/// Help's lines on a screen of `area`: one column, or, where it is too
/// short for them and wide enough for two, two side by side (split where a
/// section begins), so a wide screen shows every key at once.
fn laid_out(app: &App, area: Rect) -> Vec<Line<'static>> {
    let room = room(area);
    let lines = lines(app, room);
    let two_fit = usize::from(area.width) >= 2 * room + GAP + 4;
    if lines.len() + 3 <= usize::from(area.height) || !two_fit {
        return lines.into_iter().map(|(line, _)| line).collect();
    }
    // The section start that best halves the lines.
    let half = lines.len().div_ceil(2);
    let split = (1..lines.len()).filter(|&i| lines[i].1).min_by_key(|&i| i.abs_diff(half)).unwrap_or(half);
    let (left, right) = lines.split_at(split);
    let right: Vec<&Line<'static>> = right.iter().map(|(line, _)| line).collect();
    (0..left.len().max(right.len()))
        .map(|i| {
            let mut spans: Vec<Span<'static>> = Vec::new();
            let used = left.get(i).map_or(0, |(line, _)| {
                spans.extend(line.spans.iter().cloned());
                line.width()
            });
            if let Some(line) = right.get(i) {
                spans.push(Span::raw(" ".repeat((room + GAP).saturating_sub(used))));
                spans.extend(line.spans.iter().cloned());
            }
            Line::from(spans)
        })
        .collect()
}

/// The columns between help's two columns.
const GAP: usize = 3;

/// The overlay's place: as tall as its lines (plus border and hint) where
/// the screen allows, as wide as they are.
fn outer(area: Rect, lines: usize, width: usize) -> Rect {
    let height = u16::try_from(lines + 3).unwrap_or(u16::MAX).min(area.height);
    let width = u16::try_from(width + 4).unwrap_or(u16::MAX).min(area.width);
    centered(area, width, height)
}

/// Help laid out as lines at most `room` columns wide: the key column as
/// wide as its widest keys, and what each does wrapped beside it at whole
/// words (on a screen too narrow for both side by side, under its keys).
/// Each line says whether a section begins there.
fn lines(app: &App, room: usize) -> Vec<(Line<'static>, bool)> {
    let theme = &app.theme;
    let rows = rows(app);
    let key_width = rows.iter().map(|r| if let Row::Key(k, _) = r { k.width() } else { 0 }).max();
    let key_width = key_width.unwrap_or(0);
    // Too narrow for the keys beside what they do: what they do goes under them.
    let beside = room >= key_width + 2 + 16;
    let what_room = if beside { room - key_width - 2 } else { room.saturating_sub(2).max(1) };
    let key_style = Style::new().fg(theme.key).add_modifier(Modifier::BOLD);
    let heading = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut sections = Vec::new();
    for row in rows {
        match row {
            Row::Heading(text) => {
                sections.push(lines.len());
                lines.push(Line::from(Span::styled(text, heading)));
            }
            Row::Key(keys, what) => {
                let wrapped = textwrap::wrap(&what, whole_words(what_room));
                if beside {
                    for (i, part) in wrapped.iter().enumerate() {
                        let lead = if i == 0 {
                            let pad = key_width.saturating_sub(keys.width()) + 2;
                            vec![Span::styled(keys.clone(), key_style), Span::raw(" ".repeat(pad))]
                        } else {
                            vec![Span::raw(" ".repeat(key_width + 2))]
                        };
                        lines.push(Line::from([lead, vec![Span::raw(part.to_string())]].concat()));
                    }
                } else {
                    lines.push(Line::from(Span::styled(keys, key_style)));
                    lines.extend(wrapped.iter().map(|part| Line::from(format!("  {part}"))));
                }
            }
            Row::Note(text) => {
                let style = theme.secondary();
                lines.extend(
                    textwrap::wrap(&text, whole_words(room))
                        .iter()
                        .map(|l| Line::from(Span::styled(l.to_string(), style))),
                );
            }
            Row::Blank => {
                sections.push(lines.len());
                lines.push(Line::default());
            }
        }
    }
    let starts = |i: usize| sections.contains(&i);
    lines.into_iter().enumerate().map(|(i, line)| (line, starts(i))).collect()
}

/// What help says here, section by section: the table's actions offered
/// where the person is (the start screen lists a live debate's), each
/// section as `keymap::Group` has it.
fn rows(app: &App) -> Vec<Row> {
    let mut rows = Vec::new();
    let view = if app.start.is_open() {
        start_screen(app, &mut rows);
        rows.push(Row::Blank);
        rows.push(Row::Heading("In a debate"));
        View::Live
    } else {
        crate::tui::offers::view(app)
    };
    let replaying = matches!(view, View::Replay | View::ReplayEnded);
    for group in Group::ALL {
        let mut actions: Vec<&Binding> =
            Action::TABLE.iter().filter(|row| row.group == group && offers_in(app, row.action, view)).collect();
        // In a replay, space pauses the playback: it heads the replay's keys.
        if replaying && group == Group::Steering {
            actions.retain(|row| row.action != Action::TogglePause);
        }
        if group == Group::Replay && view == View::Replay {
            actions.insert(0, Action::TogglePause.binding());
        }
        if !actions.is_empty() {
            rows.push(Row::Heading(group.title()));
        }
        for row in &actions {
            let what =
                if replaying && row.action == Action::TogglePause { "pause or resume the replay" } else { row.help };
            rows.push(Row::Key(app.keymap.all_keys(row.action), what.to_string()));
        }
        match group {
            Group::Steering if view == View::Live => {
                rows.push(Row::Note(PAUSE_NOTE.into()));
            }
            Group::Steering if view == View::Watch => {
                rows.push(Row::Note("Steering happens on the operator's screen: this is a watch.".into()));
            }
            Group::Steering if view == View::SteeredWatch => {
                rows.push(Row::Note("This is a watch: steering reaches the heat that runs the debate.".into()));
            }
            Group::Replay if replaying => {
                let keys: Vec<String> = Action::TABLE
                    .iter()
                    .map(|row| row.action)
                    .filter(|a| a.steers() && *a != Action::TogglePause)
                    .map(|a| app.keymap.hint(a))
                    .filter(|k| !k.is_empty())
                    .collect();
                rows.push(Row::Note(format!(
                    "Steering ({}) works in a live debate, not in a replay.",
                    keys.join(", ")
                )));
            }
            Group::Finding if actions.iter().any(|row| row.action == Action::Search) => {
                rows.push(Row::Key("n, N".into(), "next / previous match, while a search is on".into()));
                rows.push(Row::Key("esc".into(), "clear the search".into()));
            }
            _ => {}
        }
    }
    if offers_in(app, Action::Sessions, view) {
        rows.push(Row::Heading("In the session browser"));
        rows.push(Row::Key("type".into(), "search by topic, id, name or tag".into()));
        rows.push(Row::Key("↑/↓, enter".into(), "choose a debate and open it".into()));
        rows.push(Row::Key("ctrl-r, ctrl-t".into(), "name it, tag it (the topic stays as it is)".into()));
        rows.push(Row::Key("ctrl-e, ctrl-d".into(), "export it as Markdown, delete it (asks first)".into()));
    }
    // A studio that only replays opens no text box.
    if app.starts_debates() {
        rows.push(Row::Heading("In a text box"));
        rows.push(Row::Key("enter, ctrl-s".into(), "send".into()));
        rows.push(Row::Key("alt-enter".into(), "break the line".into()));
        rows.push(Row::Key("esc".into(), "cancel".into()));
    }
    rows.push(Row::Blank);
    rows.push(Row::Note("The mouse wheel scrolls the pane under it; a click focuses it.".into()));
    rows.push(Row::Note("Esc clears what a key said in the status line.".into()));
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
