//! A library's costs: opening one of 1,000 files (50 MB: walking, reading,
//! hashing, cutting into passages, indexing), and opening it again
//! unchanged from its kept index; one search; and the retrieval a debater's turn waits for
//! (the round's question and the other side's 300-word argument as the
//! query, passages chosen within the budget).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use heat::debate::grounding::reading;
use heat::debate::{DebateEvent, DebateState, Heat, Role, TurnPurpose};
use heat::library::Library;

/// 1,000 files of about 50 KB: Markdown sections of prose drawn from a
/// vocabulary of 20,000 words, common words far more often than rare ones.
fn write_corpus(dir: &Path) {
    let vocabulary: Vec<String> = (0..20_000).map(word).collect();
    let mut rng = fastrand::Rng::with_seed(11);
    for file in 0..1_000 {
        let mut text = String::with_capacity(52_000);
        let mut section = 0;
        while text.len() < 50_000 {
            text.push_str(&format!("## Section {section} of file {file}\n"));
            section += 1;
            for _ in 0..12 {
                let line: Vec<&str> = (0..12).map(|_| vocabulary[zipf(&mut rng)].as_str()).collect();
                text.push_str(&line.join(" "));
                text.push('\n');
            }
            text.push('\n');
        }
        let folder = dir.join(format!("part{}", file / 100));
        std::fs::create_dir_all(&folder).expect("folder");
        std::fs::write(folder.join(format!("note{file}.md")), text).expect("file");
    }
}

/// A made-up word for rank `n`: short for common ranks, longer for rare.
fn word(n: usize) -> String {
    const SYLLABLES: [&str; 16] =
        ["ka", "lo", "mi", "ru", "te", "sa", "no", "vi", "de", "po", "qu", "ban", "tor", "lem", "fi", "gu"];
    let mut out = String::new();
    let mut n = n + 1;
    while n > 0 {
        out.push_str(SYLLABLES[n % 16]);
        n /= 16;
    }
    out
}

/// A rank drawn roughly as Zipf's law has it.
fn zipf(rng: &mut fastrand::Rng) -> usize {
    let x = rng.f64();
    ((20_000f64).powf(x) - 1.0) as usize
}

/// A debate in round 2, the skeptic's round 1 argument given.
fn state(argument: &str) -> DebateState {
    let events = [
        DebateEvent::Started {
            topic: "kalo mite rusa".into(),
            max_rounds: 3,
            initial_heat: Heat::new(0.9),
            participants: Vec::new(),
        },
        DebateEvent::RoundStarted {
            round: 0,
            topic: "kalo mite rusa".into(),
            heat: Heat::new(0.9),
            injected: Vec::new(),
        },
        DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, purpose: TurnPurpose::Argue, temperature: None },
        DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Skeptic,
            text: argument.into(),
            usage: None,
            truncated_at: None,
            possibly_cut: false,
        },
        DebateEvent::RoundStarted {
            round: 1,
            topic: "Does tevi sano hold for banlo?".into(),
            heat: Heat::new(0.7),
            injected: Vec::new(),
        },
    ];
    DebateState::from_events(&events)
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("dir");
    write_corpus(dir.path());
    let roots = [dir.path().display().to_string()];
    let library = Library::open(&roots).expect("library");
    eprintln!("library: {}", library.summary());

    let kept = tempfile::tempdir().expect("kept dir");
    let started = std::time::Instant::now();
    Library::open_kept(&roots, Some(kept.path())).expect("first open, kept");
    eprintln!("first open, its index kept: {:.2} s", started.elapsed().as_secs_f64());
    let mut group = c.benchmark_group("library");
    group.sample_size(10);
    group.bench_function("open_1000_files_50mb", |b| b.iter(|| black_box(Library::open(&roots).expect("library"))));
    group.bench_function("reopen_unchanged_from_kept_index", |b| {
        b.iter(|| black_box(Library::open_kept(&roots, Some(kept.path())).expect("library")));
    });
    group.finish();

    c.bench_function("library/search", |b| {
        b.iter(|| black_box(library.search(black_box("tevi sano banlo rusa lemka"), 40)));
    });

    let mut rng = fastrand::Rng::with_seed(3);
    let vocabulary: Vec<String> = (0..20_000).map(word).collect();
    let argument: Vec<&str> = (0..300).map(|_| vocabulary[zipf(&mut rng)].as_str()).collect();
    let state = state(&argument.join(" "));
    c.bench_function("library/retrieve_for_a_turn", |b| {
        b.iter(|| black_box(reading::retrieve(&state, &library, 1, Role::Advocate, 1_600)));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
