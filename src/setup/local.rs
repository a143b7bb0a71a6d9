//! The embedded offline model's place in provider set-up: the file the
//! config points at (or the default install), whether it can serve or
//! must be installed first, and loading it for the roles that share it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::model_store;
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

/// Whether the configured model is the default one and is not on disk.
pub fn needs_install(config: &Config) -> bool {
    config.text("providers.local.model_path").is_none()
        && store::data_dir().is_ok_and(|dir| !model_store::is_installed(&dir))
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
        wide_prompts: config.defaulted("providers.local.wide_prompts"),
    };
    Some(Box::new(move |own: Option<&Path>, roles: usize| {
        let again = "run `heat model install` to fetch it again";
        let path = own.unwrap_or(&configured);
        let is_default = is_default && own.is_none();
        if is_default {
            // A cheap check before the engine reads a damaged file.
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
