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
mod debate_args;
mod doctor;
mod formats;
mod headless;
pub mod json_lines;
mod load;
mod mcp_server;
mod model;
mod person;
pub mod print;
pub mod probe;
mod rematch;
mod replay;
mod report;
mod report_stats;
mod run;
mod seats;
mod sessions;
mod shell;
mod stats;
mod studio;
mod studio_config;
mod style;
mod tournament;
mod watch;
mod wrap;

use std::process::ExitCode;

use clap::Parser;

use crate::config::FlagValue;
use args::{Cli, Commands, ConfigAction, FormatsAction};

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
    // Printed from the command line's definition alone: no data dir, no log, no runtime.
    match &cli.command {
        Some(Commands::Completions { shell }) => return finish(shell::completions(*shell)),
        Some(Commands::Man { command, dir: Some(dir) }) if command.is_empty() => return finish(shell::man_pages(dir)),
        Some(Commands::Man { command, .. }) => return finish(shell::man(command)),
        _ => {}
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

/// The environment variables that give the embedded model `threads` per
/// computation.
pub fn model_thread_variables(threads: usize) -> Vec<(&'static str, String)> {
    #[cfg(feature = "local")]
    return crate::provider::local::thread_variables(threads).into();
    #[cfg(not(feature = "local"))]
    return vec![("CANDLE_NUM_THREADS", threads.to_string())];
}

/// The embedded model's threads per computation: `providers.local.threads`
/// from the config the command line names (or the default one), else the
/// built-in default. A config that does not load counts as unset here: the
/// command itself reports it. Read before the command loads its config in
/// full (no theme, keys or format: none of them sets this).
pub fn model_threads() -> usize {
    let file = Cli::try_parse().ok().and_then(|cli| cli.config);
    let key = "providers.local.threads";
    load::settings(file.as_ref(), &[]).map_or_else(|_| crate::config::built_in(key), |config| config.defaulted(key))
}

fn finish(result: anyhow::Result<()>) -> ExitCode {
    result.map_or_else(|e| fail(&e), |()| ExitCode::SUCCESS)
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
            let config = load::seated(config_file.as_ref(), &debate.flag_values(), &seat)?;
            run::run(&config, topic.as_deref(), json).await
        }
        Some(Commands::Resume { id, more, question, json, debate, .. }) => {
            // A stored debate goes on in its own format: heat.toml's lays nothing over it.
            let layered = load::config(config_file.as_ref(), &[debate.flag_values(), theme].concat())?;
            let config = layered.without_format().clone();
            let reopening = crate::debate::engine::Reopening { more: more.unwrap_or(0), question };
            if !json && studio::on_terminal() {
                return studio::resume(&config, id.as_deref(), reopening).await;
            }
            run::resume(&config, id.as_deref(), reopening, json).await
        }
        Some(Commands::Doctor { seat }) => {
            doctor::doctor(load::seated(config_file.as_ref(), &[], &seat), log_level).await
        }
        Some(Commands::Sessions { action, json, search, continuable, tag }) => {
            sessions::sessions(action, &sessions::Filter { search, continuable, tag }, json)
        }
        Some(Commands::Replay { id, demo, speed, instant, json, .. }) => {
            let speed = if instant { 0.0 } else { speed };
            if !json && studio::on_terminal() {
                let config = load::config(config_file.as_ref(), &theme)?;
                let (loaded, id) = replay::load(id.as_deref(), demo, speed)?;
                return studio::replay(&config, loaded, speed, id).await;
            }
            replay::replay(id.as_deref(), demo, speed, json).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Watch { id, json, web, .. }) => {
            watch(config_file.as_ref(), &theme, id.as_deref(), json, web.as_deref()).await
        }
        Some(Commands::Export { id, format, output, force, no_images, requests }) => {
            sessions::export(id.as_deref(), format.into(), output.as_deref(), force, (no_images, requests).into())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(command @ Commands::Report { .. }) => report_stats::from_args(config_file.as_ref(), command).await,
        Some(Commands::Rematch { id, swap_sides, seat, json, debate }) => {
            let request = rematch::Request { id: id.as_deref(), swap_sides, seats: &seat, json };
            rematch::rematch(config_file.as_ref(), &debate.flag_values(), &request).await
        }
        Some(Commands::Branch { id, at, swap_sides, seat, topic, pin, inject, json, debate }) => {
            let asked = branch::Asked { id: id.as_deref(), at, swap_sides, seats: &seat, topic, pin, inject, json };
            branch::from_args(config_file.as_ref(), asked, *debate).await
        }
        Some(Commands::Formats { action, json }) => {
            let config = load::config(config_file.as_ref(), &[])?;
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
        Some(Commands::Tournament { action, file, dry_run, json, debate }) => {
            tournament::from_args(config_file.as_ref(), action, file.as_deref(), (dry_run, json), &debate).await
        }
        Some(Commands::Mcp { debate }) => mcp_server::serve(config_file.as_ref(), debate.flag_values()).await,
        Some(Commands::Stats { id, tag, json, export, rows, force }) => {
            let counted = stats::Counted { id: id.as_deref(), tag: tag.as_deref(), json };
            match export {
                Some(file) => stats::export(config_file.as_ref(), &counted, &file, rows.into(), force)?,
                None => stats::stats(&counted)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Model { action }) => {
            model::command(action, config_file.as_ref()).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Config { action: ConfigAction::Show { debate } }) => {
            let config = load::config(config_file.as_ref(), &debate.flag_values())?;
            run::show_config(&config).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Config { action: ConfigAction::Init { force } }) => {
            load::init(config_file, force)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Commands::Completions { .. } | Commands::Man { .. }) => unreachable!("answered before the runtime starts"),
        None => {
            let config = load::seated(config_file.as_ref(), &[cli.debate.flag_values(), theme].concat(), &cli.seat)?;
            studio::open(&config, cli.topic).await
        }
    }
}

/// `heat watch [ID] [--json] [--web [ADDR]]`: the studio on a terminal,
/// else printed; with `--web`, the audience page served meanwhile (and
/// until Ctrl-C once the debate has ended).
async fn watch(
    config_file: Option<&std::path::PathBuf>,
    theme: &[crate::config::FlagValue],
    id: Option<&str>,
    json: bool,
    web: Option<&str>,
) -> anyhow::Result<std::process::ExitCode> {
    let target = watch::target(id)?;
    // Served for as long as this heat runs.
    let stage = match web {
        Some(addr) => Some(watch::serve(&target, addr).await?),
        None => None,
    };
    if !json && studio::on_terminal() {
        let config = load::config(config_file, theme)?;
        return studio::watch(&config, target, stage.as_ref().map(crate::web::Stage::url)).await;
    }
    watch::print(target, json).await?;
    if stage.is_some() {
        say!("heat: the debate has ended; the audience page stays up until Ctrl-C");
        tokio::signal::ctrl_c().await?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// `--theme` and `--present` as config flags: they are the studio's, so
/// only `heat`, `heat resume`, `heat replay` and `heat watch` take them.
fn studio_theme(cli: &Cli) -> anyhow::Result<Vec<FlagValue>> {
    let (studio_theme, present) = match &cli.command {
        None => (cli.theme.clone(), cli.present),
        Some(
            Commands::Resume { theme, present, .. }
            | Commands::Replay { theme, present, .. }
            | Commands::Watch { theme, present, .. },
        ) => (theme.clone().or_else(|| cli.theme.clone()), *present || cli.present),
        Some(_) if cli.theme.is_some() || cli.present => anyhow::bail!(
            "--theme and --present set up the studio: give them to `heat`, `heat resume`, `heat replay` or `heat watch`"
        ),
        Some(_) => (None, false),
    };
    let theme = studio_theme.map(|raw| FlagValue { key: "ui.theme".into(), raw, flag: "--theme".into() });
    let present = present.then(|| FlagValue { key: "ui.present".into(), raw: "true".into(), flag: "--present".into() });
    Ok(theme.into_iter().chain(present).collect())
}
