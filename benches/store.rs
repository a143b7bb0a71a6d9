//! Session store costs: appending an event (no fsync), loading and folding a
//! 100,000-event log, and listing 1,000 sessions from the index.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::{DebateEvent, DebateState, Participant, Role, TurnPurpose};
use heat::store::Store;
use heat::store::index::{self, IndexEntry};

/// A realistic mix: per round, two debaters' token deltas, completions and a verdict.
fn events(count: usize) -> Vec<DebateEvent> {
    let participants = Role::ALL
        .iter()
        .map(|&role| Participant { role, provider: "p".into(), model: "m".into(), served: None })
        .collect();
    let mut out =
        vec![DebateEvent::Started { topic: "Bench".into(), max_rounds: 1000, initial_heat: 0.9, participants }];
    let mut round = 0;
    while out.len() < count {
        out.push(DebateEvent::RoundStarted { round, topic: "Bench".into(), heat: 0.8, injected: vec![] });
        for role in Role::DEBATERS {
            out.push(DebateEvent::TurnStarted { round, role, purpose: TurnPurpose::Argue, temperature: Some(0.8) });
            for _ in 0..200 {
                out.push(DebateEvent::Delta { round, role, text: "token ".into() });
            }
            out.push(DebateEvent::TurnCompleted {
                round,
                role,
                text: "token ".repeat(200),
                usage: None,
                truncated_at: None,
            });
        }
        round += 1;
    }
    out.truncate(count);
    out
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");

    let mut recorder = store.create().expect("session");
    let delta = DebateEvent::Delta { round: 0, role: Role::Advocate, text: "token ".into() };
    c.bench_function("store/append_delta", |b| b.iter(|| recorder.record(black_box(&delta))));

    let mut big = store.create().expect("session");
    let id = big.id().to_string();
    for e in events(100_000) {
        big.record(&e);
    }
    drop(big);
    let mut group = c.benchmark_group("store");
    group.sample_size(10);
    group.bench_function("load_and_fold_100k", |b| {
        b.iter(|| {
            let loaded = store.load(&id).expect("load");
            DebateState::from_events(loaded.records.iter().map(|r| &r.event))
        });
    });

    let entries: Vec<IndexEntry> = (0..1000)
        .map(|i| IndexEntry {
            id: format!("20261122-{i:06}-beef"),
            topic: format!("Proposition number {i} about something worth arguing"),
            created_ms: 1_795_000_000_000 + i,
            updated_ms: 1_795_000_000_000 + i,
            rounds: 3,
            outcome: Some("resolved by the judge".into()),
            models: vec!["advocate: p/m".into(), "skeptic: p/m".into(), "judge: p/m".into()],
            rematch_of: None,
        })
        .collect();
    let list_dir = tempfile::tempdir().expect("tempdir");
    let list_store = Store::open(list_dir.path()).expect("store");
    index::write(list_store.dir(), &entries).expect("index");
    group.bench_function("list_1000_sessions", |b| b.iter(|| black_box(list_store.list())));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
