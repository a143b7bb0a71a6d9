//! The debate under load: the mock model server's script (two debaters
//! streaming one token per SSE event on a steady schedule, a judge that
//! never resolves, so every round is played), the studio in a 200×50
//! pseudo-terminal with each write it makes timestamped, and what the
//! session log says of the debate's pace.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use super::support::mock_llm::{Recorded, Reply, openai_sse};

/// What the mock model server plays.
#[derive(Debug, Clone, Copy)]
pub struct Script {
    /// Tokens each debater streams a turn.
    pub tokens: usize,
    /// One token per stream this often.
    pub every: Duration,
    /// How long the judge thinks before its verdict.
    pub judge_hold: Duration,
}

/// One debater's turn as the server sent it.
#[derive(Debug, Clone)]
pub struct Stream {
    /// `A` (the advocate) or `S` (the skeptic).
    pub tag: char,
    /// From 1.
    pub round: u32,
    pub arrived: Instant,
    /// When the request arrived, in milliseconds since the Unix epoch.
    pub arrived_ms: f64,
    /// The byte offset where each token ends in the turn's text; token
    /// `k` (from 0) is the reply's SSE event `k + 1`.
    pub ends: Vec<usize>,
}

impl Stream {
    /// When the turn's last token was sent.
    pub fn last_sent(&self, every: Duration) -> Instant {
        self.arrived + every * u32::try_from(self.ends.len()).unwrap_or(u32::MAX)
    }

    /// The text on screen once the turn's last token is shown.
    pub fn marker(&self) -> String {
        marker(self.tag, self.round)
    }
}

fn marker(tag: char, round: u32) -> String {
    format!("END{tag}{round:02}")
}

pub fn epoch_ms(at: SystemTime) -> f64 {
    at.duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// `n` tokens of Markdown, each a word with the space after it or four
/// characters of a longer one; the last is the turn's marker.
fn tokens(tag: char, round: u32, n: usize) -> Vec<String> {
    let mut out = Vec::with_capacity(n);
    let mut block = 0;
    while out.len() < n.saturating_sub(1) {
        block += 1;
        let text = format!(
            "## {tag} point {block}\n\n\
             Remote work **saves** the commute and lets a team hire across regions; several large surveys \
             found that output held steady while *attrition* fell.\n\n\
             - **Focus**: fewer interruptions mean longer stretches of deep work.\n\
             - **Reach**: a company can hire the best person, not the nearest one.\n\n"
        );
        for word in text.split_inclusive([' ', '\n']) {
            let chars: Vec<char> = word.chars().collect();
            out.extend(chars.chunks(4).map(|c| c.iter().collect::<String>()));
        }
    }
    out.truncate(n.saturating_sub(1));
    out.push(format!(" {}.", marker(tag, round)));
    out
}

/// The judge's verdict on `round` (from 1): never resolved, each round's
/// words its own (heat asks again for a verdict that repeats the last).
fn verdict(round: usize) -> String {
    const SAID: [(&str, &str); 5] = [
        (
            "The advocate showed the commute savings; the skeptic pressed on onboarding.",
            "How do new hires learn the job when they never sit beside the team?",
        ),
        (
            "Hiring reach was argued well, but trust across time zones stayed open.",
            "How does a team build trust across time zones without meeting?",
        ),
        (
            "Costs were compared fairly; the point on mentoring went unanswered.",
            "Who mentors the juniors, and how, when nobody shares a room?",
        ),
        (
            "Both sharpened their claims about output; how to measure it remains weak.",
            "How should a company measure output rather than presence?",
        ),
        (
            "A hybrid emerged; neither side settled what happens to a team's culture.",
            "What happens to a team's culture when it meets only on screens?",
        ),
    ];
    let (verdict, topic) = SAID[round.saturating_sub(1) % SAID.len()];
    let lap = round.saturating_sub(1) / SAID.len();
    let again = if lap > 0 { format!(" (lap {lap})") } else { String::new() };
    format!(
        r#"{{"resolved": false, "verdict": "{verdict}{again}", "ahead": "even", "conceded": "none", "topic": "{topic}{again}", "heat": 0.7}}"#
    )
}

/// The server's answer to one of heat's requests.
pub fn reply(request: &Recorded, script: &Script, streams: &Mutex<Vec<Stream>>) -> Reply {
    let system = request.system();
    if system.contains("You are the JUDGE") {
        let round = streams.lock().unwrap().iter().filter(|s| s.tag == 'A').count();
        return Reply::sse(&openai_sse(&[&verdict(round)], None), 4096).with_delay(script.judge_hold);
    }
    let tag = if system.contains("You are the ADVOCATE") {
        'A'
    } else if system.contains("You are the SKEPTIC") {
        'S'
    } else {
        return Reply::sse(&openai_sse(&["Noted."], None), 4096);
    };
    let mut streams = streams.lock().unwrap();
    let round = u32::try_from(streams.iter().filter(|s| s.tag == tag).count()).unwrap_or(u32::MAX) + 1;
    let parts = tokens(tag, round, script.tokens);
    let ends = parts
        .iter()
        .scan(0, |at, t| {
            *at += t.len();
            Some(*at)
        })
        .collect();
    let body = openai_sse(&parts.iter().map(String::as_str).collect::<Vec<_>>(), None);
    // One SSE event per piece: the stream is "data: …\n\n" events.
    let text = String::from_utf8(body).unwrap();
    let pieces: Vec<Vec<u8>> = text.split_inclusive("\n\n").map(|e| e.as_bytes().to_vec()).collect();
    let (arrived, arrived_ms) = (Instant::now(), epoch_ms(SystemTime::now()));
    streams.push(Stream { tag, round, arrived, arrived_ms, ends });
    Reply { pieces, ..Reply::sse(b"", 1) }.paced(script.every)
}

/// The studio in a 200×50 pseudo-terminal: its screen, and when it wrote
/// how much.
pub struct Studio {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    pub pid: u32,
    screen: Arc<Mutex<vt100::Parser>>,
    pub writes: Arc<Mutex<Vec<(Instant, usize)>>>,
    keyboard: Mutex<Box<dyn Write + Send>>,
}

impl Studio {
    /// Starts `heat` on `topic` for `rounds` rounds against the OpenAI-format
    /// server at `base_url`, its data in `data`.
    pub fn open(data: &Path, base_url: &str, rounds: u32, topic: &str) -> Studio {
        let config = data.join("heat.toml");
        std::fs::write(&config, "[roles]\nmax_tokens = 100000\n[network]\nmax_retries = 0\n").unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_heat"));
        let rounds = rounds.to_string();
        cmd.args(["--config", config.to_str().unwrap(), "--max-rounds", &rounds, topic]);
        cmd.env("HEAT_DATA_DIR", data);
        cmd.env("HEAT_PROVIDER", "openai");
        cmd.env("HEAT_MODEL", "m");
        cmd.env("OPENAI_API_KEY", "sk-bench");
        cmd.env("OPENAI_BASE_URL", format!("{base_url}/v1"));
        // Where the audience key serves the page: any free port on loopback.
        cmd.env("HEAT_AUDIENCE", "127.0.0.1:0");
        cmd.env("TERM", "xterm-256color");
        for var in ["ANTHROPIC_API_KEY", "NO_COLOR", "HEAT_FORMAT", "HEAT_FOLLOW"] {
            cmd.env_remove(var);
        }
        let pty =
            native_pty_system().openpty(PtySize { rows: 50, cols: 200, pixel_width: 0, pixel_height: 0 }).unwrap();
        let child = pty.slave.spawn_command(cmd).unwrap();
        let pid = child.process_id().expect("pid");
        drop(pty.slave);
        let rows = std::num::NonZero::new(50).unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, std::num::NonZero::new(200).unwrap(), 0)));
        let writes = Arc::new(Mutex::new(Vec::with_capacity(1 << 14)));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let (parser, stamps) = (Arc::clone(&screen), Arc::clone(&writes));
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 65536];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                stamps.lock().unwrap().push((Instant::now(), n));
                parser.lock().unwrap().process(&buf[..n]);
            }
        });
        let keyboard = Mutex::new(pty.master.take_writer().unwrap());
        // The pty's master stays open as long as its reader and writer do.
        Studio { child, pid, screen, writes, keyboard }
    }

    pub fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    pub fn press(&self, keys: &[u8]) {
        let mut keyboard = self.keyboard.lock().unwrap();
        keyboard.write_all(keys).unwrap();
        keyboard.flush().unwrap();
    }

    /// Waits until the screen shows `needle`.
    pub async fn until_shown(&self, what: &str, needle: &str, limit: Duration) -> Instant {
        let deadline = Instant::now() + limit;
        loop {
            if self.text().contains(needle) {
                return Instant::now();
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}:\n{}", self.text());
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Closes the results that open by themselves at the end, then the
    /// studio: when it exited, in milliseconds since the Unix epoch.
    pub async fn quit(mut self) -> f64 {
        self.press(b"q");
        tokio::time::sleep(Duration::from_millis(500)).await;
        if self.child.try_wait().unwrap().is_none() {
            self.press(b"q");
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                eprintln!("the studio did not quit; killed:\n{}", self.text());
                let _ = self.child.kill();
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        epoch_ms(SystemTime::now())
    }
}

/// CPU seconds (user + system) a process has used.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let Some(close) = stat.rfind(')') else { return 0.0 };
    let fields: Vec<&str> = stat[close + 2..].split_whitespace().collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) as f64 / 100.0
}

/// Peak resident memory of a running process, in MiB.
pub fn peak_rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next());
    kib.and_then(|k| k.parse::<f64>().ok()).unwrap_or(0.0) / 1024.0
}

/// The session log, read once the studio has quit.
pub struct Log {
    pub created_ms: f64,
    /// `(ms, event)` of every record.
    pub records: Vec<(f64, serde_json::Value)>,
}

impl Log {
    pub fn read(path: &Path) -> Log {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().expect("a header")).unwrap();
        let created_ms = header["created_ms"].as_f64().expect("created_ms");
        let records = lines
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .map(|mut r| (r["ms"].as_f64().unwrap_or(0.0), r["event"].take()))
            .collect();
        Log { created_ms, records }
    }

    /// Every ballot the log counts: (round from 0, voter).
    pub fn ballots(&self) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        for (_, event) in self.records.iter().filter(|(_, e)| e["type"] == "audience_voted") {
            let round = u32::try_from(event["round"].as_u64().unwrap_or(u64::MAX)).unwrap_or(u32::MAX);
            for ballot in event["ballots"].as_array().into_iter().flatten() {
                out.push((round, ballot["voter"].as_str().unwrap_or_default().to_string()));
            }
        }
        out
    }

    /// When each round (from 0) started, in milliseconds since the Unix epoch.
    pub fn round_starts(&self) -> Vec<(u32, f64)> {
        let starts = self.records.iter().filter(|(_, e)| e["type"] == "round_started");
        starts.map(|(ms, e)| (e["round"].as_u64().unwrap_or(0) as u32, self.created_ms + ms)).collect()
    }
}

/// The debate's pace as the log has it.
#[derive(Debug, Default)]
pub struct Pace {
    /// Milliseconds between a turn's consecutive deltas.
    pub gaps_ms: Vec<f64>,
    /// Each debater turn's tokens per second, first delta to last.
    pub turn_rates: Vec<f64>,
    /// For each delta: from the server sending its last token to heat
    /// recording it (the log's clock against this one: ±2 ms).
    pub delays_ms: Vec<f64>,
}

/// Reads each debater turn's deltas against the streams the server sent.
pub fn pace(log: &Log, streams: &[Stream], every: Duration) -> Pace {
    let mut pace = Pace::default();
    for stream in streams {
        let role = if stream.tag == 'A' { "advocate" } else { "skeptic" };
        let deltas: Vec<(f64, usize)> = log
            .records
            .iter()
            .filter(|(_, e)| e["type"] == "delta" && e["role"] == role && e["round"] == stream.round - 1)
            .map(|(ms, e)| (*ms, e["text"].as_str().map_or(0, str::len)))
            .collect();
        let (Some(first), Some(last)) = (deltas.first(), deltas.last()) else { continue };
        if last.0 > first.0 {
            pace.turn_rates.push(stream.ends.len() as f64 * 1000.0 / (last.0 - first.0));
        }
        pace.gaps_ms.extend(deltas.windows(2).map(|w| w[1].0 - w[0].0));
        let mut shown = 0;
        for (ms, len) in deltas {
            shown += len;
            // Tokens wholly in the text so far; the last of them was event `k`.
            let k = stream.ends.partition_point(|end| *end <= shown);
            let sent = stream.arrived_ms + every.as_secs_f64() * 1000.0 * k as f64;
            pace.delays_ms.push(log.created_ms + ms - sent);
            if std::env::var_os("DEBUG_DELAYS").is_some() && log.created_ms + ms - sent > 50.0 {
                eprintln!(
                    "DELAY {} {} k={k} ms={ms} delay={:.1}",
                    stream.tag,
                    stream.round,
                    log.created_ms + ms - sent
                );
            }
        }
    }
    pace
}

/// Frame starts while both debaters stream: writes closer than 2 ms to the
/// one before are the same frame.
pub fn frame_starts(writes: &[(Instant, usize)], streams: &[Stream], every: Duration) -> Vec<Vec<Instant>> {
    let mut windows = Vec::new();
    let rounds = streams.iter().map(|s| s.round).max().unwrap_or(0);
    for round in 1..=rounds {
        let of_round: Vec<&Stream> = streams.iter().filter(|s| s.round == round).collect();
        let Some(from) = of_round.iter().map(|s| s.arrived).max() else { continue };
        let Some(to) = of_round.iter().map(|s| s.last_sent(every)).min() else { continue };
        let mut starts = Vec::new();
        let mut last: Option<Instant> = None;
        for (at, _) in writes.iter().filter(|(at, _)| *at >= from && *at <= to) {
            if last.is_none_or(|l| at.duration_since(l) > Duration::from_millis(2)) {
                starts.push(*at);
            }
            last = Some(*at);
        }
        windows.push(starts);
    }
    windows
}
