//! What the HTTP providers share: their configuration, the client, and
//! sending a streaming request (an error response is read by
//! `error_response`).

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderValue;

use super::ProviderError;

/// How to reach an HTTP provider.
#[derive(Clone)]
pub struct HttpConfig {
    pub base_url: String,
    pub api_key: Option<String>,
    pub connect_timeout: Duration,
    /// A stream silent for this long, once its answer has begun, is cut.
    pub idle_timeout: Duration,
    /// How long an answer may take to begin: a server that queues requests
    /// for its slots sends nothing until one is free, and that is waiting,
    /// not stalling (`network.first_byte_timeout_secs`).
    pub first_byte_timeout: Duration,
    /// At most this many requests at once (`providers.<name>.max_concurrent`).
    pub max_concurrent: Option<u32>,
    /// Headers every request carries (`[providers.NAME.headers]`): an
    /// endpoint that wants its own (OpenRouter's `X-Title`, a gateway's
    /// key). Their values are treated as secrets.
    pub headers: Vec<(String, String)>,
}

impl fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("connect_timeout", &self.connect_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("first_byte_timeout", &self.first_byte_timeout)
            .field("max_concurrent", &self.max_concurrent)
            .field("headers", &self.headers.iter().map(|(name, _)| name).collect::<Vec<_>>())
            .finish()
    }
}

impl HttpConfig {
    /// The base URL joined with a path, without doubled slashes.
    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base_url.trim_end_matches('/'), path.trim_start_matches('/'))
    }

    /// The API key as a header value after `scheme` (e.g. `Bearer `),
    /// trimmed and marked sensitive so it never shows in `Debug`.
    pub fn key_header(&self, scheme: &str) -> Result<Option<HeaderValue>, ProviderError> {
        let Some(key) = self.api_key.as_deref() else { return Ok(None) };
        let mut value =
            HeaderValue::from_str(&format!("{scheme}{}", key.trim())).map_err(|_| ProviderError::BadRequest {
                status: 0,
                message: "the API key holds characters no HTTP header can carry".into(),
            })?;
        value.set_sensitive(true);
        Ok(Some(value))
    }

    /// This server's own headers, each value marked sensitive.
    pub fn header_map(&self) -> reqwest::header::HeaderMap {
        header_map(&self.headers)
    }

    /// How long a streamed request waits on this server.
    pub fn waits(&self) -> Waits {
        Waits { first_byte: self.first_byte_timeout, idle: self.idle_timeout }
    }

    /// The client for this server, carrying its own headers (shared: see [`shared_client`]).
    pub fn client(&self) -> reqwest::Client {
        shared_client(&Made { connect: Some(self.connect_timeout), whole: None, headers: self.headers.clone() })
            .unwrap_or_default()
    }
}

/// `headers` as a request carries them, each value marked sensitive (one
/// no request can carry was refused when the config was read, and is left
/// out here).
pub fn header_map(headers: &[(String, String)]) -> reqwest::header::HeaderMap {
    let mut map = reqwest::header::HeaderMap::new();
    for (name, value) in headers {
        let name = reqwest::header::HeaderName::from_bytes(name.trim().as_bytes());
        if let (Ok(name), Ok(mut value)) = (name, HeaderValue::from_str(value.trim())) {
            value.set_sensitive(true);
            map.insert(name, value);
        }
    }
    map
}

/// What an HTTP client is made with: its timeouts and the headers every
/// request carries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Made {
    /// How long a connection may take to open.
    pub connect: Option<Duration>,
    /// How long a whole request may take (a probe's).
    pub whole: Option<Duration>,
    pub headers: Vec<(String, String)>,
}

/// The client made with `made`, made once a process and shared: making one
/// reads the system's root certificates, and a tournament's debates (or a
/// server's probes) ask the same servers again and again over its pooled
/// connections.
pub fn shared_client(made: &Made) -> reqwest::Result<reqwest::Client> {
    static MADE: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<Made, reqwest::Client>>> =
        std::sync::LazyLock::new(Default::default);
    let mut clients = MADE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(client) = clients.get(made) {
        return Ok(client.clone());
    }
    let mut builder = client_builder().default_headers(header_map(&made.headers));
    builder = builder.user_agent(concat!("heat/", env!("CARGO_PKG_VERSION")));
    if let Some(connect) = made.connect {
        builder = builder.connect_timeout(connect);
    }
    if let Some(whole) = made.whole {
        builder = builder.timeout(whole);
    }
    let client = builder.build()?;
    clients.insert(made.clone(), client.clone());
    Ok(client)
}

/// The start of every HTTP client heat makes. TLS is rustls on ring, which
/// is installed as the process's crypto provider the first time.
pub fn client_builder() -> reqwest::ClientBuilder {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        // Err only when a provider is already installed: that one serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}

/// A stream that fails at once with `error`.
pub fn failed(error: ProviderError) -> super::ChunkStream {
    Box::pin(futures::stream::once(async move { Err(error) }))
}

/// How long a streamed request waits: for the first byte of its answer
/// (a server's queue included), then between reads once it has begun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waits {
    pub first_byte: Duration,
    pub idle: Duration,
}

impl Waits {
    /// Why a request that got nothing by its first-byte deadline failed.
    pub fn not_started(&self) -> ProviderError {
        ProviderError::NotStarted(format!("nothing came within {} of the request", seconds(self.first_byte)))
    }
}

/// Sends a request and returns the response if its status is a success.
/// The response head may take until `waits.first_byte` (a server that
/// queues a request answers when a slot frees); an error body is read
/// within `waits.idle`.
pub async fn send(request: reqwest::RequestBuilder, waits: Waits) -> Result<reqwest::Response, ProviderError> {
    let idle = waits.idle;
    let response = tokio::time::timeout(waits.first_byte, request.send())
        .await
        .map_err(|_| waits.not_started())?
        .map_err(|e| transport_error(&e))?;
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Ok(response);
    }
    let headers = response.headers().clone();
    let mut url = response.url().clone();
    url.set_query(None);
    let body = tokio::time::timeout(idle, response.text()).await.ok().and_then(Result::ok).unwrap_or_default();
    // The whole body goes to the log file; a person reads one line of it.
    tracing::warn!(status, url = %url, body = %body, "the provider answered with an error");
    Err(match super::error_response::classify(status, &headers, &body) {
        ProviderError::BadRequest { status: 404, message } => ProviderError::NotFound { url: url.to_string(), message },
        other => other,
    })
}

/// A duration as people read it in a message: `30 s`, `0.25 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{} s", (duration.as_secs_f64() * 100.0).round() / 100.0)
}

fn transport_error(error: &reqwest::Error) -> ProviderError {
    let detail = without_url(error);
    if error.is_timeout() {
        ProviderError::Timeout(detail)
    } else if error.is_connect() {
        // The innermost cause says why ("Connection refused", a name that
        // does not resolve); the layers above it only repeat "connect error".
        let mut root: &dyn std::error::Error = error;
        while let Some(cause) = root.source() {
            root = cause;
        }
        let host = error.url().and_then(|u| {
            u.host_str().map(|h| format!("{h}{}", u.port().map(|p| format!(":{p}")).unwrap_or_default()))
        });
        ProviderError::Connect(format!("{}{root}", host.map(|h| format!("{h}: ")).unwrap_or_default()))
    } else if error.is_builder() {
        // e.g. an API key with a character a header cannot carry: no retry heals that.
        ProviderError::BadRequest { status: 0, message: format!("the request could not be built: {detail}") }
    } else {
        ProviderError::StreamCut
    }
}

/// reqwest's message, with the URL (which may carry a query) left out.
fn without_url(error: &reqwest::Error) -> String {
    let mut message = error.to_string();
    if let Some(url) = error.url() {
        message = message.replace(&format!(" ({url})"), "").replace(url.as_str(), "the server");
    }
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message = format!("{message}: {cause}");
        source = cause.source();
    }
    message
}

/// A JSON string field read without a copy when it has no escapes. serde
/// borrows only for a bare `Cow<str>` field, not inside an `Option`; this
/// newtype keeps `Option<JsonStr>` zero-copy.
#[derive(Debug, serde::Deserialize)]
pub struct JsonStr<'a>(#[serde(borrow)] pub std::borrow::Cow<'a, str>);

impl std::ops::Deref for JsonStr<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl JsonStr<'_> {
    pub fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_borrowed_unless_escaped() {
        #[derive(serde::Deserialize)]
        struct Probe<'a> {
            #[serde(borrow)]
            text: Option<JsonStr<'a>>,
        }
        let plain: Probe<'_> = serde_json::from_str(r#"{"text":"abc"}"#).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(plain.text, Some(JsonStr(std::borrow::Cow::Borrowed("abc")))));
        let escaped: Probe<'_> = serde_json::from_str(r#"{"text":"a\nb"}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(escaped.text.map(JsonStr::into_owned).as_deref(), Some("a\nb"));
    }

    #[test]
    fn key_headers_are_trimmed_sensitive_and_checked() {
        let mut config = HttpConfig {
            base_url: String::new(),
            api_key: Some(" sk-1\n".into()),
            connect_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(1),
            first_byte_timeout: Duration::from_secs(1),
            max_concurrent: None,
            headers: Vec::new(),
        };
        let value = config.key_header("Bearer ").unwrap().unwrap();
        assert_eq!(value.to_str().unwrap(), "Bearer sk-1");
        assert!(value.is_sensitive() && !format!("{value:?}").contains("sk-1"));
        config.api_key = Some("sk-\u{7}bell".into());
        let error = config.key_header("").unwrap_err();
        assert!(!error.is_retryable() && !error.to_string().contains("bell"), "{error}");
        config.api_key = None;
        assert_eq!(config.key_header(""), Ok(None));
    }

    #[test]
    fn debug_never_shows_the_key() {
        let config = HttpConfig {
            base_url: "https://api.example.com/".into(),
            api_key: Some("sk-very-secret".into()),
            connect_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(1),
            first_byte_timeout: Duration::from_secs(1),
            max_concurrent: None,
            headers: Vec::new(),
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-very-secret") && shown.contains("<redacted>"));
        assert_eq!(config.url("/v1/messages"), "https://api.example.com/v1/messages");
    }
}
