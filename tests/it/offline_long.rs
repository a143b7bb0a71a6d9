//! A twelve-round debate on the real embedded model, in the engine: every
//! round is argued (the format lets no round end it early), no request
//! overflows the model's context, and the judge's prompt in round 12 still
//! carries round 1's main point, given in brief. Each seat's model is the
//! one embedded model behind a wrapper that keeps the requests it is sent.
#![cfg(feature = "local")]
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use heat::debate::engine::{self, DebateSpec, Grounding, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::debate::prompt::Prompts;
use heat::debate::state::TurnStatus;
use heat::debate::{DebateEvent, DebateState, Heat, Role};
use heat::provider::chat::{Adaptation, ChunkStream};
use heat::provider::local::{LocalModel, LocalOptions};
use heat::provider::{ChatModel, ChatRequest};

use crate::engine_support::{self, drain_events};
use crate::model_support;

const ROUNDS: u32 = 12;

/// The embedded model, each request it is sent kept.
struct Kept {
    model: Arc<LocalModel>,
    requests: Mutex<Vec<ChatRequest>>,
}

impl Kept {
    fn new(model: &Arc<LocalModel>) -> Arc<Kept> {
        Arc::new(Kept { model: Arc::clone(model), requests: Mutex::default() })
    }

    fn requests(&self) -> Vec<ChatRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl ChatModel for Kept {
    fn provider_name(&self) -> &'static str {
        self.model.provider_name()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        self.requests.lock().unwrap().push(request.clone());
        self.model.stream(request)
    }

    fn stream_held(&self, request: ChatRequest, held: Option<tokio::sync::watch::Receiver<bool>>) -> ChunkStream {
        self.requests.lock().unwrap().push(request.clone());
        self.model.stream_held(request, held)
    }

    fn adapt(&self, adaptation: &Adaptation) {
        self.model.adapt(adaptation);
    }

    fn context_tokens(&self) -> Option<u32> {
        self.model.context_tokens()
    }

    fn continues_answer(&self) -> bool {
        self.model.continues_answer()
    }

    fn is_embedded(&self) -> bool {
        self.model.is_embedded()
    }

    fn pauses_in_place(&self) -> bool {
        self.model.pauses_in_place()
    }

    fn takes_tools(&self) -> bool {
        self.model.takes_tools()
    }
}

/// A duel whose judge may not end it before its last round.
fn every_round_argued() -> FormatRecord {
    serde_json::from_value(serde_json::json!({
        "name": "duel",
        "labels": ["Advocate", "Skeptic", "Judge"],
        "resolve_early": false,
        "judges": 1,
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_twelve_round_offline_debate_stays_in_its_context_and_keeps_round_one() {
    let Some(path) = model_support::model_path() else { return };
    let options = LocalOptions { seed: 11, ..LocalOptions::default() };
    let model = Arc::new(LocalModel::load(&path, options).unwrap());
    let context = model.context_tokens().unwrap();
    let (advocate, skeptic, judge) = (Kept::new(&model), Kept::new(&model), Kept::new(&model));
    let seat = |m: &Arc<Kept>, tokens| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "local", tokens);
    // As `heat run` seats the embedded model: its compact prompts, 256 tokens a turn at most.
    let setup = engine_support::duel(seat(&advocate, 80), seat(&skeptic, 80), seat(&judge, 256))
        .prompts(Prompts::compact())
        .build();
    let spec = DebateSpec {
        topic: "Night trains should replace short flights in Europe".into(),
        max_rounds: ROUNDS,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(every_round_argued()),
    };
    let events = drain_events(engine::start(setup, spec)).await;
    let state = DebateState::from_events(&events);

    let failed: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, DebateEvent::TurnFailed { .. } | DebateEvent::VerdictInvalid { .. }))
        .map(|e| format!("{e:?}"))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(state.rounds.len(), ROUNDS as usize, "every round argued");
    for round in &state.rounds {
        for role in Role::DEBATERS {
            let turn = round.turn(role).unwrap();
            assert_eq!(turn.status, TurnStatus::Done, "round {} {}", round.number + 1, role.key());
            assert!(!turn.text.trim().is_empty(), "round {} {} said nothing", round.number + 1, role.key());
            let used = turn.usage.as_ref().map_or(0, |u| u.input_tokens + u.output_tokens);
            assert!(
                used <= u64::from(context),
                "round {} {}: {used} tokens of {context}",
                round.number + 1,
                role.key()
            );
        }
    }

    // Round 12's judge is given round 1 in brief: its question and each side's main point.
    let last = judge.requests().into_iter().last().unwrap();
    let asked: String = last.messages.iter().map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n");
    let brief =
        asked.lines().find(|l| l.starts_with("- Round 1 ")).unwrap_or_else(|| panic!("no round 1 in:\n{asked}"));
    let first = state.rounds[0].turn(Role::Advocate).unwrap().text.clone();
    let point = brief
        .split("the advocate: “")
        .nth(1)
        .and_then(|rest| rest.split('”').next())
        .unwrap_or_else(|| panic!("no advocate's point in: {brief}"));
    let words = |text: &str| text.to_lowercase().split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let point = words(point.trim_end_matches('…'));
    assert!(point.len() >= 3, "a point, not a scrap: {brief}");
    let said = words(&first);
    assert!(
        said.windows(point.len()).any(|w| w == point.as_slice()),
        "round 1's point {point:?} is the advocate's own words:\n{first}"
    );
    eprintln!("round 12's judge read round 1 as: {brief}");
}
