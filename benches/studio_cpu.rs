//! The studio's CPU cost, measured on the real binary in a pseudo-terminal
//! against the mock Anthropic server: two debaters streaming at 1,500
//! tokens/s each and then the judge at 3,000 tokens/s (3,000 tokens/s
//! combined), then ten seconds with nothing streaming. Reports the process's
//! own CPU time (utime + stime from /proc) as a share of one core, and how
//! far behind the stream the screen was when the last token arrived.
//!
//! Then the same with six free debaters (a six-seat format, no judge) each
//! streaming about 540 tokens/s (over 3,000 tokens/s combined) in a 3×2 grid.
//!
//! Run: `cargo bench --bench studio_cpu` (not criterion: the quantity is a
//! CPU share over a fixed run, not a per-iteration time). With
//! `HEAT_BENCH_DUMP=DIR`, every process's terminal output is also kept in
//! `DIR/PID.out`, to see what the bytes are.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/it/support/mod.rs"]
mod support;
#[path = "studio_cpu/token_stream.rs"]
mod token_stream;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use support::mock_llm::{MockLlm, Recorded, Reply, anthropic_sse};

const DEBATER_TOKENS: usize = 15_000;
const JUDGE_TOKENS: usize = 3_000;
/// Bytes per body piece and the pause before each: about 18 delta events
/// (tokens) every 10 ms: 1,800 tokens/s per stream, about 1,600 after the timer's
/// overshoot, which the bench measures and reports.
const PIECE: usize = 18 * 118;
const PIECE_DELAY: Duration = Duration::from_millis(10);

fn words(role: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i {
            _ if i + 1 == n => format!("END{role}"),
            _ if i % 60 == 59 => format!("{role}{i}.\n\n"),
            _ => format!("{role}{i} "),
        })
        .collect()
}

/// (role, when the request arrived, how many body pieces the reply has)
type Started = Mutex<Vec<(String, Instant, u32)>>;

/// Tokens each of the six debaters sends, and its body piece: 6 tokens
/// every 10 ms, 600 tokens/s a seat, about 540 after the timer's overshoot:
/// at least 3,000 tokens/s combined, which the bench measures and reports.
const SIX_TOKENS: usize = 6_000;
const SIX_PIECE: usize = 6 * 118;

fn reply(request: &Recorded, started: &Started) -> Reply {
    let system = request.system();
    if let Some(seat) = (0..6).find(|i| system.contains(&format!("You are SEAT{i}"))) {
        let role = format!("D{seat}");
        let parts = words(&role, SIX_TOKENS);
        let body = anthropic_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None);
        let pieces = body.len().div_ceil(SIX_PIECE) as u32;
        started.lock().unwrap().push((role, Instant::now(), pieces));
        return Reply::sse(&body, SIX_PIECE).with_delay(PIECE_DELAY);
    }
    let (role, n, piece) = if system.contains("You are the JUDGE") {
        ("J", JUDGE_TOKENS, PIECE * 2)
    } else if system.contains("You are the ADVOCATE") {
        ("A", DEBATER_TOKENS, PIECE)
    } else {
        ("S", DEBATER_TOKENS, PIECE)
    };
    let body = if role == "J" {
        let verdict = words(role, n).concat().replace('\n', " ");
        let json = format!(r#"{{"resolved": true, "verdict": "{verdict}", "topic": "t", "heat": 0.5}}"#);
        let parts: Vec<String> = json.split_inclusive(' ').map(str::to_string).collect();
        anthropic_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None)
    } else {
        let parts = words(role, n);
        anthropic_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None)
    };
    let pieces = body.len().div_ceil(piece) as u32;
    started.lock().unwrap().push((role.to_string(), Instant::now(), pieces));
    Reply::sse(&body, piece).with_delay(PIECE_DELAY)
}

/// The studio started in a 200×50 pseudo-terminal: the process, what its
/// screen shows, how many bytes it wrote, and its keyboard.
struct Opened {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    pid: u32,
    screen: Arc<Mutex<vt100::Parser>>,
    bytes_out: Arc<Mutex<usize>>,
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
}

/// Starts `heat` with `config` and `args` against the mock server at `base_url`.
fn open(config: &std::path::Path, args: &[&str], data: &std::path::Path, base_url: &str) -> Opened {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_heat"));
    cmd.args(["--config", config.to_str().unwrap()]);
    cmd.args(args);
    cmd.env("HEAT_DATA_DIR", data);
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-bench");
    cmd.env("ANTHROPIC_BASE_URL", base_url);
    for var in ["OPENAI_API_KEY", "HEAT_PROVIDER", "HEAT_MODEL", "NO_COLOR", "HEAT_FORMAT"] {
        cmd.env_remove(var);
    }
    spawn(cmd, 200)
}

/// Runs `cmd` in a pseudo-terminal 50 rows high and `cols` wide, reading
/// everything it writes into a screen and counting the bytes.
fn spawn(mut cmd: CommandBuilder, cols: u16) -> Opened {
    let pty = native_pty_system().openpty(PtySize { rows: 50, cols, pixel_width: 0, pixel_height: 0 }).unwrap();
    cmd.env("TERM", "xterm-256color");
    let child = pty.slave.spawn_command(cmd).unwrap();
    let pid = child.process_id().expect("pid");
    drop(pty.slave);
    let screen = Arc::new(Mutex::new(vt100::Parser::new(
        std::num::NonZero::new(50).unwrap(),
        std::num::NonZero::new(cols).unwrap(),
        0,
    )));
    let mut reader = pty.master.try_clone_reader().unwrap();
    let parser = Arc::clone(&screen);
    let bytes_out = Arc::new(Mutex::new(0usize));
    let counted = Arc::clone(&bytes_out);
    let writer = Arc::new(Mutex::new(pty.master.take_writer().unwrap()));
    let answers = Arc::clone(&writer);
    let mut dump = std::env::var_os("HEAT_BENCH_DUMP")
        .map(|dir| std::fs::File::create(std::path::Path::new(&dir).join(format!("{pid}.out"))).unwrap());
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            *counted.lock().unwrap() += n;
            if let Some(file) = dump.as_mut() {
                file.write_all(&buf[..n]).unwrap();
            }
            // A terminal answers a cursor-position query (aichat asks for one).
            let mut rest = &buf[..n];
            while let Some(at) = rest.windows(4).position(|w| w == b"\x1b[6n") {
                let mut parser = parser.lock().unwrap();
                parser.process(&rest[..at + 4]);
                let (row, col) = parser.screen().cursor_position();
                let mut answer = answers.lock().unwrap();
                let _ = write!(answer, "\x1b[{};{}R", row + 1, col + 1).and_then(|()| answer.flush());
                rest = &rest[at + 4..];
            }
            parser.lock().unwrap().process(rest);
        }
    });
    Opened { child, pid, screen, bytes_out, writer }
}

/// Types `keys` into a studio.
fn press(writer: &Mutex<Box<dyn Write + Send>>, keys: &[u8]) {
    let mut writer = writer.lock().unwrap();
    writer.write_all(keys).unwrap();
    writer.flush().unwrap();
}

/// CPU seconds (user + system) a process has used.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("read /proc stat");
    let after_name = &stat[stat.rfind(')').expect("stat format") + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(token_stream::run());
    if std::env::var_os("HEAT_BENCH_TOKENS_ONLY").is_some() {
        return;
    }
    runtime.block_on(run());
    runtime.block_on(run_six());
}

/// Writes a format of six free seats, each with a brief naming it, beside `config`.
fn six_seat_format(config: &std::path::Path) {
    let dir = config.parent().unwrap().join("formats");
    std::fs::create_dir_all(&dir).unwrap();
    let mut file = String::from("summary = \"six debaters\"\nmax_rounds = 1\n");
    for i in 0..6 {
        std::fs::write(dir.join(format!("seat{i}.md")), format!("You are SEAT{i}. Answer in your own words.")).unwrap();
        file.push_str(&format!(
            "[[seats]]\nid = \"s{i}\"\nlabel = \"Seat {i}\"\nside = \"free\"\nbrief = \"seat{i}.md\"\n\n"
        ));
    }
    file.push_str("[judges]\ncount = 0\n");
    std::fs::write(dir.join("six.toml"), file).unwrap();
}

/// Six debaters at 500 tokens/s each: the studio's CPU share while they stream.
async fn run_six() {
    let started = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&started);
    let server = MockLlm::with_handler(move |r| reply(r, &log)).await;
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[roles]\nmax_tokens = 100000\n[network]\nmax_retries = 0\n").unwrap();
    six_seat_format(&config);
    let args = ["--format", "six", "Remote work beats the office"];
    let Opened { mut child, pid, screen, writer, .. } = open(&config, &args, data.path(), &server.base_url);
    let shows = |needle: &str| screen.lock().unwrap().screen().contents().contains(needle);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !shows("LIVE") {
        assert!(Instant::now() < deadline, "the six-seat debate did not start");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let cpu_start = cpu_seconds(pid);
    let wall_start = Instant::now();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !shows("Debate over") {
        assert!(Instant::now() < deadline, "the six-seat debate did not end");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let wall = wall_start.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu_start;
    let seats = started.lock().unwrap().len();
    let rate = 6.0 * SIX_TOKENS as f64 / wall;
    println!(
        "six debaters ({seats} streams, {rate:.0} tokens/s combined): {wall:.1} s wall, {cpu:.2} s CPU = {:.1}% of one core",
        100.0 * cpu / wall
    );
    // The results open by themselves at the end: the first `q` closes them.
    press(&writer, b"q");
    tokio::time::sleep(Duration::from_millis(500)).await;
    if child.try_wait().unwrap().is_none() {
        press(&writer, b"q");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the studio did not quit");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// One measurement script, read top to bottom; splitting it would scatter its timeline.
#[allow(clippy::too_many_lines)]
async fn run() {
    // What a 10 ms sleep really takes here, to place each stream's true end.
    let calibrate = Instant::now();
    for _ in 0..50 {
        tokio::time::sleep(PIECE_DELAY).await;
    }
    let piece_time = calibrate.elapsed() / 50;
    let started = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&started);
    let server = MockLlm::with_handler(move |r| reply(r, &log)).await;
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("heat.toml");
    std::fs::write(&config, "[roles]\nmax_tokens = 100000\n[network]\nmax_retries = 0\n").unwrap();

    let args = ["--max-rounds", "1", "Remote work beats the office"];
    let Opened { mut child, pid, screen, bytes_out, writer } = open(&config, &args, data.path(), &server.base_url);
    let text = || screen.lock().unwrap().screen().contents();

    let wait_for = |what: &'static str, needle: &'static str, limit: Duration| {
        let screen = Arc::clone(&screen);
        async move {
            let deadline = Instant::now() + limit;
            loop {
                if screen.lock().unwrap().screen().contents().contains(needle) {
                    return Instant::now();
                }
                assert!(Instant::now() < deadline, "timed out waiting for {what}");
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    };

    wait_for("the debate to start", "LIVE", Duration::from_secs(20)).await;
    let cpu_start = cpu_seconds(pid);
    let wall_start = Instant::now();
    let a_end = wait_for("the advocate's last token", "ENDA", Duration::from_secs(120)).await;
    let s_end = wait_for("the skeptic's last token", "ENDS", Duration::from_secs(120)).await;
    let j_end = wait_for("the judge's last token", "ENDJ", Duration::from_secs(120)).await;
    wait_for("the ending", "Debate over", Duration::from_secs(20)).await;
    let streaming_wall = wall_start.elapsed().as_secs_f64();
    let streaming_cpu = cpu_seconds(pid) - cpu_start;
    let frames_bytes = *bytes_out.lock().unwrap();

    let (lag, rate) = {
        let log = started.lock().unwrap();
        let entry = |role: &str| log.iter().find(|(r, ..)| r == role).expect("request seen").clone();
        let lag = |role: &str, shown: Instant| {
            let (_, at, pieces) = entry(role);
            shown.saturating_duration_since(at + piece_time * pieces).as_secs_f64() * 1000.0
        };
        let first = entry("A").1.min(entry("S").1);
        let debaters = a_end.max(s_end).duration_since(first).as_secs_f64();
        ([lag("A", a_end), lag("S", s_end), lag("J", j_end)], 2.0 * DEBATER_TOKENS as f64 / debaters)
    };
    println!(
        "streaming: {streaming_wall:.1} s wall, {streaming_cpu:.2} s CPU = {:.1}% of one core",
        100.0 * streaming_cpu / streaming_wall
    );
    println!("debaters streamed {rate:.0} tokens/s combined (one 10 ms server tick took {piece_time:?})");
    println!(
        "last token on screen after its stream ended: advocate {:.0} ms, skeptic {:.0} ms, judge {:.0} ms",
        lag[0], lag[1], lag[2]
    );
    println!("terminal output during the run: {:.1} MB", frames_bytes as f64 / 1e6);

    let idle_cpu_start = cpu_seconds(pid);
    tokio::time::sleep(Duration::from_secs(10)).await;
    let idle_cpu = cpu_seconds(pid) - idle_cpu_start;
    println!("idle (debate over, nothing streaming) 10 s: {:.2} s CPU = {:.2}% of one core", idle_cpu, 10.0 * idle_cpu);

    // The results open by themselves at the end: the first `q` closes them.
    press(&writer, b"q");
    tokio::time::sleep(Duration::from_millis(500)).await;
    if child.try_wait().unwrap().is_none() {
        press(&writer, b"q");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the studio did not quit:\n{}", text());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
