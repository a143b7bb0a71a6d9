//! Session store costs: appending an event (no fsync), loading and folding a
//! 100,000-event log, branching it after a middle round (read, find the
//! round's end, start the branch), and listing 1,000 sessions from the index.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::Heat;
use heat::debate::{BranchChanges, DebateEvent, DebateState, Participant, Role, TurnPurpose, Verdict};
use heat::store::index::{self, IndexEntry};
use heat::store::{Store, branch};

/// A realistic mix: per round, two debaters' token deltas, completions and a verdict.
fn events(count: usize) -> Vec<DebateEvent> {
    let participants = Role::ALL.iter().map(|&role| Participant::new(role, "p", "m")).collect();
    let mut out = vec![DebateEvent::Started {
        topic: "Bench".into(),
        max_rounds: 1000,
        initial_heat: Heat::new(0.9),
        participants,
    }];
    let mut round = 0;
    while out.len() < count {
        out.push(DebateEvent::RoundStarted { round, topic: "Bench".into(), heat: Heat::new(0.8), injected: vec![] });
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
                possibly_cut: false,
            });
        }
        out.push(DebateEvent::TurnStarted { round, role: Role::Judge, purpose: TurnPurpose::Judge, temperature: None });
        let verdict = Verdict {
            resolved: false,
            verdict: "Open.".into(),
            topic: "Bench".into(),
            heat: Heat::new(0.7),
            ..Verdict::default()
        };
        out.push(DebateEvent::TurnCompleted {
            round,
            role: Role::Judge,
            text: serde_json::to_string(&verdict).expect("json"),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        });
        out.push(DebateEvent::VerdictReached { round, verdict });
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

    // A branch after round 100 of the 100,000-event log (about 245 rounds).
    let mut branch_bytes = 0;
    group.bench_function("branch_100k_at_round_100", |b| {
        b.iter(|| {
            let loaded = store.read_before_round(&id, 100).expect("reads");
            let (end, state) = branch::round_end(&id, &loaded.records, 100).expect("round 100 finished");
            let shared = &loaded.records[..end];
            let branched = DebateEvent::Branched {
                from: id.clone(),
                round: 100,
                records: end as u64,
                how: "heat 0.50".into(),
                participants: state.participants.clone(),
                changes: BranchChanges { heat: Some(Heat::new(0.5)), ..BranchChanges::default() },
            };
            let recorder = store.create_branch(shared, state, &branched).expect("branch");
            branch_bytes = std::fs::metadata(recorder.path()).map_or(0, |m| m.len());
            recorder.discard().expect("removed");
        });
    });
    eprintln!("store/branch_100k_at_round_100: the branch's log starts at {branch_bytes} bytes");

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
            branch_of: None,
            branch_round: None,
            format: None,
            ..IndexEntry::default()
        })
        .collect();
    let list_dir = tempfile::tempdir().expect("tempdir");
    let list_store = Store::open(list_dir.path()).expect("store");
    index::write(list_store.dir(), &entries).expect("index");
    // Each entry's log is in the folder, as it is in a real store: a listing checks the index against it.
    for entry in &entries {
        std::fs::write(list_store.dir().join(format!("{}.jsonl", entry.id)), b"").expect("log");
    }
    group.bench_function("list_1000_sessions", |b| b.iter(|| black_box(list_store.list())));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
