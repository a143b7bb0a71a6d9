//! Times as the report and the export write them.

/// `2026-11-24T12:00:00Z` from ms since the epoch.
pub fn rfc3339(ms: u64) -> String {
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    humantime::format_rfc3339_seconds(time).to_string()
}

/// `+01:05` from ms since the session was created.
pub fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("+{:02}:{:02}", s / 60, s % 60)
}
