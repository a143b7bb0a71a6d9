//! A chat request as the one prompt an agent CLI reads on standard input:
//! the system prompt (the grounding and any schema in it), then the
//! conversation so far, each message headed by who wrote it, then the
//! turn asked for. A CLI seat gets what a server seat gets.

use crate::provider::chat::{ChatRequest, ChatRole};

/// The prompt for `request`, as one text.
pub fn render(request: &ChatRequest) -> String {
    let mut prompt = String::new();
    let system = request.full_system_prompt();
    if !system.trim().is_empty() {
        prompt.push_str("# Your brief\n\n");
        prompt.push_str(system.trim_end());
        prompt.push_str("\n\n");
    }
    let Some((last, earlier)) = request.messages.split_last() else {
        return prompt;
    };
    if !earlier.is_empty() {
        prompt.push_str("# The conversation so far\n\n");
        for message in earlier {
            let who = match message.role {
                ChatRole::User => "## heat",
                ChatRole::Assistant => "## You",
            };
            prompt.push_str(&format!("{who}\n\n{}\n\n", message.content.trim_end()));
        }
    }
    prompt.push_str("# Now\n\n");
    prompt.push_str(last.content.trim_end());
    prompt.push('\n');
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::chat::ChatMessage;

    #[test]
    fn the_brief_the_history_and_the_turn_reach_the_cli_in_order() {
        let request = ChatRequest {
            system: "You argue FOR.".into(),
            grounding: Some("Today is 2026-12-06.".into()),
            messages: vec![
                ChatMessage::user("Round 1: open."),
                ChatMessage::assistant("Trains are calmer."),
                ChatMessage::user("Round 2: answer the skeptic."),
            ],
            ..ChatRequest::default()
        };
        let prompt = render(&request);
        assert_eq!(
            prompt,
            "# Your brief\n\nToday is 2026-12-06.\n\nYou argue FOR.\n\n# The conversation so far\n\n## heat\n\n\
             Round 1: open.\n\n## You\n\nTrains are calmer.\n\n# Now\n\nRound 2: answer the skeptic.\n"
        );
    }

    #[test]
    fn a_schema_the_cli_cannot_be_held_to_rides_in_the_brief() {
        let mut request = ChatRequest { system: "Judge.".into(), ..ChatRequest::default() };
        request.messages.push(ChatMessage::user("Weigh round 1."));
        let mut schema = crate::provider::ResponseSchema::new("verdict", serde_json::json!({"type": "object"}));
        schema.form = crate::provider::StructuredOutput::Off;
        request.response_schema = Some(schema);
        let prompt = render(&request);
        assert!(prompt.contains("must follow this JSON schema:\n{\"type\":\"object\"}"), "{prompt}");
        assert!(prompt.ends_with("# Now\n\nWeigh round 1.\n"));
    }
}
