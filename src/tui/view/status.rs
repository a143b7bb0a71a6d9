//! The status bar: the latest sentence (a notice, an error, a retry) over
//! the keys that matter now and the token counters (hidden in presenter
//! mode, which keeps the sentence).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use std::borrow::Cow;

use crate::tui::app::{App, Tone};
use crate::tui::modal::Modal;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let width = usize::from(area.width);
    if let Some(Modal::Search(query)) = &app.modal {
        let hint = "  Enter finds · Esc cancels";
        let room = width.saturating_sub(3 + hint.chars().count());
        let line = Line::from(vec![
            Span::styled(" /", Style::new().fg(theme.key).add_modifier(Modifier::BOLD)),
            Span::raw(tail(query, room)),
            Span::styled("▏", Style::new().fg(theme.key)),
            Span::styled(hint, theme.secondary()),
        ]);
        super::line::one_line(frame, area, &line);
    } else if let Some((text, style)) = sentence(app) {
        let bar_rows = u16::from(!app.stage.present);
        let rows = area.height.saturating_sub(bar_rows).max(1);
        for (i, row) in wrapped(app, &text, width, usize::from(rows)).into_iter().enumerate() {
            let line = Line::from(Span::styled(format!(" {row}"), style));
            super::line::one_line(frame, Rect { y: area.y + i as u16, height: 1, ..area }, &line);
        }
    }

    if app.stage.present {
        return;
    }
    let bar = Style::new().fg(theme.bar_fg).bg(theme.bar_bg);
    let key = Style::new().fg(theme.key).bg(theme.bar_bg).add_modifier(Modifier::BOLD);
    let counters = counters(app);
    let taken = 1 + counters.width();
    let hints = hints(app);
    let (fitted, used) = super::line::key_hints(
        hints.iter().map(|(k, l)| (k.as_str(), l.as_ref())),
        width.saturating_sub(taken),
        key,
        bar,
    );
    let mut spans = vec![Span::styled(" ", bar)];
    spans.extend(fitted);
    spans.push(Span::styled(" ".repeat(width.saturating_sub(taken + used)), bar));
    spans.push(Span::styled(counters, bar));
    let line = Line::from(spans);
    let line = if theme.color { line } else { line.style(Style::new().add_modifier(Modifier::REVERSED)) };
    let bar_row = area.y + area.height.saturating_sub(1);
    super::line::one_line(frame, Rect { y: bar_row, height: 1, ..area }, &line);
}

/// The most rows the status sentence takes: a long notice wraps onto a
/// second and third row (the panes give them up) rather than being cut.
const SENTENCE_ROWS: usize = 3;

/// The rows the status area needs on a screen `width` columns wide: the
/// sentence, wrapped (at most `SENTENCE_ROWS`; one on a short screen), and
/// the key bar under it.
pub fn rows(app: &App, width: u16, height: u16) -> u16 {
    let most = if height < 20 { 1 } else { SENTENCE_ROWS };
    let sentence = match &app.modal {
        Some(Modal::Search(_)) => 1,
        _ => sentence(app).map_or(1, |(text, _)| wrapped(app, &text, usize::from(width), most).len().max(1)),
    };
    // Presenter mode hides the key bar (and its counters): the sentence alone.
    sentence as u16 + u16::from(!app.stage.present)
}

/// What the status line says now, with its style: a flash (what a key did,
/// an error, the engine's news) before the standing notice.
fn sentence(app: &App) -> Option<(String, Style)> {
    let theme = &app.theme;
    if let Some(flash) = &app.status.flash {
        let color = match flash.tone {
            Tone::Info => theme.text,
            Tone::Good => theme.good,
            Tone::Warn => theme.warn,
            Tone::Error => theme.error,
        };
        let style = Style::new().fg(color);
        let style = if flash.tone == Tone::Error { style.add_modifier(Modifier::BOLD) } else { style };
        return Some((flash.text.clone(), style));
    }
    // The standing notice is advice for the operator (a setting, a flag): not for the room's screen.
    if app.stage.present {
        return None;
    }
    app.status.notice.as_ref().map(|notice| (notice.clone(), theme.secondary()))
}

/// `text` wrapped to `width` columns (less the leading space and a margin)
/// in at most `rows` rows, the last ending in `…` after a whole word when
/// more was left out. A key and what it does ("s sessions") stay on one
/// row: a hint is never split.
fn wrapped(app: &App, text: &str, width: usize, rows: usize) -> Vec<String> {
    const JOIN: char = '\u{a0}';
    let room = width.saturating_sub(2).max(1);
    let is_key = |word: &str| !word.is_empty() && (app.keymap.is_label(word) || matches!(word, "Esc" | "Enter"));
    let words: Vec<&str> = text.split(' ').collect();
    let mut joined = String::with_capacity(text.len());
    for (i, word) in words.iter().enumerate() {
        joined.push_str(word);
        if i + 1 < words.len() {
            joined.push(if is_key(word) { JOIN } else { ' ' });
        }
    }
    crate::tui::wrap::wrap_rows(&joined, room, rows, room).into_iter().map(|row| row.replace(JOIN, " ")).collect()
}

/// The end of `text` that fits in `width` columns (what is being typed).
fn tail(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut used = 0;
    let mut kept: Vec<char> = text
        .chars()
        .rev()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used <= width
        })
        .collect();
    kept.reverse();
    kept.into_iter().collect()
}

/// The keys worth showing now, most useful first (cut from the end to
/// fit): while a search is on, its keys lead; then every key the table
/// offers here, by rank (`App::footer_keys`).
fn hints(app: &App) -> Vec<(String, Cow<'static, str>)> {
    let mut hints: Vec<(String, Cow<'static, str>)> = Vec::new();
    if app.panes.search.is_some() {
        hints.extend([
            ("n".into(), "next match".into()),
            ("N".into(), "previous".into()),
            ("Esc".into(), "clear search".into()),
        ]);
    }
    hints.extend(crate::tui::offers::footer(app));
    hints
}

pub(super) fn counters(app: &App) -> String {
    use crate::debate::cost;
    use crate::words::compact;
    let Some((input, output)) = cost::tokens(&app.debate) else { return String::new() };
    let cached = cost::cached_input(&app.debate);
    let cached = if cached > 0 { format!(" ({} cached)", compact(cached)) } else { String::new() };
    // Only when every role that reported usage has a configured price (no guessing).
    match cost::cost(&app.debate, &app.prices()) {
        Some(cost) => format!("tokens {} in{cached} · {} out · ${cost:.4} ", compact(input), compact(output)),
        None => format!("tokens {} in{cached} · {} out ", compact(input), compact(output)),
    }
}
