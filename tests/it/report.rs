//! The HTML report: its structure for the bundled demo and for debates the
//! engine ran against scripted models (one round, the round limit, forced,
//! failed, steered), its numbers against the folded state, and model text
//! that comes out inert whatever it holds.

use std::sync::Arc;

use crate::engine_support;
use crate::support::log::Log;

use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, RoleSetup};
use heat::debate::{Command, DebateEvent, DebateState, Role, TurnPurpose, Verdict};
use heat::provider::scripted::{Reply, ScriptedModel};
use heat::provider::{ChatModel, ProviderError};
use heat::report::{self, Context};
use heat::store::log::{self, Header, Record};
use proptest::prelude::*;
use tokio::sync::Semaphore;

fn verdict(resolved: bool, heat: f32, topic: &str) -> Reply {
    Reply::text(&format!(
        r#"{{"resolved": {resolved}, "verdict": "Both sides argued; {topic} is open.", "topic": "{topic}", "heat": {heat}}}"#
    ))
}

fn model(replies: impl IntoIterator<Item = Reply>, fallback: Reply) -> Arc<ScriptedModel> {
    Arc::new(ScriptedModel::new(replies, fallback))
}

fn setup(models: [&Arc<ScriptedModel>; 3]) -> EngineSetup {
    let role = |m: &Arc<ScriptedModel>| RoleSetup::new(Arc::clone(m) as Arc<dyn ChatModel>, "m", 512);
    let [advocate, skeptic, judge] = models.map(role);
    engine_support::duel(advocate, skeptic, judge).retries(0).build()
}

/// A duel of `max_rounds` rounds on "Tabs beat spaces" from heat 0.9.
fn spec(max_rounds: u32) -> DebateSpec {
    crate::engine_support::duel_spec(max_rounds)
}

/// Runs a debate to its end; the events become a session's records, 250 ms
/// apart. With `commands`, the advocate's first argument waits at `gate`
/// until the engine has recorded each command.
async fn session(setup: EngineSetup, spec: DebateSpec, commands: Vec<Command>) -> (Header, Vec<Record>, DebateState) {
    session_gated(setup, spec, commands, None).await
}

async fn session_gated(
    setup: EngineSetup,
    spec: DebateSpec,
    commands: Vec<Command>,
    gate: Option<&Arc<Semaphore>>,
) -> (Header, Vec<Record>, DebateState) {
    let mut handle = engine::start(setup, spec);
    let mut events = Vec::new();
    let mut pending = Some(commands);
    let mut awaited = 0;
    while let Some(event) = handle.next_event().await {
        if matches!(event, DebateEvent::Delta { .. })
            && let Some(commands) = pending.take()
        {
            awaited = commands.len();
            for command in commands {
                handle.send(command);
            }
        }
        let steering = matches!(
            event,
            DebateEvent::TemperaturePinned { .. }
                | DebateEvent::TopicInjected { .. }
                | DebateEvent::ResolutionForced
                | DebateEvent::HumanVerdict { .. }
        );
        if steering && awaited > 0 {
            awaited -= 1;
            if awaited == 0
                && let Some(gate) = gate
            {
                gate.add_permits(1);
            }
        }
        events.push(event);
    }
    let state = handle.join().await;
    let records = events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64 * 250, event }).collect();
    let header = Header { heat_session: log::FORMAT_VERSION, id: "20261124-120000-test".into(), created_ms: 0 };
    (header, records, state)
}

fn html(header: &Header, records: &[Record]) -> String {
    report::html(header, records, &Context::default()).expect("the report renders")
}

/// The text of the element that opens with `start`, to its closing `end`.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html.find(start).unwrap_or_else(|| panic!("{start} is in the page"));
    let rest = &html[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// Checks every report must pass: the sections, no script, no address other
/// than SVG's namespace, the policy that forbids the network, one heat point
/// per round, and each debater's words as the folded state counts them.
fn assert_sound(html: &str, state: &DebateState) {
    for id in ["id=\"heat\"", "id=\"words\"", "id=\"verdicts\"", "id=\"transcript\"", "id=\"heat-chart\""] {
        assert!(html.contains(id), "section {id} is missing");
    }
    assert!(!html.to_lowercase().contains("<script"), "no script");
    let addresses: Vec<&str> =
        html.match_indices("://").map(|(i, _)| &html[i.saturating_sub(4)..(i + 30).min(html.len())]).collect();
    assert!(
        addresses.iter().all(|a| a.starts_with("http://www.w3.org/2000/svg")),
        "only SVG's namespace may look like an address: {addresses:?}"
    );
    for link in html.match_indices("href=\"").map(|(i, _)| &html[i + 6..]) {
        assert!(link.starts_with('#'), "links stay in the page: {}", &link[..link.len().min(40)]);
    }
    assert!(!html.contains("src="), "nothing is loaded");
    assert!(html.contains(&format!("content=\"{}\"", report::CSP)), "the page carries its policy");
    assert!(report::CSP.contains("default-src 'none'"));
    let chart = between(html, "id=\"heat-chart\"", "</figure>");
    assert_eq!(chart.matches("<circle").count(), state.rounds.len(), "one heat point per round");
    for round in &state.rounds {
        assert!(html.contains(&format!("id=\"round-{}\"", round.number + 1)), "round {} anchored", round.number + 1);
    }
    let words = |role: Role| -> usize {
        state.rounds.iter().filter_map(|r| r.turn(role)).map(|t| t.text.split_whitespace().count()).sum()
    };
    let parity = format!("{} against {}", heat::words::count(words(Role::Advocate), "word"), words(Role::Skeptic));
    assert!(html.contains(&parity), "words per side equal the folded state: {parity}");
}

#[test]
fn the_demo_report_has_every_section_and_its_steering() {
    let loaded = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let state = DebateState::from_events(loaded.records.iter().map(|r| &r.event));
    let page = html(&loaded.header, &loaded.records);
    assert_sound(&page, &state);
    assert!(page.contains("id=\"synthesis\""), "the demo ends with a synthesis");
    // The demo injects, pins, releases and forces: each is in the steering table and on the chart.
    let steering = between(&page, "<table class=\"steering\">", "</table>");
    for what in ["injected a topic", "pinned the heat at", "released the heat", "forced a resolution"] {
        assert!(steering.contains(what), "{what} is listed");
    }
    let chart = between(&page, "id=\"heat-chart\"", "</figure>");
    for mark in ["inject", "pin", "force"] {
        assert!(chart.contains(mark), "{mark} is marked on the chart");
    }
    // The pinned round is drawn in the person's colour, the judge's in its own.
    let pinned = state.rounds.iter().filter(|r| r.pinned).count();
    assert!(pinned > 0, "the demo pins a round");
    let person_points =
        chart.split("<circle").skip(1).filter(|c| c[..c.find("/>").unwrap_or(0)].contains("fill=\"#D6336C\""));
    assert_eq!(person_points.count(), pinned);
    // How alike the sides are, per round, with what the number means.
    assert!(page.contains("<th class=\"num\">Alike</th>") && page.contains("share of content words"));
    // The demo's retry shows on its turn.
    assert!(page.contains("1 retry"), "the retried turn says so");
}

#[tokio::test(start_paused = true)]
async fn a_one_round_debate_reports_its_resolution() {
    let a = model([], Reply::text("Tabs let each reader choose a width."));
    let s = model([], Reply::text("Spaces look the same everywhere."));
    let j = model([verdict(true, 0.3, "Tabs beat spaces")], verdict(true, 0.3, "x"));
    let (header, records, state) = session(setup([&a, &s, &j]), spec(3), vec![]).await;
    let page = html(&header, &records);
    assert_sound(&page, &state);
    assert!(page.contains("resolved by the judge after 1 round"), "the outcome is in the header");
    assert!(page.contains("Closed the debate"), "the verdict closed it");
}

#[tokio::test(start_paused = true)]
async fn a_debate_at_its_round_limit_shows_each_question_change() {
    let a = model([], Reply::text("For."));
    let s = model([], Reply::text("Against."));
    let j = model(
        [
            verdict(false, 0.7, "Tabs beat spaces for reading"),
            verdict(false, 0.5, "Tabs beat spaces for writing"),
            verdict(true, 0.3, "end"),
        ],
        verdict(true, 0.3, "x"),
    );
    let (header, records, state) = session(setup([&a, &s, &j]), spec(3), vec![]).await;
    let page = html(&header, &records);
    assert_sound(&page, &state);
    assert!(page.contains("ended at the round limit after 3 rounds"));
    // Round 1's next question adds words to the proposition: marked as added, the kept words plain.
    let timeline = between(&page, "<ol class=\"timeline\">", "</ol>");
    assert!(timeline.contains("<ins class=\"added\">"), "{timeline}");
    assert!(timeline.contains("<del class=\"removed\">"), "round 2's question replaces words: {timeline}");
    assert!(timeline.contains("next heat 0.70") && timeline.contains("next heat 0.50"));
}

#[test]
fn a_rewritten_question_comes_whole_not_as_a_diff() {
    let parts = heat::report::model::diff("Remote work beats the office for teams", "Do juniors learn slower at home?");
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].class, "new");
    assert_eq!(parts[0].text, "Do juniors learn slower at home?");
    // A replaced word reads as the old, a space, the new.
    let parts = heat::report::model::diff("Tabs beat spaces for reading", "Tabs beat spaces for writing");
    let shown: Vec<(&str, &str)> = parts.iter().map(|p| (p.class, p.text.as_str())).collect();
    assert_eq!(shown, vec![("same", "Tabs beat spaces for "), ("removed", "reading "), ("added", "writing")]);
}

#[tokio::test(start_paused = true)]
async fn a_forced_and_pinned_debate_marks_the_person() {
    let gate = Arc::new(Semaphore::new(0));
    let a = model([Reply::gated("For ", &gate, "it.")], Reply::text("For."));
    let s = model([], Reply::text("Against."));
    let j = model([verdict(false, 0.4, "Next")], verdict(true, 0.3, "end"));
    let commands = vec![Command::PinTemperature(Heat::new(0.8)), Command::InjectTopic("What about diffs?".into())];
    let (header, records, state) = session_gated(setup([&a, &s, &j]), spec(2), commands, Some(&gate)).await;
    let page = html(&header, &records);
    assert_sound(&page, &state);
    let steering = between(&page, "<table class=\"steering\">", "</table>");
    assert!(steering.contains("pinned the heat at 0.80") && steering.contains("What about diffs?"), "{steering}");
    // Round 2 ran at the pinned heat, and the transcript says so in place.
    assert!(page.contains("Round 2 · heat 0.80 (pinned)"), "round 2 shows its pin");
    assert!(between(&page, "id=\"round-1\"", "</article>").contains("the person pinned the heat at 0.80"));

    let gate = Arc::new(Semaphore::new(0));
    let a = model([Reply::gated("For ", &gate, "it.")], Reply::text("For."));
    let s = model([], Reply::text("Against."));
    let j = model([verdict(true, 0.3, "end")], verdict(true, 0.3, "end"));
    let (header, records, state) =
        session_gated(setup([&a, &s, &j]), spec(5), vec![Command::ForceResolution], Some(&gate)).await;
    let page = html(&header, &records);
    assert_sound(&page, &state);
    assert!(page.contains("resolution forced after 1 round"));
    assert!(page.contains("forced a resolution"));
}

#[tokio::test(start_paused = true)]
async fn a_failed_debate_says_where_and_why() {
    let a = model([], Reply::text("For."));
    let s = model(
        [Reply::fail(ProviderError::Auth { status: 401, message: "invalid x-api-key".into() })],
        Reply::text("x"),
    );
    let j = model([], verdict(true, 0.3, "end"));
    let (header, records, state) = session(setup([&a, &s, &j]), spec(3), vec![]).await;
    let page = html(&header, &records);
    assert_sound(&page, &state);
    assert!(page.contains("failed in round 1"), "the header says where");
    assert!(page.contains("invalid x-api-key"), "and the turn says why");
    assert!(page.contains("No verdict"), "round 1 has no verdict");
}

#[test]
fn an_unfinished_or_running_debate_is_labelled() {
    let loaded = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let cut = loaded.records.len() / 2;
    let records = &loaded.records[..cut];
    let page = html(&loaded.header, records);
    assert!(page.contains("unfinished after"), "a stopped debate says it can go on");
    let live = Context { live: true, ..Context::default() };
    let page = report::html(&loaded.header, records, &live).expect("renders");
    assert!(page.contains("still running: this is what exists so far"));
    let skipped = Context { skipped: vec!["line 7 is not a valid event; it was skipped".into()], ..Context::default() };
    let page = report::html(&loaded.header, &loaded.records, &skipped).expect("renders");
    assert!(between(&page, "id=\"skipped\"", "</aside>").contains("line 7 is not a valid event"));
}

/// A debate whose every model-written field is `text`.
fn hostile_session(text: &str) -> (Header, Vec<Record>) {
    let mut written = Log::new(text, 2, 0.9).seats(&Role::DUEL, "openai", text).then(DebateEvent::RoundStarted {
        round: 0,
        topic: text.into(),
        heat: Heat::new(0.9),
        injected: vec![text.into()],
    });
    for role in Role::DEBATERS {
        written = written.starts(0, role, TurnPurpose::Argue).completes(0, role, text);
    }
    let mut events = written
        .injects(text)
        .starts_at(0, Role::Judge, TurnPurpose::Judge, None)
        .completes(0, Role::Judge, text)
        .into_events();
    let verdict = Verdict {
        resolved: false,
        verdict: text.into(),
        topic: format!("{text} next"),
        heat: Heat::new(0.5),
        ..Verdict::default()
    };
    events.push(DebateEvent::VerdictReached { round: 0, verdict });
    events.push(DebateEvent::Notice { message: text.into() });
    events.push(DebateEvent::Finished {
        outcome: heat::debate::Outcome::Failed(text.into()),
        synthesis: Some(text.into()),
    });
    let records = events.into_iter().map(|event| Record { ms: 10, event }).collect();
    (Header { heat_session: log::FORMAT_VERSION, id: "20261124-120000-hostile".into(), created_ms: 0 }, records)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Markup, script, attribute breakouts and terminal escapes in anything a
    /// model (or a person) wrote come out as text.
    #[test]
    fn model_text_comes_out_inert(
        before in "[a-z ]{0,12}",
        payload in prop::sample::select(vec![
            "<script>alert(1)</script>",
            "</div><img src=x onerror=alert(1)>",
            "\" onmouseover=\"alert(1)",
            "<svg onload=alert(1)>",
            "<a href=\"https://evil.example/\">x</a>",
            "\u{1b}]8;;https://evil.example/\u{7}link\u{1b}]8;;\u{7}",
            "\u{1b}[2J\u{1b}[31mred\u{9b}0m",
            "<style>body{display:none}</style>",
            "&lt;already&gt; & <!-- -->",
        ]),
        after in "[a-z ]{0,12}",
    ) {
        let text = format!("{before}{payload}{after}");
        let (header, records) = hostile_session(&text);
        let page = html(&header, &records);
        let lower = page.to_lowercase();
        prop_assert!(!lower.contains("<script"));
        prop_assert!(!lower.contains("<img"));
        prop_assert!(!lower.contains("<a href=\"https"));
        prop_assert!(!lower.contains("<svg onload"));
        // No tag of the page carries a handler: model text never lands inside one.
        for tag in lower.split('<').skip(1).map(|rest| &rest[..rest.find('>').unwrap_or(rest.len())]) {
            prop_assert!(!tag.contains("onmouseover") && !tag.contains("onerror") && !tag.contains("onload"), "<{}>", tag);
        }
        prop_assert_eq!(lower.matches("<style").count(), 1, "only the page's own style");
        prop_assert!(!page.chars().any(|c| c == '\u{1b}' || c == '\u{9b}' || c == '\u{7}'), "no escape or control character");
        prop_assert!(!page.contains("evil.example/\">"));
    }
}

#[test]
fn a_document_debate_lists_its_evidence() {
    use heat::debate::grounding::{Cited, Mark, QuoteCheck, Source};
    let source =
        Source::from_bytes("design.md".into(), b"# Queue\nJobs are lost when a node restarts.\n").expect("a source");
    let (header, mut records) = hostile_session("An argument.");
    records
        .insert(1, Record { ms: 0, event: DebateEvent::Grounded { date: None, source: Some(source), library: None } });
    let checks = vec![
        QuoteCheck {
            cited: Cited::Lines { start: 2, end: 2 },
            mark: Mark::Verified,
            lines: Some((2, 2)),
            from: None,
            file: None,
            library: false,
        },
        QuoteCheck {
            cited: Cited::Quote { text: "the queue never loses a job".into() },
            mark: Mark::Unverified,
            lines: None,
            from: None,
            file: None,
            library: false,
        },
    ];
    let at = records.iter().position(|r| matches!(r.event, DebateEvent::TopicInjected { .. })).expect("a steer");
    records.insert(at, Record { ms: 10, event: DebateEvent::QuotesChecked { round: 0, role: Role::Advocate, checks } });
    let page = html(&header, &records);
    assert!(page.contains("design.md (2 lines, sha256 "), "the header names the source");
    let evidence = between(&page, "id=\"evidence\"", "</section>");
    assert!(evidence.contains("[L2]") && evidence.contains("in the source, L2"), "{evidence}");
    assert!(evidence.contains("the queue never loses a job") && evidence.contains("not in the source"), "{evidence}");
    assert_eq!(evidence.matches("<tr>").count(), 3, "a header and one row a check: {evidence}");
}

#[tokio::test(start_paused = true)]
async fn the_persons_verdict_ends_the_debate_and_stands_beside_the_judges() {
    let gate = Arc::new(Semaphore::new(0));
    let a = model([Reply::gated("For ", &gate, "it.")], Reply::text("For."));
    let s = model([], Reply::text("Against."));
    let j = model([verdict(true, 0.3, "end")], verdict(true, 0.3, "end"));
    let verdict =
        Command::HumanVerdict { ahead: Some(Role::Advocate), confidence: 80, note: "<b>clear</b>".into(), ends: true };
    let (header, records, state) = session_gated(setup([&a, &s, &j]), spec(5), vec![verdict], Some(&gate)).await;
    // The person's resolution: the round finished, the judge summed up, the outcome says forced.
    assert_eq!(state.finish.as_ref().map(|f| f.outcome.clone()), Some(heat::debate::Outcome::Forced));
    assert_eq!(state.human.len(), 1);
    assert!(state.human[0].ends && state.human[0].round == 1);
    let page = html(&header, &records);
    assert_sound(&page, &state);
    let human = between(&page, "id=\"human\"", "</section>");
    assert!(human.contains("advocate ahead, 80% sure (ended the debate)"), "{human}");
    assert!(human.contains("&#60;b&#62;clear&#60;/b&#62;"), "the note is text: {human}");
    let md = heat::report::export::render(heat::report::export::ExportKind::Md, &header, &records);
    assert!(
        md.contains("## Your verdicts\n\n- Round 1: advocate ahead, 80% sure (ended the debate): <b>clear</b>"),
        "{md}"
    );
}

#[test]
fn the_verdicts_show_who_is_ahead_the_swap_badge_and_the_persons_agreement() {
    use heat::debate::verdict::{Ahead, Conceded};
    let mut events = Log::new("T", 3, 0.9).seats(&Role::DUEL, "openai", "m").into_events();
    let judged = [(Some(Ahead::Skeptic), true, Some(Role::Skeptic)), (Some(Ahead::Advocate), false, None)];
    for (round, (ahead, flips, person)) in (0u32..).zip(judged) {
        events.push(DebateEvent::RoundStarted { round, topic: "T".into(), heat: Heat::new(0.7), injected: vec![] });
        events.push(DebateEvent::TurnStarted {
            round,
            role: Role::Judge,
            purpose: TurnPurpose::Judge,
            temperature: None,
        });
        events.push(DebateEvent::TurnCompleted {
            round,
            role: Role::Judge,
            text: "{}".into(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
        let verdict =
            Verdict { verdict: "Open.".into(), ahead, conceded: Some(Conceded::Advocate), ..Verdict::default() };
        events.push(DebateEvent::VerdictReached { round, verdict });
        let swapped = Verdict { ahead: Some(Ahead::Even), ..Verdict::default() };
        events.push(DebateEvent::SwapChecked { round, verdict: swapped, flips, usage: None });
        events.push(DebateEvent::HumanVerdict {
            round,
            ahead: person,
            confidence: 60,
            note: String::new(),
            ends: false,
        });
    }
    let records: Vec<Record> =
        events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64, event }).collect();
    let header = Header { heat_session: 1, id: "20261124-180000-abcd".into(), created_ms: 0 };
    let page = html(&header, &records);
    let verdicts = between(&page, "id=\"verdicts\"", "</section>");
    assert!(verdicts.contains("skeptic ahead · ⚑ advocate conceded a point"), "{verdicts}");
    assert_eq!(verdicts.matches("⇄ verdict flips on swap").count(), 1, "round 1 alone flipped: {verdicts}");
    let human = between(&page, "id=\"human\"", "</section>");
    assert!(human.contains("The person and the judge agree in 1 of 2 rounds."), "{human}");
    assert!(human.contains("<td>agree</td>") && human.contains("<td>disagree</td>"), "{human}");
    assert!(!human.contains("not scored"), "agreement is computed now: {human}");
}

/// The report's tokens-and-cost table: each seat's calls and tokens, a cost
/// only where its seat has a price, then each round's.
#[test]
fn the_report_splits_tokens_and_cost_by_seat_and_round() {
    let loaded = log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo loads");
    let price = heat::debate::cost::Price { input: 1.0, output: 4.0, cached_input: None };
    let prices = heat::debate::cost::Prices { seats: vec![(Role::Advocate, price)], judges: Vec::new() };
    let page = report::html(&loaded.header, &loaded.records, &Context { prices, ..Context::default() }).unwrap();
    let table = between(&page, "<th>Tokens and cost</th>", "</table>");
    let row = |who: &str| between(table, &format!("<tr><td>{who}</td>"), "</tr>").to_string();
    assert!(row("Advocate").contains('$'), "priced: {}", row("Advocate"));
    assert!(row("Skeptic").contains("no price in heat.toml"), "{}", row("Skeptic"));
    assert!(row("Round 1").contains("no price in heat.toml"), "a round with an unpriced call: {}", row("Round 1"));
    assert!(table.contains("<td>Round 4</td>"), "{table}");
}
