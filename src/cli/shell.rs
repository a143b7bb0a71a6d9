//! `heat completions SHELL` and `heat man`: the shell completion scripts
//! and the manual page, both generated from the one command-line definition
//! (`args::Cli`), so neither can fall behind a flag.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;

/// Writes the completion script for `shell` to standard output.
pub fn completions(shell: Shell) -> anyhow::Result<()> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "heat", &mut out);
    write_out(&out)
}

/// Writes a manual page (roff) to standard output, `heat man | man -l -`:
/// heat(1), or with a command path (`run`, `sessions rm`) that command's
/// page, heat-run(1), which heat(1) names in its list of commands.
pub fn man(path: &[String]) -> anyhow::Result<()> {
    let mut command = built();
    for (depth, name) in path.iter().enumerate() {
        let Some(sub) = command.find_subcommand(name).cloned() else {
            let known: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
            let within = if depth == 0 { "heat".to_string() } else { format!("heat {}", path[..depth].join(" ")) };
            bail!("`{within}` has no command `{name}`; its commands are: {}", known.join(", "));
        };
        command = sub;
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(command).render(&mut out)?;
    write_out(&out)
}

/// Writes every page (heat.1 and one per command) into `dir`, made if missing.
pub fn man_pages(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("could not make {}", dir.display()))?;
    clap_mangen::generate_to(Cli::command(), dir)
        .with_context(|| format!("could not write the pages into {}", dir.display()))?;
    let pages = pages(&built());
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(dir);
    say!(
        "wrote {} into {}: `man heat` reads them when {} is on the manual path (see manpath(1))",
        crate::words::count(pages, "manual page"),
        dir.display(),
        parent.display()
    );
    Ok(())
}

/// How many pages a command and its commands make: one each.
fn pages(command: &clap::Command) -> usize {
    1 + command.get_subcommands().filter(|c| !c.is_hide_set()).map(pages).sum::<usize>()
}

/// The command line as the pages describe it: built, so every command knows
/// its full name (`heat-run`), and without clap's `help` command.
fn built() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

fn write_out(bytes: &[u8]) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()?;
    Ok(())
}
