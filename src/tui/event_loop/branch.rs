//! A branch started from the studio (`b`): the stored debate is read (never
//! written) and the round checked before anything stops; then what runs
//! stops and is saved, the shared rounds are shown at once, and the branch
//! goes on live as a new session on the studio's providers.

use crossterm::event::EventStream;

use super::running::Running;
use super::session::stop;
use crate::debate::{BranchChanges, DebateEvent, DebateState, engine};
use crate::store::branch;
use crate::store::log::Record;
use crate::tui::app::{App, Tone};
use crate::tui::effect::BranchRequest;
use crate::tui::studio::Studio;

/// Starts the branch `request` asks for in place of what is shown, or says
/// in one sentence why it cannot be (then nothing is stopped).
pub(super) async fn branch_instead(
    studio: &Studio,
    app: &mut App,
    debate: &mut Option<Running>,
    input: &mut EventStream,
    request: &BranchRequest,
) {
    let (shared, state) = match shared_rounds(studio, request) {
        Ok(found) => found,
        Err(e) => {
            app.say(Tone::Error, format!("Could not branch session {}: {e:#}", request.from));
            return;
        }
    };
    let stopped = stop(app, debate, input).await;
    match begin(studio, app, request, (&shared, state)) {
        Ok(running) => {
            let new = running.session.clone().unwrap_or_default();
            let mut said = format!("Branched {} after round {} as {new}", request.from, request.round);
            if let Some(id) = stopped {
                said.push_str(&format!("; {id} was stopped and saved (`heat resume {id}` goes on with it)"));
            }
            app.say(Tone::Info, said);
            *debate = Some(running);
        }
        Err(e) => app.say(Tone::Error, format!("Could not branch session {}: {e:#}", request.from)),
    }
}

/// The records the branch shares with its parent, checked: the round has
/// finished and left the debate open, and the studio can start debates.
fn shared_rounds(studio: &Studio, request: &BranchRequest) -> anyhow::Result<(Vec<Record>, DebateState)> {
    anyhow::ensure!(studio.setup.is_some(), "this studio only replays; run `heat` to branch a debate");
    let mut loaded = studio.store.read_before_round(&request.from, request.round)?;
    let (end, state) = branch::round_end(&request.from, &loaded.records, request.round)?;
    loaded.records.truncate(end);
    Ok((loaded.records, state))
}

/// Records the branch, shows what it shares and starts its engine.
fn begin(
    studio: &Studio,
    app: &mut App,
    request: &BranchRequest,
    (shared, parent): (&[Record], DebateState),
) -> anyhow::Result<Running> {
    let mut setup = studio.setup.clone().ok_or_else(|| anyhow::anyhow!("no providers are set up"))?;
    if request.swap_sides {
        setup = setup.with_sides_swapped();
    }
    if let Some(source) = &parent.source {
        setup.check_fits(source)?;
    }
    let changes = BranchChanges {
        question: request.question.clone(),
        heat: request.heat,
        injected: request.note.iter().cloned().collect(),
        ..BranchChanges::default()
    };
    let seats = if request.swap_sides { vec!["sides swapped".to_string()] } else { Vec::new() };
    let kept = parent.kept_after(request.round).describe(&changes);
    let branched = DebateEvent::Branched {
        from: request.from.clone(),
        round: request.round,
        records: u64::try_from(shared.len()).unwrap_or(u64::MAX),
        how: changes.describe_keeping(seats, &kept),
        participants: setup.participants(&parent.seats()),
        changes,
    };
    let recorder = studio.store.create_branch(shared, parent, &branched)?;
    let last_ms = app.show_stored(recorder.id().to_string(), shared);
    app.on_event_at(&branched, last_ms);
    app.continue_clock(last_ms);
    let handle = engine::go_on(setup, recorder.state().clone(), engine::GoOn::Branch);
    Ok(Running::live(handle, recorder))
}
