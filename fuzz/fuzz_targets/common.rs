//! What the fuzz targets share: cutting an input into network reads,
//! decoding SSE the way a response body is decoded, and the rules every
//! provider's chunk stream must keep.
#![allow(dead_code)] // each target uses a part

use std::collections::VecDeque;

use heat::provider::sse::{SseDecoder, SseEvent};
use heat::provider::{Chunk, ProviderError};

/// The input after its first byte, cut into reads whose sizes that byte seeds.
pub fn reads(data: &[u8]) -> Vec<&[u8]> {
    let Some((&seed, mut rest)) = data.split_first() else { return Vec::new() };
    let mut state = u32::from(seed) | 0x9E37_7900;
    let mut out = Vec::new();
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let size = (state as usize % 97 + 1).min(rest.len());
        let (read, more) = rest.split_at(size);
        out.push(read);
        rest = more;
    }
    out
}

/// The events a body made of these reads decodes to.
pub fn decode(reads: &[&[u8]]) -> Vec<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut out = VecDeque::new();
    for read in reads {
        decoder.push(read, &mut out);
    }
    decoder.finish(&mut out);
    out.into()
}

/// A chunk stream ends with at most one error and at most one finish, and
/// nothing follows either.
pub fn check_chunks(items: &[Result<Chunk, ProviderError>]) {
    let last = items.len().saturating_sub(1);
    for (i, item) in items.iter().enumerate() {
        match item {
            Err(_) => assert_eq!(i, last, "an error must end the stream: {items:?}"),
            Ok(Chunk::Finish(_)) => assert_eq!(i, last, "a finish must end the stream: {items:?}"),
            Ok(_) => {}
        }
    }
}
