//! The verdict card over the panes: after a round's verdict, who is ahead
//! and the heat from → to in large glyphs, the verdict's first sentence and
//! the next question, held a few seconds. Large glyphs give way to a plain
//! bold line where the screen is too small for them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::big;
use super::dialog::frame_box;
use crate::debate::{Heat, Role};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::stage::Card;
use crate::tui::wrap::wrap_rows;

/// The card's widest.
const WIDTH: u16 = 76;

pub fn draw(frame: &mut Frame<'_>, app: &App, body: Rect, card: Card) {
    let width = WIDTH.min(body.width.saturating_sub(2));
    let title = format!("Round {} · the verdict", card.round + 1);
    let Some(parts) = round_parts(app, card.round, usize::from(width.saturating_sub(4))) else { return };
    // Large glyphs where there is room for them: the card's rows first.
    let inner_width = width.saturating_sub(4);
    let text_rows = |lines: usize| u16::try_from(lines).unwrap_or(u16::MAX);
    let mut rows: Vec<Row> = Vec::new();
    let plain_rows = text_rows(parts.lines.len()) + 1;
    let room = body.height.saturating_sub(2);
    // The large headline needs room for the large heat under it too.
    let heat_rows = big::GLYPH.1 + 1;
    let big_headline = big::width(&parts.headline) <= inner_width && plain_rows + 5 + heat_rows <= room;
    rows.push(if big_headline { Row::Big(parts.headline.clone()) } else { Row::Bold(parts.headline.clone()) });
    let (from, to) = parts.heat;
    let fits = big::width(&format!("{from:.2}")) * 2 + 6 <= inner_width && plain_rows + 10 <= room;
    rows.push(if fits { Row::BigHeat(from, to) } else { Row::Bold(format!("heat {from:.2} → {to:.2}")) });
    let height = (rows.iter().map(Row::height).sum::<u16>() + plain_rows + 2).min(body.height);
    let area = Rect {
        x: body.x + body.width.saturating_sub(width) / 2,
        y: body.y + body.height.saturating_sub(height) / 2,
        width,
        height,
    };
    let inner = frame_box(frame, app, area, &title);
    let accent = Style::new().fg(parts.color(app)).add_modifier(Modifier::BOLD);
    let mut y = inner.y;
    for row in &rows {
        let at = Rect { y, height: row.height().min(inner.bottom().saturating_sub(y)), ..inner };
        match row {
            Row::Big(text) => {
                big::draw(frame, at, text, accent);
            }
            Row::BigHeat(from, to) => draw_heat(frame, app, at, *from, *to),
            Row::Bold(text) => {
                frame.render_widget(Paragraph::new(Line::from(Span::styled(text.clone(), accent)).centered()), at);
            }
        }
        y += row.height();
    }
    let rest = Rect { y, height: inner.bottom().saturating_sub(y), ..inner };
    let mut lines = parts.lines.clone();
    lines.push(Line::from(Span::styled(parts.hint.clone(), app.theme.secondary())).centered());
    frame.render_widget(Paragraph::new(lines), rest);
}

/// One row of large or bold text at the card's head.
enum Row {
    Big(String),
    BigHeat(Heat, Heat),
    Bold(String),
}

impl Row {
    fn height(&self) -> u16 {
        match self {
            Row::Big(_) | Row::BigHeat(..) => big::GLYPH.1 + 1,
            Row::Bold(_) => 2,
        }
    }
}

/// The heat from → to, each large, an arrow between.
fn draw_heat(frame: &mut Frame<'_>, app: &App, area: Rect, from: Heat, to: Heat) {
    let (from_text, to_text) = (format!("{from:.2}"), format!("{to:.2}"));
    let each = big::width(&from_text);
    let total = each * 2 + 6;
    let x = area.x + area.width.saturating_sub(total) / 2;
    let style = |heat: Heat| Style::new().fg(app.theme.heat(heat)).add_modifier(Modifier::BOLD);
    big::draw(frame, Rect { x, width: each, ..area }, &from_text, style(from));
    let arrow = Rect { x: x + each, y: area.y + 1, width: 6, height: 1 };
    frame.render_widget(Paragraph::new(Line::from(Span::styled("→", app.theme.secondary())).centered()), arrow);
    big::draw(frame, Rect { x: x + each + 6, width: each, ..area }, &to_text, style(to));
}

/// What a card says.
struct Parts {
    /// The large word: who is ahead, or resolved, or even.
    headline: String,
    /// The seat whose colour the headline takes, if any.
    seat: Option<Role>,
    /// The heat from → to.
    heat: (Heat, Heat),
    /// The sentences under it.
    lines: Vec<Line<'static>>,
    /// How the card goes.
    hint: String,
}

impl Parts {
    fn color(&self, app: &App) -> ratatui::style::Color {
        self.seat.map_or(app.theme.text, |role| app.theme.role(role))
    }
}

/// A round's card: who the verdict puts ahead (or resolved), the heat,
/// its first sentence and the next question. Its sentences are wrapped to `width` columns.
fn round_parts(app: &App, number: u32, width: usize) -> Option<Parts> {
    let debate = &app.debate;
    let round = debate.rounds.iter().find(|r| r.number == number)?;
    let verdict = round.verdict()?;
    let width = width.max(10);
    let ahead = crate::debate::standing::describe(verdict, debate);
    let leader = verdict.ahead.and_then(crate::debate::verdict::Ahead::side);
    let headline = match leader {
        Some(role) => debate.label(role).to_uppercase(),
        None if verdict.resolved => "RESOLVED".to_string(),
        None => "EVEN".to_string(),
    };
    let resolved = if verdict.resolved { "resolved" } else { "not resolved" };
    let standing = ahead.map_or_else(|| resolved.to_string(), |a| format!("{a} · {resolved}"));
    let mut lines = vec![Line::from(Span::styled(standing, Style::new().fg(app.theme.text))).centered(), Line::raw("")];
    let said = crate::words::first_sentence(&clean(&verdict.verdict));
    lines.extend(wrap_rows(&said, width, 3, width).into_iter().map(Line::raw));
    if !verdict.resolved {
        let next = format!("Next: {}", clean(&verdict.topic));
        let bold = Style::new().fg(app.theme.text).add_modifier(Modifier::BOLD);
        lines.extend(wrap_rows(&next, width, 2, width).into_iter().map(|l| Line::from(Span::styled(l, bold))));
    }
    let heat = (round.heat, verdict.heat);
    Some(Parts { headline, seat: leader, heat, lines, hint: "any key goes on".into() })
}
