//! The SSE decoder takes any bytes in any reads: decoding them in the
//! reads the first byte chooses equals decoding them in one read, and one
//! byte at a time.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((_, body)) = data.split_first() else { return };
    let whole = common::decode(&[body]);
    let split = common::decode(&common::reads(data));
    assert_eq!(split, whole, "reads changed the events");
    let bytes: Vec<&[u8]> = body.chunks(1).collect();
    assert_eq!(common::decode(&bytes), whole, "byte-at-a-time reads changed the events");
});
