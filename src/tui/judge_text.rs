//! Reads the judge's verdict JSON while it is still streaming, so the judge
//! pane shows prose ("verdict" and "topic" so far), never raw braces.

/// What a partial verdict says so far.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PartialVerdict {
    pub verdict: String,
    pub topic: Option<String>,
    pub resolved: Option<bool>,
}

/// Extracts the readable fields from a partial verdict. Text that does not
/// open as a JSON object (a judge writing prose) comes back as the verdict.
/// The embedded judge's picks name the sides as `sides` (the side for's,
/// then the side against's: `DebateState::side_names`).
pub fn partial(text: &str, sides: &[String; 2]) -> PartialVerdict {
    let body = text.trim_start();
    let body = body.strip_prefix("```json").or_else(|| body.strip_prefix("```")).unwrap_or(body).trim_start();
    if !body.starts_with('{') {
        return PartialVerdict { verdict: text.to_string(), ..PartialVerdict::default() };
    }
    // The embedded judge's chosen form (`debate::extractive`): its picks so far.
    if let Some(advocate) = string_field(body, "advocate_best") {
        let [pro, con] = sides;
        let mut verdict = format!("The {pro}'s strongest point: \u{201c}{advocate}");
        if let Some(skeptic) = string_field(body, "skeptic_best") {
            verdict.push_str(&format!("\u{201d} The {con}'s: \u{201c}{skeptic}"));
        }
        return PartialVerdict { verdict, topic: string_field(body, "next_question"), resolved: None };
    }
    PartialVerdict {
        verdict: string_field(body, "verdict").unwrap_or_default(),
        topic: string_field(body, "topic"),
        resolved: bool_field(body, "resolved"),
    }
}

/// The (possibly unterminated) string value of `"key": "…`.
fn string_field(body: &str, key: &str) -> Option<String> {
    let start = value_start(body, key)?;
    let rest = body[start..].strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        out.push(c);
                    }
                }
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

fn bool_field(body: &str, key: &str) -> Option<bool> {
    let rest = &body[value_start(body, key)?..];
    if rest.starts_with("true") {
        Some(true)
    } else if rest.starts_with("false") {
        Some(false)
    } else {
        None
    }
}

/// Byte offset of the value after `"key":`, at a key position (not inside
/// another string).
fn value_start(body: &str, key: &str) -> Option<usize> {
    let needle = format!("\"{key}\"");
    let mut in_string = false;
    let mut escaped = false;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if bytes[i..].starts_with(needle.as_bytes()) {
            let after = body[i + needle.len()..].trim_start();
            let after = after.strip_prefix(':')?.trim_start();
            return Some(body.len() - after.len());
        }
        if b == b'"' {
            in_string = true;
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    /// As a duel names its sides.
    fn partial(text: &str) -> PartialVerdict {
        super::partial(text, &["advocate".into(), "skeptic".into()])
    }

    #[test]
    fn the_embedded_judges_choices_name_the_sides_as_the_format_does() {
        let so_far =
            super::partial(r#"{"advocate_best":"A.","skeptic_best":"B"#, &["proposition".into(), "opposition".into()]);
        assert_eq!(so_far.verdict, "The proposition's strongest point: \u{201c}A.\u{201d} The opposition's: \u{201c}B");
    }

    #[test]
    fn the_embedded_judges_choices_read_as_they_stream() {
        let so_far = partial(r#"{"advocate_best":"Streets get safer.","skeptic_best":"Deliveries cost mo"#);
        assert_eq!(
            so_far.verdict,
            "The advocate's strongest point: \u{201c}Streets get safer.\u{201d} The skeptic's: \u{201c}Deliveries cost mo"
        );
        assert_eq!(so_far.topic, None);
        let done = partial(r#"{"advocate_best":"A.","skeptic_best":"B.","next_question":"Why cars?"}"#);
        assert_eq!(done.topic.as_deref(), Some("Why cars?"));
    }

    use super::*;

    #[test]
    fn reads_fields_as_they_stream() {
        let full = r#"{"resolved": false, "verdict": "The advocate \"wins\" on cost.\nBut", "topic": "Is it fair?", "heat": 0.6}"#;
        let mid = &full[..56];
        let p = partial(mid);
        assert_eq!(p.resolved, Some(false));
        assert!(p.verdict.starts_with("The advocate \"wins\""), "{p:?}");
        assert_eq!(p.topic, None);
        let p = partial(full);
        assert_eq!(p.verdict, "The advocate \"wins\" on cost.\nBut");
        assert_eq!(p.topic.as_deref(), Some("Is it fair?"));
    }

    #[test]
    fn keys_inside_strings_are_not_keys() {
        let p = partial(r#"{"verdict": "say \"topic\": \"x\" here", "topic": "real"}"#);
        assert_eq!(p.topic.as_deref(), Some("real"));
    }

    #[test]
    fn prose_and_fenced_json() {
        assert_eq!(partial("Plain words.").verdict, "Plain words.");
        assert_eq!(partial("```json\n{\"verdict\": \"v\"").verdict, "v");
        assert_eq!(partial("{").verdict, "");
    }

    #[test]
    fn multibyte_text_outside_strings_does_not_panic() {
        // Found by the verdict fuzz target: a key search sliced inside `Ђ`.
        let p = partial("{Ђ\"verdict\": \"still read\", Ђ\"topic\": \"t\"}");
        assert_eq!(p.verdict, "still read");
        assert_eq!(p.topic.as_deref(), Some("t"));
    }
}
