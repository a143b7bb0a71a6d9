//! The audience page's routes: the page and its script and style
//! (built in), the debate's events as server-sent events, and the one
//! write path, a vote. Every answer carries the page's strict headers; a
//! request for any other host name is refused (a web page elsewhere cannot
//! rebind a name to this server and read it); anything else is a 404.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Extension, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::StreamExt;
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast};

use super::ballot_box::{BallotBox, Refusal};
use super::feed::Feed;

/// The largest vote body taken: a round and a side are a few dozen bytes.
pub const VOTE_BODY_MAX: usize = 1024;
/// The cookie that names a visitor.
const COOKIE: &str = "heat_voter";
/// How often an idle event stream says it is still there.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The page's policy: its own script and style only, no other origin, no
/// HTML from strings.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
     img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; \
     require-trusted-types-for 'script'; trusted-types 'none'";

const PAGE: &str = include_str!("../../assets/web/audience.html");
const SCRIPT: &str = include_str!("../../assets/web/audience.js");
const STYLE: &str = include_str!("../../assets/web/audience.css");

/// The client a request came from (set by the accept loop).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// What the routes share.
pub struct Shared {
    pub feed: Arc<Feed>,
    pub ballots: Mutex<BallotBox>,
    /// One permit for each page following the events.
    pub watchers: Arc<Semaphore>,
    /// The port the server listens on (a request's `Host` must name it).
    pub port: u16,
}

/// The routes over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/audience.js", get(script))
        .route("/audience.css", get(style))
        // Browsers ask for it on every visit: no icon, and no error in their console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/events", get(events))
        .route("/vote", post(vote))
        .layer(DefaultBodyLimit::max(VOTE_BODY_MAX))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

/// Refuses another host's name; sets the headers every answer carries.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let mut response = if hosted_here(host, shared.port) {
        next.run(request).await
    } else {
        refused(StatusCode::FORBIDDEN, "this page answers only to its address")
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether `host` (a `Host` header) names this server: an address (never a
/// name but `localhost`, which no page elsewhere can point here) and `port`.
pub fn hosted_here(host: &str, port: u16) -> bool {
    let Some((name, given)) = host.rsplit_once(':') else { return false };
    let name = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
    given.parse::<u16>().ok() == Some(port)
        && (name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok())
}

async fn page(State(shared): State<Arc<Shared>>, Extension(peer): Extension<Peer>, headers: HeaderMap) -> Response {
    let mut response = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response();
    let known = cookie(&headers).is_some_and(|token| lock(&shared.ballots).knows(token));
    if !known {
        // A visitor the box cannot take still reads the page; its votes are refused.
        if let Ok(token) = lock(&shared.ballots).welcome(peer.0.ip(), Instant::now()) {
            let cookie = format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400");
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
        }
    }
    response
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT)
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

/// The debate so far, then each batch, as server-sent events; refused
/// while the most pages are following.
async fn events(State(shared): State<Arc<Shared>>) -> Response {
    let Ok(permit) = Arc::clone(&shared.watchers).try_acquire_owned() else {
        return refused(StatusCode::SERVICE_UNAVAILABLE, "this page has as many watchers as it takes");
    };
    let (history, pages) = shared.feed.subscribe();
    let first = futures::stream::once(async move { Ok::<Event, Infallible>(Event::default().data(history)) });
    let rest = futures::stream::unfold((pages, permit), next_batch);
    Sse::new(first.chain(rest)).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)).into_response()
}

/// The next batch for a page; the stream ends when the page fell behind
/// (its browser connects again to the history) or the feed stopped.
async fn next_batch(
    (mut pages, permit): (broadcast::Receiver<Arc<str>>, OwnedSemaphorePermit),
) -> Option<(Result<Event, Infallible>, (broadcast::Receiver<Arc<str>>, OwnedSemaphorePermit))> {
    let batch = pages.recv().await.ok()?;
    Some((Ok(Event::default().data(&*batch)), (pages, permit)))
}

/// A vote as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vote {
    round: u32,
    side: String,
}

/// Takes a vote: JSON `{"round": 2, "side": "skeptic"}` from a visitor the
/// page gave a cookie, once per round. 202 when kept; otherwise a status
/// and a sentence, and nothing changes.
async fn vote(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json")));
    if !is_json {
        return refused(StatusCode::UNSUPPORTED_MEDIA_TYPE, "a vote is sent as JSON");
    }
    if !same_origin(&headers) {
        return refused(StatusCode::FORBIDDEN, "a vote comes from this page only");
    }
    let Ok(vote) = serde_json::from_slice::<Vote>(&body) else {
        return refused(StatusCode::BAD_REQUEST, "a vote is {\"round\": N, \"side\": \"…\"}");
    };
    let Some(token) = cookie(&headers) else { return refusal(&Refusal::Stranger) };
    let polls = shared.feed.polls();
    let cast = lock(&shared.ballots).cast(token, vote.round, &vote.side, &polls.open, &polls.sides, Instant::now());
    match cast {
        Ok(()) => json(StatusCode::ACCEPTED, &serde_json::json!({ "ok": true })),
        Err(refusal_) => refusal(&refusal_),
    }
}

/// Whether a request's `Origin`, when it names one, is the host it asked.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else { return true };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    origin.strip_prefix("http://").is_some_and(|o| o.eq_ignore_ascii_case(host))
}

/// The visitor's token, from its cookie.
fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
}

fn refusal(refusal: &Refusal) -> Response {
    let status = match refusal {
        Refusal::Stranger => StatusCode::UNAUTHORIZED,
        Refusal::TooFast => StatusCode::TOO_MANY_REQUESTS,
        Refusal::NoSuchSide(_) | Refusal::Closed(_) | Refusal::Over => StatusCode::UNPROCESSABLE_ENTITY,
        Refusal::Voted(_) => StatusCode::CONFLICT,
        Refusal::Full | Refusal::Unwritable => StatusCode::SERVICE_UNAVAILABLE,
    };
    refused(status, &refusal.to_string())
}

fn refused(status: StatusCode, why: &str) -> Response {
    json(status, &serde_json::json!({ "error": why }))
}

fn json(status: StatusCode, body: &serde_json::Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

fn lock(ballots: &Mutex<BallotBox>) -> std::sync::MutexGuard<'_, BallotBox> {
    ballots.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_address_or_localhost_at_this_port_is_this_host() {
        assert!(hosted_here("127.0.0.1:7420", 7420));
        assert!(hosted_here("localhost:7420", 7420));
        assert!(hosted_here("[::1]:7420", 7420));
        assert!(hosted_here("192.168.1.20:7420", 7420));
        assert!(!hosted_here("evil.example:7420", 7420), "a rebound name");
        assert!(!hosted_here("127.0.0.1:80", 7420));
        assert!(!hosted_here("127.0.0.1", 7420));
        assert!(!hosted_here("", 7420));
    }
}
