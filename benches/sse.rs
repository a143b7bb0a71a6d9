//! SSE decode + chunk parse throughput on a recorded-style 1 MB stream fed in
//! 1–4 KB reads, for both dialects. Goal: at least 200 MB/s.

use std::collections::VecDeque;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use futures::StreamExt;
use heat::provider::sse::{SseDecoder, SseEvent};
use heat::provider::{ProviderError, anthropic, openai};

fn anthropic_body(bytes: usize) -> Vec<u8> {
    let mut out = String::from(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n",
    );
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"token{i} \"}}}}\n\n"
        ));
        i += 1;
    }
    out.push_str("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    out.into_bytes()
}

fn openai_body(bytes: usize) -> Vec<u8> {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(&format!(
            "data: {{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"token{i} \"}},\"finish_reason\":null}}]}}\n\n"
        ));
        i += 1;
    }
    out.push_str("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    out.into_bytes()
}

/// Decodes the body in uneven 1–4 KB reads.
fn decode(body: &[u8]) -> VecDeque<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut events = VecDeque::new();
    let mut offset = 0;
    let mut step = 1024;
    while offset < body.len() {
        let end = (offset + step).min(body.len());
        decoder.push(&body[offset..end], &mut events);
        offset = end;
        step = 1024 + (step * 7) % 3072;
    }
    decoder.finish(&mut events);
    events
}

/// Decodes the body, then parses every event into chunks.
fn decode_and_parse(body: &[u8], dialect: &str) -> usize {
    let events = decode(body);
    let events = futures::stream::iter(events.into_iter().map(Ok::<_, ProviderError>));
    futures::executor::block_on(async {
        match dialect {
            "anthropic" => anthropic::parse(events).count().await,
            _ => openai::parse(events).count().await,
        }
    })
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sse");
    for (name, body) in [("anthropic_1mb", anthropic_body(1 << 20)), ("openai_1mb", openai_body(1 << 20))] {
        let dialect = name.split('_').next().unwrap_or_default().to_string();
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function(name, |b| b.iter(|| decode_and_parse(black_box(&body), &dialect)));
        group.bench_function(format!("{dialect}_decode_only"), |b| b.iter(|| decode(black_box(&body)).len()));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
