//! `heat tournament FILE` and `heat tournament resume [ID]`: many debates
//! planned from a tournament file, checked before anything starts (one
//! sentence with the file and line), priced with `--dry-run`, run as
//! ordinary sessions tagged with the tournament, and taken up again after a
//! stop or a kill with only what is missing run.

mod board;
mod check;
mod debate;
mod dry_run;
mod progress;
mod runner;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{Config, FlagValue};
use crate::store::tournaments::{Entry, Stored, Tournaments};
use crate::store::{self, Store};
use crate::tournament::file::TournamentFile;
use crate::tournament::plan::{self, Planned};
use crate::tournament::progress::Budget;

/// What `heat tournament` was asked for.
pub struct Asked<'a> {
    pub config_file: Option<&'a PathBuf>,
    /// The person's flags, under every debate's seats.
    pub flags: &'a [FlagValue],
    pub json: bool,
}

impl Asked<'_> {
    /// What the checks and a watch load the config from.
    fn loading(&self) -> check::Loading<'_> {
        check::Loading { config_file: self.config_file, flags: self.flags }
    }
}

/// `heat tournament FILE [--dry-run] [--json]` and `heat tournament resume [ID] [--json]`.
pub async fn from_args(
    config_file: Option<&PathBuf>,
    action: Option<super::args::TournamentAction>,
    file: Option<&Path>,
    (dry_run, json): (bool, bool),
    debate: &super::args::DebateArgs,
) -> anyhow::Result<ExitCode> {
    // Its debates' set-ups ask the same servers: each is asked once a minute.
    crate::setup::probed::keep();
    match action {
        Some(super::args::TournamentAction::Resume { id, json, debate }) => {
            let flags = debate.flag_values();
            resume(&Asked { config_file, flags: &flags, json }, id.as_deref()).await
        }
        None => {
            let Some(file) = file else {
                anyhow::bail!(
                    "give a tournament file (heat tournament FILE), or `heat tournament resume`; \
                     `heat tournament --help` shows the smallest file"
                )
            };
            let flags = debate.flag_values();
            start(&Asked { config_file, flags: &flags, json }, file, dry_run).await
        }
    }
}

/// `heat tournament FILE [--dry-run]`.
pub async fn start(asked: &Asked<'_>, path: &Path, dry_run: bool) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read the tournament file {}: {e}", path.display()))?;
    let label = path.display().to_string();
    let mut file = TournamentFile::parse(&label, &text, path.parent().unwrap_or(Path::new(".")))?;
    check::seat(&asked.loading(), &mut file)?;
    let seed = file.seed.unwrap_or_else(|| fastrand::u64(..u64::from(u32::MAX)));
    let planned = plan::plan(&file, seed);
    let configs = check::checked(&asked.loading(), &file, &planned, seed)?;
    let rounds = configs.first().map_or(0, |(_, c)| rounds_of(c));
    check::check_budget(&file, &configs, rounds)?;
    if dry_run {
        dry_run::print(&file, &planned, seed, &configs, rounds)?;
        return Ok(ExitCode::SUCCESS);
    }
    let data = store::data_dir()?;
    let tournaments = Tournaments::open(&data)?;
    // The seed is written into the stored file, so a resume plans the same order.
    let kept =
        if file.seed.is_some() { text } else { format!("{text}\n# drawn when the tournament began\nseed = {seed}\n") };
    let (id, mut journal) = tournaments.create(&kept)?;
    journal.write(&Entry::Began { seed, debates: planned.len(), at_ms: store::now_ms() })?;
    let stored = tournaments.load(&id)?;
    install_model(&planned, &configs).await?;
    go(asked, file, &planned, &stored, journal, seed).await
}

/// The offline model installed first when a debate of the tournament needs
/// it and it is missing (progress on standard error).
async fn install_model(planned: &[Planned], configs: &[(String, Config)]) -> anyhow::Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    for (p, (_, config)) in planned.iter().zip(configs) {
        // Each line-up is looked at once: the propositions do not change who sits.
        if !seen.insert((&p.advocate, &p.skeptic)) {
            continue;
        }
        if crate::setup::selection(config).await?.needs_configured_model() {
            return crate::cli::model::ensure_installed(config, None).await;
        }
    }
    Ok(())
}

/// `heat tournament resume [ID]`: what is missing of a stopped tournament
/// (no ID: the newest unfinished), and only that.
pub async fn resume(asked: &Asked<'_>, id: Option<&str>) -> anyhow::Result<ExitCode> {
    let tournaments = Tournaments::open(&store::data_dir()?)?;
    let id = tournaments.resolve(id, true)?;
    let stored = tournaments.load(&id)?;
    let label = stored.dir.join("tournament.toml").display().to_string();
    let mut file = TournamentFile::parse(&label, &stored.text, &stored.dir)?;
    check::seat(&asked.loading(), &mut file)?;
    let seed = stored.seed().or(file.seed).unwrap_or(0);
    let planned = plan::plan(&file, seed);
    let configs = check::checked(&asked.loading(), &file, &planned, seed)?;
    install_model(&planned, &configs).await?;
    let journal = tournaments.journal(&id)?;
    go(asked, file, &planned, &stored, journal, seed).await
}

async fn go(
    asked: &Asked<'_>,
    file: TournamentFile,
    planned: &[Planned],
    stored: &Stored,
    journal: crate::store::tournaments::Journal,
    seed: u64,
) -> anyhow::Result<ExitCode> {
    let store = Store::open(&store::data_dir()?)?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (hold, holding) = tokio::sync::watch::channel(false);
    let (tell, mut told) = tokio::sync::mpsc::unbounded_channel();
    let shared = debate::Shared {
        config_file: asked.config_file.cloned(),
        flags: asked.flags.to_vec(),
        file,
        tournament: stored.id.clone(),
        seed,
        store: store.clone(),
        stop: stopped,
        hold: holding,
        journal: std::sync::Mutex::new(journal),
        tell,
    };
    // A tournament resumed after its budget paused it goes on past it.
    let lifted = stored.budget_reached();
    let (spent_tokens, spent_usd) = stored.spent();
    let budget = Budget {
        tokens: shared.file.budget_tokens.filter(|_| !lifted).map(|b| b.value),
        usd: shared.file.budget_usd.filter(|_| !lifted).map(|b| b.value),
        spent_tokens,
        spent_usd,
    };
    let running = runner::run(shared, &stop, planned, stored, budget);
    let ending = if board::wanted(asked.json) {
        board::run(&asked.loading(), (stored, &store, seed), told, (&hold, &stop), running).await?
    } else {
        let mut report = progress::Report { json: asked.json, tournament: stored.id.clone() };
        let lines = async {
            while let Some(progress) = told.recv().await {
                report.say(&progress);
            }
        };
        tokio::join!(running, lines).0?
    };
    let id = &stored.id;
    Ok(match ending {
        runner::Ending::Done { failed: 0 } => {
            say!("heat: tournament {id} has ended; `heat stats {id}` counts it");
            ExitCode::SUCCESS
        }
        runner::Ending::Done { failed } => {
            say!(
                "heat: tournament {id} has ended with {} failed (each tried twice); `heat stats {id}` counts the rest",
                crate::words::count(failed, "debate")
            );
            ExitCode::FAILURE
        }
        runner::Ending::Budget(spent) => {
            say!("heat: tournament {id} paused at its budget ({spent}); `heat tournament resume {id}` goes on past it");
            ExitCode::from(3)
        }
        runner::Ending::Stopped => {
            say!("heat: tournament {id} stopped; `heat tournament resume {id}` runs what is missing");
            ExitCode::from(130)
        }
    })
}

/// The rounds a debate runs under `config`.
fn rounds_of(config: &Config) -> u32 {
    crate::cli::run::spec_for(config, false).map_or(0, |spec| spec.max_rounds)
}
