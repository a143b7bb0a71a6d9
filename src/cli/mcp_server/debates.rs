//! The debates `heat mcp` runs: each begun as an ordinary session tagged
//! `mcp` (so a person can `heat watch` it or find it with `heat sessions
//! --tag mcp`), recorded event by event on a task of its own, steered by
//! command, and followed by the tools that wait on it. The run's bounds
//! (debates at once, spend) are held as each starts and as it spends.

use crate::cli::headless::{Controls, Seen};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::limits::{Limits, Spent};
use super::tools::{Action, Start, Steer};
use crate::config::FlagValue;
use crate::debate::engine::{self, DebateHandle};
use crate::debate::{Command, DebateEvent, Heat};
use crate::store::{Recorder, Store, label};

/// The tag every debate `heat mcp` starts carries.
pub const TAG: &str = "mcp";

/// Where a running debate stands, as the tools that wait on it see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    pub round: u32,
    /// Verdicts reached so far.
    pub verdicts: u32,
    /// Turns completed so far.
    pub turns: u64,
    /// Changes worth telling so far (a round begun, a turn, a verdict, a
    /// pause, the end): it grows with each, so a client's progress does.
    pub steps: u64,
    /// What it is doing now, in words.
    pub doing: String,
    pub tokens: u64,
    pub usd: Option<f64>,
    /// How it ended, in words, once it has.
    pub ended: Option<String>,
}

impl Progress {
    /// What the reading tools say of it.
    pub fn running(&self) -> super::reading::Run {
        super::reading::Run { ongoing: self.ended.is_none(), tokens: self.tokens, usd: self.usd }
    }
}

struct Live {
    commands: mpsc::UnboundedSender<Command>,
    progress: watch::Receiver<Progress>,
}

/// A debate begun.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Started {
    pub session: String,
    pub proposition: String,
    pub format: String,
    pub max_rounds: u32,
}

/// The debates one `heat mcp` runs.
pub struct Debates {
    live: Mutex<HashMap<String, Live>>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    pub limits: Limits,
    pub store: Store,
    config_file: Option<PathBuf>,
    flags: Vec<FlagValue>,
    /// A session's id each time it changes as a resource does (a verdict, the end).
    changed: mpsc::UnboundedSender<String>,
}

impl Debates {
    pub fn new(
        limits: Limits,
        store: Store,
        (config_file, flags): (Option<PathBuf>, Vec<FlagValue>),
        changed: mpsc::UnboundedSender<String>,
    ) -> Debates {
        Debates {
            live: Mutex::new(HashMap::new()),
            tasks: Mutex::new(Vec::new()),
            limits,
            store,
            config_file,
            flags,
            changed,
        }
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Debates still running.
    pub fn running(&self) -> usize {
        self.live().values().filter(|l| l.progress.borrow().ended.is_none()).count()
    }

    /// What every debate of this run has spent.
    pub fn spent(&self) -> Spent {
        self.live().values().fold(Spent::default(), |spent, live| {
            let progress = live.progress.borrow();
            Spent { tokens: spent.tokens + progress.tokens, usd: spent.usd + progress.usd.unwrap_or(0.0) }
        })
    }

    /// The session `id` (or its start) names.
    pub fn resolve(&self, id: &str) -> Result<String, String> {
        self.store.resolve(Some(id.trim())).map_err(|e| format!("{e:#}"))
    }

    /// A running (or ended) debate of this run to follow; `None` for one
    /// this server did not start.
    pub fn follow(&self, session: &str) -> Option<watch::Receiver<Progress>> {
        self.live().get(session).map(|l| l.progress.clone())
    }

    /// Begins the debate `start` asks for, or says in one sentence why not.
    pub async fn start(self: &Arc<Self>, start: Start) -> Result<Started, String> {
        if let Some(why) = self.limits.refuses_start(self.running(), self.spent()) {
            return Err(why);
        }
        let proposition = crate::sanitize::one_line(&start.proposition);
        if proposition.is_empty() {
            return Err("the proposition is empty; give one sentence to debate".into());
        }
        let sources = self.limits.sources(&start.sources)?;
        let flags = [self.flags.clone(), self.flags_for(&start, &sources)].concat();
        let seats: Vec<String> = start.seats.iter().map(|(seat, model)| format!("{seat}={model}")).collect();
        let config = crate::cli::load::seated(self.config_file.as_ref(), &flags, &seats)
            .map_err(|e| format!("{e:#}").replace("--seat", "seats"))?;
        let (handle, recorder, started) = self.begin(&config, proposition).await.map_err(|e| format!("{e:#}"))?;
        let (sender, progress) = watch::channel(Progress { doing: "starting".into(), ..Progress::default() });
        self.live().insert(started.session.clone(), Live { commands: handle.commander(), progress });
        let task = tokio::spawn(record(Arc::clone(self), handle, recorder, sender, config.prices()));
        self.tasks.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(task);
        Ok(started)
    }

    /// The config flags `start` sets: format, rounds, sources, and what the
    /// run has left to spend as the debate's own budget.
    fn flags_for(&self, start: &Start, sources: &[String]) -> Vec<FlagValue> {
        let flag = |key: &str, raw: String| FlagValue { key: key.into(), raw, flag: "start_debate".into() };
        let mut flags = Vec::new();
        if let Some(format) = &start.format {
            flags.push(flag("debate.format", format.clone()));
        }
        if let Some(rounds) = start.rounds {
            flags.push(flag("debate.max_rounds", rounds.to_string()));
        }
        flags.extend(sources.iter().map(|s| flag("debate.source", s.clone())));
        let (tokens, usd) = self.limits.left(self.spent());
        if let Some(tokens) = tokens {
            flags.push(flag("debate.budget_tokens", tokens.max(1).to_string()));
        }
        if let Some(usd) = usd {
            flags.push(flag("debate.budget_usd", format!("{usd:.6}")));
        }
        flags
    }

    /// The engine started on a new session tagged `mcp`.
    async fn begin(
        &self,
        config: &crate::config::Config,
        proposition: String,
    ) -> anyhow::Result<(DebateHandle, Recorder, Started)> {
        let mut spec = crate::cli::run::spec(config)?;
        spec.topic = proposition;
        let (setup, notices) = crate::cli::run::unattended_setup(config).await?;
        if setup.person_desk().is_some() {
            anyhow::bail!(
                "a person cannot sit in a seat of a debate heat mcp runs (no one answers at its keyboard): name a model"
            );
        }
        for notice in notices {
            tracing::info!("heat mcp: {notice}");
        }
        if let Some(source) = spec.grounding.source.as_ref() {
            setup.check_fits(source)?;
        }
        let recorder = self.store.create()?;
        let session = recorder.id().to_string();
        label::tag_new(self.store.dir(), &session, &[TAG.to_string()])?;
        let started = Started {
            session,
            proposition: spec.topic.clone(),
            format: spec.format.as_ref().map_or_else(|| "duel".to_string(), |f| f.name.clone()),
            max_rounds: spec.max_rounds,
        };
        Ok((engine::start(setup, spec), recorder, started))
    }

    /// Sends `steer` to the debate it names; what it did, or why not.
    pub fn steer(&self, steer: &Steer) -> Result<String, String> {
        let session = self.resolve(&steer.session)?;
        let (commands, ended) = match self.live().get(&session) {
            Some(live) => (live.commands.clone(), live.progress.borrow().ended.clone()),
            None => {
                return Err(format!(
                    "session {session} is not run by this heat mcp: only the debates it started can be steered here"
                ));
            }
        };
        if let Some(ended) = ended {
            return Err(format!("session {session} has ended ({ended}); nothing to steer"));
        }
        let (command, said) = command_for(steer)?;
        let state = super::reading::state(&self.store, &session)?;
        if crate::debate::command::events(&state, &command).is_empty() && !matches!(command, Command::Stop) {
            return Err(format!("{said}: nothing to change (the debate is {})", super::reading::standing(&state)));
        }
        let for_next_round = matches!(command, Command::InjectTopic(_) | Command::SetQuestion(_));
        if commands.send(command).is_err() {
            return Err(format!("session {session} has ended; nothing to steer"));
        }
        // The round it waits for may be past the limit: said, with the way to reach it.
        let next = state.rounds.last().map_or(0, |r| r.number + 1);
        if for_next_round && next >= state.max_rounds {
            return Ok(format!(
                "{said}, but round {} is the last (more_rounds adds one that takes it up)",
                state.max_rounds
            ));
        }
        Ok(said)
    }

    /// Stops every debate still running and waits until each is saved.
    pub async fn stop_all(&self) {
        for live in self.live().values() {
            let _ = live.commands.send(Command::Stop);
        }
        let tasks: Vec<JoinHandle<()>> =
            std::mem::take(&mut *self.tasks.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        for task in tasks {
            let _ = task.await;
        }
    }

    /// Stops every debate still running: the run's budget is spent.
    fn stop_for_budget(&self, why: &str) {
        tracing::warn!("heat mcp: {why}; stopping its debates");
        for live in self.live().values() {
            let _ = live.commands.send(Command::Stop);
        }
    }
}

/// The command a steering action sends, and what it does in words.
fn command_for(steer: &Steer) -> Result<(Command, String), String> {
    let text = || {
        let text = steer.text.as_deref().map(crate::sanitize::one_line).unwrap_or_default();
        if text.is_empty() { Err(format!("{} needs `text`", action_name(steer.action))) } else { Ok(text) }
    };
    Ok(match steer.action {
        Action::Inject => {
            let text = text()?;
            (Command::InjectTopic(text.clone()), format!("injected “{text}” for the next round"))
        }
        Action::NextQuestion => {
            let text = text()?;
            (Command::SetQuestion(text.clone()), format!("the next round asks “{text}”"))
        }
        Action::PinHeat => {
            let heat = steer.heat.filter(|h| (0.3..=1.0).contains(h)).ok_or("pin_heat needs `heat`, 0.3 to 1.0")?;
            #[allow(clippy::cast_possible_truncation)]
            let heat = Heat::new(heat as f32);
            (Command::PinTemperature(heat), format!("the heat is held at {heat} from the next round"))
        }
        Action::ReleaseHeat => (Command::ReleaseTemperature, "the judge sets the heat again".into()),
        Action::Force => (Command::ForceResolution, "a resolution is forced at the end of this round".into()),
        Action::MoreRounds => {
            let rounds = steer.rounds.filter(|r| (1..=20).contains(r)).ok_or("more_rounds needs `rounds`, 1 to 20")?;
            (Command::AddRounds(rounds), format!("{} more", crate::words::count(rounds as usize, "round")))
        }
        Action::Pause => (Command::Pause, "paused".into()),
        Action::Resume => (Command::Resume, "resumed".into()),
        Action::Stop => (Command::Stop, "stopped (saved; `heat resume` goes on with it)".into()),
    })
}

fn action_name(action: Action) -> String {
    serde_json::to_value(action).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Records every event of one debate until it ends, keeping its progress
/// for those waiting on it; its end, a verdict and a spent budget are said.
async fn record(
    debates: Arc<Debates>,
    handle: DebateHandle,
    recorder: Recorder,
    progress: watch::Sender<Progress>,
    prices: crate::debate::cost::Prices,
) {
    let session = recorder.id().to_string();
    let mut ended = None;
    let each = |seen: Seen<'_>, _: &DebateHandle| {
        let Seen::Event(event, state) = seen else { return };
        let changed = progress.send_if_modified(|p| step(p, event, state, &prices));
        match event {
            DebateEvent::VerdictReached { .. } => {
                let _ = debates.changed.send(session.clone());
            }
            DebateEvent::Finished { outcome, .. } => ended = Some(outcome.describe()),
            _ => {}
        }
        if changed && let Some(why) = debates.limits.over_budget(debates.spent()) {
            debates.stop_for_budget(&why);
        }
    };
    let done = crate::cli::headless::record(handle, recorder, Controls::default(), None, each).await;
    for warning in &done.warnings {
        tracing::warn!("heat mcp: session {session}: {warning}");
    }
    let ended = ended.unwrap_or_else(|| "stopped without an ending".into());
    progress.send_modify(|p| {
        p.steps += 1;
        p.doing = format!("ended: {ended}");
        p.ended = Some(ended);
    });
    let _ = debates.changed.send(session);
}

/// `progress` after `event`; whether it changed in a way worth telling.
fn step(
    progress: &mut Progress,
    event: &DebateEvent,
    state: &crate::debate::DebateState,
    prices: &crate::debate::cost::Prices,
) -> bool {
    match event {
        DebateEvent::RoundStarted { round, .. } => {
            progress.round = round + 1;
            progress.doing = format!("round {} of {}: the debaters argue", progress.round, state.max_rounds);
        }
        DebateEvent::TurnCompleted { role, .. } => {
            progress.turns += 1;
            progress.doing = format!("round {}: {} has spoken", progress.round, state.label(*role));
            progress.tokens = crate::debate::cost::tokens(state).map_or(0, |(input, output)| input + output);
            progress.usd = crate::debate::cost::cost(state, prices);
        }
        DebateEvent::VerdictReached { round, .. } => {
            progress.verdicts += 1;
            progress.doing = format!("round {}: the judge has given a verdict", round + 1);
        }
        DebateEvent::Paused => progress.doing = format!("round {}: paused", progress.round),
        DebateEvent::Resumed => progress.doing = format!("round {}: resumed", progress.round),
        _ => return false,
    }
    progress.steps += 1;
    true
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn steer(action: Action, text: Option<&str>, heat: Option<f64>, rounds: Option<u32>) -> Steer {
        Steer { session: "s".into(), action, text: text.map(str::to_string), heat, rounds }
    }

    #[test]
    fn each_action_sends_its_command_and_says_what_it_did() {
        let (command, said) = command_for(&steer(Action::Inject, Some("cost\u{1b}[2J"), None, None)).unwrap();
        assert_eq!(command, Command::InjectTopic("cost".into()));
        assert_eq!(said, "injected “cost” for the next round");
        let (command, _) = command_for(&steer(Action::PinHeat, None, Some(0.5), None)).unwrap();
        assert_eq!(command, Command::PinTemperature(Heat::new(0.5)));
        let (command, said) = command_for(&steer(Action::MoreRounds, None, None, Some(2))).unwrap();
        assert_eq!((command, said.as_str()), (Command::AddRounds(2), "2 rounds more"));
    }

    #[test]
    fn an_action_without_what_it_needs_is_one_sentence() {
        assert_eq!(command_for(&steer(Action::Inject, Some("  "), None, None)).unwrap_err(), "inject needs `text`");
        assert_eq!(
            command_for(&steer(Action::NextQuestion, None, None, None)).unwrap_err(),
            "next_question needs `text`"
        );
        assert_eq!(
            command_for(&steer(Action::PinHeat, None, Some(1.5), None)).unwrap_err(),
            "pin_heat needs `heat`, 0.3 to 1.0"
        );
        assert_eq!(
            command_for(&steer(Action::MoreRounds, None, None, Some(0))).unwrap_err(),
            "more_rounds needs `rounds`, 1 to 20"
        );
    }

    #[test]
    fn progress_grows_with_turns_and_verdicts_and_ignores_the_stream() {
        let state = crate::debate::DebateState { max_rounds: 3, ..Default::default() };
        let prices = crate::debate::cost::Prices::default();
        let mut progress = Progress::default();
        let round = DebateEvent::RoundStarted { round: 0, topic: "t".into(), heat: Heat::new(0.7), injected: vec![] };
        assert!(step(&mut progress, &round, &state, &prices));
        assert_eq!(progress.doing, "round 1 of 3: the debaters argue");
        let delta = DebateEvent::Delta { round: 1, role: crate::debate::Role::Advocate, text: "x".into() };
        assert!(!step(&mut progress, &delta, &state, &prices), "a streamed piece wakes no one");
        assert_eq!((progress.turns, progress.verdicts, progress.steps), (0, 0, 1));
    }
}
