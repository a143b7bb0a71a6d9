//! The judge's `Verdict`: its schema, and parsing that survives real model
//! output (code fences, prose around the object, trailing commas, `heat` as a
//! string or out of range, missing optional fields).

pub mod claims;
pub mod scorecard;
pub mod scores;
pub mod sides;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::heat::Heat;

pub use claims::{ClaimStatus, NamedClaim};
pub use scorecard::Scorecard;
pub use scores::Scores;
pub use sides::{Ahead, Conceded, SideNames};

/// The judge's answer for one round.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub resolved: bool,
    pub verdict: String,
    /// Who the judge says is ahead; `None` when it did not say (an older
    /// log, a model that left it out, the embedded judge's chosen form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ahead: Option<Ahead>,
    /// Which side conceded a point this round; `None` when not said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conceded: Option<Conceded>,
    pub topic: String,
    pub heat: Heat,
    /// Each argument's score, in a format that asks for them.
    /// Boxed, as the scorecard is: a verdict rides in every event's enum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Box<Scores>>,
    /// The claims made this round, or whose standing it changed, in a
    /// format that keeps an argument map.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<NamedClaim>,
    /// Each side scored on the format's criteria, in a format that keeps
    /// an argument map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scorecard: Option<Box<Scorecard>>,
}

/// A heat as one of eight block heights, `▁` for the lowest and `█` for
/// the highest: a round's mark in a text chart.
pub fn spark(heat: Heat) -> char {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let share = heat.share().clamp(0.0, 1.0);
    BLOCKS[(share * 7.0).round() as usize]
}

/// A verdict a person in the judge's seat gives, written as a judge's
/// answer is, for the engine to read as it reads a model's. A question
/// or heat left out keeps the round's.
pub fn persons_answer(resolved: bool, ahead: Ahead, verdict: &str, topic: Option<&str>, heat: Option<Heat>) -> String {
    let mut answer = serde_json::json!({ "resolved": resolved, "verdict": verdict.trim(), "ahead": ahead });
    if let Some(topic) = topic.map(str::trim).filter(|t| !t.is_empty()) {
        answer["topic"] = Value::from(topic);
    }
    if let Some(heat) = heat {
        answer["heat"] = Value::from(f64::from(heat.get()));
    }
    answer.to_string()
}

/// The JSON schema handed to providers with structured output. `heat` is an
/// enum of allowed values: grammar-based decoders ignore `minimum`/`maximum`.
pub fn schema() -> Value {
    schema_naming(SideNames::PLAIN)
}

/// The schema with the sides called by `names` in `ahead` and `conceded`.
/// Every property is required: OpenAI's strict structured output accepts
/// no optional one (the tolerant parser still reads an answer without them).
pub fn schema_naming(names: SideNames) -> Value {
    serde_json::json!({
        "type": "object",
        // Order matters to grammar-based decoders: the assessment comes before who is
        // ahead, and both before the next topic.
        "properties": {
            "resolved": { "type": "boolean" },
            "verdict": { "type": "string" },
            "ahead": { "type": "string", "enum": names.ahead_values() },
            "conceded": { "type": "string", "enum": names.conceded_values() },
            "topic": { "type": "string" },
            "heat": { "type": "number", "enum": [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] }
        },
        "required": ["resolved", "verdict", "ahead", "conceded", "topic", "heat"],
        "additionalProperties": false
    })
}

/// `schema` (the verdict's) with one more required property, `name`, of
/// shape `field`: what a format feature asks the judge for besides.
pub fn with_field(mut schema: Value, name: &str, field: Value) -> Value {
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert(name.into(), field);
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        required.push(name.into());
    }
    schema
}

/// Why a judge's answer could not be read as a Verdict. The message is sent
/// back to the judge in the repair request, so it says what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    #[error("the answer contains no JSON object")]
    NoObject,
    #[error("the JSON object is malformed: {0}")]
    Malformed(String),
    #[error("the field `verdict` is missing or empty")]
    MissingVerdict,
    #[error("the field `{field}` has the wrong type: {detail}")]
    WrongType { field: &'static str, detail: String },
    /// A field the embedded judge's chosen form asks for, by its name
    /// (`optimist_best`).
    #[error("the field `{field}` has the wrong type: {detail}")]
    Choice { field: String, detail: String },
}

/// Parses a judge's answer. `fallback_topic` and `fallback_heat` fill in
/// `topic` and `heat` when the judge left them out.
pub fn parse(text: &str, fallback_topic: &str, fallback_heat: Heat) -> Result<Verdict, VerdictError> {
    parse_naming(text, fallback_topic, fallback_heat, SideNames::PLAIN)
}

/// [`parse`] for an answer that calls the sides by `names`. A missing or
/// unknown `ahead` or `conceded` is `None`, never an error.
pub fn parse_naming(
    text: &str,
    fallback_topic: &str,
    fallback_heat: Heat,
    names: SideNames,
) -> Result<Verdict, VerdictError> {
    from_map(&parse_map(text)?, fallback_topic, fallback_heat, names)
}

/// [`parse`] for a debate whose two sides the format names `seats` (the
/// proposition and the opposition): a judge that calls them so in `ahead`,
/// `conceded` or the keys of `scores`, as its prompt does, is read as one
/// that says "advocate" and "skeptic".
pub fn parse_as(
    text: &str,
    fallback_topic: &str,
    fallback_heat: Heat,
    seats: &[String; 2],
) -> Result<Verdict, VerdictError> {
    let mut map = parse_map(text)?;
    let plain = |name: &str| {
        let name = name.trim().to_ascii_lowercase();
        let name = name.strip_prefix("the ").unwrap_or(&name).trim().to_string();
        let side = seats.iter().position(|seat| seat.eq_ignore_ascii_case(&name))?;
        Some(SideNames::PLAIN.in_order()[side])
    };
    for field in ["ahead", "conceded"] {
        if let Some(side) = map.get(field).and_then(Value::as_str).and_then(plain) {
            map.insert(field.into(), Value::String(side.into()));
        }
    }
    for field in ["scores", "scorecard"] {
        let Some(Value::Object(scores)) = map.get_mut(field) else { continue };
        let renamed: Vec<(String, &'static str)> = scores
            .keys()
            .filter_map(|key| Some((key.clone(), plain(key)?)))
            .filter(|(key, side)| key != side)
            .collect();
        for (key, side) in renamed {
            if !scores.contains_key(side)
                && let Some(value) = scores.remove(&key)
            {
                scores.insert(side.into(), value);
            }
        }
    }
    if let Some(Value::Array(claims)) = map.get_mut("claims") {
        for claim in claims.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(side) = claim.get("by").and_then(Value::as_str).and_then(plain) {
                claim.insert("by".into(), Value::String(side.into()));
            }
        }
    }
    from_map(&map, fallback_topic, fallback_heat, SideNames::PLAIN)
}

fn from_map(
    map: &Map<String, Value>,
    fallback_topic: &str,
    fallback_heat: Heat,
    names: SideNames,
) -> Result<Verdict, VerdictError> {
    let verdict = match map.get("verdict") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        None | Some(Value::String(_) | Value::Null) => return Err(VerdictError::MissingVerdict),
        Some(other) => return Err(wrong_type("verdict", "a string", other)),
    };
    let resolved = match map.get("resolved") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => true,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => false,
        Some(other) => return Err(wrong_type("resolved", "true or false", other)),
    };
    let topic = match map.get("topic") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        Some(Value::String(_) | Value::Null) | None => fallback_topic.to_string(),
        Some(other) => return Err(wrong_type("topic", "a string", other)),
    };
    let heat = match map.get("heat") {
        None | Some(Value::Null) => fallback_heat.get(),
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::from(fallback_heat.get())) as f32,
        Some(Value::String(s)) => s
            .trim()
            .parse::<f32>()
            .map_err(|_| wrong_type("heat", "a number between 0.3 and 1.0", &Value::String(s.clone())))?,
        Some(other) => return Err(wrong_type("heat", "a number between 0.3 and 1.0", other)),
    };
    let (ahead, conceded) = (names.ahead(map.get("ahead")), names.conceded(map.get("conceded")));
    let scores = Scores::read(map.get("scores")).map(Box::new);
    let claims = claims::read(map.get("claims"), names);
    let scorecard = scorecard::read(map.get("scorecard"), names)
        .map_err(|detail| VerdictError::WrongType { field: "scorecard", detail })?
        .map(Box::new);
    Ok(Verdict { resolved, verdict, ahead, conceded, topic, heat: Heat::new(heat), scores, claims, scorecard })
}

/// The JSON object in a judge's answer, read as tolerantly as `parse` reads it.
pub fn parse_map(text: &str) -> Result<Map<String, Value>, VerdictError> {
    parse_object(find_object(text).ok_or(VerdictError::NoObject)?)
}

fn wrong_type(field: &'static str, expected: &str, got: &Value) -> VerdictError {
    let mut shown = got.to_string();
    if shown.len() > 40 {
        shown = format!("{}…", shown.chars().take(40).collect::<String>());
    }
    VerdictError::WrongType { field, detail: format!("expected {expected}, got {shown}") }
}

fn parse_object(object: &str) -> Result<Map<String, Value>, VerdictError> {
    let first_error = match serde_json::from_str::<Map<String, Value>>(object) {
        Ok(map) => return Ok(map),
        Err(e) => e.to_string(),
    };
    serde_json::from_str::<Map<String, Value>>(&strip_trailing_commas(object))
        .map_err(|_| VerdictError::Malformed(first_error))
}

/// Tracks whether a scan over JSON text is inside a string literal.
#[derive(Default)]
struct JsonStrings {
    in_string: bool,
    escaped: bool,
}

impl JsonStrings {
    /// Feeds one character; true when it is structure, i.e. outside every
    /// string literal (the quotes themselves count as inside).
    fn is_structural(&mut self, ch: char) -> bool {
        if self.in_string {
            match ch {
                _ if self.escaped => self.escaped = false,
                '\\' => self.escaped = true,
                '"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        if ch == '"' {
            self.in_string = true;
            return false;
        }
        true
    }
}

/// Finds the first balanced `{…}` in the text, ignoring braces inside JSON
/// strings. Code fences and prose around it are skipped by construction.
/// An object cut off at the end is returned up to the end of the text, so
/// that the parse error names what is missing.
fn find_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let mut depth = 0usize;
    let mut strings = JsonStrings::default();
    for (offset, ch) in text[start..].char_indices() {
        if !strings.is_structural(ch) {
            continue;
        }
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start..=start + offset]);
                }
            }
            _ => {}
        }
    }
    Some(&text[start..])
}

/// Removes commas that directly precede `}` or `]` outside strings.
fn strip_trailing_commas(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut strings = JsonStrings::default();
    let chars: Vec<char> = json.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if strings.is_structural(ch) && ch == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_judge_naming_the_sides_as_the_format_does_is_read() {
        use crate::debate::Role;
        let seats = ["proposition".to_string(), "opposition".to_string()];
        let text = r#"{"resolved": false, "verdict": "The opposition's point 2 stands.", "ahead": "The Opposition", "conceded": "proposition", "topic": "t", "heat": 0.6, "scores": {"proposition": [1, -1], "Opposition": [2]}}"#;
        let verdict = parse_as(text, "t", Heat::new(0.9), &seats).unwrap();
        assert_eq!(verdict.ahead, Some(Ahead::Skeptic));
        assert_eq!(verdict.conceded, Some(Conceded::Advocate));
        let scores = verdict.scores.unwrap();
        assert_eq!((scores.of(Role::Advocate), scores.of(Role::Skeptic)), (&[1, -1][..], &[2][..]));
        // The role names still read, and win over an alias given beside them.
        let plain = r#"{"verdict": "v", "ahead": "skeptic", "scores": {"advocate": [3], "proposition": [-3]}}"#;
        let verdict = parse_as(plain, "t", Heat::new(0.9), &seats).unwrap();
        assert_eq!(verdict.ahead, Some(Ahead::Skeptic));
        assert_eq!(verdict.scores.unwrap().of(Role::Advocate), &[3][..]);
        assert_eq!(parse(text, "t", Heat::new(0.9)).unwrap().ahead, None, "plain parsing knows no aliases");
    }

    fn ok(text: &str) -> Verdict {
        parse(text, "old topic", Heat::new(0.8)).unwrap()
    }

    #[test]
    fn plain_object() {
        let v = ok(r#"{"resolved": false, "verdict": "Close.", "topic": "Costs?", "heat": 0.7}"#);
        assert_eq!(
            v,
            Verdict {
                resolved: false,
                verdict: "Close.".into(),
                topic: "Costs?".into(),
                heat: Heat::new(0.7),
                ..Verdict::default()
            }
        );
    }

    #[test]
    fn ahead_and_conceded_are_read_when_given_and_none_when_left_out() {
        let v = ok(r#"{"verdict": "v", "ahead": "skeptic", "conceded": "advocate"}"#);
        assert_eq!((v.ahead, v.conceded), (Some(Ahead::Skeptic), Some(Conceded::Advocate)));
        let v = ok(r#"{"verdict": "v", "ahead": "Even", "conceded": "none"}"#);
        assert_eq!((v.ahead, v.conceded), (Some(Ahead::Even), Some(Conceded::Neither)));
        let v = ok(r#"{"verdict": "v"}"#);
        assert_eq!((v.ahead, v.conceded), (None, None));
        let v = ok(r#"{"verdict": "v", "ahead": 1, "conceded": "the judge"}"#);
        assert_eq!((v.ahead, v.conceded), (None, None), "an unreadable side is not a failed verdict");
    }

    #[test]
    fn an_old_logged_verdict_without_the_sides_still_loads() {
        let old = r#"{"resolved": false, "verdict": "v", "topic": "t", "heat": 0.5}"#;
        let v: Verdict = serde_json::from_str(old).unwrap();
        assert_eq!((v.ahead, v.conceded), (None, None));
        assert_eq!(serde_json::to_string(&v).unwrap(), old.replace(": ", ":").replace(", ", ","), "none written back");
    }

    #[test]
    fn the_schema_requires_every_property_and_names_the_sides() {
        let schema = schema();
        let properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let required: Vec<&str> = schema["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        assert_eq!(properties, required, "OpenAI strict mode wants every property required");
        assert_eq!(schema["properties"]["ahead"]["enum"], serde_json::json!(["advocate", "skeptic", "even"]));
        assert_eq!(
            schema["properties"]["conceded"]["enum"],
            serde_json::json!(["none", "advocate", "skeptic", "both"])
        );
        let swapped = schema_naming(SideNames::SWAPPED).to_string();
        assert!(!swapped.contains("advocate") && !swapped.contains("skeptic"), "{swapped}");
    }

    #[test]
    fn fenced_with_prose_around() {
        let text = "Here is my verdict:\n```json\n{\"resolved\": true, \"verdict\": \"Advocate wins {narrowly}.\", \"topic\": \"t\", \"heat\": 0.3}\n```\nThanks!";
        let v = ok(text);
        assert!(v.resolved);
        assert_eq!(v.verdict, "Advocate wins {narrowly}.");
    }

    #[test]
    fn heat_as_string_and_out_of_range() {
        assert!((ok(r#"{"verdict":"v","heat":"0.55"}"#).heat.get() - 0.55).abs() < 1e-6);
        assert!((ok(r#"{"verdict":"v","heat":3}"#).heat.get() - Heat::MAX.get()).abs() < f32::EPSILON);
        assert!((ok(r#"{"verdict":"v","heat":-1}"#).heat.get() - Heat::MIN.get()).abs() < f32::EPSILON);
        assert!((ok(r#"{"verdict":"v","heat":2017}"#).heat.get() - Heat::MAX.get()).abs() < f32::EPSILON);
    }

    #[test]
    fn missing_optional_fields_take_fallbacks() {
        let v = ok(r#"{"verdict": "Still open."}"#);
        assert!(!v.resolved);
        assert_eq!(v.topic, "old topic");
        assert!((v.heat.get() - 0.8).abs() < f32::EPSILON);
    }

    #[test]
    fn resolved_as_string() {
        assert!(ok(r#"{"verdict":"v","resolved":"TRUE"}"#).resolved);
    }

    #[test]
    fn trailing_commas_repaired() {
        let v = ok("{\"verdict\": \"a, b,\", \"topic\": \"x\",\n}");
        assert_eq!(v.verdict, "a, b,");
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(parse("no json here", "t", Heat::new(0.5)), Err(VerdictError::NoObject));
        assert_eq!(parse(r#"{"resolved": true}"#, "t", Heat::new(0.5)), Err(VerdictError::MissingVerdict));
        assert!(matches!(
            parse(r#"{"verdict": "v", "heat": "hot"}"#, "t", Heat::new(0.5)),
            Err(VerdictError::WrongType { field: "heat", .. })
        ));
        assert!(matches!(
            parse(r#"{"verdict": "v", "resolved": 7}"#, "t", Heat::new(0.5)),
            Err(VerdictError::WrongType { field: "resolved", .. })
        ));
        assert!(matches!(parse(r#"{"verdict": "cut off"#, "t", Heat::new(0.5)), Err(VerdictError::Malformed(_))));
    }

    #[test]
    fn braces_inside_strings_do_not_confuse() {
        let v = ok(r#"{"verdict": "uses \"}\" and {", "topic": "}{"}"#);
        assert_eq!(v.topic, "}{");
    }

    #[test]
    fn nan_heat_clamps_to_minimum() {
        assert!((Heat::new(f32::NAN).get() - Heat::MIN.get()).abs() < f32::EPSILON);
    }
}
