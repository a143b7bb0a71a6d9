//! The embedded model's speed: prompt processing and generation in tokens/s
//! with the default model (threads per computation from `RAYON_NUM_THREADS` and
//! `CANDLE_NUM_THREADS`, which `heat` sets from `providers.local.threads`: see
//! `heat::provider::local::thread_variables`), and the
//! time to the first streamed token, in the model and from `heat run`'s
//! start through the real binary (with the compact and the full prompts),
//! and a round's two arguments under each way of scheduling them. With
//! `HEAT_BENCH_ENGINE_ONLY` set it stops after the line
//! `benches/llama_reference/run.sh` sets beside llama.cpp's. With
//! `HEAT_BENCH_GENERATE=N` it only loads the model and writes N tokens (for
//! callgrind: two counts apart give one token's instructions).
//! Needs the model: `heat model install` or `HEAT_TEST_MODEL`. Prints
//! tokens/s next to criterion's timings.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use futures::StreamExt;
use heat::provider::local::{LocalModel, LocalOptions};
use heat::provider::{ChatMessage, ChatModel, ChatRequest, Chunk};

fn model_path() -> Option<PathBuf> {
    std::env::var_os("HEAT_TEST_MODEL").map(PathBuf::from).or_else(|| {
        let path = heat::model_store::default_model_path(&heat::store::data_dir().ok()?);
        path.exists().then_some(path)
    })
}

fn request(prompt: &str, max_tokens: u32) -> ChatRequest {
    ChatRequest {
        model: "local".into(),
        system: "You are a debater.".into(),
        messages: vec![ChatMessage::user(prompt)],
        temperature: Some(0.7),
        max_tokens,
        seed: Some(1),
        ..ChatRequest::default()
    }
}

/// Runs one request; returns (prompt tokens, generated tokens, time to first token, total).
fn run(model: &LocalModel, req: ChatRequest) -> (u64, u64, Duration, Duration) {
    futures::executor::block_on(async {
        let start = Instant::now();
        let mut first = None;
        let mut usage = (0, 0);
        let mut stream = model.stream(req);
        while let Some(Ok(chunk)) = stream.next().await {
            match chunk {
                Chunk::Text(_) if first.is_none() => first = Some(start.elapsed()),
                Chunk::Usage(u) => usage = (u.input_tokens, u.output_tokens),
                _ => {}
            }
        }
        (usage.0, usage.1, first.unwrap_or_default(), start.elapsed())
    })
}

/// `heat run` from process start to its first streamed token, `runs` times,
/// sorted; `prompts` is the `providers.local.prompts` setting.
fn binary_first_token(model: &std::path::Path, prompts: &str, runs: usize) -> Vec<Duration> {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = dir.path().join("heat.toml");
    std::fs::write(&config, format!("[providers.local]\nprompts = \"{prompts}\"\n")).expect("write the config");
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_heat"))
            .args(["--config", config.to_str().unwrap_or_default(), "run", "Remote work beats the office", "--json"])
            .env("HEAT_DATA_DIR", dir.path())
            .env("HEAT_PROVIDER", "local")
            .env("HEAT_MODEL_PATH", model)
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start heat");
        let stdout = child.stdout.take().expect("stdout");
        for line in std::io::BufReader::new(stdout).lines() {
            if line.is_ok_and(|l| l.contains("\"type\":\"delta\"")) {
                times.push(start.elapsed());
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    times.sort();
    times
}

/// A round's two arguments (128 tokens each), the way the local provider
/// could schedule them: one after the other on one lane, or side by side on
/// two lanes (what heat does); on a quiet machine and with another thread
/// wanting a core (the studio, the runtime, anything). Wall time of the
/// pair. Threads per computation come from `RAYON_NUM_THREADS` (1 under
/// cargo, as in the binary): run again with 2 to compare.
fn round_schedules(path: &std::path::Path, lanes: &LocalModel) {
    let one_lane =
        LocalModel::load(path, LocalOptions { lanes: 1, ..LocalOptions::default() }).expect("load the model");
    let advocate = || ChatRequest {
        system: "You argue for.".into(),
        grounding: None,
        ..request("Give reasons why cities should ban cars.", 128)
    };
    let skeptic = || ChatRequest {
        system: "You argue against.".into(),
        grounding: None,
        ..request("Give reasons why cities should not ban cars.", 128)
    };
    let serial = || {
        let start = Instant::now();
        let tokens = run(&one_lane, advocate()).1 + run(&one_lane, skeptic()).1;
        (tokens, start.elapsed())
    };
    let side_by_side = || {
        let start = Instant::now();
        let tokens = std::thread::scope(|s| {
            let a = s.spawn(|| run(lanes, advocate()).1);
            let b = s.spawn(|| run(lanes, skeptic()).1);
            a.join().unwrap_or_default() + b.join().unwrap_or_default()
        });
        (tokens, start.elapsed())
    };
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "all cores".into());
    for busy in [false, true] {
        let stop = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            if busy {
                s.spawn(|| {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        black_box((0..1000u64).sum::<u64>());
                    }
                });
            }
            let load = if busy { "one core busy" } else { "quiet" };
            for (name, measure) in [
                ("one lane, one turn after the other", &serial as &dyn Fn() -> (u64, Duration)),
                ("two lanes side by side", &side_by_side),
            ] {
                let mut times: Vec<(u64, Duration)> = (0..3).map(|_| measure()).collect();
                times.sort_by_key(|t| t.1);
                let (tokens, time) = times[1];
                println!(
                    "round of two arguments ({load}, threads {threads}), {name}: {time:.2?} for {tokens} tokens = {:.0} tok/s",
                    tokens as f64 / time.as_secs_f64()
                );
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
    }
}

/// Prompt and generation speed the way `benches/llama_reference` measures
/// llama.cpp's, so the two can be set side by side: a prompt of about 475
/// tokens read in one request, and 128 tokens generated, each the median of
/// 5 after a warm-up. Each prompt starts with its own word, so no lane
/// reuses a cached prefix. Heat's figures are through the whole provider
/// (template, sampling, text), llama.cpp's through its decoder alone.
fn engine_speed(model: &LocalModel) -> (u64, f64, u64, f64) {
    let prompt = "Cities should ban cars from their centres because ".repeat(56);
    let mut read = Vec::new();
    let mut written = Vec::new();
    let mut tokens = (0, 0);
    for rep in 0..6 {
        let mut ask = request(&prompt, 1);
        ask.system = format!("Debater {rep}: you argue.");
        let (prompt_tokens, _, first, _) = run(model, ask);
        let mut ask = request("Argue that cities should ban cars.", 129);
        ask.system = format!("Speaker {rep}: you argue.");
        ask.temperature = Some(0.0);
        let (_, generated, first_token, total) = run(model, ask);
        if rep > 0 {
            tokens = (prompt_tokens, generated.saturating_sub(1));
            read.push(prompt_tokens as f64 / first.as_secs_f64());
            written.push(generated.saturating_sub(1) as f64 / total.saturating_sub(first_token).as_secs_f64());
        }
    }
    read.sort_by(f64::total_cmp);
    written.sort_by(f64::total_cmp);
    (tokens.0, read[read.len() / 2], tokens.1, written[written.len() / 2])
}

fn bench(c: &mut Criterion) {
    let Some(path) = model_path() else {
        eprintln!("SKIPPED: no offline model (heat model install, or HEAT_TEST_MODEL)");
        return;
    };
    if let Some(tokens) = std::env::var("HEAT_BENCH_GENERATE").ok().and_then(|n| n.parse().ok()) {
        // For an instruction count under callgrind: load, write `tokens`
        // tokens on one lane, stop. Two counts apart give a token's cost.
        let model = LocalModel::load(&path, LocalOptions { lanes: 1, ..LocalOptions::default() }).expect("load");
        let mut ask = request("Argue that cities should ban cars.", tokens);
        ask.temperature = Some(0.0);
        let (_, generated, ..) = run(&model, ask);
        println!("generated {generated} tokens");
        return;
    }
    let start = Instant::now();
    let model = LocalModel::load(&path, LocalOptions::default()).expect("load the model");
    println!("model load: {:?}", start.elapsed());
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "all cores".into());
    // The same threads as llama.cpp is given: no prompt on every core.
    let strict = LocalModel::load(&path, LocalOptions { wide_prompts: false, ..LocalOptions::default() })
        .expect("load the model");
    let (read, read_speed, written, written_speed) = engine_speed(&strict);
    drop(strict);
    println!(
        "heat threads {threads}: pp{read} {read_speed:.0} tok/s, tg{written} {written_speed:.0} tok/s (median of 5)"
    );
    let (read, read_speed, ..) = engine_speed(&model);
    println!("heat default (threads {threads}, an idle model's prompt on every core): pp{read} {read_speed:.0} tok/s");
    if std::env::var_os("HEAT_BENCH_ENGINE_ONLY").is_some() {
        return;
    }
    let long_prompt = "Cities should ban cars from their centres because ".repeat(40);

    // One measured pass each, reported as tokens/s.
    let (prompt_tokens, _, _, prompt_time) = run(&model, request(&long_prompt, 1));
    println!(
        "prompt processing: {prompt_tokens} tokens in {prompt_time:?} = {:.0} tok/s",
        prompt_tokens as f64 / prompt_time.as_secs_f64()
    );
    let (_, generated, first, total) = run(&model, request("Argue that cities should ban cars.", 128));
    let gen_time = total.saturating_sub(first);
    println!(
        "generation: {generated} tokens in {total:?}, first token after {first:?}; {:.0} tok/s after the first",
        generated.saturating_sub(1) as f64 / gen_time.as_secs_f64()
    );

    for prompts in ["compact", "full"] {
        let times = binary_first_token(&path, prompts, 5);
        println!(
            "heat run → first token ({prompts} prompts): median {:?}, fastest {:?} of {} runs",
            times.get(times.len() / 2).copied().unwrap_or_default(),
            times.first().copied().unwrap_or_default(),
            times.len()
        );
    }

    round_schedules(&path, &model);

    let mut group = c.benchmark_group("local");
    group.sample_size(10);
    group.bench_function("prompt_~500_tokens", |b| b.iter(|| run(&model, request(&long_prompt, 1))));
    group.bench_function("generate_64_tokens", |b| b.iter(|| run(&model, request("Argue for trees.", 64))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
