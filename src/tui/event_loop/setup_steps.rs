//! The start screen's set-up steps as the loop sees them: the offline
//! model's install (begun, its progress, its end) and settings being
//! applied; a proposition typed meanwhile waits and then starts.

use crate::tui::app::App;
use crate::tui::effect::Effect;
use crate::tui::install::{self, InstallMsg, InstallState};
use crate::tui::settings::ConfigureResult;
use crate::tui::studio::Studio;

/// Starts the offline model's install unless one runs.
pub(super) fn begin_install(
    studio: &Studio,
    app: &mut App,
    installing: &mut Option<tokio::sync::mpsc::UnboundedReceiver<InstallMsg>>,
) {
    if let (Some(installer), None) = (&studio.installer, &installing) {
        *installing = Some(install::spawn(installer));
        app.install_begun();
    }
}

/// An install report: progress to show, or the set-up the studio was
/// waiting for (then a proposition typed meanwhile starts); an install
/// that ended lets go of its reports.
pub(super) fn on_install(
    studio: &mut Studio,
    app: &mut App,
    installing: &mut Option<tokio::sync::mpsc::UnboundedReceiver<InstallMsg>>,
    msg: Option<InstallMsg>,
) -> Vec<Effect> {
    let effects = install_report(studio, app, msg);
    if !matches!(app.start.install, Some(InstallState::Running(_))) {
        *installing = None;
    }
    effects
}

fn install_report(studio: &mut Studio, app: &mut App, msg: Option<InstallMsg>) -> Vec<Effect> {
    match msg {
        Some(InstallMsg::Progress(progress)) => {
            app.install_progress(progress);
            Vec::new()
        }
        Some(InstallMsg::Done(done)) => match *done {
            Ok((setup, notices)) => {
                studio.setup = Some(setup);
                studio.installer = None;
                app.installed(&notices).map(Effect::Start).into_iter().collect()
            }
            Err(e) => {
                app.install_failed(format!("{e:#}"));
                Vec::new()
            }
        },
        None => {
            app.install_failed("the install stopped without a word".into());
            Vec::new()
        }
    }
}

/// A proposition typed while settings are applied waits for them.
pub(super) fn wait_for_settings(app: &mut App, topic: String) {
    app.wait_to_start(topic, "The debate starts once the settings are applied");
}

/// Settings applied: the next debate's set-up, roster and rounds change (a
/// proposition typed meanwhile starts, or waits for the offline model's
/// install); settings that could not be applied reopen the form saying why.
pub(super) fn on_configured(studio: &mut Studio, app: &mut App, result: Option<ConfigureResult>) -> Vec<Effect> {
    let configured = match result {
        Some(Ok(configured)) => configured,
        Some(Err(e)) => {
            app.settings_refused(format!("{e:#}"));
            return Vec::new();
        }
        None => {
            app.settings_refused("the settings were not applied: it stopped without a word".into());
            return Vec::new();
        }
    };
    studio.setup = configured.setup;
    studio.installer = configured.installer;
    studio.spec = configured.spec;
    // A proposition typed meanwhile starts now (or once the model is in).
    let seats = (configured.roster, configured.judge_prices);
    let waiting = app.settings_applied(seats, &configured.notices, configured.fields, studio.installer.is_some());
    waiting.map(Effect::Start).into_iter().collect()
}
