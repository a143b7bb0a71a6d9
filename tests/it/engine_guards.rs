//! The guards through the engine, against scripted models that drift the
//! way small models do: a placeholder verdict, a piece of the prompt as the
//! next topic, an argument that is only the control line or a copy of its
//! prompt, and echoes stripped before the judge reads them.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::engine_support::{self, drain};

use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::prompt::Prompts;
use heat::debate::{DebateEvent, DebateState, Outcome, Role, TurnPurpose};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};

const PROPOSITION: &str = "Tabs beat spaces";

fn verdict(resolved: bool, text: &str, topic: &str) -> Reply {
    Reply::text(&format!(r#"{{"resolved": {resolved}, "verdict": "{text}", "topic": "{topic}", "heat": 0.6}}"#))
}

fn settled() -> Reply {
    verdict(true, "Tabs win on accessibility; spaces never answered it.", PROPOSITION)
}

fn role(model: &Arc<ScriptedModel>) -> RoleSetup {
    RoleSetup::new(Arc::clone(model) as Arc<dyn ChatModel>, "m", 512)
}

fn setup(adv: &Arc<ScriptedModel>, skp: &Arc<ScriptedModel>, judge: &Arc<ScriptedModel>) -> EngineSetup {
    engine_support::duel(role(adv), role(skp), role(judge)).retries(2).build()
}

fn model(replies: impl IntoIterator<Item = Reply>, fallback: Reply) -> Arc<ScriptedModel> {
    Arc::new(ScriptedModel::new(replies, fallback))
}

fn debater(text: &str) -> Arc<ScriptedModel> {
    model([], Reply::text(text))
}

fn spec(max_rounds: u32) -> DebateSpec {
    DebateSpec {
        topic: PROPOSITION.into(),
        max_rounds,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format: None,
    }
}

fn outcome(state: &DebateState) -> Outcome {
    state.finish.clone().expect("debate finished").outcome
}

fn last_message(model: &ScriptedModel, request: usize) -> String {
    model.requests()[request].messages.last().unwrap().content.clone()
}

#[tokio::test(start_paused = true)]
async fn a_placeholder_verdict_is_repaired_and_the_repaired_verdict_stands() {
    let (a, s) = (debater("Tabs let each reader pick a width."), debater("Spaces look the same everywhere."));
    let j = model([verdict(false, "…", "Costs?"), settled()], settled());
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
    let invalid: Vec<(String, bool)> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::VerdictInvalid { error, will_retry, .. } => Some((error.clone(), *will_retry)),
            _ => None,
        })
        .collect();
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert!(invalid[0].1 && invalid[0].0.contains("placeholder"), "{invalid:?}");
    // The repair request says what was wrong, in a short clause.
    let repair = last_message(&j, 1);
    assert!(repair.starts_with("That answer could not be used: the field `verdict` holds a placeholder"), "{repair}");
    assert_eq!(state.rounds.len(), 1);
    assert_eq!(state.rounds[0].turns.last().unwrap().purpose, TurnPurpose::RepairVerdict);
    assert_eq!(state.rounds[0].verdict().unwrap().verdict, "Tabs win on accessibility; spaces never answered it.");
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn a_next_topic_that_is_a_piece_of_the_prompt_leaves_the_topic_unchanged_with_a_notice() {
    let cases = [
        ("Address the transition costs for small firms", "it is a piece of the prompt"),
        (") and nothing else. You are the JUDGE", "it is a broken-off piece of a sentence"),
        ("<|im_start|>assistant", "it holds a chat-template token"),
    ];
    for (fragment, why) in cases {
        let (a, s) = (debater("Tabs let each reader pick a width."), debater("Spaces look the same everywhere."));
        let open = verdict(false, "The advocate made the width point; the skeptic did not answer it.", fragment);
        let j = model([open], settled());
        let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(3))).await;
        assert_eq!(state.rounds.len(), 2, "{fragment}");
        assert_eq!(state.rounds[1].topic, PROPOSITION, "the topic stays: {fragment}");
        assert_eq!(state.rounds[0].verdict().unwrap().topic, PROPOSITION, "the verdict carries the kept topic");
        let notice = events
            .iter()
            .find_map(|e| match e {
                DebateEvent::Notice { message } => Some(message.clone()),
                _ => None,
            })
            .expect("a notice says the topic was set aside");
        assert!(notice.starts_with("the judge's next topic"), "{notice}");
        assert!(notice.ends_with(&format!("was set aside ({why}); round 2 keeps: {PROPOSITION}")), "{notice}");
        let reached = events.iter().position(|e| matches!(e, DebateEvent::VerdictReached { .. })).unwrap();
        let started = events.iter().position(|e| matches!(e, DebateEvent::RoundStarted { round: 1, .. })).unwrap();
        let said = events.iter().position(|e| matches!(e, DebateEvent::Notice { .. })).unwrap();
        assert!(reached < said && said < started, "said with the verdict, before the round it concerns");
        for debater in [&a, &s] {
            let prompt = last_message(debater, 1);
            assert!(!prompt.contains("This round's question"), "{prompt}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_debater_answering_only_the_control_line_is_asked_once_more_and_its_good_answer_stands() {
    let a = model([Reply::text("{\"set_temp\": 0.90}\n")], Reply::text("Tabs let each reader pick a width."));
    let s = debater("Spaces look the same everywhere.");
    let j = model([], settled());
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(2))).await;
    let retries: Vec<&DebateEvent> =
        events.iter().filter(|e| matches!(e, DebateEvent::TurnRetrying { role: Role::Advocate, .. })).collect();
    assert_eq!(retries.len(), 1, "{retries:?}");
    let DebateEvent::TurnRetrying { attempt, max_retries, reason, .. } = retries[0] else { unreachable!() };
    assert_eq!((*attempt, *max_retries), (1, 1));
    assert!(reason.contains("only the control line"), "{reason}");
    assert_eq!(a.requests().len(), 2, "asked once more");
    assert_eq!(a.requests()[0].messages, a.requests()[1].messages, "the same question again");
    assert_eq!(s.requests().len(), 1, "the skeptic is not asked again");
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("Tabs let each reader pick a width."));
    let judge_prompt = last_message(&j, 0);
    assert!(judge_prompt.contains(r#"["Tabs let each reader pick a width.","#), "{judge_prompt}");
    assert_eq!(outcome(&state), Outcome::Resolved);
}

#[tokio::test(start_paused = true)]
async fn a_debater_copying_its_prompt_twice_fails_its_turn() {
    let copy = Prompts::default().brief(Role::Advocate).to_string();
    let a = debater(&copy);
    let s = debater("Spaces look the same everywhere.");
    let j = model([], settled());
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(2))).await;
    assert_eq!(a.requests().len(), 2, "one more try, no third");
    let retries = events.iter().filter(|e| matches!(e, DebateEvent::TurnRetrying { role: Role::Advocate, .. })).count();
    assert_eq!(retries, 1);
    let failed = events.iter().find_map(|e| match e {
        DebateEvent::TurnFailed { role: Role::Advocate, error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(failed.as_deref(), Some("the answer copied its prompt on both tries"));
    assert!(j.requests().is_empty(), "the judge never reads it");
    let Outcome::Failed(why) = outcome(&state) else { panic!("expected a failure, got {:?}", outcome(&state)) };
    assert_eq!(why, "the advocate could not answer: the answer copied its prompt on both tries");
}

#[tokio::test(start_paused = true)]
async fn echoed_control_lines_and_template_tokens_are_stripped_before_the_judge_reads_the_argument() {
    let echo = "HEAT: 0.9\nRound 1 of 2. Give reasons why this proposition is RIGHT.\n\
                <|im_start|>assistant\nTabs let each reader pick a width.<|im_end|>";
    let (a, s) = (debater(echo), debater("Spaces look the same everywhere.</s>"));
    let j = model([], settled());
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(2))).await;
    assert_eq!(a.requests().len(), 1, "a cleaned answer is no failed turn");
    // The deltas stream as the model sent them; the completed turn carries the cleaned text.
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Delta { role: Role::Advocate, text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(streamed, echo);
    assert_eq!(state.rounds[0].argument(Role::Advocate), Some("Tabs let each reader pick a width."));
    assert_eq!(state.rounds[0].argument(Role::Skeptic), Some("Spaces look the same everywhere."));
    let judge_prompt = last_message(&j, 0);
    assert!(
        judge_prompt.contains(r#"["Tabs let each reader pick a width.","Spaces look the same everywhere."]"#),
        "{judge_prompt}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_verdict_repeating_last_rounds_goes_through_repair() {
    let (a, s) = (debater("Tabs let each reader pick a width."), debater("Spaces look the same everywhere."));
    let same = "The width point stands; the skeptic has not answered it.";
    let j = model([verdict(false, same, "Costs?"), verdict(false, same, "Habits?"), settled()], settled());
    let (events, state) = drain(engine::start(setup(&a, &s, &j), spec(4))).await;
    let invalid = events.iter().find_map(|e| match e {
        DebateEvent::VerdictInvalid { round: 1, error, .. } => Some(error.clone()),
        _ => None,
    });
    assert_eq!(invalid.as_deref(), Some("the field `verdict` repeats last round's verdict word for word"));
    assert_eq!(state.rounds.len(), 2);
    assert_eq!(state.rounds[1].topic, "Costs?", "a question of one word is a topic");
    assert_eq!(outcome(&state), Outcome::Resolved);
}
