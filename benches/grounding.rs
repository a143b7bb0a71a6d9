//! Grounding costs: checking every quote of a 1,000-word turn against a
//! 5,000-line source (goal ≤ 1 ms, index built once), indexing sources of
//! growing size (it should grow linearly), and what a 100-page source adds
//! to the start of a debate (reading, hashing, numbering, indexing; goal
//! ≤ 20 ms).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use heat::debate::grounding::{self, Source, SourceIndex};

const WORDS: [&str; 16] = [
    "queue",
    "postgres",
    "redis",
    "loses",
    "jobs",
    "when",
    "a",
    "node",
    "restarts",
    "during",
    "deploy",
    "commit",
    "transactions",
    "throughput",
    "stays",
    "above",
];

/// `lines` lines of 10 pseudo-random words.
fn source_text(lines: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut text = String::new();
    for n in 0..lines {
        if n % 50 == 0 {
            text.push_str(&format!("## Section {}\n", n / 50));
        }
        let line: Vec<&str> = (0..10).map(|_| WORDS[rng.usize(..WORDS.len())]).collect();
        text.push_str(&line.join(" "));
        text.push_str(".\n");
    }
    text
}

/// A 1,000-word argument with 12 quotes (half copied, half invented) and 8 line citations.
fn argument(source: &str) -> String {
    let lines: Vec<&str> = source.lines().filter(|l| !l.starts_with('#')).collect();
    let mut out = Vec::new();
    for i in 0..20 {
        out.push("the argument goes on with plain words that cite nothing at all here and there".repeat(3));
        if i % 2 == 0 && i < 12 {
            let copied: Vec<&str> = lines[i * 97 % lines.len()].split_whitespace().take(6).collect();
            out.push(format!("\"{}\"", copied.join(" ").trim_end_matches('.')));
        } else if i < 12 {
            out.push("\"an invented passage that the source never had in it\"".into());
        } else {
            out.push(format!("[L{}–L{}]", i * 11, i * 11 + 3));
        }
    }
    out.join(" ")
}

fn bench(c: &mut Criterion) {
    let text = source_text(5_000);
    let index = SourceIndex::new(&text);
    let turn = argument(&text);
    c.bench_function("grounding/check_1000_word_turn_5000_line_source", |b| {
        b.iter(|| black_box(index.check(black_box(&turn), &[])));
    });

    let mut group = c.benchmark_group("grounding/index");
    for lines in [1_000, 5_000, 20_000] {
        let text = source_text(lines);
        group.bench_with_input(BenchmarkId::from_parameter(lines), &text, |b, text| {
            b.iter(|| black_box(SourceIndex::new(black_box(text))));
        });
    }
    group.finish();

    // ≈ 50k words: what a 100-page document adds before the first request.
    let pages = source_text(5_000);
    c.bench_function("grounding/start_100_pages", |b| {
        b.iter(|| {
            let source = Source::from_bytes("doc.md".into(), black_box(pages.as_bytes())).expect("source");
            let preamble = grounding::preamble(Some("2026-11-23"), Some(&source), None);
            black_box((source.topic(), preamble, SourceIndex::new(&source.text)))
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
