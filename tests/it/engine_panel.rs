//! A panel of three judges against scripted judges that know their seat
//! from the request: all three weigh a round at once, the majority decides
//! `resolved` and the median the next heat, the dissent is kept, a judge
//! that fails is outvoted, two that fail stop the debate with a reason, and
//! a resume asks again only the votes left open.
#![allow(clippy::unwrap_used)]

use heat::debate::PanelJudge;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::engine_support;
use crate::support::log::Log;

use engine_support::{drain, finish};
use heat::debate::call::Call;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::debate::panel::{self, Vote};
use heat::debate::plan::{Options, Step, next_steps_with};
use heat::debate::scores;
use heat::debate::verdict::Verdict;
use heat::debate::{Command, DebateEvent, DebateState, Heat, Outcome, Role, TurnPurpose};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatModel, ChatRequest, ChunkStream, ProviderError};

/// What one judge answers: resolved, heat and who is ahead; `None` fails.
type Answer = Option<(bool, f32, &'static str)>;

/// Three judges in one model: the request says which judge is asked.
struct Bench {
    answers: HashMap<u32, Answer>,
    asked: Mutex<Vec<u32>>,
    /// The model each call asked for, with its judge.
    models: Mutex<Vec<(u32, String)>>,
    /// How long each judge thinks before it answers.
    delay: Duration,
}

impl Bench {
    fn new(answers: [Answer; 3]) -> Arc<Self> {
        Self::slow(answers, Duration::ZERO)
    }

    fn slow(answers: [Answer; 3], delay: Duration) -> Arc<Self> {
        let answers = (1..=3).zip(answers).collect();
        Arc::new(Self { answers, asked: Mutex::new(Vec::new()), models: Mutex::new(Vec::new()), delay })
    }
}

/// The judge a request is for: the chair's carries no panel line.
fn judge_of(request: &ChatRequest) -> u32 {
    let last = request.messages.last().map(|m| m.content.as_str()).unwrap_or_default();
    (2..=5).find(|n| last.contains(&format!("You are judge {n} of a panel"))).unwrap_or(PanelJudge::CHAIR.number())
}

impl ChatModel for Bench {
    fn provider_name(&self) -> &'static str {
        "scripted"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let judge = judge_of(&request);
        self.models.lock().unwrap().push((judge, request.model.clone()));
        let call = {
            let mut asked = self.asked.lock().unwrap();
            asked.push(judge);
            asked.iter().filter(|&&j| j == judge).count()
        };
        // Each judge scores the one argument a side made differently.
        let scores = match judge {
            1 => r#"{"advocate": [3], "skeptic": [0]}"#,
            2 => r#"{"advocate": [1], "skeptic": [-2]}"#,
            _ => r#"{"advocate": [2], "skeptic": [1]}"#,
        };
        let reply = match self.answers[&judge] {
            None => Reply::fail(ProviderError::Auth { status: 401, message: "revoked key".into() }),
            Some((resolved, heat, ahead)) => Reply::after(
                self.delay,
                &format!(
                    r#"{{"resolved": {resolved}, "verdict": "Judge {judge} weighed keystrokes against editors (call {call}) and found the sides apart on what matters more.", "ahead": "{ahead}", "conceded": "none", "topic": "Does a reader choosing the width outweigh code that looks the same everywhere?", "heat": {heat}, "scores": {scores}}}"#
                ),
            ),
        };
        ScriptedModel::new([reply.clone()], reply).stream(request)
    }
}

fn panel_format() -> FormatRecord {
    FormatRecord {
        name: "bench".into(),
        labels: ["Proposition", "Opposition", "Chair"].map(String::from).to_vec(),
        debaters: 2,
        sides: Vec::new(),
        convergence: None,
        opening_arguments: 1,
        resolve_early: true,
        phases: Vec::new(),
        briefs: None,
        scores: false,
        judges: 3,
        panel_models: Vec::new(),
        panel_providers: Vec::new(),
        issues: false,
        map: None,
        sections: Vec::new(),
    }
}

fn setup(bench: &Arc<Bench>) -> EngineSetup {
    let role = |model: Arc<dyn ChatModel>| RoleSetup::new(model, "m", 512);
    let debater = |text: &str| role(Arc::new(ScriptedModel::new([], Reply::text(text))));
    engine_support::duel(
        debater("Tabs win: one keystroke, and each reader picks the width."),
        debater("Spaces win: code looks the same in every editor."),
        role(Arc::clone(bench) as Arc<dyn ChatModel>),
    )
    .retries(0)
    .build()
}

async fn run(bench: &Arc<Bench>, max_rounds: u32) -> (Vec<DebateEvent>, DebateState) {
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(panel_format()),
    };
    drain(engine::start(setup(bench), spec)).await
}

#[tokio::test]
async fn a_split_panel_goes_on_at_the_median_heat_and_keeps_the_dissent() {
    let bench =
        Bench::new([Some((false, 0.6, "advocate")), Some((true, 0.4, "skeptic")), Some((false, 0.8, "advocate"))]);
    let (events, state) = run(&bench, 3).await;
    let first = &state.rounds[0];
    let decision = panel::decide(first, 3).unwrap();
    assert!(!decision.resolved, "two of three said not resolved");
    assert_eq!((decision.resolved_votes, decision.answered.clone()), (1, [1, 2, 3].map(PanelJudge).to_vec()));
    assert_eq!(decision.ahead, Some(Role::Advocate));
    assert_eq!(decision.dissent, [PanelJudge(2)], "judge 2 disagreed on both counts and is kept as the dissent");
    assert!((decision.heat.get() - 0.6).abs() < 1e-6, "{:?}", decision.heat);
    assert!((state.rounds[1].heat.get() - 0.6).abs() < 1e-6, "the next round runs at the median heat");
    assert!(matches!(&first.panel[&PanelJudge(2)], Vote::Voted { verdict, .. } if verdict.resolved));
    let said = panel::describe(&state, &decision);
    assert_eq!(
        said, "the panel: not resolved 2–1 · proposition ahead 2–1 · heat 0.60 (median) · dissent: Judge 2",
        "{said}"
    );
    assert_eq!(state.rounds.len(), 3, "the panel never resolved it early");
    assert_eq!(state.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
    let votes = events.iter().filter(|e| matches!(e, DebateEvent::PanelVoted { .. })).count();
    assert_eq!(votes, 6, "judges 2 and 3 voted in each of the three rounds");
}

#[tokio::test]
async fn all_judges_weigh_a_round_at_once() {
    let bench = Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "even"))]);
    let (events, _) = run(&bench, 1).await;
    let first_answer = events
        .iter()
        .position(|e| {
            matches!(e, DebateEvent::PanelVoted { .. })
                || matches!(e, DebateEvent::TurnCompleted { role: Role::Judge, .. })
        })
        .unwrap();
    let asked_before = events[..first_answer]
        .iter()
        .filter(|e| {
            matches!(e, DebateEvent::PanelVoteStarted { .. })
                || matches!(e, DebateEvent::TurnStarted { role: Role::Judge, .. })
        })
        .count();
    assert_eq!(asked_before, 3, "the chair and both other judges were asked before any answered");
    let mut asked = bench.asked.lock().unwrap().clone();
    asked.sort_unstable();
    assert_eq!(asked, [1, 2, 3], "each judge asked once: {asked:?}");
}

#[tokio::test]
async fn a_majority_of_the_panel_resolves_the_debate_over_the_chair() {
    let bench =
        Bench::new([Some((false, 0.6, "advocate")), Some((true, 0.4, "advocate")), Some((true, 0.5, "advocate"))]);
    let (_, state) = run(&bench, 3).await;
    assert_eq!(state.rounds.len(), 1, "two of three said resolved after the first round");
    let finish = state.finish.unwrap();
    assert_eq!(finish.outcome, Outcome::Resolved);
    assert!(finish.synthesis.unwrap().starts_with("Judge 1 weighed"), "the chair's verdict is the synthesis");
}

#[tokio::test]
async fn a_judge_that_fails_is_outvoted_and_the_debate_goes_on() {
    let bench = Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), None]);
    let (events, state) = run(&bench, 2).await;
    assert_eq!(state.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
    assert_eq!(state.rounds.len(), 2);
    let failed: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::PanelVoteFailed { judge, error, .. } => {
                assert!(error.contains("revoked key"), "{error}");
                Some(judge.number())
            }
            _ => None,
        })
        .collect();
    assert_eq!(failed, [3, 3], "judge 3 failed in both rounds");
    let decision = panel::decide(&state.rounds[0], 3).unwrap();
    assert_eq!(decision.answered, [PanelJudge(1), PanelJudge(2)]);
    assert!((decision.heat.get() - 0.55).abs() < 1e-6, "the median of two is their mean: {:?}", decision.heat);
    assert!(panel::describe(&state, &decision).contains("2 of 3 judges answered"));
    assert!(state.notices.iter().any(|n| n.starts_with("judge 3 of the panel gave no vote in round 1")));
}

#[tokio::test]
async fn a_panel_without_a_majority_keeps_the_heat_and_the_question_and_goes_on() {
    let bench = Bench::new([Some((false, 0.6, "advocate")), None, None]);
    let (events, state) = run(&bench, 2).await;
    assert_eq!(state.rounds.len(), 2, "the debate went on, as after a lone judge's unreadable verdict");
    assert_eq!(state.rounds[1].topic, state.rounds[0].topic, "the question kept");
    assert!((state.rounds[1].heat.get() - 0.9).abs() < 1e-6, "the heat kept: {:?}", state.rounds[1].heat);
    assert_eq!(state.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
    let why = panel::decide(&state.rounds[0], 3).unwrap_err();
    assert_eq!(
        panel::undecided(&why),
        "the panel could not decide (only 1 of the panel's 3 judges gave a verdict, not a majority); the heat and the question are kept"
    );
    assert!(events.iter().any(|e| matches!(e, DebateEvent::PanelVoteFailed { judge: PanelJudge(2), .. })));
}

#[tokio::test]
async fn a_panel_none_of_whose_judges_answered_fails_with_the_chairs_reason() {
    let bench = Bench::new([None, None, None]);
    let (_, state) = run(&bench, 3).await;
    assert_eq!(state.rounds.len(), 1);
    match state.finish.map(|f| f.outcome) {
        Some(Outcome::Failed(why)) => {
            assert!(why.starts_with("the judge could not answer:") && why.contains("revoked key"), "{why}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[tokio::test]
async fn a_resumed_panel_that_could_not_decide_asks_its_failed_judges_again() {
    let bench = Bench::new([None, None, None]);
    let (events, _) = run(&bench, 1).await;
    let log: Vec<DebateEvent> = events.into_iter().collect();
    let state = DebateState::from_events(&log);
    assert!(matches!(state.finish.as_ref().map(|f| &f.outcome), Some(Outcome::Failed(_))));
    // The key works again: every judge is asked once more and the debate ends.
    let bench =
        Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "skeptic"))]);
    let handle = engine::resume(setup(&bench), state);
    let (_, state) = finish(handle, log).await;
    let mut asked = bench.asked.lock().unwrap().clone();
    asked.sort_unstable();
    assert_eq!(asked, [1, 2, 3], "the chair and both failed judges were asked again");
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::MaxRounds));
    assert_eq!(panel::decide(&state.rounds[0], 3).map(|d| d.ahead), Ok(Some(Role::Skeptic)));
}

#[tokio::test]
async fn a_chair_outvoted_on_resolved_closes_nothing() {
    let bench =
        Bench::new([Some((true, 0.6, "advocate")), Some((false, 0.5, "advocate")), Some((false, 0.4, "advocate"))]);
    let (events, state) = run(&bench, 2).await;
    assert_eq!(state.rounds.len(), 2, "the majority went on");
    let first = &state.rounds[0];
    let chair = first.turn(Role::Judge).unwrap();
    assert!(chair.closes_debate(), "the chair alone said resolved");
    assert!(!panel::closes(&state, first, chair), "but the panel did not");
    let records: Vec<heat::store::log::Record> =
        events.into_iter().enumerate().map(|(i, event)| heat::store::log::Record { ms: i as u64, event }).collect();
    let header = heat::store::log::Header { heat_session: 1, id: "x".into(), created_ms: 0 };
    let md = heat::report::export::render(heat::report::export::ExportKind::Md, &header, &records);
    assert_eq!(md.matches("the judge closed the debate").count(), 1, "only the last round closed it: {md}");
    let html = heat::report::html(&header, &records, &heat::report::Context::default()).unwrap();
    let next =
        "Next question: Does a reader choosing the width outweigh code that looks the same everywhere? · heat 0.60";
    assert!(html.contains(next), "the transcript keeps the outvoted chair's next question: {html}");
}

#[tokio::test]
async fn the_chair_failing_leaves_the_decision_to_the_panel() {
    let bench = Bench::new([None, Some((false, 0.5, "skeptic")), Some((false, 0.7, "skeptic"))]);
    let (_, state) = run(&bench, 2).await;
    assert_eq!(state.rounds.len(), 2, "the debate went on without its chair");
    assert_eq!(state.rounds[1].topic, state.rounds[0].topic, "no chair, no new question: the round's stands");
    assert!((state.rounds[1].heat.get() - 0.6).abs() < 1e-6);
    assert_eq!(state.finish.as_ref().map(|f| &f.outcome), Some(&Outcome::MaxRounds));
}

#[tokio::test]
async fn a_resumed_panel_asks_again_only_the_votes_left_open() {
    let bench = Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "even"))]);
    let (events, _) = run(&bench, 2).await;
    // The log of a process killed while judge 3's first vote was on its way.
    let cut = events.iter().position(|e| matches!(e, DebateEvent::RoundStarted { round: 1, .. })).unwrap();
    let mut kept: Vec<DebateEvent> = events[..cut].to_vec();
    kept.retain(|e| !matches!(e, DebateEvent::PanelVoted { round: 0, judge: PanelJudge(3), .. }));
    let state = DebateState::from_events(&kept);
    assert_eq!(state.rounds[0].panel.get(&PanelJudge(3)), Some(&Vote::Asking));
    let before: Vec<u32> = bench.asked.lock().unwrap().drain(..).collect();
    assert!(before.contains(&3));
    let handle = engine::resume(setup(&bench), state);
    let (log, state) = finish(handle, kept.clone()).await;
    let after = &log[kept.len()..];
    assert_eq!(DebateState::from_events(kept.iter().chain(after)), state, "the log and the resumed run fold alike");
    let first_round_asks = after
        .iter()
        .take_while(|e| !matches!(e, DebateEvent::RoundStarted { .. }))
        .filter(|e| matches!(e, DebateEvent::PanelVoteStarted { .. } | DebateEvent::TurnStarted { .. }));
    let reasked: Vec<String> = first_round_asks.map(|e| format!("{e:?}")).collect();
    assert_eq!(reasked.len(), 1, "only judge 3 is asked again in round 1: {reasked:?}");
    assert!(reasked[0].contains("judge: PanelJudge(3)"), "{reasked:?}");
    assert_eq!(state.rounds.len(), 2);
    assert!(state.finish.is_some());
}

/// Starts a panel debate and sends `command` as soon as the judges of the
/// first round have all been asked.
async fn steer_while_judging(bench: &Arc<Bench>, commands: &[Command]) -> (Vec<DebateEvent>, DebateState) {
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 2,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(panel_format()),
    };
    let mut handle = engine::start(setup(bench), spec);
    let mut events = Vec::new();
    let mut sent = false;
    while let Some(e) = handle.next_event().await {
        let asked = matches!(e, DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(3) });
        events.push(e);
        if asked && !sent {
            sent = true;
            for command in commands {
                handle.send(command.clone());
            }
        }
    }
    let state = handle.join().await;
    assert_eq!(DebateState::from_events(&events), state);
    (events, state)
}

#[tokio::test]
async fn cancelling_the_judging_goes_on_as_a_lone_judge_would() {
    let answers = [Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "even"))];
    let bench = Bench::slow(answers, Duration::from_millis(300));
    let (events, state) = steer_while_judging(&bench, &[Command::CancelTurn]).await;
    let cancelled: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::PanelVoteFailed { round: 0, judge, error, .. } if error == panel::CANCELLED => {
                Some(judge.number())
            }
            _ => None,
        })
        .collect();
    assert_eq!(cancelled, [2, 3], "both votes in flight were cancelled");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::TurnCancelled { round: 0, role: Role::Judge })));
    assert_eq!(state.rounds.len(), 2, "the debate went on to its next round");
    assert_eq!(state.rounds[1].topic, "Tabs beat spaces", "the round's question kept");
    assert!(!matches!(state.finish.map(|f| f.outcome), Some(Outcome::Failed(_))));
}

#[tokio::test]
async fn a_pause_while_the_panel_weighs_records_each_vote_as_it_ends_and_decides_only_once_resumed() {
    let answers = [Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "even"))];
    let bench = Bench::slow(answers, Duration::from_millis(100));
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 1,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(panel_format()),
    };
    let mut handle = engine::start(setup(&bench), spec);
    let mut events = Vec::new();
    while let Some(e) = handle.next_event().await {
        let asked = matches!(e, DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(3) });
        events.push(e);
        if asked {
            handle.send(Command::Pause);
            break;
        }
    }
    // Long past the judges' 100 ms: each vote is recorded when it ends
    // (kept if the person quits now), and the panel decides nothing yet.
    let until = tokio::time::Instant::now() + Duration::from_millis(500);
    let mut told = Vec::new();
    while let Ok(Some(event)) = tokio::time::timeout_at(until, handle.next_event()).await {
        told.push(event);
    }
    let voted = told.iter().filter(|e| matches!(e, DebateEvent::PanelVoted { .. })).count();
    assert_eq!(voted, 2, "both votes recorded while paused: {told:?}");
    let moved_on = told.iter().any(|e| matches!(e, DebateEvent::TurnStarted { .. } | DebateEvent::Finished { .. }));
    assert!(!moved_on, "nothing new while paused: {told:?}");
    events.extend(told);
    handle.send(Command::Resume);
    let (_, state) = finish(handle, events).await;
    assert_eq!(state.rounds[0].panel.values().filter(|v| matches!(v, Vote::Voted { .. })).count(), 2);
    assert!(state.finish.is_some_and(|f| f.outcome == Outcome::MaxRounds), "decided once resumed");
}

#[tokio::test]
async fn a_scored_panel_counts_each_arguments_median() {
    let bench = Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "even"))]);
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 1,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(FormatRecord { scores: true, ..panel_format() }),
    };
    let (_, state) = drain(engine::start(setup(&bench), spec)).await;
    let scores = heat::debate::scores::of_round(&state.rounds[0]).unwrap();
    // Advocate: 3, 1, 2 → 2; skeptic: 0, −2, 1 → 0.
    assert_eq!((scores.advocate.clone(), scores.skeptic.clone()), (vec![2], vec![0]));
    assert_eq!(
        (scores::total(&state, Role::Advocate), scores::total(&state, Role::Skeptic)),
        (2, -2),
        "zero-sum over the medians"
    );
    assert_eq!(
        state.rounds[0].verdict().and_then(|v| v.scores.clone()).map(|s| s.advocate),
        Some(vec![3]),
        "the chair's own are kept"
    );
}

/// A panel round in which both debaters argued, and `more` happened since.
fn panel_round(more: Vec<DebateEvent>) -> DebateState {
    Log::new("t", 2, 0.9)
        .formatted(panel_format())
        .round(0)
        .starts_at(0, Role::Advocate, TurnPurpose::Argue, None)
        .starts_at(0, Role::Skeptic, TurnPurpose::Argue, None)
        .completes(0, Role::Advocate, "An argument.")
        .completes(0, Role::Skeptic, "An argument.")
        .then_all(more)
        .state()
}

#[test]
fn on_the_embedded_model_the_panel_votes_one_at_a_time_after_the_chair() {
    let in_turn = |state: &DebateState, voting: &[PanelJudge]| {
        let calls: Vec<Call> = voting.iter().map(|&judge| Call::Vote { round: 0, judge }).collect();
        next_steps_with(state, &calls, Options { votes_in_turn: true, ..Options::default() })
    };
    let votes = |steps: &[Step]| steps.iter().filter(|s| matches!(s, Step::PanelVote { .. })).count();
    let asked = panel_round(Vec::new());
    assert_eq!(votes(&next_steps_with(&asked, &[], Options::default())), 2, "at once elsewhere");
    assert_eq!(votes(&in_turn(&asked, &[])), 0, "the chair first");
    let chair = vec![
        DebateEvent::TurnStarted { round: 0, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None },
        DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Judge,
            text: "{}".into(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        },
        DebateEvent::VerdictReached { round: 0, verdict: Verdict { topic: "t2".into(), ..Verdict::default() } },
    ];
    let judged = panel_round(chair.clone());
    assert_eq!(in_turn(&judged, &[]), [Step::PanelVote { round: 0, judge: PanelJudge(2) }]);
    let mut second = chair;
    second.push(DebateEvent::PanelVoteStarted { round: 0, judge: PanelJudge(2) });
    assert!(in_turn(&panel_round(second.clone()), &[PanelJudge(2)]).is_empty(), "one at a time");
    second.push(DebateEvent::PanelVoted { round: 0, judge: PanelJudge(2), verdict: Verdict::default(), usage: None });
    assert_eq!(in_turn(&panel_round(second), &[]), [Step::PanelVote { round: 0, judge: PanelJudge(3) }]);
}

#[tokio::test]
async fn a_judge_with_a_model_of_its_own_is_asked_on_it_and_named_by_it() {
    let bench =
        Bench::new([Some((false, 0.6, "advocate")), Some((false, 0.5, "skeptic")), Some((false, 0.7, "skeptic"))]);
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 1,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: Some(FormatRecord { panel_models: vec!["claude-haiku-4-5".into()], ..panel_format() }),
    };
    let (_, state) = drain(engine::start(setup(&bench), spec)).await;
    let mut models = bench.models.lock().unwrap().clone();
    models.sort();
    let names: Vec<(u32, &str)> = models.iter().map(|(j, m)| (*j, m.as_str())).collect();
    assert_eq!(names, [(1, "m"), (2, "claude-haiku-4-5"), (3, "m")], "judge 3, unnamed, takes the chair's model");
    assert_eq!(panel::judge_name(&state, PanelJudge(2)), "Judge 2 (claude-haiku-4-5)");
    assert_eq!(panel::judge_name(&state, PanelJudge(3)), "Judge 3");
}

/// Three free panelists under a panel of three judges: the panel decides
/// `resolved` by most votes and the heat by the median, as over two sides,
/// but counts no one ahead (free seats take no side): a judge who named a
/// side is no dissent, one who disagreed on `resolved` is.
#[tokio::test]
async fn a_panel_over_free_seats_decides_resolved_and_heat_and_counts_no_side() {
    let bench = Bench::new([Some((false, 0.5, "even")), Some((true, 0.7, "advocate")), Some((false, 0.6, "skeptic"))]);
    let mut format = heat::format::Format::parse(
        "panel",
        include_str!("../../assets/formats/panel.toml"),
        &heat::format::Origin::BuiltIn,
    )
    .unwrap()
    .record;
    format.judges = 3;
    let role = |model: Arc<dyn ChatModel>| RoleSetup::new(model, "m", 512);
    let panelist = |answer: &str| {
        let said =
            |round: &str| format!("In round {round} I hold to {answer} for reasons of my own.\nFinal answer: {answer}");
        let replies = [Reply::text(&said("one")), Reply::text(&said("two, having heard the others,"))];
        role(Arc::new(ScriptedModel::new(replies, Reply::text("spent"))))
    };
    let debaters = [panelist("tabs"), panelist("spaces"), panelist("either")];
    let setup = engine_support::setup(&debaters, &role(Arc::clone(&bench) as Arc<dyn ChatModel>)).retries(0).build();
    let (_, state) = drain(engine::start(setup, engine_support::spec("Tabs beat spaces", format, 2))).await;
    let decision = panel::decision(&state, 0).unwrap();
    assert!(!decision.resolved && decision.resolved_votes == 1);
    assert_eq!(decision.ahead, None, "free seats: no one is ahead");
    assert_eq!(decision.dissent, [PanelJudge(2)], "judge 2 alone said resolved; judge 3 naming a side is no dissent");
    assert_eq!(state.rounds[1].heat, Heat::new(0.6), "the median heat");
    let said = panel::said(&state, &state.rounds[0]).unwrap().unwrap();
    assert_eq!(said, "the panel: not resolved 2–1 · heat 0.60 (median) · dissent: Judge 2");
    let last = panel::said(&state, &state.rounds[1]).unwrap().unwrap();
    assert!(last.starts_with("the panel's last word"), "{last}");
    assert_eq!(state.finish.map(|f| f.outcome), Some(Outcome::MaxRounds));
}
