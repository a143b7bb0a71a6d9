//! The guard an agent CLI runs under when heat is the `heat` binary: a
//! small process of heat's own (`heat __agent-guard PID -- PROGRAM ARGS…`)
//! that leads the CLI's process group, starts the CLI in it, and ends the
//! whole group when the heat that started it dies, however it dies (a
//! SIGKILL included: the kernel tells the guard), so no CLI outlives heat.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use rustix::process::{Pid, Signal, getpgrp, getppid, kill_process_group, set_parent_process_death_signal};

/// The word that makes the `heat` binary a guard.
pub const WORD: &str = "__agent-guard";

/// The exit status of a guard whose program is not there, as a shell's.
pub const NOT_FOUND: i32 = 127;

/// The `heat` binary, where a CLI's guard is started from: set once by the
/// binary's `main` (a library user, a test, runs CLIs unguarded).
static GUARD: OnceLock<PathBuf> = OnceLock::new();

/// Makes this process's own executable the guard of every CLI it starts.
pub fn enable() {
    if let Ok(exe) = std::env::current_exe() {
        let _ = GUARD.set(exe);
    }
}

/// The command that starts `argv` under the guard, if one is enabled.
pub fn wrap(argv: &[String]) -> Option<Vec<String>> {
    let exe = GUARD.get()?;
    let mut wrapped = vec![exe.to_string_lossy().into_owned(), WORD.to_string(), std::process::id().to_string()];
    wrapped.push("--".to_string());
    wrapped.extend(argv.iter().cloned());
    Some(wrapped)
}

/// Runs the guard when `args` ask for it (`heat __agent-guard PID --
/// PROGRAM ARGS…`): its exit status, the CLI's own. `None`: heat runs as
/// usual.
pub fn from_args(args: &[String]) -> Option<ExitCode> {
    let [_, word, parent, dashes, program, rest @ ..] = args else { return None };
    if word != WORD || dashes != "--" {
        return None;
    }
    let parent: i32 = parent.parse().ok()?;
    Some(ExitCode::from(u8::try_from(guard(parent, program, rest)).unwrap_or(1)))
}

/// Starts `program` in this process's group and waits for it; ends the
/// whole group if the heat that started it (`parent`) dies first.
fn guard(parent: i32, program: &str, rest: &[String]) -> i32 {
    let told = set_parent_process_death_signal(Some(Signal::TERM)).is_ok();
    // Heat may have died before the kernel was asked to say so.
    if !told || getppid().map(Pid::as_raw_nonzero).map(std::num::NonZero::get) != Some(parent) {
        end_group();
        return 1;
    }
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return 1 };
    runtime.block_on(async {
        let Ok(mut dying) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) else {
            return 1;
        };
        let mut child = match tokio::process::Command::new(program).args(rest).spawn() {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return NOT_FOUND,
            Err(e) => {
                eprintln!("heat could not start {program}: {e}");
                return 1;
            }
        };
        tokio::select! {
            status = child.wait() => status.ok().and_then(|s| s.code()).unwrap_or(1),
            _ = dying.recv() => {
                end_group();
                1
            }
        }
    })
}

/// Ends every process of this group, the guard with them.
fn end_group() {
    let _ = kill_process_group(getpgrp(), Signal::KILL);
}
