//! A mock LLM server on 127.0.0.1 speaking just enough HTTP/1.1 by hand that
//! faults are byte-exact: each response has a status, headers and a chunked
//! body sent piece by piece with optional delays, and may be cut mid-body or
//! stall forever. Every request is recorded (method, path, headers, JSON
//! body). Replies come from a queue, or from a handler that sees the request
//! (so the server can play a whole debate). Helpers build correct Anthropic
//! and OpenAI SSE bodies from text.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

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
        self.body["messages"][0]["content"].as_str().unwrap_or_default().to_string()
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
    /// Close the connection after this many body pieces (no terminating chunk).
    pub cut_after: Option<usize>,
    /// After the pieces, hold the connection open and send nothing.
    pub stall: bool,
}

impl Reply {
    /// A 200 SSE response whose body is sent in pieces of `piece` bytes.
    pub fn sse(body: &[u8], piece: usize) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            pieces: body.chunks(piece.max(1)).map(<[u8]>::to_vec).collect(),
            delay: Duration::ZERO,
            cut_after: None,
            stall: false,
        }
    }

    /// An error status with a JSON body.
    pub fn error(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            pieces: vec![body.as_bytes().to_vec()],
            delay: Duration::ZERO,
            cut_after: None,
            stall: false,
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    pub fn cut_after(mut self, pieces: usize) -> Self {
        self.cut_after = Some(pieces);
        self
    }

    pub fn stalled(mut self) -> Self {
        self.stall = true;
        self
    }
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// The running server. It stops when dropped.
pub struct MockLlm {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    closed: Arc<tokio::sync::Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        self.task.abort();
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

    /// Answers every request with what the handler returns.
    pub async fn with_handler(handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let closed = Arc::new(tokio::sync::Notify::new());
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, notify) = (Arc::clone(&requests), Arc::clone(&closed));
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let (handler, reqs, notify) = (Arc::clone(&handler), Arc::clone(&reqs), Arc::clone(&notify));
                tokio::spawn(async move { serve(socket, &*handler, &reqs, &notify).await });
            }
        });
        Self { base_url, requests, closed, task }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// Resolves when a client closes a connection the server was still writing to.
    pub async fn client_went_away(&self) {
        self.closed.notified().await;
    }
}

async fn serve(
    mut socket: TcpStream,
    handler: &Handler,
    requests: &Mutex<Vec<Recorded>>,
    closed: &tokio::sync::Notify,
) {
    let Some(request) = read_request(&mut socket).await else { return };
    let reply = handler(&request);
    requests.lock().unwrap().push(request);
    let reason = match reply.status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        429 => "Too Many Requests",
        529 => "Overloaded",
        _ => "Status",
    };
    let mut head = format!("HTTP/1.1 {} {reason}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n", reply.status);
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    if socket.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    for (i, piece) in reply.pieces.iter().enumerate() {
        if reply.cut_after == Some(i) {
            return; // dropped mid-body: the client sees a truncated chunked body
        }
        if !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
        chunk.extend_from_slice(piece);
        chunk.extend_from_slice(b"\r\n");
        if socket.write_all(&chunk).await.is_err() || socket.flush().await.is_err() {
            closed.notify_waiters();
            return;
        }
    }
    if reply.cut_after.is_some() {
        return;
    }
    if reply.stall {
        // Wait until the client gives up on us.
        let mut byte = [0u8; 1];
        let _ = socket.read(&mut byte).await;
        closed.notify_waiters();
        return;
    }
    let _ = socket.write_all(b"0\r\n\r\n").await;
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

/// A correct Anthropic Messages stream for `deltas`, optionally with thinking first.
pub fn anthropic_sse(deltas: &[&str], thinking: Option<&str>) -> Vec<u8> {
    let mut out = String::new();
    let mut event = |name: &str, data: serde_json::Value| out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    event(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}),
    );
    let mut index = 0;
    if let Some(t) = thinking {
        event(
            "content_block_start",
            serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":t}}),
        );
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}),
        );
        event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0}));
        index = 1;
    }
    event(
        "content_block_start",
        serde_json::json!({"type":"content_block_start","index":index,"content_block":{"type":"text","text":""}}),
    );
    event("ping", serde_json::json!({"type":"ping"}));
    for d in deltas {
        event(
            "content_block_delta",
            serde_json::json!({"type":"content_block_delta","index":index,"delta":{"type":"text_delta","text":d}}),
        );
    }
    event("content_block_stop", serde_json::json!({"type":"content_block_stop","index":index}));
    event(
        "message_delta",
        serde_json::json!({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":deltas.len()}}),
    );
    event("message_stop", serde_json::json!({"type":"message_stop"}));
    out.into_bytes()
}

/// A correct OpenAI chat.completion.chunk stream for `deltas`, with optional
/// reasoning (`reasoning_content`), a `finish_reason`, usage and `[DONE]`.
pub fn openai_sse(deltas: &[&str], reasoning: Option<&str>) -> Vec<u8> {
    let mut out = String::new();
    let mut chunk = |delta: serde_json::Value, finish: Option<&str>| {
        let data = serde_json::json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":delta,"finish_reason":finish}]});
        out.push_str(&format!("data: {data}\n\n"));
    };
    chunk(serde_json::json!({"role":"assistant","content":""}), None);
    if let Some(r) = reasoning {
        chunk(serde_json::json!({"reasoning_content": r}), None);
    }
    for d in deltas {
        chunk(serde_json::json!({"content": d}), None);
    }
    chunk(serde_json::json!({}), Some("stop"));
    let usage = serde_json::json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":deltas.len(),"total_tokens":30 + deltas.len()}});
    out.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    out.into_bytes()
}
