//! The embedded model's verdict: choosing, not writing. A 135M model cannot
//! write an assessment of two arguments (it copies its prompt, or writes
//! `…`), nor set a heat on a 0.3–1.0 scale (it answers 0.3 or 1.0), but
//! under a grammar it can choose. So its judge picks each side's strongest
//! sentence from that side's own argument (the schema lists them as an
//! enum), which side made the stronger case, how far apart the sides are
//! on a 1–5 scale, and writes only a short next question. heat builds the
//! verdict text from those choices and maps the distance to the heat:
//! far apart (5) explores at 1.0, close (1) focuses at 0.3. It is not asked
//! whether the debate is resolved (a tiny model says so at random): the
//! debate runs to its round limit, or until the person resolves it.

use serde_json::{Map, Value, json};

use super::verdict::{self, Verdict, VerdictError};

/// Most candidate sentences offered per side: the grammar stays small.
const MAX_CANDIDATES: usize = 8;
/// A candidate sentence's length in words.
const MIN_WORDS: usize = 4;
const MAX_WORDS: usize = 30;
/// The next question's longest form, in characters.
const MAX_TOPIC_CHARS: u64 = 100;

/// The heat for each distance, 1 (the sides agree) to 5 (far apart).
pub const HEAT_BY_DISTANCE: [f32; 5] = [0.3, 0.45, 0.6, 0.8, 1.0];

/// The schema the embedded judge answers to for this round's arguments,
/// or `None` when a side offers no sentence to choose (then the judge
/// writes its verdict as every other judge does).
pub fn schema(advocate: &str, skeptic: &str, is_final: bool) -> Option<Value> {
    let for_side = candidates(advocate);
    let against = candidates(skeptic);
    if for_side.is_empty() || against.is_empty() {
        return None;
    }
    let mut properties = Map::new();
    properties.insert("advocate_best".into(), json!({ "type": "string", "enum": for_side }));
    properties.insert("skeptic_best".into(), json!({ "type": "string", "enum": against }));
    properties.insert("stronger".into(), json!({ "type": "string", "enum": ["advocate", "skeptic", "even"] }));
    if !is_final {
        properties.insert("distance".into(), json!({ "type": "integer", "enum": [1, 2, 3, 4, 5] }));
        properties.insert(
            "next_question".into(),
            json!({ "type": "string", "pattern": "^[A-Z][A-Za-z0-9 ,'-]{8,98}[?]$", "maxLength": MAX_TOPIC_CHARS }),
        );
    }
    let required: Vec<&String> = properties.keys().collect();
    Some(json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    }))
}

/// Whether a judge's answer is in this form (and not a written verdict).
pub fn is_chosen(text: &str) -> bool {
    text.contains("\"advocate_best\"")
}

/// Reads a chosen verdict. `fallback_topic` stays the topic when the judge
/// gave no question; `is_final` marks the final synthesis.
pub fn parse(text: &str, fallback_topic: &str, is_final: bool) -> Result<Verdict, VerdictError> {
    let map = verdict::parse_map(text)?;
    let string = |field: &'static str| match map.get(field) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_string()),
        Some(other) => Err(VerdictError::WrongType { field, detail: format!("expected a sentence, got {other}") }),
        None => Err(VerdictError::WrongType { field, detail: "missing".into() }),
    };
    let advocate = string("advocate_best")?;
    let skeptic = string("skeptic_best")?;
    let stronger = string("stronger")?;
    let distance = map.get("distance").and_then(Value::as_u64).unwrap_or(3).clamp(1, 5);
    // A tiny judge says "resolved" at random: the debate runs to its round
    // limit (or the person's resolution) instead.
    let resolved = is_final;
    let topic = map
        .get("next_question")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .unwrap_or(fallback_topic)
        .to_string();
    let outcome = match stronger.as_str() {
        "advocate" => "the advocate made the stronger case",
        "skeptic" => "the skeptic made the stronger case",
        _ => "the two sides were even",
    };
    let opening = if is_final { "Over the debate" } else { "This round" };
    let verdict = format!(
        "{opening} {outcome}. The advocate's strongest point: \u{201c}{advocate}\u{201d} The skeptic's strongest point: \u{201c}{skeptic}\u{201d}"
    );
    let heat = HEAT_BY_DISTANCE[(distance - 1) as usize];
    Ok(Verdict { resolved, verdict, topic, heat })
}

/// The sentences of an argument a judge may pick: whole sentences of a
/// sensible length, without the side's given opening claim, first ones
/// first, each once.
fn candidates(argument: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for sentence in sentences(argument) {
        let words = sentence.split_whitespace().count();
        let is_claim = sentence.starts_with("I agree that") || sentence.starts_with("I disagree that");
        if (MIN_WORDS..=MAX_WORDS).contains(&words) && !is_claim && !out.contains(&sentence) {
            out.push(sentence);
        }
        if out.len() == MAX_CANDIDATES {
            break;
        }
    }
    out
}

/// Splits prose into sentences at `.`, `!` or `?` followed by a space or a
/// line end, and at blank lines; whitespace inside a sentence becomes one
/// space. A sentence cut off at the end (no closing mark) is left out.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            if !current.is_empty() && !current.ends_with(' ') {
                current.push(' ');
            }
        } else if !c.is_control() {
            current.push(c);
        }
        let ends = matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace());
        if ends {
            let sentence = current.trim().to_string();
            if !sentence.is_empty() {
                out.push(sentence);
            }
            current.clear();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADVOCATE: &str = "I agree that cities should ban cars. My first reason is that streets become safer \
        for children. Air quality improves when traffic falls.\n\nShops see more people on foot and";
    const SKEPTIC: &str = "I disagree that cities should ban cars. Deliveries would cost more for small shops. \
        People with disabilities rely on cars! Ok.";

    #[test]
    fn candidates_are_whole_sentences_without_the_given_claim() {
        assert_eq!(
            candidates(ADVOCATE),
            vec![
                "My first reason is that streets become safer for children.",
                "Air quality improves when traffic falls."
            ]
        );
        assert_eq!(
            candidates(SKEPTIC),
            vec!["Deliveries would cost more for small shops.", "People with disabilities rely on cars!"],
            "a short sentence and the cut-off tail are left out"
        );
    }

    #[test]
    fn the_schema_offers_each_side_its_own_sentences() {
        let schema = schema(ADVOCATE, SKEPTIC, false).unwrap();
        assert_eq!(schema["properties"]["advocate_best"]["enum"].as_array().unwrap().len(), 2);
        assert_eq!(schema["properties"]["skeptic_best"]["enum"][0], "Deliveries would cost more for small shops.");
        assert_eq!(schema["required"].as_array().unwrap().len(), 5);
        let last = schema(ADVOCATE, SKEPTIC, true).unwrap();
        assert!(last["properties"].get("distance").is_none(), "the synthesis sets no heat");
        assert!(schema("", SKEPTIC, false).is_none(), "nothing to choose from the advocate");
    }

    #[test]
    fn a_chosen_verdict_is_told_in_words_and_its_distance_sets_the_heat() {
        let answer = r#"{"advocate_best":"Air quality improves when traffic falls.","skeptic_best":"Deliveries would cost more for small shops.","stronger":"skeptic","distance":4,"resolved":true,"next_question":"Would deliveries really cost more?"}"#;
        assert!(is_chosen(answer));
        let verdict = parse(answer, "Cities should ban cars", false).unwrap();
        assert_eq!(
            verdict.verdict,
            "This round the skeptic made the stronger case. The advocate's strongest point: \u{201c}Air quality \
             improves when traffic falls.\u{201d} The skeptic's strongest point: \u{201c}Deliveries would cost \
             more for small shops.\u{201d}"
        );
        assert!((verdict.heat - 0.8).abs() < f32::EPSILON);
        assert_eq!(verdict.topic, "Would deliveries really cost more?");
        assert!(!verdict.resolved, "a tiny judge's resolved is not taken");
    }

    #[test]
    fn every_distance_has_its_own_heat_rising_with_the_distance() {
        assert!(HEAT_BY_DISTANCE.windows(2).all(|w| w[0] < w[1]));
        for heat in HEAT_BY_DISTANCE {
            assert!((verdict::HEAT_MIN..=verdict::HEAT_MAX).contains(&heat));
        }
    }

    #[test]
    fn the_final_synthesis_resolves_and_keeps_the_topic() {
        let answer = r#"{"advocate_best":"A.","skeptic_best":"B.","stronger":"even"}"#;
        let verdict = parse(answer, "Cities should ban cars", true).unwrap();
        assert!(verdict.resolved);
        assert!(verdict.verdict.starts_with("Over the debate the two sides were even."));
        assert_eq!(verdict.topic, "Cities should ban cars");
    }

    #[test]
    fn a_missing_choice_is_an_error_the_repair_can_name() {
        let err = parse(r#"{"skeptic_best":"B.","stronger":"even"}"#, "t", false).unwrap_err();
        assert!(err.to_string().contains("advocate_best"), "{err}");
    }
}
