//! Why a download request failed, in words a person reads.

/// Why a request failed, in words: the innermost cause, not reqwest's layers.
pub fn why(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        return "no answer in time".into();
    }
    let mut root: &dyn std::error::Error = error;
    while let Some(cause) = root.source() {
        root = cause;
    }
    root.to_string()
}
