//! `heat run` and `heat resume`: a debate driven headless, recorded in the
//! session store and printed as it streams; and `heat config show`, which
//! shows the providers set-up would choose.

use std::io::Write;
use std::process::ExitCode;

use crate::config::Config;
use crate::debate::engine::{self, DebateHandle, DebateSpec, EngineSetup, GoOn, Grounding, Reopening};
use crate::debate::grounding::{self, Source};
use crate::debate::{Command, DebateEvent, Outcome};
use crate::library::{Library, Shared};
use crate::model_store::Progress;
use crate::setup::{self, Selection};
use crate::store::{self, Recorder, Store};
use std::sync::Arc;

use super::headless::{Controls, Seen};
use super::json_lines::json_line;
use super::print::TextPrinter;

pub async fn show_config(config: &Config) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match &config.file {
        Some((path, true)) => writeln!(out, "# config file: {}", path.display())?,
        Some((path, false)) => writeln!(out, "# config file: {} (not found; defaults in force)", path.display())?,
        None => writeln!(out, "# no config file")?,
    }
    let rows = config.show();
    let width = rows.iter().map(|(k, v, _)| k.len() + v.len() + 3).max().unwrap_or(0);
    for (key, value, source) in rows {
        writeln!(out, "{:<width$}  # {source}", format!("{key} = {value}"))?;
    }
    let env = setup::discover(config).await;
    writeln!(out, "\n# providers in force")?;
    match setup::select(config, &env) {
        Ok(selection) => {
            for choice in &selection.roles {
                writeln!(out, "# {:<9} {}/{}  ({})", choice.role.key(), choice.kind, choice.model, choice.why)?;
            }
        }
        Err(e) => writeln!(out, "# {e:#}")?,
    }
    Ok(())
}

/// Chooses providers and builds the engine setup, printing its notices
/// (such as the offline model's); a person seated answers on standard
/// input.
async fn engine_setup(config: &Config) -> anyhow::Result<EngineSetup> {
    let selection = setup::selection(config).await?;
    let (setup, notices) = debate_setup_for(config, &selection, None).await?;
    for notice in &notices {
        say!("heat: {notice}");
    }
    super::person::take_seats(&setup);
    Ok(setup)
}

/// The engine set-up for `config`, its notices said, once `source` (a
/// debated document, if any) is found to fit every model's context: too
/// big is refused before anything is stored.
pub(super) async fn setup_fitting(config: &Config, source: Option<&Source>) -> anyhow::Result<EngineSetup> {
    let setup = engine_setup(config).await?;
    if let Some(source) = source {
        setup.check_fits(source)?;
    }
    Ok(setup)
}

/// [`setup_for`] for a debate: with the MCP servers heat.toml names
/// started, their tools offered to the seats they are for.
pub(super) async fn debate_setup_for(
    config: &Config,
    selection: &Selection,
    progress: Option<&mut dyn FnMut(Progress)>,
) -> anyhow::Result<(EngineSetup, Vec<String>)> {
    let (mut setup, mut notices) = setup_for(config, selection, progress).await?;
    setup.servers = setup::mcp::start(config).await?;
    for served in &setup.servers {
        let tools: Vec<&str> = served.server.tools.iter().map(|t| t.name.as_str()).collect();
        let named = if tools.len() > 4 { format!("{}, …", tools[..4].join(", ")) } else { tools.join(", ") };
        let seat = served.seat.map_or_else(|| "every debater".to_string(), |role| format!("the {}", role.key()));
        let count = crate::words::count(tools.len(), "tool");
        notices.push(format!("MCP server `{}` gives {seat} {count} ({named})", served.server.name));
    }
    Ok((setup, notices))
}

/// The engine set-up `config` seats, with the MCP servers heat.toml names
/// started, for a debate no one watches being set up (a tournament's,
/// `heat mcp`'s): the offline model was installed before, its notices are
/// the caller's to say.
pub(super) async fn unattended_setup(config: &Config) -> anyhow::Result<(EngineSetup, Vec<String>)> {
    let selection = setup::selection(config).await?;
    let (mut setup, notices) = setup::engine(config, &selection)?;
    setup.servers = setup::mcp::start(config).await?;
    Ok((setup, notices))
}

/// Builds the engine set-up for a selection, installing the offline model
/// first when it is needed and missing (progress to `progress`, or stderr).
pub(super) async fn setup_for(
    config: &Config,
    selection: &Selection,
    progress: Option<&mut dyn FnMut(Progress)>,
) -> anyhow::Result<(EngineSetup, Vec<String>)> {
    if selection.needs_configured_model() {
        super::model::ensure_installed(config, progress).await?;
    }
    setup::engine(config, selection)
}

pub async fn run(config: &Config, topic: Option<&str>, json: bool) -> anyhow::Result<ExitCode> {
    // The source is read (and refused) before anything is started or stored.
    let mut spec = spec(config)?;
    spec.topic = match (topic.map(crate::sanitize::one_line), &spec.grounding.source) {
        (Some(topic), _) if !topic.is_empty() => topic,
        // The engine takes the source's own topic.
        (_, Some(_)) => String::new(),
        (Some(_), None) => {
            anyhow::bail!("the topic is empty; give a proposition, e.g. heat run \"Remote work beats the office\"")
        }
        (None, None) => anyhow::bail!(
            "give a proposition to debate, e.g. heat run \"Remote work beats the office\", or a document with --source FILE"
        ),
    };
    let store = Store::open(&store::data_dir()?)?;
    let setup = setup_fitting(config, spec.grounding.source.as_ref()).await?;
    let recorder = store.create()?;
    drive(engine::start(setup, spec), recorder, json, None, None).await
}

/// The paths `debate.source` names, in order.
pub(super) fn sources(config: &Config) -> Vec<String> {
    let paths = config.words("debate.source").unwrap_or_default();
    paths.iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

/// Whether `debate.source` names one document read whole (a file, or `-`),
/// not a library.
pub(super) fn one_document(paths: &[String]) -> bool {
    matches!(paths, [one] if one == "-" || !std::path::Path::new(one).is_dir())
}

/// What `debate.source` names, read and checked: one file (or `-`) is the
/// source document, read whole (`debate.section`: one section of it); a
/// folder, or more than one path, is a library the debaters search each
/// round. `(None, None)` when it names nothing.
pub(super) fn read_grounds(config: &Config) -> anyhow::Result<(Option<Source>, Option<Shared>)> {
    let paths = sources(config);
    let section = config.text("debate.section").map(str::trim).filter(|s| !s.is_empty());
    if paths.is_empty() {
        return Ok((None, None));
    }
    if one_document(&paths) {
        let whole = Source::read(&paths[0])?;
        return Ok((
            Some(match section {
                Some(heading) => whole.section(heading)?,
                None => whole,
            }),
            None,
        ));
    }
    if paths.iter().any(|p| p == "-") {
        anyhow::bail!("standard input (-) can only be the one source; a library is read from files and folders");
    }
    if section.is_some() {
        anyhow::bail!("--section takes one file; a library's passages are found by search each round, not by heading");
    }
    let library = Library::open_kept(&paths, crate::store::kept_libraries().as_deref())?;
    Ok((None, Some(Shared(Arc::new(library)))))
}

/// Rounds, starting heat, the date and the source from the config; the
/// topic is left empty. A source that cannot be debated is refused here.
pub(super) fn spec(config: &Config) -> anyhow::Result<DebateSpec> {
    spec_for(config, true)
}

/// As [`spec`]; `with_source` false leaves the source out (a studio that
/// resumes or replays a stored debate starts none, and must not need the file).
pub(super) fn spec_for(config: &Config, with_source: bool) -> anyhow::Result<DebateSpec> {
    let (source, library) = if with_source { read_grounds(config)? } else { (None, None) };
    let date = config.defaulted::<bool>("debate.date").then(grounding::date::today);
    Ok(DebateSpec {
        topic: String::new(),
        max_rounds: config.defaulted("debate.max_rounds"),
        initial_heat: crate::debate::Heat::new(config.defaulted::<f64>("debate.initial_heat") as f32),
        grounding: Grounding { date, source, library },
        format: crate::format::layer::chosen(config)?.log_record(),
    })
}

/// The library a stored debate read, opened again, what changed said on
/// standard error; `None` when it read none or it cannot be opened (said).
pub(super) fn reopened_library(state: &crate::debate::DebateState) -> Option<Arc<Library>> {
    let (library, notice) = state.library.as_ref().map(|l| l.reopen(crate::store::kept_libraries().as_deref()))?;
    if let Some(notice) = notice {
        say!("heat: {notice}");
    }
    library
}

/// `heat resume` headless: the stored debate goes on, printed as `heat run` prints.
pub async fn resume(config: &Config, id: Option<&str>, reopening: Reopening, json: bool) -> anyhow::Result<ExitCode> {
    let (recorder, loaded) = super::load::reopened(config, id, &reopening)?;
    let state = recorder.state().clone();
    if let Some(notice) = state.source.as_ref().and_then(grounding::resume_notice) {
        say!("heat: {notice}");
    }
    let config = super::load::as_stored(config, recorder.id(), &state)?;
    let mut setup = engine_setup(&config).await?;
    setup.library = reopened_library(&state);
    let handle = engine::go_on(setup, state, GoOn::Resume(reopening));
    let history: Vec<DebateEvent> = loaded.records.iter().map(|r| r.event.clone()).collect();
    drive(handle, recorder, json, Some(&history), None).await
}

/// What `heat run` says of a debate that failed: `heat resume` tries again
/// after a failure a retry may change; after a `lasting` one (a key
/// refused, a model unknown) it goes on once the cause is fixed.
fn failed_sentence(why: &str, id: &str, lasting: bool) -> String {
    let why = crate::sanitize::clause(why);
    if lasting {
        format!("the debate failed: {why}. Once that is fixed, `heat resume {id}` goes on from there.")
    } else {
        format!("the debate failed: {why}. `heat resume {id}` tries again.")
    }
}

/// The exit status of a headless debate stopped at its budget.
const BUDGET_REACHED: u8 = 3;

/// Records and prints every event until the debate ends; `origin` is
/// recorded (and printed) right after the debate's `Started`.
/// Ctrl-C stops the debate cleanly; a second one quits at once.
fn stop_on_ctrl_c(handle: &DebateHandle) {
    let commands = handle.commander();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = commands.send(Command::Stop);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
}

pub(super) async fn drive(
    handle: DebateHandle,
    recorder: Recorder,
    json: bool,
    history: Option<&[DebateEvent]>,
    origin: Option<DebateEvent>,
) -> anyhow::Result<ExitCode> {
    stop_on_ctrl_c(&handle);
    let mut printer = TextPrinter::new(std::io::stdout(), super::print::stdout_style());
    let mut out = std::io::stdout();
    // A resumed debate's printer learns the story so far without printing it.
    if let Some(events) = history {
        printer.absorb(events);
    }
    // Which turns were tried again, and the one that failed: a failure no retry preceded (a key
    // refused, a model unknown) is not offered `heat resume` as a retry.
    let mut retried = std::collections::BTreeSet::new();
    let mut failed_turn = None;
    // No one is at a keyboard to resume a budget's pause: the debate stops there, saved.
    let mut over_budget = None;
    // The output gone: a closed pipe (`heat run … | head`) ends the debate quietly; another error is said.
    let mut unwritten: Option<std::io::Error> = None;
    let done = super::headless::record(handle, recorder, Controls::default(), origin, |seen, handle| {
        let event = match seen {
            Seen::Warning(warning) => return say!("heat: {warning}"),
            Seen::Event(event, _) => event,
        };
        match event {
            DebateEvent::TurnRetrying { round, role, .. } => {
                retried.insert((*round, *role));
            }
            DebateEvent::TurnFailed { round, role, .. } => failed_turn = Some((*round, *role)),
            DebateEvent::BudgetReached { spent } => over_budget = Some(spent.clone()),
            _ => {}
        }
        if unwritten.is_some() {
            return;
        }
        if let Err(e) = if json { json_line(&mut out, event) } else { printer.event(event) } {
            unwritten = Some(e);
            handle.send(Command::Stop);
        }
    })
    .await;
    let recorder = done.recorder;
    match unwritten {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            // Nobody reads on: no message. A new debate that said nothing yet is not kept.
            if history.is_none() && !recorder.holds_a_turn() {
                recorder.discard()?;
            }
            return Ok(ExitCode::from(141));
        }
        Some(e) => return Err(anyhow::Error::new(e).context(format!("session {} is saved", recorder.id()))),
        None => {}
    }
    say!("heat: saved as session {} ({})", recorder.id(), recorder.path().display());
    if let Some(spent) = over_budget {
        let spent = crate::sanitize::clean(&spent);
        say!("heat: stopped at its budget: {spent}. `heat resume {}` goes on past it.", recorder.id());
        return Ok(ExitCode::from(BUDGET_REACHED));
    }
    Ok(match done.outcome {
        Some(Outcome::Failed(why)) => {
            let lasting = failed_turn.is_some_and(|turn| !retried.contains(&turn));
            say!("heat: {}", failed_sentence(&why, recorder.id(), lasting));
            ExitCode::FAILURE
        }
        Some(Outcome::Cancelled) => ExitCode::from(130),
        Some(Outcome::Invalidated(why)) => {
            say!("heat: the debate is invalidated: {}.", crate::sanitize::clause(&why));
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}
