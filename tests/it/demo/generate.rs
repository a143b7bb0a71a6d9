//! Plays the script through the real debate engine and writes the session
//! log it produces: scripted models stream the texts word by word at a
//! model's pace, the person's steering is sent where the script says, and
//! each event is stamped with the (paused, so exact) tokio clock.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::{DebateEvent, Role};
use heat::provider::scripted::{Reply, ScriptedModel, Step};
use heat::provider::{ChatModel, ChatRequest, Chunk, ChunkStream, FinishReason, ProviderError, Usage};
use heat::store::log::{FORMAT_VERSION, Header, Record};

use super::script::{self, Judged};
use crate::engine_support;

/// The demo's session header: a fixed id and creation time (2026-12-01 09:00 UTC).
fn header() -> Header {
    Header { heat_session: FORMAT_VERSION, id: "20261201-090000-demo".into(), created_ms: 1_796_115_600_000 }
}

/// Tokens in a chunk, as a tokenizer would roughly count them: one for a
/// short word, one more for every five letters after.
fn tokens(chunk: &str) -> u64 {
    (chunk.trim().chars().count() as u64).div_ceil(5).max(1)
}

/// A small deterministic generator for the pace's unevenness.
struct Jitter(u64);

impl Jitter {
    /// A factor between 0.7 and 1.3.
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        0.7 + (self.0 % 600) as f64 / 1000.0
    }
}

/// `text` streamed word by word: a wait for the first word, then each
/// chunk after a time set by its tokens at `rate` tokens a second, a little
/// longer at a sentence's or a paragraph's end.
fn streamed(text: &str, (first_ms, rate): (u64, f64), seed: u64) -> Reply {
    let mut jitter = Jitter(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut steps = vec![Step::Delay(Duration::from_millis(first_ms))];
    let mut output = 0;
    for (i, word) in Reply::text(text).0.into_iter().filter_map(text_of).enumerate() {
        if i > 0 {
            let mut ms = tokens(&word) as f64 * 1000.0 / rate * jitter.next();
            if word.trim_end().ends_with(['.', '?', '!', ':', ';']) {
                ms += 90.0;
            }
            if word.ends_with('\n') {
                ms += 160.0;
            }
            steps.push(Step::Delay(Duration::from_millis(ms.round() as u64)));
        }
        output += tokens(&word);
        steps.push(Step::Chunk(Chunk::Text(word)));
    }
    // The input side is counted from the request (see `Demo`).
    steps.push(Step::Chunk(Chunk::Usage(Usage {
        input_tokens: 0,
        output_tokens: output,
        cached_input_tokens: 0,
        ..Usage::default()
    })));
    steps.push(Step::Chunk(Chunk::Finish(FinishReason::Stop)));
    Reply(steps)
}

fn text_of(step: Step) -> Option<String> {
    match step {
        Step::Chunk(Chunk::Text(text)) => Some(text),
        _ => None,
    }
}

/// A judge's answer as the JSON object a model writes.
fn judged(judged: &Judged) -> String {
    let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
    format!(
        r#"{{"resolved": {}, "verdict": {}, "topic": {}, "heat": {:.1}}}"#,
        judged.resolved,
        quoted(judged.verdict),
        quoted(judged.topic),
        judged.heat
    )
}

/// A scripted model that reports the tokens it was sent, as a provider
/// does (about four characters a token).
struct Demo(ScriptedModel);

impl ChatModel for Demo {
    fn provider_name(&self) -> &'static str {
        self.0.provider_name()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let chars = request.system.len() + request.messages.iter().map(|m| m.content.len()).sum::<usize>();
        let input = chars.div_ceil(4) as u64;
        let stream = self.0.stream(request).map(move |chunk| match chunk {
            Ok(Chunk::Usage(usage)) => Ok(Chunk::Usage(Usage { input_tokens: input, ..usage })),
            other => other,
        });
        stream.boxed()
    }
}

fn model(replies: Vec<Reply>) -> RoleSetup {
    let ran_out = ProviderError::BadRequest { status: 400, message: "the demo script has no more replies".into() };
    let model = Demo(ScriptedModel::new(replies, Reply::fail(ran_out)));
    RoleSetup::new(Arc::new(model) as Arc<dyn ChatModel>, "demo", 1024)
}

fn setup() -> EngineSetup {
    let debater = |role: Role, texts: &[&str]| {
        let mut replies = Vec::new();
        for (round, text) in texts.iter().enumerate() {
            if role == Role::Skeptic && round == script::RATE_LIMITED_ROUND {
                let retry_after = Some(Duration::from_secs(script::RETRY_AFTER_SECS));
                let limited = ProviderError::RateLimited { retry_after, message: "HTTP 429".into() };
                replies.push(Reply(vec![Step::Delay(Duration::from_millis(420)), Step::Fail(limited)]));
            }
            replies.push(streamed(text, script::pace(role, round), (round as u64 + 1) * 7 + role as u64));
        }
        model(replies)
    };
    let verdicts = script::VERDICTS.iter().chain([&script::SYNTHESIS]);
    let judge = verdicts
        .enumerate()
        .map(|(round, v)| streamed(&judged(v), script::pace(Role::Judge, round), 100 + round as u64))
        .collect();
    engine_support::duel(
        debater(Role::Advocate, &script::ADVOCATE),
        debater(Role::Skeptic, &script::SKEPTIC),
        model(judge),
    )
    .build()
}

/// The demo's session log, line by line as `assets/demo-session.jsonl`
/// holds it. Run it on a paused tokio clock: the waits then pass at once
/// and every stamp is exact.
pub async fn generate() -> String {
    let clock = tokio::time::Instant::now();
    let spec = DebateSpec {
        topic: script::PROPOSITION.into(),
        max_rounds: script::MAX_ROUNDS,
        initial_heat: Heat::new(script::INITIAL_HEAT),
        grounding: Grounding::default(),
        format: None,
    };
    let mut handle = engine::start(setup(), spec);
    let mut cues = script::cues();
    let mut chunks: HashMap<(u32, Role), usize> = HashMap::new();
    let mut out = serde_json::to_string(&header()).unwrap_or_default() + "\n";
    while let Some(event) = handle.next_event().await {
        let ms = clock.elapsed().as_millis() as u64;
        if let DebateEvent::Delta { round, role, .. } = &event {
            let seen = chunks.entry((*round, *role)).or_default();
            *seen += 1;
            let due = |c: &script::Cue| c.round == *round && c.role == *role && c.after_chunks == *seen;
            for cue in cues.extract_if(.., |c| due(c)) {
                handle.send(cue.command);
            }
        }
        out += &serde_json::to_string(&Record { ms, event }).unwrap_or_default();
        out.push('\n');
    }
    handle.join().await;
    assert!(cues.is_empty(), "steering never sent (its turn streamed fewer chunks): {}", cues.len());
    out
}
