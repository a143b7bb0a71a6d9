//! Old rounds put in brief by the debaters' own models (`debate.summaries =
//! "model"`): before the first round whose prompts give an earlier round in
//! brief, each debater's model is asked once for a brief of its argument
//! there; the brief is recorded and stands in every later prompt; a resumed
//! debate does not ask again; a brief the model could not write leaves the
//! argument's first sentence standing.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::engine_support::{self, drain_events};

use heat::debate::engine::{self, RoleSetup};
use heat::debate::plan::{self, Options, Step};
use heat::debate::{DebateEvent, DebateState, Role};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};

const ROUNDS: u32 = 6;

fn argument(side: &str, round: u32) -> String {
    if side == "advocate" {
        format!("Sleeper line {round} lets travellers arrive rested. Rested travellers work better the next morning.")
    } else {
        format!("Budget route {round} costs half as much. Families choose the cheaper fare every time.")
    }
}

/// What `side`'s model answers, in the order it is asked: rounds 1–4, the
/// brief of round 1, round 5, the brief of round 2, round 6.
fn seat(side: &str, brief_one: &str) -> Arc<ScriptedModel> {
    let brief = |n: u32| format!("In brief: the {side}'s round {n} case, put in its own model's words.");
    let replies = [
        argument(side, 1),
        argument(side, 2),
        argument(side, 3),
        argument(side, 4),
        brief_one.to_string(),
        argument(side, 5),
        brief(2),
        argument(side, 6),
    ];
    Arc::new(ScriptedModel::new(replies.iter().map(|r| Reply::text(r)), Reply::text(&argument(side, 99))))
}

fn verdict(round: u32) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": false, "verdict": "Round {round} is close.", "topic": "What about reason {}?", "heat": 0.6}}"#,
        round + 1
    ))
}

async fn debate(advocate: &Arc<ScriptedModel>, skeptic: &Arc<ScriptedModel>) -> Vec<DebateEvent> {
    let judge = Arc::new(ScriptedModel::new((1..=ROUNDS).map(verdict), verdict(99)));
    let seat = |m: &Arc<ScriptedModel>| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "m", 256);
    let setup = engine_support::duel(seat(advocate), seat(skeptic), seat(&judge)).model_briefs(true).build();
    drain_events(engine::start(setup, engine_support::duel_spec(ROUNDS))).await
}

#[tokio::test]
async fn each_debaters_model_puts_its_old_round_in_brief_once_and_the_brief_stands_in_later_prompts() {
    let advocate = seat("advocate", "\"Sleeper trains beat flights: travellers arrive rested and work better.\"");
    let skeptic = seat("skeptic", "Flights win on price: budget routes cost half as much.");
    let events = debate(&advocate, &skeptic).await;

    let briefed: Vec<(u32, Role, &str)> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Briefed { round, role, text, .. } => Some((*round, *role, text.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        briefed[..2],
        [
            (0, Role::Advocate, "Sleeper trains beat flights: travellers arrive rested and work better."),
            (0, Role::Skeptic, "Flights win on price: budget routes cost half as much."),
        ],
        "{briefed:?}"
    );
    assert_eq!(briefed.len(), 4, "rounds 1 and 2, each side once: {briefed:?}");

    // What the model is asked: its own argument, and nothing else of the debate's.
    let asked = &advocate.requests()[4];
    assert!(asked.system.starts_with("You keep the record of a debate."), "{}", asked.system);
    let message = &asked.messages[0].content;
    assert!(
        message.contains(&format!("The advocate argued:\n\"\"\"\n{}\n\"\"\"", argument("advocate", 1))),
        "{message}"
    );
    assert!(!message.contains("Budget route"), "the other side's argument is not asked: {message}");

    // Round 5's prompt gives round 1 as the model put it; round 6's, rounds 1 and 2.
    let fifth = &advocate.requests()[5].messages[0].content;
    assert!(
        fifth.contains("- Round 1 (question: Tabs beat spaces): the advocate: “Sleeper trains beat flights: travellers arrive rested and work better.”; the skeptic: “Flights win on price: budget routes cost half as much.”"),
        "{fifth}"
    );
    let sixth = &advocate.requests()[7].messages[0].content;
    assert!(sixth.contains("the advocate: “the advocate's round 2 case, put in its own model's words.”"), "{sixth}");
    let said: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } if message.starts_with("From round ") => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 1);
    assert!(said[0].contains("each side's argument as its own model put it in brief"), "{said:?}");

    // Folded from the log, a debate whose briefs were written asks for none again; one cut before them does.
    let options = Options { model_briefs: true, ..Options::default() };
    let at_round_five = events.iter().position(|e| matches!(e, DebateEvent::TurnStarted { round: 4, .. })).unwrap();
    let written = DebateState::from_events(&events[..at_round_five]);
    let steps = plan::next_steps_with(&written, &[], options);
    assert!(steps.iter().all(|s| matches!(s, Step::StartTurn { round: 4, .. })), "{steps:?}");
    let first_brief = events.iter().position(|e| matches!(e, DebateEvent::Briefed { .. })).unwrap();
    let unwritten = DebateState::from_events(&events[..first_brief]);
    assert_eq!(
        plan::next_steps_with(&unwritten, &[], options),
        [Step::Brief { round: 0, role: Role::Advocate }, Step::Brief { round: 0, role: Role::Skeptic }]
    );
    assert!(
        plan::next_steps_with(&unwritten, &[], Options::default()).iter().all(|s| matches!(s, Step::StartTurn { .. })),
        "without model briefs the round starts at once"
    );
}

#[tokio::test]
async fn a_brief_the_model_could_not_write_leaves_the_first_sentence_standing() {
    let advocate = seat("advocate", "ok");
    let skeptic = seat("skeptic", "Flights win on price: budget routes cost half as much.");
    let events = debate(&advocate, &skeptic).await;
    let failed = events.iter().find_map(|e| match e {
        DebateEvent::BriefFailed { round: 0, role: Role::Advocate, error, .. } => Some(error.as_str()),
        _ => None,
    });
    assert_eq!(failed, Some("its answer was not a brief"));
    let fifth = &advocate.requests()[5].messages[0].content;
    assert!(fifth.contains("the advocate: “Sleeper line 1 lets travellers arrive rested.”"), "{fifth}");
    assert!(events.iter().any(|e| matches!(e, DebateEvent::Finished { .. })));
}
