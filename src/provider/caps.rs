//! Length caps on a JSON schema: its free strings and its lists. A server
//! whose grammar holds an answer to a schema (llama.cpp's, Ollama's, the
//! embedded model's) holds it to the caps too, so a model that writes on
//! inside a string, or adds item after item to a list, still closes its
//! object before its token limit. A strict API (OpenAI's, Anthropic's
//! `output_config`) refuses length constraints, so caps go only where a
//! server is known, or found, to need them.

use serde_json::Value;

/// The shortest cap a served answer's strings get, whatever its token limit.
const SERVED_MIN: u64 = 120;
/// The longest: a verdict of three full sentences fits well inside it.
const SERVED_MAX: u64 = 600;
/// Most items a list may hold: a side's scores are one per argument made,
/// and an argument makes two or three.
const SERVED_ITEMS: u64 = 6;

/// The caps a schema is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Characters in a string that has no cap or fixed set of values.
    pub string: u64,
    /// Items in a list that has no cap (`None`: lists are left alone).
    pub items: Option<u64>,
}

impl Caps {
    /// The caps for a served answer of at most `max_tokens` tokens: a
    /// string gets three quarters of a character a token, so two capped
    /// strings and the JSON around them fit (about three characters make a
    /// token), within [`SERVED_MIN`, `SERVED_MAX`]; a list [`SERVED_ITEMS`].
    pub fn for_answer(max_tokens: u32) -> Self {
        let string = (u64::from(max_tokens) * 3 / 4).clamp(SERVED_MIN, SERVED_MAX);
        Self { string, items: Some(SERVED_ITEMS) }
    }
}

/// Gives every string in `schema` without a cap or a fixed set of values a
/// `maxLength`, and every list without a cap a `maxItems`, as `caps` says;
/// caps already there stay.
pub fn cap(schema: &mut Value, caps: Caps) {
    let Some(object) = schema.as_object_mut() else { return };
    let kind = object.get("type").and_then(Value::as_str).map(str::to_owned);
    if kind.as_deref() == Some("string") && !object.contains_key("maxLength") && !object.contains_key("enum") {
        object.insert("maxLength".into(), caps.string.into());
    }
    if let (Some("array"), Some(items)) = (kind.as_deref(), caps.items)
        && !object.contains_key("maxItems")
    {
        object.insert("maxItems".into(), items.into());
    }
    for child in object.values_mut() {
        match child {
            Value::Object(_) => cap(child, caps),
            Value::Array(items) => items.iter_mut().for_each(|item| cap(item, caps)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_free_string_and_list_gets_a_cap_and_a_cap_or_an_enum_already_there_stays() {
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": {
                "verdict": { "type": "string" },
                "topic": { "type": "string", "maxLength": 80 },
                "ahead": { "type": "string", "enum": ["a", "b"] },
                "heat": { "type": "number" },
                "scores": { "type": "array", "items": { "type": "integer" } },
                "issues": { "type": "array", "maxItems": 3, "items": { "type": "object", "properties": {
                    "claim": { "type": "string" } } } }
            }
        });
        let mut strings_only = schema.clone();
        cap(&mut schema, Caps { string: 300, items: Some(6) });
        assert_eq!(schema["properties"]["verdict"]["maxLength"], 300);
        assert_eq!(schema["properties"]["topic"]["maxLength"], 80);
        assert!(schema["properties"]["ahead"].get("maxLength").is_none());
        assert!(schema["properties"]["heat"].get("maxLength").is_none());
        assert_eq!(schema["properties"]["scores"]["maxItems"], 6);
        assert_eq!(schema["properties"]["issues"]["maxItems"], 3);
        assert_eq!(schema["properties"]["issues"]["items"]["properties"]["claim"]["maxLength"], 300);
        cap(&mut strings_only, Caps { string: 300, items: None });
        assert!(strings_only["properties"]["scores"].get("maxItems").is_none());
    }

    #[test]
    fn a_served_answers_caps_follow_its_token_limit_within_their_bounds() {
        assert_eq!(Caps::for_answer(1024).string, 600);
        assert_eq!(Caps::for_answer(256).string, 192);
        assert_eq!(Caps::for_answer(16).string, 120);
        assert_eq!(Caps::for_answer(1024).items, Some(6));
    }
}
