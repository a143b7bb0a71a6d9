//! The start screen's settings form: one row per field (the chosen one
//! marked), a provider or the format shown as a choice to step through, a model's empty
//! field as the provider's default, then what is wrong and the keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::dialog::centered;
use super::dialog::{frame_box, hint_line, split_last};
use crate::debate::Role;
use crate::tui::app::App;
use crate::tui::model_pick::{Listing, SHOWN};
use crate::tui::settings::{LABELS, SOURCE_FIELD, SettingsForm, seat_of};
use crate::words::count as counted;
use unicode_width::UnicodeWidthStr;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, form: &SettingsForm) {
    let theme = &app.theme;
    let beyond = form.seats_beyond();
    // One row under the fields is kept for the chosen model field's list, so the form does not jump.
    let height = u16::try_from(LABELS.len()).unwrap_or(8) + 8 + u16::from(!beyond.is_empty());
    let rect = centered(area, 84, height);
    let inner = frame_box(frame, app, rect, " Settings for the next debate ");
    let [body, hint] = split_last(inner);
    let chosen_style = Style::new().fg(theme.bar_bg).bg(theme.key).add_modifier(Modifier::BOLD);
    let chosen_style = if theme.color { chosen_style } else { chosen_style.add_modifier(Modifier::REVERSED) };
    // The seats go by the chosen format's names: the column is as wide as the longest.
    let labels: Vec<String> = (0..LABELS.len())
        .map(|i| match seat_of(i) {
            Some(_) if LABELS[i].starts_with(' ') => format!("  {}", form.label(i)),
            _ => form.label(i),
        })
        .collect();
    let column = labels.iter().map(|l| l.width()).max().unwrap_or(0).max(11) + 1;
    let judges = form.judges();
    let mut lines = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        let chosen = i == form.chosen;
        let faulty = form.error.as_ref().is_some_and(|(at, _)| *at == Some(i));
        let seat = seat_of(i);
        let label_style = match (seat, faulty) {
            (_, true) => Style::new().fg(theme.error).add_modifier(Modifier::BOLD),
            (Some(role), _) if role.is_judge() && judges == 0 => theme.secondary(),
            (Some(role), _) => Style::new().fg(theme.role(role)),
            _ => Style::new(),
        };
        let text = &form.fields[i];
        let value = match i {
            _ if form.is_choice(i) => {
                Span::styled(format!("‹ {text} ›"), if chosen { chosen_style } else { Style::new() })
            }
            SOURCE_FIELD if text.is_empty() && !chosen => {
                Span::styled("none: a file, or a folder to read as a library", theme.secondary())
            }
            _ if text.is_empty() && !chosen => Span::styled(default_model(app, form, i), theme.secondary()),
            _ if chosen => Span::styled(format!("{text}▏"), chosen_style),
            _ => Span::raw(text.clone()),
        };
        let pad = column.saturating_sub(label.width());
        let mut spans = vec![Span::styled(format!(" {label}{}", " ".repeat(pad)), label_style), value];
        if i == 1 {
            spans.push(Span::styled("  0.30 cool … 1.00 hot", theme.secondary()));
        }
        // What the judge's row stands for in this format: a panel, or nobody.
        if seat.is_some_and(Role::is_judge) && form.is_choice(i) {
            let note = match judges {
                0 => Some("  no judge sits in this format".to_string()),
                1 => None,
                n => Some(format!("  · a panel of {}", counted(n as usize, "judge"))),
            };
            spans.extend(note.map(|note| Span::styled(note, theme.secondary())));
        }
        lines.push(Line::from(spans));
        // The chosen model field's list sits under it; the row is kept blank at the end otherwise.
        if chosen && form.listing_provider(i).is_some() {
            lines.push(model_list(app, form, body.width));
        }
    }
    if form.listing_provider(form.chosen).is_none() {
        lines.push(Line::default());
    }
    if !beyond.is_empty() {
        let names = beyond.join(", ");
        lines.push(Line::from(Span::styled(
            format!(" {names}: chosen by heat.toml's roles or the command line, not here"),
            theme.secondary(),
        )));
    }
    lines.push(Line::default());
    match &form.error {
        Some((_, why)) => lines.push(Line::from(Span::styled(why.clone(), Style::new().fg(theme.error)))),
        None => lines.push(Line::from(Span::styled(
            "Remembered for the next start (studio.toml in the data dir); heat.toml is not changed.",
            theme.secondary(),
        ))),
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    let keys = "↑/↓ field · ←/→ a choice or a listed model · type a value · Enter saves · Esc cancels";
    frame.render_widget(Paragraph::new(hint_line(app, keys, hint.width)), hint);
}

/// The chosen model field's list: the models its provider's server lists
/// that hold what was typed, the one stepped to marked; or that it is
/// being asked, or why there is none. Blank on any other field.
fn model_list(app: &App, form: &SettingsForm, width: u16) -> Line<'static> {
    let theme = &app.theme;
    let Some(provider) = form.listing_provider(form.chosen) else { return Line::default() };
    let listing = form.models.listing(&provider);
    let dim = |text: String| Line::from(Span::styled(text, theme.secondary()));
    match listing {
        // An agent CLI lists nothing: it takes the name it is given, or runs its own default.
        None if crate::provider::ProviderKind::from_name(&provider)
            .is_some_and(crate::provider::ProviderKind::is_agent) =>
        {
            dim(format!("   {provider} is an agent CLI: type a model it takes (empty: its own default)"))
        }
        None => Line::default(),
        Some(Listing::Asking) => dim(format!("   asking {provider} for its models…")),
        Some(Listing::None(why)) => dim(format!("   no list from {provider} ({}): type the name", clean(why))),
        Some(Listing::Listed(all)) => {
            let matches = form.models.matches(&provider);
            if matches.is_empty() {
                return dim(format!(
                    "   none of {}'s {} models holds that: the typed name is taken",
                    provider,
                    all.len()
                ));
            }
            let at = form.models.at();
            // The window of matches around the one stepped to.
            let start = at.map_or(0, |at| at.saturating_sub(SHOWN - 1));
            let mut spans = vec![Span::styled(
                format!("   {} of {} · ", matches.len(), counted(all.len(), "model")),
                theme.secondary(),
            )];
            let mut used = spans[0].content.width();
            for (i, model) in matches.iter().enumerate().skip(start).take(SHOWN) {
                let text = clean(model);
                if used + text.width() + 3 > usize::from(width) {
                    spans.push(Span::styled("…", theme.secondary()));
                    break;
                }
                used += text.width() + 3;
                let style = if at == Some(i) { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
                spans.push(Span::styled(text, style));
                spans.push(Span::raw("   "));
            }
            Line::from(spans)
        }
    }
}

/// Untrusted text (a server's model names, its error) made safe to draw.
fn clean(text: &str) -> String {
    crate::sanitize::clean(text)
}

/// What an empty model field stands for: the model the role uses now
/// when its provider is unchanged, else the provider's default.
fn default_model(app: &App, form: &SettingsForm, field: usize) -> String {
    let role = Role::ALL[(field - 2) / 2];
    let unchanged = app.start.settings.as_ref().is_some_and(|f| f[field - 1] == form.fields[field - 1]);
    match app.roster.iter().find(|r| r.role == role) {
        Some(entry) if unchanged && !entry.model.is_empty() => {
            format!("default: {}", crate::sanitize::clean(&entry.model))
        }
        _ => {
            // A provider newly chosen: its row's usual model, or the first its server lists.
            let kind = crate::provider::ProviderKind::from_name(&form.fields[field - 1]);
            match kind.filter(|k| k.is_server()).map(|k| k.row().model) {
                Some(Some(model)) => format!("default: {model}"),
                Some(None) => "default: the first model its server lists".to_string(),
                None => "the provider's default".to_string(),
            }
        }
    }
}
