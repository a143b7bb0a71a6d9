//! The embedded judge's chosen form beyond two sides: a `panel`'s judge on
//! the embedded model picks each panelist's strongest sentence (a field per
//! seat, named as the format names it), the heat follows how far apart the
//! panelists are, and the synthesis ends with where their final answers
//! stand; a `review`'s embedded judge gives every issue on the board a
//! status from a closed list, and the board takes it.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::engine_support;

use engine_support::{drain, setup, spec};
use heat::debate::engine::{self, EngineSetup, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::debate::issues::{self, Status};
use heat::debate::{Outcome, Role, extractive};
use heat::format::{Format, Origin};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatModel, ChatRole};

fn builtin(name: &str, text: &str) -> FormatRecord {
    Format::parse(name, text, &Origin::BuiltIn).unwrap().record
}

fn seats(debaters: &[Arc<ScriptedModel>], judge: &Arc<ScriptedModel>) -> EngineSetup {
    let seat = |m: &Arc<ScriptedModel>| engine_support::seat(Arc::clone(m) as Arc<dyn ChatModel>);
    let debaters: Vec<RoleSetup> = debaters.iter().map(seat).collect();
    setup(&debaters, &seat(judge)).retries(0).build()
}

fn speaker(replies: &[String]) -> Arc<ScriptedModel> {
    let replies: Vec<Reply> = replies.iter().map(|r| Reply::text(r)).collect();
    Arc::new(ScriptedModel::new(replies.clone(), replies.last().cloned().unwrap()))
}

const CARS: &str = "Should cities ban cars from their centres?";

#[tokio::test]
async fn a_panels_embedded_judge_picks_a_sentence_from_each_panelist_and_sums_up_their_answers() {
    let said = [
        [
            "Clean air saves lives in every crowded city.\nFinal answer: ban them now.",
            "Parks can take the place of car parks.\nFinal answer: ban them now.",
        ],
        [
            "Deliveries need a morning window to reach the shops.\nFinal answer: ban them slowly.",
            "Buses fill the gap once the lanes are free.\nFinal answer: ban them now.",
        ],
        [
            "The poorest drivers live furthest from the centre.\nFinal answer: do not ban them.",
            "Night workers have no bus home after midnight.\nFinal answer: do not ban them.",
        ],
    ];
    let debaters: Vec<Arc<ScriptedModel>> = said.iter().map(|s| speaker(&s.map(String::from))).collect();
    let round_one = r#"{"optimist_best": "Clean air saves lives in every crowded city.", "realist_best": "Deliveries need a morning window to reach the shops.", "critic_best": "The poorest drivers live furthest from the centre.", "next_question": "How should deliveries reach shops without cars?"}"#;
    let last = r#"{"optimist_best": "Parks can take the place of car parks.", "realist_best": "Buses fill the gap once the lanes are free.", "critic_best": "Night workers have no bus home after midnight."}"#;
    let replies = [Reply::text(round_one), Reply::text(last)];
    let judge = Arc::new(ScriptedModel::new(replies, Reply::text(last)).playing_embedded());
    let (_, state) = drain(engine::start(seats(&debaters, &judge), spec(CARS, builtin_panel(), 2))).await;

    let asked = judge.requests();
    assert_eq!(asked.len(), 2, "a verdict on round 1, the synthesis on round 2: {:?}", state.finish);
    let schema = &asked[0].response_schema.as_ref().unwrap().schema;
    let fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(fields, ["optimist_best", "realist_best", "critic_best", "next_question"]);
    assert_eq!(schema["properties"]["realist_best"]["enum"][0], "Deliveries need a morning window to reach the shops.");
    let prompt = &asked[0].messages.last().unwrap().content;
    assert!(prompt.contains("The critic argued:"), "{prompt}");
    assert!(prompt.contains("optimist_best (the optimist's strongest sentence), realist_best (the realist's strongest sentence), critic_best (the critic's strongest sentence) and next_question"), "{prompt}");
    let final_schema = &asked[1].response_schema.as_ref().unwrap().schema;
    assert!(final_schema["properties"].get("next_question").is_none(), "the synthesis asks no question");

    let verdict = state.rounds[0].verdict().unwrap();
    assert_eq!(
        verdict.verdict,
        "This round's strongest points: the optimist's \u{201c}Clean air saves lives in every crowded city.\u{201d}, \
         the realist's \u{201c}Deliveries need a morning window to reach the shops.\u{201d} and the critic's \
         \u{201c}The poorest drivers live furthest from the centre.\u{201d}"
    );
    assert_eq!(state.rounds[1].topic, "How should deliveries reach shops without cars?");
    // The heat is set by the rule, not given by the model: a step down from the first round's.
    let arguments: Vec<&str> = said.iter().map(|s| s[0]).collect();
    let measured = extractive::next_heat(state.rounds[0].heat, extractive::spread(CARS, &arguments), None);
    assert_eq!(state.rounds[1].heat, measured);
    assert!(state.rounds[1].heat.get() < state.rounds[0].heat.get());
    let finish = state.finish.unwrap();
    assert_eq!(finish.outcome, Outcome::MaxRounds);
    let synthesis = finish.synthesis.unwrap();
    assert!(synthesis.starts_with("The debate's strongest points: the optimist's"), "{synthesis}");
    assert!(
        synthesis.ends_with(
            ". Their final answers: \"ban them now.\" 2–1 (Optimist, Realist); minority: Critic \"do not ban them.\""
        ),
        "{synthesis}"
    );
}

fn builtin_panel() -> FormatRecord {
    builtin("panel", include_str!("../../assets/formats/panel.toml"))
}

#[tokio::test]
async fn a_reviews_embedded_judge_gives_each_issue_a_status_and_the_board_takes_it() {
    let defender = speaker(&[
        "The plan closes the old town to private cars from next spring. Vans may enter before ten each morning.".into(),
    ]);
    let logic = speaker(&[
        "The plan never says who checks the permits at the gates.\nISSUE L1 [high] No one enforces the permits — evidence: the plan names no agency.".into(),
    ]);
    let ops = speaker(&[
        "The morning window will jam the ring road with vans.\nISSUE O1 [medium] Vans queue at the gates — evidence: one window for every delivery.".into(),
    ]);
    let answer = r#"{"defender_best": "Vans may enter before ten each morning.", "logic_critic_best": "The plan never says who checks the permits at the gates.", "ops_critic_best": "The morning window will jam the ring road with vans.", "issues": {"L1": "open", "O1": "rejected"}}"#;
    let judge = Arc::new(ScriptedModel::new([Reply::text(answer)], Reply::text(answer)).playing_embedded());
    let review = builtin("review", include_str!("../../assets/formats/review.toml"));
    let topic = "Close the old town to cars";
    let (_, state) = drain(engine::start(seats(&[defender, logic, ops], &judge), spec(topic, review, 1))).await;

    let asked = judge.requests();
    let schema = &asked[0].response_schema.as_ref().unwrap().schema;
    assert_eq!(schema["properties"]["issues"]["required"], serde_json::json!(["L1", "O1"]));
    assert_eq!(schema["properties"]["issues"]["properties"]["L1"]["enum"], serde_json::json!(Status::NAMES));
    let prompt = &asked[0].messages.last().unwrap().content;
    assert!(
        prompt.contains("- L1 [high] No one enforces the permits (evidence: the plan names no agency.): open"),
        "{prompt}"
    );
    assert!(prompt.contains("and issues (each issue's status: open, addressed, rejected or deferred)"), "{prompt}");
    let board = issues::board(&state);
    let statuses: Vec<(&str, Status, Role)> = board.iter().map(|r| (r.issue.id.as_str(), r.status, r.by)).collect();
    assert_eq!(statuses, [("L1", Status::Open, Role::Skeptic), ("O1", Status::Rejected, Role::Third)]);
    let verdict = state.rounds[0].verdict().unwrap();
    assert!(verdict.verdict.contains("the logic critic's \u{201c}The plan never says"), "{}", verdict.verdict);
}

/// A panel of three judges all served by the embedded model says once, at
/// the start, that they vote as one and how to seat one elsewhere; with
/// judge 2 on a provider of its own it is not said.
#[tokio::test]
async fn a_panel_wholly_on_the_embedded_model_says_its_judges_vote_as_one() {
    let notices = |events: &[heat::debate::DebateEvent]| -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                heat::debate::DebateEvent::Notice { message } => Some(message.clone()),
                _ => None,
            })
            .filter(|m| m.starts_with("Every panel judge is the embedded model"))
            .collect()
    };
    let answer = |said: &str| format!("{said}\nFinal answer: ban them now.");
    let run = |format: FormatRecord| {
        let debaters: Vec<Arc<ScriptedModel>> =
            ["Clean air saves lives.", "Parks replace car parks.", "Buses fill the gap."]
                .iter()
                .map(|s| speaker(&[answer(s)]))
                .collect();
        let pick = r#"{"optimist_best": "Clean air saves lives.", "realist_best": "Parks replace car parks.", "critic_best": "Buses fill the gap.", "next_question": "What of deliveries?"}"#;
        let judge = Arc::new(ScriptedModel::new([], Reply::text(pick)).playing_embedded());
        drain(engine::start(seats(&debaters, &judge), spec(CARS, format, 2)))
    };
    let panel = FormatRecord { judges: 3, ..builtin_panel() };
    let (events, _) = run(panel.clone()).await;
    let said = notices(&events);
    assert_eq!(said.len(), 1, "said once a debate: {said:?}");
    assert!(said[0].contains("so all 3 vote as one; --seat judge2=PROVIDER:MODEL seats one elsewhere"), "{said:?}");

    let mixed = FormatRecord { panel_providers: vec!["openai".into()], ..panel };
    let (events, _) = run(mixed).await;
    assert!(notices(&events).is_empty(), "judge 2 sits elsewhere: {:?}", notices(&events));
}

/// A review's critics on the embedded model are held by a grammar to open
/// with an issue line under the next free id (their brief's letters), the
/// lead after it; the board takes what they raise round by round. The
/// defender is asked in words, as a critic on a server would be.
#[tokio::test]
async fn a_reviews_embedded_critics_are_held_to_raise_an_issue_under_the_next_id() {
    let defender = speaker(&["The plan closes the old town to private cars from next spring.".into()]);
    let critic = |lines: [&str; 2]| {
        let replies: Vec<Reply> = lines.iter().map(|l| Reply::text(l)).collect();
        Arc::new(ScriptedModel::new(replies.clone(), replies[1].clone()).playing_embedded())
    };
    let logic = critic([
        "ISSUE L1 [high] No one enforces the permits at the gates — evidence: the plan names no agency\nIt never says who checks.",
        "ISSUE L2 [low] The spring date leaves no time for signs — evidence: signs take a year\nThe date is too soon.",
    ]);
    let ops = critic([
        "ISSUE O1 [medium] Vans queue at the gates every morning — evidence: one window for every delivery\nThe ring road jams.",
        "ISSUE O2 [high] Night deliveries wake the residents — evidence: the window moves to the night\nNoise is a cost.",
    ]);
    let answer = r#"{"defender_best": "The plan closes the old town to private cars from next spring.", "logic_critic_best": "It never says who checks.", "ops_critic_best": "The ring road jams.", "issues": {}}"#;
    let judge = Arc::new(ScriptedModel::new([], Reply::text(answer)).playing_embedded());
    let review = builtin("review", include_str!("../../assets/formats/review.toml"));
    let debaters = [defender.clone(), Arc::clone(&logic), Arc::clone(&ops)];
    let (_, state) =
        drain(engine::start(seats(&debaters, &judge), spec("Close the old town to cars", review, 2))).await;

    let grammars = |model: &ScriptedModel| -> Vec<String> {
        model.requests().iter().map(|r| r.grammar.clone().unwrap_or_default()).collect()
    };
    let logic_asked = grammars(&logic);
    assert_eq!(logic_asked.len(), 2, "{logic_asked:?}");
    assert!(logic_asked[0].starts_with("start: \"ISSUE L1 [\""), "{}", logic_asked[0]);
    assert!(logic_asked[1].starts_with("start: \"ISSUE L2 [\""), "the next free id: {}", logic_asked[1]);
    assert!(logic_asked[0].contains("\"I disagree that"), "the lead follows the line: {}", logic_asked[0]);
    assert!(grammars(&ops)[1].starts_with("start: \"ISSUE O2 [\""), "{:?}", grammars(&ops));
    let opening_sent =
        logic.requests().iter().any(|r| r.messages.last().is_some_and(|m| m.role == ChatRole::Assistant));
    assert!(!opening_sent, "the lead is in the grammar, not an answer's start");
    assert!(defender.requests().iter().all(|r| r.grammar.is_none()), "the defender raises nothing");
    let ids: Vec<String> = issues::board(&state).iter().map(|r| r.issue.id.clone()).collect();
    assert_eq!(ids, ["L1", "O1", "L2", "O2"]);
}

/// The embedded judge's round prompt fits its context: three long critics'
/// arguments and a board of issues would not, so each argument is quoted up
/// to an equal share and marked where it stops, the board and the fields
/// whole. A judge whose context is not known reads every word.
#[tokio::test]
async fn the_embedded_judges_prompt_is_cut_to_fit_its_context() {
    let long = |first: &str| format!("{first} {}", "The queue drops a message when the worker dies. ".repeat(40));
    let defender = speaker(&[long("The plan closes the old town to private cars from next spring.")]);
    let logic = speaker(&[format!(
        "ISSUE L1 [high] No one enforces the permits at the gates. — evidence: the plan names no agency.\n{}",
        long("It never says who checks.")
    )]);
    let ops = speaker(&[format!(
        "ISSUE O1 [medium] Vans queue at the gates every morning. — evidence: one window for all.\n{}",
        long("The ring road jams.")
    )]);
    let answer = r#"{"defender_best": "The plan closes the old town to private cars from next spring.", "logic_critic_best": "It never says who checks.", "ops_critic_best": "The ring road jams.", "issues": {"L1": "open", "O1": "open"}}"#;
    let judged = |context: Option<u32>| {
        let judge = ScriptedModel::new([], Reply::text(answer)).playing_embedded();
        let judge = Arc::new(match context {
            Some(tokens) => judge.with_context(tokens),
            None => judge,
        });
        let review = builtin("review", include_str!("../../assets/formats/review.toml"));
        let debaters = [defender.clone(), Arc::clone(&logic), Arc::clone(&ops)];
        let run = drain(engine::start(seats(&debaters, &judge), spec("Close the old town to cars", review, 1)));
        async move {
            let (_, state) = run.await;
            (judge.requests().remove(0), state)
        }
    };
    let (asked, state) = judged(Some(2560)).await;
    let prompt = &asked.messages.last().unwrap().content;
    let said = asked.full_system_prompt().chars().count() + prompt.chars().count();
    // At three characters a token (cautious: English runs nearer four), with the answer's 512 tokens.
    assert!(said / 3 + 512 <= 2560, "{said} characters do not fit 2560 tokens with 512 to answer");
    assert_eq!(prompt.matches("[…the rest left out to fit the model's context]").count(), 3, "{prompt}");
    assert!(prompt.contains("It never says who checks.") && prompt.contains("- L1 [high] No one enforces"), "{prompt}");
    assert!(prompt.ends_with("and issues (each issue's status: open, addressed, rejected or deferred)."), "{prompt}");
    assert_eq!(issues::board(&state).len(), 2);

    let (asked, _) = judged(None).await;
    let prompt = &asked.messages.last().unwrap().content;
    assert!(!prompt.contains("left out to fit"), "{prompt}");
    assert_eq!(prompt.matches("The queue drops a message").count(), 120, "every word read");
}
