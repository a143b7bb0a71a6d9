//! The tokens-and-cost dialog (`$`): each seat's and each panel judge's
//! calls, input (and cached), output and cost, a total, then each round's;
//! a cost stands only where every call has a price (or its agent CLI
//! reported one, which it says), and where one has none the dialog says
//! which key sets it (nothing is guessed).

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

/// The name column's width, the model column's widest, and the numbers' columns together.
const NAME: usize = 14;
const MODEL: usize = 30;
const NUMBERS: usize = 6 + 8 + 8 + 8 + 10;
/// The dialog's widest.
const WIDTH: u16 = 92;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let width = WIDTH.min(area.width);
    // The model column gives way first to a narrow screen (under 6 columns, it goes).
    let room = usize::from(width.saturating_sub(4));
    let model_width = room.saturating_sub(1 + NAME + 1 + NUMBERS).min(MODEL);
    let model_width = if model_width < 6 { 0 } else { model_width };
    let columns = Columns { model: model_width };
    let debate = &app.debate;
    let prices = app.prices();
    let payers = cost::by_payer(debate, &prices);
    let rounds = cost::by_round(debate, &prices);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let muted = app.theme.secondary();
    let mut lines =
        vec![Line::from(Span::styled(columns.row("", "", "calls", "input", "cached", "output", "cost"), bold))];
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
        lines.push(Line::raw(columns.spent(&name, &model, spent)));
        total = total.plus(spent);
    }
    if payers.len() > 1 {
        lines.push(Line::from(Span::styled(columns.spent("Total", "", &total), bold)));
    }
    if !rounds.is_empty() {
        lines.push(Line::raw(""));
        for (round, spent) in &rounds {
            lines.push(Line::raw(columns.spent(&format!("Round {}", round + 1), "", spent)));
        }
    }
    let reported = cost::reported(debate);
    if !reported.is_empty() {
        lines.push(Line::raw(""));
        let names: Vec<String> = reported.iter().map(|payer| clean(&payer.name(debate))).collect();
        let said = format!("{}: the cost as the agent CLI reported it, not a price of heat's.", names.join(", "));
        let wrap = u16::try_from(room.saturating_sub(1)).unwrap_or(u16::MAX);
        lines.extend(crate::tui::wrap::wrap_plain(&said, wrap, muted));
    }
    if !unpriced.is_empty() {
        lines.push(Line::raw(""));
        let said = format!(
            "No price for {}: set roles.<seat>.price_input and price_output (US dollars per million tokens) in heat.toml; none is guessed.",
            unpriced.join(", ")
        );
        let wrap = u16::try_from(room.saturating_sub(1)).unwrap_or(u16::MAX);
        lines.extend(crate::tui::wrap::wrap_plain(&said, wrap, muted));
    }
    let height = u16::try_from(lines.len() + 3).unwrap_or(u16::MAX);
    let rect = centered(area, width, height);
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

/// The table's columns, as wide as the screen allows.
struct Columns {
    /// The model column's width; 0: left out.
    model: usize,
}

impl Columns {
    fn spent(&self, name: &str, model: &str, spent: &Spent) -> String {
        let cost = spent.cost.map_or_else(|| "no price".to_string(), |c| format!("${c:.4}"));
        let numbers = [spent.calls.to_string(), compact(spent.input), compact(spent.cached), compact(spent.output)];
        let [calls, input, cached, output] = numbers;
        self.row(&clean(name), &clean(model), &calls, &input, &cached, &output, &cost)
    }

    #[allow(clippy::too_many_arguments)] // one per column
    fn row(&self, name: &str, model: &str, calls: &str, input: &str, cached: &str, output: &str, cost: &str) -> String {
        let model = if self.model == 0 {
            String::new()
        } else {
            format!(" {:<w$}", truncate(model, self.model), w = self.model)
        };
        format!(" {:<NAME$}{model} {calls:>5} {input:>7} {cached:>7} {output:>7} {cost:>9}", truncate(name, NAME))
    }
}
