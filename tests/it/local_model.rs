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
use heat::debate::Heat;
use heat::debate::extractive::Seat;
use heat::provider::local::{LocalModel, LocalOptions};
use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk, FinishReason, ResponseSchema, ToolCall};

use crate::model_support;

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
        seed: Some(42),

        ..ChatRequest::default()
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
async fn offered_a_search_it_writes_one_under_its_grammar_and_then_argues_from_what_it_found() {
    use heat::provider::{ToolResult, ToolSpec, Tools};
    let Some(model) = model() else { return };
    let search = ToolSpec {
        name: "search".into(),
        description: "Search the library.".into(),
        parameters: serde_json::json!({}),
    };
    let mut asked = request("Should night trains replace short flights? Look up what you need first.", 64);
    asked.tools = Some(Tools { specs: vec![search], may_call: true });
    let (text, chunks) = collect(&model, asked.clone()).await;
    assert_eq!(text, "", "a look-up is a call, not text");
    let calls: Vec<&ToolCall> =
        chunks.iter().filter_map(|c| if let Chunk::ToolCall(call) = c { Some(call) } else { None }).collect();
    assert_eq!(calls.len(), 1, "{chunks:?}");
    assert_eq!(calls[0].name, "search");
    let query = calls[0].arguments_object()["query"].as_str().unwrap_or_default().to_string();
    assert!(query.split_whitespace().count() >= 2, "a query of words: {query:?}");
    let prompt = asked.messages[0].content.to_lowercase();
    assert!(query.split_whitespace().all(|w| prompt.contains(w)), "the prompt's own words: {query:?}");
    assert!(matches!(chunks.last(), Some(Chunk::Finish(FinishReason::ToolCalls))), "{chunks:?}");

    // Asked on with what it found, the tools closed: it argues.
    let found =
        "[notes/trains.md:L2–L3]\nL2: A night train emits a tenth of a flight's carbon.\nL3: It saves a hotel night.";
    asked.messages.push(ChatMessage::calling("", vec![calls[0].clone()]));
    asked.messages.push(ChatMessage::results(vec![ToolResult {
        call_id: calls[0].id.clone(),
        content: found.into(),
        is_error: false,
    }]));
    asked.tools = asked.tools.map(|t| Tools { may_call: false, ..t });
    let (argued, chunks) = collect(&model, asked).await;
    assert!(argued.split_whitespace().count() >= 5, "{argued:?}");
    assert!(!chunks.iter().any(|c| matches!(c, Chunk::ToolCall(_))));
    eprintln!("searched {query:?}, then argued: {argued}");
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
    let verdict = heat::debate::verdict::parse(&text, "Tabs beat spaces.", Heat::new(0.9))
        .unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(!verdict.verdict.is_empty());
    assert!((0.3..=1.0).contains(&verdict.heat.get()));
    eprintln!("the embedded judge under the verdict's grammar: {text}");
    assert!(verdict.ahead.is_some() && verdict.conceded.is_some(), "the grammar holds the sides: {text}");
}

#[tokio::test]
async fn the_swap_checks_schema_names_debater_a_and_b_under_the_grammar() {
    use heat::debate::verdict::{self, SideNames};
    let Some(model) = model() else { return };
    let mut req = request(
        "Proposition: Tabs beat spaces.\n[Debater A, Debater B]:\n[\"Spaces look the same everywhere.\", \"Tabs let each reader pick a width.\"]\nAnswer with the Verdict JSON object only.",
        200,
    );
    req.system = "You are the judge of a debate. Answer with a JSON object.".into();
    req.temperature = Some(0.2);
    req.response_schema = Some(ResponseSchema::new("verdict", verdict::schema_naming(SideNames::SWAPPED)));
    let (text, _) = collect(&model, req).await;
    let read =
        verdict::parse_naming(&text, "t", Heat::new(0.9), SideNames::SWAPPED).unwrap_or_else(|e| panic!("{e}: {text}"));
    eprintln!("the embedded judge under the swap check's grammar: {text}");
    assert!(read.ahead.is_some(), "A, B or even: {text}");
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
        let req =
            ChatRequest { system: system.into(), grounding: None, ..request("Give one reason about city trees.", 48) };
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
    use heat::debate::{DebateEvent, Role, TurnPurpose, Verdict};

    use crate::support::log::Log;

    let Some(model) = model() else { return };
    let long = |side: &str| format!("{side} because the costs and the benefits fall on different people. ").repeat(30);
    let mut history = Log::new("Remote work beats the office", 3, 0.9);
    for round in 0..3u32 {
        history = history.round(round);
        for (role, side) in [(Role::Advocate, "Remote work wins"), (Role::Skeptic, "The office wins")] {
            history = history.starts_at(round, role, TurnPurpose::Argue, None).completes(round, role, &long(side));
        }
        if round < 2 {
            let verdict = Verdict {
                resolved: false,
                verdict: "Both argued.".into(),
                topic: "Costs?".into(),
                heat: Heat::new(0.6),
                ..Verdict::default()
            };
            history = history
                .starts_at(round, Role::Judge, TurnPurpose::Judge, None)
                .completes(round, Role::Judge, "{}")
                .then(DebateEvent::VerdictReached { round, verdict });
        }
    }
    let state = history.state();
    let messages = prompt::judge_messages(&state, 2, TurnPurpose::Judge, false);
    let chars: usize = messages.iter().map(|m| m.content.len()).sum();
    assert!(chars > 2048 * 5, "the whole history ({chars} characters) could not fit 2,048 tokens");
    let mut req = request("", 160);
    req.system = Prompts::default().system_for(Role::Judge);
    req.messages = messages;
    req.response_schema = Some(ResponseSchema::new("verdict", heat::debate::verdict::schema()));
    let (text, chunks) = collect(&model, req).await;
    assert!(matches!(chunks.last(), Some(Chunk::Finish(_))), "{chunks:?}");
    assert!(heat::debate::verdict::parse(&text, "t", Heat::new(0.5)).is_ok(), "{text}");
}

/// A request whose answer depends only on the prompt, the seed and the temperature.
fn seeded(user: &str, temperature: f32, seed: u64) -> ChatRequest {
    ChatRequest { temperature: Some(temperature), seed: Some(seed), ..request(user, 40) }
}

#[tokio::test]
async fn the_same_prompt_and_seed_give_the_same_answer() {
    let Some(model) = model() else { return };
    let ask = "Give one reason why trees help cities.";
    let (first, _) = collect(&model, seeded(ask, 0.8, 11)).await;
    let (again, _) = collect(&model, seeded(ask, 0.8, 11)).await;
    assert_eq!(first, again, "same seed, same answer");
    let (greedy, _) = collect(&model, seeded(ask, 0.0, 1)).await;
    let (greedy_other_seed, _) = collect(&model, seeded(ask, 0.0, 99)).await;
    assert_eq!(greedy, greedy_other_seed, "temperature 0 does not depend on the seed");
    let answers: std::collections::HashSet<String> =
        futures::future::join_all((0..4).map(|seed| collect(&model, seeded(ask, 1.0, seed))))
            .await
            .into_iter()
            .map(|(text, _)| text)
            .collect();
    assert!(answers.len() > 1, "other seeds at temperature 1 give other answers");
}

#[tokio::test]
async fn an_answer_ends_at_the_end_of_turn_token_which_is_never_shown() {
    let Some(model) = model() else { return };
    let (text, chunks) = collect(&model, request("Say hello in three words.", 200)).await;
    assert!(matches!(chunks.last(), Some(Chunk::Finish(FinishReason::Stop))), "{chunks:?}");
    for token in ["<|im_end|>", "<|im_start|>", "<|endoftext|>"] {
        assert!(!text.contains(token), "{token} shown in {text:?}");
    }
}

#[tokio::test]
async fn a_given_answer_start_is_continued_and_streamed_first() {
    let Some(model) = model() else { return };
    let opening = "I disagree that cities should ban cars. My first objection is that";
    let mut req = request("Proposition: Cities should ban cars. Give reasons why it is WRONG.", 40);
    req.messages.push(ChatMessage::assistant(opening));
    let (text, chunks) = collect(&model, req).await;
    assert!(matches!(chunks.first(), Some(Chunk::Text(t)) if t == opening), "{chunks:?}");
    assert!(text.starts_with(opening) && text.len() > opening.len() + 5, "{text}");
}

#[tokio::test]
async fn the_chosen_verdict_grammar_always_yields_a_verdict_from_the_arguments() {
    let Some(model) = model() else { return };
    let proposition = "Cities should ban cars from their centres";
    let advocate = "I agree that cities should ban cars from their centres. My first reason is that streets \
        become safer for children. Air quality improves when traffic falls. Shops see more people on foot.";
    let skeptic = "I disagree that cities should ban cars from their centres. Deliveries would cost more for \
        small shops. People with disabilities rely on cars to reach the centre. Buses cannot reach every street.";
    let seat =
        |field: &str, name: &str, argument| Seat { field: field.into(), name: name.into(), argument, said: Vec::new() };
    let seats = [seat("advocate_best", "advocate", advocate), seat("skeptic_best", "skeptic", skeptic)];
    let schema = heat::debate::extractive::schema(proposition, &seats, false, &[]).unwrap();
    for seed in 0..5 {
        let mut req = seeded(
            &format!(
                "Proposition: {proposition}\n\nThe advocate argued:\n{advocate}\n\nThe skeptic argued:\n{skeptic}"
            ),
            0.7,
            seed,
        );
        req.max_tokens = 200;
        req.system = "You are the judge of a debate. Answer with a JSON object.".into();
        req.response_schema = Some(ResponseSchema::new("verdict", schema.clone()));
        let (text, _) = collect(&model, req).await;
        let verdict = heat::debate::extractive::parse(&text, proposition, Heat::new(0.6), false, &seats)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}: {text}"));
        let quoted = |side: &str, argument: &str| {
            let start = verdict.verdict.find(side).unwrap() + side.len();
            let quote = verdict.verdict[start..].split('\u{201d}').next().unwrap().to_string();
            assert!(argument.contains(&quote), "seed {seed}: {quote:?} is not from the argument");
        };
        quoted("the advocate's \u{201c}", advocate);
        quoted("the skeptic's \u{201c}", skeptic);
        let question = verdict.topic.to_lowercase();
        assert!(question.ends_with('?'), "seed {seed}: {question}");
        let named = question.split(|c: char| !c.is_alphanumeric()).any(|w| {
            ["car", "citie", "centre", "ban"].iter().any(|stem| w.starts_with(stem) && w.len() <= stem.len() + 3)
        });
        assert!(named, "seed {seed}: {question} names no word of the proposition");
    }
}

/// Three free seats and a review's issues: the grammar yields a choice
/// from each seat's own argument and a status from the closed list for
/// every issue, whatever the seed.
#[tokio::test]
async fn the_chosen_form_for_three_seats_and_their_issues_always_reads() {
    let Some(model) = model() else { return };
    let proposition = "Close the old town to private cars";
    let arguments = [
        "The plan closes the old town to cars from spring. Vans may enter before ten each morning.",
        "The plan never says who checks the permits at the gates. No agency is named for it.",
        "The morning window will jam the ring road with vans. Every delivery must come at once.",
    ];
    let seat =
        |field: &str, name: &str, argument| Seat { field: field.into(), name: name.into(), argument, said: Vec::new() };
    let seats = [
        seat("defender_best", "defender", arguments[0]),
        seat("logic_critic_best", "logic critic", arguments[1]),
        seat("ops_critic_best", "ops critic", arguments[2]),
    ];
    let issues = ["L1".to_string(), "O1".to_string()];
    let schema = heat::debate::extractive::schema(proposition, &seats, false, &issues).unwrap();
    for seed in 0..3 {
        let prompt = format!(
            "Proposition: {proposition}\n\nThe defender argued:\n{}\n\nThe logic critic argued:\n{}\n\nThe ops critic argued:\n{}\n\n\
             The issues raised:\n- L1 [high] No one enforces the permits: open\n- O1 [medium] Vans queue at the gates: open",
            arguments[0], arguments[1], arguments[2]
        );
        let mut req = seeded(&prompt, 0.7, seed);
        req.max_tokens = 300;
        req.system = "You are the judge of a review. Answer with a JSON object.".into();
        req.response_schema = Some(ResponseSchema::new("verdict", schema.clone()));
        let (text, _) = collect(&model, req).await;
        let verdict = heat::debate::extractive::parse(&text, proposition, Heat::new(0.6), false, &seats)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}: {text}"));
        for (seat, argument) in seats.iter().zip(arguments) {
            let start = verdict.verdict.find(&format!("the {}'s \u{201c}", seat.name)).unwrap();
            let quote = verdict.verdict[start..].split('\u{201c}').nth(1).unwrap().split('\u{201d}').next().unwrap();
            assert!(argument.contains(quote), "seed {seed}: {quote:?} is not from the {}", seat.name);
        }
        let ruled = heat::debate::issues::ruled_in(&text);
        let ids: Vec<&str> = ruled.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["L1", "O1"], "seed {seed}: every issue gets a status: {text}");
    }
}

#[tokio::test]
async fn the_requantized_model_is_kept_beside_its_source_and_made_again_when_the_source_changes() {
    let Some(path) = model_support::model_path() else { return };
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("model.gguf");
    std::fs::copy(&path, &source).unwrap();
    let cached = heat::provider::local::cache_path(&source);
    assert_eq!(cached, dir.path().join("model.gguf.q8_0"));
    let options = || LocalOptions { lanes: 1, ..LocalOptions::default() };
    let answer = |model: LocalModel| async move { collect(&model, seeded("Name a colour.", 0.0, 1)).await.0 };
    let first = answer(LocalModel::load(&source, options()).unwrap()).await;
    let made = std::fs::metadata(&cached).expect("the requantized copy is kept").modified().unwrap();
    let second = answer(LocalModel::load(&source, options()).unwrap()).await;
    assert_eq!(first, second, "the kept copy answers as the conversion did");
    assert_eq!(std::fs::metadata(&cached).unwrap().modified().unwrap(), made, "the kept copy was read, not made again");
    // Another version of the file (here: a new modification time) is converted again.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options().write(true).open(&source).unwrap().set_modified(later).unwrap();
    let third = answer(LocalModel::load(&source, options()).unwrap()).await;
    assert_eq!(first, third);
    assert_ne!(std::fs::metadata(&cached).unwrap().modified().unwrap(), made, "a changed source is converted again");
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

/// A critic's answer under the issue grammar, on the real model: it opens
/// with one issue line the board reads (the id given, a severity from the
/// list, a claim and evidence in the model's words, each a whole
/// sentence), and prose follows from the lead. Three seeds.
#[tokio::test(flavor = "multi_thread")]
async fn the_issue_grammar_makes_the_embedded_critic_raise_a_readable_issue() {
    let Some(model) = model() else { return };
    for seed in [1, 2, 3] {
        let lead = "I disagree that API keys belong in environment variables. My first objection is that";
        let req = ChatRequest {
            system: "You are the LOGIC CRITIC of a proposal under review. Raise issues with its reasoning.".into(),
            grammar: Some(heat::debate::issues::raising::grammar("L1", Some(lead))),
            seed: Some(seed),
            ..request("The proposal: store API keys in environment variables. Attack it.", 160)
        };
        let (text, _) = collect(&model, req).await;
        let raised = heat::debate::issues::raised_in(&text);
        assert_eq!(raised.len(), 1, "seed {seed}: {text}");
        assert_eq!(raised[0].id, "L1");
        assert!(raised[0].claim.chars().count() >= 15 && raised[0].claim.ends_with('.'), "a sentence: {text}");
        assert!(raised[0].evidence.as_ref().is_some_and(|e| e.chars().count() >= 5), "seed {seed}: {text}");
        let prose = text.split_once('\n').map(|(_, rest)| rest).unwrap_or_default();
        assert!(prose.starts_with(lead), "seed {seed}: {text}");
        eprintln!("seed {seed}: {text}\n");
    }
}
