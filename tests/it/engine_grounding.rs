//! A debate grounded in a source document and today's date, against
//! scripted models: what every role receives, the quote checks, and resume.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::engine_support::{self, drain_events};

use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::grounding::{Cited, Mark, Source};
use heat::debate::{DebateEvent, DebateState, Role};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};

const DOC: &str = "# Move the job queue to Postgres\n\
    The current queue runs on Redis and loses jobs\n\
    when a node restarts during a deploy.\n\
    Postgres gives us transactions, so a job is enqueued\n\
    in the same commit as the row that caused it.\n";

const ADVOCATE: &str = "The plan holds: \"a job is enqueued in the same commit as the row\" [L4–L5], \
    and today \"the current queue runs on Redis\" [L2]. Our deploys will finally stop losing work.\n\nStance: CONVERGING — the transaction argument on L4 holds";
const SKEPTIC: &str = "The document admits nothing about load, and it claims \"Postgres never loses a single job\" \
    [L40].\n\nStance: OPEN_TO_DEBATE";
/// Round 2 on: the skeptic quotes the advocate, and repeats its own invention.
const SKEPTIC_AGAIN: &str = "They promise \"our deploys will finally stop losing work\", and \"Postgres never loses \
    a single job\" is still nowhere.\nStance: DISSENTING";

fn models() -> [Arc<ScriptedModel>; 3] {
    let verdict =
        r#"{"resolved": false, "verdict": "Quotes matter here.", "topic": "Is Postgres fast enough?", "heat": 0.6}"#;
    [
        Arc::new(ScriptedModel::new([], Reply::text(ADVOCATE))),
        Arc::new(ScriptedModel::new([Reply::text(SKEPTIC)], Reply::text(SKEPTIC_AGAIN))),
        Arc::new(ScriptedModel::new([], Reply::text(verdict))),
    ]
}

fn setup(models: &[Arc<ScriptedModel>; 3]) -> EngineSetup {
    let role = |m: &Arc<ScriptedModel>| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "m", 256);
    engine_support::duel(role(&models[0]), role(&models[1]), role(&models[2])).retries(1).build()
}

fn source() -> Source {
    Source::from_bytes("queue.md".into(), DOC.as_bytes()).unwrap()
}

fn spec(max_rounds: u32) -> DebateSpec {
    DebateSpec {
        topic: source().topic(),
        max_rounds,
        initial_heat: Heat::new(0.9),
        grounding: Grounding { date: Some("2026-11-23".into()), source: Some(source()), library: None },
        format: None,
    }
}

#[tokio::test]
async fn every_request_starts_with_the_date_and_the_numbered_source() {
    let models = models();
    let events = drain_events(engine::start(setup(&models), spec(1))).await;
    assert!(
        matches!(events.first(), Some(DebateEvent::Started { topic, .. }) if topic == "Move the job queue to Postgres")
    );
    assert!(
        matches!(&events[1], DebateEvent::Grounded { date: Some(d), source: Some(s), library: None } if d == "2026-11-23" && s.text == DOC),
        "the grounding is recorded right after the start: {:?}",
        events[1]
    );
    for model in &models {
        let requests = model.requests();
        assert!(!requests.is_empty());
        for request in requests {
            let block = request.grounding.as_deref().expect("every request carries the grounding block");
            assert!(block.starts_with("Today is 2026-11-23 (November 23, 2026)."), "{block}");
            assert!(block.contains("L4: Postgres gives us transactions"), "{block}");
            assert_eq!(block.matches("<source>").count(), 1, "the source once");
            let whole = request.full_system_prompt();
            assert!(whole.starts_with(block.trim_end()), "the block comes first in the system prompt");
            assert!(!request.system.contains("<source>"), "and is not repeated after it");
        }
    }
}

#[tokio::test]
async fn arguments_are_checked_and_the_judge_reads_the_marks() {
    let models = models();
    let events = drain_events(engine::start(setup(&models), spec(2))).await;
    let checks = |role: Role| {
        events
            .iter()
            .find_map(|e| match e {
                DebateEvent::QuotesChecked { round: 0, role: r, checks } if *r == role => Some(checks.clone()),
                _ => None,
            })
            .expect("checked")
    };
    let advocate: Vec<Mark> = checks(Role::Advocate).iter().map(|c| c.mark).collect();
    assert_eq!(advocate, [Mark::Verified, Mark::Verified, Mark::Verified, Mark::Verified]);
    let skeptic = checks(Role::Skeptic);
    assert_eq!(skeptic.iter().map(|c| c.mark).collect::<Vec<_>>(), [Mark::Unverified, Mark::Unverified]);
    assert_eq!(skeptic[1].cited, Cited::Lines { start: 40, end: 40 });

    let state = DebateState::from_events(&events);
    assert_eq!(state.tally(Role::Advocate).verified, 8, "two rounds of four verified citations");
    let again: Vec<(Mark, Option<String>)> =
        state.rounds[1].turn(Role::Skeptic).unwrap().checks.iter().map(|c| (c.mark, c.from.clone())).collect();
    assert_eq!(
        again,
        [(Mark::PriorTurn, Some("the advocate, round 1".into())), (Mark::Unverified, None)],
        "quoting the other side is told apart; repeating its own invention is not"
    );
    assert_eq!(state.tally(Role::Skeptic).unverified, 3);

    let judge_request = &models[2].requests()[0];
    let prompt = &judge_request.messages.last().unwrap().content;
    assert!(prompt.contains("Citations and quotes, checked against the source"), "{prompt}");
    assert!(
        prompt.contains(
            "- the skeptic: ✗ “Postgres never loses a single job” (not in the source); ✗ [L40] (no such lines)"
        ),
        "{prompt}"
    );
    assert!(prompt.contains("an unverified quote or citation counts for nothing"), "{prompt}");
}

#[tokio::test]
async fn a_resumed_debate_uses_the_recorded_source_and_date() {
    let first = models();
    let events = drain_events(engine::start(setup(&first), spec(3))).await;
    // The process was killed once the first round was judged: its log ends there.
    let judged = events.iter().position(|e| matches!(e, DebateEvent::VerdictReached { .. })).unwrap();
    let state = DebateState::from_events(&events[..=judged]);
    let fresh = models();
    let resumed = drain_events(engine::resume(setup(&fresh), state)).await;
    assert!(!resumed.iter().any(|e| matches!(e, DebateEvent::Grounded { .. })), "grounded once, at the start");
    let request = fresh[0].requests().into_iter().next().expect("the advocate argues again");
    let block = request.grounding.expect("grounding on resume");
    assert!(block.starts_with("Today is 2026-11-23"), "the recorded date, not today's: {block}");
    assert!(block.contains("L2: The current queue runs on Redis"), "{block}");
}

#[tokio::test]
async fn without_grounding_nothing_is_recorded_or_sent() {
    let scripted = models();
    let spec = DebateSpec {
        topic: "Tabs beat spaces".into(),
        max_rounds: 1,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    };
    let events = drain_events(engine::start(setup(&scripted), spec)).await;
    assert!(!events.iter().any(|e| matches!(e, DebateEvent::Grounded { .. } | DebateEvent::QuotesChecked { .. })));
    assert!(scripted.iter().flat_map(|m| m.requests()).all(|r| r.grounding.is_none()));
}

#[tokio::test]
async fn stances_are_asked_for_read_and_an_unexplained_change_is_flagged() {
    use heat::debate::stance::Stance;
    let models = models();
    let events = drain_events(engine::start(setup(&models), spec(2))).await;
    let asked = &models[0].requests()[0];
    assert!(asked.messages.last().unwrap().content.contains("End your answer with one line: \"Stance: NAME — why\""));
    let state = DebateState::from_events(&events);
    let skeptic: Vec<Option<Stance>> =
        state.rounds.iter().map(|r| r.turn(Role::Skeptic).unwrap().stance.as_ref().map(|l| l.stance)).collect();
    assert_eq!(skeptic, [Some(Stance::OpenToDebate), Some(Stance::Dissenting)]);
    assert!(state.stance_unexplained(1, Role::Skeptic), "changed with no reason");
    assert!(!state.stance_unexplained(0, Role::Skeptic), "a first stance needs no reason");
    assert!(!state.stance_unexplained(1, Role::Advocate), "the same stance again");
    let (latest, flagged) = state.stance(Role::Skeptic).unwrap();
    assert_eq!((latest.stance, flagged), (Stance::Dissenting, true));
    let advocate = state.rounds[0].turn(Role::Advocate).unwrap().stance.clone().unwrap();
    assert_eq!(advocate.reason.as_deref(), Some("the transaction argument on L4 holds"));
}

fn stance_models(advocate: &str, skeptic: &str, resolved: bool) -> [Arc<ScriptedModel>; 3] {
    let verdict = format!(
        r#"{{"resolved": {resolved}, "verdict": "Both sides rest on the transactions at L4 and agree the queue is safer there.", "topic": "Is Postgres fast enough for the queue?", "heat": 0.6}}"#
    );
    [
        Arc::new(ScriptedModel::new([], Reply::text(advocate))),
        Arc::new(ScriptedModel::new([], Reply::text(skeptic))),
        Arc::new(ScriptedModel::new([], Reply::text(&verdict))),
    ]
}

#[tokio::test]
async fn both_sides_accepting_consensus_ends_the_debate_in_consensus() {
    use heat::debate::{Outcome, TurnPurpose};
    let models = stance_models(
        "The transactions settle it.\nStance: ACCEPTING_CONSENSUS — we agree on L4",
        "Fair: the jobs are safe.\nStance: accepting consensus — L4 answers my doubt",
        false,
    );
    let events = drain_events(engine::start(setup(&models), spec(3))).await;
    let state = DebateState::from_events(&events);
    let invalid: Vec<_> = events.iter().filter(|e| matches!(e, DebateEvent::VerdictInvalid { .. })).collect();
    assert!(invalid.is_empty(), "{invalid:?}");
    assert_eq!(state.rounds.len(), 1, "no second round after a consensus");
    assert_eq!(state.rounds[0].turn(Role::Judge).unwrap().purpose, TurnPurpose::Synthesis);
    assert_eq!(state.finish.unwrap().outcome, Outcome::Consensus);
}

#[tokio::test]
async fn a_resolution_over_a_dissenting_side_ends_with_a_dissent() {
    use heat::debate::Outcome;
    let models = stance_models(
        "The plan holds.\nStance: CONVERGING — the transactions on L4",
        "It does not.\nStance: DISSENTING — nothing in the document measures load",
        true,
    );
    let events = drain_events(engine::start(setup(&models), spec(3))).await;
    let state = DebateState::from_events(&events);
    assert_eq!(state.finish.unwrap().outcome, Outcome::Dissent);
    assert_eq!(Outcome::Dissent.headline(1), "ended with a dissent after 1 round");
}

#[tokio::test]
async fn an_invented_quote_is_not_let_off_by_being_quoted_back_and_repeated() {
    let invented = "\"jobs never wait longer than a second\"";
    let advocate = Arc::new(ScriptedModel::new(
        [Reply::text(&format!("The doc promises {invented}.")), Reply::text("The plan holds.")],
        Reply::text(&format!(
            "I stand by the promise {invented}, because the transactions described in the plan make every job visible the moment its row commits, so nothing is left queued behind a failed deploy."
        )),
    ));
    let skeptic = Arc::new(ScriptedModel::new(
        [Reply::text("Nothing here measures load.")],
        Reply::text(&format!("They claim {invented}, which the document never says.")),
    ));
    let judge = Arc::new(ScriptedModel::new(
        [],
        Reply::text(
            r#"{"resolved": false, "verdict": "Open.", "topic": "Is Postgres fast enough for the queue?", "heat": 0.6}"#,
        ),
    ));
    let models = [advocate, skeptic, judge];
    let events = drain_events(engine::start(setup(&models), spec(3))).await;
    let state = DebateState::from_events(&events);
    let mark = |round: usize, role| state.rounds[round].turn(role).unwrap().checks.first().map(|c| c.mark);
    assert_eq!(mark(0, Role::Advocate), Some(Mark::Unverified));
    assert_eq!(mark(1, Role::Skeptic), Some(Mark::PriorTurn), "the skeptic quotes the advocate");
    let texts: Vec<_> = state.rounds.iter().map(|r| r.turn(Role::Advocate).unwrap().text.clone()).collect();
    assert_eq!(mark(2, Role::Advocate), Some(Mark::Unverified), "still the advocate's own invention: {texts:?}");
}

/// Both sides write the same made-up quote in round 1: neither saw the
/// other's text (a round's arguments are written side by side), so neither
/// quotes the other; both are marked as not in the source.
#[tokio::test]
async fn a_quote_matches_only_turns_its_speaker_could_have_read() {
    let invented = "\"jobs never wait longer than a second\"";
    let advocate = Arc::new(ScriptedModel::new([], Reply::text(&format!("The doc promises {invented}."))));
    let skeptic = Arc::new(ScriptedModel::new([], Reply::text(&format!("It never says {invented}."))));
    let judge = Arc::new(ScriptedModel::new(
        [],
        Reply::text(r#"{"resolved": false, "verdict": "Open.", "topic": "Is it fast enough?", "heat": 0.6}"#),
    ));
    let models = [advocate, skeptic, judge];
    let events = drain_events(engine::start(setup(&models), spec(1))).await;
    let state = DebateState::from_events(&events);
    let mark = |round: usize, role| state.rounds[round].turn(role).unwrap().checks.first().map(|c| c.mark);
    for role in Role::DEBATERS {
        assert_eq!(mark(0, role), Some(Mark::Unverified), "{role:?} in round 1 could read no other turn");
    }
}

#[tokio::test]
async fn an_argument_logged_but_never_checked_is_checked_on_resume() {
    let first = models();
    let events = drain_events(engine::start(setup(&first), spec(2))).await;
    // The process died between logging the advocate's argument and its checks.
    let logged = events
        .iter()
        .position(|e| matches!(e, DebateEvent::TurnCompleted { round: 0, role: Role::Advocate, .. }))
        .unwrap();
    let mut state = DebateState::from_events(&events[..=logged]);
    assert!(state.rounds[0].turn(Role::Advocate).unwrap().checks.is_empty());
    state.finish = None;
    let resumed = drain_events(engine::resume(setup(&models()), state)).await;
    assert!(
        matches!(&resumed[1], DebateEvent::QuotesChecked { round: 0, role: Role::Advocate, checks } if checks.len() == 4),
        "checked first thing: {:?}",
        resumed[1]
    );
}

#[tokio::test]
async fn a_source_changed_in_the_log_invalidates_the_debate_on_resume() {
    use heat::debate::Outcome;
    let first = models();
    let events = drain_events(engine::start(setup(&first), spec(3))).await;
    let judged = events.iter().position(|e| matches!(e, DebateEvent::VerdictReached { .. })).unwrap();
    let mut state = DebateState::from_events(&events[..=judged]);
    // Someone edited the recorded document in the session log.
    state.source.as_mut().unwrap().text = DOC.replace("loses jobs", "never loses jobs");
    let fresh = models();
    let mut handle = engine::resume(setup(&fresh), state);
    let mut resumed = Vec::new();
    while let Some(e) = handle.next_event().await {
        resumed.push(e);
    }
    let state = handle.join().await;
    assert!(
        matches!(&state.finish, Some(f) if matches!(&f.outcome, Outcome::Invalidated(why) if why.contains("does not match the sha256"))),
        "{:?}",
        state.finish
    );
    assert!(fresh.iter().all(|m| m.requests().is_empty()), "nothing asked on a text nobody can vouch for");
    assert_eq!(Outcome::Invalidated("x".into()).headline(2), "invalidated in round 2");
}

#[tokio::test]
async fn with_no_topic_the_debate_takes_the_sources_own() {
    let models = models();
    let events = drain_events(engine::start(setup(&models), DebateSpec { topic: "  ".into(), ..spec(1) })).await;
    assert!(
        matches!(events.first(), Some(DebateEvent::Started { topic, .. }) if topic == "Move the job queue to Postgres"),
        "{:?}",
        events.first()
    );
}
