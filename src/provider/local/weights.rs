//! Loading a GGUF file into candle's quantized Llama. Tensors stored as
//! `Q4_1` (the default model's format) are requantized to `Q8_0` on load:
//! candle has only a scalar kernel for `Q4_1` and a SIMD one for `Q8_0`, so
//! this trades about 50 MB of memory and half a second of loading for
//! roughly twice the speed.

use std::fs::File;
use std::io::{BufReader, Cursor};
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use candle_core::Device;
use candle_core::quantized::gguf_file::{Content, TensorInfo};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_transformers::models::quantized_llama::ModelWeights;

/// Architectures candle's `quantized_llama` runs.
const ARCHITECTURES: [&str; 2] = ["llama", "mistral"];

/// A loaded model and the file's metadata (vocabulary, template).
pub struct Loaded {
    pub weights: ModelWeights,
    pub content: Content,
}

/// Reads `path`; the error says what the file is when it is not a model
/// this engine runs.
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    let file = File::open(path).with_context(|| format!("could not open {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let content =
        Content::read(&mut reader).map_err(|e| anyhow!("it is not a GGUF model file ({})", first_line(&e)))?;
    let arch = content.metadata.get("general.architecture").and_then(|v| v.to_string().ok()).cloned();
    let arch = arch.unwrap_or_default();
    if !ARCHITECTURES.contains(&arch.as_str()) {
        bail!(
            "its architecture is {:?}; the embedded engine runs Llama-architecture models (SmolLM2, Llama, Mistral, TinyLlama)",
            if arch.is_empty() { "missing" } else { &arch }
        );
    }
    let (requantized, data) = requantize(&content, &mut reader)?;
    let weights = ModelWeights::from_gguf(requantized, &mut Cursor::new(data), &Device::Cpu)
        .map_err(|e| anyhow!("its tensors do not fit a Llama model ({})", first_line(&e)))?;
    Ok(Loaded { weights, content })
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
