//! `heat branch ID --at ROUND`: a stored debate taken up again after one of
//! its finished rounds, as a new session that shares the rounds before
//! (read from the parent's log, never copied) and goes on with changes: the
//! sides swapped, another model for a seat (a panel's judges too), another heat (set or pinned),
//! another question, a note injected, another round limit. The parent is
//! only read: a live debate's finished round can be branched while it runs.

use std::process::ExitCode;

use anyhow::bail;

use crate::config::FlagValue;
use crate::debate::event::PanelSeats;
use crate::debate::{BranchChanges, DebateEvent, Heat, engine};
use crate::store::{self, Store, branch};

use super::json_lines::json_line;
use super::print::TextPrinter;

/// What `heat branch` was asked for.
pub struct Request<'a> {
    pub id: Option<&'a str>,
    /// The last round the branch shares (from 1).
    pub at: u32,
    pub swap_sides: bool,
    /// `advocate=MODEL`, …
    pub seats: &'a [String],
    pub changes: BranchChanges,
    pub json: bool,
}

/// `heat branch` as typed: the seat and text flags beside the shared
/// debate flags, whose `--heat` and `--max-rounds` are the branch's own.
pub struct Asked<'a> {
    pub id: Option<&'a str>,
    pub at: u32,
    pub swap_sides: bool,
    pub seats: &'a [String],
    pub topic: Option<String>,
    pub pin: Option<f32>,
    pub inject: Vec<String>,
    pub json: bool,
}

/// Runs what was typed: `--heat` and `--max-rounds` become the branch's
/// changes (not the config's), the other debate flags choose providers.
pub async fn from_args(
    config_file: Option<&std::path::PathBuf>,
    asked: Asked<'_>,
    mut debate: super::args::DebateArgs,
) -> anyhow::Result<ExitCode> {
    let heat = number(debate.heat.take(), "--heat", "a heat from 0.3 to 1.0, e.g. 0.5")?;
    let max_rounds = number(debate.max_rounds.take(), "--max-rounds", "a whole number of rounds, e.g. 6")?;
    check(asked.topic.as_deref(), &asked.inject, [("--heat", heat), ("--pin", asked.pin)], max_rounds)?;
    let changes = BranchChanges {
        question: asked.topic,
        heat: heat.map(Heat::new),
        pinned: asked.pin.map(Heat::new),
        injected: asked.inject,
        max_rounds,
        panel: None,
    };
    let request = Request {
        id: asked.id,
        at: asked.at,
        swap_sides: asked.swap_sides,
        seats: asked.seats,
        changes,
        json: asked.json,
    };
    run(config_file, &debate.flag_values(), &request).await
}

/// A flag's number, or one sentence naming the flag and what it takes.
fn number<T: std::str::FromStr>(raw: Option<String>, flag: &str, takes: &str) -> anyhow::Result<Option<T>> {
    raw.map(|raw| raw.trim().parse().map_err(|_| anyhow::anyhow!("{flag} takes {takes}; got {raw:?}"))).transpose()
}

/// How the branch differs, in words, for its record, and what it keeps
/// of its parent (`kept`).
pub fn how(request: &Request<'_>, kept: &[String]) -> String {
    request.changes.describe_keeping(super::rematch::seat_changes(request.swap_sides, request.seats), kept)
}

/// Checks what the person gave before anything is read or started: the
/// heats as typed, before they are clamped.
fn check(
    question: Option<&str>,
    injected: &[String],
    heats: [(&str, Option<f32>); 2],
    max_rounds: Option<u32>,
) -> anyhow::Result<()> {
    if question.is_some_and(|q| q.trim().is_empty()) {
        bail!("--topic is empty; give the question the next round should ask");
    }
    if injected.iter().any(|note| note.trim().is_empty()) {
        bail!("--inject is empty; give the note the next round's prompts should carry");
    }
    for (flag, value) in heats {
        if let Some(h) = value
            && !(Heat::MIN.get()..=Heat::MAX.get()).contains(&h)
        {
            bail!("{flag} takes a heat from 0.3 to 1.0; got {h}");
        }
    }
    if max_rounds == Some(0) {
        bail!("--max-rounds must be at least 1");
    }
    Ok(())
}

/// Runs the branch headless, printing it as `heat run` does.
pub async fn run(
    config_file: Option<&std::path::PathBuf>,
    user_flags: &[FlagValue],
    request: &Request<'_>,
) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let id = store.resolve(request.id)?;
    let loaded = store.read_before_round(&id, request.at)?;
    for notice in &loaded.notices {
        say!("heat: session {id}: {notice}");
    }
    let (end, state) = branch::round_end(&id, &loaded.records, request.at)?;
    let kept = state.kept_after(request.at);
    let kept_words = kept.describe(&request.changes);
    if !kept_words.is_empty() {
        // Nothing the parent set is carried silently: its pin and its waiting notes are said.
        let release = if kept_words.iter().any(|k| k.contains("pinned")) {
            " (--heat H sets another heat and releases the pin)"
        } else {
            ""
        };
        say!("heat: the branch keeps {}{release}", kept_words.join(" and "));
    }
    let shared = &loaded.records[..end];
    if let Some(max) = request.changes.max_rounds
        && max <= request.at
    {
        bail!("--max-rounds {max} leaves the branch no round after round {}: give more", request.at);
    }
    // The person's own flags come last: they win over what the session recorded.
    let flags = [super::rematch::flags(&state, "heat branch", request.swap_sides, request.seats)?, user_flags.to_vec()]
        .concat();
    // A branch goes on in the stored debate's format: heat.toml's format lays nothing over it.
    let config = super::load::config(config_file, &flags)?.without_format().clone();
    let mut setup = super::run::setup_fitting(&config, state.source.as_ref()).await?;
    setup.library = super::run::reopened_library(&state);
    let changes = BranchChanges { panel: panel_seated(&config, &state), ..request.changes.clone() };
    let branched = DebateEvent::Branched {
        from: id,
        round: request.at,
        records: u64::try_from(end).unwrap_or(u64::MAX),
        how: how(request, &kept_words),
        participants: setup.participants(&state.seats()),
        changes,
    };
    let recorder = store.create_branch(shared, state, &branched)?;
    let mut history: Vec<DebateEvent> = shared.iter().map(|r| r.event.clone()).collect();
    announce(&history, &branched, request.json)?;
    history.push(branched);
    let state = recorder.state().clone();
    super::run::drive(engine::go_on(setup, state, engine::GoOn::Branch), recorder, request.json, Some(&history), None)
        .await
}

/// The panel the branch seats when `--seat judge2=…` (or the like) moves a
/// judge of the stored panel to another provider or model; `None` when the
/// panel stays as it was.
fn panel_seated(config: &crate::config::Config, state: &crate::debate::DebateState) -> Option<Box<PanelSeats>> {
    let stored = state.format.as_ref()?;
    let mut record = stored.clone();
    crate::format::layer::seat_panel_judges(config, &mut record, true);
    let panel = PanelSeats::of(&record);
    (panel != PanelSeats::of(stored)).then(|| Box::new(panel))
}

/// Prints where the branch leaves its parent and who argues from here.
fn announce(shared: &[DebateEvent], branched: &DebateEvent, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout();
    if json {
        return Ok(json_line(&mut out, branched)?);
    }
    let mut printer = TextPrinter::new(out, super::print::stdout_style());
    printer.absorb(shared);
    Ok(printer.event(branched)?)
}
