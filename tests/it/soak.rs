//! The fault soak: many debates against the mock server with seeded random
//! faults on every kind of request, through the real HTTP providers, the
//! retry layer, the engine and the session store. Every debate must end
//! resolved, at the round limit, or with a clear failure once a turn's retry
//! budget is spent; no turn's text may be duplicated, truncated or spliced
//! from two attempts; every session log must load and fold to the live state.
//!
//! `HEAT_SOAK_DEBATES` (default 50) and `HEAT_SOAK_SEED` change the run;
//! `cargo test --test soak -- --nocapture` prints the fault report.
#![allow(clippy::unwrap_used)]

use crate::engine_support;
use crate::support;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, Grounding, RoleSetup};
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::provider::anthropic::AnthropicModel;
use heat::provider::http::HttpConfig;
use heat::provider::openai::OpenAiModel;
use heat::provider::retry::RetryPolicy;
use heat::provider::{ChatModel, ChatRequest, ChunkStream};
use heat::store::Store;
use support::mock_llm::{
    MockLlm, Recorded, Reply, anthropic_sse_text, anthropic_stream, openai_sse_text, openai_stream, split_text,
};
use support::turns::role_of;

const MAX_ROUNDS: u32 = 6;
const RETRY: RetryPolicy = RetryPolicy {
    max_retries: 3,
    base_delay: Duration::from_millis(2),
    max_delay: Duration::from_millis(10),
    max_retry_after: Duration::from_secs(1),
};
const IDLE: Duration = Duration::from_millis(300);

/// The faults the server (or the network, for `Refused`) can inflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    RateLimited,
    Server500,
    Unavailable503,
    Overloaded529,
    Refused,
    CutMidStream,
    /// Cut or stalled after the closing event: the answer is whole and stands.
    CutAfterFinish,
    Stalled,
    MalformedSse,
    JudgeGarbage,
    /// `[DONE]` with no `finish_reason` (OpenAI), or `end_turn` with no text
    /// (Anthropic): what servers send when they drop a stream for another.
    EndedIncomplete,
    /// The answer stopped at `max_tokens`: it stands, marked as cut.
    LengthCut,
    /// The judge's structured output refused with a 500 naming the parameter.
    SchemaRefused,
}

/// What one debate's server offered and inflicted.
#[derive(Default)]
struct Ledger {
    /// Every complete answer text offered, by role (a turn must end as one of these).
    offered: BTreeMap<Role, HashSet<String>>,
    /// Answer texts whose stream was faulted, with the fault.
    faulted: BTreeMap<String, Fault>,
    faults: BTreeMap<Fault, usize>,
    requests: usize,
    /// Requests per role, which seeds the role's fault sequence.
    per_role: BTreeMap<Role, u64>,
}

/// A stream body in the dialect the request path asks for.
fn body(anthropic: bool, text: &str, deltas: usize) -> Vec<u8> {
    if anthropic { anthropic_sse_text(text, deltas) } else { openai_sse_text(text, deltas) }
}

/// Where the stream's closing event begins: a cut before it loses the answer.
fn finish_offset(body: &[u8], anthropic: bool) -> usize {
    let marker: &[u8] = if anthropic {
        b"event: message_delta"
    } else {
        b"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\""
    };
    body.windows(marker.len()).position(|w| w == marker).expect("a closing event")
}

/// Inserts a line that is not valid JSON at a random event boundary.
fn with_malformed_line(body: &[u8], anthropic: bool, rng: &mut fastrand::Rng) -> Vec<u8> {
    let text = String::from_utf8(body.to_vec()).unwrap();
    let events: Vec<&str> = text.split_inclusive("\n\n").collect();
    let at = rng.usize(1..events.len());
    let bad = if anthropic {
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_de\n\n"
    } else {
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"spliced?\n\n"
    };
    let mut out = events[..at].concat();
    out.push_str(bad);
    out.push_str(&events[at..].concat());
    out.into_bytes()
}

/// The server's answer to one request: a correct answer, or a fault chosen
/// by the role's own seeded sequence (so concurrency does not change it).
fn answer(seed: u64, ledger: &Mutex<Ledger>, request: &Recorded) -> Reply {
    let role = role_of(request);
    let anthropic = request.path == "/v1/messages";
    let mut ledger = ledger.lock().unwrap();
    ledger.requests += 1;
    let serial = ledger.requests;
    let nth = ledger.per_role.entry(role).or_default();
    *nth += 1;
    let mut rng = fastrand::Rng::with_seed(seed ^ (role as u64) << 56 ^ *nth);
    let text = if role == Role::Judge {
        let resolved = rng.u8(0..100) < 12;
        let heat = f32::from(rng.u8(0..=40)) / 20.0;
        format!(
            r#"{{"resolved": {resolved}, "verdict": "Verdict #{serial}: both sides \"held\" ground.", "topic": "Topic #{serial}", "heat": {heat}}}"#
        )
    } else {
        // The serial between the words keeps the two sides' answers from sharing long runs: a debater
        // repeating the argument its prompt quotes is a failed turn.
        format!(
            "{} answer #{serial}: ünïcode — and a \"quote\" #{serial}, then **markdown**.\n\nSecond paragraph #{serial}.",
            role.label()
        )
    };
    let clean = body(anthropic, &text, rng.usize(1..12));
    let piece = rng.usize(7..90);
    let dice = rng.u8(0..100);
    let fault = match dice {
        0..=3 => Some(Fault::RateLimited),
        4..=5 => Some(Fault::Server500),
        6..=7 => Some(Fault::Unavailable503),
        8..=9 => Some(Fault::Overloaded529),
        10..=14 => Some(Fault::CutMidStream),
        15..=16 => Some(Fault::Stalled),
        31..=32 => Some(Fault::CutAfterFinish),
        17..=20 => Some(Fault::MalformedSse),
        21..=30 if role == Role::Judge => Some(Fault::JudgeGarbage),
        33..=35 => Some(Fault::EndedIncomplete),
        36..=38 if role != Role::Judge => Some(Fault::LengthCut),
        36..=45 if role == Role::Judge && asks_for_schema(request) => Some(Fault::SchemaRefused),
        _ => None,
    };
    if let Some(fault) = fault {
        *ledger.faults.entry(fault).or_default() += 1;
        ledger.faulted.insert(text.clone(), fault);
    }
    let error = |status, message: &str| Reply::error(status, &format!(r#"{{"error":{{"message":"{message}"}}}}"#));
    let finish = finish_offset(&clean, anthropic);
    match fault {
        None => {
            ledger.offered.entry(role).or_default().insert(text);
            Reply::sse(&clean, piece)
        }
        Some(Fault::RateLimited) => {
            let reply = error(429, "rate limited");
            if rng.bool() { reply.with_header("retry-after", "0") } else { reply.with_header("retry-after-ms", "15") }
        }
        Some(Fault::Server500) => error(500, "internal error"),
        Some(Fault::Unavailable503) => error(503, "unavailable"),
        Some(Fault::Overloaded529) => error(529, "overloaded"),
        // Somewhere before the closing event: the answer is never complete.
        Some(Fault::CutMidStream) => Reply::sse(&clean, piece).cut_after_bytes(rng.usize(0..finish)),
        Some(Fault::Stalled) => Reply::sse(&clean[..rng.usize(0..finish)], piece).stalled(),
        Some(Fault::CutAfterFinish) => {
            ledger.offered.entry(role).or_default().insert(text);
            // Past the whole closing event line, so the finish reason arrived.
            let closed = finish + clean[finish..].windows(2).position(|w| w == b"\n\n").expect("event end") + 2;
            if rng.bool() {
                Reply::sse(&clean, piece).cut_after_bytes(rng.usize(closed..clean.len()))
            } else {
                Reply::sse(&clean[..rng.usize(closed..clean.len())], piece).stalled()
            }
        }
        Some(Fault::MalformedSse) => Reply::sse(&with_malformed_line(&clean, anthropic, &mut rng), piece),
        Some(Fault::JudgeGarbage) => {
            let garbage =
                ["I think the advocate won, clearly.", r#"{"resolved": tru"#, "```json\n{\"heat\": \"hot\"}\n```"];
            let text = garbage[rng.usize(0..garbage.len())];
            Reply::sse(&body(anthropic, text, 2), piece)
        }
        Some(Fault::EndedIncomplete) if anthropic => Reply::sse(&anthropic_stream(&[], "end_turn", 0), piece),
        Some(Fault::EndedIncomplete) => {
            let parts = split_text(&text, 4);
            let some: Vec<&str> = parts.iter().take(rng.usize(0..parts.len())).map(String::as_str).collect();
            Reply::sse(&openai_stream("m", &some, None), piece)
        }
        Some(Fault::LengthCut) => {
            ledger.offered.entry(role).or_default().insert(text.clone());
            let parts = split_text(&text, 3);
            let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
            let body = if anthropic {
                anthropic_stream(&parts, "max_tokens", 256)
            } else {
                openai_stream("m", &parts, Some("length"))
            };
            Reply::sse(&body, piece)
        }
        Some(Fault::SchemaRefused) => error(
            500,
            "1 validation error: response_format.type Input should be 'text' or 'json_object' (output_config)",
        ),
        Some(Fault::Refused) => unreachable!("refusals happen before the server"),
    }
}

/// Whether the judge's request asks for the strongest structured output.
fn asks_for_schema(request: &Recorded) -> bool {
    request.body["response_format"]["type"] == "json_schema" || request.body.get("output_config").is_some()
}

/// A model that sends some of its requests to a port nobody listens on: a
/// real connection refused, decided by its own seeded sequence.
struct Refusing {
    inner: Arc<dyn ChatModel>,
    dead: Arc<dyn ChatModel>,
    rng: Mutex<fastrand::Rng>,
    refused: Arc<Mutex<usize>>,
}

impl ChatModel for Refusing {
    fn provider_name(&self) -> &'static str {
        self.inner.provider_name()
    }

    fn http_endpoint(&self) -> Option<&heat::provider::endpoint::Endpoint> {
        self.inner.http_endpoint()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        if self.rng.lock().unwrap().u8(0..100) < 4 {
            *self.refused.lock().unwrap() += 1;
            return self.dead.stream(request);
        }
        self.inner.stream(request)
    }
}

fn http(base_url: &str) -> HttpConfig {
    HttpConfig {
        base_url: base_url.into(),
        api_key: Some("soak-test-key".into()),
        connect_timeout: Duration::from_secs(2),
        idle_timeout: IDLE,
        first_byte_timeout: IDLE,
        max_concurrent: None,
        headers: Vec::new(),
    }
}

fn model(anthropic: bool, base_url: &str) -> Arc<dyn ChatModel> {
    if anthropic { Arc::new(AnthropicModel::new(http(base_url))) } else { Arc::new(OpenAiModel::new(http(base_url))) }
}

async fn dead_url() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// What one debate came to.
struct Run {
    outcome: Outcome,
    faults: BTreeMap<Fault, usize>,
    requests: usize,
    retries: usize,
    repairs: usize,
    rounds: usize,
}

/// Checks the debate's events against what the server offered.
fn check_turns(debate: usize, events: &[DebateEvent], ledger: &Ledger) {
    let mut retries_since_start: BTreeMap<(u32, Role), u32> = BTreeMap::new();
    for event in events {
        match event {
            DebateEvent::TurnStarted { round, role, .. } => {
                retries_since_start.insert((*round, *role), 0);
            }
            DebateEvent::TurnRetrying { round, role, .. } => {
                *retries_since_start.entry((*round, *role)).or_default() += 1;
            }
            DebateEvent::TurnCompleted { round, role, text, .. } => {
                assert!(
                    !text.trim().is_empty() || *role == Role::Judge,
                    "debate {debate}: an empty {role:?} turn stood"
                );
                let offered = ledger.offered.get(role).is_some_and(|texts| texts.contains(text));
                let garbage = *role == Role::Judge && !text.contains("Verdict #");
                assert!(
                    offered || garbage,
                    "debate {debate}, round {round}: the {role:?} turn is not one whole answer the server sent \
                     (duplicated, truncated or spliced): {text:?} (fault: {:?})",
                    ledger.faulted.get(text)
                );
            }
            DebateEvent::TurnFailed { round, role, error } => {
                let retries = retries_since_start.get(&(*round, *role)).copied().unwrap_or_default();
                assert_eq!(
                    retries, RETRY.max_retries,
                    "debate {debate}: the {role:?} failed after {retries} retries, not the whole budget: {error}"
                );
            }
            _ => {}
        }
    }
}

async fn one_debate(debate: usize, seed: u64, data: &std::path::Path) -> Run {
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let server = {
        let ledger = Arc::clone(&ledger);
        MockLlm::with_handler(move |request| answer(seed, &ledger, request)).await
    };
    let dead = dead_url().await;
    let refused = Arc::new(Mutex::new(0));
    // The advocate speaks Anthropic, the skeptic OpenAI; the judge alternates.
    let judge_anthropic = debate.is_multiple_of(2);
    let role = |anthropic: bool, salt: u64| {
        let model = Arc::new(Refusing {
            inner: model(anthropic, &server.base_url),
            dead: model(anthropic, &dead),
            rng: Mutex::new(fastrand::Rng::with_seed(seed.wrapping_add(salt))),
            refused: Arc::clone(&refused),
        }) as Arc<dyn ChatModel>;
        RoleSetup::new(model, "soak-model", 256)
    };
    let setup = engine_support::duel(role(true, 1), role(false, 2), role(judge_anthropic, 3)).retry(RETRY).build();
    let store = Store::open(data).unwrap();
    let mut recorder = store.create().unwrap();
    let spec = DebateSpec {
        topic: format!("Soak debate {debate}"),
        max_rounds: MAX_ROUNDS,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    };
    let mut handle = engine::start(setup, spec);
    let mut events = Vec::new();
    while let Some(event) = tokio::time::timeout(Duration::from_secs(120), handle.next_event())
        .await
        .unwrap_or_else(|_| panic!("debate {debate} hung"))
    {
        assert!(recorder.record(&event).is_none(), "debate {debate}: the log stopped being written");
        events.push(event);
    }
    let live = handle.join().await;

    let loaded = store.load(recorder.id()).unwrap();
    assert!(loaded.notices.is_empty(), "debate {debate}: the log loaded with notices {:?}", loaded.notices);
    let folded = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    assert_eq!(folded, live, "debate {debate}: the session log does not fold to the live state");
    assert_eq!(DebateState::from_events(&events), live, "debate {debate}: the events do not fold to the live state");

    let ledger = ledger.lock().unwrap();
    check_turns(debate, &events, &ledger);
    let finish = live.finish.clone().unwrap_or_else(|| panic!("debate {debate} never finished"));
    match &finish.outcome {
        Outcome::Resolved | Outcome::MaxRounds => {}
        Outcome::Failed(why) => assert!(
            why.starts_with("the ") && why.contains("could not answer:") && why.len() > 30,
            "debate {debate}: the failure does not read as a sentence: {why}"
        ),
        other => panic!("debate {debate} ended {other:?}"),
    }
    // No empty argument is ever judged.
    for round in live.rounds.iter().filter(|r| r.turn(Role::Judge).is_some()) {
        for role in Role::DEBATERS {
            let text = round.argument(role).unwrap_or_default();
            assert!(!text.trim().is_empty(), "debate {debate}: round {} judged an empty {role:?}", round.number);
        }
    }
    if finish.outcome == Outcome::MaxRounds {
        assert_eq!(live.rounds.len(), MAX_ROUNDS as usize, "debate {debate} ended at the limit early");
    }
    let mut faults = ledger.faults.clone();
    faults.insert(Fault::Refused, *refused.lock().unwrap());
    Run {
        outcome: finish.outcome,
        faults,
        requests: ledger.requests + *refused.lock().unwrap(),
        retries: events.iter().filter(|e| matches!(e, DebateEvent::TurnRetrying { .. })).count(),
        repairs: events.iter().filter(|e| matches!(e, DebateEvent::VerdictInvalid { will_retry: true, .. })).count(),
        rounds: live.rounds.len(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_debates_under_random_faults_end_cleanly_and_their_logs_fold_to_the_live_state() {
    let debates: usize = std::env::var("HEAT_SOAK_DEBATES").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let seed: u64 = std::env::var("HEAT_SOAK_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EA7_50AC);
    let data = tempfile::tempdir().unwrap();
    let runs: Vec<Run> = futures::stream::iter(0..debates)
        .map(|i| {
            let dir = data.path().to_path_buf();
            async move { one_debate(i, seed.wrapping_add(i as u64 * 7919), &dir).await }
        })
        .buffer_unordered(8)
        .collect()
        .await;

    let mut faults: BTreeMap<Fault, usize> = BTreeMap::new();
    for run in &runs {
        for (fault, n) in &run.faults {
            *faults.entry(*fault).or_default() += n;
        }
    }
    let total: usize = faults.values().sum();
    let count = |f: fn(&Outcome) -> bool| runs.iter().filter(|r| f(&r.outcome)).count();
    let (resolved, max_rounds, failed) = (
        count(|o| *o == Outcome::Resolved),
        count(|o| *o == Outcome::MaxRounds),
        count(|o| matches!(o, Outcome::Failed(_))),
    );
    let mut report = format!(
        "soak: {debates} debates (seed {seed}), {} requests, {total} faults injected, {} retries, {} verdict repairs, \
         {} rounds\n  outcomes: {resolved} resolved, {max_rounds} at the round limit, {failed} failed cleanly after the retry budget\n  faults:",
        runs.iter().map(|r| r.requests).sum::<usize>(),
        runs.iter().map(|r| r.retries).sum::<usize>(),
        runs.iter().map(|r| r.repairs).sum::<usize>(),
        runs.iter().map(|r| r.rounds).sum::<usize>(),
    );
    for (fault, n) in &faults {
        write!(report, " {fault:?} {n}").unwrap();
    }
    println!("{report}");

    // The run must have exercised every fault and every ending it claims to.
    if debates >= 50 {
        for fault in [
            Fault::RateLimited,
            Fault::Server500,
            Fault::Unavailable503,
            Fault::Overloaded529,
            Fault::Refused,
            Fault::CutMidStream,
            Fault::CutAfterFinish,
            Fault::Stalled,
            Fault::MalformedSse,
            Fault::JudgeGarbage,
            Fault::EndedIncomplete,
            Fault::LengthCut,
            Fault::SchemaRefused,
        ] {
            assert!(faults.get(&fault).copied().unwrap_or_default() > 0, "no {fault:?} was injected\n{report}");
        }
        assert!(resolved > 0 && max_rounds > 0, "the run should reach both good endings\n{report}");
    }
    assert_eq!(resolved + max_rounds + failed, debates, "{report}");
}
