//! Dialogs over the panes: confirmations, the topic editor, the heat picker
//! and the person's verdict (help, the session browser and others have
//! modules of their own).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::debate::Heat;
use crate::tui::app::App;
use crate::tui::modal::{Confirm, EditorPurpose, Modal};

/// What an editor's keys do, under its text.
const EDITOR_KEYS: &str = "Enter sends · Alt-Enter new line · Esc cancels";

/// A note's editor: Tab chooses whom it is for.
const NOTE_KEYS: &str = "Tab: to whom · Enter sends · Alt-Enter new line · Esc cancels";

/// The question's editor opens on the question the round would ask, selected.
const QUESTION_KEYS: &str = "Type to replace · ← → to edit it · Enter sends · Esc cancels";

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    match &app.modal {
        // Drawn in the status line.
        None | Some(Modal::Search(_)) => {}
        Some(Modal::Help(view)) => super::help::draw(frame, app, area, view),
        Some(Modal::Settings(form)) => super::settings::draw(frame, app, area, form),
        Some(Modal::Sessions(browser)) => super::sessions::draw(frame, app, area, browser),
        Some(Modal::Results(results)) => super::results::draw(frame, app, area, results),
        Some(Modal::Verdict(form)) => verdict(frame, app, area, form),
        Some(Modal::Branch(form)) => super::branch::draw(frame, app, area, form),
        Some(Modal::Confirm(what)) => confirm(frame, app, area, what),
        Some(Modal::Editor(editor)) => {
            let next = app.debate.current_round().map_or(1, |r| r.number + 2);
            let (title, hint) = match editor.purpose {
                EditorPurpose::Inject => match editor.to.as_ref().filter(|to| !to.is_everyone()) {
                    Some(to) => (format!(" A note to {} ", to.describe()), NOTE_KEYS),
                    None => (" Inject a topic into the next round (every seat) ".to_string(), NOTE_KEYS),
                },
                EditorPurpose::NewTopic => (" New debate: the proposition ".to_string(), EDITOR_KEYS),
                EditorPurpose::Question => {
                    (format!(" Round {next}'s question, instead of the judge's "), QUESTION_KEYS)
                }
            };
            let rect = centered(area, 72, 10);
            let inner = frame_box(frame, app, rect, &title);
            let [text, hint_area] = split_last(inner);
            frame.render_widget(&editor.area, text);
            frame.render_widget(Paragraph::new(hint_line(app, hint, hint_area.width)), hint_area);
        }
        Some(Modal::Temperature(temp)) => {
            let rect = centered(area, 64, 9);
            let title = if temp.to.is_everyone() {
                " Pin the heat (every seat) ".to_string()
            } else {
                format!(" Pin the heat for {} ", temp.to.describe())
            };
            let inner = frame_box(frame, app, rect, &title);
            let theme = &app.theme;
            // The gauge shows what Enter would pin: nothing while the typed text cannot be.
            let chosen = temp.chosen();
            let value = chosen.as_ref().copied().unwrap_or(Heat::MIN);
            let shown = temp.typed.clone().unwrap_or_else(|| format!("{:.2}", temp.value));
            let cells = match chosen {
                Ok(v) => (v.share() * 30.0).round().clamp(0.0, 30.0) as usize,
                Err(_) => 0,
            };
            let color = if chosen.is_ok() { theme.heat(value) } else { theme.error };
            let mut lines = vec![
                Line::from(vec![
                    Span::raw("heat "),
                    Span::styled(shown, Style::new().fg(color).add_modifier(Modifier::BOLD)),
                    Span::raw(format!("   ({:.2} cool … {:.2} hot)", Heat::MIN, Heat::MAX)),
                ]),
                Line::from(vec![
                    Span::styled("█".repeat(cells), Style::new().fg(color)),
                    Span::styled("░".repeat(30 - cells), theme.secondary()),
                ]),
                Line::default(),
                Line::from(if temp.to.is_everyone() {
                    "The debaters are asked at it from the next round until released.".to_string()
                } else {
                    format!("Asked of {} from the next round, whatever the judge sets.", temp.to.describe())
                }),
            ];
            // Said as it is typed, not only on Enter.
            let error = temp.error.clone().or_else(|| temp.typed.as_ref().and_then(|_| temp.chosen().err()));
            if let Some(error) = error {
                lines.push(Line::from(Span::styled(error, Style::new().fg(theme.error))));
            }
            let [body, hint] = split_last(inner);
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), body);
            frame.render_widget(
                Paragraph::new(hint_line(
                    app,
                    "↑/↓ ±0.05 · type a value · Tab: for whom · Enter pins · Esc",
                    hint.width,
                )),
                hint,
            );
        }
    }
}

/// The person's verdict: who is ahead, how sure, a note, and (live) whether it ends the debate.
fn verdict(frame: &mut Frame<'_>, app: &App, area: Rect, form: &crate::tui::verdict_form::VerdictForm) {
    use crate::tui::verdict_form::ahead_label;
    let theme = &app.theme;
    let rect = centered(area, 72, if form.live { 11 } else { 10 });
    let inner = frame_box(frame, app, rect, " Your verdict ");
    let [body, hint] = split_last(inner);
    let mut choice = vec![Span::styled("Who is ahead  ", theme.secondary())];
    for (i, ahead) in form.choices.iter().enumerate() {
        let label = ahead_label(&app.debate, *ahead);
        let style = match ahead {
            Some(role) => Style::new().fg(theme.role(*role)),
            None => Style::new(),
        };
        if i == form.ahead {
            choice.push(Span::styled(format!("‹ {label} ›"), style.add_modifier(Modifier::BOLD | Modifier::REVERSED)));
        } else {
            choice.push(Span::styled(format!("  {label}  "), style));
        }
        choice.push(Span::raw(" "));
    }
    let cells = usize::from(form.confidence / 10);
    let sure = Line::from(vec![
        Span::styled("How sure      ", theme.secondary()),
        Span::styled(format!("{:>3}% ", form.confidence), Style::new().add_modifier(Modifier::BOLD)),
        Span::styled("▰".repeat(cells), Style::new().fg(theme.good)),
        Span::styled("▱".repeat(10 - cells), theme.secondary()),
    ]);
    let [lines, note_label, note, end] = ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(3),
        ratatui::layout::Constraint::Length(1),
        ratatui::layout::Constraint::Length(2),
        ratatui::layout::Constraint::Min(0),
    ])
    .areas(body);
    frame.render_widget(Paragraph::new(vec![Line::from(choice), Line::default(), sure]), lines);
    frame.render_widget(Paragraph::new(Span::styled("Note", theme.secondary())), note_label);
    frame.render_widget(&form.note, note);
    if form.live {
        let mark = if form.ends { "[x]" } else { "[ ]" };
        let then = if app.debate.judges() == 0 { "the vote decides" } else { "the judge sums it up" };
        let text = format!("{mark} end the debate here (Ctrl-E): {then}");
        frame.render_widget(Paragraph::new(Span::styled(text, Style::new().fg(theme.warn))), end);
    }
    frame.render_widget(
        Paragraph::new(hint_line(
            app,
            "←/→ who · ↑/↓ how sure · type a note · Enter records · Esc cancels",
            hint.width,
        )),
        hint,
    );
}

/// The quit question, titled by how the debate stands now (it may change
/// while the question is open): paused, streaming, between turns, or over.
fn quit_question(app: &App) -> (&'static str, &'static str) {
    let resume = "The debate stops here and is saved; `heat resume` continues it.";
    if app.debate.finish.is_some() {
        return (" Quit? The debate has ended ", "It is saved; `heat export` writes it out.");
    }
    if app.paused() {
        return (" Quit while the debate is paused? ", resume);
    }
    if app.streaming() {
        return (" Quit while the debate streams? ", resume);
    }
    (" Quit while the debate runs? ", resume)
}

fn confirm(frame: &mut Frame<'_>, app: &App, area: Rect, what: &Confirm) {
    let (title, text) = match what {
        Confirm::Force => {
            (" Force a resolution? ", "The turns under way finish; then the judge writes its final synthesis.")
        }
        Confirm::Quit => quit_question(app),
        Confirm::Replace(_) => (
            " Stop the running debate? ",
            "It stops here and is saved; `heat resume` continues it. Then the other debate opens.",
        ),
    };
    let rect = centered(area, 60, 7);
    let inner = frame_box(frame, app, rect, title);
    let [body, hint] = split_last(inner);
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), body);
    frame.render_widget(Paragraph::new(hint_line(app, "y / Enter: yes · n / Esc: no", hint.width)), hint);
}
