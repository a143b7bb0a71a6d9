//! Secrets in text that a person will read or a file will keep: the values
//! of the API key variables heat reads (never written to a session log,
//! whatever carries them), and in what a turn was sent also API keys found
//! by their shapes and the value after a name such as `api_key=`; each
//! replaced by `[redacted]`.

use std::sync::LazyLock;

use regex::Regex;

use crate::provider::ProviderKind;

/// What stands where a secret was.
pub const REDACTED: &str = "[redacted]";

/// The shapes API keys and tokens take: OpenAI's and Anthropic's `sk-`,
/// Google's `AIza`, GitHub's, Slack's, AWS's access key ids, and a bearer
/// token.
static SHAPES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"sk-[A-Za-z0-9_\-]{16,}",
        r"|AIza[0-9A-Za-z_\-]{30,}",
        r"|gh[pousr]_[A-Za-z0-9]{30,}",
        r"|github_pat_[A-Za-z0-9_]{30,}",
        r"|xox[abposr]-[A-Za-z0-9\-]{10,}",
        r"|AKIA[0-9A-Z]{16}",
        r"|(?i:bearer)\s+[A-Za-z0-9._~+/\-]{16,}=*",
    ))
    .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
});

/// A value given after a secret's name (`api_key=…`, `"token": "…"`,
/// `password: …`): the name stays, the value goes.
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)("?\s*[:=]\s*["']?)([^\s"',;]{8,})"#)
        .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
});

/// The values of the API key variables heat reads (`OPENAI_API_KEY`, …)
/// that are set, 8 characters or longer.
pub fn known_keys() -> Vec<String> {
    ProviderKind::all()
        .filter_map(|kind| kind.row().key_env)
        .filter_map(|var| std::env::var(var).ok())
        .map(|value| value.trim().to_string())
        .filter(|value| value.len() >= 8)
        .collect()
}

/// `text` with each of `known` replaced by [`REDACTED`] (borrowed as it
/// is when it holds none, as nearly every text does).
pub fn without_known<'a>(text: &'a str, known: &[String]) -> std::borrow::Cow<'a, str> {
    let mut text = std::borrow::Cow::Borrowed(text);
    for key in known.iter().filter(|k| !k.is_empty()) {
        if text.contains(key.as_str()) {
            text = std::borrow::Cow::Owned(text.replace(key.as_str(), REDACTED));
        }
    }
    text
}

/// `text` with every secret replaced by [`REDACTED`]: each of `known` as
/// written, then keys by their shape, then a value after a secret's name.
pub fn redact(text: &str, known: &[String]) -> String {
    let text = without_known(text, known);
    let text = SHAPES.replace_all(&text, REDACTED);
    NAMED.replace_all(&text, format!("${{1}}${{2}}{REDACTED}").as_str()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_by_value_by_shape_and_by_name_are_redacted_and_prose_is_left_alone() {
        let known = vec!["plain-looking-secret-42".to_string()];
        let text = "Use plain-looking-secret-42, sk-ant-api03-abcdefghijklmnop1234 and AIzaSyA1234567890abcdefghijklmnopqrstu; \
                    Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def; api_key=hunter2hunter2 and \"token\": \"tok_123456789\".";
        let shown = redact(text, &known);
        for secret in ["plain-looking-secret-42", "sk-ant-api03", "AIzaSy", "eyJhbGci", "hunter2", "tok_123456789"] {
            assert!(!shown.contains(secret), "{secret} left in: {shown}");
        }
        assert!(shown.contains("api_key=[redacted]") && shown.contains("\"token\": \"[redacted]\""), "{shown}");
        let prose = "The skeptic's token argument: a password policy costs 12 minutes a week (sk-learn is a library).";
        assert_eq!(redact(prose, &[]), prose, "ordinary words stay");
    }
}
