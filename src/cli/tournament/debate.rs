//! One debate of a tournament, run headless and recorded as an ordinary
//! session tagged with the tournament: its seats set from the plan (as
//! `--seat` sets them), or a session of it that stopped taken up again
//! where it stopped, so nothing paid for is asked for twice.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::config::FlagValue;
use crate::debate::Outcome;
use crate::debate::PanelJudge;
use crate::debate::cost::Prices;
use crate::debate::engine::{self, DebateHandle, GoOn, Reopening};
use crate::provider::ProviderKind;
use crate::store::tournaments::{Entry, Journal};
use crate::store::{Recorder, Store, label};
use crate::tournament::file::TournamentFile;
use crate::tournament::plan::Planned;
use crate::tournament::progress::Progress;
use crate::tournament::stats::Game;

/// What every debate of one tournament shares.
pub struct Shared {
    pub config_file: Option<PathBuf>,
    /// The person's own flags (`--provider`, `--openai-base-url`, …): the plan's seats win over them.
    pub flags: Vec<FlagValue>,
    pub file: TournamentFile,
    pub tournament: String,
    pub seed: u64,
    pub store: Store,
    /// True once the tournament is to stop: each debate stops where it is.
    pub stop: watch::Receiver<bool>,
    /// True while the person holds the tournament: each debate pauses where it is.
    pub hold: watch::Receiver<bool>,
    pub journal: Mutex<Journal>,
    /// Where the tournament's progress is told.
    pub tell: tokio::sync::mpsc::UnboundedSender<Progress>,
}

impl Shared {
    /// Writes one entry to the tournament's journal.
    pub fn write(&self, entry: &Entry) -> anyhow::Result<()> {
        self.journal.lock().map_err(|_| anyhow::anyhow!("the tournament's journal was left half written"))?.write(entry)
    }

    /// The tag every session of the tournament carries.
    pub fn tag(&self) -> String {
        tag_of(&self.tournament)
    }

    /// Tells the tournament's progress (no one listening is no harm).
    pub fn say(&self, progress: Progress) {
        let _ = self.tell.send(progress);
    }
}

/// The tag a tournament's sessions carry: `tournament-<id>`.
pub fn tag_of(tournament: &str) -> String {
    format!("tournament-{tournament}")
}

/// How a debate of the tournament came out.
#[derive(Debug)]
pub struct Ran {
    pub key: String,
    /// Its session, once it had one.
    pub session: Option<String>,
    pub outcome: Result<Outcome, String>,
    /// The model the judge last named ahead (`neither side` for even).
    pub winner: Option<String>,
    /// Tokens it spent (in and out), and dollars when every call's price is known.
    pub tokens: u64,
    pub usd: Option<f64>,
    /// What the session's recording warned of.
    pub warnings: Vec<String>,
    /// The debate as the statistics count it, once it ended.
    pub game: Option<Game>,
}

/// The flags that seat `planned` as the tournament file says: each seat's
/// provider and model (a panel's judges as `judge`, `judge2`, … as `--seat`
/// names them), the rounds, the format and the seed.
pub fn seat_flags(file: &TournamentFile, planned: &Planned, seed: u64) -> Vec<FlagValue> {
    let flag = |key: String, raw: String| FlagValue { key, raw, flag: file.label.clone() };
    let mut flags = Vec::new();
    let debaters =
        crate::tournament::plan::seats(file, planned).into_iter().map(|(role, m)| (role.key().to_string(), m));
    let judges = file.judges.iter().enumerate().map(|(n, judge)| {
        let seat =
            if n == 0 { "judge".to_string() } else { PanelJudge(u32::try_from(n + 1).unwrap_or(u32::MAX)).key() };
        (seat, judge.text.clone())
    });
    for (role, model) in debaters.chain(judges) {
        let (provider, model) = ProviderKind::split_model(&model);
        if let Some(provider) = provider {
            flags.push(flag(format!("roles.{role}.provider"), provider.to_string()));
        }
        if !model.is_empty() {
            flags.push(flag(format!("roles.{role}.model"), model.to_string()));
        }
    }
    if let Some(rounds) = file.rounds {
        flags.push(flag("debate.max_rounds".into(), rounds.to_string()));
    }
    if let Some(format) = &file.format {
        flags.push(flag("debate.format".into(), format.text.clone()));
    }
    flags.push(flag("debate.seed".into(), seed.to_string()));
    flags
}

/// Runs `planned`: a new session (written to the journal as soon as it
/// exists, before any model is asked), or `session` taken up where it
/// stopped.
pub async fn run(shared: Arc<Shared>, planned: Planned, session: Option<String>) -> Ran {
    let key = planned.key.clone();
    match started(&shared, &planned, session).await {
        Ok((begun, prices)) => {
            let (id, (outcome, state, warnings)) = match begun {
                Begun::Running(handle, recorder) => {
                    (recorder.id().to_string(), record(&shared, handle, recorder).await)
                }
                // It ended before the journal heard: what its log recorded is its result.
                Begun::Ended(recorder) => {
                    let state = recorder.state().clone();
                    let outcome = state.finish.as_ref().map(|f| f.outcome.clone());
                    let outcome = outcome.ok_or_else(|| anyhow::anyhow!("the debate stopped without an ending"));
                    (recorder.id().to_string(), (outcome, state, Vec::new()))
                }
            };
            let tokens = crate::debate::cost::tokens(&state).map_or(0, |(input, output)| input + output);
            let game = crate::tournament::games::game(&id, &state);
            Ran {
                game,
                key,
                session: Some(id),
                outcome: outcome.map_err(|e| format!("{e:#}")),
                winner: winner(&state),
                tokens,
                usd: crate::debate::cost::cost(&state, &prices),
                warnings,
            }
        }
        Err((session, e)) => Ran {
            key,
            session,
            outcome: Err(format!("{e:#}")),
            winner: None,
            tokens: 0,
            usd: None,
            warnings: Vec::new(),
            game: None,
        },
    }
}

type Failed = (Option<String>, anyhow::Error);

/// A debate begun or taken up, or one whose log shows it ended.
enum Begun {
    Running(DebateHandle, Recorder),
    Ended(Recorder),
}

/// The debate begun, or taken up again, with the recorder it writes to.
async fn started(shared: &Shared, planned: &Planned, session: Option<String>) -> Result<(Begun, Prices), Failed> {
    let flags = [shared.flags.clone(), seat_flags(&shared.file, planned, shared.seed)].concat();
    let config = crate::cli::load::config(shared.config_file.as_ref(), &flags).map_err(|e| (session.clone(), e))?;
    let prices = config.prices();
    if let Some(id) = session {
        match take_up(shared, &config, &id).await.map_err(|e| (Some(id.clone()), e))? {
            Some(begun) => return Ok((begun, prices)),
            // Cut off before its debate began (no model was asked): it begins again, anew.
            None => shared.store.delete(&id).map_err(|e| (Some(id.clone()), e))?,
        }
    }
    let mut spec = crate::cli::run::spec(&config).map_err(|e| (None, e))?;
    spec.topic.clone_from(&planned.proposition);
    let setup = engine_setup(&config).await.map_err(|e| (None, e))?;
    if let Some(source) = spec.grounding.source.as_ref() {
        setup.check_fits(source).map_err(|e| (None, e))?;
    }
    let recorder = shared.store.create().map_err(|e| (None, e))?;
    let id = recorder.id().to_string();
    shared
        .write(&Entry::Started { key: planned.key.clone(), session: id.clone() })
        .map_err(|e| (Some(id.clone()), e))?;
    shared.say(Progress::Started { key: planned.key.clone(), session: id.clone() });
    tag(shared, &id).map_err(|e| (Some(id.clone()), e))?;
    Ok((Begun::Running(engine::start(setup, spec), recorder), prices))
}

/// A session of the tournament that stopped, taken up where it stopped, or
/// as it ended when it was cut off after its end (before the journal heard
/// of it); `None` when it stopped before its debate began (its log holds
/// no start).
async fn take_up(shared: &Shared, config: &crate::config::Config, id: &str) -> anyhow::Result<Option<Begun>> {
    let (recorder, _loaded) = shared.store.reopen(id)?;
    let state = recorder.state().clone();
    if !state.began() && state.rounds.is_empty() {
        return Ok(None);
    }
    if state.finish.as_ref().is_some_and(|f| !f.outcome.lifted_on_resume()) {
        return Ok(Some(Begun::Ended(recorder)));
    }
    crate::store::check_continuable(id, &state, 0)?;
    let config = crate::cli::load::as_stored(&config.without_format().clone(), id, &state)?;
    let mut setup = engine_setup(&config).await?;
    setup.library = crate::cli::run::reopened_library(&state);
    Ok(Some(Begun::Running(engine::go_on(setup, state, GoOn::Resume(Reopening::default())), recorder)))
}

/// The engine set-up `config` seats (the offline model was installed
/// before the tournament began).
async fn engine_setup(config: &crate::config::Config) -> anyhow::Result<crate::debate::engine::EngineSetup> {
    crate::cli::run::unattended_setup(config).await.map(|(setup, _notices)| setup)
}

/// Tags session `id` with the tournament.
fn tag(shared: &Shared, id: &str) -> anyhow::Result<()> {
    label::tag_new(shared.store.dir(), id, &[shared.tag()])
}

/// Records every event until the debate ends (stopped when the tournament
/// stops, paused while it is held); how it ended.
async fn record(
    shared: &Shared,
    handle: DebateHandle,
    recorder: Recorder,
) -> (anyhow::Result<Outcome>, crate::debate::DebateState, Vec<String>) {
    let controls = crate::cli::headless::Controls { stop: Some(shared.stop.clone()), hold: Some(shared.hold.clone()) };
    let done = crate::cli::headless::record(handle, recorder, controls, None, |_, _| {}).await;
    let outcome = done.outcome.ok_or_else(|| anyhow::anyhow!("the debate stopped without an ending"));
    (outcome, done.recorder.state().clone(), done.warnings)
}

/// The model the judge (a panel: its ruling) last named ahead, `neither side` when even.
fn winner(state: &crate::debate::DebateState) -> Option<String> {
    use crate::debate::Role;
    use crate::tournament::stats::Pick;
    let role = match crate::tournament::games::ruling(state)? {
        Pick::Advocate => Role::Advocate,
        Pick::Skeptic => Role::Skeptic,
        Pick::Even => return Some("neither side".to_string()),
    };
    state.participant(role).map(|p| format!("{}:{}", p.provider, p.model))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_lineup_and_a_panel_are_seated_as_seat_seats_them() {
        let text = "propositions = [\"p\"]\nlineups = [{ proposition = \"openai:a\", opposition = \"anthropic:b\" }]\n\
                    judge = [\"openai:j1\", \"anthropic:j2\", \"local\"]\nrounds = 2\nformat = \"oxford\"\n";
        let mut file = TournamentFile::parse("t.toml", text, std::path::Path::new(".")).unwrap();
        file.lineups[0].seats[0].role = Some(crate::debate::Role::Advocate);
        file.lineups[0].seats[1].role = Some(crate::debate::Role::Skeptic);
        let planned = crate::tournament::plan::plan(&file, 1).into_iter().find(|p| p.key == "p0-l0s-r0").unwrap();
        let flags: Vec<(String, String)> = seat_flags(&file, &planned, 9).into_iter().map(|f| (f.key, f.raw)).collect();
        let want = [
            ("roles.advocate.provider", "anthropic"),
            ("roles.advocate.model", "b"),
            ("roles.skeptic.provider", "openai"),
            ("roles.skeptic.model", "a"),
            ("roles.judge.provider", "openai"),
            ("roles.judge.model", "j1"),
            ("roles.judge2.provider", "anthropic"),
            ("roles.judge2.model", "j2"),
            ("roles.judge3.provider", "local"),
            ("debate.max_rounds", "2"),
            ("debate.format", "oxford"),
            ("debate.seed", "9"),
        ];
        assert_eq!(flags, want.map(|(k, v)| (k.to_string(), v.to_string())));
    }
}
