//! The HTML report's cost: the bundled demo (goal ≤ 10 ms) and a 30-round
//! session of 200,000 words (goal ≤ 150 ms), with the page's size against
//! the transcript's (goal ≤ 1.3 × the transcript's bytes + 100 KB), printed
//! once before timing.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::Heat;
use heat::debate::{DebateEvent, Participant, Role, TurnPurpose, Verdict};
use heat::report::{self, Context};
use heat::store::log::{self, Header, Record};

const WORDS: [&str; 12] =
    ["remote", "teams", "ship", "faster", "when", "focus", "time", "is", "protected", "but", "mentoring", "suffers"];

/// A debate of `rounds` rounds whose arguments total about `words` words.
fn big_session(rounds: u32, words: usize) -> (Header, Vec<Record>, usize) {
    let mut rng = fastrand::Rng::with_seed(3);
    let per_turn = words / (rounds as usize * 2);
    let participants = Role::ALL.iter().map(|role| Participant::new(*role, "openai", "gpt-4.1-mini")).collect();
    let topic = "Remote work beats the office for software teams".to_string();
    let mut events = vec![DebateEvent::Started {
        topic: topic.clone(),
        max_rounds: rounds,
        initial_heat: Heat::new(0.9),
        participants,
    }];
    let mut transcript = 0;
    for round in 0..rounds {
        events.push(DebateEvent::RoundStarted { round, topic: topic.clone(), heat: Heat::new(0.7), injected: vec![] });
        for role in Role::DEBATERS {
            let text: Vec<&str> = (0..per_turn).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
            let text = text.join(" ");
            transcript += text.len();
            events.push(DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(0.7) });
            events.push(DebateEvent::TurnCompleted {
                round,
                role,
                text,
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            });
        }
        events.push(DebateEvent::TurnStarted {
            round,
            role: Role::Judge,
            purpose: TurnPurpose::Judge,
            temperature: None,
        });
        let verdict = Verdict {
            resolved: false,
            verdict: "Both held.".into(),
            topic: topic.clone(),
            heat: Heat::new(0.6),
            ..Verdict::default()
        };
        let text = serde_json::to_string(&verdict).unwrap_or_default();
        transcript += text.len();
        events.push(DebateEvent::TurnCompleted {
            round,
            role: Role::Judge,
            text,
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
        events.push(DebateEvent::VerdictReached { round, verdict });
    }
    let records = events.into_iter().enumerate().map(|(i, event)| Record { ms: i as u64 * 500, event }).collect();
    (Header { heat_session: log::FORMAT_VERSION, id: "bench".into(), created_ms: 0 }, records, transcript)
}

fn bench(c: &mut Criterion) {
    let demo = log::parse(include_bytes!("../assets/demo-session.jsonl")).expect("the demo loads");
    let context = Context::default();
    c.bench_function("report of the demo", |b| {
        b.iter(|| report::html(black_box(&demo.header), black_box(&demo.records), &context));
    });
    let (header, records, transcript) = big_session(30, 200_000);
    let page = report::html(&header, &records, &context).expect("renders");
    println!(
        "30 rounds, 200k words: transcript {} KB, page {} KB ({:.2}× + {} KB allowed: {} KB)",
        transcript / 1024,
        page.len() / 1024,
        page.len() as f64 / transcript as f64,
        100,
        (transcript as f64 * 1.3) as usize / 1024 + 100
    );
    c.bench_function("report of 30 rounds, 200k words", |b| {
        b.iter(|| report::html(black_box(&header), black_box(&records), &context));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
