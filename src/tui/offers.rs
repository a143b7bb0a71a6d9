//! Which keys work where the person is (a live debate, an ended or stored
//! one, a replay, a watch), read from the one key table: help lists every
//! action offered here, the footer as many as fit, most important first.

use std::borrow::Cow;

use super::app::{App, Replay};
use super::keymap::{Action, Binding};

/// Where the person is, as far as the keys are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// A debate running here, steered from this keyboard.
    Live,
    /// A debate that has ended, or a stored one shown as it stands.
    Ended,
    /// A stored debate (or the demo) being played back.
    Replay,
    /// A replay that has shown everything.
    ReplayEnded,
    /// Another heat's debate, followed read-only.
    Watch,
    /// Another heat's debate, followed, that heat taking steering from here.
    SteeredWatch,
}

/// Where the person is.
pub fn view(app: &App) -> View {
    match app.replay {
        _ if app.watching() && app.steers_here() => View::SteeredWatch,
        _ if app.watching() => View::Watch,
        Some(Replay::Ended) => View::ReplayEnded,
        Some(_) => View::Replay,
        None if app.live() => View::Live,
        None => View::Ended,
    }
}

/// Whether `action` does what help says of it where the person is, so
/// help lists it and the footer may offer it. An action bound to no key is
/// offered nowhere. (One may still say why not now: a branch wants a
/// finished round; what is offered is what the view can do.)
pub fn offers(app: &App, action: Action) -> bool {
    offers_in(app, action, view(app))
}

/// Whether `action` is offered in `view` (the start screen's help lists
/// what a live debate offers).
pub fn offers_in(app: &App, action: Action, view: View) -> bool {
    if app.keymap.all_keys(action).is_empty() {
        return false;
    }
    let shown = app.session.is_some() || app.start.is_open();
    match action {
        // In a replay, space pauses the playback; the rest of steering is a live debate's.
        Action::TogglePause => matches!(view, View::Live | View::Replay | View::SteeredWatch),
        _ if action.steers() => matches!(view, View::Live | View::SteeredWatch),
        Action::Faster | Action::Slower | Action::NextRound => view == View::Replay,
        Action::NewDebate => app.starts_debates(),
        Action::Sessions => !matches!(view, View::Watch | View::SteeredWatch),
        Action::HumanVerdict => shown && matches!(view, View::Live | View::Ended | View::SteeredWatch),
        // A branch goes on live: only a studio that starts debates has the providers.
        Action::Branch => shown && app.starts_debates() && matches!(view, View::Live | View::Ended),
        // The page of a stored debate: a live one, or one another heat runs or ran.
        Action::Audience => shown && matches!(view, View::Live | View::Ended | View::Watch | View::SteeredWatch),
        // Only a format that keeps an argument map has one to show.
        Action::Map => shown && app.debate.map().is_some(),
        Action::Results
        | Action::Export
        | Action::Copy
        | Action::CopyDebate
        | Action::Search
        | Action::Costs
        | Action::Sent => shown,
        _ => true,
    }
}

/// The keys the footer offers where the person is, most important first:
/// the table's rows offered there, by rank, each with its first key and its
/// name as it reads now ("resume" while paused). The heat's two keys show
/// one at a time: pin while it is free, release once pinned; taking back
/// shows while something waits.
pub fn footer(app: &App) -> Vec<(String, Cow<'static, str>)> {
    let pinned = app.debate.pinned_heat.is_some();
    let mut rows: Vec<&Binding> = Action::TABLE
        .iter()
        .filter(|row| offers(app, row.action))
        .filter(|row| match row.action {
            Action::Temperature => !pinned,
            Action::ReleaseTemperature => pinned,
            // Offered while something waits to be taken back.
            Action::TakeBack => !app.debate.waiting().is_empty(),
            _ => true,
        })
        .collect();
    rows.sort_by_key(|row| row.rank);
    rows.into_iter().map(|row| (app.keymap.hint(row.action), short_name(app, row))).collect()
}

/// What the footer calls an action now.
fn short_name(app: &App, row: &Binding) -> Cow<'static, str> {
    match (row.action, app.replay) {
        (Action::TogglePause, Some(Replay::Paused)) => "resume replay".into(),
        (Action::TogglePause, Some(_)) => "pause replay".into(),
        (Action::TogglePause, None) if app.paused() => "resume".into(),
        _ => row.short.into(),
    }
}
