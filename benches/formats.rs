//! What formats cost: reading the catalog at every start (the built-in
//! formats, and with 20 user format files beside heat.toml), and the
//! scores' tug-of-war folded over a 200-round scored debate (computed on
//! every frame the header draws).

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::scores::Scores;
use heat::debate::verdict::Verdict;
use heat::debate::{DebateEvent, DebateState, Heat, Participant, Role, TurnPurpose};
use heat::format::Catalog;

fn scored_debate(rounds: u32) -> DebateState {
    let participants = Role::ALL.iter().map(|&role| Participant::new(role, "p", "m")).collect();
    let oxford = Catalog::load(None).find("oxford").ok().and_then(heat::format::Format::log_record);
    let mut events = vec![
        DebateEvent::Started {
            topic: "Bench".into(),
            max_rounds: rounds + 1,
            initial_heat: Heat::new(0.9),
            participants,
        },
        DebateEvent::Formatted { format: Box::new(oxford.unwrap_or_else(|| panic!("oxford is built in"))) },
    ];
    for round in 0..rounds {
        events.push(DebateEvent::RoundStarted { round, topic: "t".into(), heat: Heat::new(0.9), injected: vec![] });
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
        let scores = Some(Scores { advocate: vec![2, 1, -1], skeptic: vec![1, 0, 3] });
        let verdict = Verdict {
            verdict: format!("round {round}"),
            topic: "t".into(),
            scores: scores.map(Box::new),
            ..Verdict::default()
        };
        events.push(DebateEvent::VerdictReached { round, verdict });
    }
    DebateState::from_events(&events)
}

fn bench(c: &mut Criterion) {
    c.bench_function("formats/catalog_built_in", |b| b.iter(|| Catalog::load(None).formats.len()));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for n in 0..20 {
        let text =
            include_str!("../assets/formats/oxford.toml").replace("max_rounds = 3", &format!("max_rounds = {}", n + 1));
        std::fs::write(dir.path().join(format!("house{n}.toml")), text).unwrap_or_else(|e| panic!("{e}"));
    }
    c.bench_function("formats/catalog_20_user_files", |b| b.iter(|| Catalog::load(Some(dir.path())).formats.len()));
    let state = scored_debate(200);
    assert_eq!(heat::debate::scores::tug(&state), -400, "each round: +2 for the side for, +4 for the side against");
    c.bench_function("formats/tug_200_scored_rounds", |b| b.iter(|| heat::debate::scores::tug(&state)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
