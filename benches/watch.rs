//! `heat watch`'s latency: from a writer's append of a token delta to a
//! follower (file notifications, the 500 ms poll behind them) reading it,
//! over a 3,000 tokens/s delta stream. Criterion reports the mean per
//! delta; p50 and p99 over every delta streamed are printed at the end.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::Heat;
use heat::debate::{DebateEvent, Participant, Role, TurnPurpose};
use heat::store::Store;
use heat::store::follow::Follower;
use heat::store::watch::{Followed, Watch};

/// 3,000 tokens a second.
const TOKEN_GAP: Duration = Duration::from_micros(333);

fn opening() -> Vec<DebateEvent> {
    let participants = Role::ALL.iter().map(|&role| Participant::new(role, "p", "m")).collect();
    vec![
        DebateEvent::Started { topic: "Bench".into(), max_rounds: 4, initial_heat: Heat::new(0.9), participants },
        DebateEvent::RoundStarted { round: 0, topic: "Bench".into(), heat: Heat::new(0.9), injected: vec![] },
        DebateEvent::TurnStarted { round: 0, role: Role::Advocate, purpose: TurnPurpose::Argue, temperature: None },
    ]
}

/// Streams `count` deltas into a fresh session at 3,000 tokens/s while a
/// watch follows it; each delta's append-to-read latency.
fn stream(runtime: &tokio::runtime::Runtime, count: usize) -> Vec<Duration> {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let mut writer = store.create().expect("session");
    for event in opening() {
        writer.record(&event);
    }
    let loaded = store.load(writer.id()).expect("load");
    let path = writer.path().to_path_buf();
    let follower = Follower::at(&path, loaded.valid_len()).expect("follower");
    let appended: Arc<Mutex<Vec<Instant>>> = Arc::new(Mutex::new(Vec::with_capacity(count)));
    let stamps = Arc::clone(&appended);
    runtime.block_on(async move {
        let mut watch = Watch::start(&path, follower);
        let writing = std::thread::spawn(move || {
            let start = Instant::now();
            for n in 0..count {
                let due = start + TOKEN_GAP * u32::try_from(n).unwrap_or(u32::MAX);
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                stamps.lock().expect("stamps").push(Instant::now());
                writer.record(&DebateEvent::Delta { round: 0, role: Role::Advocate, text: format!("{n} ") });
            }
            let text = String::new();
            writer.record(&DebateEvent::TurnCompleted {
                round: 0,
                role: Role::Advocate,
                text,
                usage: None,
                truncated_at: None,
                possibly_cut: false,
            });
            writer
        });
        let mut latencies = Vec::with_capacity(count);
        while latencies.len() < count {
            let Some(Followed::Records(records)) = watch.rx.recv().await else { panic!("the watch stopped") };
            let seen = Instant::now();
            let stamps = appended.lock().expect("stamps");
            for record in records {
                if let DebateEvent::Delta { text, .. } = record.event {
                    let n: usize = text.trim().parse().expect("a numbered delta");
                    latencies.push(seen.saturating_duration_since(stamps[n]));
                }
            }
        }
        drop(writing.join().expect("the writer"));
        latencies
    })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("runtime");
    let all = Arc::new(Mutex::new(Vec::new()));
    let mut group = c.benchmark_group("watch");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    group.bench_function("append_to_seen_3000_tok_s", |b| {
        b.iter_custom(|iters| {
            // At least a second of stream per sample: the flush rule works over 50 ms.
            let latencies = stream(&runtime, usize::try_from(iters).unwrap_or(usize::MAX).max(3_000));
            let total: Duration = latencies.iter().sum();
            let per_delta = total / u32::try_from(latencies.len()).unwrap_or(u32::MAX);
            all.lock().expect("all").extend(latencies);
            per_delta * u32::try_from(iters).unwrap_or(u32::MAX)
        });
    });
    group.finish();
    let mut sorted = all.lock().expect("all").clone();
    sorted.sort();
    if !sorted.is_empty() {
        println!(
            "watch/append_to_seen_3000_tok_s over {} deltas: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            sorted.len(),
            percentile(&sorted, 0.50).as_secs_f64() * 1e3,
            percentile(&sorted, 0.99).as_secs_f64() * 1e3,
            sorted[sorted.len() - 1].as_secs_f64() * 1e3
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
