//! Engine overhead: a round against instant scripted models, a round whose
//! debaters each take 100 ms (must cost ~100 ms, not 200: they run in
//! parallel), and a round judged by a panel of three that each take 50 ms
//! after two 100 ms debaters (must cost ~150 ms: the judges run at once),
//! and rounds of four and six free debaters (each 100 ms, all at once),
//! four of them judged by one judge or by a panel of three (each 50 ms).

// The tests' one builder of an `EngineSetup`; the bench uses only part of it.
#[allow(dead_code)]
#[path = "../tests/it/engine_support/builder.rs"]
mod builder;

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::Heat;
use heat::debate::engine::{self, DebateSpec, EngineSetup, Grounding, RoleSetup};
use heat::debate::format::FormatRecord;
use heat::format::{Format, Origin};
use heat::provider::ChatModel;
use heat::provider::scripted::{Reply, ScriptedModel};

const VERDICT: &str = r#"{"resolved": true, "verdict": "Settled: the claims held up.", "topic": "t", "heat": 0.3}"#;

fn role(reply: Reply) -> RoleSetup {
    let model: Arc<dyn ChatModel> = Arc::new(ScriptedModel::new([], reply));
    RoleSetup::new(model, "bench", 512)
}

fn setup(debater: &Reply) -> EngineSetup {
    builder::duel(role(debater.clone()), role(debater.clone()), role(Reply::text(VERDICT))).build()
}

/// A panel of three judges that each answer after `judge`.
fn panel_setup(debater: &Reply, judge: Duration) -> (EngineSetup, FormatRecord) {
    let mut setup = setup(debater);
    setup.roles[2] = role(Reply::after(judge, VERDICT));
    let format = FormatRecord {
        name: "bench".into(),
        labels: ["Proposition", "Opposition", "Chair"].map(String::from).to_vec(),
        debaters: 2,
        sides: Vec::new(),
        convergence: None,
        opening_arguments: 1,
        resolve_early: true,
        phases: Vec::new(),
        briefs: None,
        scores: false,
        judges: 3,
        panel_models: Vec::new(),
        panel_providers: Vec::new(),
        issues: false,
        map: None,
        sections: Vec::new(),
    };
    (setup, format)
}

/// `n` free debaters that each answer after 100 ms, and `judges` judges
/// that each answer after the given time (none: a vote, ended after its
/// one round).
fn free_setup(n: usize, argument: &str, judges: Option<(u32, Duration)>) -> (EngineSetup, FormatRecord) {
    let debater = Reply::after(Duration::from_millis(100), &format!("{argument}\nFinal answer: four days"));
    let debaters: Vec<RoleSetup> = (0..n).map(|_| role(debater.clone())).collect();
    let judge_setup = role(Reply::after(judges.map(|(_, after)| after).unwrap_or_default(), VERDICT));
    let seats = "[[seats]]\nid = \"dN\"\nside = \"free\"\nbrief = \"debater.md\"\n\n";
    let seats: String = (0..n).map(|i| seats.replace('N', &i.to_string())).collect();
    let judges = match judges {
        Some((count, _)) => format!("count = {count}\nbrief = \"panel_judge.md\""),
        None => "count = 0".into(),
    };
    let file = format!("summary = \"bench\"\nmax_rounds = 1\n{seats}[judges]\n{judges}\n");
    let format = Format::parse("bench", &file, &Origin::BuiltIn).expect("the bench's format parses").record;
    let setup = builder::setup(&debaters, &judge_setup).build();
    (setup, format)
}

/// One resolved round, start to finish, every event read.
async fn one_round(setup: EngineSetup) {
    one_round_in(setup, None).await;
}

async fn one_round_in(setup: EngineSetup, format: Option<FormatRecord>) {
    let spec = DebateSpec {
        topic: "Benchmarks beat guesses".into(),
        max_rounds: 3,
        initial_heat: Heat::new(0.9),
        grounding: Grounding::default(),
        format,
    };
    let mut handle = engine::start(setup, spec);
    while handle.next_event().await.is_some() {}
    handle.join().await;
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    // ~60 words per argument, streamed word by word: realistic event counts.
    let argument = "This argument has a claim, a reason and an example. ".repeat(6);
    c.bench_function("round/instant_models", |b| {
        b.to_async(&rt).iter(|| one_round(setup(&Reply::text(&argument))));
    });
    let mut group = c.benchmark_group("round");
    group.sample_size(20);
    group.bench_function("debaters_100ms_each", |b| {
        b.to_async(&rt).iter(|| one_round(setup(&Reply::after(Duration::from_millis(100), &argument))));
    });
    group.bench_function("debaters_100ms_panel_of_3_judges_50ms", |b| {
        b.to_async(&rt).iter(|| {
            let (setup, format) =
                panel_setup(&Reply::after(Duration::from_millis(100), &argument), Duration::from_millis(50));
            one_round_in(setup, Some(format))
        });
    });
    group.bench_function("four_free_debaters_100ms_judge_50ms", |b| {
        b.to_async(&rt).iter(|| {
            let (setup, format) = free_setup(4, &argument, Some((1, Duration::from_millis(50))));
            one_round_in(setup, Some(format))
        });
    });
    group.bench_function("four_free_debaters_100ms_panel_of_3_judges_50ms", |b| {
        b.to_async(&rt).iter(|| {
            let (setup, format) = free_setup(4, &argument, Some((3, Duration::from_millis(50))));
            one_round_in(setup, Some(format))
        });
    });
    group.bench_function("six_free_debaters_100ms_no_judge", |b| {
        b.to_async(&rt).iter(|| {
            let (setup, format) = free_setup(6, &argument, None);
            one_round_in(setup, Some(format))
        });
    });
    group.finish();

    for (what, n, judge, goal) in [
        ("four 100 ms free debaters and a 50 ms judge", 4, Some((1, Duration::from_millis(50))), 0.15),
        ("four 100 ms free debaters and a panel of three 50 ms judges", 4, Some((3, Duration::from_millis(50))), 0.15),
        ("six 100 ms free debaters and no judge", 6, None, 0.1),
    ] {
        let start = Instant::now();
        for _ in 0..10 {
            let (setup, format) = free_setup(n, &argument, judge);
            rt.block_on(one_round_in(setup, Some(format)));
        }
        let per_round = start.elapsed() / 10;
        println!("round with {what}: {per_round:?} = {:.3} x {:.0} ms", per_round.as_secs_f64() / goal, goal * 1000.0);
    }

    // Also print the ratios the goals are stated in.
    let start = Instant::now();
    for _ in 0..10 {
        let (setup, format) =
            panel_setup(&Reply::after(Duration::from_millis(100), &argument), Duration::from_millis(50));
        rt.block_on(one_round_in(setup, Some(format)));
    }
    let per_round = start.elapsed() / 10;
    println!(
        "round with two 100 ms debaters and a panel of three 50 ms judges: {per_round:?} = {:.3} x (100 + 50) ms",
        per_round.as_secs_f64() / 0.15
    );
    let runs = 10;
    let start = Instant::now();
    for _ in 0..runs {
        rt.block_on(one_round(setup(&Reply::after(Duration::from_millis(100), &argument))));
    }
    let per_round = start.elapsed() / runs;
    println!(
        "round with two 100 ms debaters: {per_round:?} = {:.3} x the slower debater",
        per_round.as_secs_f64() / 0.1
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
