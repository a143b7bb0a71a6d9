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

/// What a debate asked with `seed` says of the seats it cannot reach: each
/// seat on a provider whose requests carry no seed (Anthropic's API, an
/// agent CLI), so no one reads the seed as making those turns repeatable.
/// `None` without a seed, or when every seat takes it (a person's seat is
/// not sampled, and an unknown provider, a test double, is passed over).
pub fn unseeded(seed: Option<u64>, participants: &[super::Participant]) -> Option<String> {
    use crate::provider::ProviderKind;
    let seed = seed?;
    let missed: Vec<String> = participants
        .iter()
        .filter_map(|p| {
            let kind = ProviderKind::from_name(&p.provider)?;
            let wire = kind.wire();
            (!wire.takes_seed() && !kind.is_person()).then(|| format!("the {} ({})", p.role.key(), kind.name()))
        })
        .collect();
    let (named, verb) = match missed.split_last() {
        Some((last, [])) => (last.clone(), "takes"),
        Some((last, rest)) => (format!("{} and {last}", rest.join(", ")), "take"),
        None => return None,
    };
    Some(format!(
        "The seed {seed} goes to the seats that take one; {named} {verb} none, so those turns will not repeat with it"
    ))
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

    #[test]
    fn the_seats_a_seed_cannot_reach_are_named() {
        use crate::debate::{Participant, Role};
        let seats = [
            Participant::new(Role::Advocate, "openai", "gpt-4.1"),
            Participant::new(Role::Skeptic, "claude", "sonnet"),
            Participant::new(Role::Judge, "anthropic", "claude-sonnet-4-5"),
        ];
        assert_eq!(
            unseeded(Some(11), &seats).as_deref(),
            Some(
                "The seed 11 goes to the seats that take one; the skeptic (claude) and the judge (anthropic) take none, \
                 so those turns will not repeat with it"
            )
        );
        assert_eq!(unseeded(None, &seats), None, "no seed, nothing to say");
        let reached = [Participant::new(Role::Advocate, "openai", "a"), Participant::new(Role::Skeptic, "local", "b")];
        assert_eq!(unseeded(Some(11), &reached), None);
        let person = [Participant::new(Role::Skeptic, "human", "you")];
        assert_eq!(unseeded(Some(11), &person), None, "a person is not sampled");
    }
}
