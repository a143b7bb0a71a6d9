//! What `heat tournament` costs, measured on the real binary against the
//! mock OpenAI server (which runs in this process, on the same two cores):
//!
//! 1. **1,000 debates against instant models, 100 at once**: 5 models (10
//!    pairs, each argued both ways round) on 50 propositions, 2 rounds a
//!    debate (each round a turn from each debater and a verdict: 6 model
//!    calls a debate, 6,000 in all), every answer sent at once in one
//!    piece. Prints heat's CPU time (utime + stime of the process from
//!    `/proc/PID/stat`, read once it has exited and before it is reaped, so
//!    nothing is missed) in all, per debate, and per debate as the data dir
//!    fills; its peak memory (`VmHWM` from `/proc/PID/status`, sampled every
//!    50 ms); its writes (`syscw`, `wchar` and `write_bytes` from
//!    `/proc/PID/io`, read at the end); what it left in the data dir (files
//!    and bytes: session logs, labels, the sessions index, the journal);
//!    what the server was asked; the wall time and the time before the
//!    first debate began.
//! 2. **100 debates streaming at once at 50 tokens a second**: the same 5
//!    models on 5 propositions, 1 round, 100 at once; each debater's turn is
//!    250 tokens, one SSE event each, sent on a steady schedule of one every
//!    20 ms (5 s a turn: 200 streams, 10,000 tokens/s combined); the
//!    judge's verdict comes at once. Prints the heat process's CPU as a
//!    share of one core while all 200 streams run, over the whole streaming
//!    period, and over the whole run. Its progress is the plain
//!    printer (a line on standard error as each debate begins and ends): it
//!    prints nothing while the streams run, so the share while they do is
//!    the streaming and recording.
//!
//! 3. **The same under the board**: part 2 with heat on a 120×40
//!    pseudo-terminal, so it runs under its full-screen board (redrawn
//!    each second and as debates begin and end); the same shares of a core,
//!    and the bytes it drew. The board's cost is the difference from part 2.
//!
//! Run: `cargo bench --bench tournament` (about three minutes; not
//! criterion: the quantities are one run's totals). `HEAT_BENCH_PARTS=instant`,
//! `=stream` or `=board` runs one part; `HEAT_BENCH_PERF=DIR` records each heat run
//! with `perf record --call-graph dwarf` into `DIR/tournament-<part>.data`
//! (for `perf report`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, Write as _};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use heat::config::keys;
use heat::provider::kind::PROVIDERS;
use support::mock_llm::{MockLlm, Recorded, Reply, openai_sse, openai_sse_text};

const MODELS: [&str; 5] = ["mock-a", "mock-b", "mock-c", "mock-d", "mock-e"];
const JUDGE: &str = "mock-j";
/// Debates at once, in both parts.
const CONCURRENCY: usize = 100;
/// Part 1: 10 pairs × 2 sides × 50 propositions = 1,000 debates.
const INSTANT_PROPOSITIONS: usize = 50;
const INSTANT_ROUNDS: u32 = 2;
/// Part 2: 10 pairs × 2 sides × 5 propositions = 100 debates.
const STREAM_PROPOSITIONS: usize = 5;
/// Tokens in a streamed turn, and the time between two of them (50 tokens/s).
const TURN_TOKENS: usize = 250;
const TOKEN_EVERY: Duration = Duration::from_millis(20);
/// Linux reports CPU times in these (`USER_HZ`).
const TICKS_PER_SECOND: f64 = 100.0;

/// What a request was, for the tally of what the server was asked.
type Tally = Mutex<BTreeMap<String, usize>>;

fn tally(tally: &Tally, request: &Recorded) {
    let model = request.body["model"].as_str().unwrap_or_default();
    let what = if model.is_empty() { format!("{} {}", request.method, request.path) } else { "model calls".into() };
    *tally.lock().unwrap().entry(what).or_default() += 1;
}

/// The round a request is for, from its last message (`Round N of M`).
fn round_of(request: &Recorded) -> u32 {
    let last = request.last_message();
    (1..=50).rev().find(|n| last.contains(&format!("Round {n} of"))).unwrap_or(1)
}

/// A verdict in the shape `tests/it/tournament.rs` plays: never resolved
/// (every round is played), the later letter ahead on whichever side it sits.
fn verdict(request: &Recorded) -> String {
    let last = request.last_message();
    let arguments = last.split("[advocate, skeptic]:").nth(1).unwrap_or("");
    let letter = |side: usize| {
        let said = arguments.split("\",\"").nth(side).unwrap_or("");
        ["E", "D", "C", "B", "A"].into_iter().find(|l| said.contains(&format!("Model {l} says")))
    };
    let ahead = if letter(0) > letter(1) { "advocate" } else { "skeptic" };
    let round = round_of(request);
    format!(
        r#"{{"resolved": false, "verdict": "Round {round} was argued.", "ahead": "{ahead}", "conceded": "none", "topic": "Go on.", "heat": 0.6}}"#
    )
}

/// An OpenAI-compatible server has no llama.cpp `/props` (nor anything but chat).
fn not_found() -> Reply {
    Reply::error(404, r#"{"error":{"message":"no such route"}}"#)
}

/// Part 1's server: every answer at once, in one piece.
fn instant(request: &Recorded, seen: &Tally) -> Reply {
    tally(seen, request);
    if !request.path.ends_with("/chat/completions") {
        return not_found();
    }
    let model = request.body["model"].as_str().unwrap_or_default();
    let text = if model == JUDGE {
        verdict(request)
    } else {
        let letter = model.trim_start_matches("mock-").to_uppercase();
        format!("Model {letter} says its case for round {} plainly and at length.", round_of(request))
    };
    let body = openai_sse_text(&text, 4);
    Reply::sse(&body, body.len())
}

/// When each debater's turn was asked for (part 2).
type Asked = Mutex<Vec<Instant>>;

/// Part 2's server: a debater's turn streamed at 50 tokens/s, one SSE event
/// a token; the judge at once.
fn paced(request: &Recorded, seen: &Tally, asked: &Asked) -> Reply {
    tally(seen, request);
    if !request.path.ends_with("/chat/completions") {
        return not_found();
    }
    let model = request.body["model"].as_str().unwrap_or_default();
    if model == JUDGE {
        let body = openai_sse_text(&verdict(request), 4);
        return Reply::sse(&body, body.len());
    }
    asked.lock().unwrap().push(Instant::now());
    let letter = model.trim_start_matches("mock-").to_uppercase();
    let words: Vec<String> = (0..TURN_TOKENS)
        .map(|i| match i {
            0 => format!("Model {letter} says "),
            _ if i % 40 == 39 => format!("w{i}.\n\n"),
            _ => format!("w{i} "),
        })
        .collect();
    let body = openai_sse(&words.iter().map(String::as_str).collect::<Vec<_>>(), None);
    // One SSE event a piece, so each token goes on its own schedule.
    let mut reply = Reply::sse(&body, body.len()).paced(TOKEN_EVERY);
    reply.pieces = body.split_inclusive(|&b| b == b'\n').fold(Vec::new(), |mut pieces: Vec<Vec<u8>>, line| {
        match pieces.last_mut() {
            Some(last) if !last.ends_with(b"\n\n") => last.extend_from_slice(line),
            _ => pieces.push(line.to_vec()),
        }
        pieces
    });
    reply
}

/// How long the server takes to send one streamed turn.
fn turn_time() -> Duration {
    let words: Vec<&str> = vec!["w "; TURN_TOKENS];
    let events = openai_sse(&words, None).windows(2).filter(|w| w == b"\n\n").count();
    TOKEN_EVERY * (events as u32 - 1)
}

/// A tournament file: `propositions` numbered propositions, the five
/// models, the judge, `rounds`, 100 at once.
fn tournament_file(propositions: usize, rounds: u32) -> String {
    let propositions: Vec<String> =
        (1..=propositions).map(|i| format!("\"Proposition {i}: the town should fund project {i}\"")).collect();
    let models: Vec<String> = MODELS.iter().map(|m| format!("\"openai:{m}\"")).collect();
    format!(
        "propositions = [{}]\nmodels = [{}]\njudge = \"openai:{JUDGE}\"\nrounds = {rounds}\nseed = 7\nconcurrency = {CONCURRENCY}\n",
        propositions.join(", "),
        models.join(", ")
    )
}

/// `heat tournament FILE` on `data`, every setting and provider variable
/// removed but the mock server's; with `terminal`, on a pseudo-terminal of
/// 120×40 (so it shows its board; what it draws is read and counted), else
/// its progress on a pipe.
fn start(data: &Path, file: &Path, server: &MockLlm, terminal: Option<&Terminal>) -> Child {
    let config = data.join("heat.toml");
    std::fs::write(&config, "[network]\nmax_retries = 1\n").unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_heat"));
    let settings = keys::all().into_iter().filter_map(|spec| spec.env);
    let providers = PROVIDERS.iter().flat_map(|row| [row.key_env, row.url_env]).flatten();
    for name in settings.chain(providers) {
        cmd.env_remove(name);
    }
    cmd.arg("--config")
        .arg(&config)
        .arg("tournament")
        .arg(file)
        .env("HEAT_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .env("OPENAI_API_KEY", "sk-bench-openai")
        .env("OPENAI_BASE_URL", format!("{}/v1", server.base_url))
        .stderr(Stdio::piped());
    match terminal {
        Some(terminal) => {
            let open = || {
                std::fs::OpenOptions::new().read(true).write(true).open(&terminal.path).expect("the pty's other end")
            };
            cmd.stdin(open()).stdout(open()).env("TERM", "xterm-256color");
        }
        None => {
            cmd.stdin(Stdio::null()).stdout(Stdio::null());
        }
    }
    cmd.spawn().expect("heat starts")
}

/// A pseudo-terminal of 120×40 that heat draws on: what it draws is read
/// (as a terminal would) and its bytes counted; q is pressed on it to leave
/// the board once the tournament has ended.
struct Terminal {
    path: std::path::PathBuf,
    bytes: Arc<std::sync::atomic::AtomicU64>,
    writer: Mutex<Box<dyn std::io::Write + Send>>,
    _pair: portable_pty::PtyPair,
}

impl Terminal {
    fn open() -> Terminal {
        let pair = portable_pty::native_pty_system()
            .openpty(portable_pty::PtySize { rows: 40, cols: 120, pixel_width: 0, pixel_height: 0 })
            .expect("a pty");
        let path = pair.master.tty_name().expect("the pty's name");
        let bytes = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut reader = pair.master.try_clone_reader().expect("the pty's reader");
        let writer = Mutex::new(pair.master.take_writer().expect("the pty's writer"));
        let counted = Arc::clone(&bytes);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = std::io::Read::read(&mut reader, &mut buf) {
                counted.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
            }
        });
        Terminal { path, bytes, writer, _pair: pair }
    }

    /// Presses q once the tournament in `data` has ended (its journal says so).
    async fn leave_when_ended(&self, data: &Path) {
        while !journal(data).contains_key("ended") {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut writer = self.writer.lock().unwrap();
        let _ = writer.write_all(b"q");
        let _ = writer.flush();
    }
}

/// CPU seconds a process has used: (user, system).
fn cpu_of(pid: u32) -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).map(|t| t as f64 / TICKS_PER_SECOND);
    Some((ticks(11)?, ticks(12)?))
}

/// A process's peak resident set, in kB (`VmHWM`).
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A process's I/O counters (`/proc/PID/io`).
#[derive(Debug, Default, Clone, Copy)]
struct Io {
    syscr: u64,
    syscw: u64,
    rchar: u64,
    wchar: u64,
    write_bytes: u64,
}

fn io_of(pid: u32) -> Option<Io> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    let field = |name: &str| {
        text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(": ")?.trim().parse::<u64>().ok()).unwrap_or(0)
    };
    Some(Io {
        syscr: field("syscr"),
        syscw: field("syscw"),
        rchar: field("rchar"),
        wchar: field("wchar"),
        write_bytes: field("write_bytes"),
    })
}

/// One look at the running process.
#[derive(Debug, Clone, Copy)]
struct Probe {
    at: Instant,
    cpu: f64,
    io: Io,
}

/// A heat run watched to its end.
struct Watched {
    started: Instant,
    wall: Duration,
    user: f64,
    system: f64,
    peak_kb: u64,
    io: Io,
    probes: Vec<Probe>,
    /// Each line heat printed on standard error, with when it came.
    lines: Vec<(Instant, String)>,
    success: bool,
    /// CPU seconds this process (the mock server) used meanwhile.
    bench_cpu: f64,
}

impl Watched {
    fn cpu(&self) -> f64 {
        self.user + self.system
    }

    /// The process's CPU seconds at `at`, from the probes around it.
    fn cpu_at(&self, at: Instant) -> f64 {
        let before = self.probes.iter().rev().find(|p| p.at <= at);
        let after = self.probes.iter().find(|p| p.at >= at);
        match (before, after) {
            (Some(b), Some(a)) if a.at > b.at => {
                let part = at.duration_since(b.at).as_secs_f64() / a.at.duration_since(b.at).as_secs_f64();
                b.cpu + (a.cpu - b.cpu) * part
            }
            (Some(p), _) | (None, Some(p)) => p.cpu,
            (None, None) => 0.0,
        }
    }

    /// The I/O counters at the last probe at or before `at`.
    fn io_at(&self, at: Instant) -> Io {
        self.probes.iter().rev().find(|p| p.at <= at).map(|p| p.io).unwrap_or_default()
    }

    /// When the first line containing `needle` came.
    fn first_line(&self, needle: &str) -> Option<Instant> {
        self.lines.iter().find(|(_, l)| l.contains(needle)).map(|(at, _)| *at)
    }
}

fn own_cpu() -> f64 {
    cpu_of(std::process::id()).map_or(0.0, |(u, s)| u + s)
}

/// Samples `child` every 50 ms until it exits; its CPU and I/O are read
/// once more after it has exited but before it is reaped (`waitid` with
/// `WNOWAIT`), so the totals are whole.
async fn watch(mut child: Child) -> Watched {
    let started = Instant::now();
    let bench_start = own_cpu();
    let pid = child.id();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let stderr = child.stderr.take().unwrap();
        let lines = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                lines.lock().unwrap().push((Instant::now(), line));
            }
        })
    };
    let exited = std::thread::spawn(move || {
        let options = rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT;
        let raw = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw).expect("a pid");
        rustix::process::waitid(rustix::process::WaitId::Pid(raw), options).expect("waitid");
    });
    let mut probes = Vec::new();
    let mut peak = 0;
    while !exited.is_finished() {
        if let (Some((u, s)), Some(io)) = (cpu_of(pid), io_of(pid)) {
            probes.push(Probe { at: Instant::now(), cpu: u + s, io });
        }
        peak = peak.max(peak_kb(pid).unwrap_or(0));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    exited.join().unwrap();
    let wall = started.elapsed();
    // Exited, not yet reaped: its whole CPU time and I/O, threads and all.
    let (user, system) = cpu_of(pid).expect("the exited process's stat");
    let io = io_of(pid).unwrap_or_else(|| probes.last().map(|p| p.io).unwrap_or_default());
    probes.push(Probe { at: Instant::now(), cpu: user + system, io });
    let success = child.wait().unwrap().success();
    reader.join().unwrap();
    let lines = std::mem::take(&mut *lines.lock().unwrap());
    let bench_cpu = own_cpu() - bench_start;
    Watched { started, wall, user, system, peak_kb: peak, io, probes, lines, success, bench_cpu }
}

/// Starts `perf record` on `pid` when `HEAT_BENCH_PERF` names a folder.
fn perf(pid: u32, part: &str) -> Option<Child> {
    let dir = std::env::var_os("HEAT_BENCH_PERF")?;
    let out = Path::new(&dir).join(format!("tournament-{part}.data"));
    Command::new("perf")
        .args(["record", "-F", "199", "--call-graph", "dwarf,16384", "-q", "-o"])
        .arg(out)
        .args(["-p", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()
}

/// The files a run left in the data dir, by kind: (files, bytes).
fn stored(data: &Path) -> BTreeMap<&'static str, (u64, u64)> {
    let mut kinds: BTreeMap<&'static str, (u64, u64)> = BTreeMap::new();
    let mut folders = vec![data.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let is = |ext: &str| path.extension().is_some_and(|e| e == ext);
            let parent = path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
            let kind = match (parent.as_deref(), name.as_str()) {
                (_, "heat.toml") if folder == data => continue,
                (Some("sessions"), "index.json") => "sessions/index.json",
                (Some("sessions"), "index.lock") => "sessions/index.lock",
                (Some("sessions"), n) if n.ends_with(".label.json") => "sessions/*.label.json",
                (Some("sessions"), _) if is("jsonl") => "sessions/*.jsonl",
                (_, "journal.jsonl") => "tournaments/*/journal.jsonl",
                (_, "tournament.toml") => "tournaments/*/tournament.toml",
                (Some("logs"), _) if is("log") => "logs/heat.*.log (the diagnostic log)",
                _ => "other",
            };
            let entry = kinds.entry(kind).or_default();
            entry.0 += 1;
            entry.1 += path.metadata().map_or(0, |m| m.len());
        }
    }
    kinds
}

/// The journal's lines, by kind.
fn journal(data: &Path) -> BTreeMap<String, usize> {
    let mut kinds = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir(data.join("tournaments")) else { return kinds };
    for tournament in dir.flatten() {
        let text = std::fs::read_to_string(tournament.path().join("journal.jsonl")).unwrap_or_default();
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            *kinds.entry(value["kind"].as_str().unwrap_or("unreadable").to_string()).or_default() += 1;
        }
    }
    kinds
}

fn mb(bytes: u64) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Prints rows of (what, value) as a two-column table.
fn table(title: &str, rows: &[(String, String)]) {
    let width = rows.iter().map(|(w, _)| w.chars().count()).max().unwrap_or(0);
    println!("\n{title}");
    println!("{}", "-".repeat(title.chars().count()));
    for (what, value) in rows {
        println!("  {what:<width$}  {value}");
    }
}

/// Runs `heat tournament` on a file of `text` against `server` to its end,
/// watched, and checks that all `planned` debates finished; with its data dir.
async fn tournament(
    server: &MockLlm,
    text: &str,
    planned: usize,
    (part, terminal): (&str, Option<&Terminal>),
) -> (Watched, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("t.toml");
    std::fs::write(&file, text).unwrap();
    let child = start(data.path(), &file, server, terminal);
    let perf = perf(child.id(), part);
    let run = match terminal {
        Some(terminal) => {
            let mut watched = std::pin::pin!(watch(child));
            tokio::select! {
                run = &mut watched => run,
                () = terminal.leave_when_ended(data.path()) => watched.await,
            }
        }
        None => watch(child).await,
    };
    if let Some(mut perf) = perf {
        let _ = perf.wait();
    }
    let journal = journal(data.path());
    assert!(run.success, "heat tournament failed:\n{}", last_lines(&run));
    assert_eq!(journal.get("finished").copied(), Some(planned), "every planned debate finished: {journal:?}");
    (run, data)
}

/// Part 1: 1,000 debates against instant models, 100 at once.
async fn run_instant() {
    let seen = Arc::new(Tally::default());
    let tallied = Arc::clone(&seen);
    let server = MockLlm::with_handler(move |r| instant(r, &tallied)).await;
    let planned = MODELS.len() * (MODELS.len() - 1) * INSTANT_PROPOSITIONS;
    println!(
        "part 1: {planned} debates ({} models: {} pairs × 2 sides × {INSTANT_PROPOSITIONS} propositions), \
         {INSTANT_ROUNDS} rounds, {CONCURRENCY} at once, instant models",
        MODELS.len(),
        MODELS.len() * (MODELS.len() - 1) / 2
    );
    let text = tournament_file(INSTANT_PROPOSITIONS, INSTANT_ROUNDS);
    let (run, data) = tournament(&server, &text, planned, ("instant", None)).await;
    let journal = journal(data.path());
    let finished = planned;

    let debates = finished as f64;
    let wall = run.wall.as_secs_f64();
    let first = run.first_line("begins:").unwrap_or(run.started);
    let setup_wall = first.duration_since(run.started).as_secs_f64();
    let setup_cpu = run.cpu_at(first);
    let stored = stored(data.path());
    let calls = seen.lock().unwrap().clone();
    let mut rows = vec![
        ("debates finished (journal)".to_string(), thousands(finished as u64)),
        ("wall time".to_string(), format!("{wall:.1} s ({:.1} debates/s)", debates / wall)),
        (
            "  before the first debate began".to_string(),
            format!("{setup_wall:.2} s wall, {setup_cpu:.2} s CPU (file read, {planned} configs checked)"),
        ),
        (
            "heat CPU (user + system)".to_string(),
            format!(
                "{:.1} s ({:.1} + {:.1}) = {:.0} % of one core over the run",
                run.cpu(),
                run.user,
                run.system,
                100.0 * run.cpu() / wall
            ),
        ),
        (
            "heat CPU per debate".to_string(),
            format!(
                "{:.1} ms ({:.1} ms after the set-up)",
                1000.0 * run.cpu() / debates,
                1000.0 * (run.cpu() - setup_cpu) / debates
            ),
        ),
    ];
    // The same work a debate, later with more sessions in the data dir (until the 900th
    // finishes, a debate begins as each ends: the last 100 only end).
    for (from, to) in [(100, 200), (450, 550), (800, 900)] {
        let done = |n: usize| run.first_line(&format!("[{n}/{planned}]"));
        if let (Some(a), Some(b)) = (done(from), done(to)) {
            let n = (to - from) as f64;
            rows.push((
                format!("  debates {}–{to} finished: a debate's", from + 1),
                format!(
                    "{:.1} ms CPU, {:.0} ms wall",
                    1000.0 * (run.cpu_at(b) - run.cpu_at(a)) / n,
                    1000.0 * b.duration_since(a).as_secs_f64() / n
                ),
            ));
        }
    }
    rows.extend([
        ("heat peak memory (VmHWM)".to_string(), format!("{:.1} MB", run.peak_kb as f64 / 1024.0)),
        (
            "write syscalls (syscw)".to_string(),
            format!("{} ({:.0} a debate)", thousands(run.io.syscw), run.io.syscw as f64 / debates),
        ),
        (
            "bytes written by syscalls (wchar)".to_string(),
            format!("{} (files, sockets and standard error)", mb(run.io.wchar)),
        ),
        ("bytes sent to the disk (write_bytes)".to_string(), mb(run.io.write_bytes)),
        (
            "read syscalls (syscr) / bytes (rchar)".to_string(),
            format!("{} / {}", thousands(run.io.syscr), mb(run.io.rchar)),
        ),
    ]);
    for (kind, (files, bytes)) in &stored {
        rows.push((format!("left in the data dir: {kind}"), format!("{} files, {}", thousands(*files), mb(*bytes))));
    }
    let lines: Vec<String> = journal.iter().map(|(k, n)| format!("{n} {k}")).collect();
    rows.push(("journal lines".to_string(), lines.join(", ")));
    for (what, n) in &calls {
        rows.push((format!("server asked: {what}"), thousands(*n as u64)));
    }
    rows.push((
        "the mock server's CPU (this process)".to_string(),
        format!("{:.1} s = {:.0} % of one core", run.bench_cpu, 100.0 * run.bench_cpu / wall),
    ));
    table(&format!("heat tournament: {planned} debates, instant models, {CONCURRENCY} at once"), &rows);
}

/// Prints what part 2 (or, with `board`, part 3) runs; its name and how
/// heat shows its progress there.
fn announce(board: bool, planned: usize, turn: Duration) -> (&'static str, &'static str) {
    let (part, name, under) = if board {
        ("3", "board", "under the board on a 120×40 terminal")
    } else {
        ("2", "stream", "progress lines on a pipe")
    };
    println!(
        "\npart {part}: {planned} debates, 1 round, {CONCURRENCY} at once; each turn {TURN_TOKENS} tokens at {:.0} tokens/s ({:.1} s); {under}",
        1.0 / TOKEN_EVERY.as_secs_f64(),
        turn.as_secs_f64()
    );
    (name, under)
}

/// Part 2: 100 debates streaming at once, each debater at 50 tokens/s;
/// with `board`, part 3: the same at a terminal, under the board.
async fn run_stream(board: bool) {
    let seen = Arc::new(Tally::default());
    let asked = Arc::new(Asked::default());
    let (tallied, stamped) = (Arc::clone(&seen), Arc::clone(&asked));
    let server = MockLlm::with_handler(move |r| paced(r, &tallied, &stamped)).await;
    let planned = MODELS.len() * (MODELS.len() - 1) * STREAM_PROPOSITIONS;
    let turn = turn_time();
    let (name, under) = announce(board, planned, turn);
    let terminal = board.then(Terminal::open);
    let (run, _data) =
        tournament(&server, &tournament_file(STREAM_PROPOSITIONS, 1), planned, (name, terminal.as_ref())).await;

    let mut asked = asked.lock().unwrap().clone();
    asked.sort();
    let streams = asked.len();
    let (first, all) = (asked[0], asked[streams - 1]);
    // Every stream runs from the last one's start until the first one's end.
    let (window_start, window_end) = (all, first + turn);
    let last_end = all + turn;
    let share = |from: Instant, to: Instant| {
        let wall = to.saturating_duration_since(from).as_secs_f64();
        (wall, run.cpu_at(to) - run.cpu_at(from))
    };
    let (window, window_cpu) = share(window_start, window_end);
    let (period, period_cpu) = share(first, last_end);
    let wall = run.wall.as_secs_f64();
    let (w0, w1) = (run.io_at(window_start), run.io_at(window_end));
    let mut rows = vec![
        ("debates finished (journal)".to_string(), planned.to_string()),
        (
            "debater streams".to_string(),
            format!(
                "{streams} × {TURN_TOKENS} tokens at {:.0} tokens/s = {:.0} tokens/s combined",
                1.0 / TOKEN_EVERY.as_secs_f64(),
                streams as f64 / TOKEN_EVERY.as_secs_f64()
            ),
        ),
        (
            "streams asked over".to_string(),
            format!(
                "{:.2} s after heat started, {:.2} s from first to last",
                first.duration_since(run.started).as_secs_f64(),
                all.duration_since(first).as_secs_f64()
            ),
        ),
    ];
    if window > 0.5 {
        rows.push((
            format!("heat CPU while all {streams} stream"),
            format!("{window_cpu:.2} s in {window:.2} s = {:.1} % of one core", 100.0 * window_cpu / window),
        ));
        rows.push((
            "  its write / read syscalls meanwhile".to_string(),
            format!(
                "{:.0} / {:.0} a second",
                (w1.syscw - w0.syscw) as f64 / window,
                (w1.syscr - w0.syscr) as f64 / window
            ),
        ));
    }
    rows.extend([
        (
            "heat CPU, first stream to last end".to_string(),
            format!("{period_cpu:.2} s in {period:.2} s = {:.1} % of one core", 100.0 * period_cpu / period),
        ),
        (
            "heat CPU, whole run".to_string(),
            format!(
                "{:.2} s ({:.2} + {:.2}) in {wall:.2} s = {:.1} % of one core",
                run.cpu(),
                run.user,
                run.system,
                100.0 * run.cpu() / wall
            ),
        ),
        ("heat peak memory (VmHWM)".to_string(), format!("{:.1} MB", run.peak_kb as f64 / 1024.0)),
        (
            "write syscalls (syscw), whole run".to_string(),
            format!("{} ({} by wchar)", thousands(run.io.syscw), mb(run.io.wchar)),
        ),
        (
            "progress lines printed".to_string(),
            format!(
                "{} in all, {} while all streamed",
                run.lines.len(),
                run.lines.iter().filter(|(at, _)| *at >= window_start && *at <= window_end).count()
            ),
        ),
        (
            "the mock server's CPU (this process)".to_string(),
            format!("{:.1} s = {:.0} % of one core over the run", run.bench_cpu, 100.0 * run.bench_cpu / wall),
        ),
    ]);
    rows.extend(drawn_and_asked(terminal.as_ref(), &seen, wall));
    table(&format!("heat tournament: {planned} debates streaming at once, 50 tokens/s a debater, {under}"), &rows);
}

/// The bytes heat drew on the terminal, if it had one, and what the server was asked.
fn drawn_and_asked(terminal: Option<&Terminal>, seen: &Tally, wall: f64) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    if let Some(terminal) = terminal {
        let drawn = terminal.bytes.load(std::sync::atomic::Ordering::Relaxed);
        rows.push((
            "bytes drawn on the terminal (the board)".to_string(),
            format!("{} in all, {:.0} a second of the run", thousands(drawn), drawn as f64 / wall),
        ));
    }
    for (what, n) in seen.lock().unwrap().iter() {
        rows.push((format!("server asked: {what}"), thousands(*n as u64)));
    }
    rows
}

/// The last lines heat printed, for a failure's message.
fn last_lines(run: &Watched) -> String {
    let lines: Vec<&str> = run.lines.iter().rev().take(20).map(|(_, l)| l.as_str()).collect();
    lines.into_iter().rev().collect::<Vec<_>>().join("\n")
}

fn main() {
    let parts = std::env::var("HEAT_BENCH_PARTS").unwrap_or_else(|_| "instant,stream,board".into());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    if parts.contains("instant") {
        runtime.block_on(run_instant());
    }
    if parts.contains("stream") {
        runtime.block_on(run_stream(false));
    }
    if parts.contains("board") {
        runtime.block_on(run_stream(true));
    }
}
