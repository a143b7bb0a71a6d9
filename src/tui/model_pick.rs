//! The settings form's model picker: the models each provider's server
//! lists, asked once per provider while the form is open, and the matches
//! for what the person typed, stepped through with ←/→. A typed name that
//! no list holds is still taken: the picker offers, it does not decide.

use std::collections::BTreeMap;

/// Where a provider's list stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// Asked; no answer yet.
    Asking,
    Listed(Vec<String>),
    /// Why there is no list, in words the form shows.
    None(String),
}

/// The lists asked for so far, and the step through the matches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelPick {
    listings: BTreeMap<String, Listing>,
    /// What the person typed in the model's field: the matches are the
    /// listed models holding it. `None` until they type: every model.
    typed: Option<String>,
    /// The match shown in the field, once stepped to.
    at: Option<usize>,
}

/// Most matches the form names beside a field.
pub const SHOWN: usize = 6;

impl ModelPick {
    /// Whether `provider`'s list must still be asked for: a server's, not asked yet.
    pub fn wants(&self, provider: &str) -> bool {
        let server = crate::provider::ProviderKind::names_server(provider);
        server && !self.listings.contains_key(provider)
    }

    /// `provider`'s list is asked for.
    pub fn asking(&mut self, provider: &str) {
        self.listings.insert(provider.to_string(), Listing::Asking);
    }

    /// `provider`'s server answered.
    pub fn listed(&mut self, provider: &str, result: Result<Vec<String>, String>) {
        let listing = match result {
            Ok(models) if !models.is_empty() => Listing::Listed(models),
            Ok(_) => Listing::None("its server lists no models".into()),
            Err(why) => Listing::None(why),
        };
        self.listings.insert(provider.to_string(), listing);
    }

    pub fn listing(&self, provider: &str) -> Option<&Listing> {
        self.listings.get(provider)
    }

    /// A field was left or entered: the step starts again, with no filter.
    pub fn reset(&mut self) {
        self.typed = None;
        self.at = None;
    }

    /// The person typed in the field, which now reads `text`: it filters.
    pub fn typed(&mut self, text: &str) {
        self.typed = Some(text.to_string());
        self.at = None;
    }

    /// The listed models of `provider` that hold what was typed (in any case).
    pub fn matches(&self, provider: &str) -> Vec<&str> {
        let Some(Listing::Listed(models)) = self.listings.get(provider) else { return Vec::new() };
        let typed = self.typed.as_deref().unwrap_or_default().trim().to_lowercase();
        models.iter().map(String::as_str).filter(|m| m.to_lowercase().contains(&typed)).collect()
    }

    /// The match stepped to, if any.
    pub fn at(&self) -> Option<usize> {
        self.at
    }

    /// Steps to the next (or the previous) match of `provider`'s list, going
    /// round; the model it names, if there is a match.
    pub fn step(&mut self, provider: &str, forward: bool) -> Option<String> {
        let matches = self.matches(provider);
        if matches.is_empty() {
            return None;
        }
        let n = matches.len();
        let next = match (self.at, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(at), true) => (at + 1) % n,
            (Some(at), false) => (at + n - 1) % n,
        };
        let model = matches[next].to_string();
        self.at = Some(next);
        Some(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed() -> ModelPick {
        let mut pick = ModelPick::default();
        assert!(pick.wants("openai") && !pick.wants("local") && !pick.wants("auto"), "only a server's list is asked");
        pick.asking("openai");
        assert!(!pick.wants("openai"), "asked once");
        let models = ["gpt-4.1", "gpt-4.1-mini", "o4-mini", "GPT-5"].map(String::from).to_vec();
        pick.listed("openai", Ok(models));
        pick
    }

    #[test]
    fn typing_filters_the_list_and_the_arrows_step_through_the_matches_going_round() {
        let mut pick = listed();
        assert_eq!(pick.matches("openai").len(), 4, "nothing typed: every model");
        pick.typed("gpt");
        assert_eq!(pick.matches("openai"), ["gpt-4.1", "gpt-4.1-mini", "GPT-5"], "in any case");
        assert_eq!(pick.step("openai", true).as_deref(), Some("gpt-4.1"));
        assert_eq!(pick.step("openai", true).as_deref(), Some("gpt-4.1-mini"));
        assert_eq!(pick.step("openai", false).as_deref(), Some("gpt-4.1"));
        assert_eq!(pick.step("openai", false).as_deref(), Some("GPT-5"), "back past the first goes round");
        pick.typed("claude");
        assert_eq!(pick.step("openai", true), None, "no match: the typed name stands");
        pick.reset();
        assert_eq!(
            pick.step("openai", false).as_deref(),
            Some("GPT-5"),
            "the filter went with the field: the last of all"
        );
    }

    #[test]
    fn a_server_without_a_list_says_why() {
        let mut pick = ModelPick::default();
        pick.listed("ollama", Err("no Ollama server at http://localhost:11434".into()));
        assert_eq!(pick.listing("ollama"), Some(&Listing::None("no Ollama server at http://localhost:11434".into())));
        assert!(pick.matches("ollama").is_empty());
        pick.listed("openai", Ok(Vec::new()));
        assert_eq!(pick.listing("openai"), Some(&Listing::None("its server lists no models".into())));
    }
}
