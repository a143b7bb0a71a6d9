//! Any bytes as an OpenAI chat-completions stream: the parser never panics and
//! its chunk stream keeps the rules in `common::check_chunks`.
#![no_main]

mod common;

use futures::StreamExt;
use heat::provider::openai;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let events = common::decode(&common::reads(data));
    let stream = futures::stream::iter(events.into_iter().map(Ok));
    let items: Vec<_> = futures::executor::block_on(openai::parse(stream).collect());
    common::check_chunks(&items);
});
