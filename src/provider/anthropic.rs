//! Provisional (replaced on merge).
use super::http::HttpConfig;
use super::{ChatModel, ChatRequest, ChunkStream, ProviderError};
pub struct AnthropicModel(HttpConfig);
impl AnthropicModel {
    pub fn new(config: HttpConfig) -> Self {
        Self(config)
    }
}
impl ChatModel for AnthropicModel {
    fn provider_name(&self) -> &'static str {
        "anthropic"
    }
    fn stream(&self, _request: ChatRequest) -> ChunkStream {
        let _ = &self.0;
        Box::pin(futures::stream::once(async { Err(ProviderError::Connect("provisional".into())) }))
    }
}
