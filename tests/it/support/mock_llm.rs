//! A mock LLM server on 127.0.0.1 speaking just enough HTTP/1.1 by hand that
//! faults are byte-exact. Each [`Reply`] has a status, headers and a chunked
//! body sent piece by piece with an optional pause before each piece; it may
//! be cut mid-body (after N pieces or N bytes, even inside a UTF-8 character),
//! stall after its pieces, hang before sending any response at all, or wait
//! until the test lets it go ([`Gate`]). Every
//! request is recorded ([`Recorded`]: method, path, lower-cased headers, JSON
//! body). Replies come from a queue ([`MockLlm::scripted`]) or from a handler
//! that sees each request ([`MockLlm::with_handler`]), which can route on the
//! path and read the prompt, so the server can play a whole debate:
//!
//! ```ignore
//! let server = MockLlm::with_handler(|req| match req.path.as_str() {
//!     "/v1/messages" => Reply::sse(&anthropic_sse_text("For, plainly.", 4), 64),
//!     "/v1/chat/completions" => Reply::sse(&openai_sse_text("Against.", 3), 64),
//!     _ => Reply::error(404, r#"{"error":{"message":"no route"}}"#),
//! })
//! .await;
//! ```
//!
//! [`anthropic_sse`] / [`openai_sse`] (and their `_text` forms, which split a
//! string into N deltas) build correct streams in each dialect. The server
//! stops when dropped.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[allow(unused_imports)] // each test crate uses a different subset
pub use super::bodies::{
    anthropic_sse, anthropic_sse_text, anthropic_stream, anthropic_tool_sse, openai_sse, openai_sse_text,
    openai_stream, split_text,
};

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: serde_json::Value,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The system prompt, in either API's shape.
    pub fn system(&self) -> String {
        if let Some(s) = self.body["system"].as_str() {
            return s.to_string();
        }
        // Anthropic's system as blocks (a cached grounding block first).
        if let Some(blocks) = self.body["system"].as_array() {
            return blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n\n");
        }
        self.body["messages"][0]["content"].as_str().unwrap_or_default().to_string()
    }

    /// Whether it carries the answers to earlier tool calls, in either wire's shape.
    pub fn has_tool_answers(&self) -> bool {
        self.body["messages"].as_array().is_some_and(|messages| {
            messages.iter().any(|m| m["role"] == "tool" || m["content"][0]["type"] == "tool_result")
        })
    }

    /// The last message's text.
    pub fn last_message(&self) -> String {
        let messages = self.body["messages"].as_array().cloned().unwrap_or_default();
        messages.last().and_then(|m| m["content"].as_str()).unwrap_or_default().to_string()
    }
}

/// One scripted response.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Body pieces, each sent as its own HTTP chunk.
    pub pieces: Vec<Vec<u8>>,
    /// Pause before each piece.
    pub delay: Duration,
    /// Send piece `i` at `i` times this after the first, on a schedule (a
    /// late piece goes at once and the next ones catch up): a steady rate
    /// finer than a timer's tick.
    pub pace: Option<Duration>,
    /// Close the connection after this many body pieces (no terminating chunk).
    pub cut_after: Option<usize>,
    /// Close the connection after this many body bytes, inside a chunk if it
    /// falls there (the chunk header announces the whole piece).
    pub cut_after_bytes: Option<usize>,
    /// After the pieces, hold the connection open and send nothing.
    pub stall: bool,
    /// Send nothing at all, not even the status line, until the client leaves.
    pub hang: bool,
    /// Send nothing for this long before the status line: the request waits
    /// in the server's queue for a free slot.
    pub queued: Duration,
    /// Send nothing, not even the status line, until a test lets it go
    /// through its [`Gate`] (or the client leaves).
    pub held: Option<Held>,
    /// When another request arrives while this body is being sent, send
    /// this instead of the rest and end the response cleanly: a server that
    /// serves one request at a time and interrupts the running one.
    pub interrupt: Option<Vec<u8>>,
}

impl Reply {
    /// A 200 SSE response whose body is sent in pieces of `piece` bytes.
    pub fn sse(body: &[u8], piece: usize) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            pieces: body.chunks(piece.max(1)).map(<[u8]>::to_vec).collect(),
            delay: Duration::ZERO,
            pace: None,
            cut_after: None,
            cut_after_bytes: None,
            stall: false,
            hang: false,
            queued: Duration::ZERO,
            held: None,
            interrupt: None,
        }
    }

    /// An error status with a JSON body.
    /// Anthropic's answer to a key it refuses (401, "invalid x-api-key").
    pub fn refused_key() -> Self {
        Self::error(401, r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#)
    }

    pub fn error(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            pieces: vec![body.as_bytes().to_vec()],
            delay: Duration::ZERO,
            pace: None,
            cut_after: None,
            cut_after_bytes: None,
            stall: false,
            hang: false,
            queued: Duration::ZERO,
            held: None,
            interrupt: None,
        }
    }

    /// A 200 HTML page.
    pub fn page(html: &str) -> Self {
        let mut page = Self::error(200, html);
        page.headers = vec![("content-type".into(), "text/html; charset=utf-8".into())];
        page
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Sends a piece every `every`, on a schedule (see [`Reply::pace`]).
    pub fn paced(mut self, every: Duration) -> Self {
        self.pace = Some(every);
        self
    }

    pub fn cut_after(mut self, pieces: usize) -> Self {
        self.cut_after = Some(pieces);
        self
    }

    pub fn cut_after_bytes(mut self, bytes: usize) -> Self {
        self.cut_after_bytes = Some(bytes);
        self
    }

    /// Ends with `ending` as soon as another request arrives (see [`Reply::interrupt`]).
    pub fn interrupted_with(mut self, ending: &[u8]) -> Self {
        self.interrupt = Some(ending.to_vec());
        self
    }

    /// Held in the server's queue for `wait` before anything is sent.
    pub fn queued(mut self, wait: Duration) -> Self {
        self.queued = wait;
        self
    }

    /// Held at `mark` of `gate`: sent once the test lets `mark` go.
    pub fn held_at(mut self, gate: &Gate, mark: u32) -> Self {
        self.held = Some(Held { let_go: gate.0.subscribe(), mark });
        self
    }

    pub fn stalled(mut self) -> Self {
        self.stall = true;
        self
    }

    /// A server that accepts the request and never answers.
    pub fn hang() -> Self {
        Self { hang: true, ..Self::sse(b"", 1) }
    }
}

/// Where a test holds replies until it lets them go: a reply held at a
/// mark (a round, say) is sent once the gate has let that mark go, so a
/// test can keep a debate where it is until its keys have landed, however
/// busy the machine.
#[derive(Debug, Clone)]
pub struct Gate(Arc<tokio::sync::watch::Sender<u32>>);

impl Default for Gate {
    fn default() -> Self {
        Gate(Arc::new(tokio::sync::watch::Sender::new(0)))
    }
}

impl Gate {
    /// Lets the replies held at `mark` and below go, now and from now on.
    pub fn let_go(&self, mark: u32) {
        self.0.send_modify(|through| *through = (*through).max(mark));
    }

    /// Lets every reply go, held now or later.
    pub fn open(&self) {
        self.let_go(u32::MAX);
    }
}

/// A reply's place at a [`Gate`].
#[derive(Debug, Clone)]
pub struct Held {
    let_go: tokio::sync::watch::Receiver<u32>,
    mark: u32,
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// Counts clients that left while the server was still answering them.
#[derive(Default)]
struct Departures {
    count: AtomicUsize,
    notify: tokio::sync::Notify,
}

impl Departures {
    fn record(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_waiters();
    }
}

/// The running server. It stops when dropped.
pub struct MockLlm {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    departures: Arc<Departures>,
    arrivals: Arc<Arrivals>,
    shared: Shared,
    /// The accept loop; every connection's task is in `shared.connections`.
    task: Mutex<tokio::task::JoinHandle<()>>,
}

/// What the accept loop and its connections share.
#[derive(Clone)]
struct Shared {
    handler: Arc<Handler>,
    requests: Arc<Mutex<Vec<Recorded>>>,
    departures: Arc<Departures>,
    arrivals: Arc<Arrivals>,
    connections: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Shared {
    /// Accepts connections on `listener` until aborted.
    fn accept(self, listener: TcpListener) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let (handler, reqs, gone) =
                    (Arc::clone(&self.handler), Arc::clone(&self.requests), Arc::clone(&self.departures));
                let arrivals = Arc::clone(&self.arrivals);
                let connection = tokio::spawn(async move {
                    if serve(socket, &*handler, &reqs, &arrivals).await == Served::ClientLeft {
                        gone.record();
                    }
                });
                let mut connections = self.connections.lock().unwrap();
                connections.retain(|c| !c.is_finished());
                connections.push(connection.abort_handle());
            }
        })
    }
}

/// Requests received so far, for replies that end when another arrives;
/// and how many are being answered at once.
#[derive(Default)]
struct Arrivals {
    count: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        self.task.lock().unwrap().abort();
    }
}

impl MockLlm {
    /// Serves the replies in order; once they run out, 500s.
    pub async fn scripted(replies: Vec<Reply>) -> Self {
        let queue = Mutex::new(VecDeque::from(replies));
        Self::with_handler(move |_| {
            queue
                .lock()
                .unwrap()
                .pop_front()
                .unwrap_or_else(|| Reply::error(500, r#"{"error":{"message":"script exhausted"}}"#))
        })
        .await
    }

    /// Answers every request with what the handler returns (route on
    /// `request.path`, read the prompt from `request.body`).
    pub async fn with_handler(handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let shared = Shared {
            handler: Arc::new(handler),
            requests: Arc::new(Mutex::new(Vec::new())),
            departures: Arc::new(Departures::default()),
            arrivals: Arc::new(Arrivals::default()),
            connections: Arc::default(),
        };
        let task = Mutex::new(shared.clone().accept(listener));
        let (requests, departures, arrivals) =
            (Arc::clone(&shared.requests), Arc::clone(&shared.departures), Arc::clone(&shared.arrivals));
        Self { base_url, requests, departures, arrivals, shared, task }
    }

    /// The server goes down as a killed process does: every connection
    /// closes at once, mid-answer or not, and the port refuses connections
    /// for `down`; then it serves again on the same port.
    pub async fn restart(&self, down: Duration) {
        let accepting = std::mem::replace(&mut *self.task.lock().unwrap(), tokio::spawn(async {}));
        accepting.abort();
        let _ = accepting.await;
        for connection in self.shared.connections.lock().unwrap().drain(..) {
            connection.abort();
        }
        self.arrivals.in_flight.store(0, Ordering::SeqCst);
        tokio::time::sleep(down).await;
        let address = self.base_url.trim_start_matches("http://");
        let listener = TcpListener::bind(address).await.unwrap();
        *self.task.lock().unwrap() = self.shared.clone().accept(listener);
    }

    /// Resolves once the server is answering `n` requests at once.
    pub async fn until_in_flight(&self, n: usize) {
        while self.arrivals.in_flight.load(Ordering::SeqCst) < n {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// The most requests the server was answering at one time.
    pub fn max_in_flight(&self) -> usize {
        self.arrivals.max_in_flight.load(Ordering::SeqCst)
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// How many clients closed their connection while still being answered.
    pub fn departures(&self) -> usize {
        self.departures.count.load(Ordering::SeqCst)
    }

    /// Resolves once a client has closed a connection the server was still
    /// answering (at once if one already has).
    pub async fn client_went_away(&self) {
        loop {
            let notified = self.departures.notify.notified();
            if self.departures() > 0 {
                return;
            }
            notified.await;
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Served {
    Done,
    ClientLeft,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

/// Waits `delay`, or until the client closes the connection (false).
async fn pause(socket: &mut TcpStream, delay: Duration) -> bool {
    let mut byte = [0u8; 1];
    tokio::select! {
        () = tokio::time::sleep(delay) => true,
        _ = socket.read(&mut byte) => false,
    }
}

/// Waits until `held` is let go (or its gate is dropped), or until the
/// client closes the connection (false).
async fn until_let_go(socket: &mut TcpStream, mut held: Held) -> bool {
    let mut byte = [0u8; 1];
    tokio::select! {
        _ = held.let_go.wait_for(|through| *through >= held.mark) => true,
        _ = socket.read(&mut byte) => false,
    }
}

async fn serve(
    mut socket: TcpStream,
    handler: &Handler,
    requests: &Mutex<Vec<Recorded>>,
    arrivals: &Arrivals,
) -> Served {
    let Some(request) = read_request(&mut socket).await else { return Served::Done };
    let arrival = arrivals.count.fetch_add(1, Ordering::SeqCst) + 1;
    let now = arrivals.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    arrivals.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let served = answer(&mut socket, handler, requests, arrivals, arrival, request).await;
    arrivals.in_flight.fetch_sub(1, Ordering::SeqCst);
    served
}

async fn answer(
    socket: &mut TcpStream,
    handler: &Handler,
    requests: &Mutex<Vec<Recorded>>,
    arrivals: &Arrivals,
    arrival: usize,
    request: Recorded,
) -> Served {
    let reply = handler(&request);
    requests.lock().unwrap().push(request);
    if reply.hang {
        let _ = socket.read(&mut [0u8; 1]).await;
        return Served::ClientLeft;
    }
    if let Some(held) = reply.held.clone()
        && !until_let_go(socket, held).await
    {
        return Served::ClientLeft;
    }
    if !reply.queued.is_zero() && !pause(socket, reply.queued).await {
        return Served::ClientLeft;
    }
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n",
        reply.status,
        reason(reply.status)
    );
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    if socket.write_all(head.as_bytes()).await.is_err() {
        return Served::ClientLeft;
    }
    let mut budget = reply.cut_after_bytes.unwrap_or(usize::MAX);
    let start = tokio::time::Instant::now();
    for (i, piece) in reply.pieces.iter().enumerate() {
        if reply.cut_after == Some(i) || budget == 0 {
            return Served::Done; // dropped mid-body: the client sees a truncated chunked body
        }
        if !reply.delay.is_zero() && !pause(socket, reply.delay).await {
            return Served::ClientLeft;
        }
        let due = reply.pace.map(|every| start + every * i as u32);
        if let Some(wait) = due.and_then(|due| due.checked_duration_since(tokio::time::Instant::now()))
            && !pause(socket, wait).await
        {
            return Served::ClientLeft;
        }
        if let Some(ending) = reply.interrupt.as_ref().filter(|_| arrivals.count.load(Ordering::SeqCst) != arrival) {
            let mut chunk = format!("{:x}\r\n", ending.len()).into_bytes();
            chunk.extend_from_slice(ending);
            chunk.extend_from_slice(b"\r\n0\r\n\r\n");
            let _ = socket.write_all(&chunk).await;
            return Served::Done;
        }
        let sent = piece.len().min(budget);
        budget -= sent;
        let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
        chunk.extend_from_slice(&piece[..sent]);
        if sent == piece.len() {
            chunk.extend_from_slice(b"\r\n");
        }
        if socket.write_all(&chunk).await.is_err() || socket.flush().await.is_err() {
            return Served::ClientLeft;
        }
    }
    if reply.cut_after.is_some() || reply.cut_after_bytes.is_some() {
        return Served::Done;
    }
    if reply.stall {
        // Wait until the client gives up on us.
        let _ = socket.read(&mut [0u8; 1]).await;
        return Served::ClientLeft;
    }
    let _ = socket.write_all(b"0\r\n\r\n").await;
    Served::Done
}

async fn read_request(socket: &mut TcpStream) -> Option<Recorded> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let (method, path) = (request_line.next()?.to_string(), request_line.next()?.to_string());
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))).collect();
    let length: usize =
        headers.iter().find(|(k, _)| k == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    while buffer.len() < header_end + length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body = serde_json::from_slice(&buffer[header_end..]).unwrap_or(serde_json::Value::Null);
    Some(Recorded { method, path, headers, body })
}
