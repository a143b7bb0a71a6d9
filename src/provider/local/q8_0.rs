//! Matrix products over weights kept as `Q8_0` (blocks of 32 signed bytes
//! and one scale): the engine's own kernel for every linear layer of a
//! `Q8_0` model on x86-64.
//!
//! candle's fast tiled kernel takes only widths that are a multiple of 256
//! (and AVX-512 VNNI). SmolLM2's width is 576, so candle fell back to one
//! dot product per (weight row, token), loading both blocks for each, and
//! reading prompts cost nearly as much per token as writing answers. Here a
//! step multiplies a tile of weight rows by a tile of tokens, so each block
//! loaded serves several products, for any width that is a multiple of 32.
//!
//! Activations are quantized to `Q8_0` per token (scale rounded to `f16`),
//! as llama.cpp and candle's generic path do: the results are theirs up to
//! the order floats are summed in. The SIMD path needs AVX2 and FMA, found
//! at run time; without them the model keeps candle's kernels.

// The SIMD loads read through raw pointers and the AVX2 functions may only
// be called once the CPU is known to have AVX2. With `team.rs` (a borrowed
// share handed to a helper thread), the only places heat needs `unsafe`
// beyond setting the environment at start-up.
#![allow(unsafe_code)]

use std::io::{Read, Seek, SeekFrom};
use std::sync::{Mutex, PoisonError};

use anyhow::Context;
use candle_core::quantized::GgmlDType;
use candle_core::quantized::gguf_file::Content;
use candle_core::{Device, Tensor};
use half::f16;
use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
use rayon::slice::ParallelSliceMut;

use super::team::Team;

/// Values in one block.
const BLOCK: usize = 32;
/// Bytes of one block in a GGUF file: an `f16` scale, then the values.
const BLOCK_BYTES: usize = 34;
/// Weight rows per tile.
const ROWS: usize = 4;
/// Tokens per tile.
const TOKENS: usize = 3;
/// Block products below which a product stays on one thread, over
/// rayon's pool (a prompt's products; a generated token's when no team
/// helps). Waking rayon's other threads costs tens of microseconds a
/// product, about what each layer's products of one generated token (10,368
/// to 27,648 block products for SmolLM2) gain from a second thread.
const PARALLEL_WORK: usize = 65_536;
/// Block products below which one token's product stays on one thread
/// when a [`Team`] helps: handing a share to an awake helper costs about a
/// microsecond, so only the smallest products are not worth it.
const TEAM_WORK: usize = 2_048;
/// Shares one token's product is cut into for a [`Team`]: claimed one at
/// a time, so a helper that starts late takes fewer and none is waited for.
/// On this 2-core machine 2, 4 and 8 gave the same speed within its ±15 %.
const TEAM_CHUNKS: usize = 4;

/// A weight matrix of `rows` × `blocks × 32`, kept as `Q8_0` with its
/// scales widened to `f32` once, at load. Each four rows' blocks are kept
/// side by side (block `b` of rows `4t..4t + 4`, then block `b + 1`), so a
/// tile reads its weights as one stream: see [`packed`].
pub struct Q8Matrix {
    rows: usize,
    blocks: usize,
    scales: Vec<f32>,
    values: Vec<i8>,
}

/// Tokens' activations quantized the same way: `count` rows of `blocks`.
struct Quantized {
    count: usize,
    blocks: usize,
    scales: Vec<f32>,
    values: Vec<i8>,
}

impl Q8Matrix {
    /// The matrix in a GGUF file's `Q8_0` bytes, when this CPU runs the
    /// kernel and the shape is one it takes.
    pub fn from_gguf_bytes(data: &[u8], rows: usize, columns: usize) -> Option<Self> {
        if !simd_available() || columns == 0 || !columns.is_multiple_of(BLOCK) {
            return None;
        }
        Self::from_bytes(data, rows, columns)
    }

    fn from_bytes(data: &[u8], rows: usize, columns: usize) -> Option<Self> {
        use half::slice::HalfFloatSliceExt;
        let blocks = columns / BLOCK;
        if !rows.is_multiple_of(ROWS) || data.len() != rows * blocks * BLOCK_BYTES {
            return None;
        }
        let mut narrow_scales = vec![f16::ZERO; rows * blocks];
        let mut values = vec![0; rows * columns];
        for (row, bytes) in data.chunks_exact(blocks * BLOCK_BYTES).enumerate() {
            for (b, block) in bytes.chunks_exact(BLOCK_BYTES).enumerate() {
                let at = packed(row, b, blocks);
                narrow_scales[at] = f16::from_le_bytes([block[0], block[1]]);
                for (value, &byte) in values[at * BLOCK..(at + 1) * BLOCK].iter_mut().zip(&block[2..]) {
                    *value = byte.cast_signed();
                }
            }
        }
        let mut scales = vec![0.0; rows * blocks];
        narrow_scales.convert_to_f32_slice(&mut scales);
        Some(Self { rows, blocks, scales, values })
    }

    /// The `Q8_0` tensor `name` read straight from a GGUF file into this
    /// layout (no copy in candle's form first), when the CPU runs the
    /// kernel and it is a `Q8_0` matrix; `None` leaves it to candle.
    pub fn read<R: Read + Seek>(content: &Content, reader: &mut R, name: &str) -> anyhow::Result<Option<Self>> {
        let info = content.tensor_infos.get(name).with_context(|| format!("no tensor {name}"))?;
        let &[rows, columns] = info.shape.dims() else { return Ok(None) };
        if info.ggml_dtype != GgmlDType::Q8_0 || !simd_available() || !columns.is_multiple_of(BLOCK) {
            return Ok(None);
        }
        let mut data = vec![0; rows * columns / BLOCK * BLOCK_BYTES];
        reader.seek(SeekFrom::Start(content.tensor_data_offset + info.offset))?;
        reader.read_exact(&mut data).with_context(|| format!("the file ends inside tensor {name}"))?;
        Ok(Self::from_gguf_bytes(&data, rows, columns))
    }

    /// Row `row` as floats, appended to `out`; `false` when there is no such row.
    pub fn dequantize_row(&self, row: usize, out: &mut Vec<f32>) -> bool {
        if row >= self.rows {
            return false;
        }
        for b in 0..self.blocks {
            let at = packed(row, b, self.blocks);
            let scale = self.scales[at];
            out.extend(self.values[at * BLOCK..(at + 1) * BLOCK].iter().map(|&v| f32::from(v) * scale));
        }
        true
    }

    /// `input · selfᵀ` for an input of shape `(…, columns)`: shape `(…, rows)`;
    /// one token's product shared with `team` when there is one and it is free.
    pub fn forward(&self, input: &Tensor, team: Option<&Team>) -> candle_core::Result<Tensor> {
        let mut shape = input.dims().to_vec();
        let columns = shape.pop().unwrap_or_default();
        if columns != self.blocks * BLOCK {
            candle_core::bail!("a {columns}-wide input for a {}-wide Q8_0 matrix", self.blocks * BLOCK);
        }
        let values = input.flatten_all()?.to_vec1::<f32>()?;
        let quantized = Quantized::new(&values, self.blocks);
        let mut out = vec![0.0; quantized.count * self.rows];
        self.product(&quantized, &mut out, team);
        shape.push(self.rows);
        Tensor::from_vec(out, shape, &Device::Cpu)
    }

    /// Writes `out[token × rows + row]` for every token and row: on the
    /// calling thread, or split by rows, for one token with `team` (when
    /// free), else over rayon's pool when it has more than one thread, each
    /// when the product is large enough to pay for it.
    fn product(&self, input: &Quantized, out: &mut [f32], team: Option<&Team>) {
        debug_assert_eq!(input.blocks, self.blocks);
        debug_assert_eq!(out.len(), input.count * self.rows);
        let threads = rayon::current_num_threads();
        if input.count == 1
            && self.rows * self.blocks >= TEAM_WORK
            && let Some(team) = team
        {
            let share = self.rows.div_ceil(TEAM_CHUNKS).next_multiple_of(ROWS);
            let parts: Vec<Mutex<(usize, &mut [f32])>> =
                out.chunks_mut(share).enumerate().map(|(i, sums)| Mutex::new((i * share, sums))).collect();
            let split = team.try_run(parts.len(), &|chunk| {
                let mut part = parts[chunk].lock().unwrap_or_else(PoisonError::into_inner);
                let (start, ref mut sums) = *part;
                self.product_rows(input, start..start + sums.len(), sums);
            });
            if split {
                return;
            }
        }
        if threads <= 1 || self.rows * self.blocks * input.count < PARALLEL_WORK {
            self.product_rows(input, 0..self.rows, out);
            return;
        }
        let share = self.rows.div_ceil(threads).next_multiple_of(ROWS);
        if input.count == 1 {
            // One token's sums lie row after row: each share writes its own.
            out.par_chunks_mut(share).enumerate().for_each(|(part, sums)| {
                let start = part * share;
                self.product_rows(input, start..start + sums.len(), sums);
            });
            return;
        }
        let parts: Vec<(usize, Vec<f32>)> = (0..self.rows)
            .step_by(share)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|start| {
                let rows = start..(start + share).min(self.rows);
                let mut part = vec![0.0; input.count * rows.len()];
                self.product_rows(input, rows, &mut part);
                (start, part)
            })
            .collect();
        for (start, part) in parts {
            let width = part.len() / input.count;
            for (token, sums) in part.chunks_exact(width).enumerate() {
                let at = token * self.rows + start;
                out[at..at + width].copy_from_slice(sums);
            }
        }
    }

    /// The products with rows `rows` (a range of whole fours), written as
    /// `out[token × rows.len() + row - rows.start]`.
    fn product_rows(&self, input: &Quantized, rows: std::ops::Range<usize>, out: &mut [f32]) {
        let whole_tokens = input.count / TOKENS * TOKENS;
        let width = rows.len();
        for row in rows.clone().step_by(ROWS) {
            let column = row - rows.start;
            for token in (0..whole_tokens).step_by(TOKENS) {
                self.tile::<TOKENS>(input, row, token, &mut out[token * width + column..], width);
            }
            for token in whole_tokens..input.count {
                self.tile::<1>(input, row, token, &mut out[token * width + column..], width);
            }
        }
    }

    /// The products of rows `row..row + ROWS` with tokens `token..token +
    /// C`, written as `out[c × width + r]`.
    fn tile<const C: usize>(&self, input: &Quantized, row: usize, token: usize, out: &mut [f32], width: usize) {
        assert!(
            row.is_multiple_of(ROWS)
                && row + ROWS <= self.rows
                && token + C <= input.count
                && input.blocks == self.blocks
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Q8Matrix` exists only where `simd_available` found AVX2
        // and FMA, and the assertion above keeps every read in bounds.
        let sums = unsafe { avx2::tile::<C>(self, input, row, token) };
        #[cfg(not(target_arch = "x86_64"))]
        let sums = portable_tile::<C>(self, input, row, token);
        for (r, row_sums) in sums.iter().enumerate() {
            for (c, sum) in row_sums.iter().enumerate() {
                out[c * width + r] = *sum;
            }
        }
    }
}

impl Quantized {
    /// Each `blocks × 32` row of `values` as `Q8_0`, the way llama.cpp
    /// quantizes activations: the scale maps the largest magnitude to 127
    /// and is kept at `f16`'s precision.
    fn new(values: &[f32], blocks: usize) -> Self {
        let count = values.len() / (blocks * BLOCK);
        let mut scales = vec![0.0; count * blocks];
        let mut quantized = vec![0; count * blocks * BLOCK];
        #[cfg(target_arch = "x86_64")]
        if simd_available() {
            // SAFETY: the CPU has AVX2 and FMA, checked just above.
            unsafe { avx2::quantize(values, &mut scales, &mut quantized) };
            return Self { count, blocks, scales, values: quantized };
        }
        quantize(values, &mut scales, &mut quantized);
        Self { count, blocks, scales, values: quantized }
    }
}

/// Quantizes `values` block by block into `scales` and `quantized`. Inlined
/// into a caller compiled for AVX2, the compiler turns it into SIMD code
/// (rounding included, which is otherwise a call per value).
#[allow(clippy::inline_always)] // the point: compiled inside the AVX2 caller
#[inline(always)]
fn quantize(values: &[f32], scales: &mut [f32], quantized: &mut [i8]) {
    for ((block, scale), out) in values.chunks_exact(BLOCK).zip(scales).zip(quantized.chunks_exact_mut(BLOCK)) {
        let largest = block.iter().fold(0.0_f32, |m, v| m.max(v.abs()));
        let exact = largest / 127.0;
        let inverse = if exact == 0.0 { 0.0 } else { 1.0 / exact };
        *scale = f16::from_f32(exact).to_f32();
        for (q, v) in out.iter_mut().zip(block) {
            *q = (v * inverse).round() as i8;
        }
    }
}

/// Where block `b` of row `row` is kept, in blocks: rows go in fours, and
/// within four, block by block.
fn packed(row: usize, b: usize, blocks: usize) -> usize {
    (row / ROWS * blocks + b) * ROWS + row % ROWS
}

/// Whether the engine loads models onto this kernel: where the CPU runs
/// it, in an optimized build. A debug build (the test suite's) compiles
/// heat without optimization but candle with it (Cargo.toml), so there
/// candle's kernels are the faster ones by far; the tests load the kernel
/// themselves.
pub fn runs_here() -> bool {
    simd_available() && !cfg!(debug_assertions)
}

/// Whether this CPU runs the SIMD kernel.
fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The same tile in plain Rust: the reference the SIMD path is tested
/// against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn portable_tile<const C: usize>(matrix: &Q8Matrix, input: &Quantized, row: usize, token: usize) -> [[f32; C]; ROWS] {
    let mut sums = [[0.0; C]; ROWS];
    for (r, row_sums) in sums.iter_mut().enumerate() {
        for (c, sum) in row_sums.iter_mut().enumerate() {
            for b in 0..matrix.blocks {
                let w = packed(row + r, b, matrix.blocks);
                let x = (token + c) * input.blocks + b;
                let dot: i32 = matrix.values[w * BLOCK..(w + 1) * BLOCK]
                    .iter()
                    .zip(&input.values[x * BLOCK..(x + 1) * BLOCK])
                    .map(|(&a, &b)| i32::from(a) * i32::from(b))
                    .sum();
                *sum += dot as f32 * (matrix.scales[w] * input.scales[x]);
            }
        }
    }
    sums
}

// `_mm256_loadu_si256` reads unaligned memory: its pointer type is not a
// promise of alignment.
#[allow(clippy::cast_ptr_alignment)]
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, __m256i, _mm_add_ps, _mm_add_ss, _mm_cvtss_f32, _mm_movehdup_ps, _mm_movehl_ps, _mm256_castps256_ps128,
        _mm256_cvtepi32_ps, _mm256_extractf128_ps, _mm256_fmadd_ps, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_maddubs_epi16, _mm256_set1_epi16, _mm256_set1_ps, _mm256_setzero_ps, _mm256_sign_epi8,
    };

    // By its whole path: `super` would read, to a reader of imports, as
    // `local/mod.rs`.
    use crate::provider::local::q8_0::{self as kernel, BLOCK, Q8Matrix, Quantized, ROWS};

    /// The tile's `ROWS × C` sums. Per block pair, the signs of the weights
    /// move onto the activations so `maddubs` can multiply unsigned by
    /// signed bytes: |w| · (x · sign w) = w · x.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA; `row` is a multiple of `ROWS`, rows `row..row + ROWS` and tokens
    /// `token..token + C` exist and both sides have the same block count.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn tile<const C: usize>(
        matrix: &Q8Matrix,
        input: &Quantized,
        row: usize,
        token: usize,
    ) -> [[f32; C]; ROWS] {
        let blocks = matrix.blocks;
        let ones = _mm256_set1_epi16(1);
        let mut sums = [[_mm256_setzero_ps(); C]; ROWS];
        let weights = matrix.values.as_ptr();
        let activations = input.values.as_ptr();
        for b in 0..blocks {
            let mut x = [ones; C];
            let mut x_scales = [0.0_f32; C];
            for c in 0..C {
                let at = (token + c) * blocks + b;
                // SAFETY: `at` is a block of an existing token (the caller's
                // contract), so its 32 bytes are inside `input.values`.
                x[c] = unsafe { _mm256_loadu_si256(activations.add(at * BLOCK).cast::<__m256i>()) };
                x_scales[c] = input.scales[at];
            }
            let first = (row / ROWS * blocks + b) * ROWS;
            for (r, row_sums) in sums.iter_mut().enumerate() {
                let at = first + r;
                // SAFETY: as above, for an existing weight row.
                let w = unsafe { _mm256_loadu_si256(weights.add(at * BLOCK).cast::<__m256i>()) };
                let magnitude = _mm256_sign_epi8(w, w);
                let w_scale = matrix.scales[at];
                for (c, sum) in row_sums.iter_mut().enumerate() {
                    let signed = _mm256_sign_epi8(x[c], w);
                    let dot = _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, signed), ones);
                    let scale = _mm256_set1_ps(w_scale * x_scales[c]);
                    *sum = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), scale, *sum);
                }
            }
        }
        let mut totals = [[0.0; C]; ROWS];
        for (row_totals, row_sums) in totals.iter_mut().zip(&sums) {
            for (total, sum) in row_totals.iter_mut().zip(row_sums) {
                *total = horizontal_sum(*sum);
            }
        }
        totals
    }

    /// [`kernel::quantize`], compiled for AVX2.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn quantize(values: &[f32], scales: &mut [f32], quantized: &mut [i8]) {
        kernel::quantize(values, scales, quantized);
    }

    #[target_feature(enable = "avx2,fma")]
    fn horizontal_sum(v: __m256) -> f32 {
        let quad = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        let pair = _mm_add_ps(quad, _mm_movehl_ps(quad, quad));
        _mm_cvtss_f32(_mm_add_ss(pair, _mm_movehdup_ps(pair)))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use candle_core::quantized::{QMatMul, QTensor};
    use candle_core::{DType, Module};

    /// A deterministic spread of values, positive and negative, with a
    /// few large ones as real weights have.
    fn values(count: usize, seed: u64) -> Vec<f32> {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (0..count)
            .map(|i| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let unit = (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
                if i % 97 == 0 { unit * 8.0 } else { unit }
            })
            .collect()
    }

    fn quantized_weights(rows: usize, columns: usize) -> (QTensor, Vec<u8>) {
        let dense = Tensor::from_vec(values(rows * columns, 7), (rows, columns), &Device::Cpu).unwrap();
        let q = QTensor::quantize(&dense, GgmlDType::Q8_0).unwrap();
        let bytes = q.data().unwrap().to_vec();
        (q, bytes)
    }

    #[test]
    fn every_tile_shape_gives_the_portable_sums() {
        if !simd_available() {
            return;
        }
        let (rows, columns, tokens) = (8, 96, 5);
        let (_, bytes) = quantized_weights(rows, columns);
        let matrix = Q8Matrix::from_bytes(&bytes, rows, columns).unwrap();
        let input = Quantized::new(&values(tokens * columns, 3), columns / BLOCK);
        let mut out = vec![0.0; tokens * rows];
        matrix.product(&input, &mut out, None);
        for token in 0..tokens {
            for row in 0..rows {
                let expected = portable_tile::<1>(&matrix, &input, row / ROWS * ROWS, token)[row % ROWS][0];
                let got = out[token * rows + row];
                assert!(
                    (got - expected).abs() <= 1e-4 * expected.abs().max(1.0),
                    "({token}, {row}): {got} vs {expected}"
                );
            }
        }
    }

    /// The same products as candle's own `Q8_0` matrix product, for the
    /// shapes the default model has (576 wide: 18 blocks; 1536: 48) and a
    /// prompt's worth of tokens as well as one.
    #[test]
    fn the_products_match_candles_q8_0_kernel() {
        if !simd_available() {
            return;
        }
        for (rows, columns, tokens) in [(64, 576, 1), (64, 576, 37), (20, 1536, 4), (8, 32, 2)] {
            let (weights, bytes) = quantized_weights(rows, columns);
            let ours = Q8Matrix::from_gguf_bytes(&bytes, rows, columns).unwrap();
            let theirs = QMatMul::from_qtensor(weights).unwrap();
            let input = Tensor::from_vec(values(tokens * columns, 11), (1, tokens, columns), &Device::Cpu).unwrap();
            let a = ours.forward(&input, None).unwrap();
            let b = theirs.forward(&input).unwrap();
            assert_eq!(a.dims(), b.dims());
            let largest = b.abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
            let difference = (a - b).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
            // candle quantizes a 1536-wide input per 256 values (Q8K), not
            // per 32: a rounding apart, not a different product.
            assert!(difference <= 0.01 * largest, "{rows}×{columns}, {tokens} tokens: {difference} of {largest}");
        }
    }

    /// Against the exact product of the dequantized weights: as close as
    /// candle for 576-wide inputs (the same arithmetic), and closer for
    /// 1536-wide ones, which candle quantizes per 256 values (measured:
    /// 0.043 against 0.109 root-mean-square).
    #[test]
    fn the_products_are_as_close_to_the_float_product_as_candles() {
        if !simd_available() {
            return;
        }
        for (rows, columns, tokens) in [(64, 576, 1), (64, 576, 37), (64, 1536, 1), (64, 1536, 5)] {
            let (weights, bytes) = quantized_weights(rows, columns);
            let exact_weights = weights.dequantize(&Device::Cpu).unwrap();
            let ours = Q8Matrix::from_gguf_bytes(&bytes, rows, columns).unwrap();
            let theirs = QMatMul::from_qtensor(weights).unwrap();
            let input = Tensor::from_vec(values(tokens * columns, 11), (tokens, columns), &Device::Cpu).unwrap();
            let exact = input.matmul(&exact_weights.t().unwrap()).unwrap();
            let error =
                |t: Tensor| (t - &exact).unwrap().sqr().unwrap().mean_all().unwrap().to_scalar::<f32>().unwrap();
            let (mine, candles) = (error(ours.forward(&input, None).unwrap()), error(theirs.forward(&input).unwrap()));
            assert!(mine <= candles * 1.001, "{rows}×{columns}, {tokens} tokens: {mine} against candle's {candles}");
            assert!(mine > 0.0, "quantized activations round");
        }
    }

    #[test]
    fn rows_split_over_threads_give_the_same_products() {
        if !simd_available() {
            return;
        }
        // A prompt's tokens (split by rows, gathered by token), and one token's long output row.
        for (rows, columns, tokens) in [(64, 576, 67), (4_096, 576, 1)] {
            let (_, bytes) = quantized_weights(rows, columns);
            let matrix = Q8Matrix::from_gguf_bytes(&bytes, rows, columns).unwrap();
            let input = Tensor::from_vec(values(tokens * columns, 5), (tokens, columns), &Device::Cpu).unwrap();
            let on = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| matrix.forward(&input, None)).unwrap().to_vec2::<f32>().unwrap()
            };
            assert!(rows * columns / BLOCK * tokens >= PARALLEL_WORK, "the split is taken");
            assert_eq!(on(1), on(3));
        }
    }

    #[test]
    fn one_token_shared_with_a_team_gives_the_same_products() {
        if !simd_available() {
            return;
        }
        // SmolLM2's narrowest layer (a key's), its feed-forward and a row count the shares do not divide.
        for (rows, columns) in [(192, 576), (1_536, 576), (1_004, 576)] {
            let (_, bytes) = quantized_weights(rows, columns);
            let matrix = Q8Matrix::from_gguf_bytes(&bytes, rows, columns).unwrap();
            let input = Tensor::from_vec(values(columns, 7), (1, columns), &Device::Cpu).unwrap();
            assert!(rows * columns / BLOCK >= TEAM_WORK, "the team is asked");
            let alone = matrix.forward(&input, None).unwrap().to_vec2::<f32>().unwrap();
            for helpers in [1, 3] {
                let team = Team::start(helpers).unwrap();
                for _ in 0..50 {
                    assert_eq!(matrix.forward(&input, Some(&team)).unwrap().to_vec2::<f32>().unwrap(), alone);
                }
            }
        }
    }

    #[test]
    fn a_shape_it_cannot_take_is_left_to_candle() {
        let (_, bytes) = quantized_weights(4, 64);
        assert!(Q8Matrix::from_bytes(&bytes, 4, 64).is_some());
        assert!(Q8Matrix::from_bytes(&bytes, 4, 48).is_none(), "not a multiple of 32");
        assert!(Q8Matrix::from_bytes(&bytes[..3 * 2 * BLOCK_BYTES], 3, 64).is_none(), "not a multiple of 4 rows");
        assert!(Q8Matrix::from_bytes(&bytes[1..], 4, 64).is_none(), "short data");
        let wrong = Tensor::zeros((1, 2, 32), DType::F32, &Device::Cpu).unwrap();
        assert!(Q8Matrix::from_bytes(&bytes, 4, 64).unwrap().forward(&wrong, None).is_err());
    }

    #[test]
    fn a_row_reads_back_as_the_file_stores_it() {
        let (rows, columns) = (12, 64);
        let (weights, bytes) = quantized_weights(rows, columns);
        let matrix = Q8Matrix::from_bytes(&bytes, rows, columns).unwrap();
        let dense = weights.dequantize(&Device::Cpu).unwrap().to_vec2::<f32>().unwrap();
        for (row, expected) in dense.iter().enumerate() {
            let mut got = Vec::new();
            assert!(matrix.dequantize_row(row, &mut got));
            assert_eq!(&got, expected, "row {row}");
        }
        assert!(!matrix.dequantize_row(rows, &mut Vec::new()));
    }

    #[test]
    fn activations_quantize_as_llama_cpp_does() {
        let mut row = vec![0.0_f32; 32];
        row[0] = -2.54;
        row[1] = 1.0;
        let q = Quantized::new(&row, 1);
        assert_eq!(q.values[0], -127);
        assert_eq!(q.values[1], 50);
        assert!((q.scales[0] - 0.02).abs() < 1e-5);
        let zeros = Quantized::new(&[0.0; 32], 1);
        assert!(zeros.values.iter().all(|&v| v == 0) && zeros.scales[0] == 0.0);
    }
}
