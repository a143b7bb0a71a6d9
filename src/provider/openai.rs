//! Provisional (replaced on merge).
use super::http::HttpConfig;
use super::{ChatModel, ChatRequest, ChunkStream, ProviderError};
pub struct OpenAiModel(HttpConfig);
impl OpenAiModel {
    pub fn new(config: HttpConfig) -> Self {
        Self(config)
    }
}
impl ChatModel for OpenAiModel {
    fn provider_name(&self) -> &'static str {
        "openai"
    }
    fn stream(&self, _request: ChatRequest) -> ChunkStream {
        let _ = &self.0;
        Box::pin(futures::stream::once(async { Err(ProviderError::Connect("provisional".into())) }))
    }
}
