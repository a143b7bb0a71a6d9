//! The argument map dialog (`m`, in a format that keeps one): each side's
//! claims in the order made, with where each stands, the claim it answers
//! and the claims that answer it; then each round's scorecard and the
//! turning points. It follows the live debate (laid out from the debate
//! each frame) and scrolls when it does not fit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::debate::argument_map::{self, Claim, ClaimStatus, DebateMap};
use crate::debate::{DebateState, Role};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::map_view::MapView;
use crate::tui::paged::Fit;
use crate::tui::theme::Theme;
use crate::tui::wrap::wrap_plain;

/// The dialog's box on a screen of `area`: all of it but a margin.
fn outer(area: Rect) -> Rect {
    centered(area, area.width.saturating_sub(4).min(120), area.height.saturating_sub(2))
}

/// How many lines the map has at this size, how many show at once, how
/// many claims it has and where the chosen one is.
pub fn fit(app: &App, view: &MapView, area: Rect) -> Fit {
    let body = outer(area);
    let width = body.width.saturating_sub(4);
    let laid = laid_out(&app.debate, &app.theme, width, view.chosen);
    let rows = usize::from(body.height.saturating_sub(3));
    Fit { total: laid.lines.len(), rows, items: laid.at.len(), chosen_at: laid.at.get(view.chosen).copied() }
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, view: &MapView) {
    let rect = outer(area);
    let claims = argument_map::ledger(&app.debate).claims.len();
    let title = format!(" Argument map · {} ", crate::words::count(claims, "claim"));
    let inner = frame_box(frame, app, rect, &title);
    let [body, hint] = split_last(inner);
    let laid = laid_out(&app.debate, &app.theme, body.width, view.chosen);
    let (rows, total) = (usize::from(body.height), laid.lines.len());
    let top = view.top.min(total.saturating_sub(rows));
    let below = top + rows < total;
    frame.render_widget(Paragraph::new(laid.lines.into_iter().skip(top).take(rows).collect::<Vec<_>>()), body);
    let steer = if claims > 0 && app.live() && app.replay.is_none() && !app.watching() {
        "Enter: put it to the other side · n: a note to answer it · "
    } else {
        ""
    };
    let keys = format!("{steer}↑/↓ choose{} · Esc closes", if top > 0 || below { " · PgUp/PgDn scroll" } else { "" });
    let keys = if below { format!("more ↓ · {keys}") } else { keys };
    frame.render_widget(Paragraph::new(hint_line(app, &keys, hint.width)), hint);
}

/// The map laid out: its lines, and where each claim is (its first and
/// last line), in the map's order.
struct Laid {
    lines: Vec<Line<'static>>,
    at: Vec<(usize, usize)>,
}

/// The map's lines at `width` columns, claim `chosen` marked.
fn laid_out(debate: &DebateState, theme: &Theme, width: u16, chosen: usize) -> Laid {
    let crate::debate::facts::DebateFacts { scores: _, issues: _, panel: _, swap: _, vote: _, room: _, map } =
        crate::debate::facts::of_debate(debate);
    let Some(map) = map else {
        return Laid {
            lines: wrap_plain("This format keeps no argument map.", width, theme.secondary()),
            at: Vec::new(),
        };
    };
    let mut lines = Vec::new();
    let mut at = Vec::new();
    if map.ledger.claims.is_empty() {
        lines.extend(wrap_plain(
            "No claim yet: the judge names them with its first verdict.",
            width,
            theme.secondary(),
        ));
    }
    let made = map.ledger.by(Role::Advocate).count();
    let chosen_of = |role: Role| if role == Role::Advocate { Some(chosen) } else { chosen.checked_sub(made) };
    if width >= SIDE_BY_SIDE {
        // Wide (a projector): the sides face each other, as the panes do.
        let column = (width - GUTTER_WIDTH) / 2;
        let [(pro, pro_at), (con, con_at)] =
            [Role::Advocate, Role::Skeptic].map(|role| side_lines(debate, &map, role, theme, column, chosen_of(role)));
        at.extend(pro_at.into_iter().chain(con_at));
        let rows = pro.len().max(con.len());
        let mut pro = pro.into_iter();
        let mut con = con.into_iter();
        for _ in 0..rows {
            let left = pro.next().unwrap_or_default();
            let pad = usize::from(column).saturating_sub(left.width());
            let mut spans = left.spans;
            spans.push(Span::raw(" ".repeat(pad)));
            spans.push(Span::styled(GUTTER, theme.secondary()));
            spans.extend(con.next().unwrap_or_default().spans);
            lines.push(Line::from(spans));
        }
    } else {
        for role in [Role::Advocate, Role::Skeptic] {
            let (side, side_at) = side_lines(debate, &map, role, theme, width, chosen_of(role));
            if !side.is_empty() && !lines.is_empty() {
                lines.push(Line::default());
            }
            let offset = lines.len();
            at.extend(side_at.into_iter().map(|(first, last)| (first + offset, last + offset)));
            lines.extend(side);
        }
    }
    lines.push(Line::default());
    lines.extend(score_lines(debate, &map, theme, width));
    Laid { lines, at }
}

/// How wide the map must be to show the sides in two columns.
const SIDE_BY_SIDE: u16 = 100;
/// What parts the two columns, and its width.
const GUTTER: &str = " │ ";
const GUTTER_WIDTH: u16 = 3;

/// A side's heading and its claims (claim `chosen` of them marked), and
/// where each claim's lines are; nothing for a side that made none.
fn side_lines(
    debate: &DebateState,
    map: &DebateMap,
    role: Role,
    theme: &Theme,
    width: u16,
    chosen: Option<usize>,
) -> (Vec<Line<'static>>, Vec<(usize, usize)>) {
    let claims: Vec<&Claim> = map.ledger.by(role).collect();
    if claims.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let heading = format!("{} · {}", debate.label(role), crate::words::count(claims.len(), "claim"));
    let mut lines =
        vec![Line::from(Span::styled(heading, Style::new().fg(theme.role(role)).add_modifier(Modifier::BOLD)))];
    let mut at = Vec::new();
    for (i, claim) in claims.into_iter().enumerate() {
        let first = lines.len();
        lines.extend(claim_lines(map, claim, theme, width, chosen == Some(i)));
        at.push((first, lines.len() - 1));
    }
    (lines, at)
}

/// A claim: its id and standing, then its words, wrapped under a hanging
/// indent; what it answers and what answers it.
fn claim_lines(map: &DebateMap, claim: &Claim, theme: &Theme, width: u16, chosen: bool) -> Vec<Line<'static>> {
    const INDENT: usize = 15;
    let status = Style::new().fg(status_color(claim.status, theme));
    let text_width = width.saturating_sub(INDENT as u16).max(10);
    let mut words = wrap_plain(&clean(&claim.claim), text_width, Style::new().fg(theme.text)).into_iter();
    let first = words.next().unwrap_or_default();
    let id = Style::new().fg(theme.role(claim.by)).add_modifier(Modifier::BOLD);
    let id = if chosen { id.add_modifier(Modifier::REVERSED) } else { id };
    let mut head = vec![
        Span::raw(if chosen { "▶" } else { " " }),
        Span::styled(format!("{:<4}", claim.id), id),
        Span::styled(format!("{:<9}", claim.status.name()), status),
        Span::raw(" "),
    ];
    head.extend(first.spans);
    let mut lines = vec![Line::from(head)];
    let pad = " ".repeat(INDENT);
    lines.extend(words.map(|line| {
        let mut spans = vec![Span::raw(pad.clone())];
        spans.extend(line.spans);
        Line::from(spans)
    }));
    let mut notes = argument_map::links(&map.ledger, claim);
    notes.push(format!("round {}", claim.round + 1));
    lines.extend(wrap_plain(&format!("{pad}{}", notes.join(" · ")), width, theme.secondary()));
    lines
}

/// Each round's scorecard, then the turning points.
fn score_lines(debate: &DebateState, map: &DebateMap, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let heading = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    let cards = argument_map::scorecards(debate);
    if let (false, Some(spec)) = (cards.is_empty(), debate.map()) {
        lines.push(Line::from(Span::styled("Scorecards", heading)));
        // Each side's weighted score round by round, as a chart of bars out of 10.
        for role in [Role::Advocate, Role::Skeptic] {
            let totals: Vec<f32> =
                cards.iter().filter_map(|(_, card)| argument_map::weighted(card, role, spec)).collect();
            let Some(last) = totals.last() else { continue };
            let bars: String = totals.iter().map(|&t| bar(t)).collect();
            lines.push(Line::from(vec![
                Span::styled(format!(" {:<14}", clean(debate.label(role))), Style::new().fg(theme.role(role))),
                Span::styled(bars, Style::new().fg(theme.role(role))),
                Span::styled(format!(" {last:.1}"), Style::new().fg(theme.text).add_modifier(Modifier::BOLD)),
            ]));
        }
        for (round, card) in &cards {
            let line = argument_map::scorecard_line(debate, card, spec);
            let line = line.strip_prefix("scorecard: ").unwrap_or(&line);
            lines.extend(wrap_plain(
                &clean(&format!(" Round {}  {line}", round + 1)),
                width,
                Style::new().fg(theme.text),
            ));
        }
        lines.push(Line::default());
    }
    if !map.turning_points.is_empty() {
        lines.push(Line::from(Span::styled("Turning points", heading)));
        for point in &map.turning_points {
            let said = argument_map::turning_line(debate, point);
            let said = said.strip_prefix("turning point: ").unwrap_or(&said);
            lines.extend(wrap_plain(
                &clean(&format!(" Round {}  {said}", point.round + 1)),
                width,
                Style::new().fg(theme.text),
            ));
        }
    }
    lines
}

/// A score out of 10 as one of eight block heights.
fn bar(score: f32) -> char {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    BLOCKS[((score.clamp(1.0, 10.0) - 1.0) / 9.0 * 7.0).round() as usize]
}

fn status_color(status: ClaimStatus, theme: &Theme) -> ratatui::style::Color {
    match status {
        ClaimStatus::Standing => theme.text,
        ClaimStatus::Defended | ClaimStatus::Agreed => theme.good,
        ClaimStatus::Attacked => theme.warn,
        ClaimStatus::Conceded => theme.error,
        ClaimStatus::Withdrawn => theme.title,
    }
}
