//! The room: watchers following the page's server-sent events (reading
//! every event, counting its items, connecting again when a stream ends,
//! as the page's browser does) and visitors who take the page's cookie and
//! vote once in each round as it opens, each after its own pause.

use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::header::{CONTENT_TYPE, COOKIE, SET_COOKIE};
use sha2::{Digest, Sha256};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How big the room is.
#[derive(Debug, Clone, Copy)]
pub struct Room {
    pub watchers: usize,
    pub voters: usize,
    pub rounds: u32,
    /// A visitor votes at a random moment this long after a round opens.
    pub spread: Duration,
    /// Visitors kept back to vote, one after another, while the debate's
    /// heat quits.
    pub closers: usize,
}

/// What one watcher read.
#[derive(Debug, Default, Clone)]
pub struct Watched {
    pub bytes: usize,
    /// Server-sent events with data (the first is the history).
    pub events: usize,
    /// Page items in them.
    pub items: usize,
    /// Streams that ended while the debate ran (and were opened again).
    pub reconnects: usize,
    /// Answers other than 200, or no answer.
    pub refused: usize,
    /// When the page first told this watcher that each round (from 1)
    /// takes votes, in milliseconds since the Unix epoch.
    pub told: Vec<(u32, f64)>,
}

/// One vote sent.
#[derive(Debug, Clone)]
pub struct Cast {
    /// As the page counts rounds, from 1.
    pub round: u32,
    /// The name the log gives the visitor.
    pub voter: String,
    /// 0: no answer.
    pub status: u16,
    pub latency: Duration,
    /// When the answer came, in milliseconds since the Unix epoch.
    pub answered_ms: f64,
}

/// The room at work.
pub struct Crowd {
    stop: watch::Sender<bool>,
    watchers: Vec<JoinHandle<Watched>>,
    voters: Vec<JoinHandle<Vec<Cast>>>,
    closers: Vec<Ballot>,
    /// Visitors the page gave no cookie.
    pub turned_away: usize,
}

impl Crowd {
    /// Opens the room on the page at `base` (`http://host:port`).
    pub async fn start(base: &str, room: Room) -> Crowd {
        let client = heat::provider::http::client_builder().build().expect("a client");
        let (open_tx, open_rx) = watch::channel(Vec::<u32>::new());
        let (stop, stopped) = watch::channel(false);
        let mut rounds_told = Some(open_tx);
        let watchers = (0..room.watchers)
            .map(|_| {
                let told = rounds_told.take();
                tokio::spawn(follow(client.clone(), format!("{base}/events"), told, stopped.clone()))
            })
            .collect();
        let visits = (0..room.voters + room.closers).map(|_| visit(&client, base));
        let visitors: Vec<Option<(String, String)>> = futures::future::join_all(visits).await;
        let turned_away = visitors.iter().filter(|v| v.is_none()).count();
        let mut ballots: Vec<Ballot> = visitors
            .into_iter()
            .flatten()
            .map(|(cookie, voter)| Ballot { client: client.clone(), url: format!("{base}/vote"), cookie, voter })
            .collect();
        let closers = ballots.split_off(room.voters.min(ballots.len()));
        let voters = ballots
            .into_iter()
            .enumerate()
            .map(|(i, ballot)| tokio::spawn(vote_each_round(ballot, i as u64, open_rx.clone(), room)))
            .collect();
        Crowd { stop, watchers, voters, closers, turned_away }
    }

    /// Every vote sent, once each visitor voted in every round (or gave up).
    pub async fn votes(&mut self) -> Vec<Cast> {
        let mut all = Vec::new();
        for voter in self.voters.drain(..) {
            all.extend(voter.await.unwrap_or_default());
        }
        all
    }

    /// Closes every watcher's stream: what each read; and the visitors
    /// kept back.
    pub fn leave(self) -> (impl Future<Output = Vec<Watched>>, Closers) {
        let _ = self.stop.send(true);
        let watchers = self.watchers;
        let read = async move {
            let mut all = Vec::new();
            for watcher in watchers {
                all.push(watcher.await.unwrap_or_default());
            }
            all
        };
        (read, Closers(self.closers))
    }
}

/// Visitors kept back to vote while the debate's heat quits.
pub struct Closers(Vec<Ballot>);

impl Closers {
    /// Votes in `round`, a visitor every 10 ms, until the page says the
    /// round is closed (or gives no answer, or the visitors run out).
    pub fn vote_through_the_close(self, round: u32) -> JoinHandle<Vec<Cast>> {
        tokio::spawn(async move {
            let mut casts = Vec::new();
            for ballot in self.0 {
                let cast = send(&ballot, round, "even").await;
                let open = cast.status == 202;
                casts.push(cast);
                if !open {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            casts
        })
    }
}

/// A new visitor's cookie (`heat_voter=…`) and the name the log gives it.
async fn visit(client: &reqwest::Client, base: &str) -> Option<(String, String)> {
    let page = client.get(format!("{base}/")).send().await.ok()?;
    let set = page.headers().get(SET_COOKIE)?.to_str().ok()?.to_string();
    let _ = page.bytes().await;
    let cookie = set.split(';').next()?.to_string();
    let token = cookie.strip_prefix("heat_voter=")?;
    // The ballot names the visitor by its token's hash, in hex.
    let mut hash = String::new();
    for byte in Sha256::digest(token.as_bytes()) {
        hash.push_str(&format!("{byte:02x}"));
    }
    hash.truncate(heat::debate::audience::VOTER_LEN);
    Some((cookie, hash))
}

/// Follows the page's events until told to stop; the first watcher tells
/// the visitors which rounds take votes.
async fn follow(
    client: reqwest::Client,
    url: String,
    rounds_told: Option<watch::Sender<Vec<u32>>>,
    mut stop: watch::Receiver<bool>,
) -> Watched {
    let mut watched = Watched::default();
    let mut opened = false;
    loop {
        if *stop.borrow() {
            return watched;
        }
        if opened {
            watched.reconnects += 1;
        }
        opened = true;
        let response = tokio::select! {
            r = client.get(&url).send() => r,
            _ = stop.changed() => return watched,
        };
        let response = match response {
            Ok(r) if r.status() == reqwest::StatusCode::OK => r,
            _ => {
                watched.refused += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        let mut stream = response.bytes_stream();
        let mut pending: Vec<u8> = Vec::new();
        loop {
            let chunk = tokio::select! {
                c = stream.next() => c,
                _ = stop.changed() => return watched,
            };
            let Some(Ok(chunk)) = chunk else { break };
            watched.bytes += chunk.len();
            pending.extend_from_slice(&chunk);
            while let Some(at) = pending.windows(2).position(|w| w == b"\n\n") {
                let event: Vec<u8> = pending.drain(..at + 2).collect();
                read_event(&event, &mut watched, rounds_told.as_ref());
            }
        }
    }
}

/// Counts one server-sent event's items; tells the rounds taking votes.
fn read_event(event: &[u8], watched: &mut Watched, rounds_told: Option<&watch::Sender<Vec<u32>>>) {
    let text = String::from_utf8_lossy(event);
    let data: String = text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
    if data.is_empty() {
        return;
    }
    watched.events += 1;
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(&data) else { return };
    watched.items += items.len();
    for item in items.iter().filter(|i| i["k"] == "voting") {
        let rounds = item["rounds"].as_array().into_iter().flatten();
        let open: Vec<u32> = rounds.filter_map(|r| r.as_u64().and_then(|r| u32::try_from(r).ok())).collect();
        let now = super::debate::epoch_ms(std::time::SystemTime::now());
        for round in &open {
            if !watched.told.iter().any(|(r, _)| r == round) {
                watched.told.push((*round, now));
            }
        }
        if let Some(told) = rounds_told {
            told.send_replace(open);
        }
    }
}

/// A visitor with its cookie.
struct Ballot {
    client: reqwest::Client,
    url: String,
    cookie: String,
    voter: String,
}

/// Votes once in each round, each at a random moment of `room.spread`
/// after the round opens.
async fn vote_each_round(ballot: Ballot, seed: u64, open: watch::Receiver<Vec<u32>>, room: Room) -> Vec<Cast> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let sides = ["advocate", "skeptic", "even"];
    let rounds: Vec<_> = (1..=room.rounds)
        .map(|round| {
            let pause = room.spread.mul_f64(rng.f64());
            vote_in(&ballot, round, sides[rng.usize(..sides.len())], pause, open.clone())
        })
        .collect();
    futures::future::join_all(rounds).await.into_iter().flatten().collect()
}

/// Votes in `round` `pause` after it opens; a 429 waits for the visitor's
/// allowance and tries again.
async fn vote_in(
    ballot: &Ballot,
    round: u32,
    side: &str,
    pause: Duration,
    mut open: watch::Receiver<Vec<u32>>,
) -> Vec<Cast> {
    let opened = tokio::time::timeout(Duration::from_secs(120), open.wait_for(|o| o.contains(&round)))
        .await
        .is_ok_and(|told| told.is_ok());
    let mut casts = Vec::new();
    if !opened {
        return casts;
    }
    tokio::time::sleep(pause).await;
    for _ in 0..3 {
        let cast = send(ballot, round, side).await;
        let again = cast.status == 429;
        casts.push(cast);
        if !again {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    casts
}

/// One vote, as the page sends it.
async fn send(ballot: &Ballot, round: u32, side: &str) -> Cast {
    let sent = Instant::now();
    let request = ballot.client.post(&ballot.url).header(CONTENT_TYPE, "application/json");
    let body = format!(r#"{{"round":{round},"side":"{side}"}}"#);
    let status = match request.header(COOKIE, &ballot.cookie).body(body).send().await {
        Ok(answer) => {
            let status = answer.status().as_u16();
            let _ = answer.bytes().await;
            status
        }
        Err(_) => 0,
    };
    let (latency, answered_ms) = (sent.elapsed(), super::debate::epoch_ms(std::time::SystemTime::now()));
    Cast { round, voter: ballot.voter.clone(), status, latency, answered_ms }
}
