//! Provisional (replaced on merge).
use std::time::Duration;
#[derive(Clone)]
pub struct HttpConfig {
    pub base_url: String,
    pub api_key: Option<String>,
    pub connect_timeout: Duration,
    pub idle_timeout: Duration,
}
