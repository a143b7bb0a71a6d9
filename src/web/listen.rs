//! The audience page's accept loop: HTTP/1 connections served by hyper,
//! at most so many at once ([`MAX_CONNECTIONS`] unless told) (one more is told 503 and closed),
//! a request's head read within [`HEAD_READ`] (a client that trickles it
//! is cut off), each request tagged with its client's address. Dropping
//! the loop's task ends every connection it holds.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tower_service::Service;

use super::routes::Peer;

/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 1_024;
/// The longest a request's head may take to arrive.
const HEAD_READ: Duration = Duration::from_secs(10);

/// Serves `app` on `listener`, at most `most` connections at once, until
/// the task running it is dropped.
pub async fn serve(listener: TcpListener, app: Router, most: usize) {
    let slots = Arc::new(Semaphore::new(most));
    let mut connections = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let Ok((stream, peer)) = accepted else {
            // Out of file descriptors, or a connection reset before it was taken: breathe, go on.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            connections.spawn(turn_away(stream));
            continue;
        };
        let app = app.clone();
        connections.spawn(async move {
            let _slot = slot;
            serve_one(stream, peer, app).await;
        });
    }
}

async fn serve_one(stream: TcpStream, peer: SocketAddr, app: Router) {
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(Peer(peer));
        let mut app = app.clone();
        async move { app.call(request).await }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_READ)
        .serve_connection(TokioIo::new(stream), service)
        .await;
}

/// Tells a connection over the limit to come back later, and closes it:
/// after its request's head, which a client expects to finish sending
/// before it reads an answer (at most 8 KiB, within a second).
async fn turn_away(mut stream: TcpStream) {
    const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
        retry-after: 5\r\nconnection: close\r\ncontent-length: 44\r\n\r\n\
        {\"error\":\"this page has too many visitors\"}\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        while head.len() < 8 * 1024 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
        let _ = stream.write_all(BUSY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}
