//! Holding the embedded model to a JSON schema or a Lark grammar:
//! `llguidance` turns either into a token mask at each step, so even a tiny
//! model answers parseable JSON, or a line in a required form. Strings get a length cap and whitespace is fixed to the
//! compact form: a tiny model otherwise pads or rambles until the token cap
//! and never closes its object.

use std::sync::Arc;

use crate::provider::caps::Caps;
use anyhow::anyhow;
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use toktrie::{SimpleVob, TokEnv};

/// Longest string the grammar lets the model write when the schema sets none.
pub const MAX_STRING: u64 = 300;

/// Builds matchers for one vocabulary; shared by every lane.
pub struct Grammars {
    factory: Arc<ParserFactory>,
}

impl Grammars {
    pub fn new(env: &TokEnv) -> anyhow::Result<Self> {
        let mut factory = ParserFactory::new_simple(env).map_err(|e| anyhow!("could not index the vocabulary: {e}"))?;
        factory.quiet();
        Ok(Self { factory: Arc::new(factory) })
    }

    /// A matcher for answers that follow `schema`.
    pub fn for_schema(&self, schema: &serde_json::Value) -> anyhow::Result<Grammar> {
        let mut schema = schema.clone();
        crate::provider::caps::cap(&mut schema, Caps { string: MAX_STRING, items: None });
        if let Some(object) = schema.as_object_mut() {
            object.insert("x-guidance".into(), serde_json::json!({ "whitespace_flexible": false }));
        }
        let parser = self
            .factory
            .create_parser(TopLevelGrammar::from_json_schema(schema))
            .map_err(|e| anyhow!("could not turn the schema into a grammar: {e}"))?;
        Ok(Grammar { matcher: Matcher::new(Ok(parser)) })
    }

    /// A matcher for answers that follow a Lark grammar (`ChatRequest::grammar`).
    pub fn for_lark(&self, lark: &str) -> anyhow::Result<Grammar> {
        let parser = self
            .factory
            .create_parser(TopLevelGrammar::from_lark(lark.to_string()))
            .map_err(|e| anyhow!("could not read the grammar: {e}"))?;
        Ok(Grammar { matcher: Matcher::new(Ok(parser)) })
    }
}

/// One answer's grammar state.
pub struct Grammar {
    matcher: Matcher,
}

impl Grammar {
    /// The tokens allowed next (the end-of-turn token once the object is complete).
    pub fn mask(&mut self) -> anyhow::Result<SimpleVob> {
        self.matcher.compute_mask_or_eos().map_err(|e| anyhow!("the grammar failed: {e}"))
    }

    pub fn accept(&mut self, token: u32) -> anyhow::Result<()> {
        self.matcher.consume_token(token).map_err(|e| anyhow!("the grammar refused a token: {e}"))
    }

    /// Whether the answer is complete: nothing but the end may follow.
    pub fn is_done(&self) -> bool {
        self.matcher.is_stopped()
    }
}
