//! A long debate keeps its early rounds: past the rounds a prompt shows in
//! full, each earlier round is given in brief (each side's main point and
//! the verdict's first sentence), in the debaters' and the judge's prompts
//! alike, and that is said once.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::engine_support::{self, drain_events};

use heat::debate::DebateEvent;
use heat::debate::engine::{self, RoleSetup};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};

const ROUNDS: u32 = 14;

/// A different argument each round and for each side (a copy of the other
/// side's, which the prompt carries, would be asked again).
fn argument(side: &str, round: u32) -> Reply {
    let text = if side == "advocate" {
        format!(
            "Sleeper carriages on line {round} let travellers arrive rested. Rested travellers work better the next morning."
        )
    } else {
        format!("Budget airlines undercut route {round} by a wide margin. Families choose the cheaper fare every time.")
    };
    Reply::text(&text)
}

fn verdict(round: u32) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": false, "verdict": "Round {round} leans to the advocate on reason {round}. Details follow.", "topic": "What about reason {}?", "heat": 0.6}}"#,
        round + 1
    ))
}

#[tokio::test]
async fn a_fourteen_round_debate_gives_its_early_rounds_in_brief_to_every_seat() {
    let advocate =
        Arc::new(ScriptedModel::new((1..=ROUNDS).map(|n| argument("advocate", n)), argument("advocate", 99)));
    let skeptic = Arc::new(ScriptedModel::new((1..=ROUNDS).map(|n| argument("skeptic", n)), argument("skeptic", 99)));
    let judge = Arc::new(ScriptedModel::new((1..=ROUNDS).map(verdict), verdict(99)));
    let seat = |m: &Arc<ScriptedModel>| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "m", 256);
    let setup = engine_support::duel(seat(&advocate), seat(&skeptic), seat(&judge)).build();
    let events = drain_events(engine::start(setup, engine_support::duel_spec(ROUNDS))).await;

    let notices: Vec<&String> = events
        .iter()
        .filter_map(|e| match e {
            DebateEvent::Notice { message } if message.starts_with("From round ") => Some(message),
            _ => None,
        })
        .collect();
    let finished: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, DebateEvent::Finished { .. } | DebateEvent::RoundStarted { .. }))
        .map(|e| format!("{e:?}").chars().take(120).collect())
        .collect();
    assert_eq!(notices.len(), 1, "said once: {notices:?} {finished:#?}");
    assert!(notices[0].starts_with("From round 5 on, every prompt gives the rounds before its last 3 in brief"));

    // A verdict like the earlier ones, which the brief gives back, is not taken for a copy of its prompt.
    let invalid = events.iter().filter(|e| matches!(e, DebateEvent::VerdictInvalid { .. })).count();
    assert_eq!(invalid, 0, "every verdict stood");

    // Round 4's prompts show rounds 1–3 in full and nothing in brief.
    let fourth = &advocate.requests()[3];
    assert!(!fourth.messages[0].content.contains("in brief"), "{}", fourth.messages[0].content);

    // Round 14's: rounds 1–2 and 5–10 in brief (3–4 counted), 11–13 in full.
    let last = &advocate.requests()[13];
    let opening = &last.messages[0].content;
    assert!(opening.starts_with("Rounds 1–10, in brief (earlier rounds are not shown in full):\n"), "{opening}");
    assert!(
        opening.contains("- Round 1 (question: Tabs beat spaces): the advocate: “Sleeper carriages on line 1 let travellers arrive rested.”; the skeptic: “Budget airlines undercut route 1 by a wide margin.”; the judge: Round 1 leans to the advocate on reason 1.\n"),
        "{opening}"
    );
    assert!(
        opening.contains("- (2 rounds between are left out)\n- Round 5 (question: What about reason 5?)"),
        "{opening}"
    );
    assert!(!opening.contains("on line 11 let"), "round 11 is shown in full, not in brief");
    let full: Vec<&str> = last.messages.iter().map(|m| m.content.as_str()).collect();
    assert!(full.iter().any(|m| m.starts_with("Sleeper carriages on line 11")), "round 11 in full");

    // The judge's prompt in round 14 still carries round 1's main point.
    let judged = &judge.requests()[13];
    let all: String = judged.messages.iter().map(|m| m.content.as_str()).collect();
    assert!(all.contains("the advocate: “Sleeper carriages on line 1 let travellers arrive rested.”"), "{all}");
    assert_eq!(judged.messages[0].role, heat::provider::ChatRole::User, "the brief opens a user message");
}

/// A debater's long argument in round `round`: six sentences of words
/// drawn for that side and round (no copy of another turn), about as long
/// as the embedded model's 120-token turns; the first names its round.
fn long_argument(side: &str, round: u32) -> String {
    const WORDS: [&str; 24] = [
        "rail",
        "fares",
        "berths",
        "airports",
        "carbon",
        "tickets",
        "stations",
        "delays",
        "crews",
        "routes",
        "nights",
        "borders",
        "tracks",
        "prices",
        "cabins",
        "sleep",
        "comfort",
        "speed",
        "schedules",
        "buffets",
        "luggage",
        "transfers",
        "subsidies",
        "demand",
    ];
    let mut rng = fastrand::Rng::with_seed(u64::from(round) * 2 + u64::from(side == "skeptic"));
    let mut sentences = vec![format!("The {side} holds in round {round} that the journey decides it.")];
    for _ in 0..5 {
        let words: Vec<&str> = (0..14).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        sentences.push(format!("{}.", words.join(" ")));
    }
    sentences.join(" ")
}

#[tokio::test]
async fn an_embedded_judges_prompt_in_a_long_debate_fits_its_context_to_the_last_synthesis() {
    const CONTEXT: u32 = 2048;
    let speaker = |side: &'static str| {
        Arc::new(ScriptedModel::new(
            (1..=ROUNDS).map(|n| Reply::text(&long_argument(side, n))),
            Reply::text(&long_argument(side, 99)),
        ))
    };
    let (advocate, skeptic) = (speaker("advocate"), speaker("skeptic"));
    let choice = |n: u32, last: bool| {
        let first = |side| format!("The {side} holds in round {n} that the journey decides it.");
        let question = if last { String::new() } else { format!(r#", "next_question": "What of reason {}?""#, n + 1) };
        Reply::text(&format!(
            r#"{{"advocate_best": "{}", "skeptic_best": "{}"{question}}}"#,
            first("advocate"),
            first("skeptic")
        ))
    };
    let judge = Arc::new(
        ScriptedModel::new((1..ROUNDS).map(|n| choice(n, false)).chain([choice(ROUNDS, true)]), choice(99, true))
            .playing_embedded()
            .with_context(CONTEXT),
    );
    let seat = |m: &Arc<ScriptedModel>, tokens| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "m", tokens);
    // The full prompts, as an embedded judge gets them beside debaters on servers.
    let setup = engine_support::duel(seat(&advocate, 120), seat(&skeptic, 120), seat(&judge, 200)).build();
    // Every round argued: a format whose judge may not end the debate early.
    let format = serde_json::from_value(serde_json::json!({
        "name": "duel", "labels": ["Advocate", "Skeptic", "Judge"], "resolve_early": false, "judges": 1,
    }))
    .unwrap();
    let spec = heat::debate::engine::DebateSpec { format: Some(format), ..engine_support::duel_spec(ROUNDS) };
    let events = drain_events(engine::start(setup, spec)).await;
    let ends: Vec<String> = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                DebateEvent::Finished { .. } | DebateEvent::TurnFailed { .. } | DebateEvent::VerdictInvalid { .. }
            )
        })
        .map(|e| format!("{e:?}"))
        .collect();
    assert_eq!(ends.len(), 1, "{ends:#?}");

    // Every prompt the judge is sent, and its answer's room, fit its context at three characters a token, as heat counts them.
    let asked = judge.requests();
    assert!(asked.len() >= ROUNDS as usize, "{} judge requests", asked.len());
    for (i, request) in asked.iter().enumerate() {
        let chars: usize = request.system.chars().count()
            + request.grounding.as_deref().map_or(0, |g| g.chars().count())
            + request.messages.iter().map(|m| m.content.chars().count()).sum::<usize>();
        let needs = chars / 3 + request.max_tokens as usize;
        assert!(needs <= CONTEXT as usize, "judge request {}: about {needs} tokens of {CONTEXT}", i + 1);
    }
    // The last still carries round 1's main point, in brief.
    let last = asked.last().unwrap();
    let all: String = last.messages.iter().map(|m| m.content.as_str()).collect();
    assert!(
        all.contains("- Round 1 (question: Tabs beat spaces): the advocate: “The advocate holds in round 1"),
        "{all}"
    );
}
