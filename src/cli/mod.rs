//! The `heat` command line: parses arguments, loads configuration, and runs
//! the chosen command.

/// A line on stderr that never panics: with stderr closed (`heat … 2>&1 |
/// head`) there is nobody left to tell, so the line is dropped.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// A line on stdout that never panics (see `say!`).
macro_rules! show {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod args;
mod branch;
mod compare;
mod doctor;
mod formats;
mod model;
pub mod print;
mod probe;
mod rematch;
mod replay;
mod report;
mod run;
mod seats;
mod sessions;
mod studio;
mod watch;
mod wrap;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use crate::config::{Config, DEFAULT_FILE, FlagValue};
use args::{Cli, Commands, ConfigAction, FormatsAction, ModelAction, SessionsAction};

/// Runs the command line; errors come back as one sentence for stderr.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // `heat sesions` is a typo, not a debate about "sesions"; after `--` it is a topic.
    if let (None, Some(topic)) = (&cli.command, &cli.topic)
        && !std::env::args().any(|a| a == "--")
        && let Some(name) = args::near_subcommand(topic)
    {
        say!(
            "heat: `{topic}` is not a command: did you mean `heat {name}`? To debate it, write `heat -- {topic}` \
             or a whole sentence"
        );
        return ExitCode::from(2);
    }
    // Best effort: a data dir that cannot be written is reported by the
    // commands that need it, and by `heat doctor`.
    let _ = crate::store::data_dir().and_then(|dir| crate::logging::init(&dir, cli.log_level));
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return fail(&anyhow::anyhow!("could not start the async runtime: {e}")),
    };
    match runtime.block_on(dispatch(cli)) {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

/// The embedded model's threads per computation: `providers.local.threads`
/// from the config the command line names (or the default one), else the
/// built-in default. A config that does not load counts as unset here: the
/// command itself reports it.
pub fn model_threads() -> usize {
    let file = Cli::try_parse().ok().and_then(|cli| cli.config);
    let key = "providers.local.threads";
    load_config(file.as_ref(), &[]).map_or_else(|_| crate::config::built_in(key), |config| config.defaulted(key))
}

fn fail(error: &anyhow::Error) -> ExitCode {
    let broken_pipe = error
        .chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe));
    if broken_pipe {
        // The reader went away (`heat … | head`): nothing to say.
        return ExitCode::SUCCESS;
    }
    say!("heat: {error:#}");
    ExitCode::FAILURE
}

async fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    let config_file = cli.config.clone();
    let log_level = cli.log_level;
    let theme = studio_theme(&cli)?;
    match cli.command {
        Some(Commands::Run { topic, json, seat, debate }) => {
            let config = load_seated(config_file.as_ref(), &debate.flag_values(), &seat)?;
            run::run(&config, topic.as_deref(), json).await
        }
        Some(Commands::Resume { id, json, debate, .. }) => {
            // A stored debate goes on in its own format: heat.toml's lays nothing over it.
            let layered = load_config(config_file.as_ref(), &[debate.flag_values(), theme].concat())?;
            let config = layered.without_format().clone();
            if !json && studio::on_terminal() {
                return studio::resume(&config, id.as_deref()).await;
            }
            run::resume(&config, id.as_deref(), json).await
        }
        Some(Commands::Doctor) => doctor::doctor(load_config(config_file.as_ref(), &[]), log_level).await,
        Some(Commands::Sessions { action, json, search, continuable }) => match action {
            None => {
                sessions::list(&sessions::Filter { search, continuable }, json)?;
                Ok(ExitCode::SUCCESS)
            }
            Some(SessionsAction::Rm { ids, yes }) => sessions::remove(&ids, yes),
            Some(SessionsAction::Prune { older_than, yes }) => sessions::prune(older_than.into(), yes),
        },
        Some(Commands::Replay { id, demo, speed, instant, json, .. }) => {
            let speed = if instant { 0.0 } else { speed };
            if !json && studio::on_terminal() {
                let config = load_config(config_file.as_ref(), &theme)?;
                let (loaded, id) = replay::load(id.as_deref(), demo, speed)?;
                return studio::replay(&config, loaded, speed, id).await;
            }
            replay::replay(id.as_deref(), demo, speed, json).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Watch { id, json, .. }) => {
            let target = watch::target(id.as_deref())?;
            if !json && studio::on_terminal() {
                let config = load_config(config_file.as_ref(), &theme)?;
                return studio::watch(&config, target).await;
            }
            watch::print(target, json).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Export { id, format, output, force, no_images }) => {
            sessions::export(id.as_deref(), format, output.as_deref(), force, no_images)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Report { id, demo, output, force, open, summary, debate }) => {
            let request = report::Request { id: id.as_deref(), demo, output: output.as_deref(), force, open };
            report::run(config_file.as_ref(), &debate.flag_values(), request, summary).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Rematch { id, swap_sides, seat, json, debate }) => {
            let request = rematch::Request { id: id.as_deref(), swap_sides, seats: &seat, json };
            rematch::rematch(config_file.as_ref(), &debate.flag_values(), &request).await
        }
        Some(Commands::Branch { id, at, swap_sides, seat, topic, pin, inject, json, debate }) => {
            let asked = branch::Asked { id: id.as_deref(), at, swap_sides, seats: &seat, topic, pin, inject, json };
            branch::from_args(config_file.as_ref(), asked, *debate).await
        }
        Some(Commands::Formats { action, json }) => {
            let config = load_config(config_file.as_ref(), &[])?;
            match action {
                None => formats::list(&config, json)?,
                Some(FormatsAction::Show { name }) => formats::show(&config, &name)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Compare { a, b }) => {
            compare::compare(&a, &b)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Model { action }) => {
            match action {
                ModelAction::Install { file, url } => model::install(file, url).await?,
                ModelAction::List => model::list()?,
                ModelAction::Path => {
                    let config = load_config(config_file.as_ref(), &[])?;
                    show!("{}", crate::setup::local::model_path(&config)?.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Config { action: ConfigAction::Show { debate } }) => {
            let config = load_config(config_file.as_ref(), &debate.flag_values())?;
            run::show_config(&config).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Config { action: ConfigAction::Init { force } }) => {
            init_config(config_file, force)?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let config = load_seated(config_file.as_ref(), &[cli.debate.flag_values(), theme].concat(), &cli.seat)?;
            studio::open(&config, cli.topic).await
        }
    }
}

/// `--theme` as a config flag: the theme is the studio's, so only `heat`,
/// `heat resume`, `heat replay` and `heat watch` take it.
fn studio_theme(cli: &Cli) -> anyhow::Result<Vec<FlagValue>> {
    let studio_theme = match &cli.command {
        None => cli.theme.clone(),
        Some(Commands::Resume { theme, .. } | Commands::Replay { theme, .. } | Commands::Watch { theme, .. }) => {
            theme.clone().or_else(|| cli.theme.clone())
        }
        Some(_) if cli.theme.is_some() => anyhow::bail!(
            "--theme sets the studio's colours: give it to `heat`, `heat resume`, `heat replay` or `heat watch`"
        ),
        Some(_) => None,
    };
    Ok(studio_theme.into_iter().map(|raw| FlagValue { key: "ui.theme".into(), raw, flag: "--theme".into() }).collect())
}

/// Loads the config from the named file, or the platform's default file.
pub fn load_config(file: Option<&PathBuf>, flags: &[FlagValue]) -> anyhow::Result<Config> {
    let env = |var: &str| std::env::var(var).ok();
    let default = Config::default_path();
    let file = file.map(|p| (p.as_path(), true)).or_else(|| default.as_deref().map(|p| (p, false)));
    let config = Config::load(file, &env, flags)?;
    studio::check_config(&config)?;
    // A format that cannot be found is said where one is needed (a new
    // debate, `heat formats`, doctor); every other command still runs.
    Ok(crate::format::layer::layer(&config).unwrap_or(config))
}

/// [`load_config`] with `--seat NAME=MODEL` values, each name read as the
/// chosen format names its seats (or by role), laid over the flags.
fn load_seated(file: Option<&PathBuf>, flags: &[FlagValue], seats: &[String]) -> anyhow::Result<Config> {
    let config = load_config(file, flags)?;
    if seats.is_empty() {
        return Ok(config);
    }
    let format = crate::format::layer::chosen(&config)?;
    let judges = format.record.judges;
    let named = |name: &str| {
        let seat = format.seat_named(name).map(|role| role.key().to_string());
        seat.or_else(|| seats::panel_judge_named(name, judges).map(seats::panel_judge_segment))
    };
    let seated = seats::flags(seats, named, &seats::accepted(&format.seat_ids, &format.seats(), judges))?;
    load_config(file, &[flags, &seated].concat())
}

fn init_config(file: Option<PathBuf>, force: bool) -> anyhow::Result<()> {
    let path = file.or_else(Config::default_path).context("could not find a config directory for this user")?;
    if path.exists() && !force {
        anyhow::bail!("{} already exists; pass --force to replace it", path.display());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    }
    write_private(&path, DEFAULT_FILE).with_context(|| format!("could not write {}", path.display()))?;
    show!("wrote {}", path.display());
    Ok(())
}

/// Writes a file only its owner can read: the config may come to hold an API key.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        options.mode(0o600);
        // An existing file (`--force`) keeps its mode on open: set it.
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// How to print on stdout: colour unless `NO_COLOR` or not a terminal;
/// arguments wrapped to the terminal's width (at most 100 columns: prose
/// past that is hard to read), and not wrapped at all when piped.
pub fn stdout_style() -> print::Style {
    let terminal = std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let width =
        terminal.then(|| crossterm::terminal::size().ok().map(|(cols, _)| usize::from(cols).min(100))).flatten();
    print::Style { color, width }
}
