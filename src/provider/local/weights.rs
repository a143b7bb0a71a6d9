//! Loading a GGUF file into the engine's Llama ([`super::llama`]). Tensors stored as
//! `Q4_1` (the default model's format) are requantized to `Q8_0`: candle has
//! only a scalar kernel for `Q4_1` and a SIMD one for `Q8_0` (about twice the
//! speed, for 50 MB more). The requantized model is kept beside the file it
//! came from (`NAME.gguf.q8_0`, marked with the source's size and time), so
//! later loads read it straight in: faster, and without holding the whole
//! converted model in memory while the engine builds from it. Where that
//! file cannot be written, the conversion happens in memory each time.

use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek};
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use candle_core::Device;
use candle_core::quantized::gguf_file::{self, Content, TensorInfo, Value};
use candle_core::quantized::{GgmlDType, QTensor};

use super::llama::Llama;

/// Architectures the engine's Llama runs.
const ARCHITECTURES: [&str; 2] = ["llama", "mistral"];
/// The metadata key that ties a requantized copy to its source.
const SOURCE_KEY: &str = "heat.requantized_from";

/// The file's metadata (vocabulary, template), when it is a model this
/// engine runs; the error says what the file is when it is not.
pub fn metadata(path: &Path) -> anyhow::Result<Content> {
    read_metadata(&mut open(path)?)
}

fn read_metadata<R: Read + Seek>(reader: &mut R) -> anyhow::Result<Content> {
    let content = Content::read(reader).map_err(|e| anyhow!("it is not a GGUF model file ({})", first_line(&e)))?;
    check_architecture(&content)?;
    Ok(content)
}

/// Reads `path`'s weights for contexts of up to `positions` tokens; the
/// error says what the file is when it is not a model this engine runs.
pub fn load(path: &Path, positions: usize) -> anyhow::Result<Llama> {
    let mut reader = open(path)?;
    let content = read_metadata(&mut reader)?;
    if !content.tensor_infos.values().any(|t| t.ggml_dtype == GgmlDType::Q4_1) {
        return build(&content, &mut reader, positions);
    }
    let fingerprint = fingerprint(path)?;
    let cached = cache_path(path);
    if let Some(loaded) = load_cached(&cached, &fingerprint, positions) {
        return Ok(loaded);
    }
    let (requantized, data) = requantize(&content, &mut reader)?;
    if write_cache(&cached, &requantized, &data, &fingerprint).is_ok()
        && let Some(loaded) = load_cached(&cached, &fingerprint, positions)
    {
        return Ok(loaded);
    }
    tracing::warn!(path = %cached.display(), "could not keep the requantized model; converting in memory");
    build(&requantized, &mut Cursor::new(data), positions)
}

/// Where the requantized copy of `path` is kept.
pub fn cache_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".q8_0");
    path.with_file_name(name)
}

fn open(path: &Path) -> anyhow::Result<BufReader<File>> {
    let file = File::open(path).with_context(|| format!("could not open {}", path.display()))?;
    Ok(BufReader::new(file))
}

fn check_architecture(content: &Content) -> anyhow::Result<()> {
    let arch = content.metadata.get("general.architecture").and_then(|v| v.to_string().ok()).cloned();
    let arch = arch.unwrap_or_default();
    if !ARCHITECTURES.contains(&arch.as_str()) {
        bail!(
            "its architecture is {:?}; the embedded engine runs Llama-architecture models (SmolLM2, Llama, Mistral, TinyLlama)",
            if arch.is_empty() { "missing" } else { &arch }
        );
    }
    Ok(())
}

fn build<R: Read + Seek>(content: &Content, reader: &mut R, positions: usize) -> anyhow::Result<Llama> {
    Llama::from_gguf(content, reader, positions, super::q8_0::runs_here()).map_err(|e| {
        anyhow!("its tensors do not fit a Llama model ({})", e.to_string().lines().next().unwrap_or_default())
    })
}

/// The source file's size and modification time: a copy made from another
/// version of the file is not used.
fn fingerprint(path: &Path) -> anyhow::Result<String> {
    let meta = std::fs::metadata(path).with_context(|| format!("could not read {}", path.display()))?;
    let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
    Ok(format!("{} bytes, modified {}", meta.len(), modified.map_or(0, |d| d.as_secs())))
}

/// The requantized copy, when there is one made from this very source.
fn load_cached(cached: &Path, fingerprint: &str, positions: usize) -> Option<Llama> {
    let mut reader = open(cached).ok()?;
    let content = Content::read(&mut reader).ok()?;
    let source = content.metadata.get(SOURCE_KEY).and_then(|v| v.to_string().ok())?;
    if source != fingerprint {
        return None;
    }
    build(&content, &mut reader, positions).ok()
}

/// Writes the copy beside its source, atomically (a temporary file renamed
/// into place), so a half-written copy is never read.
fn write_cache(cached: &Path, content: &Content, data: &[u8], fingerprint: &str) -> anyhow::Result<()> {
    let dir = cached.parent().context("no directory")?;
    let mut metadata: Vec<(&str, Value)> = content.metadata.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    metadata.push((SOURCE_KEY, Value::String(fingerprint.to_string())));
    let metadata: Vec<(&str, &Value)> = metadata.iter().map(|(k, v)| (*k, v)).collect();
    let mut reader = Cursor::new(data);
    let mut names: Vec<&String> = content.tensor_infos.keys().collect();
    names.sort();
    let tensors = names
        .iter()
        .map(|name| content.tensor(&mut reader, name, &Device::Cpu).map(|t| (name.as_str(), t)))
        .collect::<candle_core::Result<Vec<_>>>()?;
    let tensors: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (*k, v)).collect();
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    gguf_file::write(&mut std::io::BufWriter::new(file.as_file_mut()), &metadata, &tensors)?;
    file.as_file().sync_all()?;
    file.persist(cached)?;
    Ok(())
}

/// Every tensor, `Q4_1` ones as `Q8_0`, in a buffer of their own, with the
/// table that describes it.
fn requantize(content: &Content, reader: &mut BufReader<File>) -> anyhow::Result<(Content, Vec<u8>)> {
    let mut names: Vec<&String> = content.tensor_infos.keys().collect();
    names.sort();
    let mut data = Vec::new();
    let mut infos = std::collections::HashMap::new();
    for name in names {
        let tensor = content
            .tensor(reader, name, &Device::Cpu)
            .map_err(|e| anyhow!("could not read {name}: {}", first_line(&e)))?;
        let tensor = if tensor.dtype() == GgmlDType::Q4_1 {
            let values = tensor.dequantize(&Device::Cpu).map_err(|e| anyhow!("could not read {name}: {e}"))?;
            QTensor::quantize(&values, GgmlDType::Q8_0).map_err(|e| anyhow!("could not convert {name}: {e}"))?
        } else {
            tensor
        };
        let bytes = tensor.data().map_err(|e| anyhow!("could not read {name}: {e}"))?;
        let info = TensorInfo { ggml_dtype: tensor.dtype(), shape: tensor.shape().clone(), offset: data.len() as u64 };
        data.extend_from_slice(&bytes);
        infos.insert(name.clone(), info);
    }
    let content = Content {
        magic: content.magic,
        metadata: content.metadata.clone(),
        tensor_infos: infos,
        tensor_data_offset: 0,
    };
    Ok((content, data))
}

/// The first line of an engine error: it may carry a backtrace after it.
fn first_line(error: &candle_core::Error) -> String {
    error.to_string().lines().next().unwrap_or_default().trim().to_string()
}
