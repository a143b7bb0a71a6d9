//! The results view, over the panes when a debate ends (and on its key): the
//! outcome, heat per round as a line chart with the person's pins marked,
//! each side's words per round as bars, the synthesis, and where the HTML
//! report was written. Charts give way to text on a short screen.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Bar, BarChart, BarGroup, Chart, Dataset, GraphType, Paragraph};

use super::dialog::centered;
use super::dialog::{box_inner, frame_box, hint_line, split_last};
use crate::debate::Heat;
use crate::debate::facts::DebateFacts;
use crate::debate::issues::Row;
use crate::debate::vote::Tally;
use crate::debate::{DebateState, Outcome, Role};
use crate::report::model::{HeatPoint, HeatSetBy, heat_points};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::markdown::{self, Palette};
use crate::tui::results::Results;
use crate::words::{count as counted, thousands};

/// Below this many rows inside the box the charts are left out.
const CHARTS_NEED: u16 = 14;
/// The fewest lines of synthesis the charts leave room for (it scrolls).
const SYNTHESIS_LINES: usize = 4;
/// The most rows the charts take: past it, the synthesis has the room.
const CHART_ROWS: u16 = 12;

/// The results laid out for the screen: what each part shows and where.
struct Laid {
    rect: Rect,
    facts: Vec<Line<'static>>,
    heats: Vec<HeatPoint>,
    words: Vec<(u32, Vec<usize>)>,
    /// The synthesis (or summary) as lines, whole: it scrolls.
    synthesis: Vec<Line<'static>>,
    report: Line<'static>,
    /// Facts, charts (none on a short screen), synthesis, report.
    areas: [Rect; 4],
    show_charts: bool,
    hint: Rect,
}

/// How many lines the synthesis has and how many rows show it, for the
/// scroll (laid out before a frame is drawn: the view only reads).
pub fn fit(app: &App, results: &Results, area: Rect) -> (usize, usize) {
    let laid = lay_out(app, results, area);
    (laid.synthesis.len(), usize::from(synthesis_rows(laid.areas[2]).height))
}

/// The rows of the synthesis' area its lines show in (below its gap).
fn synthesis_rows(area: Rect) -> Rect {
    Rect { y: area.y + 1, height: area.height.saturating_sub(1), ..area }
}

fn lay_out(app: &App, results: &Results, area: Rect) -> Laid {
    let theme = &app.theme;
    let rect = centered(area, 110, 30);
    let [body, hint] = split_last(box_inner(rect));
    let debate = &app.debate;

    let facts = wrapped(facts(app), usize::from(body.width));
    let heats = heat_points(debate);
    let words = words_per_round(debate);

    // The arbiter's summary as it is written, or once it is, else the judge's synthesis.
    let synthesis = match (&results.summary_draft, &debate.summary) {
        (Some(draft), _) => Some(("Summary (being written)", clean(draft))),
        (None, Some(summary)) => Some(("Summary", clean(summary.text.trim()))),
        // With no judge the synthesis is the vote, among the facts already.
        (None, None) => debate
            .finish
            .as_ref()
            .and_then(|f| f.synthesis.as_deref())
            .filter(|_| debate.judges() > 0)
            .map(|s| ("Synthesis", clean(s.trim())))
            .or_else(|| crate::debate::plan::missing_synthesis(debate).map(|m| ("", m))),
    };
    let report = match &results.report {
        Some(path) => Line::from(vec![Span::raw("Report: "), Span::styled(path.clone(), Style::new().fg(theme.link))]),
        None => hint_line(app, "w writes the HTML report (heat report does too)", body.width),
    };
    // The synthesis as Markdown, whole: the view scrolls it.
    let palette = Palette::from_theme(theme, theme.role(Role::Judge));
    let lines = synthesis.as_ref().map_or_else(Vec::new, |(label, text)| {
        // A label runs into plain prose; a summary that opens with a heading or a list gets a line of its own.
        let block = text.trim_start().starts_with(['#', '-', '*', '>', '|', '`']);
        let labelled = match (label.is_empty(), block) {
            (true, _) => text.clone(),
            (false, false) => format!("**{label}:** {text}"),
            (false, true) => format!("**{label}:**\n\n{text}"),
        };
        markdown::render(&labelled, body.width, &palette)
    });
    let total = lines.len() as u16;
    // The charts take what the facts, a few lines of synthesis and the report line leave, up to
    // their most; the synthesis takes the rest, and scrolls.
    let facts_rows = facts.len() as u16 + 1;
    let least = if total == 0 { 0 } else { total.min(SYNTHESIS_LINES as u16) + 1 };
    let chart_room = body.height.saturating_sub(facts_rows + least + 1);
    let show_charts = body.height >= CHARTS_NEED && chart_room >= 7 && !heats.is_empty();
    // All the room the whole synthesis leaves, and never less than their most while it scrolls.
    let whole = if total == 0 { 0 } else { total + 1 };
    let after_whole = body.height.saturating_sub(facts_rows + whole + 1);
    let chart_rows = if show_charts { after_whole.max(chart_room.min(CHART_ROWS)).min(chart_room) } else { 0 };
    let synthesis_rows =
        if total == 0 { 0 } else { (total + 1).min(body.height.saturating_sub(facts_rows + chart_rows + 1)) };
    let areas = Layout::vertical([
        Constraint::Length(facts.len() as u16 + 1),
        Constraint::Length(chart_rows),
        Constraint::Length(synthesis_rows),
        Constraint::Min(1),
    ])
    .areas(body);
    Laid { rect, facts, heats, words, synthesis: lines, report, areas, show_charts, hint }
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, results: &Results) {
    let theme = &app.theme;
    let debate = &app.debate;
    let Laid { rect, facts, heats, words, synthesis: lines, report, areas, show_charts, hint } =
        lay_out(app, results, area);
    let [facts_area, charts_area, synthesis_area, report_area] = areas;
    frame_box(frame, app, rect, " Results ");
    frame.render_widget(Paragraph::new(facts), facts_area);
    if show_charts {
        let [heat_area, words_area] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).spacing(2).areas(charts_area);
        heat_chart(frame, app, heat_area, &heats);
        words_chart(frame, app, words_area, &words);
    }
    if !lines.is_empty() {
        let shown = synthesis_rows(synthesis_area);
        let max = results.scroll_max;
        let top = results.scroll.min(max);
        let mut rows: Vec<Line<'static>> =
            lines.into_iter().skip(usize::from(top)).take(usize::from(shown.height)).collect();
        if top < max
            && let Some(last) = rows.last_mut()
        {
            // What is below is said where it starts, as a pane says it.
            *last = Line::from(Span::styled(
                format!("▼ {} more · ↓ or PgDn scrolls", max - top),
                Style::new().fg(theme.warn),
            ));
        }
        frame.render_widget(Paragraph::new(rows), shown);
    }
    frame.render_widget(Paragraph::new(report), report_area);
    let keys = [(Action::NewDebate, "new"), (Action::Export, "export")];
    let mut hints = vec!["w report".to_string()];
    if debate.summary.is_none() && results.summary_draft.is_none() && app.starts_debates() {
        hints.push("a summary".to_string());
    }
    let concluded = debate.finish.as_ref().is_some_and(|f| f.outcome.concluded());
    if concluded && app.starts_debates() && app.replay.is_none() {
        hints.push(format!("{} more rounds", app.keymap.hint(Action::MoreRounds)));
    }
    if debate.human.is_empty() && app.replay.is_none() && !app.watching() {
        hints.push(format!("{} verdict", app.keymap.hint(Action::HumanVerdict)));
    }
    if results.scroll_max > 0 {
        hints.push("↑/↓ scroll".to_string());
    }
    let quit = app.keymap.hint(Action::Quit);
    hints.push(if quit.trim().is_empty() { "Esc close".to_string() } else { format!("Esc/{quit} close") });
    hints.extend(
        keys.iter()
            .filter(|(action, _)| *action != Action::NewDebate || app.starts_debates())
            .map(|(action, what)| format!("{} {what}", app.keymap.hint(*action)))
            .filter(|h| !h.starts_with(' ')),
    );
    frame.render_widget(Paragraph::new(hint_line(app, &hints.join(" · "), hint.width)), hint);
}

/// The outcome, then heat, words and likeness, the vote (where debaters
/// give final answers), a review's issues, the person's verdict, the swap check, the panel,
/// the scores and the counters.
fn facts(app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let debate = &app.debate;
    let (headline, tone) = match &debate.finish {
        Some(finish) => {
            let tone = match finish.outcome {
                Outcome::Failed(_) | Outcome::Invalidated(_) => theme.error,
                Outcome::Cancelled => theme.warn,
                _ => theme.good,
            };
            (capitalised(&clean(&finish.outcome.headline(debate.rounds.len()))), tone)
        }
        None => (format!("Under way: round {}", debate.rounds.len().max(1)), theme.warn),
    };
    let path: Vec<String> = heat_points(debate).iter().map(|p| format!("{:.2}", p.heat)).collect();
    let mut facts = vec![
        Line::from(Span::styled(headline, Style::new().fg(tone).add_modifier(Modifier::BOLD))),
        Line::from(format!(
            "heat {}{}",
            if path.is_empty() { "–".into() } else { path.join(" → ") },
            words_said(debate)
        )),
    ];
    let DebateFacts { scores, issues, panel, swap, vote, room, map } = crate::debate::facts::of_debate(debate);
    facts.extend(vote.map(|tally| vote_line(debate, &tally, theme)));
    facts.extend(issues.map(|rows| issues_line(&rows, theme)));
    facts.extend(map.map(|map| map_line(debate, &map, theme)));
    if let Some(human) = debate.human.last() {
        facts.push(Line::from(Span::styled(
            format!("your verdict: {}", human.describe(debate)),
            Style::new().fg(theme.title).add_modifier(Modifier::BOLD),
        )));
    }
    if let Some(room) = room {
        facts.push(Line::from(Span::styled(
            format!("the room's votes: {room}"),
            Style::new().fg(theme.title).add_modifier(Modifier::BOLD),
        )));
    }
    if let Some((flipped, checked)) = swap {
        let text = format!("⇄ the verdict flipped on swap in {flipped} of {} checked", counted(checked, "round"));
        let style =
            if flipped > 0 { Style::new().fg(theme.warn).add_modifier(Modifier::BOLD) } else { theme.secondary() };
        facts.push(Line::from(Span::styled(text, style)));
    }
    if let Some(said) = panel {
        let text = format!("⚖ {}", clean(&said.unwrap_or_else(|undecided| undecided)));
        facts.push(Line::from(Span::styled(text, Style::new().fg(theme.title).add_modifier(Modifier::BOLD))));
    }
    if let Some(totals) = scores {
        facts.push(Line::from(Span::styled(format!("scores: {totals}"), Style::new().add_modifier(Modifier::BOLD))));
    }
    let counters = super::status::counters(app);
    if !counters.is_empty() {
        facts.push(Line::from(Span::styled(counters.trim_end().to_string(), theme.secondary())));
    }
    facts
}

/// " · 420 words for, 380 against · alike 12% → 41%" for two sides; "
/// · 900 words" for free seats.
fn words_said(debate: &DebateState) -> String {
    let words = words_per_round(debate);
    if !debate.two_sides() {
        let total: usize = words.iter().flat_map(|(_, counts)| counts).sum();
        return format!(" · {}", counted(total, "word"));
    }
    let (for_words, against_words) = words.iter().fold((0, 0), |(a, s), (_, w)| (a + w[0], s + w[1]));
    let alike = crate::debate::convergence::path(debate).map_or(String::new(), |alike| format!(" · alike {alike}"));
    format!(" · {} for, {} against{alike}", counted(for_words, "word"), thousands(against_words as u64))
}

/// The vote of the latest round counted, where debaters give final
/// answers: "☑ the vote: "four days" 2–1 (Analyst, Contrarian); minority: …".
fn vote_line(debate: &DebateState, tally: &Tally, theme: &crate::tui::theme::Theme) -> Line<'static> {
    let color = if tally.converged() { theme.good } else { theme.title };
    let text = format!("☑ the vote: {}", crate::debate::vote::describe(debate, tally));
    Line::from(Span::styled(text, Style::new().fg(color).add_modifier(Modifier::BOLD)))
}

/// A review's board in a line: "▣ 2 issues: 1 open, 1 addressed", in the
/// good colour once none is open.
fn issues_line(rows: &[Row], theme: &crate::tui::theme::Theme) -> Line<'static> {
    use crate::debate::issues;
    let text =
        if rows.is_empty() { "▣ no issue raised".to_string() } else { format!("▣ {}", issues::summary(rows)) };
    let open = rows.iter().any(|r| r.status == issues::Status::Open);
    let color = if open { theme.warn } else { theme.good };
    Line::from(Span::styled(text, Style::new().fg(color).add_modifier(Modifier::BOLD)))
}

/// The argument map in a line: its claims by standing, each side's
/// scorecard average and the turning points.
fn map_line(
    debate: &DebateState,
    map: &crate::debate::argument_map::DebateMap,
    theme: &crate::tui::theme::Theme,
) -> Line<'static> {
    use crate::debate::argument_map::ClaimStatus;
    let claims = &map.ledger.claims;
    let by_status: Vec<String> = ClaimStatus::ALL
        .iter()
        .filter_map(|&status| {
            let n = claims.iter().filter(|c| c.status == status).count();
            (n > 0).then(|| format!("{n} {}", status.name()))
        })
        .collect();
    let mut text = if claims.is_empty() {
        "◆ the argument map: no claim named".to_string()
    } else {
        format!("◆ {}", crate::words::count(claims.len(), "claim"))
    };
    if !by_status.is_empty() {
        text.push_str(&format!(": {}", by_status.join(", ")));
    }
    let [pro, con] = map.averages;
    if pro.is_some() || con.is_some() {
        let side = |role: Role, avg: Option<f32>| {
            format!("{} {}", debate.label(role), avg.map_or_else(|| "–".to_string(), |a| format!("{a:.1}")))
        };
        text.push_str(&format!(" · scorecards {} · {}", side(Role::Advocate, pro), side(Role::Skeptic, con)));
    }
    if !map.turning_points.is_empty() {
        let rounds: Vec<String> = map.turning_points.iter().map(|t| (t.round + 1).to_string()).collect();
        text.push_str(&format!(" · turned in round {}", rounds.join(", ")));
    }
    Line::from(Span::styled(crate::sanitize::clean(&text), Style::new().fg(theme.title).add_modifier(Modifier::BOLD)))
}

/// Each round's words by debater, in seat order: (round from 1, counts).
fn words_per_round(debate: &DebateState) -> Vec<(u32, Vec<usize>)> {
    let of = |round: &crate::debate::state::Round, role: Role| {
        round.turn(role).map_or(0, |t| t.text.split_whitespace().count())
    };
    debate.rounds.iter().map(|r| (r.number + 1, debate.debaters().iter().map(|&role| of(r, role)).collect())).collect()
}

/// Each fact wrapped to `width`, its style kept on every row, so a long
/// vote or panel line (the dissent at its end) is never cut at the edge.
fn wrapped(facts: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    facts
        .into_iter()
        .flat_map(|line| {
            let style = line.spans.first().map_or(line.style, |span| line.style.patch(span.style));
            let text: String = line.spans.iter().map(|span| span.content.as_ref()).collect();
            textwrap::wrap(&text, width.max(10))
                .into_iter()
                .map(|row| Line::from(Span::styled(row.into_owned(), style)))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// "Resolution forced after 4 rounds".
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Heat per round: the line, with the rounds a person pinned as their own points.
fn heat_chart(frame: &mut Frame<'_>, app: &App, area: Rect, points: &[HeatPoint]) {
    let theme = &app.theme;
    let line: Vec<(f64, f64)> = points.iter().map(|p| (f64::from(p.round), f64::from(p.heat.get()))).collect();
    let pinned: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.set_by == HeatSetBy::Person)
        .map(|p| (f64::from(p.round), f64::from(p.heat.get())))
        .collect();
    let rounds = points.len().max(1) as f64;
    let mut datasets = vec![
        Dataset::default()
            .name("judge")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(theme.role(Role::Judge)))
            .data(&line),
    ];
    // Each round's point, over the line.
    datasets.push(
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(theme.role(Role::Judge)).add_modifier(Modifier::BOLD))
            .data(&line),
    );
    if !pinned.is_empty() {
        datasets.push(
            Dataset::default()
                .name("pinned")
                .marker(Marker::Dot)
                .graph_type(GraphType::Scatter)
                .style(Style::new().fg(theme.warn).add_modifier(Modifier::BOLD))
                .data(&pinned),
        );
    }
    let axis_style = theme.secondary();
    let mut title = vec![Span::styled("Heat per round", Style::new().fg(theme.title))];
    if !pinned.is_empty() {
        title.push(Span::styled(" • pinned", Style::new().fg(theme.warn)));
    }
    let title = Line::from(title);
    let chart = Chart::new(datasets)
        .legend_position(None)
        // The plot is a canvas painted on its own background: the dialog's.
        .style(Style::new().bg(theme.overlay_bg))
        .block(ratatui::widgets::Block::new().title(title))
        .x_axis(
            Axis::default()
                .style(axis_style)
                .bounds([0.5, rounds + 0.5])
                .labels(["1".to_string(), if points.len() > 1 { points.len().to_string() } else { String::new() }]),
        )
        .y_axis(
            Axis::default()
                .style(axis_style)
                .bounds([f64::from(Heat::MIN.get()), f64::from(Heat::MAX.get())])
                .labels([format!("{:.1}", Heat::MIN), format!("{:.1}", Heat::MAX)]),
        );
    frame.render_widget(chart, area);
}

/// Each debater's words per round, side by side, bars sized to fit.
fn words_chart(frame: &mut Frame<'_>, app: &App, area: Rect, words: &[(u32, Vec<usize>)]) {
    let theme = &app.theme;
    let seats = app.debate.debaters();
    let groups = words.len().max(1) as u16;
    let per_group = seats.len().max(1) as u16;
    // A bar per debater and a one-column gap per round.
    let bar_width = (area.width.saturating_sub(groups) / (groups * per_group)).clamp(1, 6);
    let mut title = vec![Span::styled("Words per round ", Style::new().fg(theme.title))];
    let names: Vec<String> = seats.iter().map(|&r| app.debate.seat_name(r)).collect();
    // Each debater by name, or by initial where the names do not fit.
    let by_name = 16 + names.iter().map(|n| n.chars().count() + 3).sum::<usize>() <= usize::from(area.width);
    for (i, (&role, name)) in seats.iter().zip(&names).enumerate() {
        let name = if by_name { name.clone() } else { name.chars().take(1).collect() };
        let gap = if i + 1 < seats.len() { " " } else { "" };
        title.push(Span::styled(format!("■ {name}{gap}"), Style::new().fg(theme.role(role))));
    }
    let mut chart = BarChart::default()
        .block(ratatui::widgets::Block::new().title(Line::from(title)))
        .style(Style::new().bg(theme.overlay_bg))
        .bar_width(bar_width)
        .bar_gap(0)
        .group_gap(1)
        .value_style(Style::new().fg(theme.text).add_modifier(Modifier::DIM))
        .label_style(theme.secondary());
    for (round, counts) in words {
        // The count shows in the bar when it fits there.
        let value =
            |n: usize| if n.to_string().len() <= usize::from(bar_width) { n.to_string() } else { String::new() };
        let bars: Vec<Bar> = seats
            .iter()
            .zip(counts)
            .map(|(&role, &n)| Bar::new(n as u64).style(Style::new().fg(theme.role(role))).text_value(value(n)))
            .collect();
        chart = chart.data(BarGroup::new(bars).label(Line::from(round.to_string())));
    }
    frame.render_widget(chart, area);
}
