//! `heat doctor`'s live check of an HTTP provider, for a few tokens: the chat
//! path the debate will use streams an answer, and the judge's verdict comes
//! back in a form of structured output the server accepts (stepping down as
//! a debate would). Each result is a line for the doctor's report.
//!
//! As in a debate, waiting is not stalling: a probe the server holds in
//! its queue (busy with other requests) waits for its first byte as long as
//! `network.first_byte_timeout_secs` allows, and only the answer itself,
//! once begun, is held to the probe's budget.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;

use crate::debate::engine::StructuredSetting;
use crate::debate::verdict;
use crate::provider::retry::{RetryPolicy, TurnItem, with_retry};
use crate::provider::{ChatMessage, ChatModel, ChatRequest, Chunk, ProviderError, ResponseSchema, StructuredOutput};

/// How long a probe's answer may take once it has begun, retries included.
pub const PROBE_TIME: Duration = Duration::from_secs(30);

/// What one probe found: worked (with a detail), worked with something to
/// know, or failed (with the cause and fix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    Ok(String),
    Note(String),
    Fail(String),
}

/// What a probe's turn produced.
#[derive(Default)]
struct Outcome {
    text: String,
    reasoning: bool,
    served: Option<String>,
    refused: Vec<StructuredOutput>,
    form: Option<StructuredOutput>,
}

fn request(model: &str, system: &str, user: &str, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        model: model.to_string(),
        system: system.to_string(),
        messages: vec![ChatMessage::user(user)],
        temperature: None,
        max_tokens,
        ..ChatRequest::default()
    }
}

async fn turn(model: Arc<dyn ChatModel>, request: ChatRequest, budget: Duration) -> Result<Outcome, ProviderError> {
    let policy = RetryPolicy { max_retries: 1, base_delay: Duration::from_millis(300), ..RetryPolicy::default() };
    let mut outcome = Outcome { form: request.response_schema.as_ref().map(|s| s.form), ..Outcome::default() };
    let mut stream = with_retry(model, request, policy);
    // Until the answer begins, the provider's own first-byte limit holds; then the budget.
    let mut deadline: Option<tokio::time::Instant> = None;
    let waited = crate::provider::http::seconds(budget);
    loop {
        let next = match deadline {
            None => stream.next().await,
            Some(at) => tokio::time::timeout_at(at, stream.next()).await.map_err(|_| {
                ProviderError::Timeout(format!("the answer was not finished within {waited} of its first word"))
            })?,
        };
        let Some(item) = next else { break };
        let item = item?;
        let answering = matches!(item, TurnItem::Chunk(ref chunk) if !matches!(chunk, Chunk::Queued | Chunk::Sent));
        if answering && deadline.is_none() {
            deadline = Some(tokio::time::Instant::now() + budget);
        }
        match item {
            TurnItem::Chunk(Chunk::Text(text)) => outcome.text.push_str(&text),
            TurnItem::Chunk(Chunk::Reasoning(_)) => outcome.reasoning = true,
            TurnItem::Chunk(Chunk::Model(name)) => outcome.served = Some(name),
            TurnItem::Retrying { .. } => outcome.text.clear(),
            TurnItem::StructuredSteppedDown { from, to, .. } => {
                outcome.refused.push(from);
                outcome.form = Some(to);
            }
            _ => {}
        }
    }
    Ok(outcome)
}

/// Streams a one-word answer from `model_name` on the chat path.
pub async fn chat(model: Arc<dyn ChatModel>, model_name: &str, budget: Duration) -> Probe {
    let provider = model.provider_name();
    let label = format!("{provider}/{model_name}");
    let asked = request(model_name, "This is a connection check. Reply with one word: ready.", "Ready?", 32);
    match turn(model, asked, budget).await {
        Ok(outcome) => {
            let served = match outcome.served.filter(|s| s != model_name) {
                Some(served) => format!("; the server says {} answered", crate::sanitize::clean(&served)),
                None => String::new(),
            };
            Probe::Ok(format!("{label} streams an answer on the chat path{served}"))
        }
        Err(ProviderError::EmptyAnswer) => {
            Probe::Fail(format!("{label} answered with no text: {}", ProviderError::EmptyAnswer.sentence(provider)))
        }
        Err(e) => Probe::Fail(format!("{label}: {}", e.sentence(provider))),
    }
}

/// Asks for a small verdict the way the judge will, and says which form of
/// structured output the debate will use. An answer is judged by its shape,
/// as a debate judges it: asked in a form that holds a JSON object (a
/// schema, JSON mode), prose around one means the form never reached the
/// model (a gateway dropped it), however well the object reads; the probe
/// then steps down and names the setting that works.
pub async fn verdict(
    model: Arc<dyn ChatModel>,
    model_name: &str,
    setting: StructuredSetting,
    budget: Duration,
) -> Probe {
    let provider = model.provider_name();
    let (mut form, may_step_down) = match setting {
        StructuredSetting::Auto => (StructuredOutput::Schema, true),
        StructuredSetting::Fixed(form) => (form, false),
    };
    let mut ignored: Vec<StructuredOutput> = Vec::new();
    loop {
        let outcome = match ask_verdict(Arc::clone(&model), model_name, form, may_step_down, budget).await {
            Ok(outcome) => outcome,
            Err(e) => {
                return Probe::Fail(format!("{provider}/{model_name}: the verdict failed: {}", e.sentence(provider)));
            }
        };
        let used = outcome.form.unwrap_or(form);
        let shaped = used == StructuredOutput::Off || outcome.text.trim_start().starts_with('{');
        match used.step_down().filter(|_| !shaped && may_step_down && !outcome.text.trim().is_empty()) {
            Some(next) => {
                ignored.push(used);
                form = next;
            }
            None => return judged(provider, &outcome, used, &ignored, shaped),
        }
    }
}

/// One verdict probe in `form`.
async fn ask_verdict(
    model: Arc<dyn ChatModel>,
    model_name: &str,
    form: StructuredOutput,
    may_step_down: bool,
    budget: Duration,
) -> Result<Outcome, ProviderError> {
    let mut asked = request(
        model_name,
        "This is a connection check. Answer with one JSON object and nothing else.",
        r#"Reply with {"resolved": true, "verdict": "ready", "topic": "ready", "heat": 0.5}"#,
        96,
    );
    asked.response_schema =
        Some(ResponseSchema { form, may_step_down, ..ResponseSchema::new("verdict", verdict::schema()) });
    turn(model, asked, budget).await
}

/// The verdict probe's line: the form a debate will use, what the server
/// refused or ignored on the way, and the setting that starts there.
fn judged(
    provider: &str,
    outcome: &Outcome,
    used: StructuredOutput,
    ignored: &[StructuredOutput],
    shaped: bool,
) -> Probe {
    let refused: Vec<&str> = outcome.refused.iter().map(|f| f.describe(provider)).collect();
    let dropped: Vec<&str> = ignored.iter().map(|f| f.describe(provider)).collect();
    let parsed = verdict::parse(&outcome.text, "ready", crate::debate::Heat::new(0.5)).is_ok();
    let mut detail = format!("the judge's verdict comes as {}", used.describe(provider));
    if !refused.is_empty() {
        detail.push_str(&format!(" (the server refused {})", refused.join(" and ")));
    }
    if !dropped.is_empty() {
        detail.push_str(&format!(
            " (the server took {} but its answer was prose around the JSON: the form never reached the model); \
             set providers.{provider}.structured_output = \"{}\" to start there",
            dropped.join(" and "),
            used.setting()
        ));
    }
    if !shaped {
        return Probe::Note(format!(
            "{detail}; the answer was prose around the JSON although {} was asked: the form never reached the \
             model; set providers.{provider}.structured_output = \"off\" (the schema in the prompt)",
            used.describe(provider)
        ));
    }
    match (parsed, refused.is_empty() && dropped.is_empty()) {
        (true, true) => Probe::Ok(detail),
        (true, false) => Probe::Note(detail),
        (false, _) => {
            let why = if outcome.text.trim().is_empty() && outcome.reasoning {
                "the model spent the probe's tokens reasoning"
            } else {
                "the probe's answer was not a verdict; a debate asks the judge again when that happens"
            };
            Probe::Note(format!("{detail}; {why}"))
        }
    }
}
