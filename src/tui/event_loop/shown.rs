//! What the studio writes about the shown session, beside the debate
//! itself: the Markdown export, the HTML report, the arbiter's summary, and
//! what a person adds after the end (a verdict), kept in its log.

use std::path::PathBuf;

use tokio::sync::mpsc;

use super::running::Running;
use crate::debate::DebateEvent;
use crate::tui::app::{App, Tone, Until};
use crate::tui::effect::Clip;
use crate::tui::export;
use crate::tui::studio::Studio;
use crate::tui::summarize::{self, SummaryMsg};

/// `e`: writes the shown debate as Markdown into the export directory (a
/// replay's from what it plays, the demo included).
pub(super) fn export_shown(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    match debate {
        Some(Running { replayed: Some(loaded), session, .. }) => {
            let label = studio.store.label(&loaded.header.id);
            let debate = (&loaded.header, loaded.records.as_slice());
            let written = export::markdown(&studio.export_dir, debate, &label, session.as_deref());
            say_exported(app, written);
        }
        Some(Running { session: Some(id), .. }) => export_stored(studio, app, id),
        _ => app.say(Tone::Info, "Nothing to export: no stored session is shown"),
    }
}

/// `Y`: the shown debate as its Markdown export (`e` writes the same text
/// to a file), to put on the clipboard: a replay's whole debate, the demo
/// included, else the stored session as its log has it so far.
pub(super) fn debate_clip(studio: &Studio, debate: Option<&Running>) -> Result<Clip, String> {
    let loaded = match debate {
        Some(Running { replayed: Some(loaded), .. }) => loaded.as_ref().clone(),
        Some(Running { session: Some(id), .. }) => {
            studio.store.load(id).map_err(|e| format!("Could not copy the debate: {e:#}"))?
        }
        _ => return Err("Nothing to copy: no stored session is shown".into()),
    };
    Ok(crate::tui::copy::debate(&loaded.header, &loaded.records, &studio.store.label(&loaded.header.id)))
}

/// Writes the shown debate as an HTML report into the data dir's
/// `reports/`, and says where in the results view.
pub(super) fn report_shown(studio: &Studio, app: &mut App, debate: Option<&Running>) {
    let loaded = match debate {
        Some(Running { replayed: Some(loaded), .. }) => Ok(loaded.as_ref().clone()),
        Some(Running { session: Some(id), .. }) => studio.store.load(id),
        _ => {
            app.say(Tone::Info, "Nothing to report: no stored session is shown");
            return;
        }
    };
    let live = debate.is_some_and(|d| d.recorder.is_some()) && app.debate.finish.is_none();
    let prices = app.prices();
    let written = loaded.and_then(|loaded| {
        let label = studio.store.label(&loaded.header.id);
        let context = crate::report::Context { live, skipped: loaded.notices.clone(), prices, label };
        let html = crate::report::html(&loaded.header, &loaded.records, &context)?;
        crate::report::save(&studio.store.reports_dir(), &loaded.header.id, &html)
    });
    match written {
        Ok(path) => {
            app.report_written(&display(&path));
        }
        Err(e) => app.say(Tone::Error, format!("Report failed: `heat report` writes it elsewhere ({e:#})")),
    }
}

/// Records an event the person made after the debate ended (their verdict)
/// and shows it.
pub(super) fn record_shown(studio: &Studio, app: &mut App, debate: &mut Option<Running>, event: &DebateEvent) {
    if let Err(e) = keep(studio, debate, event) {
        app.say(Tone::Warn, format!("Not kept with the session: {e:#}"));
    }
    app.on_event(event);
}

/// Records an event in the shown session after its debate ended: by its
/// recorder, or by reopening the log when the studio only shows it.
fn keep(studio: &Studio, debate: &mut Option<Running>, event: &DebateEvent) -> anyhow::Result<()> {
    let warned = |warning: Option<String>| warning.map_or(Ok(()), |w| Err(anyhow::anyhow!(w)));
    match debate {
        Some(Running { recorder: Some(recorder), .. }) => warned(recorder.record(event)),
        Some(Running { session: Some(id), .. }) => {
            let (mut recorder, _) = studio.store.reopen(id)?;
            warned(recorder.record(event))
        }
        _ => Err(anyhow::anyhow!("the shown debate is not stored")),
    }
}

/// Starts the arbiter's summary, its draft shown in the results view.
pub(super) fn begin_summary(studio: &Studio, app: &mut App) -> Option<mpsc::UnboundedReceiver<SummaryMsg>> {
    match summarize::start(studio, &app.debate) {
        Ok(rx) => {
            app.summary_asked();
            Some(rx)
        }
        Err(why) => {
            app.say_until(Tone::Info, why, Until::NextRound);
            None
        }
    }
}

/// A summary's text goes into the results view; once whole it is recorded
/// in the session (reopened for it when the studio holds it only to show)
/// and folded into the studio.
pub(super) fn on_summary(
    studio: &Studio,
    app: &mut App,
    debate: &mut Option<Running>,
    summarizing: &mut Option<mpsc::UnboundedReceiver<SummaryMsg>>,
    msg: Option<SummaryMsg>,
) {
    match msg {
        Some(SummaryMsg::Text(piece)) => app.summary_piece(piece.as_deref()),
        Some(SummaryMsg::Done(Ok(event))) => {
            *summarizing = None;
            let recorded = keep(studio, debate, &event);
            app.on_event(&event);
            app.summary_over();
            match recorded {
                Ok(()) => app.say_until(Tone::Good, "Summary written and kept with the session", Until::NextRound),
                Err(e) => app.say(Tone::Warn, format!("Summary written but not kept: {e:#}")),
            }
        }
        Some(SummaryMsg::Done(Err(e))) => {
            *summarizing = None;
            app.summary_over();
            app.say(Tone::Error, format!("{e:#}"));
        }
        None => *summarizing = None,
    }
}

/// Writes a stored debate as Markdown into the export directory.
pub(super) fn export_stored(studio: &Studio, app: &mut App, id: &str) {
    let written = match studio.store.load(id) {
        Ok(loaded) => {
            let debate = (&loaded.header, loaded.records.as_slice());
            export::markdown(&studio.export_dir, debate, &studio.store.label(id), Some(id))
        }
        Err(e) => Err(format!("Export failed: {e:#}")),
    };
    say_exported(app, written);
}

fn say_exported(app: &mut App, written: Result<PathBuf, String>) {
    match written {
        Ok(path) => app.say_until(Tone::Good, format!("Exported to {}", display(&path)), Until::NextRound),
        Err(sentence) => app.say(Tone::Error, sentence),
    }
}

fn display(path: &std::path::Path) -> String {
    std::path::absolute(path).unwrap_or_else(|_| PathBuf::from(path)).display().to_string()
}
