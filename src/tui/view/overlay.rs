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
use crate::tui::verdict_form::VerdictForm;

/// What an editor's keys do, under its text.
const EDITOR_KEYS: &str = "Enter sends · Alt-Enter new line · Esc cancels";

/// A note's editor: Tab chooses whom it is for.
const NOTE_KEYS: &str = "Tab: to whom · Enter sends · Alt-Enter new line · Esc cancels";

/// A person's argument in their seat: Esc keeps the draft and the turn.
const TURN_KEYS: &str = "Enter sends · Alt-Enter ↵ · Ctrl-G $EDITOR · Esc steps out";

/// The question's editor opens on the question the round would ask, selected.
const QUESTION_KEYS: &str = "Type to replace · ← → to edit it · Enter sends · Esc cancels";

/// The model's editor opens on the seat's own, as `PROVIDER:MODEL`.
const MODEL_KEYS: &str = "PROVIDER:MODEL, or a model alone · Enter sets it · Esc cancels";

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    match &app.modal {
        // Drawn in the status line.
        None | Some(Modal::Search(_)) => {}
        Some(Modal::Help(view)) => super::help::draw(frame, app, area, view),
        Some(Modal::Settings(form)) => super::settings::draw(frame, app, area, form),
        Some(Modal::Sessions(browser)) => super::sessions::draw(frame, app, area, browser),
        Some(Modal::Results(results)) => super::results::draw(frame, app, area, results),
        Some(Modal::Costs) => super::costs::draw(frame, app, area),
        Some(Modal::Waiting(list)) => super::waiting::draw(frame, app, area, list),
        Some(Modal::Sent(view)) => super::sent::draw(frame, app, area, view),
        Some(Modal::Map(view)) => super::argument_map::draw(frame, app, area, view),
        Some(Modal::Verdict(form)) => verdict(frame, app, area, form),
        Some(Modal::Branch(form)) => super::branch::draw(frame, app, area, form),
        Some(Modal::Confirm(what)) => confirm(frame, app, area, what),
        Some(Modal::Editor(editor)) if editor.purpose == EditorPurpose::Turn => person_turn(frame, app, area, editor),
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
                EditorPurpose::Turn => (" Your argument ".to_string(), TURN_KEYS),
                EditorPurpose::Model(role) => {
                    (format!(" The {}'s model, from its next turn ", app.debate.seat_name(role)), MODEL_KEYS)
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

/// A person's argument, written where the seat's pane is (centred where
/// the pane is too small to write in).
fn person_turn(frame: &mut Frame<'_>, app: &App, area: Rect, editor: &crate::tui::modal::Editor) {
    let role = app.person.as_ref().map_or(app.panes.focused_role(), |turn| turn.role);
    let pane = app.panes.areas[role.position()];
    let rect = if pane.width >= 40 && pane.height >= 8 { pane } else { centered(area, 72, 12) };
    let round = app.debate.current_round().map_or(1, |r| r.number + 1);
    let seat = app.debate.seat_name(role);
    let title = format!(" Your turn as the {seat} · round {round} ");
    let inner = frame_box(frame, app, rect, &title);
    let [body, hint_area] = split_last(inner);
    // The question the round asks stays in sight while the person writes.
    let question = app.debate.current_round().map_or(app.debate.topic.as_str(), |r| r.topic.as_str());
    let asked = Paragraph::new(Line::from(vec![
        Span::styled("Question: ", app.theme.secondary()),
        Span::raw(crate::sanitize::clean(question)),
    ]))
    .wrap(Wrap { trim: true });
    let chars = "Question: ".len() + question.chars().count();
    let rows =
        u16::try_from(chars.div_ceil(usize::from(body.width.max(1)))).unwrap_or(u16::MAX).clamp(1, body.height / 3);
    let [asked_area, text] = ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(rows + 1),
        ratatui::layout::Constraint::Min(1),
    ])
    .areas(body);
    frame.render_widget(asked, asked_area);
    frame.render_widget(&editor.area, text);
    frame.render_widget(Paragraph::new(hint_line(app, TURN_KEYS, hint_area.width)), hint_area);
}

/// The person's verdict: who is ahead, how sure, a note, and (live) whether it ends the debate.
fn verdict(frame: &mut Frame<'_>, app: &App, area: Rect, form: &VerdictForm) {
    if let Some(seat) = &form.seat {
        return judging(frame, app, area, form, seat);
    }
    let rect = centered(area, 72, if form.live { 11 } else { 10 });
    let inner = frame_box(frame, app, rect, " Your verdict ");
    let [body, hint] = split_last(inner);
    sure_and_note(frame, app, body, hint, form, ahead_line(app, form));
}

/// Who is ahead, the chosen one marked.
fn ahead_line(app: &App, form: &VerdictForm) -> Line<'static> {
    use crate::tui::verdict_form::ahead_label;
    let theme = &app.theme;
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
    Line::from(choice)
}

/// A person in the judge's seat: who is ahead, the verdict, the next
/// question, the heat and whether it resolves the debate.
fn judging(
    frame: &mut Frame<'_>,
    app: &App,
    area: Rect,
    form: &VerdictForm,
    seat: &crate::tui::verdict_form::JudgeSeat,
) {
    use ratatui::layout::{Constraint, Layout};
    let theme = &app.theme;
    let round = app.debate.current_round().map_or(1, |r| r.number + 1);
    let rect = centered(area, 76, 15);
    let title = if seat.closing {
        " Your final synthesis, as the judge ".to_string()
    } else {
        format!(" Your verdict on round {round}, as the judge ")
    };
    let inner = frame_box(frame, app, rect, &title);
    let [body, hint] = split_last(inner);
    let [who, verdict_label, verdict, question_label, question, heat, end] =
        Layout::vertical([1, 1, 2, 1, 2, 2, 1].map(Constraint::Length)).areas(body);
    frame.render_widget(Paragraph::new(ahead_line(app, form)), who);
    let label = |text: &str, on: bool| {
        let style = if on { Style::new().fg(theme.key).add_modifier(Modifier::BOLD) } else { theme.secondary() };
        Paragraph::new(Span::styled(format!("{}{text}", if on { "▸ " } else { "  " }), style))
    };
    frame.render_widget(label(if seat.closing { "Synthesis" } else { "Verdict" }, !seat.on_question), verdict_label);
    frame.render_widget(&form.note, verdict);
    if seat.closing {
        // The last word: no round follows to ask a question of, or to take a heat.
        let text = "This is the debate's last word: it ends with it, whatever it says.";
        frame.render_widget(Paragraph::new(Span::styled(text, Style::new().fg(theme.warn))), end);
        let keys = "←/→ who is ahead · Enter gives it · Esc steps out";
        frame.render_widget(Paragraph::new(hint_line(app, keys, hint.width)), hint);
        return;
    }
    let asked = if form.ends { "Next question (none: the debate ends)" } else { "Next question" };
    frame.render_widget(label(asked, seat.on_question), question_label);
    frame.render_widget(&seat.question, question);
    let cells = (seat.heat.share() * 20.0).round().clamp(0.0, 20.0) as usize;
    let color = theme.heat(seat.heat);
    let gauge = Line::from(vec![
        Span::styled("Heat  ", theme.secondary()),
        Span::styled(format!("{:.2} ", seat.heat), Style::new().fg(color).add_modifier(Modifier::BOLD)),
        Span::styled("█".repeat(cells), Style::new().fg(color)),
        Span::styled("░".repeat(20 - cells), theme.secondary()),
    ]);
    frame.render_widget(Paragraph::new(gauge), heat);
    let mark = if form.ends { "[x]" } else { "[ ]" };
    let text = format!("{mark} resolved: the debate ends with this verdict (Ctrl-E)");
    frame.render_widget(Paragraph::new(Span::styled(text, Style::new().fg(theme.warn))), end);
    let keys = "←/→ who · Tab verdict/question · ↑/↓ heat · Enter gives it · Esc steps out";
    frame.render_widget(Paragraph::new(hint_line(app, keys, hint.width)), hint);
}

/// The person's verdict's form, below who is ahead.
fn sure_and_note(frame: &mut Frame<'_>, app: &App, body: Rect, hint: Rect, form: &VerdictForm, choice: Line<'_>) {
    let theme = &app.theme;
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
    frame.render_widget(Paragraph::new(vec![choice, Line::default(), sure]), lines);
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
