//! One frame of the studio: the state laid out for the terminal's size
//! (each pane fitted to where it goes, a dialog read by scrolling to the
//! rows it has), then drawn
//! from the state, which the drawing only reads.

use ratatui::Frame;

use super::app::App;
use super::view::{self, Retained};

/// Lays out `app` for `frame`'s size and draws it. `retained` is what the
/// terminal drawn on showed at its last frame: one per terminal.
pub fn render(frame: &mut Frame<'_>, app: &mut App, retained: &mut Retained) {
    let area = frame.area();
    let plan = view::plan(app, area);
    app.lay_out(plan.panes, view::paged_fit(app, area));
    let tabs = view::tab_areas(app, &plan);
    app.tabs_drawn(tabs);
    view::draw(frame, app, &plan, retained);
}
