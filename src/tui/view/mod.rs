//! Drawing: the screen's layout (`Plan`) and the root `draw`, a function of
//! the `App` that only reads it: the panes are laid out beforehand
//! (`tui::render`, `App::lay_out`).

mod agreement;
mod argument_map;
mod big;
mod border;
mod branch;
mod card;
mod costs;
mod dialog;
mod grid;
mod header;
mod help;
mod line;
mod overlay;
mod pane_frame;
mod results;
mod retained;
mod sent;
mod sessions;
mod settings;
mod start;
mod status;
mod strip;
mod waiting;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub use retained::Retained;

use super::app::App;
use super::modal::Modal;
use super::stage::Stage;
use crate::debate::Role;

/// The smallest terminal the studio draws in.
pub const MIN_WIDTH: u16 = 50;
pub const MIN_HEIGHT: u16 = 12;
/// At or above this width the panes of the seats that sit are all drawn
/// (side by side, or in two rows: `grid`); below, one pane shows at a time
/// under a tab bar.
pub const SIDE_BY_SIDE: u16 = 120;
/// From this width presenter mode sets the debaters side by side over the
/// judge's strip; below, one pane shows at a time as it does without.
pub const PRESENT_SIDE_BY_SIDE: u16 = 80;

/// Where everything goes on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Plan {
    pub header: Rect,
    pub tabs: Option<Rect>,
    /// Each pane's outer area; a hidden pane's is empty.
    pub panes: [Rect; Role::COUNT],
    /// Presenter mode's strip under the debaters: the judge's latest
    /// verdict, the heat and the next question (the judge's pane is hidden).
    pub strip: Option<Rect>,
    /// Where one pane shows at a time and it is not the judge's: a band
    /// under it with the judge's latest verdict, so a round's result stays
    /// in view once the next round starts.
    pub band: Option<Rect>,
    pub status: Rect,
    pub too_small: bool,
}

impl Plan {
    /// What lies between the header and the status area.
    pub fn body(&self) -> Rect {
        let top = self.header.bottom();
        Rect { x: self.header.x, y: top, width: self.header.width, height: self.status.y.saturating_sub(top) }
    }

    /// The layout for the seats that sit (`seats`, in screen order), one
    /// pane showing on a narrow screen: the focused one (a row in per-seat
    /// tables), or the first seat's when the focused one does not sit.
    /// `status_rows` is what the status area needs (see `status::rows`);
    /// `band_rows` what the verdict band takes where it shows (none before
    /// the first verdict). `stage`: a zoomed pane takes the whole body;
    /// presenter mode sets the debaters side by side over the judge's strip.
    pub fn new(area: Rect, focus: usize, seats: &[Role], rows: Rows, stage: &Stage) -> Plan {
        let Rows { status: status_rows, band: band_rows } = rows;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return Plan { too_small: true, ..Plan::default() };
        }
        let [header, body, status] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(3), Constraint::Length(status_rows.max(1))])
                .areas(area);
        let sits = seats.iter().any(|r| r.position() == focus);
        if stage.zoomed && sits {
            let mut panes = [Rect::default(); Role::COUNT];
            panes[focus] = body;
            return Plan { header, tabs: None, panes, strip: None, band: None, status, too_small: false };
        }
        let judged = seats.contains(&Role::Judge);
        if stage.present && judged && area.width >= PRESENT_SIDE_BY_SIDE {
            let strip_rows = (body.height / 3).clamp(7, 10).min(body.height.saturating_sub(3));
            let [top, strip] = Layout::vertical([Constraint::Min(3), Constraint::Length(strip_rows)]).areas(body);
            let debaters: Vec<Role> = seats.iter().copied().filter(|r| !r.is_judge()).collect();
            let panes = grid::areas(top, &debaters);
            return Plan { header, tabs: None, panes, strip: Some(strip), band: None, status, too_small: false };
        }
        if area.width >= SIDE_BY_SIDE || (stage.present && area.width >= PRESENT_SIDE_BY_SIDE) {
            let panes = grid::areas(body, seats);
            return Plan { header, tabs: None, panes, strip: None, band: None, status, too_small: false };
        }
        let shown = if sits { focus } else { seats.first().map_or(focus, |r| r.position()) };
        // The band shows the judge's verdict under another seat's pane, where the pane keeps 5 rows.
        let band_rows =
            if judged && shown != Role::Judge.position() && body.height >= band_rows + 6 { band_rows } else { 0 };
        let [tabs, pane, band] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(band_rows)]).areas(body);
        let mut panes = [Rect::default(); Role::COUNT];
        panes[shown] = pane;
        let band = (band_rows > 0).then_some(band);
        Plan { header, tabs: Some(tabs), panes, strip: None, band, status, too_small: false }
    }
}

/// The rows the parts under the panes take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rows {
    /// The status area's (see `status::rows`).
    pub status: u16,
    /// The verdict band's, where it shows (see `strip::band_rows`).
    pub band: u16,
}

/// Where everything goes on a screen of `area` for what `app` shows.
pub fn plan(app: &App, area: Rect) -> Plan {
    let rows = Rows { status: status::rows(app, area.width, area.height), band: strip::band_rows(app, area.height) };
    Plan::new(area, app.panes.focus, &app.seats(), rows, &app.stage)
}

/// Where each seat's tab is, on a screen laid out by `plan` (none when the
/// panes sit side by side).
pub fn tab_areas(app: &App, plan: &Plan) -> [Rect; Role::COUNT] {
    plan.tabs.map_or([Rect::default(); Role::COUNT], |tabs| pane_frame::tab_areas(app, tabs))
}

/// While a dialog read by scrolling is open (help, what a turn was sent,
/// the map): its rows in all, and how many `area` shows.
pub fn paged_fit(app: &App, area: Rect) -> Option<crate::tui::paged::Fit> {
    use crate::tui::paged::Fit;
    let (total, rows) = match &app.modal {
        Some(Modal::Help(_)) => help::fit(app, area),
        Some(Modal::Sent(view)) => sent::fit(app, view, area),
        Some(Modal::Map(view)) => return Some(argument_map::fit(app, view, area)),
        Some(Modal::Results(view)) => results::fit(app, view, area),
        _ => return None,
    };
    Some(Fit::lines(total, rows))
}

/// Draws one frame of `app`, laid out beforehand for `plan` (see
/// `tui::render`). `retained` is what the terminal drawn on showed at its
/// last frame: one per terminal.
pub fn draw(frame: &mut Frame<'_>, app: &App, plan: &Plan, retained: &mut Retained) {
    let shown = draw_parts(frame, app, retained, plan);
    retained.record(frame.count(), shown);
}

/// Draws the screen; returns what each pane's text area shows (see
/// `retained`): nothing for a pane drawn over by a dialog.
fn draw_parts(frame: &mut Frame<'_>, app: &App, retained: &Retained, plan: &Plan) -> [Option<u64>; Role::COUNT] {
    let area = frame.area();
    // A theme's text colour and background go under every cell first.
    let base = app.theme.base();
    if base != Style::new() {
        frame.buffer_mut().set_style(area, base);
    }
    let mut shown = [None; Role::COUNT];
    if plan.too_small {
        too_small(frame, app, area);
        return shown;
    }
    if app.start.is_open() {
        start::draw(frame, app, area);
    } else {
        header::draw(frame, app, plan.header);
        if let Some(tabs) = plan.tabs {
            pane_frame::tabs(frame, app, tabs);
        }
        for (i, pane_area) in plan.panes.iter().enumerate() {
            if !pane_area.is_empty() {
                shown[i] = pane_frame::draw(frame, app, retained, i, *pane_area);
            }
        }
        if let Some(strip) = plan.strip {
            strip::draw(frame, app, strip);
        }
        if let Some(band) = plan.band {
            strip::band(frame, app, band);
        }
        status::draw(frame, app, plan.status);
        if let (None, Some(card)) = (&app.modal, app.stage.card) {
            card::draw(frame, app, plan.body(), card);
            shown = [None; Role::COUNT];
        }
    }
    // The search prompt sits in the status line, over no pane.
    if app.modal.is_some() && !matches!(app.modal, Some(Modal::Search(_))) {
        overlay::draw(frame, app, area);
        shown = [None; Role::COUNT];
    }
    shown
}

fn too_small(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let bold = Style::new().fg(app.theme.warn).add_modifier(Modifier::BOLD);
    let text = vec![
        Line::from(Span::styled("terminal too small", bold)),
        Line::from(format!("need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{}", area.width, area.height)),
    ];
    let top = area.height.saturating_sub(2) / 2;
    let rect = Rect { y: area.y + top, height: area.height.saturating_sub(top).min(4), ..area };
    frame.render_widget(Paragraph::new(text).centered().wrap(Wrap { trim: true }), rect);
}
