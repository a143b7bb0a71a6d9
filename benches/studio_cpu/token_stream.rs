//! Token by token, as real providers stream: an OpenAI-format server sends
//! one token per SSE event (about four characters of Markdown with
//! headings, lists and bold), each debater at about 1,000 tokens/s on a
//! steady schedule. Reports the studio's CPU time and the bytes it wrote to
//! its 200×50 terminal per streamed token, in both follow modes. When
//! `aichat` is installed (on PATH, or `HEAT_BENCH_AICHAT=/path/to/aichat`),
//! the same two streams go to two aichat processes at 100×50 each, in the
//! same run, and their figures and the ratios are printed beside heat's.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::CommandBuilder;

use super::support::mock_llm::{MockLlm, Recorded, Reply, openai_sse};
use super::{Opened, cpu_seconds, spawn};

/// Tokens each debater streams.
const TOKENS: usize = 12_000;
/// One token per stream this often: about 1,000 tokens/s a stream.
const EVERY: Duration = Duration::from_millis(1);

/// A debate's worth of Markdown: a heading, a paragraph with bold and
/// italics, a bulleted list, another paragraph, again and again.
fn markdown(tag: &str, block: usize) -> String {
    format!(
        "## {tag} point {block}\n\n\
         Remote work **saves** the commute and lets a team hire across regions; several large surveys \
         found that output held steady while *attrition* fell.\n\n\
         - **Focus**: fewer interruptions mean longer stretches of deep work.\n\
         - **Reach**: a company can hire the best person, not the nearest one.\n\
         - **Cost**: less office space and lower overheads, year after year.\n\n\
         That said, the office still matters for onboarding and for trust, which is why the strongest \
         case is a **hybrid** with clear norms.\n\n"
    )
}

/// `n` tokens of [`markdown`] for `tag`, each a word with the space after
/// it or four characters of a longer one; the last is `END{tag}`.
fn tokens(tag: &str, n: usize) -> Vec<String> {
    let mut out = Vec::with_capacity(n);
    let mut block = 0;
    while out.len() < n - 1 {
        block += 1;
        let text = markdown(tag, block);
        for word in text.split_inclusive([' ', '\n']) {
            let chars: Vec<char> = word.chars().collect();
            out.extend(chars.chunks(4).map(|c| c.iter().collect::<String>()));
        }
    }
    out.truncate(n - 1);
    out.push(format!("END{tag}"));
    out
}

/// (which stream, when its request arrived)
type Arrivals = Mutex<Vec<(&'static str, Instant)>>;

fn reply(request: &Recorded, arrivals: &Arrivals) -> Reply {
    let system = request.system();
    if system.contains("You are the JUDGE") {
        let json = r#"{"resolved": true, "verdict": "Both made their case.", "topic": "t", "heat": 0.5}"#;
        // Held a second, so the debaters' last words stand on screen before the results cover them.
        return Reply::sse(&openai_sse(&[json], None), 4096).with_delay(Duration::from_secs(1));
    }
    let tag = if system.contains("You are the ADVOCATE") || request.last_message().contains("#A") { "A" } else { "S" };
    arrivals.lock().unwrap().push((tag, Instant::now()));
    let parts = tokens(tag, TOKENS);
    let body = openai_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None);
    // One SSE event per piece: the stream is "data: …\n\n" events.
    let text = String::from_utf8(body).unwrap();
    let pieces: Vec<Vec<u8>> = text.split_inclusive("\n\n").map(|e| e.as_bytes().to_vec()).collect();
    Reply { pieces, ..Reply::sse(b"", 1) }.paced(EVERY)
}

/// What a run cost per streamed token.
struct Cost {
    cpu_ms_per_token: f64,
    bytes_per_token: f64,
    tokens_per_second: f64,
    peak_rss_mib: f64,
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.4} ms CPU and {:.1} B to the terminal per token ({:.0} tokens/s combined, peak RSS {:.1} MiB)",
            self.cpu_ms_per_token, self.bytes_per_token, self.tokens_per_second, self.peak_rss_mib
        )
    }
}

/// Peak resident memory of a running process, in MiB.
fn peak_rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next());
    kib.and_then(|k| k.parse::<f64>().ok()).unwrap_or(0.0) / 1024.0
}

/// Waits until both streams' requests arrived, then until every screen
/// shows its stream's last token; measures the processes in between.
async fn measure(opened: &[Opened], arrivals: &Arrivals, ends: &[&str]) -> Cost {
    let deadline = Instant::now() + Duration::from_secs(30);
    while arrivals.lock().unwrap().len() < 2 {
        assert!(Instant::now() < deadline, "the two streams were not asked for");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let cpu = || opened.iter().map(|o| cpu_seconds(o.pid)).sum::<f64>();
    let bytes = || opened.iter().map(|o| *o.bytes_out.lock().unwrap()).sum::<usize>();
    let (cpu_start, bytes_start, wall_start) = (cpu(), bytes(), Instant::now());
    let shown = |end: &str| opened.iter().any(|o| o.screen.lock().unwrap().screen().contents().contains(end));
    let deadline = Instant::now() + Duration::from_secs(120);
    // Read while the processes run: aichat leaves as soon as its answer ends.
    let mut peak = 0.0f64;
    while !ends.iter().all(|end| shown(end)) {
        peak = peak.max(opened.iter().map(|o| peak_rss_mib(o.pid)).sum());
        let screens = || opened.iter().map(|o| o.screen.lock().unwrap().screen().contents()).collect::<Vec<_>>();
        assert!(Instant::now() < deadline, "the streams' last tokens never showed:\n{}", screens().join("\n----\n"));
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let tokens = (2 * TOKENS) as f64;
    Cost {
        cpu_ms_per_token: (cpu() - cpu_start) * 1000.0 / tokens,
        bytes_per_token: (bytes() - bytes_start) as f64 / tokens,
        tokens_per_second: tokens / wall_start.elapsed().as_secs_f64(),
        peak_rss_mib: peak.max(opened.iter().map(|o| peak_rss_mib(o.pid)).sum()),
    }
}

/// heat's duel on the token stream, following its panes `follow`-wise.
async fn heat(follow: &str) -> Cost {
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&arrivals);
    let server = MockLlm::with_handler(move |r| reply(r, &log)).await;
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[roles]\nmax_tokens = 100000\n[network]\nmax_retries = 0\n").unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_heat"));
    cmd.args(["--config", config.to_str().unwrap(), "--max-rounds", "1", "Remote work beats the office"]);
    cmd.env("HEAT_DATA_DIR", data.path());
    cmd.env("HEAT_PROVIDER", "openai");
    cmd.env("HEAT_MODEL", "m");
    cmd.env("HEAT_FOLLOW", follow);
    cmd.env("OPENAI_API_KEY", "sk-bench");
    cmd.env("OPENAI_BASE_URL", format!("{}/v1", server.base_url));
    for var in ["ANTHROPIC_API_KEY", "NO_COLOR", "HEAT_FORMAT"] {
        cmd.env_remove(var);
    }
    let mut opened = spawn(cmd, 200);
    let cost = measure(std::slice::from_ref(&opened), &arrivals, &["ENDA", "ENDS"]).await;
    opened.child.kill().unwrap();
    cost
}

/// aichat's binary, when it is installed.
fn aichat_binary() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("HEAT_BENCH_AICHAT") {
        return Some(path.into());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join("aichat")).find(|p| p.is_file())
}

/// The same two streams, each to its own aichat at 100×50.
async fn aichat(binary: &std::path::Path) -> Cost {
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&arrivals);
    let server = MockLlm::with_handler(move |r| reply(r, &log)).await;
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "model: mock:m\nstream: true\nsave: false\nhighlight: true\nclients:\n- type: openai-compatible\n  \
         name: mock\n  api_base: {}/v1\n  api_key: sk-bench\n  models:\n  - name: m\n    max_input_tokens: 100000\n",
        server.base_url
    );
    std::fs::write(dir.path().join("config.yaml"), config).unwrap();
    let mut opened: Vec<Opened> = ["A", "S"]
        .iter()
        .map(|tag| {
            let mut cmd = CommandBuilder::new(binary);
            cmd.arg(format!("Remote work beats the office #{tag}"));
            cmd.env("AICHAT_CONFIG_DIR", dir.path());
            cmd.env_remove("NO_COLOR");
            spawn(cmd, 100)
        })
        .collect();
    let cost = measure(&opened, &arrivals, &["ENDA", "ENDS"]).await;
    for o in &mut opened {
        let _ = o.child.kill();
    }
    cost
}

pub async fn run() {
    let block = heat("blocks").await;
    println!("token stream, heat following by blocks: {block}");
    let line = heat("lines").await;
    println!("token stream, heat following line by line: {line}");
    let Some(binary) = aichat_binary() else {
        println!("token stream: aichat is not installed (`cargo install aichat --locked`), so no figure beside heat's");
        return;
    };
    let theirs = aichat(&binary).await;
    println!("token stream, aichat (two processes at 100×50): {theirs}");
    println!(
        "heat by blocks / aichat: CPU per token {:.2}×, bytes per token {:.2}×",
        block.cpu_ms_per_token / theirs.cpu_ms_per_token,
        block.bytes_per_token / theirs.bytes_per_token
    );
}
