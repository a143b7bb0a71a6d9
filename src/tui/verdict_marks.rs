//! The lines under a round's verdict in the judge pane: who the judge says
//! is ahead (in that side's colour), a flag for each side that conceded a
//! point, and the swap check's mark: the "verdict flips on swap" badge,
//! "swap check failed", the check under way, or that the verdict held.

use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use super::theme::Theme;
use super::wrap::wrap_plain;
use crate::debate::state::Round;
use crate::debate::swap;
use crate::debate::swap::check::SwapCheck;
use crate::debate::verdict::{Ahead, Conceded, Verdict};

/// The lines for `verdict`, the verdict of `round`, at `width` columns.
/// The sides are named as `state`'s format names them.
pub fn lines(
    state: &crate::debate::DebateState,
    round: &Round,
    verdict: &Verdict,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(ahead) = verdict.ahead {
        let color = ahead.side().map_or(theme.muted, |side| theme.role(side));
        let said = if ahead == Ahead::Even {
            "even: neither side ahead".to_string()
        } else {
            crate::debate::standing::ahead_words(ahead, state)
        };
        lines.extend(wrap_plain(&said, width, Style::new().fg(color).add_modifier(Modifier::BOLD)));
    }
    for side in verdict.conceded.map(Conceded::sides).unwrap_or_default() {
        lines.extend(wrap_plain(&Conceded::flag(&state.seat_name(side)), width, Style::new().fg(theme.warn)));
    }
    let swap_line = match &round.swap {
        None => None,
        Some(SwapCheck::Asking) => Some(("⇄ swap check…".to_string(), theme.secondary())),
        Some(SwapCheck::Answered { flips: true, .. }) => Some((
            format!("⇄ {}", swap::FLIPS),
            Style::new().fg(theme.error).add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )),
        Some(SwapCheck::Answered { flips: false, .. }) => {
            Some(("⇄ same verdict on swap".to_string(), Style::new().fg(theme.good)))
        }
        Some(SwapCheck::Failed { .. }) => Some((format!("⇄ {}", swap::FAILED), Style::new().fg(theme.warn))),
    };
    if let Some((text, style)) = swap_line {
        lines.extend(wrap_plain(&text, width, style));
    }
    lines
}
