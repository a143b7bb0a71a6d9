//! What a turn's request sent, as heat built it for the model: its system
//! prompt, the grounding block, the messages with the person's notes in
//! place, the temperature, the answer's room, the tools offered and the
//! form the answer was asked in. Recorded in the session when the request
//! goes (`RequestSent`), secrets redacted, so a person can see what steered
//! a turn: the studio's `w` and `heat export --requests` show it, in the
//! parts [`SentRequest::parts`] gives both.
//!
//! The log keeps each request by what changed since the seat's last one
//! ([`SentRequest::compact`]): a system prompt said again is left out, and
//! the messages the last request began with are counted, not repeated;
//! the fold puts them back ([`SentRequest::expand`]), so the state always
//! holds the whole request.

use serde::{Deserialize, Serialize};

use crate::provider::{ChatMessage, ChatRequest, ChatRole};
use crate::secrets::redact;

/// A grounding block longer than this is kept by its start: the session
/// records the source document once, in full.
const GROUNDING_KEPT: usize = 1_500;

/// A turn's request, as sent, secrets redacted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentRequest {
    pub model: String,
    /// `None`: no temperature was sent (a reasoning model, an agent CLI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    pub max_tokens: u32,
    /// Empty in the log where the seat's last request had the same.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub system: String,
    /// In the log: how many messages open as the seat's last request's did
    /// (left out of `messages`); 0 in the state.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kept: usize,
    /// The block every request starts with (the date, the source
    /// document), cut after [`GROUNDING_KEPT`] characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding: Option<String>,
    pub messages: Vec<ChatMessage>,
    /// The tools offered, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
    /// How the answer's form was asked (`schema verdict`, `grammar`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
}

impl SentRequest {
    /// `request` as the session keeps it: every text with `secrets` (and
    /// keys by their shapes) redacted, a long grounding block cut.
    pub fn of(request: &ChatRequest, secrets: &[String]) -> Self {
        let clean = |text: &str| redact(text, secrets);
        let grounding = request.grounding.as_deref().map(|block| {
            let total = block.chars().count();
            if total <= GROUNDING_KEPT {
                return clean(block);
            }
            let kept: String = block.chars().take(GROUNDING_KEPT).collect();
            let more = crate::words::thousands((total - GROUNDING_KEPT) as u64);
            format!("{}\n[… {more} more characters; the session records the source once, in full]", clean(&kept))
        });
        let messages = request
            .messages
            .iter()
            .map(|m| {
                let mut m = m.clone();
                m.content = clean(&m.content);
                for call in &mut m.tool_calls {
                    call.arguments = clean(&call.arguments);
                }
                for result in &mut m.tool_results {
                    result.content = clean(&result.content);
                }
                m
            })
            .collect();
        let form = match (&request.response_schema, &request.grammar) {
            (Some(schema), _) => Some(format!("{} {}", schema.form.setting(), schema.name)),
            (None, Some(_)) => Some("grammar".into()),
            (None, None) => None,
        };
        Self {
            model: request.model.clone(),
            temperature: request.temperature,
            max_tokens: request.max_tokens,
            system: clean(&request.system),
            kept: 0,
            grounding,
            messages,
            tools: request.tools.iter().flat_map(|t| t.specs.iter().map(|s| s.name.clone())).collect(),
            form,
        }
    }

    /// This request as the log keeps it, after the seat's `last`: its
    /// system prompt left out where the same, the messages `last` began
    /// with counted in `kept`, not repeated.
    #[must_use]
    pub fn compact(&self, last: Option<&SentRequest>) -> SentRequest {
        let Some(last) = last else { return self.clone() };
        let kept = self.messages.iter().zip(&last.messages).take_while(|(a, b)| a == b).count();
        let system = if self.system == last.system { String::new() } else { self.system.clone() };
        SentRequest { system, kept, messages: self.messages[kept..].to_vec(), ..self.clone() }
    }

    /// A request as the log kept it, made whole again from the seat's
    /// `last` (see [`SentRequest::compact`]).
    #[must_use]
    pub fn expand(&self, last: Option<&SentRequest>) -> SentRequest {
        let Some(last) = last else { return SentRequest { kept: 0, ..self.clone() } };
        let system = if self.system.is_empty() { last.system.clone() } else { self.system.clone() };
        let kept = self.kept.min(last.messages.len());
        let messages = last.messages[..kept].iter().chain(&self.messages).cloned().collect();
        SentRequest { system, kept: 0, messages, ..self.clone() }
    }

    /// One line of what was asked besides the words: "model gpt-4.1-mini ·
    /// temperature 0.70 · up to 800 tokens · tools search · form schema verdict".
    pub fn settings(&self) -> String {
        let mut parts = vec![format!("model {}", self.model)];
        parts.push(match self.temperature {
            Some(t) => format!("temperature {t:.2}"),
            None => "no temperature sent".into(),
        });
        parts.push(format!("up to {} tokens", crate::words::thousands(u64::from(self.max_tokens))));
        if !self.tools.is_empty() {
            parts.push(format!("tools {}", self.tools.join(", ")));
        }
        if let Some(form) = &self.form {
            parts.push(format!("form {form}"));
        }
        parts.join(" · ")
    }

    /// The request's texts in the order the model read them, each under
    /// its heading: "System", "Grounding", then each message ("User",
    /// "Assistant", a tool call or its answer).
    pub fn parts(&self) -> Vec<(String, String)> {
        let mut parts = vec![("System".to_string(), self.system.clone())];
        if let Some(grounding) = &self.grounding {
            parts.push(("Grounding".into(), grounding.clone()));
        }
        for message in &self.messages {
            let who = match message.role {
                ChatRole::User => "User",
                ChatRole::Assistant => "Assistant",
            };
            if !message.content.is_empty() || (message.tool_calls.is_empty() && message.tool_results.is_empty()) {
                parts.push((who.into(), message.content.clone()));
            }
            for call in &message.tool_calls {
                parts.push((format!("{who} calls {}", call.name), call.arguments.clone()));
            }
            for result in &message.tool_results {
                parts.push(("Tool answer".into(), result.content.clone()));
            }
        }
        parts
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_kept_with_its_secrets_redacted_and_a_long_grounding_cut() {
        let request = ChatRequest {
            model: "gpt-4.1-mini".into(),
            system: "You are the SKEPTIC.".into(),
            grounding: Some(format!("Today is 2026-12-07.\n{}", "a".repeat(4_000))),
            messages: vec![
                ChatMessage::user("Round 2. Moderator's note, to you only: my key is sk-proj-abcdefghijklmnopqrstuv."),
                ChatMessage::assistant("Spaces."),
            ],
            temperature: Some(0.7),
            max_tokens: 800,
            ..ChatRequest::default()
        };
        let sent = SentRequest::of(&request, &[]);
        assert!(sent.messages[0].content.contains("to you only: my key is [redacted]."), "{:?}", sent.messages[0]);
        let grounding = sent.grounding.as_deref().unwrap_or_default();
        assert!(
            grounding.starts_with("Today is 2026-12-07.") && grounding.ends_with("records the source once, in full]")
        );
        assert!(grounding.contains("2,521 more characters"), "{grounding}");
        assert_eq!(sent.settings(), "model gpt-4.1-mini · temperature 0.70 · up to 800 tokens");
        let headings: Vec<String> = sent.parts().into_iter().map(|(heading, _)| heading).collect();
        assert_eq!(headings, ["System", "Grounding", "User", "Assistant"]);
    }
}

#[cfg(test)]
mod compact_tests {
    use super::*;

    #[test]
    fn a_request_kept_by_what_changed_is_made_whole_again() {
        let first = SentRequest::of(
            &ChatRequest {
                model: "m".into(),
                system: "You are the SKEPTIC.".into(),
                messages: vec![ChatMessage::user("Round 1.")],
                ..ChatRequest::default()
            },
            &[],
        );
        let second = SentRequest::of(
            &ChatRequest {
                model: "m".into(),
                system: "You are the SKEPTIC.".into(),
                messages: vec![
                    ChatMessage::user("Round 1."),
                    ChatMessage::assistant("Spaces."),
                    ChatMessage::user("Round 2."),
                ],
                ..ChatRequest::default()
            },
            &[],
        );
        let logged = second.compact(Some(&first));
        assert!(logged.system.is_empty() && logged.kept == 1 && logged.messages.len() == 2, "{logged:?}");
        assert_eq!(logged.expand(Some(&first)), second);
        assert_eq!(first.compact(None), first, "the first is kept whole");
        assert_eq!(first.compact(None).expand(None), first);
        // A prompt fitted to a smaller window drops old rounds: what differs from the start is kept in full.
        let refitted = SentRequest { messages: vec![ChatMessage::user("Round 2, in brief.")], ..second.clone() };
        let logged = refitted.compact(Some(&second));
        assert_eq!((logged.kept, logged.messages.len()), (0, 1));
        assert_eq!(logged.expand(Some(&second)), refitted);
    }
}
