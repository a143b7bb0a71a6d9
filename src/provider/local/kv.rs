//! A lane's keys and values for one layer, kept token after token: each
//! token's rows are appended (the cache is never copied whole to grow), in
//! `f16` (half the memory of `f32`, as llama.cpp keeps them) or `f32`, and
//! laid out per head, as `f32`, in one pass when the attention reads them.

use half::f16;
use half::slice::HalfFloatSliceExt;

/// Values kept in `f16` or `f32`, token after token: `[position][head][dim]`.
#[derive(Debug, Clone)]
enum Kept {
    Half(Vec<f16>),
    Full(Vec<f32>),
}

impl Kept {
    fn new(half: bool) -> Self {
        if half { Kept::Half(Vec::new()) } else { Kept::Full(Vec::new()) }
    }

    fn len(&self) -> usize {
        match self {
            Kept::Half(v) => v.len(),
            Kept::Full(v) => v.len(),
        }
    }

    fn push(&mut self, rows: &[f32]) {
        match self {
            Kept::Half(v) => {
                let at = v.len();
                v.resize(at + rows.len(), f16::ZERO);
                v[at..].convert_from_f32_slice(rows);
            }
            Kept::Full(v) => v.extend_from_slice(rows),
        }
    }

    fn truncate(&mut self, len: usize) {
        match self {
            Kept::Half(v) => v.truncate(len),
            Kept::Full(v) => v.truncate(len),
        }
    }

    /// The values as `[head][position][dim]` in `f32`, for `heads` heads
    /// of `dim` values each.
    fn per_head(&self, heads: usize, dim: usize) -> Vec<f32> {
        let positions = self.len() / (heads * dim).max(1);
        let mut out = vec![0.0_f32; positions * heads * dim];
        for (head, rows) in out.chunks_exact_mut(positions * dim).enumerate() {
            for (position, row) in rows.chunks_exact_mut(dim).enumerate() {
                let at = (position * heads + head) * dim;
                match self {
                    Kept::Half(v) => v[at..at + dim].convert_to_f32_slice(row),
                    Kept::Full(v) => row.copy_from_slice(&v[at..at + dim]),
                }
            }
        }
        out
    }
}

/// One layer's keys and values for every position read so far.
#[derive(Debug, Clone)]
pub struct LayerCache {
    /// Values per position: key/value heads × head width.
    width: usize,
    keys: Kept,
    values: Kept,
}

impl LayerCache {
    /// An empty cache of `width` values a position, kept in `f16` when `half`.
    pub fn new(width: usize, half: bool) -> Self {
        Self { width, keys: Kept::new(half), values: Kept::new(half) }
    }

    /// How many positions it holds.
    pub fn positions(&self) -> usize {
        self.keys.len() / self.width.max(1)
    }

    /// Appends the keys and values of new positions, each `[position][head][dim]`.
    pub fn push(&mut self, keys: &[f32], values: &[f32]) {
        debug_assert!(keys.len() == values.len() && keys.len().is_multiple_of(self.width.max(1)));
        self.keys.push(keys);
        self.values.push(values);
    }

    /// Forgets every position from `len` on.
    pub fn truncate(&mut self, len: usize) {
        self.keys.truncate(len * self.width);
        self.values.truncate(len * self.width);
    }

    /// The keys and the values as `[head][position][dim]` in `f32`, for
    /// `heads` heads.
    pub fn per_head(&self, heads: usize) -> (Vec<f32>, Vec<f32>) {
        let dim = self.width / heads.max(1);
        (self.keys.per_head(heads, dim), self.values.per_head(heads, dim))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_appended_read_back_per_head_and_a_cut_forgets_the_rest() {
        // Two heads of two values; three positions, appended one then two.
        for half in [false, true] {
            let mut cache = LayerCache::new(4, half);
            cache.push(&[1.0, 2.0, 10.0, 20.0], &[-1.0, -2.0, -10.0, -20.0]);
            cache.push(&[3.0, 4.0, 30.0, 40.0, 5.0, 6.0, 50.0, 60.0], &[0.5; 8]);
            assert_eq!(cache.positions(), 3);
            let (keys, values) = cache.per_head(2);
            assert_eq!(keys, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
            assert_eq!(values[..2], [-1.0, -2.0]);
            assert_eq!(values[6..8], [-10.0, -20.0]);
            cache.truncate(1);
            assert_eq!(cache.positions(), 1);
            assert_eq!(cache.per_head(2).0, [1.0, 2.0, 10.0, 20.0]);
        }
        // f16 rounds as the model's cache does.
        let mut cache = LayerCache::new(1, true);
        cache.push(&[0.1], &[0.1]);
        assert_eq!(cache.per_head(1).0, [f16::from_f32(0.1).to_f32()]);
    }
}
