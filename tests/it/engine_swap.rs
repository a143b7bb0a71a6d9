//! The swap check against scripted judges: one that favours whichever
//! debater it reads first flips on swap, one that reads the arguments
//! flips never; the check's request is the round reversed under neutral
//! labels, its usage counts in the cost, and a failed check is a notice.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use crate::engine_support::{self, drain};

use heat::debate::Heat;
use heat::debate::cost;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::swap::SwapCheck;
use heat::debate::verdict::Ahead;
use heat::debate::{DebateEvent, DebateState, Outcome, Role};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatModel, ChatRequest, ChunkStream, ProviderError};

const FOR: &str = "Tabs win: one keystroke, and each reader picks the width.";
const AGAINST: &str = "Spaces win: code looks the same in every editor.";

/// How a scripted judge answers.
#[derive(Clone, Copy, PartialEq)]
enum Bent {
    /// Whichever debater comes first is ahead.
    FavoursFirst,
    /// The advocate is ahead, wherever it is read.
    Consistent,
    /// The swap check's call fails for good.
    FailsTheCheck,
    /// The swap check's answer is not JSON.
    GarblesTheCheck,
}

/// A judge that reads its request: the swap check's comes with Debater A and B.
struct Judge {
    bent: Bent,
    requests: Mutex<Vec<ChatRequest>>,
}

impl Judge {
    fn new(bent: Bent) -> Arc<Self> {
        Arc::new(Self { bent, requests: Mutex::new(Vec::new()) })
    }

    fn swap_requests(&self) -> Vec<ChatRequest> {
        self.requests.lock().unwrap().iter().filter(|r| is_swap_check(r)).cloned().collect()
    }
}

fn is_swap_check(request: &ChatRequest) -> bool {
    request.messages.iter().any(|m| m.content.contains("[Debater A, Debater B]"))
}

impl ChatModel for Judge {
    fn provider_name(&self) -> &'static str {
        "scripted"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        self.requests.lock().unwrap().push(request.clone());
        let swapped = is_swap_check(&request);
        let ahead = match (self.bent, swapped) {
            (Bent::FavoursFirst, true) => "A",
            (Bent::Consistent, true) => "B",
            (_, _) => "advocate",
        };
        let reply = match (self.bent, swapped) {
            (Bent::FailsTheCheck, true) => Reply::fail(ProviderError::Auth { status: 401, message: "no".into() }),
            (Bent::GarblesTheCheck, true) => Reply::text("Debater A, I suppose."),
            _ => Reply::text(&format!(
                r#"{{"resolved": false, "verdict": "One side weighed keystrokes, the other weighed how code reads in every editor; neither has settled which matters more.", "ahead": "{ahead}", "conceded": "none", "topic": "Does a reader choosing the width outweigh code that looks the same everywhere?", "heat": 0.6}}"#
            )),
        };
        ScriptedModel::new([reply.clone()], reply).stream(request)
    }
}

fn role(model: Arc<dyn ChatModel>) -> RoleSetup {
    RoleSetup::new(model, "m", 512)
}

fn setup(judge: &Arc<Judge>, swap_check: bool) -> EngineSetup {
    let debater = |text: &str| role(Arc::new(ScriptedModel::new([], Reply::text(text))));
    engine_support::duel(debater(FOR), debater(AGAINST), role(Arc::clone(judge) as Arc<dyn ChatModel>))
        .retries(0)
        .swap_check(swap_check)
        .build()
}

async fn run(judge: &Arc<Judge>, swap_check: bool) -> (Vec<DebateEvent>, DebateState) {
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 2,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    };
    drain(engine::start(setup(judge, swap_check), spec)).await
}

fn flips(state: &DebateState) -> Vec<Option<bool>> {
    state
        .rounds
        .iter()
        .map(|r| match &r.swap {
            Some(SwapCheck::Answered { flips, .. }) => Some(*flips),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_judge_that_favours_the_first_debater_flips_on_swap() {
    let judge = Judge::new(Bent::FavoursFirst);
    let (_, state) = run(&judge, true).await;
    assert_eq!(flips(&state), vec![Some(true), None], "the verdict, not the final synthesis");
    let Some(SwapCheck::Answered { verdict, .. }) = &state.rounds[0].swap else { panic!("round 1 was checked") };
    assert_eq!(verdict.ahead, Some(Ahead::Skeptic), "A, read first, is the skeptic");
    assert_eq!(state.rounds[0].swap.as_ref().and_then(SwapCheck::mark), Some("verdict flips on swap"));
    assert_eq!(state.finish.unwrap().outcome, Outcome::MaxRounds);
}

#[tokio::test]
async fn a_consistent_judge_never_flips() {
    let judge = Judge::new(Bent::Consistent);
    let (_, state) = run(&judge, true).await;
    assert_eq!(flips(&state), vec![Some(false), None]);
    assert!(state.rounds.iter().all(|r| r.swap.as_ref().and_then(SwapCheck::mark).is_none()));
}

#[tokio::test]
async fn the_check_reads_the_round_reversed_and_names_no_side() {
    let judge = Judge::new(Bent::Consistent);
    run(&judge, true).await;
    let requests = judge.swap_requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    let prompt: String = request.messages.iter().map(|m| m.content.as_str()).collect();
    let (skeptic, advocate) = (prompt.find("Spaces win").unwrap(), prompt.find("Tabs win").unwrap());
    assert!(skeptic < advocate, "the skeptic's argument comes first: {prompt}");
    assert!(prompt.contains("Debater A") && prompt.contains("Debater B"), "{prompt}");
    let whole = format!("{}\n{prompt}", request.full_system_prompt()).to_lowercase();
    assert!(!whole.contains("advocate") && !whole.contains("skeptic"), "no role names: {whole}");
    assert_eq!(request.messages.len(), 1, "the round alone, no earlier verdicts");
    let schema = request.response_schema.as_ref().unwrap().schema.to_string();
    assert!(schema.contains(r#"["A","B","even"]"#), "{schema}");
}

#[tokio::test]
async fn the_check_is_not_asked_when_the_setting_is_off() {
    let judge = Judge::new(Bent::FavoursFirst);
    let (events, state) = run(&judge, false).await;
    assert!(judge.swap_requests().is_empty());
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::SwapCheckStarted { .. })));
    assert!(state.rounds.iter().all(|r| r.swap.is_none()));
}

#[tokio::test]
async fn the_checks_usage_counts_in_the_cost() {
    let judge = Judge::new(Bent::FavoursFirst);
    let (_, state) = run(&judge, true).await;
    let turns = |f: fn(&heat::provider::Usage) -> u64| -> u64 {
        state.rounds.iter().flat_map(|r| &r.turns).filter_map(|t| t.usage.as_ref()).map(f).sum()
    };
    let checks = |f: fn(&heat::provider::Usage) -> u64| -> u64 {
        state.rounds.iter().filter_map(|r| r.swap.as_ref()?.usage()).map(|u| f(&u)).sum()
    };
    assert!(checks(|u| u.output_tokens) > 0, "the check reported usage");
    let (input, output) = cost::tokens(&state).unwrap();
    assert_eq!(input, turns(|u| u.input_tokens) + checks(|u| u.input_tokens));
    assert_eq!(output, turns(|u| u.output_tokens) + checks(|u| u.output_tokens));
    let price = cost::Price { input: 1_000_000.0, output: 0.0, cached_input: None };
    let prices = cost::Prices { seats: Role::ALL.map(|role| (role, price)).to_vec(), judges: Vec::new() };
    let dollars = cost::cost(&state, &prices).unwrap();
    assert!((dollars - input as f64).abs() < 1e-6, "the check is priced as the judge's: {dollars}");
}

#[tokio::test]
async fn a_failing_check_is_a_notice_not_a_failed_debate() {
    for bent in [Bent::FailsTheCheck, Bent::GarblesTheCheck] {
        let judge = Judge::new(bent);
        let (events, state) = run(&judge, true).await;
        assert_eq!(state.finish.as_ref().unwrap().outcome, Outcome::MaxRounds);
        assert_eq!(state.rounds.len(), 2, "every round ran");
        let Some(SwapCheck::Failed { error, .. }) = &state.rounds[0].swap else { panic!("{:?}", state.rounds[0].swap) };
        assert!(!error.is_empty());
        assert_eq!(state.rounds[0].swap.as_ref().and_then(SwapCheck::mark), Some("swap check failed"));
        assert!(state.notices.iter().any(|n| n.starts_with("the swap check of round 1 failed")), "{:?}", state.notices);
        assert!(events.iter().any(|e| matches!(e, DebateEvent::SwapCheckFailed { round: 0, .. })));
    }
}
