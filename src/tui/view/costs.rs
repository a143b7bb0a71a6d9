//! The tokens-and-cost dialog (`$`): each seat's and each panel judge's
//! calls, input (and cached), output and cost, a total, then each round's;
//! a cost stands only where every call has a price, and where one has none
//! the dialog says which key sets it (nothing is guessed).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::debate::cost::{self, Payer, Spent};
use crate::debate::{DebateState, Role, panel};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::wrap::truncate;
use crate::words::compact;

/// The name column's and the model column's widths.
const NAME: usize = 14;
const MODEL: usize = 30;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let debate = &app.debate;
    let prices = app.prices();
    let payers = cost::by_payer(debate, &prices);
    let rounds = cost::by_round(debate, &prices);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let muted = app.theme.secondary();
    let mut lines = vec![Line::from(Span::styled(row("", "", "calls", "input", "cached", "output", "cost"), bold))];
    if payers.is_empty() {
        lines.push(Line::from(Span::styled("No call has reported its tokens yet.", muted)));
    }
    let mut total = Spent::default();
    let mut unpriced = Vec::new();
    for (payer, spent) in &payers {
        let (name, model, key) = who(debate, *payer);
        if spent.cost.is_none() {
            unpriced.push(key);
        }
        lines.push(Line::raw(spent_row(&name, &model, spent)));
        total = sum(total, spent);
    }
    if payers.len() > 1 {
        lines.push(Line::from(Span::styled(spent_row("Total", "", &total), bold)));
    }
    if !rounds.is_empty() {
        lines.push(Line::raw(""));
        for (round, spent) in &rounds {
            lines.push(Line::raw(spent_row(&format!("Round {}", round + 1), "", spent)));
        }
    }
    if !unpriced.is_empty() {
        lines.push(Line::raw(""));
        let said = format!(
            "No price for {}: set roles.<seat>.price_input and price_output (US dollars per million tokens) in heat.toml; none is guessed.",
            unpriced.join(", ")
        );
        lines.extend(crate::tui::wrap::wrap_plain(&said, 86, muted));
    }
    let height = u16::try_from(lines.len() + 3).unwrap_or(u16::MAX);
    let rect = centered(area, 92, height);
    let inner = frame_box(frame, app, rect, " Tokens and cost ");
    let [body, hint] = split_last(inner);
    frame.render_widget(Paragraph::new(lines), body);
    frame.render_widget(Paragraph::new(hint_line(app, "Esc closes", hint.width)), hint);
}

/// A payer's name, model and the config key of its price.
fn who(debate: &DebateState, payer: Payer) -> (String, String, String) {
    match payer {
        Payer::Seat(role) => {
            let model = debate.participant(role).map(|p| format!("{}/{}", p.provider, p.model)).unwrap_or_default();
            (debate.label(role).to_string(), model, format!("roles.{}", role.key()))
        }
        Payer::PanelJudge(judge) => {
            let model = match (panel::provider_of(debate, judge), panel::model_of(debate, judge)) {
                (Some(provider), Some(model)) => format!("{provider}/{model}"),
                (Some(provider), None) => provider.to_string(),
                (None, Some(model)) => model.to_string(),
                (None, None) => debate
                    .participant(Role::Judge)
                    .map(|p| format!("{}/{} (the chair's)", p.provider, p.model))
                    .unwrap_or_default(),
            };
            (format!("Judge {judge}"), model, format!("roles.{}", judge.key()))
        }
    }
}

fn sum(a: Spent, b: &Spent) -> Spent {
    let cost = match (a.calls, a.cost, b.cost) {
        (0, _, cost) => cost,
        (_, Some(x), Some(y)) => Some(x + y),
        _ => None,
    };
    Spent {
        calls: a.calls + b.calls,
        input: a.input + b.input,
        cached: a.cached + b.cached,
        output: a.output + b.output,
        cost,
    }
}

fn spent_row(name: &str, model: &str, spent: &Spent) -> String {
    let cost = spent.cost.map_or_else(|| "no price".to_string(), |c| format!("${c:.4}"));
    row(
        &clean(name),
        &clean(model),
        &spent.calls.to_string(),
        &compact(spent.input),
        &compact(spent.cached),
        &compact(spent.output),
        &cost,
    )
}

fn row(name: &str, model: &str, calls: &str, input: &str, cached: &str, output: &str, cost: &str) -> String {
    format!(
        " {:<NAME$} {:<MODEL$} {calls:>5} {input:>7} {cached:>7} {output:>7} {cost:>9}",
        truncate(name, NAME),
        truncate(model, MODEL)
    )
}
