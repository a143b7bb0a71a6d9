//! Length caps on a JSON schema's strings. A server whose grammar holds an
//! answer to a schema (llama.cpp's, Ollama's, the embedded model's) holds it
//! to the caps too, so a model that writes on inside a string still closes
//! its object before its token limit. A strict API (OpenAI's, Anthropic's
//! `output_config`) refuses length constraints, so caps go only where a
//! server is known, or found, to need them.

use serde_json::Value;

/// The shortest cap a served answer's strings get, whatever its token limit.
const SERVED_MIN: u64 = 120;
/// The longest: a verdict of three full sentences fits well inside it.
const SERVED_MAX: u64 = 600;

/// Gives every string in `schema` without a cap or a fixed set of values
/// a `maxLength` of `max` characters; caps already there stay.
pub fn cap_strings(schema: &mut Value, max: u64) {
    let Some(object) = schema.as_object_mut() else { return };
    let is_string = object.get("type").and_then(Value::as_str) == Some("string");
    if is_string && !object.contains_key("maxLength") && !object.contains_key("enum") {
        object.insert("maxLength".into(), max.into());
    }
    for child in object.values_mut() {
        match child {
            Value::Object(_) => cap_strings(child, max),
            Value::Array(items) => items.iter_mut().for_each(|item| cap_strings(item, max)),
            _ => {}
        }
    }
}

/// The cap for a served answer of at most `max_tokens` tokens: three
/// quarters of a character a token, so two capped strings and the JSON
/// around them fit (about three characters make a token), within
/// [`SERVED_MIN`, `SERVED_MAX`].
pub fn served_cap(max_tokens: u32) -> u64 {
    (u64::from(max_tokens) * 3 / 4).clamp(SERVED_MIN, SERVED_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_free_string_gets_a_cap_and_a_cap_or_an_enum_already_there_stays() {
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": {
                "verdict": { "type": "string" },
                "topic": { "type": "string", "maxLength": 80 },
                "ahead": { "type": "string", "enum": ["a", "b"] },
                "heat": { "type": "number" },
                "issues": { "type": "array", "items": { "type": "object", "properties": {
                    "claim": { "type": "string" } } } }
            }
        });
        cap_strings(&mut schema, 300);
        assert_eq!(schema["properties"]["verdict"]["maxLength"], 300);
        assert_eq!(schema["properties"]["topic"]["maxLength"], 80);
        assert!(schema["properties"]["ahead"].get("maxLength").is_none());
        assert!(schema["properties"]["heat"].get("maxLength").is_none());
        assert_eq!(schema["properties"]["issues"]["items"]["properties"]["claim"]["maxLength"], 300);
    }

    #[test]
    fn a_served_cap_follows_the_token_limit_within_its_bounds() {
        assert_eq!(served_cap(1024), 600);
        assert_eq!(served_cap(400), 300);
        assert_eq!(served_cap(16), 120);
    }
}
