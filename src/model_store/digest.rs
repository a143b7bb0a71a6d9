//! The sha256 of a model file, as a download checks it and `heat doctor`
//! reads it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use anyhow::Context;
use sha2::{Digest, Sha256};

use super::progress::Progress;

/// The sha256 of an open file from its start, in hex, reported as `checking`.
pub fn file_digest(file: &mut File, progress: &mut dyn FnMut(Progress)) -> anyhow::Result<String> {
    let read_back = "could not read the download back";
    let total = file.metadata().context(read_back)?.len();
    file.seek(SeekFrom::Start(0)).context(read_back)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut done = 0u64;
    loop {
        let n = file.read(&mut buffer).context(read_back)?;
        if n == 0 {
            return Ok(hex(&hasher.finalize()));
        }
        hasher.update(&buffer[..n]);
        done += n as u64;
        progress(Progress::new("checking", done, Some(total)));
    }
}

/// The sha256 of a file, in hex (for `heat doctor`'s check of the model).
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(64), |mut hex, b| {
        use std::fmt::Write as _;
        let _ = write!(hex, "{b:02x}");
        hex
    })
}
