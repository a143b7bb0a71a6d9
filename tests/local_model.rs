//! The embedded model, for real: SmolLM2-135M answers, yields a parseable
//! Verdict under the JSON-schema grammar, stops when its stream is dropped,
//! waits where it is while a paused turn does not read it, and serves the
//! two debaters side by side on two contexts.
//! The model comes from `HEAT_TEST_MODEL` or the data dir (`heat model install`);
//! CI sets `HEAT_REQUIRE_MODEL=1` so a missing model fails instead of skipping.
#![cfg(feature = "local")]
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures::{FutureExt, StreamExt};
use heat::provider::local::{LocalModel, LocalOptions};
use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk, FinishReason, ResponseSchema};

mod model_support;

/// One load shared by the tests in this file.
fn model() -> Option<Arc<LocalModel>> {
    static MODEL: OnceLock<Option<Arc<LocalModel>>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = model_support::model_path()?;
            let start = Instant::now();
            let model = LocalModel::load(&path, LocalOptions::default()).unwrap();
            eprintln!("model loaded in {:?}", start.elapsed());
            Some(Arc::new(model))
        })
        .clone()
}

fn request(user: &str, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        model: "local".into(),
        system: "You are a debater. Answer in plain prose.".into(),
        messages: vec![ChatMessage::user(user)],
        temperature: Some(0.7),
        max_tokens,
        thinking_budget: None,
        response_schema: None,
        seed: Some(42),
    }
}

async fn collect(model: &LocalModel, req: ChatRequest) -> (String, Vec<Chunk>) {
    let mut stream = model.stream(req);
    let mut text = String::new();
    let mut chunks = Vec::new();
    while let Some(item) = stream.next().await {
        let chunk = item.unwrap();
        if let Chunk::Text(t) = &chunk {
            text.push_str(t);
        }
        chunks.push(chunk);
    }
    (text, chunks)
}

#[tokio::test]
async fn answers_with_text_usage_and_a_finish() {
    let Some(model) = model() else { return };
    let start = Instant::now();
    let (text, chunks) = collect(&model, request("Give one reason why cities should plant more trees.", 64)).await;
    let elapsed = start.elapsed();
    assert!(!text.trim().is_empty(), "empty answer");
    let usage = chunks.iter().find_map(|c| if let Chunk::Usage(u) = c { Some(*u) } else { None }).unwrap();
    assert!(usage.input_tokens > 10 && usage.output_tokens > 0, "{usage:?}");
    assert!(matches!(chunks.last(), Some(Chunk::Finish(FinishReason::Stop | FinishReason::Length))));
    eprintln!("{} prompt + {} generated tokens in {elapsed:?}", usage.input_tokens, usage.output_tokens);
}

#[tokio::test]
async fn the_judge_answers_valid_json_under_the_grammar() {
    let Some(model) = model() else { return };
    let mut req = request(
        "Proposition: Tabs beat spaces.\n[advocate, skeptic]:\n[\"Tabs let each reader pick a width.\", \"Spaces look the same everywhere.\"]\nAnswer with the Verdict JSON object only.",
        200,
    );
    req.system = "You are the judge of a debate. Answer with a JSON object {resolved, verdict, topic, heat}.".into();
    req.temperature = Some(0.2);
    req.response_schema = Some(ResponseSchema::new("verdict", heat::debate::verdict::schema()));
    let (text, _) = collect(&model, req).await;
    let verdict =
        heat::debate::verdict::parse(&text, "Tabs beat spaces.", 0.9).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(!verdict.verdict.is_empty());
    assert!((0.3..=1.0).contains(&verdict.heat));
}

#[tokio::test]
async fn dropping_the_stream_stops_generation_and_the_model_serves_again() {
    let Some(path) = model_support::model_path() else { return };
    // One context, so the next answer comes from the one that was cut.
    let model = LocalModel::load(&path, LocalOptions { lanes: 1, ..LocalOptions::default() }).unwrap();
    let mut stream = model.stream(request("Write a long essay about rivers.", 400));
    let mut seen = 0;
    while let Some(item) = stream.next().await {
        if matches!(item.unwrap(), Chunk::Text(_)) {
            seen += 1;
        }
        if seen == 3 {
            break;
        }
    }
    drop(stream);
    let (text, chunks) = collect(&model, request("Say hello.", 16)).await;
    assert!(!text.is_empty());
    assert!(matches!(chunks.last(), Some(Chunk::Finish(_))));
}

#[tokio::test(flavor = "multi_thread")]
async fn dropping_the_model_mid_answer_waits_for_its_thread() {
    let Some(path) = model_support::model_path() else { return };
    let model = LocalModel::load(&path, LocalOptions::default()).unwrap();
    let mut stream = model.stream(request("Write a long essay about rivers.", 400));
    // A second job waits in the queue behind the first.
    let queued = model.stream(request("And another about lakes.", 400));
    assert!(matches!(stream.next().await, Some(Ok(_))), "the first answer started");
    // Dropping everything mid-answer must return (the worker joined), not
    // leave llama.cpp decoding while the process exits.
    let dropped = tokio::task::spawn_blocking(move || {
        drop(stream);
        drop(queued);
        drop(model);
    });
    tokio::time::timeout(std::time::Duration::from_secs(60), dropped).await.expect("dropping the model hung").unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_two_debaters_generate_side_by_side() {
    let Some(model) = model() else { return };
    let order = std::sync::Mutex::new(Vec::new());
    let speak = |side: &'static str, system: &str| {
        let req = ChatRequest { system: system.into(), ..request("Give one reason about city trees.", 48) };
        let (model, order) = (&model, &order);
        async move {
            let mut stream = model.stream(req);
            while let Some(item) = stream.next().await {
                match item.unwrap() {
                    Chunk::Text(_) => order.lock().unwrap().push((side, "text")),
                    Chunk::Finish(_) => order.lock().unwrap().push((side, "finish")),
                    _ => {}
                }
            }
        }
    };
    futures::join!(speak("advocate", "You argue for."), speak("skeptic", "You argue against."));
    let order = order.into_inner().unwrap();
    let at = |side, what| order.iter().position(|e| *e == (side, what)).unwrap();
    // Each side's text starts before the other side finishes: they ran at once.
    assert!(at("skeptic", "text") < at("advocate", "finish"), "{order:?}");
    assert!(at("advocate", "text") < at("skeptic", "finish"), "{order:?}");
}

/// A local judge beside debaters that write long arguments (as remote
/// models do): the third round's judge prompt, with two earlier rounds of
/// about 600 tokens an argument, is far more than a 2,048-token context
/// holds. Older rounds are left out, so the judge still answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_local_judge_beside_long_winded_debaters_still_answers_in_round_three() {
    use heat::debate::prompt::{self, Prompts};
    use heat::debate::{DebateEvent, DebateState, Role, TurnPurpose, Verdict};

    let Some(model) = model() else { return };
    let long = |side: &str| format!("{side} because the costs and the benefits fall on different people. ").repeat(30);
    let mut events = vec![DebateEvent::Started {
        topic: "Remote work beats the office".into(),
        max_rounds: 3,
        initial_heat: 0.9,
        participants: Vec::new(),
    }];
    for round in 0..3u32 {
        events.push(DebateEvent::RoundStarted {
            round,
            topic: "Remote work beats the office".into(),
            heat: 0.9,
            injected: vec![],
        });
        for (role, side) in [(Role::Advocate, "Remote work wins"), (Role::Skeptic, "The office wins")] {
            events.push(DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: None });
            events.push(DebateEvent::TurnCompleted { round, role, text: long(side), usage: None, truncated_at: None });
        }
        if round < 2 {
            let verdict =
                Verdict { resolved: false, verdict: "Both argued.".into(), topic: "Costs?".into(), heat: 0.6 };
            events.push(DebateEvent::TurnStarted {
                round,
                role: Role::Judge,
                purpose: TurnPurpose::Judge,
                temperature: None,
            });
            events.push(DebateEvent::TurnCompleted {
                round,
                role: Role::Judge,
                text: "{}".into(),
                usage: None,
                truncated_at: None,
            });
            events.push(DebateEvent::VerdictReached { round, verdict });
        }
    }
    let state = DebateState::from_events(&events);
    let messages = prompt::judge_messages(&state, 2, TurnPurpose::Judge, false);
    let chars: usize = messages.iter().map(|m| m.content.len()).sum();
    assert!(chars > 2048 * 5, "the whole history ({chars} characters) could not fit 2,048 tokens");
    let mut req = request("", 160);
    req.system = Prompts::default().system_for(Role::Judge);
    req.messages = messages;
    req.response_schema = Some(ResponseSchema::new("verdict", heat::debate::verdict::schema()));
    let (text, chunks) = collect(&model, req).await;
    assert!(matches!(chunks.last(), Some(Chunk::Finish(_))), "{chunks:?}");
    assert!(heat::debate::verdict::parse(&text, "t", 0.5).is_ok(), "{text}");
}

/// A paused turn (as the engine runs it: retried, paused by a watch) stops
/// the model: while it is paused for a second, at most the one piece that
/// was under way reaches the turn; and the answer goes on exactly where it
/// stopped, the same text as an answer that never paused.
#[tokio::test]
async fn a_paused_turn_stops_the_model_and_goes_on_where_it_stopped() {
    use heat::provider::retry::{self, RetryPolicy, TurnItem};

    let Some(path) = model_support::model_path() else { return };
    // One context for both answers: the same seed then gives the same text.
    let model: Arc<dyn ChatModel> =
        Arc::new(LocalModel::load(&path, LocalOptions { lanes: 1, ..LocalOptions::default() }).unwrap());
    let req = || request("Write a long essay about rivers.", 120);
    let text_of = |item: Option<Result<TurnItem, _>>| match item {
        Some(Ok(TurnItem::Chunk(Chunk::Text(text)))) => Some(Some(text)),
        Some(Ok(_)) => Some(None),
        None => None,
        Some(Err(e)) => panic!("{e}"),
    };
    let mut unpaused = String::new();
    let mut stream = retry::pausable(Arc::clone(&model), req(), RetryPolicy::default(), None);
    while let Some(piece) = text_of(stream.next().await) {
        unpaused.extend(piece);
    }

    let (pause, paused) = tokio::sync::watch::channel(false);
    let mut stream = retry::pausable(Arc::clone(&model), req(), RetryPolicy::default(), Some(paused));
    let mut text = String::new();
    let mut pieces = 0;
    while pieces < 5 {
        if let Some(piece) = text_of(stream.next().await).expect("the answer ended early") {
            text.push_str(&piece);
            pieces += 1;
        }
    }
    pause.send_replace(true);
    // Long enough for the model to write a dozen pieces if it went on.
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let mut while_paused = 0;
    while let Some(item) = stream.next().now_or_never() {
        text.extend(text_of(item).expect("the answer ended while paused"));
        while_paused += 1;
    }
    assert!(while_paused <= 1, "{while_paused} pieces were written while the turn was paused");
    pause.send_replace(false);
    while let Some(piece) = text_of(stream.next().await) {
        text.extend(piece);
    }
    assert!(unpaused.len() > 40, "{unpaused:?}");
    assert_eq!(text, unpaused, "the paused answer differs from the one that never paused");
}
