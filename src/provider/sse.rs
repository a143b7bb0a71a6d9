//! Server-sent events, shared by every HTTP provider: a decoder that takes
//! bytes as they arrive (any split, LF / CRLF / CR line ends, comments,
//! multi-line data, UTF-8 cut across reads) and yields whole events; a
//! stream over a response body with an idle timeout; and the two joined: a
//! request sent, its events streamed.

use std::collections::VecDeque;

use futures::{Stream, StreamExt};
use tokio::time::Instant;

use super::ProviderError;
use super::http::Waits;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Incremental SSE decoder.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of an unfinished line.
    partial: Vec<u8>,
    /// The previous read ended on CR: a leading LF belongs to it.
    skip_lf: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    /// A line has been seen: a byte-order mark can no longer start the stream.
    started: bool,
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; complete events are appended to `out`.
    pub fn push(&mut self, mut bytes: &[u8], out: &mut VecDeque<SseEvent>) {
        if self.skip_lf && !bytes.is_empty() {
            self.skip_lf = false;
            if let [b'\n', rest @ ..] = bytes {
                bytes = rest;
            }
        }
        while let Some(end) = memchr::memchr2(b'\n', b'\r', bytes) {
            let line = &bytes[..end];
            let mut next = end + 1;
            if bytes[end] == b'\r' {
                match bytes.get(next) {
                    Some(b'\n') => next += 1,
                    None => self.skip_lf = true,
                    Some(_) => {}
                }
            }
            if self.partial.is_empty() {
                self.line(line, out);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(line);
                self.line(&whole, out);
                whole.clear();
                self.partial = whole; // keep the allocation for the next split line
            }
            bytes = &bytes[next..];
        }
        self.partial.extend_from_slice(bytes);
    }

    /// The body ended: flushes a last line and event that lacked their terminators.
    pub fn finish(&mut self, out: &mut VecDeque<SseEvent>) {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line, out);
        }
        self.dispatch(out);
    }

    fn line(&mut self, mut line: &[u8], out: &mut VecDeque<SseEvent>) {
        if !self.started {
            self.started = true;
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line[0] == b':' {
            return; // comment
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        // Valid UTF-8 is the rule; the strict check is much faster than the lossy one.
        let value = match std::str::from_utf8(value) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(value),
        };
        match field {
            b"data" => self.push_data(&value),
            b"event" => self.event = Some(value.into_owned()),
            // Not standard SSE: old llama.cpp servers report a failure as an
            // `error:` line. It becomes an `error` event instead of vanishing.
            b"error" => {
                self.event = Some("error".into());
                self.push_data(&value);
            }
            _ => {} // id, retry and unknown fields
        }
    }

    fn push_data(&mut self, value: &str) {
        if self.has_data {
            self.data.push('\n');
        }
        self.data.push_str(value);
        self.has_data = true;
    }

    fn dispatch(&mut self, out: &mut VecDeque<SseEvent>) {
        let event = self.event.take();
        if !self.has_data {
            return;
        }
        self.has_data = false;
        out.push_back(SseEvent { event, data: std::mem::take(&mut self.data) });
    }
}

/// The events of a streaming response. Until its first byte the body may
/// take until `first_byte_by` (the request's first-byte deadline: a server
/// that queues the request sends nothing meanwhile), and fails with
/// `NotStarted` after it; once begun, a read that brings nothing for
/// `waits.idle` fails with `Timeout`. A body cut by the network fails with
/// `StreamCut`.
pub fn events(
    response: reqwest::Response,
    waits: Waits,
    first_byte_by: Instant,
) -> impl Stream<Item = Result<SseEvent, ProviderError>> + Send {
    struct State<B> {
        body: B,
        decoder: SseDecoder,
        queue: VecDeque<SseEvent>,
        begun: bool,
        done: bool,
    }
    let idle = waits.idle;
    let state = State {
        body: response.bytes_stream(),
        decoder: SseDecoder::new(),
        queue: VecDeque::new(),
        begun: false,
        done: false,
    };
    futures::stream::unfold(state, move |mut s| async move {
        loop {
            if let Some(event) = s.queue.pop_front() {
                return Some((Ok(event), s));
            }
            if s.done {
                return None;
            }
            let deadline = if s.begun { Instant::now() + idle } else { first_byte_by };
            let read = tokio::time::timeout_at(deadline, s.body.next()).await;
            s.begun |= matches!(read, Ok(Some(Ok(ref bytes))) if !bytes.is_empty());
            match read {
                Err(_) if !s.begun => {
                    s.done = true;
                    return Some((Err(waits.not_started()), s));
                }
                Err(_) => {
                    s.done = true;
                    let why = format!("the stream was silent for {}", super::http::seconds(idle));
                    return Some((Err(ProviderError::Timeout(why)), s));
                }
                Ok(None) => {
                    s.done = true;
                    s.decoder.finish(&mut s.queue);
                }
                Ok(Some(Err(_))) => {
                    s.done = true;
                    return Some((Err(ProviderError::StreamCut), s));
                }
                Ok(Some(Ok(bytes))) => s.decoder.push(&bytes, &mut s.queue),
            }
        }
    })
}

/// Sends a streaming request and yields its server-sent events; a failed
/// request yields its error as the only item. The first-byte wait runs
/// from the moment the request is sent.
pub fn event_stream(
    request: reqwest::RequestBuilder,
    waits: Waits,
) -> impl futures::Stream<Item = Result<SseEvent, ProviderError>> + Send {
    futures::stream::once(async move {
        let first_byte_by = Instant::now() + waits.first_byte;
        super::http::send(request, waits).await.map(|response| (response, first_byte_by))
    })
    .map(move |response| match response {
        Ok((response, first_byte_by)) => events(response, waits, first_byte_by).boxed(),
        Err(e) => futures::stream::once(async move { Err(e) }).boxed(),
    })
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut out = VecDeque::new();
        for chunk in chunks {
            decoder.push(chunk, &mut out);
        }
        decoder.finish(&mut out);
        out.into()
    }

    fn ev(event: Option<&str>, data: &str) -> SseEvent {
        SseEvent { event: event.map(String::from), data: data.into() }
    }

    const BODY: &[u8] = "event: message_start\ndata: {\"a\":1}\n\n: keep-alive comment\n\nevent: delta\r\ndata: line one\r\ndata:line two\r\nid: 7\r\nretry: 100\r\n\r\ndata: ünïcødé 🔥\rdata: cr only\r\rdata: [DONE]\n\n".as_bytes();

    fn expected() -> Vec<SseEvent> {
        vec![
            ev(Some("message_start"), "{\"a\":1}"),
            ev(Some("delta"), "line one\nline two"),
            ev(None, "ünïcødé 🔥\ncr only"),
            ev(None, "[DONE]"),
        ]
    }

    #[test]
    fn decodes_every_line_ending_comments_and_multiline_data() {
        assert_eq!(decode(&[BODY]), expected());
    }

    #[test]
    fn any_split_gives_the_same_events() {
        for split in 0..=BODY.len() {
            let (a, b) = BODY.split_at(split);
            assert_eq!(decode(&[a, b]), expected(), "split at {split}");
        }
        let bytes: Vec<&[u8]> = BODY.chunks(1).collect();
        assert_eq!(decode(&bytes), expected(), "one byte at a time");
    }

    #[test]
    fn a_last_event_without_its_blank_line_is_flushed() {
        assert_eq!(decode(&[b"data: {\"x\":1}\n\ndata: tail"]), vec![ev(None, "{\"x\":1}"), ev(None, "tail")]);
    }

    #[test]
    fn unknown_events_pass_through_and_a_leading_bom_is_dropped() {
        let body = "\u{feff}event: brand_new\ndata: {}\n\nevent: content_block_delta\ndata:  two spaces\n\n".as_bytes();
        let expected = vec![ev(Some("brand_new"), "{}"), ev(Some("content_block_delta"), " two spaces")];
        for split in 0..=body.len() {
            let (a, b) = body.split_at(split);
            assert_eq!(decode(&[a, b]), expected, "split at {split}");
        }
    }

    #[test]
    fn a_cr_ending_one_read_and_an_lf_starting_the_next_are_one_line_end() {
        assert_eq!(decode(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]), vec![ev(None, "a\nb")]);
        assert_eq!(decode(&[b"data: a\r", b"\r", b"data: b\n\n"]), vec![ev(None, "a"), ev(None, "b")]);
        assert_eq!(decode(&[b"data: a\r", b"", b"\n", b"\n"]), vec![ev(None, "a")], "an empty read changes nothing");
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(decode(&[b"data: a\xFFb\n\n"]), vec![ev(None, "a\u{FFFD}b")]);
    }

    #[test]
    fn a_non_standard_error_line_becomes_an_error_event() {
        let body = b"data: {\"a\":1}\n\nerror: {\"code\":500,\"message\":\"boom\"}\n\n";
        assert_eq!(
            decode(&[body]),
            vec![ev(None, "{\"a\":1}"), ev(Some("error"), "{\"code\":500,\"message\":\"boom\"}")]
        );
    }

    #[test]
    fn events_without_data_are_not_dispatched() {
        assert_eq!(decode(&[b"event: ping\n\n:comment\n\nevent: x\ndata\n\n"]), vec![ev(Some("x"), "")]);
    }
}
