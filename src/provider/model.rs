//! The `ChatModel` trait: a model that streams answers, and what it can tell
//! heat about itself (its endpoint, its context, whether it is embedded).

use super::chat::{Adaptation, ChatRequest, ChunkStream};
use super::endpoint;

/// A model that streams answers. One instance serves any number of calls;
/// the model name travels in the request.
pub trait ChatModel: Send + Sync {
    /// Short provider label for messages, e.g. `anthropic`, `openai`, `local`.
    fn provider_name(&self) -> &'static str;

    /// Starts one attempt at an answer. Retrying is the caller's business
    /// (see [`super::retry`]); the stream yields `Err` at most once, then ends.
    fn stream(&self, request: ChatRequest) -> ChunkStream;

    /// [`stream`](Self::stream), for a model that pauses in place, told
    /// whether the debate is paused (`held` reads true): an agent CLI is
    /// frozen where it is. Others need not listen.
    fn stream_held(&self, request: ChatRequest, held: Option<tokio::sync::watch::Receiver<bool>>) -> ChunkStream {
        let _ = held;
        self.stream(request)
    }

    /// The HTTP endpoint this model's requests go to; `None` in-process.
    fn http_endpoint(&self) -> Option<&endpoint::Endpoint> {
        None
    }

    /// The endpoint's key (`openai http://host/v1`), under which what the
    /// server taught heat is remembered.
    fn endpoint(&self) -> Option<String> {
        self.http_endpoint().map(|e| e.key().to_string())
    }

    /// Applies a lasting change learnt earlier (a resumed debate's log).
    fn adapt(&self, adaptation: &Adaptation) {
        if let Some(endpoint) = self.http_endpoint() {
            endpoint.adapt(adaptation);
        }
    }

    /// The context window in tokens, where it is small and known (the
    /// embedded model); `None` for servers, which say so themselves.
    fn context_tokens(&self) -> Option<u32> {
        None
    }

    /// Whether a trailing assistant message is taken as the start of the
    /// answer: the model continues it, and the stream begins with it.
    fn continues_answer(&self) -> bool {
        false
    }

    /// Something the person should know about this model before it
    /// debates (a model file without a chat template of its own).
    fn notice(&self) -> Option<String> {
        None
    }

    /// Whether this is the embedded offline model: a tiny model that heat
    /// steers (given openings, a judge that chooses instead of writing).
    fn is_embedded(&self) -> bool {
        false
    }

    /// Whether the model waits where it is while its stream is not polled
    /// (the embedded model: it stops between two tokens and goes on from
    /// there), so a paused debate stops polling it. Such a model counts no
    /// time it is not polled against a timeout. A server's answer runs on
    /// whether or not it is read: it is not held, it finishes in the
    /// background.
    fn pauses_in_place(&self) -> bool {
        false
    }

    /// Whether a request may carry a sampling temperature; an agent CLI
    /// takes none, and the heat reaches it by its prompt alone.
    fn takes_temperature(&self) -> bool {
        true
    }

    /// Whether a request may offer it tools to call: a server's model, on
    /// either wire; the embedded model, the library's `search` once a turn
    /// (held by its grammar). Agent CLIs take none (an agent has its own).
    fn takes_tools(&self) -> bool {
        self.http_endpoint().is_some()
    }

    /// The agent CLI that answers here and its version (`Claude Code
    /// 2.1.197`), as the log records it; `None` for anything else.
    fn agent(&self) -> Option<String> {
        None
    }

    /// Where a person seated here is asked for their turns; `None` for a model.
    fn person_desk(&self) -> Option<&std::sync::Arc<super::desk::Desk>> {
        None
    }
}
