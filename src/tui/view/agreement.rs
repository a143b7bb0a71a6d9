//! The header's convergence meter, in a format whose debaters end each turn
//! with a final answer (a vote): how far the answers of the latest round
//! counted agree, `agree 2–1 ▰▰▰▰▰▱▱▱▱▱`, or just the count where there is
//! no room for the bar.

use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

use crate::debate::vote;
use crate::tui::app::App;

const METER_CELLS: usize = 10;

/// `agree 2–1 ▰▰▰▰▰▱▱▱▱▱` (with `bar`) or `agree 2–1`; nothing before a
/// round is counted or in a format without final answers.
pub fn meter(app: &App, bar: bool) -> Vec<Span<'static>> {
    let Some(tally) = vote::latest(&app.debate) else { return Vec::new() };
    let theme = &app.theme;
    let color = if tally.converged() { theme.good } else { theme.warn };
    let count = if tally.groups.is_empty() { "–".to_string() } else { tally.count() };
    let mut spans = vec![
        Span::styled("  agree ", theme.secondary()),
        Span::styled(count, Style::new().fg(color).add_modifier(Modifier::BOLD)),
    ];
    if bar {
        let filled = cells(tally.agreement());
        spans.push(Span::raw(" "));
        spans.push(Span::styled("▰".repeat(filled), Style::new().fg(color)));
        spans.push(Span::styled("▱".repeat(METER_CELLS - filled), theme.secondary()));
    }
    spans
}

/// How many of the meter's cells an agreement from 0 to 1 fills.
fn cells(agreement: f64) -> usize {
    (agreement.clamp(0.0, 1.0) * METER_CELLS as f64).round() as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_meter_fills_in_step_with_agreement() {
        assert_eq!(super::cells(0.0), 0);
        assert_eq!(super::cells(0.5), 5);
        assert_eq!(super::cells(1.0), 10);
        assert_eq!(super::cells(1.7), 10);
    }
}
