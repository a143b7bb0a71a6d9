//! A person in a seat: a `ChatModel` whose answer a person types. Asking it
//! puts an [`Ask`] on its desk and waits, however long, for the text the
//! person sends back; the studio (an editor in the seat's pane) or `heat
//! run` (standard input) takes the desk's asks. Dropping the stream (a
//! cancelled turn, a stopped debate) closes the ask, and whoever holds it
//! sees it closed.

use std::sync::Arc;

use futures::StreamExt;
use tokio::sync::oneshot;

use super::chat::{ChatRequest, Chunk, ChunkStream, FinishReason};
pub use super::desk::{Ask, Desk};
use super::error::ProviderError;
use super::kind::ProviderKind;
use super::model::ChatModel;

/// A seat a person takes.
#[derive(Debug)]
pub struct Person {
    seat: String,
    desk: Arc<Desk>,
}

impl Person {
    pub fn new(seat: &str, desk: Arc<Desk>) -> Self {
        Self { seat: seat.to_string(), desk }
    }
}

impl ChatModel for Person {
    fn provider_name(&self) -> &'static str {
        ProviderKind::HUMAN.name()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let (reply, answer) = oneshot::channel();
        let asked = self.desk.ask(Ask { seat: self.seat.clone(), request, reply });
        let answer = async move {
            let text = match answer.await {
                Ok(text) => text,
                Err(_) if !asked => {
                    return vec![Err(ProviderError::Local("no one is at the keyboard to take this seat".into()))];
                }
                Err(_) => return vec![Err(ProviderError::Local("the person left the seat without an answer".into()))],
            };
            // A person spends no tokens: no usage, so no budget or price counts their turn.
            vec![Ok(Chunk::Text(text)), Ok(Chunk::Finish(FinishReason::Stop))]
        };
        Box::pin(futures::stream::once(answer).flat_map(futures::stream::iter))
    }

    fn person_desk(&self) -> Option<&Arc<Desk>> {
        Some(&self.desk)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn request(schema: bool) -> ChatRequest {
        let response_schema =
            schema.then(|| crate::provider::chat::ResponseSchema::new("verdict", serde_json::json!({})));
        ChatRequest { model: "you".into(), max_tokens: 100, response_schema, ..ChatRequest::default() }
    }

    #[tokio::test]
    async fn the_persons_text_is_the_answer_and_a_dropped_turn_closes_the_ask() {
        let desk = Desk::new();
        let mut asks = desk.take_asks().unwrap();
        assert!(desk.take_asks().is_none(), "one taker");
        let person = Person::new("skeptic", Arc::clone(&desk));
        let mut stream = person.stream(request(false));
        let reading = tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(item) = stream.next().await {
                got.push(item.unwrap());
            }
            got
        });
        let ask = asks.recv().await.unwrap();
        assert_eq!(ask.seat, "skeptic");
        assert!(!ask.wants_verdict());
        ask.reply.send("Costs fall on renters.".into()).unwrap();
        let got = reading.await.unwrap();
        assert_eq!(got, [Chunk::Text("Costs fall on renters.".into()), Chunk::Finish(FinishReason::Stop)], "no usage");

        let judge = Person::new("judge", Arc::clone(&desk));
        let stream = judge.stream(request(true));
        let ask = asks.recv().await.unwrap();
        assert!(ask.wants_verdict() && !ask.is_closed());
        drop(stream);
        assert!(ask.is_closed(), "a dropped turn is seen as given up");
    }
}
