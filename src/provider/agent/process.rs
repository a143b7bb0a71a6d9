//! One agent CLI's process: started in a process group of its own in a
//! fresh working directory, its prompt written to its standard input, and
//! the whole group ended when heat lets go of it (a cancelled turn, the
//! turn clock, a quit), frozen while the debate is paused.

use std::path::Path;
use std::process::Stdio;

use rustix::process::{Pid, Signal, kill_process_group};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStderr, ChildStdout, Command};

/// A started CLI. Dropping it ends its whole process group, so no child of
/// the CLI outlives the turn.
pub struct Running {
    child: Child,
    group: Option<Pid>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// Why a command could not be started.
pub enum StartError {
    /// The program is not on the PATH (or not where the command says).
    NotFound,
    Other(std::io::Error),
}

/// Starts `argv` in `workdir` with `env` added to heat's environment, in a
/// process group of its own, and writes `prompt` to its standard input in
/// the background (closing it after, as a CLI reading its prompt waits for).
pub fn start(argv: &[String], env: &[(String, String)], workdir: &Path, prompt: String) -> Result<Running, StartError> {
    // Under heat's guard, where there is one, the group ends even if heat is killed.
    let guarded = super::guard::wrap(argv);
    let argv = guarded.as_deref().unwrap_or(argv);
    let (program, rest) = argv.split_first().ok_or(StartError::NotFound)?;
    let mut command = Command::new(program);
    command
        .args(rest)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => StartError::NotFound,
        _ => StartError::Other(e),
    })?;
    let group = child.id().and_then(|id| Pid::from_raw(i32::try_from(id).ok()?));
    if let Some(mut stdin) = child.stdin.take() {
        tokio::spawn(async move {
            // A CLI that exits before reading it all closes the pipe: its exit says why.
            let _ = stdin.write_all(prompt.as_bytes()).await;
            let _ = stdin.shutdown().await;
        });
    }
    Ok(Running { stdout: child.stdout.take(), stderr: child.stderr.take(), child, group })
}

impl Running {
    /// Freezes the whole group where it is (`true`) or lets it go on.
    pub fn hold(&self, held: bool) {
        if let Some(group) = self.group {
            let _ = kill_process_group(group, if held { Signal::STOP } else { Signal::CONT });
        }
    }

    /// Waits for the CLI to exit: its status code (`None`: ended by a signal).
    pub async fn exit_code(&mut self) -> std::io::Result<Option<i32>> {
        Ok(self.child.wait().await?.code())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(group) = self.group.take() {
            // SIGKILL ends a frozen group too.
            let _ = kill_process_group(group, Signal::KILL);
        }
    }
}
