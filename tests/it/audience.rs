//! The audience page's server over HTTP on loopback: the page and its
//! strict headers, the debate's events as server-sent events, a vote taken
//! once per visitor per round and recorded in the log by the process that
//! holds it, and every kind of hostile vote refused with a status while
//! nothing else changes; the caps on watchers and connections.

use std::time::Duration;

use futures::StreamExt;
use heat::debate::{DebateEvent, Role};
use heat::store::ballots::{self, Spooled};
use heat::store::log::{self, Record};
use heat::store::spool::Reader;
use heat::store::{Recorder, Store};
use heat::web::{Limits, Stage};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE, HOST, ORIGIN, SET_COOKIE};

fn demo() -> Vec<Record> {
    log::parse(include_bytes!("../../assets/demo-session.jsonl")).expect("the demo parses").records
}

/// A debate recorded into its second round (rounds 1 and 2 take votes),
/// and its page served.
async fn staged(dir: &std::path::Path, limits: Limits) -> (Store, Recorder, Stage) {
    let store = Store::open(dir).expect("store");
    let mut recorder = store.create().expect("a session");
    let mut rounds = 0;
    for record in demo() {
        if matches!(record.event, DebateEvent::RoundStarted { .. }) {
            rounds += 1;
        }
        if rounds > 2 {
            break;
        }
        recorder.record(&record.event);
    }
    let loaded = store.load(recorder.id()).expect("the log loads");
    let addr = "127.0.0.1:0".parse().expect("an address");
    let stage = Stage::open_within(addr, recorder.path(), &loaded, limits).await.expect("the page is served");
    (store, recorder, stage)
}

/// A new visitor's cookie, as the page sets it.
async fn visit(client: &reqwest::Client, base: &str) -> String {
    let page = client.get(format!("{base}/")).send().await.expect("the page");
    assert_eq!(page.status(), StatusCode::OK);
    let set = page.headers()[SET_COOKIE].to_str().expect("ascii").to_string();
    set.split(';').next().expect("name=value").to_string()
}

async fn vote(client: &reqwest::Client, base: &str, cookie: Option<&str>, body: &str) -> (StatusCode, String) {
    let mut request =
        client.post(format!("{base}/vote")).header(CONTENT_TYPE, "application/json").body(body.to_string());
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.expect("an answer");
    (response.status(), response.text().await.unwrap_or_default())
}

fn spooled(recorder: &Recorder) -> Vec<ballots::Spooled> {
    Reader::<Spooled>::new(ballots::path_for(recorder.path())).read().expect("the spool reads")
}

/// Reads the page's events until one of them holds `wanted`.
async fn told(client: &reqwest::Client, base: &str, wanted: &str) -> String {
    let response = client.get(format!("{base}/events")).send().await.expect("the events");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], "text/event-stream");
    let mut stream = response.bytes_stream();
    let mut seen = String::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(chunk)) = stream.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains(wanted) {
                return;
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the page was never told {wanted}; it was told:\n{seen}");
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_votes_once_a_round_and_the_room_sees_the_count_recorded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, mut recorder, stage) = staged(dir.path(), Limits::default()).await;
    let base = format!("http://{}", stage.addr);
    let client = heat::provider::http::client_builder().build().expect("a client");

    let page = client.get(format!("{base}/")).send().await.expect("the page");
    let csp = page.headers()["content-security-policy"].to_str().expect("ascii").to_string();
    assert!(csp.contains("default-src 'none'") && csp.contains("require-trusted-types-for 'script'"), "{csp}");
    assert!(page.text().await.expect("html").contains("/audience.js"));
    let told_first = told(&client, &base, "\"k\":\"voting\"").await;
    assert!(told_first.contains("\"rounds\":[1,2]"), "rounds 1 and 2 take votes: {told_first}");

    let (alice, bob) = (visit(&client, &base).await, visit(&client, &base).await);
    assert_ne!(alice, bob);
    assert_eq!(vote(&client, &base, Some(&alice), r#"{"round":2,"side":"advocate"}"#).await.0, StatusCode::ACCEPTED);
    assert_eq!(vote(&client, &base, Some(&bob), r#"{"round":2,"side":"even"}"#).await.0, StatusCode::ACCEPTED);
    assert_eq!(vote(&client, &base, Some(&bob), r#"{"round":1,"side":"skeptic"}"#).await.0, StatusCode::ACCEPTED);
    let (status, said) = vote(&client, &base, Some(&alice), r#"{"round":2,"side":"skeptic"}"#).await;
    assert_eq!((status, said.as_str()), (StatusCode::CONFLICT, r#"{"error":"you already voted in round 2"}"#));

    // The process holding the log records what the page spooled; read twice, counted once.
    let (events, warning) = recorder.record_ballots(spooled(&recorder));
    assert_eq!(warning, None);
    assert_eq!(events.len(), 2, "one event per round: {events:?}");
    assert!(recorder.record_ballots(spooled(&recorder)).0.is_empty(), "nothing new the second time");
    let tally = &recorder.state().audience[&1];
    assert_eq!((tally.votes(Some(Role::Advocate)), tally.votes(None), tally.total()), (1, 1, 2));
    let stored = store.load(recorder.id()).expect("the log loads");
    let in_log = stored.records.iter().filter(|r| matches!(r.event, DebateEvent::AudienceVoted { .. })).count();
    assert_eq!(in_log, 2, "the votes are events in the log");

    // The page follows the log, so every page is told the count.
    let seen = told(&client, &base, "\"counts\":{\"advocate\":1,\"skeptic\":0},\"even\":1").await;
    assert!(seen.contains("{\"k\":\"audience\",\"round\":1,\"counts\":{\"advocate\":0,\"skeptic\":1}"), "{seen}");
    drop(stage);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_votes_are_refused_with_a_status_and_nothing_is_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_store, recorder, stage) = staged(dir.path(), Limits::default()).await;
    let base = format!("http://{}", stage.addr);
    let client = heat::provider::http::client_builder().build().expect("a client");
    let cookie = visit(&client, &base).await;
    let me = Some(cookie.as_str());

    let huge = format!(r#"{{"round":2,"side":"advocate","pad":"{}"}}"#, "x".repeat(4096));
    assert_eq!(vote(&client, &base, me, &huge).await.0, StatusCode::PAYLOAD_TOO_LARGE, "an oversized body");
    let plain = client.post(format!("{base}/vote")).header(COOKIE, &cookie).body(r#"{"round":2,"side":"advocate"}"#);
    assert_eq!(plain.send().await.expect("answer").status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "not JSON");
    assert_eq!(vote(&client, &base, me, "{\"round\":").await.0, StatusCode::BAD_REQUEST, "cut JSON");
    let extra = r#"{"round":2,"side":"advocate","seat":"judge"}"#;
    assert_eq!(vote(&client, &base, me, extra).await.0, StatusCode::BAD_REQUEST, "an unknown field");
    let ok = r#"{"round":2,"side":"advocate"}"#;
    assert_eq!(vote(&client, &base, None, ok).await.0, StatusCode::UNAUTHORIZED, "no cookie");
    let forged = "heat_voter=00000000000000000000000000000000";
    assert_eq!(vote(&client, &base, Some(forged), ok).await.0, StatusCode::UNAUTHORIZED, "a cookie it never gave");
    let cross = client
        .post(format!("{base}/vote"))
        .header(CONTENT_TYPE, "application/json")
        .header(COOKIE, &cookie)
        .header(ORIGIN, "http://evil.example")
        .body(ok);
    assert_eq!(cross.send().await.expect("answer").status(), StatusCode::FORBIDDEN, "another site's page");
    let rebound = client.get(format!("{base}/events")).header(HOST, "evil.example:80").send().await.expect("answer");
    assert_eq!(rebound.status(), StatusCode::FORBIDDEN, "a name rebound to this address");
    assert!(spooled(&recorder).is_empty(), "none of those spent the visitor's vote or was kept");

    let (status, said) = vote(&client, &base, me, r#"{"round":9,"side":"advocate"}"#).await;
    assert_eq!(
        (status, said.as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, r#"{"error":"round 9 does not take votes now"}"#)
    );
    assert_eq!(vote(&client, &base, me, r#"{"round":2,"side":"judge"}"#).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(vote(&client, &base, me, ok).await.0, StatusCode::ACCEPTED);
    assert_eq!(vote(&client, &base, me, ok).await.0, StatusCode::CONFLICT, "the cookie replayed");
    // A flood from one visitor: refused as too fast once its burst is spent.
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(vote(&client, &base, me, r#"{"round":1,"side":"skeptic"}"#).await.0);
    }
    assert!(statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count() >= 8, "{statuses:?}");
    assert!(statuses.iter().filter(|s| **s == StatusCode::ACCEPTED).count() <= 1, "{statuses:?}");
    let kept = spooled(&recorder);
    assert!((1..=2).contains(&kept.len()), "only the accepted votes are kept: {kept:?}");
    assert_eq!(kept[0].round, 1, "round 2 as the page counts it is round 1 from 0");
    let unknown = client.get(format!("{base}/config")).send().await.expect("answer");
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND, "nothing else is served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_and_connections_past_the_caps_are_told_to_come_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_store, _recorder, stage) = staged(dir.path(), Limits { connections: 4, watchers: 2 }).await;
    let base = format!("http://{}", stage.addr);
    let client = heat::provider::http::client_builder().build().expect("a client");
    let first = client.get(format!("{base}/events")).send().await.expect("a watcher");
    let second = client.get(format!("{base}/events")).send().await.expect("a watcher");
    assert_eq!((first.status(), second.status()), (StatusCode::OK, StatusCode::OK));
    let third = client.get(format!("{base}/events")).send().await.expect("an answer");
    assert_eq!(third.status(), StatusCode::SERVICE_UNAVAILABLE, "a third watcher past a cap of two");
    drop(first);
    // The first watcher's slot comes back once its connection is gone.
    let mut again = StatusCode::SERVICE_UNAVAILABLE;
    for _ in 0..50 {
        again = client.get(format!("{base}/events")).send().await.expect("an answer").status();
        if again == StatusCode::OK {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(again, StatusCode::OK, "a watcher's slot is freed when it leaves");

    // Connections kept open (a request answered, kept alive) hold the slots:
    // within a few more than the cap, one is turned away with a 503.
    let mut kept = Vec::new();
    let mut turned = None;
    for _ in 0..8 {
        let mut connection = tokio::net::TcpStream::connect(stage.addr).await.expect("a connection");
        let status = status_of(&mut connection, stage.addr).await;
        if status == 503 {
            turned = Some(kept.len());
            break;
        }
        assert_eq!(status, 200, "a connection within the cap is served");
        kept.push(connection);
    }
    let turned = turned.expect("no connection was turned away past a cap of four");
    assert!(turned <= 4, "turned away after {turned} kept connections, over the cap");
    drop(kept);
}

/// The status of a `GET /` sent on `connection`, read from its answer's
/// first line; the connection is kept alive.
async fn status_of(connection: &mut tokio::net::TcpStream, addr: std::net::SocketAddr) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    connection.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut answer = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(5), connection.read(&mut answer)).await;
    let read = read.expect("an answer within 5 s").expect("the answer is read");
    let head = String::from_utf8_lossy(&answer[..read]).into_owned();
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("not an HTTP answer: {head:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_records_the_last_ballots_as_it_lets_the_log_go_and_voting_closes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (store, recorder, stage) = staged(dir.path(), Limits::default()).await;
    let base = format!("http://{}", stage.addr);
    let client = heat::provider::http::client_builder().build().expect("a client");
    let (alice, bob) = (visit(&client, &base).await, visit(&client, &base).await);
    assert_eq!(vote(&client, &base, Some(&alice), r#"{"round":2,"side":"skeptic"}"#).await.0, StatusCode::ACCEPTED);
    let id = recorder.id().to_string();
    // The heat recording the debate stops before it read the spool.
    drop(recorder);
    let stored = store.load(&id).expect("the log loads");
    let voted: Vec<&DebateEvent> =
        stored.records.iter().map(|r| &r.event).filter(|e| matches!(e, DebateEvent::AudienceVoted { .. })).collect();
    assert_eq!(voted.len(), 1, "the ballot answered 202 is in the log: {voted:?}");
    let (status, said) = vote(&client, &base, Some(&bob), r#"{"round":2,"side":"advocate"}"#).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{said}");
    assert!(said.contains("voting has closed"), "{said}");
    drop(stage);

    // A debate nobody voted on leaves no spool behind.
    let quiet = store.create().expect("a session");
    let spool = ballots::path_for(quiet.path());
    drop(quiet);
    assert!(!spool.exists(), "an empty spool is removed");
}
