//! What it takes to run a debate again the same way, recorded as it
//! begins: the sampling seed sent (if any), a hash of the prompts in force
//! (the built-in ones, or a `--prompts` folder's) and heat's version. The
//! models, the format, the rounds and the first heat are recorded by the
//! events beside it; a rematch or a branch sends the same seed again.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A debate's recipe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipe {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The first 16 hex digits of the SHA-256 of every prompt in force.
    pub prompts: String,
    /// heat's version (`CARGO_PKG_VERSION`).
    pub version: String,
}

impl Recipe {
    /// The recipe of a debate asked with `prompts` (every prompt in force, in
    /// a fixed order) and `seed`.
    pub fn of<'a>(prompts: impl IntoIterator<Item = &'a str>, seed: Option<u64>) -> Recipe {
        Recipe { seed, prompts: hash(prompts), version: env!("CARGO_PKG_VERSION").to_string() }
    }

    /// In a few words: `seed 11 · prompts 3fa2c19e0b7d4a61 · heat 0.1.0`.
    pub fn describe(&self) -> String {
        let seed = self.seed.map_or_else(|| "no seed".to_string(), |s| format!("seed {s}"));
        format!("{seed} · prompts {} · heat {}", self.prompts, self.version)
    }
}

/// Each prompt's length and text in turn, so no two sets hash alike by
/// shifting text from one prompt to the next.
fn hash<'a>(prompts: impl IntoIterator<Item = &'a str>) -> String {
    let mut sha = Sha256::new();
    for text in prompts {
        sha.update((text.len() as u64).to_le_bytes());
        sha.update(text.as_bytes());
    }
    crate::library::document::hex(&sha.finalize()[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompts_hash_changes_with_any_prompt_and_not_otherwise() {
        let built_in = Recipe::of(["You argue.", "For.", "Against."], Some(7));
        assert_eq!(built_in.prompts.len(), 16);
        assert_eq!(built_in, Recipe::of(["You argue.", "For.", "Against."], Some(7)));
        assert_ne!(Recipe::of(["You argue.", "For!", "Against."], Some(7)).prompts, built_in.prompts);
        let moved = Recipe::of(["You argue", ".For.", "Against."], Some(7));
        assert_ne!(moved.prompts, built_in.prompts, "text moved between prompts");
        assert!(built_in.describe().starts_with("seed 7 · prompts "));
    }
}
