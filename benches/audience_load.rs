//! The audience page under load, on loopback, while a debate streams: the
//! studio runs a real debate in a 200×50 pseudo-terminal against a mock
//! OpenAI-format server (two debaters streaming one token per SSE event,
//! 500 tokens/s each on a steady schedule, a judge that never resolves, so
//! all five rounds are played), three times:
//!
//! - quiet: nobody watches;
//! - `heat watch --web`: the page served by another heat, with 200 watchers
//!   following its server-sent events and 200 visitors each voting once in
//!   each of the five rounds (1,000 votes), each at a random moment of the
//!   time the page shows the round open (a round stands open for two);
//! - studio: the same room on the page the studio itself serves (its
//!   audience key).
//!
//! For each it prints the debate's pace (the wall time, each turn's tokens
//! per second and the gaps between its deltas in the session log, how long
//! a token took from the server to the log, how long a turn's last token
//! took to reach the screen), the studio's frames while both debaters
//! stream (from the times it wrote to its terminal) and CPU, and for the
//! room: the page server's CPU and peak RSS, what each watcher read and how
//! soon it was told a round opened, the votes' answers and latency. Then it
//! checks every vote: the ballots the log counts are exactly the votes
//! answered 202 (none lost, none counted twice, none more), and the spool
//! holds one line for each; and again for up to 150 more votes sent one
//! every 10 ms while the studio quits. Each lost vote is listed with when
//! it was answered against when the round that closed it started.
//!
//! The room runs in this process on the same two cores as heat: whatever
//! it costs the machine is in the figures. Run: `cargo bench --bench
//! audience_load` (about 80 s). `HEAT_BENCH_WATCHERS`, `HEAT_BENCH_VOTERS`,
//! `HEAT_BENCH_CLOSERS`, `HEAT_BENCH_ROUNDS`, `HEAT_BENCH_TOKENS` (a turn's
//! tokens, 1,500), `HEAT_BENCH_SPREAD_MS` (how long after a round opens a
//! visitor may vote; 1.8 rounds) and `HEAT_BENCH_PAGES` (which of
//! `quiet,watch,studio`) change it; `HEAT_BENCH_KEEP_LOG=path` keeps the
//! last run's session log.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "audience_load/crowd.rs"]
mod crowd;
#[path = "audience_load/debate.rs"]
mod debate;
#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::AsyncBufReadExt;

use crowd::{Cast, Crowd, Room, Watched};
use debate::{Log, Pace, Script, Stream, Studio, cpu_seconds, peak_rss_mib};
use support::mock_llm::MockLlm;

const TOPIC: &str = "Remote work beats the office";

/// Who serves the page, if anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Page {
    Quiet,
    Watch,
    Studio,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::Quiet => "quiet",
            Page::Watch => "heat watch --web",
            Page::Studio => "studio's own page",
        }
    }
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

fn settings() -> (Room, Script, Vec<Page>) {
    let rounds = u32::try_from(env_number("HEAT_BENCH_ROUNDS", 5)).unwrap_or(5).max(1);
    let script = Script {
        tokens: env_number("HEAT_BENCH_TOKENS", 1500).max(10),
        every: Duration::from_millis(2),
        judge_hold: Duration::from_millis(500),
    };
    // A round stands open on the page for two rounds: a visitor votes at any
    // moment of nine tenths of that.
    let round = script.every * u32::try_from(script.tokens).unwrap_or(u32::MAX) + script.judge_hold;
    let spread = std::env::var("HEAT_BENCH_SPREAD_MS").ok().and_then(|v| v.trim().parse().ok());
    let room = Room {
        watchers: env_number("HEAT_BENCH_WATCHERS", 200),
        voters: env_number("HEAT_BENCH_VOTERS", 200),
        rounds,
        spread: spread.map_or_else(|| round.mul_f64(1.8), Duration::from_millis),
        closers: env_number("HEAT_BENCH_CLOSERS", 150),
    };
    let asked = std::env::var("HEAT_BENCH_PAGES").unwrap_or_else(|_| "quiet,watch,studio".into());
    let pages = asked
        .split(',')
        .filter_map(|p| match p.trim() {
            "quiet" => Some(Page::Quiet),
            "watch" => Some(Page::Watch),
            "studio" => Some(Page::Studio),
            _ => None,
        })
        .collect();
    (room, script, pages)
}

fn main() {
    let (room, script, pages) = settings();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    println!(
        "audience load: {} rounds, two debaters × {} tokens a turn at one per {:?} each; room: {} watchers, \
         {} voters × {} rounds, each vote at a random moment within {:.1} s of its round opening; \
         up to {} more votes one every 10 ms while the studio quits",
        room.rounds,
        script.tokens,
        script.every,
        room.watchers,
        room.voters,
        room.rounds,
        room.spread.as_secs_f64(),
        room.closers
    );
    let mut measured = Vec::new();
    for page in pages {
        let run = runtime.block_on(scenario(page, room, script));
        println!("{}: {}", page.name(), run.verdict());
        measured.push(run);
    }
    print_table(&measured, script.tokens);
    let failed = measured.iter().filter_map(|m| m.room.as_ref()).any(|r| !r.passed());
    if failed {
        eprintln!("audience load: FAIL: a vote answered 202 was not counted once (see above)");
        std::process::exit(1);
    }
}

/// What one run measured.
struct Measured {
    page: Page,
    wall_s: f64,
    studio_cpu_s: f64,
    bench_cpu_s: f64,
    pace: Pace,
    /// A turn's last token: from the server sending it to the screen showing it.
    screen_lag_ms: Vec<f64>,
    frame_gaps_ms: Vec<f64>,
    frames_per_s: f64,
    room: Option<Roomed>,
}

/// What the room did and what became of its votes.
struct Roomed {
    /// The page's own process (`heat watch --web`): CPU seconds, peak RSS.
    server: Option<(f64, f64)>,
    server_said: Vec<String>,
    watched: Vec<Watched>,
    turned_away: usize,
    casts: Vec<Cast>,
    check: Check,
    /// The votes sent while the debate's heat quit, and what became of them.
    closing: Check,
    /// Ballots in the log from no visitor of the room.
    strangers: usize,
    /// For each watcher and round after the first: from the log's
    /// `round_started` to the page telling the watcher the round takes votes.
    told_lag_ms: Vec<f64>,
}

/// The page being served.
struct Served {
    base: String,
    process: Option<(tokio::process::Child, Arc<Mutex<Vec<String>>>)>,
}

/// The debate, staged: the model server, the studio, the session's log.
struct Staged {
    _server: MockLlm,
    data: tempfile::TempDir,
    studio: Studio,
    log: PathBuf,
    streams: Arc<Mutex<Vec<Stream>>>,
}

async fn stage(room: Room, script: Script) -> Staged {
    let streams: Arc<Mutex<Vec<Stream>>> = Arc::new(Mutex::new(Vec::new()));
    let sent = Arc::clone(&streams);
    let server = MockLlm::with_handler(move |r| debate::reply(r, &script, &sent)).await;
    let data = tempfile::tempdir().unwrap();
    let studio = Studio::open(data.path(), &server.base_url, room.rounds, TOPIC);
    studio.until_shown("the debate to start", "LIVE", Duration::from_secs(20)).await;
    let log = session_log(data.path()).await;
    Staged { _server: server, data, studio, log, streams }
}

async fn scenario(page: Page, room: Room, script: Script) -> Measured {
    let staged = stage(room, script).await;
    let studio = &staged.studio;
    let (cpu_start, bench_start, wall_start) = (cpu_seconds(studio.pid), own_cpu(), Instant::now());
    let served = serve(page, studio, &staged.log, staged.data.path()).await;
    let mut crowd = match &served {
        Some(served) => Some(Crowd::start(&served.base, room).await),
        None => None,
    };
    let seen = follow_screen(studio, &staged.streams, room.rounds).await;
    let wall_s = wall_start.elapsed().as_secs_f64();
    let studio_cpu_s = cpu_seconds(studio.pid) - cpu_start;
    let casts = match crowd.as_mut() {
        Some(crowd) => tokio::time::timeout(Duration::from_secs(60), crowd.votes()).await.unwrap_or_default(),
        None => Vec::new(),
    };
    // The heat holding the log reads the spool every 200 ms.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let bench_cpu_s = own_cpu() - bench_start;
    let writes = studio.writes.lock().unwrap().clone();
    let Staged { studio, log, streams, data, _server } = staged;
    let room = if let Some(crowd) = crowd {
        Some(close(crowd, studio, served, casts, &log, room.rounds).await)
    } else {
        studio.quit().await;
        None
    };
    if let Some(keep) = std::env::var_os("HEAT_BENCH_KEEP_LOG") {
        std::fs::copy(&log, keep).unwrap();
    }
    let debate_pace = debate::pace(&Log::read(&log), &streams.lock().unwrap(), script.every);
    drop(data);
    let streams = streams.lock().unwrap().clone();
    let (frame_gaps_ms, frames_per_s) = frames(&writes, &streams, script.every);
    let screen_lag_ms = screen_lags(&seen, &streams, script.every);
    Measured {
        page,
        wall_s,
        studio_cpu_s,
        bench_cpu_s,
        pace: debate_pace,
        screen_lag_ms,
        frame_gaps_ms,
        frames_per_s,
        room,
    }
}

/// Quits the studio while visitors kept back vote in the last round, one
/// every 10 ms; then the room leaves, the page stops, and every vote is
/// checked against the log.
async fn close(
    crowd: Crowd,
    studio: Studio,
    served: Option<Served>,
    casts: Vec<Cast>,
    log: &Path,
    rounds: u32,
) -> Roomed {
    let turned_away = crowd.turned_away;
    let (watched, closing) = crowd.leave();
    let watched = watched.await;
    let closing = closing.vote_through_the_close(rounds);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let exited_ms = studio.quit().await;
    let closing_casts = closing.await.unwrap_or_default();
    let (page_process, server_said) = stop_server(served).await;
    let read = Log::read(log);
    let ballots = read.ballots();
    let spooled = spool_ballots(&heat::store::ballots::path_for(log));
    let voters: HashSet<&str> = casts.iter().chain(&closing_casts).map(|c| c.voter.as_str()).collect();
    let strangers = ballots.iter().filter(|(_, v)| !voters.contains(v.as_str())).count();
    let starts = read.round_starts();
    let told_lag_ms = watched
        .iter()
        .flat_map(|w| &w.told)
        .filter_map(|(round, at)| starts.iter().find(|(r, _)| r + 1 == *round && *r > 0).map(|(_, start)| at - start))
        .collect();
    Roomed {
        server: page_process,
        server_said,
        watched,
        turned_away,
        check: Check::new(&casts, &ballots, &spooled, &read, exited_ms),
        closing: Check::new(&closing_casts, &ballots, &spooled, &read, exited_ms),
        casts,
        strangers,
        told_lag_ms,
    }
}

/// The ballots the spool at `path` holds: (round from 0, voter).
fn spool_ballots(path: &Path) -> Vec<(u32, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|b| (b["round"].as_u64().unwrap_or(u64::MAX) as u32, b["voter"].as_str().unwrap_or_default().to_string()))
        .collect()
}

/// CPU seconds this process (the room, the mock server, the terminal) used.
fn own_cpu() -> f64 {
    cpu_seconds(std::process::id())
}

/// The session's log, once the studio has made it.
async fn session_log(data: &Path) -> PathBuf {
    let dir = data.join("sessions");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "jsonl"));
        if let Some(path) = found {
            return path;
        }
        assert!(Instant::now() < deadline, "no session log appeared in {}", dir.display());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Serves the page as `page` says: another heat (`heat watch --web`), or
/// the studio's own (its audience key); nothing when quiet.
async fn serve(page: Page, studio: &Studio, log: &Path, data: &Path) -> Option<Served> {
    match page {
        Page::Quiet => None,
        Page::Studio => {
            let base = open_in_studio(studio).await;
            Some(Served { base, process: None })
        }
        Page::Watch => {
            let id = log.file_stem().and_then(|s| s.to_str()).expect("a session id").to_string();
            let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_heat"))
                .args(["watch", "--web", "127.0.0.1:0", &id])
                .env("HEAT_DATA_DIR", data)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .unwrap();
            let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
            let said = Arc::new(Mutex::new(Vec::new()));
            let base = tokio::time::timeout(Duration::from_secs(10), async {
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some((_, url)) = line.split_once(" is at ") {
                        return url.trim().trim_end_matches('/').to_string();
                    }
                    said.lock().unwrap().push(line);
                }
                panic!("heat watch --web ended without an address: {:?}", said.lock().unwrap());
            })
            .await
            .expect("heat watch --web says where the page is");
            let rest = Arc::clone(&said);
            tokio::spawn(async move {
                while let Ok(Some(line)) = lines.next_line().await {
                    rest.lock().unwrap().push(line);
                }
            });
            Some(Served { base, process: Some((child, said)) })
        }
    }
}

/// Presses the studio's audience key until the studio says where its page
/// is (a key first takes down a card the studio shows, and does nothing
/// else): the page's address.
async fn open_in_studio(studio: &Studio) -> String {
    const AT: &str = "http://127.0.0.1:";
    use heat::tui::keymap::Action;
    let binding = Action::TABLE.iter().find(|b| b.action == Action::Audience).expect("the audience key");
    let key = binding.keys.split([',', ' ']).find(|k| !k.is_empty()).expect("a key");
    assert_eq!(key.chars().count(), 1, "the audience key is one character: {key:?}");
    for _ in 0..5 {
        studio.press(key.as_bytes());
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            let text = studio.text();
            if let Some(at) = text.find(AT) {
                let port: String = text[at + AT.len()..].chars().take_while(char::is_ascii_digit).collect();
                return format!("{AT}{port}");
            }
            if text.contains("page of session") && text.contains("stopped") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    panic!("the studio never said where its audience page is:\n{}", studio.text());
}

/// Stops `heat watch --web`: its CPU seconds and peak RSS, and what it
/// said on stderr besides where the page is.
async fn stop_server(served: Option<Served>) -> (Option<(f64, f64)>, Vec<String>) {
    let Some((mut child, said)) = served.and_then(|s| s.process) else { return (None, Vec::new()) };
    let pid = child.id().expect("running");
    let stats = (cpu_seconds(pid), peak_rss_mib(pid));
    let _ = child.kill().await;
    let said = said.lock().unwrap().iter().filter(|l| !l.contains("only this machine can open it")).cloned().collect();
    (Some(stats), said)
}

/// When each turn's last token and the ending showed on screen.
struct Seen {
    shown: Vec<(String, Instant)>,
}

/// Watches the screen until the debate is over.
async fn follow_screen(studio: &Studio, streams: &Mutex<Vec<Stream>>, rounds: u32) -> Seen {
    let deadline = Instant::now() + Duration::from_secs(60 + 30 * u64::from(rounds));
    let mut shown: Vec<(String, Instant)> = Vec::new();
    loop {
        let text = studio.text();
        let now = Instant::now();
        let markers: Vec<String> = streams.lock().unwrap().iter().map(Stream::marker).collect();
        for marker in markers {
            if text.contains(&marker) && !shown.iter().any(|(m, _)| *m == marker) {
                shown.push((marker, now));
            }
        }
        if text.contains("Debate over") {
            return Seen { shown };
        }
        assert!(Instant::now() < deadline, "the debate did not end:\n{text}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

fn screen_lags(seen: &Seen, streams: &[Stream], every: Duration) -> Vec<f64> {
    let sent = |marker: &str| streams.iter().find(|s| s.marker() == marker).map(|s| s.last_sent(every));
    seen.shown
        .iter()
        .filter_map(|(marker, at)| Some(at.saturating_duration_since(sent(marker)?).as_secs_f64() * 1000.0))
        .collect()
}

/// The gaps between frames while both debaters stream, and frames a second then.
fn frames(writes: &[(Instant, usize)], streams: &[Stream], every: Duration) -> (Vec<f64>, f64) {
    let windows = debate::frame_starts(writes, streams, every);
    let mut gaps = Vec::new();
    let (mut count, mut span) = (0usize, 0.0f64);
    for starts in &windows {
        gaps.extend(starts.windows(2).map(|w| w[1].duration_since(w[0]).as_secs_f64() * 1000.0));
        if let (Some(first), Some(last)) = (starts.first(), starts.last()) {
            count += starts.len() - 1;
            span += last.duration_since(*first).as_secs_f64();
        }
    }
    (gaps, if span > 0.0 { count as f64 / span } else { 0.0 })
}

/// Every vote answered 202 against the ballots the log counts and the spool.
struct Check {
    sent: usize,
    accepted: usize,
    accepted_distinct: usize,
    in_log: usize,
    log_distinct: usize,
    /// Accepted, not in the log.
    lost: usize,
    /// In the log, never accepted.
    extra: usize,
    spooled: usize,
    /// Each vote lost: when it was answered against when the round that
    /// closed it started.
    lost_said: Vec<String>,
}

impl Check {
    /// `casts` against the log's `ballots` and the `spooled` ones of the same visitors.
    fn new(casts: &[Cast], ballots: &[(u32, String)], spooled: &[(u32, String)], log: &Log, exited_ms: f64) -> Check {
        let voters: HashSet<&str> = casts.iter().map(|c| c.voter.as_str()).collect();
        let ours = |list: &[(u32, String)]| -> Vec<(u32, String)> {
            list.iter().filter(|(_, v)| voters.contains(v.as_str())).cloned().collect()
        };
        let (ballots, spooled) = (ours(ballots), ours(spooled));
        let sent: HashSet<(u32, &str)> = casts.iter().map(|c| (c.round, c.voter.as_str())).collect();
        let accepted: Vec<(u32, String)> =
            casts.iter().filter(|c| c.status == 202).map(|c| (c.round - 1, c.voter.clone())).collect();
        let accepted_set: HashSet<&(u32, String)> = accepted.iter().collect();
        let log_set: HashSet<&(u32, String)> = ballots.iter().collect();
        Check {
            sent: sent.len(),
            accepted: accepted.len(),
            accepted_distinct: accepted_set.len(),
            in_log: ballots.len(),
            log_distinct: log_set.len(),
            lost: accepted_set.difference(&log_set).count(),
            extra: log_set.difference(&accepted_set).count(),
            spooled: spooled.len(),
            lost_said: accepted_set
                .difference(&log_set)
                .map(|(round, voter)| lost(casts, log, *round, voter, exited_ms))
                .collect(),
        }
    }

    fn passed(&self) -> bool {
        self.accepted == self.accepted_distinct
            && self.in_log == self.log_distinct
            && self.lost == 0
            && self.extra == 0
            && self.spooled == self.accepted
    }

    fn said(&self) -> String {
        format!(
            "{}: {} votes sent, {} answered 202 ({} distinct); the log counts {} of their ballots ({} distinct): \
             {} accepted and not counted, {} counted and never accepted; the spool holds {}",
            if self.passed() { "PASS" } else { "FAIL" },
            self.sent,
            self.accepted,
            self.accepted_distinct,
            self.in_log,
            self.log_distinct,
            self.lost,
            self.extra,
            self.spooled
        )
    }
}

impl Roomed {
    fn passed(&self) -> bool {
        self.check.passed() && self.closing.passed() && self.strangers == 0
    }
}

impl Measured {
    fn verdict(&self) -> String {
        let Some(room) = &self.room else { return format!("debate over in {:.1} s", self.wall_s) };
        let mut said = format!("votes while the debate ran: {}", room.check.said());
        said.push_str(&format!("\n  votes while the studio quit: {}", room.closing.said()));
        if room.strangers > 0 {
            said.push_str(&format!("\n  FAIL: the log counts {} ballots from no visitor", room.strangers));
        }
        for lost in room.check.lost_said.iter().chain(&room.closing.lost_said) {
            said.push_str(&format!("\n  lost: {lost}"));
        }
        said
    }
}

/// When a lost vote (`round` from 0) was answered 202, against when the
/// log's next rounds started and when the studio exited.
fn lost(casts: &[Cast], log: &Log, round: u32, voter: &str, exited_ms: f64) -> String {
    let answered = casts.iter().find(|c| c.round == round + 1 && c.voter == voter && c.status == 202);
    let answered_ms = answered.map_or(f64::NAN, |c| c.answered_ms);
    let mut after: Vec<String> = log
        .round_starts()
        .iter()
        .filter(|(r, _)| *r == round + 2)
        .map(|(r, at)| format!("round {} (which closes it) started {:.0} ms later", r + 1, at - answered_ms))
        .collect();
    let exited = exited_ms - answered_ms;
    after.push(if exited >= 0.0 {
        format!("the studio exited {exited:.0} ms later")
    } else {
        format!("the studio had exited {:.0} ms before", -exited)
    });
    format!("a vote in round {} answered 202: {}", round + 1, after.join("; "))
}

fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn spread(values: &[f64]) -> String {
    if values.is_empty() {
        return "-".into();
    }
    format!("{:.1} / {:.1} / {:.1}", percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0))
}

fn print_table(runs: &[Measured], tokens: usize) {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |label: &str, cell: &dyn Fn(&Measured) -> String| {
        rows.push((label.to_string(), runs.iter().map(cell).collect()));
    };
    row("", &|m| m.page.name().to_string());
    row("debate, LIVE to 'Debate over' (s)", &|m| format!("{:.2}", m.wall_s));
    row("studio CPU (s; % of one core)", &|m| {
        format!("{:.2}; {:.1}%", m.studio_cpu_s, 100.0 * m.studio_cpu_s / m.wall_s)
    });
    row(&format!("turn pace, tok/s (p50 / min; {tokens} tok)"), &|m| {
        let min = m.pace.turn_rates.iter().copied().fold(f64::INFINITY, f64::min);
        format!("{:.0} / {:.0}", percentile(&m.pace.turn_rates, 0.5), min)
    });
    row("delta gap, ms (p50 / p99 / max)", &|m| spread(&m.pace.gaps_ms));
    row("token sent → logged, ms (p50/p99/max)", &|m| spread(&m.pace.delays_ms));
    row("last token → on screen, ms (p50/max)", &|m| {
        format!(
            "{:.0} / {:.0} ({})",
            percentile(&m.screen_lag_ms, 0.5),
            percentile(&m.screen_lag_ms, 1.0),
            m.screen_lag_ms.len()
        )
    });
    row("frames/s while streaming", &|m| format!("{:.1}", m.frames_per_s));
    row("frame gap, ms (p50 / p99 / max)", &|m| spread(&m.frame_gaps_ms));
    row("page server CPU (s) / peak RSS (MiB)", &|m| match m.room.as_ref().and_then(|r| r.server) {
        Some((cpu, rss)) => format!("{cpu:.2} / {rss:.1}"),
        None if m.page == Page::Studio => "in the studio's".into(),
        None => "-".into(),
    });
    row("bench process CPU (s)", &|m| format!("{:.2}", m.bench_cpu_s));
    rows.extend(room_rows(runs));
    let width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    let cell = rows.iter().flat_map(|(_, c)| c.iter().map(|c| c.chars().count())).max().unwrap_or(0) + 2;
    for (label, cells) in &rows {
        let mut line = format!("{label:<width$}");
        for c in cells {
            line.push_str(&format!("{c:>cell$}"));
        }
        println!("{line}");
    }
    for run in runs {
        if let Some(room) = run.room.as_ref().filter(|r| !r.server_said.is_empty()) {
            println!("{} said on stderr: {:?}", run.page.name(), room.server_said);
        }
    }
}

/// The table's rows about the room.
fn room_rows(runs: &[Measured]) -> Vec<(String, Vec<String>)> {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |label: &str, cell: &dyn Fn(&Roomed) -> String| {
        rows.push((label.to_string(), runs.iter().map(|m| m.room.as_ref().map_or_else(|| "-".into(), cell)).collect()));
    };
    row("watchers: events each (min/p50/max)", &|r| per_watcher(&r.watched, |w| w.events));
    row("watchers: items each (min/p50/max)", &|r| per_watcher(&r.watched, |w| w.items));
    row("watchers: KB each (p50)", &|r| per_watcher_kb(&r.watched));
    row("watchers: reconnects / refused", &|r| {
        let sum = |f: fn(&Watched) -> usize| r.watched.iter().map(f).sum::<usize>();
        format!("{} / {}", sum(|w| w.reconnects), sum(|w| w.refused))
    });
    row("round start → watchers told, ms (p50/p99/max)", &|r| spread(&r.told_lag_ms));
    row("votes: answers", &|r| answers(&r.casts, r.turned_away));
    row("vote latency, ms (p50 / p99 / max)", &|r| {
        spread(&r.casts.iter().map(|c| c.latency.as_secs_f64() * 1000.0).collect::<Vec<_>>())
    });
    row("votes: lost / double / extra", &|r| tally(&r.check));
    row("at the close: 202s / lost", &|r| format!("{} / {}", r.closing.accepted, r.closing.lost));
    rows
}

fn tally(c: &Check) -> String {
    let double = (c.accepted - c.accepted_distinct) + (c.in_log - c.log_distinct);
    format!("{} / {double} / {} {}", c.lost, c.extra, if c.passed() { "PASS" } else { "FAIL" })
}

fn per_watcher(watched: &[Watched], count: fn(&Watched) -> usize) -> String {
    if watched.is_empty() {
        return "-".into();
    }
    let values: Vec<f64> = watched.iter().map(|w| count(w) as f64).collect();
    format!("{:.0} / {:.0} / {:.0}", percentile(&values, 0.0), percentile(&values, 0.5), percentile(&values, 1.0))
}

fn per_watcher_kb(watched: &[Watched]) -> String {
    let values: Vec<f64> = watched.iter().map(|w| w.bytes as f64 / 1000.0).collect();
    if values.is_empty() { "-".into() } else { format!("{:.0}", percentile(&values, 0.5)) }
}

/// How many of each status the votes were answered with.
fn answers(casts: &[Cast], turned_away: usize) -> String {
    if casts.is_empty() {
        return "-".into();
    }
    let mut by: BTreeMap<u16, usize> = BTreeMap::new();
    for cast in casts {
        *by.entry(cast.status).or_default() += 1;
    }
    let mut said: Vec<String> = by.iter().map(|(s, n)| format!("{s}×{n}")).collect();
    if turned_away > 0 {
        said.push(format!("no cookie×{turned_away}"));
    }
    said.join(" ")
}
